"""Scratch & Catch: what each reader sees (rulebook sections Setup, Game Progress and Scratch Cards).

Every card played, taken or put on the line lies face up; a Stack's player keeps the cards taken
in a pile in front of them, and every reader was shown each of those cards on the line, so the
collected piles are public. Hands are their holders' (Setup: each player is dealt 4 cards), the
draw pile is known only by its size, and a card drawn into a hand (a table's refill move) is its
holder's.
"""

from __future__ import annotations

from referee.engine.core import State
from referee.engine.information import PUBLIC, Disclosure, Hidden

# What each reader sees of every move and event (referee.engine.information).
DISCLOSURE = Disclosure(
    moves={
        "play": PUBLIC,                                # the card is played face up
        "draw": Hidden(("card",)),                     # table chance: the refill card, seen by its holder
    },
    events={
        "card_played": PUBLIC, "stack": PUBLIC, "sequence": PUBLIC, "scratch": PUBLIC,
        "cards_drawn": PUBLIC,                         # how many, never which
        "game_end_triggered": PUBLIC, "turn_passed": PUBLIC, "game_over": PUBLIC,
    },
)


def view(state: State, seat: int | None) -> State:
    """``state`` as seat ``seat`` sees it (None: a spectator): other hands become
    ``{"hand_size", "fleas", "collected"}``, the draw pile ``{"size"}``, the generator is
    removed."""
    seen = dict(state)
    seen["players"] = [
        dict(player) if s == seat else
        {"hand_size": len(player["hand"]), "fleas": player["fleas"], "collected": list(player["collected"])}
        for s, player in enumerate(state["players"])
    ]
    seen["draw_pile"] = {"size": len(state["draw_pile"])}
    seen.pop("rng", None)
    return seen
