"""Property tests: random complete CATATAC games (2, 4 and 6 players, every variant, both
chance modes) driven by legal_moves. Every card is conserved, the ball is always on one of
the five spots and never left in a hideout when a turn ends (except during a pending stash
attempt), every listed move is judged legal, and sampled moves not listed are judged illegal."""

import random
from itertools import product

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from referee.games.catatac import GAME
from referee.games.catatac import cards as C
from referee.games.catatac.legal import block_options

PAIRS = [None, ("steal", None), ("movement", "black"), ("movement", "white"), ("stash", None), ("counter", None),
         ("movement", None), ("steal", "white")]
ORDERS = [None, "pair_first", "block_first"]
EXTRA_BLOCKS = [((), ()), ((0,), ()), ((1,), ("white",)), ((2,), ("black",)), ((), ("black", "white")),
                ((0, 0), ("white",))]


def _candidates(state, rnd, count=16):
    """A random sample of moves of every kind, for every seat, most of them illegal."""
    players = state["players"]
    found = []
    for _ in range(count):
        seat = rnd.randrange(len(players))
        hand = players[seat]["hand"]
        roll = rnd.random()
        if roll < 0.1:
            move = {"type": "decline", "player": seat}
            if state["points_deck"] and rnd.random() < 0.5:
                move.update(points_card=rnd.choice(state["points_deck"]), coins=[rnd.choice(C.COIN_FACES)])
        elif roll < 0.2:
            pool = state["paw_deck"] + state["discard"][-1:]
            move = {"type": "draw", "player": seat, "card": rnd.choice(pool)}
        else:
            card = rnd.choice(hand) if hand and rnd.random() < 0.9 else rnd.choice(C.ALL_PAW_CARDS)
            blocks = list(block_options(C.KINDS[card])) + EXTRA_BLOCKS
            pair, block, order = rnd.choice(PAIRS), rnd.choice(blocks), rnd.choice(ORDERS)
            move = {"type": "play", "player": seat, "card": card,
                    "pair": None if pair is None else {"action": pair[0], "direction": pair[1]},
                    "block": None if block is None else {"bars": list(block[0]), "directions": list(block[1])},
                    "order": order}
            if rnd.random() < 0.3:
                move["coins"] = [rnd.choice(C.COIN_FACES)]
        found.append(move)
    return found


def judge_step(state, candidates, chance, rnd):
    """One step of a random game: every listed move is judged legal, every unlisted candidate
    illegal; then a random listed move (mostly one that uses its pair or block) is played."""
    moves = GAME.legal_moves(state)
    assert moves, "a running game always has a move"
    for move in moves:
        verdict = GAME.adjudicate(state, move, checked=True)
        assert verdict.legal, (move, [v.code for v in verdict.violations])
    for move in candidates:
        bare = {k: v for k, v in move.items() if k not in ("coins", "points_card")}
        if chance == "seeded" and bare != move and bare in moves:
            continue  # seeded chance: an outcome carried by a listed move is checked, not listed
        if move in moves:
            continue
        verdict = GAME.adjudicate(state, move, checked=True)
        if move["type"] == "draw" and any(m["type"] == "draw" and m["player"] == move["player"]
                                          and C.kind_of(m["card"]) == C.kind_of(move["card"]) for m in moves):
            # A table names the card it drew as printed: another copy of a kind the deck holds
            # is taken in its place (rules notes, Physical tables).
            assert verdict.legal, ("a copy of a listed draw judged illegal", move)
        else:
            assert not verdict.legal, ("unlisted move judged legal", move)
    busy = [m for m in moves if m["type"] != "play" or m["pair"] or m["block"]]
    move = rnd.choice(busy if busy and rnd.random() < 0.8 else moves)
    return GAME.adjudicate(state, move, checked=True).state


def _check_invariants(state):
    kittens = state["options"]["kittens"]
    paws = [c for p in state["players"] for c in p["hand"]] + state["paw_deck"] + state["discard"]
    assert sorted(paws) == sorted(C.paw_cards(kittens)) and len(paws) == (35 if kittens else 58)
    points = state["points_deck"] + state["points"]["white"] + state["points"]["black"]
    assert sorted(points) == sorted(C.POINTS_IDS)
    spot = state["ball"]["spot"]
    assert spot in C.SPOTS
    if spot in ("black_hideout", "white_hideout"):
        assert state["stash"] is not None and spot == f"{state['stash']['clan']}_hideout"
    GAME.check_state(state)


def _play_game(seed, players, hockey, kittens, marathon, chance):
    rnd = random.Random(seed)
    state = GAME.setup(players, f"prop-{seed}", {"deck_hockey": hockey, "kittens": kittens, "marathon": marathon,
                                                "chance": chance, "first_player": seed % players,
                                                "seat0_clan": C.CLANS[seed % 2]})
    _check_invariants(state)
    steps = 0
    while not state["finished"]:
        state = judge_step(state, _candidates(state, rnd), chance, rnd)
        _check_invariants(state)
        steps += 1
        assert steps < 5000
    scores, outcome = GAME.score(state)
    assert outcome.finished
    winners = set(outcome.winners)
    assert winners in ({s for s, p in enumerate(state["players"]) if p["clan"] == clan}
                       for clan in C.CLANS) or not winners
    if marathon:
        assert len(state["marathon"]["completed"]) == 3
    return steps


GAMES_PER_RUN = 100        # the default run, besides one Marathon game of each mode below
SLOW_GAMES_PER_RUN = 500   # -m slow
GAMES = dict(seed=st.integers(0, 10**9), players=st.sampled_from([2, 4, 6]), hockey=st.booleans(),
             kittens=st.booleans(), marathon=st.booleans(), chance=st.sampled_from(["seeded", "table"]))
# The sweep below plays every mode without the Marathon; here each with it, whatever the random draws.
MARATHONS = [dict(seed=seed, players=players, hockey=hockey, kittens=kittens, marathon=True, chance=chance)
             for seed, (players, hockey, kittens, chance) in enumerate(
                 product([2, 4, 6], [False, True], [False, True], ["seeded", "table"]))
             if not (kittens and players == 6)]


def _with_marathons(test):
    for game in MARATHONS:
        test = example(**game)(test)
    return test


@_with_marathons
@settings(max_examples=GAMES_PER_RUN, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(**GAMES)
def test_random_complete_games_keep_every_invariant(seed, players, hockey, kittens, marathon, chance):
    """Setup to End of the Game, all variants: conservation, ball on a spot, legal_moves == adjudicate."""
    assume(not (kittens and players == 6))  # Variants, Kittens: 35 cards cannot deal 6 hands
    _play_game(seed, players, hockey, kittens, marathon, chance)


@pytest.mark.slow
@settings(max_examples=SLOW_GAMES_PER_RUN, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(**GAMES)
def test_random_complete_games_keep_every_invariant_long(seed, players, hockey, kittens, marathon, chance):
    assume(not (kittens and players == 6))
    _play_game(seed, players, hockey, kittens, marathon, chance)


def test_every_player_count_and_variant_is_played():
    """A deterministic sweep over each player count, variant and chance mode."""
    for seed, (players, hockey, kittens, marathon, chance) in enumerate(
            product([2, 4, 6], [False, True], [False, True], [False], ["seeded", "table"])):
        if kittens and players == 6:
            continue  # refused at setup (Variants, Kittens)
        _play_game(seed, players, hockey, kittens, marathon, chance)
