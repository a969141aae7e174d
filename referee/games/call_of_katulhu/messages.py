"""Call of Katulhu: the violations a verdict can give, each with the rulebook section it enforces.

Sections are named as headed in the English rulebook (shared/rulebooks/call-of-katulhu.en.txt:
Setup, Gameplay, Optional Advanced Game Rule, Cat Cards, Scoring). The messages and the section
names are also the msgids of the translation catalogs.
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import Illegal, violation

SETUP = "Setup"
GAMEPLAY = "Gameplay"
ADVANCED = "Optional Advanced Game Rule"
CAT_CARDS = "Cat Cards"
SCORING = "Scoring"

# Violation code -> (English message template, rulebook section).
MESSAGES: dict[str, tuple[str, str]] = {
    "GAME_OVER": ("The game is over.", GAMEPLAY),
    "NO_SUCH_PLAYER": ("There is no player {player}: seat 0 has the blue deck, seat 1 the red deck.", SETUP),
    "PLACEMENT_PENDING": ("Both players place their 4 toys before anything else happens this round.", GAMEPLAY),
    "STALL_DISCARD_PENDING": (("After 2 rounds without any cat removed, each player first discards one cat from "
                               "the table."), GAMEPLAY),
    "REVEAL_PENDING": ("Cats are turned up until 5 are available before the round begins.", GAMEPLAY),
    "REVEAL_NOT_ACCEPTED": (("In a seeded game the generator turns up the cats; reveal moves are for table "
                             "games."), GAMEPLAY),
    "ALREADY_PLACED": ("Player {player} has already placed toys this round.", GAMEPLAY),
    "WRONG_TOY_COUNT": ("Place exactly 4 toys, one in each slot from 1 to 4.", GAMEPLAY),
    "TOY_NOT_IN_DECK": ("Toy {toy} is not in your deck.", GAMEPLAY),
    "TOY_PLACED_TWICE": ("Toy {toy} is placed twice; each slot holds a different toy card.", GAMEPLAY),
    "SET_ASIDE_NOT_PLAYED": ("The toys set aside last round must be played this round: {toys}.", ADVANCED),
    "ALREADY_CHOSE_DISCARD": ("Player {player} has already chosen a cat to discard.", GAMEPLAY),
    "CAT_NOT_ON_TABLE": ("Cat {cat} is not on the table.", GAMEPLAY),
    "CAT_NOT_IN_DECK": ("Cat {cat} cannot be in the cat deck.", GAMEPLAY),
    "CAT_REQUIRED": ("The move must name a cat (at a table game, the cat turned up).", GAMEPLAY),
}


def illegal(code: str, **params: Any) -> Illegal:
    """The Illegal to raise for the violation ``code`` of :data:`MESSAGES`, filled from ``params``."""
    return Illegal(violation(MESSAGES, code, **params))
