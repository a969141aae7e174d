"""Conditional requests on matches (RFC 9110 section 13): If-None-Match on reads (polling) and
If-Match on moves (strong comparison, quoted entity tags only)."""

from __future__ import annotations

import pytest

from referee.app import create_app
from referee.store.memory import MemoryStore

PROBLEM = "application/problem+json"


@pytest.fixture()
def table():
    client = create_app({"TESTING": True, "REFEREE_STORE": MemoryStore()}).test_client()
    created = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "poll"}).get_json()
    return client, created


def _auth(created, seat):
    return {"Authorization": f"Bearer {created['seats'][seat]['secret']}"}


def _first_legal(client, created, seat=0):
    answer = client.get(f"/v1/matches/{created['id']}/legal-moves?seat={seat}", headers=_auth(created, seat))
    return answer.get_json()["moves"][0], answer.headers["ETag"]


@pytest.mark.parametrize("path", ["", "/log"])
def test_polling_with_if_none_match_answers_304_until_a_move_lands(table, path):
    """RFC 9110 section 13.1.2 and 15.4.5: 304 with the ETag and no body while the match is at
    the version named; the full answer once a legal move made a new version."""
    client, created = table
    url = f"/v1/matches/{created['id']}{path}"
    first = client.get(url)
    assert first.status_code == 200 and first.headers["ETag"] == '"0"'
    unchanged = client.get(url, headers={"If-None-Match": '"0"'})
    assert unchanged.status_code == 304
    assert unchanged.headers["ETag"] == '"0"' and unchanged.get_data() == b""
    assert unchanged.headers["Cache-Control"] == "private, no-cache"
    # Weak comparison for If-None-Match; a list; and * (any current representation).
    for header in ('W/"0"', '"5", "0"', "*"):
        assert client.get(url, headers={"If-None-Match": header}).status_code == 304, header
    move, etag = _first_legal(client, created)
    moved = client.post(f"/v1/matches/{created['id']}/moves", json={"move": move},
                        headers={"If-Match": etag, **_auth(created, 0)})
    assert moved.status_code == 200 and moved.get_json()["legal"] is True
    changed = client.get(url, headers={"If-None-Match": '"0"'})
    assert changed.status_code == 200 and changed.headers["ETag"] == '"1"'
    assert changed.get_json()["version"] == 1
    assert client.get(url, headers={"If-None-Match": '"1"'}).status_code == 304


def test_if_none_match_is_checked_after_the_seat_secret(table):
    """A 304 tells nothing a 200 would not: a seat's view still needs its secret first."""
    client, created = table
    url = f"/v1/matches/{created['id']}?seat=1"
    assert client.get(url, headers={"If-None-Match": '"0"'}).status_code == 401
    assert client.get(url, headers={"If-None-Match": '"0"', **_auth(created, 0)}).status_code == 403
    assert client.get(url, headers={"If-None-Match": '"0"', **_auth(created, 1)}).status_code == 304


def test_a_weak_if_match_is_a_412_that_says_weak_tags_never_match(table):
    """RFC 9110 section 13.1.1: If-Match uses the strong comparison (section 8.8.3.2), so
    W/"0" does not match the current "0"; the 412 says so instead of "another version"."""
    client, created = table
    move, _ = _first_legal(client, created)
    answer = client.post(f"/v1/matches/{created['id']}/moves", json={"move": move},
                         headers={"If-Match": 'W/"0"', **_auth(created, 0)})
    assert answer.status_code == 412 and answer.content_type == PROBLEM
    assert answer.headers["ETag"] == '"0"'
    detail = answer.get_json()["detail"]
    assert "weak tag W/\"0\" never matches" in detail and "RFC 9110" in detail
    assert "another version" not in detail
    assert client.get(f"/v1/matches/{created['id']}").get_json()["version"] == 0


@pytest.mark.parametrize("header", ["0", "1", "0, 1", '"0', "W/0", "'0'"])
def test_an_unquoted_if_match_is_a_400_problem_not_accepted(table, header):
    """RFC 9110 section 8.8.3: an entity tag is quoted ("0"); If-Match: 0 is malformed. It is
    answered 400 with a pointer to the header, and the match does not change."""
    client, created = table
    move, _ = _first_legal(client, created)
    answer = client.post(f"/v1/matches/{created['id']}/moves", json={"move": move},
                         headers={"If-Match": header, **_auth(created, 0)})
    assert answer.status_code == 400 and answer.content_type == PROBLEM
    problem = answer.get_json()
    assert problem["type"] == "/problems/malformed-header"
    assert problem["errors"] == [{"pointer": "/headers/If-Match", "detail": "not a list of quoted entity tags"}]
    assert client.get(f"/v1/matches/{created['id']}").get_json()["version"] == 0


def test_match_reads_declare_the_seat_parameter_in_the_contract():
    """A generated client can ask for a seat's view and log: ?seat= is declared on every match
    read, with If-None-Match and the 304 answer."""
    spec = create_app({"TESTING": True}).extensions["referee.api"].spec.to_dict()
    for path in ("/v1/matches/{match_id}", "/v1/matches/{match_id}/log", "/v1/matches/{match_id}/legal-moves"):
        operation = spec["paths"][path]["get"]
        names = {(p["in"], p["name"]) for p in operation["parameters"]}
        assert ("query", "seat") in names, path
        assert ("header", "Authorization") not in names  # the security scheme carries it
    for path in ("/v1/matches/{match_id}", "/v1/matches/{match_id}/log"):
        operation = spec["paths"][path]["get"]
        assert ("header", "If-None-Match") in {(p["in"], p["name"]) for p in operation["parameters"]}
        assert "ETag" in operation["responses"]["304"]["headers"]


def test_a_move_on_a_match_that_does_not_exist_is_404_even_without_if_match(table):
    """The first thing wrong with such a request is the match: 404, not 428 for the header."""
    client, created = table
    move, _etag = _first_legal(client, created)
    answer = client.post("/v1/matches/no-such-match/moves", json={"move": move}, headers=_auth(created, 0))
    assert answer.status_code == 404
    assert answer.get_json()["detail"] == ('No match "no-such-match": it never existed or it expired. Check the id, '
                                           "or create a match (POST /v1/matches).")
    assert client.post(f"/v1/matches/{created['id']}/moves", json={"move": move},
                       headers=_auth(created, 0)).status_code == 428


def test_preference_applied_only_on_an_answer_that_waited(table):
    """RFC 7240: Preference-Applied says the wait was honoured. If-None-Match naming an older
    version is answered at once (200, nothing to wait for), so without it; naming the current
    version, the answer waited (304 after the wait) and says so."""
    client, created = table
    move, etag = _first_legal(client, created)
    assert client.post(f"/v1/matches/{created['id']}/moves", json={"move": move},
                       headers={"If-Match": etag, **_auth(created, 0)}).status_code == 200
    url = f"/v1/matches/{created['id']}"
    at_once = client.get(url, headers={"If-None-Match": '"0"', "Prefer": "wait=1"})
    assert at_once.status_code == 200 and "Preference-Applied" not in at_once.headers
    waited = client.get(url, headers={"If-None-Match": '"1"', "Prefer": "wait=1"})
    assert waited.status_code == 304 and waited.headers["Preference-Applied"] == "wait=1"


@pytest.mark.parametrize("header", [None, "*"])
def test_a_move_without_a_version_in_if_match_is_428_and_its_title_fits_both_cases(table, header):
    """RFC 6585 section 3: 428 for a move without If-Match, and for ``If-Match: *`` too (any
    version would do, which a referee must not accept): the title says a version is needed,
    which is true whether the header was missing or named none."""
    client, created = table
    move, _etag = _first_legal(client, created)
    headers = _auth(created, 0) | ({} if header is None else {"If-Match": header})
    answer = client.post(f"/v1/matches/{created['id']}/moves", json={"move": move}, headers=headers)
    assert answer.status_code == 428 and answer.content_type == PROBLEM
    assert answer.get_json()["title"] == "This request needs If-Match naming a version"


def test_simultaneous_placements_are_one_version_each(mclient):
    """docs/guides/matches.md, Versions: Call of Katulhu's seats place at the same time (rulebook,
    Gameplay: both players place their 4 selected toys), but each placement is a version. The
    second seat's placement chosen on version 0 gets 412; at version 1 its view shows only that
    the other seat has placed, and the same placement sent on version 1 lands and reveals both."""
    created = mclient.post("/v1/matches", json={"game": "call-of-katulhu", "players": 2, "seed": "together"}).get_json()
    match = f"/v1/matches/{created['id']}"
    chosen = {}
    for seat in (0, 1):
        listed = mclient.get(f"{match}/legal-moves?seat={seat}", headers=_auth(created, seat))
        assert listed.headers["ETag"] == '"0"'
        chosen[seat] = listed.get_json()["moves"][0]
    first = mclient.post(f"{match}/moves", json={"move": chosen[0]}, headers={**_auth(created, 0), "If-Match": '"0"'})
    assert first.status_code == 200 and first.get_json()["legal"] and first.headers["ETag"] == '"1"'
    late = mclient.post(f"{match}/moves", json={"move": chosen[1]}, headers={**_auth(created, 1), "If-Match": '"0"'})
    assert late.status_code == 412 and late.headers["ETag"] == '"1"'
    seen = mclient.get(f"{match}?seat=1", headers=_auth(created, 1)).get_json()["state"]["players"][0]
    assert seen["placed"] is True and "placement" not in seen and "hand" not in seen
    assert chosen[1] in mclient.get(f"{match}/legal-moves?seat=1", headers=_auth(created, 1)).get_json()["moves"]
    second = mclient.post(f"{match}/moves", json={"move": chosen[1]}, headers={**_auth(created, 1), "If-Match": '"1"'})
    assert second.status_code == 200 and second.get_json()["legal"] and second.headers["ETag"] == '"2"'
    revealed = [event for event in second.get_json()["events"] if event["type"] == "toys_revealed"]
    # Both placements, slot by slot (rulebook, Reveal): seat 0's toy, then seat 1's.
    assert [slot["toys"] for slot in revealed[0]["slots"]] == [list(pair) for pair in zip(chosen[0]["toys"],
                                                                                           chosen[1]["toys"])]


def test_legal_moves_answer_304_while_the_match_is_at_the_version_named(table):
    """RFC 9110 section 13.1.2: an origin server MUST NOT perform a GET whose If-None-Match
    holds the representation's entity tag, and answers 304. A seat's legal moves carry the
    match's version as their ETag, as the match and its log do; the secret comes first."""
    client, created = table
    url = f"/v1/matches/{created['id']}/legal-moves?seat=0"
    assert client.get(url, headers={"If-None-Match": '"0"'}).status_code == 401
    unchanged = client.get(url, headers={"If-None-Match": '"0"', **_auth(created, 0)})
    assert unchanged.status_code == 304 and unchanged.get_data() == b""
    assert unchanged.headers["ETag"] == '"0"' and unchanged.headers["Cache-Control"] == "private, no-cache"
    assert unchanged.headers["Vary"] == "Authorization"
    assert client.get(url, headers={"If-None-Match": '"1"', **_auth(created, 0)}).status_code == 200
