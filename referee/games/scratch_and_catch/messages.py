"""Scratch & Catch: the violations a verdict can give, each with the rulebook section it enforces.

Sections are named as headed in the English rulebook (shared/rulebooks/scratch-and-catch.en.txt:
Setup, Game Progress, Scratch Cards, End of the Game). The messages and the section names are
also the msgids of the translation catalogs.
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import Violation, violation

SETUP = "Setup"
PROGRESS = "Game Progress"
SCRATCH = "Scratch Cards"
END = "End of the Game"

# The part of a move SEEDED_CHANCE names (the ``field`` word parameter, named in words by the catalogs).
DRAWN_FIELD = "card"

# Violation code -> (English message, rulebook section).
MESSAGES = {
    "GAME_OVER": ("The game is over.", END),
    "NOT_YOUR_TURN": ("It is player {turn}'s turn, not player {player}'s.", PROGRESS),
    "NO_SUCH_PLAYER": ("There is no player {player}: the seats are 0 to {last}.", SETUP),
    "REFILL_PENDING": ("Draw cards until you have 4 cards in hand before the turn passes.", PROGRESS),
    "NOT_REFILLING": ("Cards are drawn only at the end of your turn, after your 2 cards.", PROGRESS),
    "REFILL_IS_AUTOMATIC": (("With the seeded generator the refill is drawn for you; draw moves are for table "
                            "games."), PROGRESS),
    "DRAW_PILE_EMPTY": ("The draw pile is empty.", PROGRESS),
    "CARD_REQUIRED": ("At a table game, name the card taken from the draw pile.", PROGRESS),
    "CARD_NOT_IN_PILE": ("Card {card} cannot be in the draw pile.", PROGRESS),
    "SEEDED_CHANCE": (("With the seeded generator the referee turns the cards of the draw pile: a move does not "
                      "name the {field} drawn."), PROGRESS),
    "UNKNOWN_CARD": ("Unknown card id {card}: this game's deck has no such card.", PROGRESS),
    "CARD_NOT_IN_HAND": ("Card {card} is not in your hand.", PROGRESS),
    "HAND_EMPTY": ("Your hand is empty: play from the draw pile.", PROGRESS),
    "CARD_NOT_IN_DECK": ("The deck has no {kind} card.", SETUP),
    "CARD_ALREADY_SEEN": (("No {kind} can still be unseen: the deck has {count}, all face up ({line} on the "
                          "line, {collected} collected)."), PROGRESS),
    "REFILL_UNSEEN": ("With unseen hands the refill only changes the hand sizes: there is no draw move.", PROGRESS),
}


def rule_violation(code: str, **params: Any) -> Violation:
    """The Violation ``code`` of :data:`MESSAGES`, its message filled from ``params``."""
    return violation(MESSAGES, code, **params)
