"""A seat asks its legal moves in a match; reveals make values public in the log."""

from __future__ import annotations

from referee.games import GAMES
from tests.api.matches.test_matches_api import bearer, create, full_state, move


def test_a_seat_gets_its_own_legal_moves(mclient):
    match = create(mclient, players=2).get_json()
    secret0 = match["seats"][0]["secret"]
    answer = mclient.get(f"/v1/matches/{match['id']}/legal-moves?seat=0", headers=bearer(secret0))
    assert answer.status_code == 200 and answer.headers["ETag"] == '"0"'
    moves = answer.get_json()["moves"]
    hand = full_state(mclient, match["id"])["players"][0]["hand"]
    # 4 cards from the hand and the draw pile (seeded: the generator gives its top card).
    assert sorted(m["card"] for m in moves if m["source"] == "hand") == sorted(hand)
    assert {"type": "play", "player": 0, "source": "pile"} in moves and len(moves) == 5
    # Seat 1 is not to move: it has no move; and a seat needs its own secret.
    secret1 = match["seats"][1]["secret"]
    assert mclient.get(f"/v1/matches/{match['id']}/legal-moves?seat=1",
                       headers=bearer(secret1)).get_json()["moves"] == []
    assert mclient.get(f"/v1/matches/{match['id']}/legal-moves?seat=0", headers=bearer(secret1)).status_code == 403
    assert mclient.get(f"/v1/matches/{match['id']}/legal-moves?seat=0").status_code == 401
    assert mclient.get(f"/v1/matches/{match['id']}/legal-moves", headers=bearer(secret0)).status_code == 422


def test_table_cards_hidden_from_the_seat_are_null(mclient):
    match = create(mclient, players=2, options={"chance": "table"}).get_json()
    secret0 = match["seats"][0]["secret"]
    moves = mclient.get(f"/v1/matches/{match['id']}/legal-moves?seat=0", headers=bearer(secret0)).get_json()["moves"]
    assert {"type": "play", "player": 0, "source": "pile", "card": None, "table_fills": ["card"]} in moves
    assert len(moves) == 5   # the pile's cards are not listed to the seat: it names the card it sees


def test_call_of_katulhu_toys_are_public_in_the_log_once_revealed(mclient):
    """Call of Katulhu, Gameplay: toys are placed face down and revealed together; until the
    reveal only their player reads them in the log, afterwards every reader reads both."""
    match = create(mclient, players=2, game="call-of-katulhu", seed="reveal").get_json()
    ids, secrets = match["id"], [s["secret"] for s in match["seats"]]
    game = GAMES["call-of-katulhu"]
    etag = '"0"'
    placed = []
    for seat in (0, 1):
        chosen = next(m for m in game.legal_moves(full_state(mclient, ids)) if m["player"] == seat)
        answer = move(mclient, ids, chosen, secrets[seat], etag)
        assert answer.get_json()["legal"], answer.get_json()
        etag = answer.headers["ETag"]
        placed.append(chosen["toys"])
        if seat == 0:
            before = [mclient.get(f"/v1/matches/{ids}/log{query}", headers=headers).get_json()["entries"][0]
                      for query, headers in (("", {}), ("?seat=1", bearer(secrets[1])),
                                             ("?seat=0", bearer(secrets[0])))]
            assert [entry["move"]["toys"] for entry in before] == [None, None, chosen["toys"]]
            assert [entry["redacted"] for entry in before] == [True, True, False]
    entries = mclient.get(f"/v1/matches/{ids}/log").get_json()["entries"]
    assert entries[0]["move"]["toys"] == placed[0]           # shown once the round revealed it
    assert entries[1]["move"]["toys"] == placed[1]
    assert not entries[0]["redacted"]
    reveal = next(e for e in entries[1]["events"] if e["type"] == "toys_revealed")
    assert all(None not in slot["toys"] for slot in reveal["slots"])


def test_a_seat_the_match_does_not_have_is_422(mclient):
    match = create(mclient, players=2).get_json()
    secret0 = match["seats"][0]["secret"]
    answer = mclient.get(f"/v1/matches/{match['id']}/legal-moves?seat=5", headers=bearer(secret0))
    assert answer.status_code == 422 and answer.get_json()["errors"][0]["pointer"] == "/query/seat"
    moved = move(mclient, match["id"], {"type": "play", "player": 5, "source": "pile"}, secret0, '"0"')
    assert moved.status_code == 422 and moved.get_json()["errors"][0]["pointer"] == "/move/player"
