"""Hand-built CATATAC states for rule tests.

``build`` makes a consistent state from the cards named in the hands, the discard pile and
the top of the paw deck; every paw card not named goes to the bottom of the paw deck (in
catalogue order), every points card not named to the points deck.
"""

from __future__ import annotations

from referee.games.catatac import GAME
from referee.games.catatac import cards as C

OPTIONS = {"chance": "seeded", "seat0_clan": "white", "first_player": 0,
           "deck_hockey": False, "kittens": False, "marathon": False}


def build(hands, discard, ball=("neutral_alley", "white"), deck=(), points_deck=None, points=None,
          turn=0, phase="play", stash=None, marathon=None, finished=False, seed="test", counter=0,
          spare="deck", **options):
    """A consistent state; ``discard`` is bottom first (its last card is the top). The cards
    not named go under the paw deck (``spare="deck"``) or under the discard pile ("discard")."""
    opts = dict(OPTIONS, **options)
    if marathon is True:
        marathon = {"game": 1, "completed": []}
    if marathon is not None:
        opts["marathon"] = True
    named = [c for h in hands for c in h] + list(discard) + list(deck)
    rest = [c for c in C.paw_cards(opts["kittens"]) if c not in set(named)]
    points = points or {"white": [], "black": []}
    taken = set(points["white"]) | set(points["black"])
    if points_deck is None:
        points_deck = [c for c in C.POINTS_IDS if c not in taken]
    state = {
        "game": "catatac",
        "schema_version": 1,
        "options": opts,
        "players": [{"clan": opts["seat0_clan"] if s % 2 == 0 else C.ENEMY[opts["seat0_clan"]], "hand": list(h)}
                    for s, h in enumerate(hands)],
        "ball": {"spot": ball[0], "colour": ball[1]},
        "paw_deck": list(deck) + (rest if spare == "deck" else []),
        "discard": ([] if spare == "deck" else rest) + list(discard),
        "points_deck": list(points_deck),
        "points": {"white": list(points["white"]), "black": list(points["black"])},
        "turn": {"player": turn, "phase": phase},
        "stash": stash,
        "marathon": marathon,
        "finished": finished,
        "rng": {"seed": seed, "counter": counter},
    }
    GAME.check_state(state)
    return state


def play(player, card, pair=None, block=None, order=None, **extra):
    """A play move; ``pair`` is (action, direction) or None; ``block`` is (bars, directions) or None."""
    move = {"type": "play", "player": player, "card": card,
            "pair": None if pair is None else {"action": pair[0], "direction": pair[1]},
            "block": None if block is None else {"bars": list(block[0]), "directions": list(block[1])},
            "order": order}
    move.update(extra)
    return move


def decline(player, **extra):
    return {"type": "decline", "player": player, **extra}


def judge(state, move):
    """The verdict of ``move`` (the state is checked first)."""
    return GAME.adjudicate(state, move)


def ok(state, move):
    """The next state of a legal move; fails with the violations otherwise."""
    verdict = GAME.adjudicate(state, move)
    assert verdict.legal, [(v.code, v.text()) for v in verdict.violations]
    GAME.check_state(verdict.state)
    return verdict.state


def bad(state, move):
    """The violation codes of an illegal move; fails if it is legal."""
    verdict = GAME.adjudicate(state, move)
    assert not verdict.legal, f"expected illegal: {move}"
    return [v.code for v in verdict.violations]


def ball(state):
    return state["ball"]["spot"], state["ball"]["colour"]


def listed(state, move):
    """Whether ``move`` is among the legal moves (compared without absent optional keys)."""
    return move in GAME.legal_moves(state)
