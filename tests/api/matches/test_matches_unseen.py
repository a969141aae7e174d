"""Unseen hands over HTTP: the catalogue's kinds, the setup option, whole Scratch & Catch and
CATATAC matches followed by a table app that enters only face-up cards (on the in-process store
and on Redis), the table guide's worked example (docs/guides/table.md), and Call of Katulhu refusing the option with its
reason."""

from __future__ import annotations

import json
import random

import pytest

from referee.games.catatac.cards import ALPHA_IDS, alpha_pile

PROBLEM = "application/problem+json"
UNSEEN = {"chance": "table", "hands": "unseen"}
ALPHA_PILES = {clan: alpha_pile(clan, ("alpha", "momentum")) for clan in ("white", "black")}


def test_the_game_entry_lists_kinds_and_counts(mclient):
    catalogue = mclient.get("/v1/games/scratch-and-catch").get_json()["catalogue"]
    kinds = {k["kind"]: k["count"] for k in catalogue["kinds"]}
    assert len(kinds) == 20 and kinds["C3"] == 7 and kinds["S5"] == 2 and sum(kinds.values()) == 76
    entry = next(g for g in mclient.get("/v1/games").get_json()["games"] if g["id"] == "scratch-and-catch")
    assert entry["options"]["hands"]["enum"] == ["seen", "unseen"]


def test_call_of_katulhu_refuses_unseen_hands_and_says_why(mclient):
    for response in (mclient.post("/v1/games/call-of-katulhu/setup",
                                  json={"players": 2, "seed": "k", "options": UNSEEN}),
                     mclient.post("/v1/matches", json={"game": "call-of-katulhu", "players": 2, "options": UNSEEN})):
        assert response.status_code == 422 and response.content_type == PROBLEM
        errors = response.get_json()["errors"]
        assert [e["pointer"] for e in errors] == ["/options/hands"]
        assert errors[0]["detail"].startswith("Call of Katulhu has no hands to leave unseen")
        # The way out, whatever chance the request asked for: drop the option.
        assert "leave out hands" in errors[0]["detail"]


def test_unseen_hands_with_seeded_chance_is_a_422(mclient):
    response = mclient.post("/v1/games/scratch-and-catch/setup",
                            json={"players": 2, "seed": "s", "options": {"hands": "unseen"}})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/options/hands"


def test_a_table_app_follows_a_whole_match_entering_only_face_up_cards(mclient):
    """Each turn the app takes the seat's legal moves (one per kind, ``table_fills`` naming the
    field it fills in), picks the card the player shows, and posts it. Every reader sees the
    same state: nothing is hidden from anyone but the cards nobody has seen."""
    rnd = random.Random(7)
    created = mclient.post("/v1/matches", json={"game": "scratch-and-catch", "players": 3, "seed": "t-1",
                                                "options": {**UNSEEN, "deal": {"line": ["C2", "C4", "C6", "S9"]}}})
    assert created.status_code == 201, created.get_json()
    match = created.get_json()
    match_id, secrets = match["id"], [s["secret"] for s in match["seats"]]
    assert match["state"]["line"][0] == {"value": 2, "cards": ["C2"]}
    version, posted = 0, []
    while True:
        state = mclient.get(f"/v1/matches/{match_id}").get_json()["state"]
        if state["finished"]:
            break
        seat = state["turn"]["player"]
        auth = {"Authorization": f"Bearer {secrets[seat]}"}
        moves = mclient.get(f"/v1/matches/{match_id}/legal-moves?seat={seat}", headers=auth).get_json()["moves"]
        assert moves and all(m["table_fills"] == ["card"] for m in moves)
        move = rnd.choice(moves)
        answer = mclient.post(f"/v1/matches/{match_id}/moves", json={"move": move},
                              headers={**auth, "If-Match": f'"{version}"'})
        assert answer.status_code == 200 and answer.get_json()["legal"], answer.get_json()
        posted.append(move)
        version += 1
        views = [mclient.get(f"/v1/matches/{match_id}?seat={s}",
                             headers={"Authorization": f"Bearer {secrets[s]}"}).get_json()["state"]
                 for s in range(3)]
        assert all(view["line"] == views[0]["line"] for view in views)
    log = mclient.get(f"/v1/matches/{match_id}/log").get_json()["entries"]
    assert len(log) == version and not any(entry["redacted"] for entry in log)
    # The log keeps each move as judged: table_fills, a note of the listing, is not logged.
    assert [entry["move"] for entry in log] == [{k: v for k, v in m.items() if k != "table_fills"} for m in posted]
    final = mclient.get(f"/v1/matches/{match_id}").get_json()
    assert final["outcome"]["finished"] and final["scores"]["players"]
    # Collected piles and fleas are public: the score sheet is worked out from the view.
    for row, player in zip(final["scores"]["players"], final["state"]["players"]):
        assert row["fleas"] == player["fleas"]
        assert row["cards"] <= len(player["collected"])


def test_replay_in_unseen_mode_stops_at_an_impossible_claim(mclient):
    state = mclient.post("/v1/games/scratch-and-catch/setup",
                         json={"players": 2, "seed": "r",
                               "options": {**UNSEEN, "deal": {"line": ["S1", "C2", "C3", "C4"]}}}
                         ).get_json()["state"]
    moves = [{"type": "play", "player": 0, "source": "hand", "card": "C7"},
             {"type": "play", "player": 0, "source": "pile", "card": "S1"}]   # S1 has one copy, on the line
    body = mclient.post("/v1/games/scratch-and-catch/replay", json={"state": state, "moves": moves}).get_json()
    assert body["first_illegal"]["index"] == 1
    violation = body["first_illegal"]["violations"][0]
    assert violation["code"] == "CARD_ALREADY_SEEN" and violation["rule"] == "Game Progress"
    assert violation["message"] == ("No S1 can still be unseen: the deck has 1, all face up "
                                    "(1 on the line, 0 collected).")


def test_the_readme_worked_example_a_disputed_capture(mclient):
    """docs/guides/table.md, "Unseen hands": a 4-player CATATAC match entered from public cards only."""
    created = mclient.post("/v1/matches", json={"game": "catatac", "players": 4, "options": {
        "chance": "table", "hands": "unseen", "deal": {"discard": "P4", "coin": "white"}}})
    assert created.status_code == 201, created.get_json()
    match = created.get_json()
    match_id, secrets = match["id"], [s["secret"] for s in match["seats"]]
    block = {"bars": [], "directions": []}

    def move(seat, version, body):
        answer = mclient.post(f"/v1/matches/{match_id}/moves", json={"move": body},
                              headers={"Authorization": f"Bearer {secrets[seat]}", "If-Match": f'"{version}"'})
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    def play(seat, card, pair=None, block=None):
        return {"type": "play", "player": seat, "card": card, "pair": pair, "block": block, "order": None}

    disputed = move(0, 0, play(0, "capture-4", block=block))
    assert not disputed["legal"] and disputed["version"] == 0
    assert disputed["violations"] == [{"code": "CONDITION_NOT_MET", "rule": "Activating the Action Block",
                                       "message": "The activation condition Enemy Possession of card capture-4 "
                                                  "is not met: your clan is in possession of the yarn ball."}]
    assert move(0, 0, play(0, "P4", pair={"action": "movement", "direction": "black"}))["legal"]
    stolen = move(1, 1, play(1, "capture-4", block=block))
    assert stolen["legal"] and stolen["state"]["ball"] == {"spot": "black_alley", "colour": "black"}
    assert [p.get("hand_size", len(p.get("hand", []))) for p in stolen["state"]["players"]] == [6, 6, 6, 6]
    again = move(2, 2, play(2, "capture-4", block=block))
    assert [(v["code"], v["rule"], v["message"]) for v in again["violations"]] == [
        ("CARD_ALREADY_SEEN", "1. Play a Paw Card",
         "No capture-4 can still be unseen: the game has 1, all face up on the discard pile.")]
    steal = {"action": "steal", "direction": None}
    assert move(2, 2, play(2, "P4", pair=steal))["legal"]
    assert move(3, 3, play(3, "P4", pair=steal))["legal"]
    fifth = move(0, 4, play(0, "P4", pair=steal))
    assert [v["message"] for v in fifth["violations"]] == [
        "No P4 can still be unseen: the game has 4, all face up on the discard pile."]
    moves = mclient.get(f"/v1/matches/{match_id}/legal-moves?seat=0",
                        headers={"Authorization": f"Bearer {secrets[0]}"}).get_json()["moves"]
    kinds = {m["card"] for m in moves}
    assert "P4" not in kinds and "capture-4" not in kinds and {"P1", "joker", "capture-5"} <= kinds
    # The table guide counts them: 8 plain kinds (P1..P8), 24 named cards and the joker (CATATAC card
    # catalogue), less P4 and capture-4, all on the discard pile.
    assert len(kinds) == 8 + 24 + 1 - 2
    # A kind is listed once per way to play it: a joker copies the 4 on the discard pile, so it
    # is played alone or as a pair stealing the ball Black holds on its alley (Making a Pair).
    assert sorted((m["pair"] or {}).get("action", "") for m in moves if m["card"] == "joker") == ["", "steal"]
    assert all(m["table_fills"][0] == "card" for m in moves)
    log = mclient.get(f"/v1/matches/{match_id}/log").get_json()["entries"]
    assert [entry["move"]["card"] for entry in log] == ["P4", "capture-4", "P4", "P4"]


@pytest.mark.parametrize("boosters", [["momentum"], ["alpha", "momentum"]])
def test_a_whole_catatac_match_with_boosters_entered_from_face_up_cards(mclient, store_app, boosters):
    """A CATATAC match with Momentum (and Alpha) and Deck Hockey, unseen hands: each seat picks
    among its legal moves by kind; a final decline names the points card (the test plays the
    table: it reads which points cards are left from the stored state). A retried move with the
    same Idempotency-Key is answered once. The game ends with scores on the public points cards;
    with Alpha, the alpha cards still face down at the end are shown first (phase show, the seat
    in turn.player showing next)."""
    rnd = random.Random(3)
    created = mclient.post("/v1/matches", json={"game": "catatac", "players": 4, "seed": "u-2", "options": {
        "chance": "table", "hands": "unseen", "boosters": boosters, "deck_hockey": True}})
    assert created.status_code == 201, created.get_json()
    match = created.get_json()
    match_id, secrets = match["id"], [s["secret"] for s in match["seats"]]
    assert match["state"]["box"] == {"size": 2}
    if "alpha" in boosters:
        assert [(p["alpha"], p["has_alpha"]) for p in match["state"]["players"]] == [(None, True)] * 4
        # Each clan's pile: Angora, two cats and Ragdoll (Momentum); 2 seats draw from each.
        assert match["state"]["alpha_aside"] == {"size": 4}
    store = store_app.config["REFEREE_STORE"]
    version = 0
    while True:
        state = mclient.get(f"/v1/matches/{match_id}").get_json()["state"]
        if state["finished"]:
            break
        seat = state["turn"]["player"]
        auth = {"Authorization": f"Bearer {secrets[seat]}"}
        moves = mclient.get(f"/v1/matches/{match_id}/legal-moves?seat={seat}", headers=auth).get_json()["moves"]
        # Seats 0 and 1 keep their alpha card to the end: it is shown then.
        move = dict(rnd.choice([m for m in moves if m["player"] == seat
                                and not (seat < 2 and m["type"] == "play" and m["card"] in ALPHA_IDS)]))
        if move.get("points_card", "absent") is None:
            left = json.loads(store.get(match_id).state)["points_deck"]
            move["points_card"] = rnd.choice(left)
        headers = {**auth, "If-Match": f'"{version}"', "Idempotency-Key": f"k-{version}"}
        answer = mclient.post(f"/v1/matches/{match_id}/moves", json={"move": move}, headers=headers)
        assert answer.status_code == 200 and answer.get_json()["legal"], (move, answer.get_json())
        if version == 3:
            again = mclient.post(f"/v1/matches/{match_id}/moves", json={"move": move}, headers=headers)
            assert again.headers.get("Idempotent-Replayed") == "true" and again.get_json() == answer.get_json()
        version += 1
    final = mclient.get(f"/v1/matches/{match_id}").get_json()
    assert final["outcome"]["finished"] and final["version"] == version > 20
    entries = mclient.get(f"/v1/matches/{match_id}/log").get_json()["entries"]
    shown = [entry["move"] for entry in entries if entry["move"]["type"] == "show"]
    held = [s for s, p in enumerate(final["state"]["players"]) if p.get("has_alpha")]
    assert sorted(m["player"] for m in shown) == held and (held[:2] == [0, 1]) == ("alpha" in boosters)
    for move in shown:   # shown cards are named in the final state, of the player's clan
        player = final["state"]["players"][move["player"]]
        assert player["alpha"] == move["card"] and move["card"] in ALPHA_PILES[player["clan"]]
    points = final["state"]["points"]
    assert set(points) == {"white", "black"} and all(isinstance(cards, list) for cards in points.values())
