"""Problem answers say what happened and what to do next, in English or Japanese
(Accept-Language), and quote at most MAX_ECHO characters of what was sent."""

from __future__ import annotations

import json
import re

import pytest

from referee.app import create_app
from referee.limits import MAX_ECHO, MAX_PROBLEM_ERRORS
from referee.store.memory import MemoryStore

JA = {"Accept-Language": "ja"}


@pytest.fixture()
def client():
    return create_app({"TESTING": True, "REFEREE_STORE": MemoryStore()}).test_client()


def _match(client, game="scratch-and-catch"):
    created = client.post("/v1/matches", json={"game": game, "players": 2, "seed": "next"}).get_json()
    secret = created["seats"][0]["secret"]
    moves = client.get(f"/v1/matches/{created['id']}/legal-moves?seat=0",
                       headers={"Authorization": f"Bearer {secret}"}).get_json()["moves"]
    return created["id"], secret, moves[0]


# -- 412: read the match, choose again, send with the current ETag ------------------------------

def test_a_move_chosen_on_an_old_version_is_told_how_to_send_it_again(client):
    match_id, secret, move = _match(client)
    auth = {"Authorization": f"Bearer {secret}"}
    assert client.post(f"/v1/matches/{match_id}/moves", json={"move": move},
                       headers={**auth, "If-Match": '"0"'}).status_code == 200
    english = client.post(f"/v1/matches/{match_id}/moves", json={"move": move}, headers={**auth, "If-Match": '"0"'})
    assert english.status_code == 412 and english.headers["ETag"] == '"1"'
    assert english.get_json()["detail"] == (
        f"The match is at version 1; this move was chosen on version 0. Read the match (GET /v1/matches/{match_id}"
        '?seat=0), choose a move on version 1 and send it with If-Match: "1".')
    assert english.headers["Content-Language"] == "en"
    japanese = client.post(f"/v1/matches/{match_id}/moves", json={"move": move},
                           headers={**auth, **JA, "If-Match": '"0"'})
    assert japanese.get_json()["detail"] == (
        "マッチはバージョン1ですが、この手はバージョン0で選ばれています。"
        f"マッチを読み（GET /v1/matches/{match_id}?seat=0）、バージョン1で手を選んで、"
        'If-Match: "1" を付けて送ってください。')
    assert japanese.get_json()["title"] == "リソースが変更されています"
    assert japanese.headers["Content-Language"] == "ja" and "Accept-Language" in japanese.headers["Vary"]
    assert japanese.get_json()["type"] == "/problems/precondition-failed"
    # The problem type's own page (GET on its type) says what to do too, not only what went wrong.
    described = client.get("/problems/precondition-failed").get_json()["description"]
    assert "Read the match, choose a move on that version and send it with If-Match: that ETag." in described
    assert "weak tag" in described   # W/"1" is refused with this type too (RFC 9110 section 13.1.1)


# -- 401: one problem type for a missing and a wrong secret, titled for both --------------------

@pytest.mark.parametrize("authorization", [None, "Bearer not-a-secret-of-this-match"])
def test_a_missing_or_wrong_secret_is_one_problem_titled_for_both(client, authorization):
    match_id, _, move = _match(client)
    headers = {"If-Match": '"0"', **({"Authorization": authorization} if authorization else {})}
    english = client.post(f"/v1/matches/{match_id}/moves", json={"move": move}, headers=headers)
    assert english.status_code == 401 and english.get_json()["type"] == "/problems/unauthorized"
    assert english.get_json()["title"] == "Seat secret missing or wrong"
    japanese = client.post(f"/v1/matches/{match_id}/moves", json={"move": move}, headers={**headers, **JA})
    assert japanese.get_json()["title"] == "席のシークレットがないか、違います"


# -- 400: a body that is not JSON, told by line, column and byte offset ------------------------

# (body, what the reader found, line, column, byte offset), each worked out by hand:
MALFORMED = [
    # Line 1 "{\n" is 2 bytes, line 2 '  "players": 2,\n' 16, line 3 '  "seed": "é"\n' 14 characters
    # but 15 bytes (é is 2 bytes in UTF-8); line 4 starts with 2 spaces, then "options" where
    # a comma (or "}") was due: line 4, column 3, byte 2 + 16 + 15 + 2 = 35.
    ('{\n  "players": 2,\n  "seed": "\u00e9"\n  "options": {}\n}'.encode("utf-8"),
     "a comma or a closing bracket was expected", 4, 3, 35),
    # {"players": 2, "seed": NaN}: N is the 24th character.
    (b'{"players": 2, "seed": NaN}', "a NaN or Infinity (not JSON numbers)", 1, 24, 23),
    # {"seed": "ab\ud800"}: the backslash of the lone surrogate's escape is the 13th character.
    (b'{"seed": "ab\\ud800"}', "a \\u escape of a lone surrogate (no character)", 1, 13, 12),
    # the 11th byte, 0xff, is no UTF-8
    (b'{"seed": "\xff"}', "a byte that is not UTF-8", 1, 11, 10),
    # {"players": 2} is 14 bytes, then 2 newlines and 2 spaces: x at line 3, column 3, byte 18
    (b'{"players": 2}\n\n  x', "text follows the end of the JSON value", 3, 3, 18),
]


@pytest.mark.parametrize("body, reason, line, column, offset", MALFORMED)
def test_a_body_that_is_not_json_is_told_by_line_column_and_byte_offset(client, body, reason, line, column, offset):
    answer = client.post("/v1/games/catatac/setup", data=body, content_type="application/json")
    assert answer.status_code == 400
    problem = answer.get_json()
    assert problem["type"] == "/problems/bad-request"
    assert problem["detail"] == (f"The request body is not valid JSON: {reason} at line {line}, column {column} "
                                 f"(byte offset {offset}). Correct the JSON text there and send the request again.")
    assert problem["errors"] == [{"pointer": "", "detail": f"{reason} at line {line}, column {column}"}]


def test_a_move_that_is_not_json_is_told_where_in_japanese(client):
    match_id, secret, _move = _match(client)
    body = MALFORMED[0][0]
    answer = client.post(f"/v1/matches/{match_id}/moves", data=body, content_type="application/json",
                         headers={"Authorization": f"Bearer {secret}", "If-Match": '"0"', **JA})
    assert answer.status_code == 400 and answer.headers["Content-Language"] == "ja"
    problem = answer.get_json()
    assert problem["detail"] == ("リクエスト本文が正しいJSONではありません。4行3列目（先頭から35バイト）："
                                 "カンマか閉じかっこがありません。その箇所を直して、もう一度送ってください。")
    assert problem["errors"] == [{"pointer": "", "detail": "4行3列目：カンマか閉じかっこがありません"}]
    assert problem["title"] == "リクエスト本文が正しいJSONではありません"


# -- 422: a move (or a state) posted without its wrapper ----------------------------------------

def test_a_move_posted_without_its_wrapper_is_told_to_wrap_it(client):
    match_id, secret, move = _match(client)
    headers = {"Authorization": f"Bearer {secret}", "If-Match": '"0"'}
    answer = client.post(f"/v1/matches/{match_id}/moves", json=move, headers=headers)
    assert answer.status_code == 422
    problem = answer.get_json()
    assert problem["detail"] == 'The request body looks like a move: send it inside {"move": ...}.'
    # the pointers are marshmallow's, as before: /move is missing, the move's fields are unknown
    assert sorted(error["pointer"] for error in problem["errors"]) == sorted(["/move"] + [f"/{k}" for k in move])
    japanese = client.post(f"/v1/matches/{match_id}/moves", json=move, headers={**headers, **JA}).get_json()
    assert japanese["detail"] == 'リクエスト本文は手そのもののようです。{"move": ...} の中に入れて送ってください。'
    assert {"pointer": "/move", "detail": "必須のフィールドがありません。"} in japanese["errors"]
    assert client.post(f"/v1/matches/{match_id}/moves", json={"move": move}, headers=headers).status_code == 200


def test_adjudicate_tells_a_bare_move_to_come_with_the_state_and_a_bare_state_to_be_wrapped(client):
    state = client.post("/v1/games/scratch-and-catch/setup", json={"players": 2, "seed": "w"}).get_json()["state"]
    move = {"type": "play", "player": 0, "source": "pile"}
    bare_move = client.post("/v1/games/scratch-and-catch/adjudicate", json=move).get_json()
    assert bare_move["detail"] == ('The request body looks like a move: send the state and the move as '
                                   '{"state": ..., "move": ...}.')
    assert sorted(e["pointer"] for e in bare_move["errors"]) == ["/move", "/player", "/source", "/state", "/type"]
    only_state = client.post("/v1/games/scratch-and-catch/adjudicate", json={"state": state, **move}).get_json()
    assert only_state["detail"] == 'The request body looks like a move: send it inside {"move": ...}.'
    bare_state = client.post("/v1/games/scratch-and-catch/legal-moves", json=state).get_json()
    assert bare_state["detail"] == ('The request body looks like a game state: send it inside {"state": ...}, '
                                    "with the operation's other fields beside it.")
    wrapped_but_wrong = client.post("/v1/games/scratch-and-catch/adjudicate",
                                    json={"state": state, "move": {**move, "source": "nowhere"}}).get_json()
    assert wrapped_but_wrong["detail"].startswith("The request body does not fit the schema of this operation")
    assert wrapped_but_wrong["errors"] == [{"pointer": "/move/source", "detail": "Must be one of: hand, pile."}]


# -- bounded echo ---------------------------------------------------------------------------------

def test_a_megabyte_member_name_is_named_by_its_start_and_length(client):
    """A 1 MB unknown member was quoted whole, in its pointer: a 1 MB answer. The pointer
    names the object holding it (the whole body here), the detail its first characters."""
    name = "k" * 1_000_000
    for headers, words in (({}, 'In the member "{}" (1,000,000 characters): Unknown field.'),
                           (JA, "メンバー「{}」（1,000,000文字）：不明なフィールドです。")):
        answer = client.post("/v1/games/catatac/setup", json={"players": 2, name: 1}, headers=headers)
        assert answer.status_code == 422
        assert len(answer.data) < 1024
        assert answer.get_json()["errors"] == [{"pointer": "", "detail": words.format("k" * 63 + "\u2026")}]


def test_a_long_member_name_deeper_in_the_body_is_named_with_the_way_below_it(client):
    """A Call of Katulhu catalogue's beats maps toy ids to toy ids: a member named by 200
    characters holding a number in its list is at /options/catalogue/beats, then /<name>/0."""
    from referee.games.call_of_katulhu.cards import DEFAULT_CATALOGUE

    name = "t" * 200
    catalogue = {**DEFAULT_CATALOGUE, "beats": {**DEFAULT_CATALOGUE["beats"], name: [5]}}
    answer = client.post("/v1/games/call-of-katulhu/setup", json={"players": 2, "options": {"catalogue": catalogue}})
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    shown = "t" * 63 + "\u2026"
    assert {"pointer": "/options/catalogue/beats",
            "detail": f'In the member "{shown}" (200 characters), at /0: Not a valid string.'} in errors
    assert all(len(error["pointer"]) < 100 for error in errors)


def _long_value_requests(client):
    match_id, secret, move = _match(client)
    long = "x" * 5000
    auth = {"Authorization": f"Bearer {secret}"}
    return [
        ("post", f"/v1/matches/{match_id}/moves", {"json": {"move": move}, "headers": {**auth, "If-Match": long}}),
        ("post", f"/v1/matches/{match_id}/moves",
         {"json": {"move": move}, "headers": {**auth, "If-Match": '"0"', "Idempotency-Key": long + " "}}),
        ("get", f"/v1/matches/{match_id}/events", {"headers": {"Last-Event-ID": long}}),
        ("post", "/v1/games/catatac/setup", {"data": "{}", "content_type": "text/" + long}),
        ("post", "/v1/games/catatac/setup",
         {"data": "{}", "content_type": "application/json", "headers": {"Content-Encoding": long}}),
        ("get", f"/v1/matches/{long}", {}),
        ("get", f"/v1/games/{long}", {}),
        ("get", f"/nowhere/{long}", {}),
        ("get", f"/problems/{long}", {}),
        ("post", "/v1/matches", {"json": {"game": "catatac", "players": 2, "options": {long: 1}}}),
        ("post", "/v1/games/catatac/legal-moves", {"json": {"state": {long: 1}}}),
        ("get", f"/v1/matches/{match_id}?seat=1{long}", {"headers": auth}),
    ]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_no_problem_quotes_more_than_max_echo_characters_of_a_request(client, language):
    for method, path, options in _long_value_requests(client):
        options.setdefault("headers", {})["Accept-Language"] = language
        answer = getattr(client, method)(path, **options)
        assert answer.status_code >= 400 and answer.content_type == "application/problem+json", path[:80]
        assert "x" * (MAX_ECHO + 1) not in answer.get_data(as_text=True), (path[:80], answer.data[:300])
        assert len(answer.data) < 2048, (path[:80], len(answer.data))


def test_ten_thousand_unknown_members_answer_fifty_errors_and_their_count(client):
    body = json.dumps({"players": 2, **{f"k{i}": 1 for i in range(10_000)}})   # (in this order)
    answer = client.post("/v1/games/catatac/setup", data=body, content_type="application/json")
    problem = answer.get_json()
    assert len(problem["errors"]) == MAX_PROBLEM_ERRORS
    assert [error["pointer"] for error in problem["errors"]] == [f"/k{i}" for i in range(MAX_PROBLEM_ERRORS)]
    assert problem["detail"].endswith(f"(the first {MAX_PROBLEM_ERRORS} of 10,000 errors are listed)")
    assert len(answer.data) < 3072
    japanese = client.post("/v1/games/catatac/setup", headers=JA, data=body, content_type="application/json")
    japanese = japanese.get_json()
    assert japanese["detail"].endswith(f"（10,000件のエラーのうち最初の{MAX_PROBLEM_ERRORS}件を示しています）")


# -- every kind of problem says what to do, in both languages -------------------------------------

_NEXT_STEP = re.compile(r"\b(send|correct|read|check|choose|try|create|use|name|ask|change|replay|leave|report)\b",
                        re.IGNORECASE)


def _every_kind(client):
    """One request per kind of problem the API answers (gunicorn's own and the store's 503 are
    tested where a real server or store runs)."""
    match_id, secret, move = _match(client)
    auth = {"Authorization": f"Bearer {secret}"}
    other = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}).get_json()
    state = client.post("/v1/games/scratch-and-catch/setup", json={"players": 2, "seed": "k"}).get_json()["state"]
    impossible = json.loads(json.dumps(state))
    impossible["players"][1]["hand"][0] = impossible["players"][0]["hand"][0]
    return {
        "404 path": ("get", "/nowhere", {}),
        "404 game": ("get", "/v1/games/chess", {}),
        "404 match": ("get", "/v1/matches/no-such-match", {}),
        "405": ("delete", "/v1/games", {}),
        "400 JSON": ("post", "/v1/games/catatac/setup", {"data": "{", "content_type": "application/json"}),
        "400 number": ("post", "/v1/games/catatac/setup", {"data": '{"players": ' + "9" * 5000 + "}",
                                                           "content_type": "application/json"}),
        "400 containers": ("post", "/v1/games/catatac/setup", {"data": "[" * 50_001,
                                                               "content_type": "application/json"}),
        "400 If-Match": ("post", f"/v1/matches/{match_id}/moves", {"json": {"move": move},
                                                                  "headers": {**auth, "If-Match": "0"}}),
        "401": ("get", f"/v1/matches/{match_id}?seat=0", {}),
        "401 no seat's": ("get", f"/v1/matches/{match_id}?seat=0", {"headers": {"Authorization": "Bearer nope"}}),
        "401 scheme": ("get", f"/v1/matches/{match_id}?seat=0", {"headers": {"Authorization": "Basic nope"}}),
        "403": ("get", f"/v1/matches/{match_id}?seat=1", {"headers": auth}),
        "412": ("post", f"/v1/matches/{match_id}/moves",
                {"json": {"move": move}, "headers": {**auth, "If-Match": '"7"'}}),
        "412 weak": ("post", f"/v1/matches/{match_id}/moves",
                     {"json": {"move": move}, "headers": {**auth, "If-Match": 'W/"0"'}}),
        "413": ("post", "/v1/games/catatac/setup",
                {"data": " " * (1024 * 1024 + 1), "content_type": "application/json"}),
        "415": ("post", "/v1/games/catatac/setup", {"data": "{}", "content_type": "text/plain"}),
        "415 coding": ("post", "/v1/games/catatac/setup", {"data": "{}", "content_type": "application/json",
                                                           "headers": {"Content-Encoding": "gzip"}}),
        "422 body": ("post", "/v1/games/catatac/setup", {"json": {"players": "two"}}),
        "422 empty": ("post", "/v1/games/catatac/setup", {"data": "", "content_type": "application/json"}),
        "422 query": ("get", f"/v1/matches/{match_id}?seat=x", {}),
        "422 seat": ("get", f"/v1/matches/{match_id}?seat=5", {"headers": auth}),
        "422 players": ("post", "/v1/matches", {"json": {"game": "catatac", "players": 3}}),
        "422 options": ("post", "/v1/matches", {"json": {"game": "catatac", "players": 2, "options": {"x": 1}}}),
        "422 unplayable": ("post", "/v1/games/call-of-katulhu/setup",
                           {"json": {"players": 2, "options": {"hands": "unseen"}}}),
        "422 move": ("post", f"/v1/matches/{match_id}/moves", {"json": {"move": {**move, "source": "x"}},
                                                              "headers": {**auth, "If-Match": '"0"'}}),
        "422 impossible": ("post", "/v1/games/scratch-and-catch/legal-moves", {"json": {"state": impossible}}),
        "422 view seat": ("post", "/v1/games/scratch-and-catch/view", {"json": {"state": state, "seat": 4}}),
        "422 key": ("post", f"/v1/matches/{match_id}/moves", {"json": {"move": move}, "headers": {
            **auth, "If-Match": '"0"', "Idempotency-Key": "two words"}}),
        "422 Last-Event-ID": ("get", f"/v1/matches/{match_id}/events", {"headers": {"Last-Event-ID": "x"}}),
        "428": ("post", f"/v1/matches/{match_id}/moves", {"json": {"move": move}, "headers": auth}),
        "428 star": ("post", f"/v1/matches/{match_id}/moves", {"json": {"move": move},
                                                              "headers": {**auth, "If-Match": "*"}}),
        "404 problem type": ("get", "/problems/nothing", {}),
        "422 another match's secret": ("get", f"/v1/matches/{other['id']}?seat=0", {"headers": auth}),
    }


def test_every_kind_of_problem_says_what_to_do_in_english_and_japanese(client):
    kinds = _every_kind(client)
    for name, (method, path, options) in kinds.items():
        english = getattr(client, method)(path, **options)
        assert english.content_type == "application/problem+json", name
        problem = english.get_json()
        assert _NEXT_STEP.search(problem["detail"]), (name, problem["detail"])
        assert english.headers["Content-Language"] == "en", name
        options = {**options, "headers": {**options.get("headers", {}), **JA}}
        japanese = getattr(client, method)(path, **options)
        translated = japanese.get_json()
        assert japanese.headers["Content-Language"] == "ja", name
        assert (japanese.status_code, translated["type"]) == (english.status_code, problem["type"]), name
        assert [e["pointer"] for e in translated.get("errors", [])] == [e["pointer"] for e in problem.get("errors", [])]
        assert "ください" in translated["detail"], (name, translated["detail"])
        assert re.search("[\u3040-\u30ff]", translated["title"]), (name, translated["title"])
