"""CATATAC with unseen hands (``options.hands: "unseen"``, table chance; base game, Deck Hockey,
Kittens, Marathon, the Distraction and Momentum boosters; not yet the Alpha booster).

Shadow games: a random complete game is played with the seeded generator (full information),
and beside it the same game in the unseen mode, told only what a table sees: the kind of each
card played, the coin faces, and the points card taken when a stash succeeds. At every step
both verdicts are legal, and the public parts of the two states, the events, the scores and
the outcome agree, card ids read as their kinds. In a Marathon the referee deals each next
game from its generator in both modes, from different positions (the seeded game has used it
for its coins): there the deal-independent parts are compared, and the table then lays out the
card turned and the coin of the seeded game's deal (docs/rules-notes.md).
"""

from __future__ import annotations

import os
import random

import pytest

from referee.engine.core import InvalidOptions, InvalidState
from referee.games.catatac import GAME
from referee.games.catatac.cards import kind_of

SHADOW_GAMES = int(os.environ.get("REFEREE_SHADOW_GAMES", "300"))
UNSEEN = {"chance": "table", "hands": "unseen"}


def public(state: dict) -> dict:
    """What a table sees of a state, paw cards named by kind."""
    return {
        "players": [{"clan": p["clan"], "hand_size": len(p["hand"])} for p in state["players"]],
        "ball": state["ball"], "discard": [kind_of(card) for card in state["discard"]],
        "paw_deck": len(state["paw_deck"]), "points_deck": len(state["points_deck"]), "points": state["points"],
        "box": len(state.get("box", ())), "skip": state.get("skip"),
        "turn": state["turn"], "stash": state["stash"], "marathon": state["marathon"], "finished": state["finished"],
    }


def _kinds(events: list[dict]) -> list[dict]:
    return [dict(e, card=kind_of(e["card"])) if e["type"] == "card_played" else e for e in events]


def _table_move(before: dict, move: dict, verdict) -> dict:
    """The seeded move as a table names it: the card by kind, the coin faces seen, the points
    card taken."""
    faces = [e["colour"] for e in verdict.events if e["type"] == "coin_flipped"]
    if move["type"] == "play":
        table = {key: move[key] for key in ("type", "player", "pair", "block", "order")}
        table["card"] = kind_of(move["card"])
    else:
        table = {"type": "decline", "player": move["player"]}
        if any(e["type"] == "stash_succeeded" for e in verdict.events):
            # The card that left the points deck (a Marathon may deal a new game after it).
            taken = [card for card in before["points_deck"] if card not in verdict.state["points_deck"]]
            table["points_card"] = taken[0] if len(taken) == 1 else before["points_deck"][0]
    if faces:
        table["coins"] = faces
    return table


def _listed(table_move: dict, listed: list[dict]) -> bool:
    """Whether the unseen legal moves list ``table_move``, with every field the table named
    (card, coins, points card) marked in ``table_fills``."""
    named = {"card", "coins", "points_card"} & set(table_move)
    for move in listed:
        fills = set(move.get("table_fills", ()))
        if {k: v for k, v in move.items() if k != "table_fills"} == table_move and named <= fills:
            return True
    return False


def _lay_out(unseen: dict, seeded: dict) -> dict:
    """A Marathon's next game: the same deal-independent parts, then the seeded game's turned
    card and coin laid out at the table."""
    for key in ("paw_deck", "points_deck", "turn", "stash", "marathon", "points"):
        assert public(unseen)[key] == public(seeded)[key], key
    laid = dict(unseen, discard=[kind_of(card) for card in seeded["discard"]], ball=dict(seeded["ball"]))
    GAME.check_state(laid)
    return laid


def shadow_game(number: int) -> int:
    """Play shadow game ``number``; returns its number of moves. Asserts agreement at every step."""
    rnd = random.Random(number)
    players = (2, 4, 6)[number % 3]
    options = {"deck_hockey": rnd.random() < 0.4, "kittens": players < 6 and rnd.random() < 0.4,
               "marathon": number % 10 == 3,
               "seat0_clan": rnd.choice(("white", "black")), "first_player": rnd.randrange(players)}
    boosters = [b for b in ("distraction", "momentum") if rnd.random() < 0.4]
    if boosters:
        options["boosters"] = boosters
    seed = f"shadow-{number}"
    seeded = GAME.setup(players, seed, {**options, "chance": "seeded"})
    unseen = GAME.setup(players, seed, {**options, **UNSEEN})
    assert public(unseen) == public(seeded)
    steps = 0
    while not seeded["finished"]:
        GAME.check_state(unseen)
        move = rnd.choice(GAME.legal_moves(seeded))
        verdict = GAME.adjudicate(seeded, move, checked=True)
        assert verdict.legal, (move, verdict.violations)
        table_move = _table_move(seeded, move, verdict)
        if steps % 4 == 0:   # the listing (every kind, choice and face) is the slow part: one step in 4
            assert _listed(table_move, GAME.legal_moves(unseen)), (number, steps, table_move)
        shadow = GAME.adjudicate(unseen, table_move, checked=True)
        assert shadow.legal, (number, steps, table_move, shadow.violations)
        after = shadow.state
        if any(e["type"] == "new_game" for e in verdict.events):
            after = _lay_out(after, verdict.state)
        assert public(after) == public(verdict.state), (number, steps, move)
        assert shadow.events == _kinds(verdict.events), (number, steps, move)
        assert shadow.scores == verdict.scores and shadow.outcome == verdict.outcome
        seeded, unseen = verdict.state, after
        steps += 1
    assert GAME.legal_moves(unseen) == []
    return steps


def test_shadow_games_agree_at_every_step():
    """At least 300 complete games of 2, 4 and 6 players, with Deck Hockey, Kittens, Marathon and
    the Distraction and Momentum boosters."""
    moves = sum(shadow_game(number) for number in range(SHADOW_GAMES))
    assert moves > 20 * SHADOW_GAMES


# -- the mode itself: the worked example of the README ("At a physical table") ----------------

NO_BLOCK = {"pair": None, "block": None, "order": None}
BLOCK = {"bars": [], "directions": []}


def _table(coin="white", discard="P4", **options):
    return GAME.setup(4, "table-1", {**UNSEEN, **options, "deal": {"discard": discard, "coin": coin}})


def _play(state, player, card, **choices):
    return GAME.adjudicate(state, {"type": "play", "player": player, "card": card, **NO_BLOCK, **choices})


def _codes(verdict):
    return [(v.code, v.rule) for v in verdict.violations]


def test_the_catalogue_lists_kinds_and_counts():
    """Setup: 58 paw cards; plain cards are 4 copies of each number, 2 identical Jokers."""
    kinds = {k["kind"]: k["count"] for k in GAME.catalogue()["kinds"]}
    assert sum(kinds.values()) == 58
    assert kinds["P3"] == 4 and kinds["joker"] == 2 and kinds["capture-2"] == 1
    assert {k: n for k, n in kinds.items() if n > 1} == {**{f"P{n}": 4 for n in range(1, 9)}, "joker": 2}


def test_setup_deals_unseen_hands_and_names_the_turned_card():
    """Setup: 6 cards per player, unseen; one card turned; the coin gives possession."""
    state = _table(coin="black", discard="P4-3")
    assert [p["hand"] for p in state["players"]] == [[None] * 6] * 4
    assert state["discard"] == ["P4"] and state["paw_deck"] == [None] * (58 - 24 - 1)
    assert state["ball"] == {"spot": "neutral_alley", "colour": "black"}
    with pytest.raises(InvalidOptions):
        GAME.setup(4, "s", {**UNSEEN, "deal": {"hands": [[]] * 4, "discard": "P4", "coin": "white"}})
    with pytest.raises(InvalidOptions):
        GAME.setup(4, "s", {**UNSEEN, "boosters": ["alpha"]})
    boxed = GAME.setup(4, "s", {**UNSEEN, "boosters": ["momentum"], "deal": {"discard": "P1", "coin": "white"}})
    assert boxed["box"] == [None, None] and len(boxed["paw_deck"]) == 58 + 8 - 2 - 24 - 1
    with pytest.raises(InvalidOptions):
        GAME.setup(4, "s", {"hands": "unseen"})   # seeded chance


def test_a_disputed_capture():
    """White holds the ball: a White player may not activate Capture (its condition is enemy
    possession, Activating the Action Block); once Black has played the only Capture 4, nobody
    can play it again; a fifth plain 4 cannot exist (1. Play a Paw Card)."""
    state = _table(coin="white")
    assert _codes(_play(state, 0, "capture-4", block=BLOCK)) == [("CONDITION_NOT_MET", "Activating the Action Block")]
    moved = _play(state, 0, "P4", pair={"action": "movement", "direction": "black"})
    assert moved.legal and moved.state["ball"] == {"spot": "black_alley", "colour": "white"}
    assert [p["hand"] for p in moved.state["players"]][0] == [None] * 6     # refilled, unseen
    captured = _play(moved.state, 1, "capture-4", block=BLOCK)
    assert captured.legal and captured.state["ball"] == {"spot": "black_alley", "colour": "black"}
    again = _play(captured.state, 2, "capture-4", block=BLOCK)
    assert _codes(again) == [("CARD_ALREADY_SEEN", "1. Play a Paw Card")]
    assert again.violations[0].text() == "No capture-4 can still be unseen: the game has 1, all face up on the discard pile."
    state = _play(captured.state, 2, "P4", pair={"action": "steal", "direction": None}).state
    state = _play(state, 3, "P4", pair={"action": "steal", "direction": None}).state
    assert state["discard"] == ["P4", "P4", "capture-4", "P4", "P4"]
    fifth = _play(state, 0, "P4", pair={"action": "steal", "direction": None})
    assert _codes(fifth) == [("CARD_ALREADY_SEEN", "1. Play a Paw Card")]
    assert fifth.violations[0].params == {"kind": "P4", "count": 4}
    listed = {m["card"] for m in GAME.seat_moves(state, 0)}
    assert "P4" not in listed and "capture-4" not in listed and "P3" in listed


def test_a_card_from_an_empty_hand_and_a_kind_the_variant_lacks():
    """Kittens: only cards numbered 1 to 5 (rules notes); a seat with no card cannot play."""
    state = _table(kittens=True, discard="P2")
    assert _codes(_play(state, 0, "P7")) == [("CARD_NOT_IN_DECK", "3. Refilling Your Hand")]
    state["players"][1]["hand"] = []
    state["paw_deck"].extend([None] * 6)
    GAME.check_state(state)
    cooperation = _play(state, 2, "P3")   # a teammate's card: cooperation is checked after the hand
    assert cooperation.violations
    assert _codes(GAME.adjudicate(state, {"type": "draw", "player": 0, "card": "P3"})) \
        == [("REFILL_UNSEEN", "3. Refilling Your Hand")]


def test_a_decline_is_always_possible_and_the_last_names_the_points_card():
    """Countering a Stash: whether the answering player holds a counter card is unknown to the
    table, so declining is always listed; the last decline names the points card and the coin."""
    state = _table(coin="white", discard="P3")
    # Charge moves the ball to the White alley, then the pair of 3s stashes from there.
    state = _play(state, 0, "charge-3", block={"bars": [], "directions": ["white"]},
                  pair={"action": "stash", "direction": None}, order="block_first").state
    assert state["turn"]["phase"] == "answer"
    assert state["stash"]["answer"] == [1, 3]
    moves = GAME.seat_moves(state, 1)
    assert {"type": "decline", "player": 1} in moves
    assert any(m["type"] == "play" and m["card"] == "stop-1" for m in moves)   # a counter card may be held
    state = GAME.adjudicate(state, {"type": "decline", "player": 1}).state
    moves = GAME.seat_moves(state, 3)
    assert {"type": "decline", "player": 3, "points_card": None, "coins": ["white"],
            "table_fills": ["points_card", "coins"]} in moves
    done = GAME.adjudicate(state, {"type": "decline", "player": 3, "points_card": "green", "coins": ["black"]})
    assert done.legal and done.state["points"]["white"] == ["green"]
    assert done.state["ball"] == {"spot": "neutral_alley", "colour": "black"}


@pytest.mark.parametrize("where, value, detail", [
    ("/players/0/hand/0", "P3-1", "with unseen hands a card in hand is null"),
    ("/paw_deck/0", "P3", "with unseen hands a card of the paw deck is null"),
    ("/discard/0", "P4-1", "with unseen hands cards are named by kind (P4), not id"),
])
def test_unseen_states_hold_only_face_up_cards(where, value, detail):
    state = _table()
    _, top, *rest = where.split("/")
    target = state[top]
    for part in rest[:-1]:
        target = target[int(part)] if isinstance(target, list) else target[part]
    target[int(rest[-1])] = value
    with pytest.raises(InvalidState) as bad:
        GAME.check_state(state)
    assert (where, detail) in bad.value.errors


def test_more_copies_face_up_than_the_game_has_is_not_a_state():
    state = _table()
    state["discard"] = ["joker"] * 3
    state["paw_deck"] = state["paw_deck"][:-2]
    with pytest.raises(InvalidState) as bad:
        GAME.check_state(state)
    assert ("/discard", "3 cards joker are face up; the game has 2") in bad.value.errors
