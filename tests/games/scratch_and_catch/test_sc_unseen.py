"""Scratch & Catch with unseen hands (``options.hands: "unseen"``, table chance).

Shadow games: a random complete game is played with the seeded generator (full information),
and beside it the same game in the unseen mode, told only what a table sees: the kind of each
card as it is played from a hand or turned from the pile. At every step both verdicts are
legal, and the public parts of the two states (line, collected piles, fleas, hand and pile
sizes, turn, final turns), the events, the scores and the outcome agree, card ids read as
their kinds. Rulebook sections: Setup, Game Progress, Scratch Cards, End of the Game.
"""

from __future__ import annotations

import os
import random

import pytest

from referee.engine.core import InvalidOptions, InvalidState
from referee.games.scratch_and_catch import GAME
from referee.games.scratch_and_catch.cards import kind_of
from tests.support.pointers import replace

SHADOW_GAMES = int(os.environ.get("REFEREE_SHADOW_GAMES", "100"))
SLOW_SHADOW_GAMES = 300   # -m slow
DEFAULT_KINDS = {"C1": 5, "C2": 6, "C3": 7, "C4": 7, "C5": 7, "C6": 7, "C7": 7, "C8": 7, "C9": 6, "C10": 5,
                 "S1": 1, "S2": 1, "S3": 1, "S4": 1, "S5": 2, "S6": 2, "S7": 1, "S8": 1, "S9": 1, "S10": 1}


def _kinds(value):
    """``value`` with every card id read as its kind."""
    if isinstance(value, str):
        return kind_of(value) if value[:1] in "CS" and "-" in value else value
    if isinstance(value, list):
        return [_kinds(item) for item in value]
    if isinstance(value, dict):
        return {key: _kinds(item) for key, item in value.items()}
    return value


def public(state: dict) -> dict:
    """What a table sees of a state, cards named by kind."""
    return {
        "line": _kinds(state["line"]),
        "players": [{"hand_size": len(p["hand"]), "fleas": p["fleas"], "collected": _kinds(p["collected"])}
                    for p in state["players"]],
        "draw_pile": len(state["draw_pile"]),
        "turn": state["turn"], "final_turns": state["final_turns"], "finished": state["finished"],
    }


def _table_move(move: dict, events: list[dict]) -> dict:
    """The seeded move as a table names it: the card played, by kind (a pile card as turned)."""
    played = next(event for event in events if event["type"] == "card_played")
    return {"type": "play", "player": move["player"], "source": move["source"], "card": kind_of(played["card"])}


def _random_deck(rnd: random.Random) -> dict:
    cat = [rnd.randint(2, 8) for _ in range(10)]
    scratch = [rnd.randint(0, 2) for _ in range(10)]
    return {"cat": cat, "scratch": scratch}


def shadow_game(number: int) -> int:
    """Play shadow game ``number``; returns its number of moves. Asserts agreement at every step."""
    rnd = random.Random(number)
    players = 2 + number % 5
    options = {"scratch_cards_score": rnd.random() < 0.5}
    if rnd.random() < 0.25:
        options["deck"] = _random_deck(rnd)
    seed = f"shadow-{number}"
    seeded = GAME.setup(players, seed, {**options, "chance": "seeded"})
    unseen_options = {**options, "chance": "table", "hands": "unseen"}
    if number % 2:   # the table names its line; otherwise the generator deals the same line
        unseen_options["deal"] = {"line": [card for pile in _kinds(seeded["line"]) for card in pile["cards"]]}
    unseen = GAME.setup(players, seed, unseen_options)
    assert public(unseen) == public(seeded)
    steps = 0
    while not seeded["finished"]:
        GAME.check_state(unseen)
        move = rnd.choice(GAME.legal_moves(seeded))
        listed = GAME.legal_moves(unseen)
        assert listed == GAME.seat_moves(unseen, move["player"])
        verdict = GAME.adjudicate(seeded, move, checked=True)
        assert verdict.legal, (move, verdict.violations)
        table_move = _table_move(move, verdict.events)
        assert dict(table_move, table_fills=["card"]) in listed
        shadow = GAME.adjudicate(unseen, table_move, checked=True)
        assert shadow.legal, (table_move, shadow.violations)
        assert public(shadow.state) == public(verdict.state), (number, steps, move)
        assert shadow.events == _kinds(verdict.events), (number, steps, move)
        assert shadow.scores == verdict.scores and shadow.outcome == verdict.outcome
        # A move the seeded game refuses for a public reason is refused alike.
        other = (move["player"] + 1) % players
        wrong_turn = dict(table_move, player=other)
        codes = [v.code for v in GAME.adjudicate(unseen, wrong_turn, checked=True).violations]
        assert codes == ["NOT_YOUR_TURN"]
        seeded, unseen = verdict.state, shadow.state
        steps += 1
    assert GAME.legal_moves(unseen) == []
    assert GAME.score(unseen) == GAME.score(seeded)
    return steps


def test_shadow_games_agree_at_every_step():
    """SHADOW_GAMES complete games (100; REFEREE_SHADOW_GAMES sets another count), 2 to 6
    players, both scoring options, default and other decks; 300 under slow."""
    moves = sum(shadow_game(number) for number in range(SHADOW_GAMES))
    assert moves > 30 * SHADOW_GAMES


@pytest.mark.slow
def test_shadow_games_agree_at_every_step_long():
    moves = sum(shadow_game(number) for number in range(SLOW_SHADOW_GAMES))
    assert moves > 30 * SLOW_SHADOW_GAMES


# -- the mode itself ---------------------------------------------------------------------------

def _unseen_state(line, collected=None, hands=None, pile=None, players=2, turn=0, scratch_cards_score=True):
    """A consistent unseen state with the default deck: ``line`` as {value: [kinds]}."""
    collected = collected or [[] for _ in range(players)]
    hands = hands if hands is not None else [4] * players
    named = sum(len(cards) for cards in line.values()) + sum(len(c) for c in collected)
    if pile is None:
        pile = 76 - named - sum(hands)
    state = {
        "game": "scratch-and-catch", "schema_version": 1,
        "options": {"chance": "table", "hands": "unseen", "scratch_cards_score": scratch_cards_score,
                    "deck": {"cat": [5, 6, 7, 7, 7, 7, 7, 7, 6, 5], "scratch": [1, 1, 1, 1, 2, 2, 1, 1, 1, 1]}},
        "players": [{"hand": [None] * size, "fleas": 10, "collected": list(c)} for size, c in zip(hands, collected)],
        "line": [{"value": value, "cards": list(cards)} for value, cards in sorted(line.items())],
        "draw_pile": [None] * pile,
        "turn": {"player": turn, "step": "first"}, "final_turns": None, "finished": False,
        "rng": {"seed": "t", "counter": 0},
    }
    GAME.check_state(state)
    return state


def _play(state, card, source="hand", player=0):
    return GAME.adjudicate(state, {"type": "play", "player": player, "source": source, "card": card})


def _codes(verdict):
    return [v.code for v in verdict.violations]


def test_the_catalogue_lists_kinds_and_counts():
    """Setup: 76 cards, 64 Cat and 12 Scratch, as the provisional deck spreads them over 20 kinds."""
    kinds = GAME.catalogue()["kinds"]
    assert {k["kind"]: k["count"] for k in kinds} == DEFAULT_KINDS
    assert sum(k["count"] for k in kinds if k["type"] == "cat") == 64
    assert sum(k["count"] for k in kinds if k["type"] == "scratch") == 12
    assert {"kind": "S6", "number": 6, "type": "scratch", "count": 2} in kinds


def test_setup_deals_unseen_hands_and_names_only_the_line():
    """Setup: 4 cards each, unseen; 4 cards turned onto the line, named; the rest is the pile."""
    state = GAME.setup(4, "s", {"chance": "table", "hands": "unseen", "deal": {"line": ["C3", "C9", "S3", "C1"]}})
    assert [p["hand"] for p in state["players"]] == [[None] * 4] * 4
    assert state["line"] == [{"value": 1, "cards": ["C1"]}, {"value": 3, "cards": ["C3", "S3"]},
                             {"value": 9, "cards": ["C9"]}]
    assert state["draw_pile"] == [None] * (76 - 16 - 4)
    assert [p["fleas"] for p in state["players"]] == [18] * 4


def test_unseen_hands_need_table_chance():
    with pytest.raises(InvalidOptions) as bad:
        GAME.setup(2, "s", {"hands": "unseen"})
    assert bad.value.errors[0][0] == "/options/hands"


def test_a_deal_cannot_name_more_copies_than_the_deck_has():
    """S1 has one copy (provisional deck): a line naming two is not a deal."""
    with pytest.raises(InvalidOptions) as bad:
        GAME.setup(2, "s", {"chance": "table", "hands": "unseen", "deal": {"line": ["S1", "S1", "C2", "C3"]}})
    assert bad.value.errors == [("/options/deal/line/1", "the deck has 1 S1 only")]


def test_a_fifth_copy_of_a_kind_is_already_seen():
    """C1 has 5 copies: with 4 on the line and 1 collected, no C1 can be in a hand (Game Progress)."""
    state = _unseen_state({1: ["C1"] * 4, 5: ["C5"]}, collected=[["C1"], []])
    verdict = _play(state, "C1")
    assert _codes(verdict) == ["CARD_ALREADY_SEEN"]
    assert verdict.violations[0].rule == "Game Progress"
    assert verdict.violations[0].text() == ("No C1 can still be unseen: the deck has 5, all face up "
                                            "(4 on the line, 1 collected).")
    assert _codes(_play(state, "C1", source="pile")) == ["CARD_ALREADY_SEEN"]
    assert _play(state, "S1").legal   # the Scratch 1 is another kind, still unseen
    kinds = {m["card"] for m in GAME.legal_moves(state)}
    assert "C1" not in kinds and len(kinds) == 19


def test_a_kind_all_collected_cannot_be_played():
    """Both S5 (2 copies) collected by the players: an S5 named is refused."""
    state = _unseen_state({7: ["C7"]}, collected=[["S5"], ["S5", "C4"]])
    verdict = _play(state, "S5", source="pile")
    assert _codes(verdict) == ["CARD_ALREADY_SEEN"]
    assert verdict.violations[0].params == {"kind": "S5", "count": 2, "line": 0, "collected": 2}


def test_a_card_named_from_an_empty_hand():
    """Final turns with an empty hand: only the pile can be played (Game Progress)."""
    state = _unseen_state({7: ["C7"]}, hands=[0, 4])
    verdict = _play(state, "C5")
    assert _codes(verdict) == ["HAND_EMPTY"] and verdict.violations[0].rule == "Game Progress"
    assert {m["source"] for m in GAME.legal_moves(state)} == {"pile"}
    assert _codes(GAME.adjudicate(state, {"type": "play", "player": 1, "source": "hand", "card": "C5"})) \
        == ["NOT_YOUR_TURN"]


def test_a_kind_the_deck_lacks_and_a_missing_card():
    state = _unseen_state({7: ["C7"]})
    state["options"]["deck"]["scratch"][0] = 0
    state["draw_pile"].pop()
    GAME.check_state(state)
    assert _codes(_play(state, "S1")) == ["CARD_NOT_IN_DECK"]
    assert _codes(GAME.adjudicate(state, {"type": "play", "player": 0, "source": "pile", "card": None})) \
        == ["CARD_REQUIRED"]
    assert _codes(GAME.adjudicate(state, {"type": "draw", "player": 0, "card": "C5"})) == ["REFILL_UNSEEN"]


def test_a_play_takes_one_unseen_card_and_the_refill_changes_only_sizes():
    """Game Progress: 2 cards, then draw until 4 in hand; a Stack collects the adjacent piles."""
    state = _unseen_state({4: ["C4"], 5: ["C5"], 6: ["C6", "C6"]})
    first = _play(state, "C5", source="pile")
    assert first.legal and first.state["players"][0]["hand"] == [None] * 4
    assert len(first.state["draw_pile"]) == len(state["draw_pile"]) - 1
    second = _play(first.state, "C5")
    assert second.legal
    after = second.state
    assert after["players"][0]["collected"] == ["C6", "C6", "C4"]
    assert after["line"] == [{"value": 5, "cards": ["C5", "C5", "C5"]}]
    assert after["players"][0]["hand"] == [None] * 4    # refilled with one unseen card
    assert len(after["draw_pile"]) == len(state["draw_pile"]) - 2
    assert second.events[-1] == {"type": "cards_drawn", "player": 0, "count": 1}
    assert after["turn"] == {"player": 1, "step": "first"}
    assert second.scores["players"][0]["cards"] == 3


def test_a_card_id_is_read_as_its_kind():
    state = _unseen_state({4: ["C4"]})
    verdict = _play(state, "C7-3")
    assert verdict.legal and verdict.state["line"][1] == {"value": 7, "cards": ["C7"]}


@pytest.mark.parametrize("where, value, detail", [
    ("/players/0/hand/0", "C5", "with unseen hands a card in hand is null"),
    ("/draw_pile/0", "C5", "with unseen hands a card of the draw pile is null"),
    ("/line/0/cards/0", "C4-1", "with unseen hands cards are named by kind (C4), not id"),
])
def test_unseen_states_hold_only_face_up_cards(where, value, detail):
    state = _unseen_state({4: ["C4"]})
    replace(state, where, value)
    with pytest.raises(InvalidState) as bad:
        GAME.check_state(state)
    assert (where, detail) in bad.value.errors


def test_more_copies_named_than_the_deck_has_is_not_a_state():
    state = _unseen_state({4: ["C4"]})
    state["players"][1]["collected"] = ["S1", "S1"]
    state["draw_pile"] = state["draw_pile"][:-2]
    with pytest.raises(InvalidState) as bad:
        GAME.check_state(state)
    assert ("", "2 cards S1 are face up; the deck has 1") in bad.value.errors


def test_fleas_are_bounded_in_both_hand_modes():
    """The state check judges at most MAX_FLEAS fleas per player, with unseen hands too (a
    state that would be refused with seen hands is not accepted unseen)."""
    state = _unseen_state({4: ["C4"]})
    state["players"][0]["fleas"] = 10 ** 6
    with pytest.raises(InvalidState) as bad:
        GAME.check_state(state)
    assert ("/players/0/fleas", "at most 10000 fleas are judged") in bad.value.errors
