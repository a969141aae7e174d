"""Call of Katulhu cards as printed (rulebook, Components): the 6 toy cards of each player's
deck and the cat cards of the default catalogue (cards.py), each with its name (``"Yarn"``,
``"Blue cat 1"``) and what a page draws: a toy's kind, a cat's colour, number and the toys of
its 4 slots (null: an open slot).

The names are msgid templates of the game's catalog (``referee/locale/ja/LC_MESSAGES/
call-of-katulhu.po`` says them in Japanese). A caller's catalogue (``options.catalogue``)
names its own toys and cats: those are not listed here.
"""

from __future__ import annotations

from functools import lru_cache

from referee.engine.core import Printed
from referee.games.call_of_katulhu.cards import DEFAULT

# The default catalogue's toys and cat colours in words (msgids).
TOY_NAMES = {"yarn": "Yarn", "feather": "Feather", "mouse": "Mouse", "laser": "Laser", "catnip": "Catnip",
             "box": "Box"}
COLOUR_NAMES = {"blue": "Blue", "red": "Red", "yellow": "Yellow", "white": "White", "black": "Black"}
CAT_NAME = "{colour} cat {number}"
NAMES = (CAT_NAME, *TOY_NAMES.values(), *COLOUR_NAMES.values())


def printed(card: str) -> Printed:
    """A toy or cat card of the default catalogue as printed: ``Printed("Yarn", {},
    {"kind": "toy"})``, ``Printed("{colour} cat {number}", {"colour": "Blue",
    "number": 1}, {"kind": "cat", "colour": "blue", "number": 1, "slots": [...]})``. KeyError
    for a card the default catalogue does not hold."""
    if card in DEFAULT.toy_set:
        return Printed(TOY_NAMES[card], {}, {"kind": "toy"})
    cat = DEFAULT.cats[card]
    number = int(card.rsplit("-", 1)[1])
    return Printed(CAT_NAME, {"colour": COLOUR_NAMES[cat.colour], "number": number},
                   {"kind": "cat", "colour": cat.colour, "number": number, "slots": list(cat.slots)})


@lru_cache(maxsize=1)
def printed_cards() -> dict[str, Printed]:
    """Every toy and cat of the default catalogue, as printed."""
    return {card: printed(card) for card in (*DEFAULT.toys, *DEFAULT.cat_ids)}
