"""Answers say what is wrong in the words of the thing that is wrong (issue: wording)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from referee.app import create_app
from referee.store.memory import MemoryStore


def _client():
    return create_app({"TESTING": True, "REFEREE_STORE": MemoryStore()}).test_client()


def test_a_bad_query_parameter_is_not_called_a_request_body():
    client = _client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}).get_json()
    problem = client.get(f"/v1/matches/{match['id']}?seat=abc").get_json()
    assert problem["status"] == 422
    assert problem["detail"] == ("A query parameter does not fit the schema of this operation: correct the "
                                 "parameters the errors point at.")
    assert problem["errors"] == [{"pointer": "/query/seat", "detail": "Not a valid integer."}]
    body = client.post("/v1/games/catatac/setup", json={"players": "two"}).get_json()
    assert body["detail"] == ("The request body does not fit the schema of this operation: correct the fields the "
                              "errors point at (the schema is in /openapi.yaml, shown at /docs).")


def test_an_impossible_state_detail_names_places_with_the_pointer_prefix():
    """Both the pointer and the place the detail names are pointers into the request body."""
    client = _client()
    state = client.post("/v1/games/scratch-and-catch/setup", json={"players": 2, "seed": "twice"}).get_json()["state"]
    card = state["players"][0]["hand"][0]
    state["players"][1]["hand"][0] = card
    problem = client.post("/v1/games/scratch-and-catch/legal-moves", json={"state": state}).get_json()
    details = {e["pointer"]: e["detail"] for e in problem["errors"]}
    assert details["/state/players/1/hand/0"] == f"card {card} is also at /state/players/0/hand/0"


def test_a_table_move_naming_a_card_no_deck_has_says_unknown_card_id_in_a_match():
    """Scratch & Catch at a table: a card id of the right form that the deck does not have is
    UNKNOWN_CARD ("Unknown card id"), as the stateless check says, not "cannot be in the draw pile"."""
    client = _client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "u",
                                             "options": {"chance": "table"}}).get_json()
    move = {"type": "play", "player": 0, "source": "pile", "card": "C10-99"}
    verdict = client.post(f"/v1/matches/{match['id']}/moves", json={"move": move},
                          headers={"If-Match": '"0"', "Authorization": f"Bearer {match['seats'][0]['secret']}"})
    [violation] = verdict.get_json()["violations"]
    assert violation["code"] == "UNKNOWN_CARD"
    assert violation["message"] == "Unknown card id C10-99: this game's deck has no such card."


def test_catatac_table_draw_of_a_card_no_deck_has_is_unknown_card():
    from referee.games.catatac import GAME
    from tests.games.catatac.catatac_helpers import build
    state = build([["P1-1", "P1-2"], ["P3-1", "charge-1"]], ["P8-4"], chance="table")
    after = GAME.adjudicate(state, {"type": "play", "player": 0, "card": "P1-1", "pair": None, "block": None,
                                    "order": None}).state
    codes = lambda move: [v.code for v in GAME.adjudicate(after, move).violations]  # noqa: E731
    assert codes({"type": "draw", "player": 0, "card": "P9-1"}) == ["UNKNOWN_CARD"]
    # A real card, elsewhere: the deck's one Charge is in seat 1's hand (another P1 would be drawn
    # in place of P1-1, rules notes).
    assert codes({"type": "draw", "player": 0, "card": "charge-1"}) == ["CARD_NOT_IN_DECK"]


def test_referee_serve_on_a_taken_port_names_bind_and_a_free_port():
    """The hint names a port that is free now: the next one is taken too, so it is not that."""
    with socket.socket() as taken, socket.socket() as next_taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        try:
            next_taken.bind(("127.0.0.1", port + 1))
            next_taken.listen()
        except OSError:
            pass  # in use already: either way the hint must pass over it
        env = {k: v for k, v in os.environ.items() if k not in ("BIND", "REDIS_URL", "WEB_CONCURRENCY")}
        env["BIND"] = f"127.0.0.1:{port}"
        result = subprocess.run([str(Path(sys.executable).with_name("referee")), "serve"], env=env, cwd="/",
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 1
        assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
        assert "Set BIND" in result.stderr and "--bind" in result.stderr
        suggested = re.search(r"e\.g\. BIND=127\.0\.0\.1:(\d+) \(free now\)", result.stderr)
        assert suggested, result.stderr
        assert int(suggested.group(1)) > port + 1
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", int(suggested.group(1))))  # free indeed


def test_scratch_and_catch_seeded_pile_play_naming_a_card_reads_as_a_sentence():
    """Game Progress: with the seeded generator the referee turns the pile's top card, so a
    pile play that names one is refused in words ("the card drawn", not the field name)."""
    client = _client()
    state = client.post("/v1/games/scratch-and-catch/setup", json={"players": 2, "seed": "named"}).get_json()["state"]
    move = {"type": "play", "player": 0, "source": "pile", "card": state["draw_pile"][0]}
    english = client.post("/v1/games/scratch-and-catch/adjudicate", json={"state": state, "move": move}).get_json()
    assert [v["code"] for v in english["violations"]] == ["SEEDED_CHANCE"]
    assert english["violations"][0]["message"] == ("With the seeded generator the referee turns the cards of the "
                                                   "draw pile: a move does not name the card drawn.")
    japanese = client.post("/v1/games/scratch-and-catch/adjudicate", json={"state": state, "move": move},
                           headers={"Accept-Language": "ja"}).get_json()
    assert japanese["violations"][0]["message"] == ("シード付き乱数のゲームでは、"
                                                    "山札のカードをめくるのは審判が行います。"
                                                    "引いたカードを手に示すことはできません。")


def test_a_state_of_another_game_is_told_so_alone():
    """A state posted to another game's operation (the game field names another game): one
    error, at /state/game, rather than every field the two games do not share (a CATATAC
    state sent to Scratch & Catch got only the hands' length errors, the others 30 to 47
    errors). Likewise a state of another schema version."""
    from referee.games import GAMES

    client = _client()
    for sent, judging in (("catatac", "scratch-and-catch"), ("scratch-and-catch", "call-of-katulhu"),
                          ("call-of-katulhu", "catatac")):
        state = GAMES[sent].setup(2, "other", {})
        for operation, body in (("legal-moves", {"state": state}), ("score", {"state": state}),
                                ("adjudicate", {"state": state, "move": {"type": "pass", "player": 0}})):
            problem = client.post(f"/v1/games/{judging}/{operation}", json=body).get_json()
            assert problem["status"] == 422, (sent, judging, operation)
            assert problem["errors"] == [{"pointer": "/state/game", "detail": "A state of another game: "
                                          f"this operation judges {judging} states."}], (sent, judging, operation)
    state = GAMES["catatac"].setup(2, "later", {})
    state["schema_version"] = 2
    problem = client.post("/v1/games/catatac/score", json={"state": state}).get_json()
    assert problem["errors"] == [{"pointer": "/state/schema_version", "detail": "Must be equal to 1."}]
    state["schema_version"] = "1"   # the wrong type: marshmallow's usual answers, every one of them
    problem = client.post("/v1/games/catatac/score", json={"state": state}).get_json()
    assert {"pointer": "/state/schema_version", "detail": "Not a valid integer."} in problem["errors"]


def test_errors_of_a_catalogue_s_beats_point_at_the_member_they_concern():
    """Call of Katulhu's beats (toy -> toys it beats) is an object: an error of a value's item
    points at that item, a bad name at its member, never at marshmallow's "key" and "value"
    places, which the body does not have."""
    import copy

    from referee.games.call_of_katulhu.cards import DEFAULT_CATALOGUE

    client = _client()
    not_an_id = "not an id (a letter or digit, then letters, digits and . _ : -, at most 40 characters)"

    def errors(beats_change):
        catalogue = copy.deepcopy(DEFAULT_CATALOGUE)
        beats_change(catalogue["beats"])
        answer = client.post("/v1/games/call-of-katulhu/setup",
                             json={"players": 2, "options": {"catalogue": catalogue}})
        assert answer.status_code == 422
        return sorted((error["pointer"], error["detail"]) for error in answer.get_json()["errors"])

    base = "/options/catalogue/beats"
    assert errors(lambda beats: beats.update(yarn=["feather", "mouse", "not ok!"])) == [(f"{base}/yarn/2", not_an_id)]
    assert errors(lambda beats: beats.update({"a b": []})) == [(f"{base}/a b", f"its name: {not_an_id}")]
    assert errors(lambda beats: beats.update(yarn="feather")) == [(f"{base}/yarn", "Not a valid list.")]
    assert errors(lambda beats: beats.update({"a b": ["x", "bad one"]})) == [
        (f"{base}/a b", f"its name: {not_an_id}"), (f"{base}/a b/1", not_an_id)]
