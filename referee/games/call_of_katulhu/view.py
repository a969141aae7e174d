"""Call of Katulhu: what each reader sees (rulebook section Gameplay).

Toys are placed face down and turned up together at the reveal, so a placement is its player's
until the round is resolved; a stall discard is chosen by each player and shown when both have
chosen. Cats are face up, and cats won stay visible to the other player; the order of the cat
deck is no one's.
"""

from __future__ import annotations

from referee.engine.core import State
from referee.engine.information import PUBLIC, Disclosure, Hidden, Reveals


def _round(state: State, _item: dict | None = None) -> str:
    """The secret a round's placements share: revealed together."""
    return f"round:{state['round']}"


def _stall(state: State, _item: dict | None = None) -> str:
    """The secret a stall's discard choices share: shown when both have chosen."""
    return f"stall:{state['round']}"


# What each reader sees of every move and event (referee.engine.information).
DISCLOSURE = Disclosure(
    moves={
        "place": Hidden(("toys",), until=_round),
        "discard": Hidden(("cat",), until=_stall),
        "reveal": PUBLIC,                                  # table chance: a cat turned face up
    },
    events={
        "toys_placed": PUBLIC, "discard_chosen": PUBLIC,   # that a player chose, not what
        "toys_revealed": Reveals(lambda state, _event: [_round(state)]),
        "cat_discarded": Reveals(lambda state, event: [_stall(state)] if event["reason"] == "stall" else []),
        "cat_attracted": PUBLIC, "stall": PUBLIC, "cats_turned_up": PUBLIC, "discard_pile_reshuffled": PUBLIC,
        "game_over": PUBLIC,
    },
)


def view(state: State, seat: int | None) -> State:
    """``state`` as seat ``seat`` sees it (None: a spectator): the other player becomes
    ``{"deck", "hand_size", "placed", "must_play", "discard_chosen", "cats"}`` (their
    placement, unplaced toys and stall choice as flags and counts), the cat deck ``{"size"}``,
    the generator is removed. Won cats, the table and the discard pile are public."""
    seen = dict(state)
    seen["players"] = [
        dict(p) if s == seat else
        {"deck": p["deck"], "hand_size": len(p["hand"]), "placed": p["placement"] is not None,
         "must_play": list(p["must_play"]), "discard_chosen": p["discard"] is not None,
         "cats": list(p["cats"])}
        for s, p in enumerate(state["players"])
    ]
    seen["cat_deck"] = {"size": len(state["cat_deck"])}
    seen.pop("rng", None)
    return seen
