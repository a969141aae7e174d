"""Property tests with the boosters: random complete CATATAC games with each booster alone
and all three together (2, 4 and 6 players, Deck Hockey and Kittens, both chance modes),
driven by legal_moves. The invariants of the base game hold (every card conserved, the ball
on one of the five spots and in a hideout only during a stash attempt, every listed move
judged legal, sampled unlisted moves judged illegal), and each booster's paw cards are
conserved: the ones in play plus the 2 removed unseen make the booster's contents; the alpha
cards are each in one place and every player drew one."""

import random
from itertools import product

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from referee.games.catatac import GAME
from referee.games.catatac import cards as C
from tests.games.catatac.test_catatac_properties import _candidates, judge_step

BOOSTER_SETS = [("distraction",), ("alpha",), ("momentum",), ("distraction", "alpha", "momentum")]
BOOSTER_CARDS = [c for cards in C.BOOSTER_PAW_CARDS.values() for c in cards] + list(C.ALPHA_IDS)


def _booster_candidates(state, rnd, count=6):
    """Plays of booster cards and alpha cards, by any seat, most of them illegal."""
    found = []
    for _ in range(count):
        seat = rnd.randrange(len(state["players"]))
        own = state["players"][seat].get("alpha")
        card = own if own and rnd.random() < 0.5 else rnd.choice(BOOSTER_CARDS)
        pair = rnd.choice([None, {"action": "steal", "direction": None}])
        side = rnd.choice([[], [0], [1], [2]])
        found.append({"type": "play", "player": seat, "card": card, "pair": pair,
                      "block": rnd.choice([None, {"bars": side, "directions": []},
                                           {"bars": side, "directions": [rnd.choice(["black", "white"])]}]),
                      "order": None if pair is None else rnd.choice(["pair_first", "block_first"])})
    return found


def _check_invariants(state, first_box):
    options = state["options"]
    boosters = tuple(options["boosters"])
    kittens = options["kittens"]
    alphas = C.alpha_set(boosters)
    paws = ([c for p in state["players"] for c in p["hand"]] + state["paw_deck"]
            + [c for c in state["discard"] if c not in alphas])
    assert sorted(paws + state["box"]) == sorted(C.game_paw_cards(kittens, boosters))
    for booster in C.PAW_BOOSTERS:
        if booster in boosters:
            contents = set(C.booster_paw_cards(booster, kittens))
            in_play = [c for c in paws if c in contents]
            removed = [c for c in state["box"] if c in contents]
            assert len(removed) == C.REMOVED_PER_BOOSTER and sorted(in_play + removed) == sorted(contents)
    assert state["box"] == first_box  # the removed cards stay in the box, unseen, all game long
    held = [p["alpha"] for p in state["players"] if p["alpha"] is not None]
    played = [c for c in state["discard"] if c in alphas]
    assert sorted(held + played + state["alpha_aside"]) == sorted(alphas)
    if alphas:
        assert len(held) + len(played) == len(state["players"])
    points = state["points_deck"] + state["points"]["white"] + state["points"]["black"]
    assert sorted(points) == sorted(C.points_ids(boosters))
    spot = state["ball"]["spot"]
    assert spot in C.SPOTS
    if spot in ("black_hideout", "white_hideout"):
        assert state["stash"] is not None and spot == f"{state['stash']['clan']}_hideout"
    for seat in range(len(state["players"])):
        view = GAME.view(state, seat)
        assert all("alpha" not in p for s, p in enumerate(view["players"]) if s != seat) or state["finished"]
        assert view["box"] == {"size": len(first_box)}
    GAME.check_state(state)


def _play_game(seed, players, boosters, hockey, kittens, chance):
    rnd = random.Random(seed)
    state = GAME.setup(players, f"boost-{seed}", {"boosters": list(boosters), "deck_hockey": hockey, "kittens": kittens,
                                                  "chance": chance, "first_player": seed % players,
                                                  "seat0_clan": C.CLANS[seed % 2]})
    first_box = list(state["box"])
    _check_invariants(state, first_box)
    steps = 0
    while not state["finished"]:
        state = judge_step(state, _candidates(state, rnd, 8) + _booster_candidates(state, rnd), chance, rnd)
        _check_invariants(state, first_box)
        steps += 1
        assert steps < 5000
    _, outcome = GAME.score(state)
    assert outcome.finished
    winners = set(outcome.winners)
    assert winners in ({s for s, p in enumerate(state["players"]) if p["clan"] == clan}
                       for clan in C.CLANS) or not winners


GAMES_PER_RUN = 60         # the default run, besides one game of each mode below
SLOW_GAMES_PER_RUN = 300   # -m slow
GAMES = dict(seed=st.integers(0, 10**9), players=st.sampled_from([2, 4, 6]), boosters=st.sampled_from(BOOSTER_SETS),
             hockey=st.booleans(), kittens=st.booleans(), chance=st.sampled_from(["seeded", "table"]))
# The sweep below plays every booster set without Deck Hockey or Kittens; here each with one of
# them, whatever the random draws.
VARIANTS = [dict(seed=seed, players=players, boosters=boosters, hockey=hockey, kittens=not hockey,
                 chance=("seeded", "table")[seed % 2])
            for seed, (boosters, players, hockey) in enumerate(product(BOOSTER_SETS, [2, 4, 6], [True, False]))
            if C.paw_deck_size(not hockey, boosters) >= 6 * players + 1]


def _with_variants(test):
    for game in VARIANTS:
        test = example(**game)(test)
    return test


@_with_variants
@settings(max_examples=GAMES_PER_RUN, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(**GAMES)
def test_random_complete_booster_games_keep_every_invariant(seed, players, boosters, hockey, kittens, chance):
    """The Boosters, Setup to End of the Game: each booster alone and all three together."""
    assume(C.paw_deck_size(kittens, boosters) >= 6 * players + 1)  # Kittens: enough cards to deal
    _play_game(seed, players, boosters, hockey, kittens, chance)


@pytest.mark.slow
@settings(max_examples=SLOW_GAMES_PER_RUN, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(**GAMES)
def test_random_complete_booster_games_keep_every_invariant_long(seed, players, boosters, hockey, kittens, chance):
    assume(C.paw_deck_size(kittens, boosters) >= 6 * players + 1)
    _play_game(seed, players, boosters, hockey, kittens, chance)


def test_each_booster_alone_and_together_in_each_player_count():
    """A deterministic sweep: every booster set, player count and chance mode."""
    seed = 0
    for boosters in BOOSTER_SETS:
        for players in (2, 4, 6):
            for chance in ("seeded", "table"):
                seed += 1
                _play_game(seed, players, boosters, False, False, chance)
