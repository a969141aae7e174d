"""A table game's listed moves, posted back as listed (a card unknown to the seat still null),
are judged by the rules in every game: a violation naming what is missing (200, legal false),
never a schema error (422). Likewise a count the rules check (Call of Katulhu's 4 toys)."""

from __future__ import annotations

import pytest

from referee.app import create_app
from tests.games.catatac.catatac_helpers import build

TABLE = {"chance": "table"}


@pytest.fixture()
def client():
    return create_app({"TESTING": True}).test_client()


def _create(client, game, players=2, options=None):
    answer = client.post("/v1/matches", json={"game": game, "players": players, "seed": "nulls",
                                              "options": options or {}})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json(), answer.headers["ETag"]


def _legal(client, match, seat):
    answer = client.get(f"/v1/matches/{match['id']}/legal-moves?seat={seat}",
                        headers={"Authorization": f"Bearer {match['seats'][seat]['secret']}"})
    assert answer.status_code == 200
    return answer.get_json()["moves"], answer.headers["ETag"]


def _post(client, match, seat, move, etag):
    return client.post(f"/v1/matches/{match['id']}/moves", json={"move": move},
                       headers={"Authorization": f"Bearer {match['seats'][seat]['secret']}", "If-Match": etag})


def test_catatac_table_refill_listed_with_a_null_card_is_card_required(client):
    """CATATAC, 3. Refilling Your Hand at a table: the listed draw {"card": null} posted back is
    the violation CARD_REQUIRED (it was a 422 "Field may not be null.")."""
    match, etag = _create(client, "catatac", options=TABLE)
    moves, etag = _legal(client, match, 0)
    play = next(m for m in moves if m["type"] == "play" and m["pair"] is None and m["block"] is None)
    answer = _post(client, match, 0, play, etag)
    assert answer.status_code == 200 and answer.get_json()["legal"] is True
    moves, etag = _legal(client, match, 0)
    assert moves == [{"type": "draw", "player": 0, "card": None, "table_fills": ["card"]}]
    verdict = _post(client, match, 0, moves[0], etag)
    assert verdict.status_code == 200
    body = verdict.get_json()
    assert body["legal"] is False
    assert [(v["code"], v["rule"]) for v in body["violations"]] == [("CARD_REQUIRED", "3. Refilling Your Hand")]


def test_catatac_table_decline_with_a_null_points_card_is_points_card_required(client):
    """CATATAC, Stash Attempt at a table: the last decline with "points_card": null is the
    violation POINTS_CARD_REQUIRED (the table names the points card taken)."""
    from referee.games.catatac import cards as C
    state = build([["P1-1"], ["P2-1"]], ["P8-4"], ("white_hideout", "white"), turn=1, phase="answer",
                  stash={"clan": "white", "by": 0, "next": 1, "answer": [1]}, chance="table",
                  points_deck=sorted(C.POINTS_IDS))
    move = {"type": "decline", "player": 1, "points_card": None, "coins": ["black"]}
    answer = client.post("/v1/games/catatac/adjudicate", json={"state": state, "move": move})
    assert answer.status_code == 200, answer.get_json()
    assert [v["code"] for v in answer.get_json()["violations"]] == ["POINTS_CARD_REQUIRED"]


def test_scratch_and_catch_table_pile_card_listed_as_null_is_card_required(client):
    """Scratch & Catch, Game Progress at a table: the listed play from the pile with a null card."""
    match, etag = _create(client, "scratch-and-catch", options=TABLE)
    moves, etag = _legal(client, match, 0)
    pile = next(m for m in moves if m.get("source") == "pile")
    assert pile["card"] is None and pile["table_fills"] == ["card"]
    body = _post(client, match, 0, pile, etag).get_json()
    assert body["legal"] is False and [v["code"] for v in body["violations"]] == ["CARD_REQUIRED"]


@pytest.mark.parametrize("toys", [[], ["claw"], ["a", "b", "c"], ["a", "b", "c", "d", "e"]])
def test_call_of_katulhu_wrong_toy_count_is_a_violation(client, toys):
    """Call of Katulhu, Gameplay: a placement of another number of toys than 4 is the violation
    WRONG_TOY_COUNT (the schema no longer answers it first)."""
    state = client.post("/v1/games/call-of-katulhu/setup", json={"players": 2, "seed": "toys"}).get_json()["state"]
    answer = client.post("/v1/games/call-of-katulhu/adjudicate",
                         json={"state": state, "move": {"type": "place", "player": 0, "toys": toys}})
    assert answer.status_code == 200, answer.get_json()
    assert [v["code"] for v in answer.get_json()["violations"]] == ["WRONG_TOY_COUNT"]


def test_call_of_katulhu_table_reveal_listed_with_a_null_cat_is_cat_required(client):
    """Call of Katulhu at a table (Setup, Gameplay): the cats turned up are named by reveal moves;
    the listed reveal {"cat": null} posted back is the violation CAT_REQUIRED."""
    match, etag = _create(client, "call-of-katulhu", options=TABLE)
    moves, etag = _legal(client, match, 0)
    assert moves and all(m == {"type": "reveal", "player": 0, "cat": None, "table_fills": ["cat"]} for m in moves)
    body = _post(client, match, 0, moves[0], etag).get_json()
    assert body["legal"] is False and [v["code"] for v in body["violations"]] == ["CAT_REQUIRED"]


def test_catatac_table_moves_name_what_the_table_fills_in_and_nothing_else():
    """CATATAC at a table, Countering a Stash: White stashed, Black's seat 1 answers holding
    !Stop! 1 (Enemy Possession: counter, then coin flip). Its counter is listed once per coin
    face, the face being what the table names; the decline that lets the stash succeed leaves
    the points card taken null for the table to name, per face of the coin flipped after it
    (Stash Attempt). A null pair, block or order is a choice not taken: never in table_fills."""
    from referee.games import GAMES
    from referee.games.catatac import cards as C
    state = build([["P1-1"], ["stop-1"]], ["P8-4"], ("white_hideout", "white"), turn=1, phase="answer",
                  stash={"clan": "white", "by": 0, "next": 1, "answer": [1]}, chance="table",
                  points_deck=sorted(C.POINTS_IDS))
    moves = GAMES["catatac"].seat_moves(state, 1)
    counters = [m for m in moves if m["type"] == "play" and m["block"] is not None]
    assert sorted(m["coins"][0] for m in counters) == ["black", "white"]
    assert all(m["table_fills"] == ["coins"] for m in counters)
    declines = [m for m in moves if m["type"] == "decline"]
    assert sorted(m["coins"][0] for m in declines) == ["black", "white"]
    assert all(m["points_card"] is None and m["table_fills"] == ["points_card", "coins"] for m in declines)
    # Playing a Card with No Effect: a 1 on an 8 makes no pair and has no block; nothing to name.
    playing = build([["P1-1"], ["P2-1"]], ["P8-4"], chance="table")
    assert GAMES["catatac"].seat_moves(playing, 0) == [
        {"type": "play", "player": 0, "card": "P1-1", "pair": None, "block": None, "order": None}]
