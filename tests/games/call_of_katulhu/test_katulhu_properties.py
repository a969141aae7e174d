"""Property tests: random complete Call of Katulhu games (hypothesis)."""

import random
from collections import Counter
from itertools import permutations, product

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from referee.games.call_of_katulhu import GAME
from referee.games.call_of_katulhu.deal import catalogue_of
from tests.games.call_of_katulhu.katulhu_helpers import MECH

GAMES_PER_RUN = 100        # the default run, besides one game of each mode below
SLOW_GAMES_PER_RUN = 500   # -m slow
MAX_MOVES = 3000


def all_cats(state):
    cats = [c for p in state["players"] for c in p["cats"]]
    return cats + state["table"] + state["cat_deck"] + state["discard_pile"]


def _matches(slots, toys):
    """Rulebook, Gameplay: a cat is attracted by toys matching every toy it shows (None: open)."""
    return all(wanted is None or wanted == toy for wanted, toy in zip(slots, toys))


def key(move):
    return (move["type"], move["player"], tuple(move["toys"]) if "toys" in move else move.get("cat"))


def candidate_space(state, rnd):
    """Every move of a plausible shape in this state: a discard and a reveal of every cat of the
    catalogue by each seat, and all ordered 4-toy placements of each seat (while placing; else
    a sample of them)."""
    cat = catalogue_of(state)
    moves = [{"type": "place", "player": s, "toys": list(p)} for s in (0, 1) for p in permutations(cat.toys, 4)]
    if state["phase"] != "place":
        moves = rnd.sample(moves, 8)
    for s in (0, 1):
        for c in cat.cat_ids:
            moves.append({"type": "discard", "player": s, "cat": c})
            moves.append({"type": "reveal", "player": s, "cat": c})
    return moves


def nearby_unlisted(state, listed_keys, rnd):
    """A few moves close to legal ones that legal_moves did not list."""
    cat = catalogue_of(state)
    toys = list(cat.toys)
    candidates = [
        {"type": "place", "player": rnd.randrange(2), "toys": rnd.sample(toys, 3) + [toys[0]]},
        {"type": "place", "player": rnd.randrange(2), "toys": rnd.sample(toys, 4)},
        {"type": "place", "player": rnd.randrange(2), "toys": ["ball"] + rnd.sample(toys, 3)},
        {"type": "discard", "player": rnd.randrange(2), "cat": rnd.choice(cat.cat_ids)},
        {"type": "reveal", "player": rnd.randrange(2), "cat": rnd.choice(cat.cat_ids)},
        {"type": "place", "player": 2, "toys": toys[:4]},
    ]
    return [m for m in candidates
            if m["player"] > 1 or ("toys" in m and len(set(m["toys"])) < 4) or key(m) not in listed_keys]


def choose(state, moves, rnd):
    """Mostly aim at a cat of the table (so games end in reasonable time), else anything."""
    if state["phase"] == "place" and rnd.random() < 0.8:
        cat = catalogue_of(state)
        target = cat.cats[rnd.choice(state["table"])][1]
        aimed = [m for m in moves if _matches(target, m["toys"])]
        if aimed:
            return rnd.choice(aimed)
    return rnd.choice(moves)


GAMES = dict(seed=st.text(min_size=1, max_size=12), chance=st.sampled_from(["seeded", "seeded", "table"]),
             advanced=st.booleans(), small=st.sampled_from([False, False, True]), play_seed=st.integers(0, 2**32))
# One game of each mode (chance, advanced, small catalogue), whatever the random draws.
MODES = [dict(seed=f"mode-{i}", chance=chance, advanced=advanced, small=small, play_seed=i)
         for i, (chance, advanced, small) in enumerate(product(["seeded", "table"], [False, True], [False, True]))]


def _with_modes(test):
    for mode in MODES:
        test = example(**mode)(test)
    return test


@_with_modes
@settings(max_examples=GAMES_PER_RUN, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES)
def test_random_complete_games_keep_the_invariants(seed, chance, advanced, small, play_seed):
    """Random complete games: never crash; conserve every cat of the catalogue and both toy
    decks; keep the table at most 5 cats and nobody at 7 cats before the end; hide each
    placement from the other seat; every listed move is judged legal, moves not listed are
    judged illegal, and once per game the listed moves equal exactly the moves adjudicate
    accepts among every move of a plausible shape."""
    _play_and_check(seed, chance, advanced, small, play_seed)


@pytest.mark.slow
@settings(max_examples=SLOW_GAMES_PER_RUN, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES)
def test_random_complete_games_keep_the_invariants_long(seed, chance, advanced, small, play_seed):
    _play_and_check(seed, chance, advanced, small, play_seed)


def _play_and_check(seed, chance, advanced, small, play_seed):
    rnd = random.Random(play_seed)
    options = {"chance": chance, "advanced": advanced}
    if small:
        options["catalogue"] = MECH
    state = GAME.setup(2, seed, options)
    cat = catalogue_of(state)
    expected = Counter(cat.cat_ids)
    assert Counter(all_cats(state)) == expected
    exhaustive_at = rnd.randrange(40)
    for step in range(MAX_MOVES):
        GAME.check_state(state)
        moves = GAME.legal_moves(state)
        if state["finished"]:
            assert moves == []
            break
        assert moves, "a game that is not finished always has a move"
        listed = {key(m) for m in moves}
        assert len(listed) == len(moves)
        if step == exhaustive_at or (state["phase"] != "place" and rnd.random() < 0.25):
            accepted = {key(m) for m in candidate_space(state, rnd) if GAME.adjudicate(state, m, checked=True).legal}
            assert accepted == listed
        else:
            for move in rnd.sample(moves, min(3, len(moves))):
                assert GAME.adjudicate(state, move, checked=True).legal, move
        for move in nearby_unlisted(state, listed, rnd):
            verdict = GAME.adjudicate(state, move, checked=True)
            assert not verdict.legal, move
            assert verdict.state is None and verdict.violations
        verdict = GAME.adjudicate(state, choose(state, moves, rnd), checked=True)
        assert verdict.legal
        state = verdict.state
        assert Counter(all_cats(state)) == expected
        assert len(state["table"]) <= 5
        for seat, player in enumerate(state["players"]):
            assert sorted(player["hand"] + (player["placement"] or [])) == sorted(cat.toys)
            if not state["finished"]:
                assert len(player["cats"]) < 7
            other = GAME.view(state, 1 - seat)["players"][seat]
            assert "placement" not in other and "discard" not in other and "hand" not in other
    else:
        raise AssertionError(f"the game did not finish in {MAX_MOVES} moves")
    scores, outcome = GAME.score(state)
    assert outcome.finished and outcome.winners
    best = max(row["total"] for row in scores["players"])
    assert all(scores["players"][w]["total"] == best for w in outcome.winners)
    if state["end"] == "seven_cats":
        assert max(len(p["cats"]) for p in state["players"]) >= 7
    else:
        assert state["cat_deck"] == [] and state["discard_pile"] == []
