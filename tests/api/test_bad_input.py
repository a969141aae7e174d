"""Hostile and careless clients: bad input is answered as a problem, never a 500, and the
answers follow HTTP and the contract to the letter."""

import pytest

from referee.app import create_app
from referee.store.memory import MemoryStore

PROBLEM = "application/problem+json"
SETUP = "/v1/games/scratch-and-catch/setup"


def post_raw(client, path, text, **headers):
    return client.post(path, data=text.encode("utf-8"), headers={"Content-Type": "application/json", **headers})


@pytest.mark.parametrize("text", [
    '{"players": 2, "seed": "\\ud800"}',
    '{"players": 2, "seed": "a\\udfff"}',
    '{"players": 2, "seed": "\\udc00\\ud800"}',
])
def test_lone_surrogate_in_a_string_is_bad_json_not_a_500(client, text):
    """A \\uD800 escape alone is no Unicode character (RFC 8259 section 8.2): 400, not a crash."""
    response = post_raw(client, SETUP, text)
    assert response.status_code == 400, response.get_data(as_text=True)
    assert response.content_type == PROBLEM


def test_a_surrogate_pair_is_a_character(client):
    response = post_raw(client, SETUP, '{"players": 2, "seed": "\\ud83d\\udc31"}')
    assert response.status_code == 200
    assert response.get_json()["state"]["rng"]["seed"] == "\U0001F431"


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(client, literal):
    """JSON has no NaN or Infinity (RFC 8259 section 6): the body does not parse."""
    for text in (literal, f'{{"players": 2, "seed": {literal}}}', f'{{"players": {literal}}}'):
        response = post_raw(client, SETUP, text)
        assert response.status_code == 400, (text, response.get_data(as_text=True))
        assert response.content_type == PROBLEM


# -- Accept-Language --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def started(app):
    client = app.test_client()
    state = client.post(SETUP, json={"players": 3, "seed": "friday"}).get_json()["state"]
    return {"state": state, "move": {"type": "play", "player": 1, "source": "pile"}}


@pytest.mark.parametrize("header, japanese", [
    ("ja", True), ("ja-JP", True), ("ja-JP,en;q=0.9", True), ("ja-jp, en-US;q=0.8", True),
    ("en-US,ja;q=0.5", False), ("en;q=0.5, ja", True), ("ja;q=0, en", False), ("*", False),
    ("fr, ja;q=0.1", True), ("*, ja;q=0.5", False), ("ja;q=0.9, *;q=0.1", True), ("fr", False),
    ("de-DE, en-GB;q=0.9, ja;q=0.8", False),
])
def test_japanese_when_the_caller_prefers_japanese(client, started, header, japanese):
    """Messages are Japanese when Accept-Language prefers ja, a regional tag such as ja-JP included."""
    verdict = client.post("/v1/games/scratch-and-catch/adjudicate", json=started,
                          headers={"Accept-Language": header}).get_json()
    message = verdict["violations"][0]["message"]
    assert (message != "It is player 0's turn, not player 1's.") is japanese, message


# -- If-Match ---------------------------------------------------------------------------------

@pytest.fixture()
def match(app):
    matches_app = create_app({"TESTING": True, "REFEREE_STORE": MemoryStore()})
    client = matches_app.test_client()
    created = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "m1"}).get_json()
    secret = created["seats"][0]["secret"]
    return client, created["id"], {"Authorization": f"Bearer {secret}"}


ILLEGAL = {"move": {"type": "play", "player": 0, "source": "hand", "card": "C1-99"}}


@pytest.mark.parametrize("header", ['"0"', '"1", "0"', '"0", "1"', '"7", "0", "3"', 'W/"1", "0"'])
def test_if_match_list_naming_the_current_version_matches(match, header):
    """RFC 9110 section 13.1.1: If-Match is true when any listed strong tag matches."""
    client, match_id, auth = match
    response = client.post(f"/v1/matches/{match_id}/moves", json=ILLEGAL, headers={"If-Match": header, **auth})
    assert response.status_code == 200, response.get_data(as_text=True)


@pytest.mark.parametrize("header", ['"00"', '"000000000000000000"', 'W/"0"', '"1", "2"'])
def test_if_match_naming_no_current_tag_fails(match, header):
    """Strong comparison is character by character: "00" is not the tag "0"."""
    client, match_id, auth = match
    response = client.post(f"/v1/matches/{match_id}/moves", json=ILLEGAL, headers={"If-Match": header, **auth})
    assert response.status_code == 412, response.get_data(as_text=True)
    assert response.content_type == PROBLEM
    assert response.headers["ETag"] == '"0"'


# -- patterns match whole strings -------------------------------------------------------------

def test_a_card_id_with_a_trailing_newline_is_not_a_card_id(client, started):
    """The contract's patterns are JSON Schema patterns, where $ is the end of the string;
    Python's $ also matches before a final newline, so "C7-7\\n" passed as a card id."""
    state = started["state"]
    card = state["players"][0]["hand"][0] + "\n"
    move = {"type": "play", "player": 0, "source": "hand", "card": card}
    response = client.post("/v1/games/scratch-and-catch/adjudicate", json={"state": state, "move": move})
    assert response.status_code == 422, response.get_data(as_text=True)
    assert [e["pointer"] for e in response.get_json()["errors"]] == ["/move/card"]
    bad_state = {**state, "draw_pile": [state["draw_pile"][0] + "\n"] + state["draw_pile"][1:]}
    response = client.post("/v1/games/scratch-and-catch/score", json={"state": bad_state})
    assert response.status_code == 422
    assert [e["pointer"] for e in response.get_json()["errors"]] == ["/state/draw_pile/0"]


def test_a_katulhu_toy_id_with_a_trailing_newline_is_refused(client):
    state = client.post("/v1/games/call-of-katulhu/setup", json={"players": 2, "seed": "nl"}).get_json()["state"]
    toys = list(state["players"][0]["hand"][:4])
    toys[0] += "\n"
    response = client.post("/v1/games/call-of-katulhu/adjudicate",
                           json={"state": state, "move": {"type": "place", "player": 0, "toys": toys}})
    assert response.status_code == 422, response.get_data(as_text=True)
    assert [e["pointer"] for e in response.get_json()["errors"]] == ["/move/toys/0"]
