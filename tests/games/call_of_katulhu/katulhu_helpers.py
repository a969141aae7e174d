"""Hand-built Call of Katulhu states for rule tests.

``build`` makes a consistent state: the cats named on the table, in hands, on the discard pile
and (in order) on top of the deck are placed there; every other cat of the catalogue goes to the
bottom of the deck in catalogue order (or nowhere else, with ``rest="discard"``).

Default reference card (toys and beats, see cards.DEFAULT_CATALOGUE):
yarn beats feather and mouse; feather beats mouse and laser; mouse beats laser and catnip;
laser beats catnip and box; catnip beats box and yarn; box beats yarn and feather.
"""

from __future__ import annotations

from referee.games.call_of_katulhu import GAME
from referee.games.call_of_katulhu.cards import DEFAULT_CATALOGUE

TOYS = ["yarn", "feather", "mouse", "laser", "catnip", "box"]
N = None


def catalogue(cats, cat_count=None) -> dict:
    """A catalogue with the default toys and beats and the cats ``[(id, colour, slots)]``."""
    cats = [{"id": i, "colour": c, "slots": list(s)} for i, c, s in cats]
    return {"toys": list(DEFAULT_CATALOGUE["toys"]),
            "beats": {k: list(v) for k, v in DEFAULT_CATALOGUE["beats"].items()},
            "cats": cats, "cat_count": len(cats) if cat_count is None else cat_count}


# Cats of the mechanics tests (default toys and beats).
MECH = catalogue([
    ("a", "blue", ["yarn", N, "mouse", "laser"]),
    ("b", "red", ["yarn", "mouse", "laser", N]),        # what blue would match if slots were consolidated
    ("c", "yellow", [N, "box", "mouse", N]),
    ("d", "white", [N, N, "mouse", N]),
    ("e", "black", [N, "feather", N, N]),
    ("f", "blue", ["yarn", N, N, N]),
    ("g", "red", ["catnip", "box", N, N]),
    ("h", "yellow", ["laser", "yarn", N, N]),
    ("i", "white", ["feather", "box", "yarn", "mouse"]),
    ("j", "black", ["box", "catnip", "laser", "feather"]),
    ("k", "blue", ["mouse", "yarn", N, N]),
    ("l", "red", ["feather", "yarn", N, N]),
])


def build(table, cats=([], []), deck=(), discard=(), *, options=None, phase="place", round_=1,
          quiet_rounds=0, placements=(None, None), discards=(None, None), must_play=([], []),
          finished=False, end=None, rest="deck", seed="test", counter=0):
    """A consistent state (see the module docstring)."""
    opts = {"chance": "seeded", "advanced": False, "catalogue": None}
    opts.update(options or {})
    cat = opts["catalogue"] or DEFAULT_CATALOGUE
    toys = cat["toys"]
    named = set(table) | set(cats[0]) | set(cats[1]) | set(deck) | set(discard)
    others = [c["id"] for c in cat["cats"] if c["id"] not in named]
    deck = list(deck) + (others if rest == "deck" else [])
    discard = list(discard) + (others if rest == "discard" else [])
    if opts["chance"] == "table":
        deck.sort()
    players = []
    for seat, colour in enumerate(("blue", "red")):
        placement = placements[seat]
        players.append({
            "deck": colour,
            "hand": [t for t in toys if not placement or t not in placement],
            "placement": None if placement is None else list(placement),
            "must_play": list(must_play[seat]),
            "discard": discards[seat],
            "cats": list(cats[seat]),
        })
    state = {
        "game": "call-of-katulhu", "schema_version": 1, "options": opts, "players": players,
        "table": list(table), "cat_deck": deck, "discard_pile": discard, "phase": phase,
        "round": round_, "quiet_rounds": quiet_rounds, "end": end, "finished": finished,
        "rng": {"seed": seed, "counter": counter},
    }
    GAME.check_state(state)
    return state


def place(seat, *toys):
    return {"type": "place", "player": seat, "toys": list(toys)}


def play_round(state, blue, red):
    """Both placements; returns the verdict of the second one (asserting both are legal)."""
    first = GAME.adjudicate(state, place(0, *blue))
    assert first.legal, first.violations
    second = GAME.adjudicate(first.state, place(1, *red))
    assert second.legal, second.violations
    return second


def events_of(verdict, kind):
    return [e for e in verdict.events if e["type"] == kind]
