"""Hand-built CATATAC states with boosters, for rule tests.

``bbuild`` makes a consistent booster state from the cards named in the hands, the discard
pile and the top of the paw deck. The paw cards of the paw boosters in play join the game;
2 of each go to the box (the last two of the booster not named elsewhere, unless ``box``
names them); every paw card not named goes under the paw deck (catalogue order). Each seat
holds the alpha card given in ``alpha`` (default: the first free card of its clan's pile;
None: already played: an alpha card of its clan named in ``discard``, else one put at the
bottom of the discard pile); the rest of the alpha piles is set aside.
"""

from __future__ import annotations

from referee.games.catatac import GAME
from referee.games.catatac import cards as C
from tests.games.catatac.catatac_helpers import OPTIONS

ALL = ("distraction", "alpha", "momentum")


def bbuild(hands, discard, ball=("neutral_alley", "white"), boosters=ALL, alpha="default", box=None,
           deck=(), points_deck=None, points=None, turn=0, phase="play", stash=None, skip=False,
           finished=False, seed="test", counter=0, spare="deck", **options):
    """A consistent state with ``boosters``; ``discard`` is bottom first (the last is the top).
    The paw cards not named go under the paw deck (``spare="deck"``) or the discard pile."""
    boosters = C.canonical_boosters(boosters)
    opts = dict(OPTIONS, **options)
    opts["boosters"] = list(boosters)
    n = len(hands)
    clans = [opts["seat0_clan"] if s % 2 == 0 else C.ENEMY[opts["seat0_clan"]] for s in range(n)]
    named = [c for h in hands for c in h] + list(discard) + list(deck)
    if box is None:
        box = []
        for booster in C.PAW_BOOSTERS:
            if booster in boosters:
                free = [c for c in C.booster_paw_cards(booster, opts["kittens"]) if c not in named]
                box.extend(free[-2:])
    rest = [c for c in C.game_paw_cards(opts["kittens"], boosters) if c not in set(named) | set(box)]
    if C.ALPHA in boosters:
        if alpha == "default":
            alpha = []
            for s in range(n):
                alpha.append(next(c for c in C.alpha_pile(clans[s], boosters) if c not in alpha and c not in named))
        played = []
        shown = [c for c in discard if c in C.ALPHA_IDS]  # alpha cards named in the discard pile
        for s in range(n):
            if alpha[s] is None:
                mine = [c for c in shown if C.KINDS[c].alpha == clans[s]]
                if mine:
                    shown.remove(mine[0])
                    continue
                played.append(next(c for c in C.alpha_pile(clans[s], boosters)
                                    if c not in alpha and c not in played and c not in named))
    else:
        alpha, played = [None] * n, []
    points = points or {"white": [], "black": []}
    taken = set(points["white"]) | set(points["black"])
    if points_deck is None:
        points_deck = [c for c in C.points_ids(boosters) if c not in taken]
    used = set(alpha) | set(played) | set(named)
    state = {
        "game": "catatac",
        "schema_version": 1,
        "options": opts,
        "players": [{"clan": clans[s], "hand": list(h), "alpha": alpha[s]} for s, h in enumerate(hands)],
        "ball": {"spot": ball[0], "colour": ball[1]},
        "paw_deck": list(deck) + (rest if spare == "deck" else []),
        "discard": ([] if spare == "deck" else rest) + played + list(discard),
        "points_deck": list(points_deck),
        "points": {"white": list(points["white"]), "black": list(points["black"])},
        "turn": {"player": turn, "phase": phase},
        "stash": stash,
        "marathon": None,
        "finished": finished,
        "rng": {"seed": seed, "counter": counter},
        "box": sorted(box),
        "alpha_aside": sorted(C.alpha_set(boosters) - used),
        "skip": skip,
    }
    GAME.check_state(state)
    return state


def stash_by(clan, by, nxt, answer):
    """A pending stash attempt."""
    return {"clan": clan, "by": by, "next": nxt, "answer": list(answer)}
