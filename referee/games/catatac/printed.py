"""CATATAC cards as printed (shared/games/catatac-cards.md; rulebook, Setup and The Boosters):
paw cards (``"Paw 3"``, ``"Capture 4"``, ``"Joker"``), alpha cards (``"Angora"``, with its
clan) and points cards (``"Green points card"``), each with its name and what a page draws:
kind, number, clan, points and sardines.

The names are msgid templates and words of the game's catalog
(``referee/locale/ja/LC_MESSAGES/catatac.po``, in the Japanese rulebook's words: 肉球カード,
得点カード, 毛糸玉; the cards' own names are our translation). Every card of the base game, the
Kittens variant and the three boosters is listed, and every kind unseen hands name (``P3``,
``joker``).
"""

from __future__ import annotations

from functools import lru_cache

from referee.engine.core import Printed
from referee.games.catatac.cards import (
    ALL_PAW_CARDS,
    ALL_POINTS_IDS,
    ALPHA_IDS,
    BOOSTER_NAMED,
    BOOSTER_PAW_CARDS,
    KINDS,
    NAMED,
    NUMBERS,
    POINTS_CARDS,
)

PLAIN_NAME = "Paw {number}"
NAMED_NAME = "{name} {number}"
JOKER_NAME = "Joker"
# Points cards, as catatac-cards.md names them.
POINTS_NAMES = {
    "green": "Green points card", "blue": "Blue points card", "yellow": "Yellow points card",
    "red": "Red points card", "grey": "Grey points card", "multicolour": "Multicolour points card",
    "black-ball": "Black ball points card", "white-ball": "White ball points card",
    "purple": "Purple points card", "yellow-momentum": "Yellow points card (Momentum)",
    "pasta-left": "Pasta points card (left half)", "pasta-right": "Pasta points card (right half)",
}
NAMES = (PLAIN_NAME, JOKER_NAME, *POINTS_NAMES.values(),
         *sorted({name for _, name, *_ in NAMED} | {name for _, _, name, *_ in BOOSTER_NAMED}
                 | {KINDS[card].name for card in ALPHA_IDS}))


def printed(card: str) -> Printed:
    """A paw card (an id or a kind), an alpha card or a points card as printed, e.g.
    ``Printed("{name} {number}", {"name": "Capture", "number": 4}, {"kind": "paw", "number":
    4})``; a Joker's number is None. KeyError for a card no game holds."""
    if card in POINTS_CARDS:
        white, black, sardines = POINTS_CARDS[card]
        return Printed(POINTS_NAMES[card], {}, {"kind": "points", "points": {"white": white, "black": black},
                                                "sardines": sardines})
    kind = KINDS[card]
    if kind.alpha is not None:
        return Printed(kind.name, {}, {"kind": "alpha", "clan": kind.alpha, "sardines": kind.sardines})
    if kind.joker:
        return Printed(JOKER_NAME, {}, {"kind": "joker", "number": None})
    plain = kind.key.startswith("P")
    return Printed(PLAIN_NAME if plain else NAMED_NAME,
                   {"number": kind.number} if plain else {"name": kind.name, "number": kind.number},
                   {"kind": "paw", "number": kind.number})


@lru_cache(maxsize=1)
def printed_cards() -> dict[str, Printed]:
    """Every paw card (base game and boosters; the Kittens variant deals some of them), alpha
    card and points card, and every paw kind unseen hands name, as printed."""
    paw = [*ALL_PAW_CARDS, *(card for booster in BOOSTER_PAW_CARDS.values() for card in booster)]
    kinds = [*(f"P{number}" for number in NUMBERS), "joker"]
    return {card: printed(card) for card in (*paw, *kinds, *ALPHA_IDS, *ALL_POINTS_IDS)}
