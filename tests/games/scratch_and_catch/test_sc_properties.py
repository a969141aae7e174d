"""Property tests: random complete Scratch & Catch games (hypothesis)."""

import random
from collections import Counter
from itertools import product

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from referee.games.scratch_and_catch import GAME
from referee.games.scratch_and_catch.cards import deck_ids

GAMES_PER_RUN = 100        # the default run, besides one game of each mode below
SLOW_GAMES_PER_RUN = 500   # -m slow


def all_cards(state):
    cards = [c for p in state["players"] for c in p["hand"] + p["collected"]]
    cards += [c for pile in state["line"] for c in pile["cards"]]
    return cards + state["draw_pile"]


def unlisted_candidates(state, listed, rnd):
    """Moves close to the legal ones that legal_moves did not list."""
    seat = state["turn"]["player"]
    other = (seat + 1) % len(state["players"])
    deck = deck_ids(tuple(state["options"]["deck"]["cat"]), tuple(state["options"]["deck"]["scratch"]))
    hand = state["players"][seat]["hand"]
    candidates = [
        {"type": "play", "player": other, "source": "hand", "card": c} for c in state["players"][other]["hand"][:2]
    ]
    candidates += [{"type": "play", "player": seat, "source": "hand", "card": c}
                   for c in rnd.sample([c for c in deck if c not in hand], 3)]
    candidates += [{"type": "draw", "player": seat, "card": c} for c in state["draw_pile"][:2]]
    candidates += [{"type": "play", "player": seat, "source": "pile", "card": c} for c in state["draw_pile"][1:3]]
    if not state["draw_pile"]:
        candidates.append({"type": "play", "player": seat, "source": "pile"})
    return [m for m in candidates if m not in listed]


GAMES = dict(seed=st.text(min_size=1, max_size=12), players=st.integers(2, 6),
             chance=st.sampled_from(["seeded", "seeded", "table"]), rnd=st.randoms(use_true_random=False))
# One game of each mode (player count, chance), whatever the random draws.
MODES = [dict(seed=f"mode-{i}", players=players, chance=chance, rnd=random.Random(i))
         for i, (players, chance) in enumerate(product(range(2, 7), ["seeded", "table"]))]


def _with_modes(test):
    for mode in MODES:
        test = example(**mode)(test)
    return test


@_with_modes
@settings(max_examples=GAMES_PER_RUN, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES)
def test_random_complete_games_keep_the_invariants(seed, players, chance, rnd):
    """Random complete games: never crash, conserve all 76 cards, never make fleas negative,
    every listed move is judged legal and nearby unlisted moves are judged illegal."""
    _play_and_check(seed, players, chance, rnd)


@pytest.mark.slow
@settings(max_examples=SLOW_GAMES_PER_RUN, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES)
def test_random_complete_games_keep_the_invariants_long(seed, players, chance, rnd):
    _play_and_check(seed, players, chance, rnd)


def _play_and_check(seed, players, chance, rnd):
    state = GAME.setup(players, seed, {"chance": chance})
    expected = Counter(all_cards(state))
    assert len(expected) == 76 and sum(expected.values()) == 76
    for _ in range(2000):
        GAME.check_state(state)
        moves = GAME.legal_moves(state)
        if state["finished"]:
            assert moves == []
            break
        assert moves, "a game that is not finished always has a move"
        for move in rnd.sample(moves, min(3, len(moves))):
            assert GAME.adjudicate(state, move, checked=True).legal, move
        for move in unlisted_candidates(state, moves, rnd):
            verdict = GAME.adjudicate(state, move, checked=True)
            assert not verdict.legal, move
            assert verdict.state is None and verdict.violations
        verdict = GAME.adjudicate(state, rnd.choice(moves), checked=True)
        state = verdict.state
        assert Counter(all_cards(state)) == expected
        assert all(p["fleas"] >= 0 for p in state["players"])
        assert all(len(p["hand"]) <= 4 for p in state["players"])
    else:
        raise AssertionError("the game did not finish in 2000 moves")
    scores, outcome = GAME.score(state)
    assert outcome.finished and outcome.winners
    best = max(row["total"] for row in scores["players"])
    assert all(scores["players"][w]["total"] == best for w in outcome.winners)
