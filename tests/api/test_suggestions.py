"""Suggestions for an illegal move (docs/guides/stateless.md, "Suggestions"): up to three legal moves of the seat
that proposed it, closest first; in a match, only from what that seat may know (its own
legal-moves listing), never another seat's moves."""

from __future__ import annotations

import json
import random

import pytest

from referee.app import create_app
from referee.store.memory import MemoryStore

GAME_IDS = ("scratch-and-catch", "catatac", "call-of-katulhu")


STORE = MemoryStore(ttl=3600)


@pytest.fixture(scope="module")
def mclient():
    return create_app({"TESTING": True, "REFEREE_STORE": STORE}).test_client()


def _post_move(client, match_id, move, secret, version):
    return client.post(f"/v1/matches/{match_id}/moves", json={"move": move},
                       headers={"Authorization": f"Bearer {secret}", "If-Match": f'"{version}"'})


def _listing(client, match_id, seat, secret):
    return client.get(f"/v1/matches/{match_id}/legal-moves?seat={seat}",
                      headers={"Authorization": f"Bearer {secret}"}).get_json()["moves"]


def test_a_card_not_held_gets_the_movers_other_cards_in_listing_order(client):
    state = client.post("/v1/games/scratch-and-catch/setup", json={"players": 2, "seed": "suggest"}).get_json()["state"]
    hand, other = state["players"][0]["hand"], state["players"][1]["hand"]
    move = {"type": "play", "player": 0, "source": "hand", "card": other[0]}
    verdict = client.post("/v1/games/scratch-and-catch/adjudicate", json={"state": state, "move": move}).get_json()
    assert verdict["legal"] is False and verdict["violations"][0]["code"] == "CARD_NOT_IN_HAND"
    # Every play from the hand is the same choice (source hand) with another card: one tier, one
    # value apart, so the listing's order (the hand's) decides.
    assert verdict["suggestions"] == [{"type": "play", "player": 0, "source": "hand", "card": card}
                                      for card in hand[:3]]


def test_the_same_card_with_other_choices_comes_before_other_cards(client):
    state = client.post("/v1/games/catatac/setup", json={"players": 2, "seed": "suggest"}).get_json()["state"]
    moves = client.post("/v1/games/catatac/legal-moves", json={"state": state}).get_json()["moves"]
    paired = next(m for m in moves if m["pair"] is not None)
    same_card = [m for m in moves if m["card"] == paired["card"]]
    illegal = 0
    for action in ("steal", "movement", "stash"):
        for direction in ("black", "white", None):
            move = dict(paired, pair={"action": action, "direction": direction})
            verdict = client.post("/v1/games/catatac/adjudicate", json={"state": state, "move": move}).get_json()
            if verdict["legal"]:
                continue
            illegal += 1
            first = verdict["suggestions"][:min(3, len(same_card))]
            assert first and all(s in same_card for s in first), (move, verdict["suggestions"])
    assert illegal


def test_a_move_out_of_turn_gets_no_suggestion_not_even_the_moves_of_the_seat_to_act(client, mclient):
    state = client.post("/v1/games/scratch-and-catch/setup", json={"players": 2, "seed": "turn"}).get_json()["state"]
    move = {"type": "play", "player": 1, "source": "hand", "card": state["players"][1]["hand"][0]}
    verdict = client.post("/v1/games/scratch-and-catch/adjudicate", json={"state": state, "move": move}).get_json()
    assert verdict["violations"][0]["code"] == "NOT_YOUR_TURN" and verdict["suggestions"] == []
    created = mclient.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}).get_json()
    answer = _post_move(mclient, created["id"], {"type": "play", "player": 1, "source": "pile"},
                        created["seats"][1]["secret"], 0).get_json()
    assert answer["legal"] is False and answer["suggestions"] == []


def test_a_legal_verdict_suggests_nothing_and_a_replay_suggests_at_its_illegal_step(client):
    state = client.post("/v1/games/scratch-and-catch/setup", json={"players": 2, "seed": "replay"}).get_json()["state"]
    first = {"type": "play", "player": 0, "source": "hand", "card": state["players"][0]["hand"][0]}
    after = client.post("/v1/games/scratch-and-catch/adjudicate", json={"state": state, "move": first}).get_json()
    acting = after["state"]["turn"]["player"]
    hand, other = after["state"]["players"][acting]["hand"], after["state"]["players"][1 - acting]["hand"]
    wrong = {"type": "play", "player": acting, "source": "hand", "card": other[0]}
    replay = client.post("/v1/games/scratch-and-catch/replay",
                         json={"state": state, "moves": [first, wrong]}).get_json()
    assert replay["steps"][0]["legal"] and replay["steps"][0]["suggestions"] == []
    assert replay["first_illegal"]["index"] == 1
    assert replay["steps"][1]["suggestions"] == [{"type": "play", "player": acting, "source": "hand", "card": card}
                                                 for card in hand[:3]]


def _probes(game_id: str, state: dict, seat: int, own: list[dict], rnd: random.Random) -> list[dict]:
    """Moves near the seat's own (``state``: the whole state): another card (one the other seat
    holds), other choices, another type."""
    probes = []
    cards = sorted(c for c in state["players"][1 - seat].get("hand", ()) if isinstance(c, str))
    for move in rnd.sample(own, min(3, len(own))):
        if move.get("card") is not None and cards:
            probes.append({k: v for k, v in dict(move, card=rnd.choice(cards)).items() if k != "table_fills"})
        if game_id == "catatac" and move["type"] == "play":
            probes.append(dict(move, pair={"action": rnd.choice(("steal", "movement", "stash")),
                                           "direction": rnd.choice(("black", "white", None))}, order=None))
        if game_id == "call-of-katulhu" and move["type"] == "place":
            probes.append(dict(move, toys=move["toys"][:1] * 4))
    if game_id == "scratch-and-catch":
        probes.append({"type": "draw", "player": seat})
    elif game_id == "catatac":
        probes.append({"type": "decline", "player": seat})
    elif state["table"]:
        probes.append({"type": "discard", "player": seat, "cat": state["table"][0]})
    return probes


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_suggestion_is_a_listed_legal_move_of_the_seat(mclient, game_id):
    rnd = random.Random(GAME_IDS.index(game_id))
    suggested = 0
    for number in range(4):
        created = mclient.post("/v1/matches", json={"game": game_id, "players": 2, "seed": f"s{number}",
                                                    "options": {"chance": ("seeded", "table")[number % 2]}})
        match_id, secrets = created.get_json()["id"], [s["secret"] for s in created.get_json()["seats"]]
        for _ in range(30):
            match = mclient.get(f"/v1/matches/{match_id}").get_json()
            version = match["version"]
            if match["outcome"]["finished"]:
                break
            listings = {}
            for seat in (0, 1):
                listing = listings[seat] = _listing(mclient, match_id, seat, secrets[seat])
                state = json.loads(STORE.get(match_id).state)
                for probe in _probes(game_id, state, seat, listing, rnd):
                    answer = _post_move(mclient, match_id, probe, secrets[seat], version)
                    if answer.status_code != 200:
                        continue   # a probe the schema refuses
                    if answer.get_json()["legal"]:
                        break   # a probe that is legal, and played
                    suggestions = answer.get_json()["suggestions"]
                    assert len(suggestions) == min(3, len(listing)), (probe, suggestions)
                    assert all(s in listing for s in suggestions), (probe, suggestions, listing)
                    suggested += bool(suggestions)
                if mclient.get(f"/v1/matches/{match_id}").get_json()["version"] != version:
                    break
            if mclient.get(f"/v1/matches/{match_id}").get_json()["version"] != version:
                continue
            # A listed move that needs nothing from the table, by a seat that may move.
            playable = [(seat, m) for seat in (0, 1) for m in listings[seat] if "table_fills" not in m]
            if not playable:
                break
            seat, move = rnd.choice(playable)
            assert _post_move(mclient, match_id, move, secrets[seat], version).get_json()["legal"]
    print(game_id, "illegal moves with suggestions:", suggested)
    assert suggested > 5
