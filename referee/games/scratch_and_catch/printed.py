"""Scratch & Catch cards as printed (rulebook, Components: Cat cards and Scratch cards numbered
1 to 10): each card's name, ``"Cat 7"``, ``"Scratch 3"``, and its kind and number.

The names are msgid templates of the game's catalog (``referee/locale/ja/LC_MESSAGES/
scratch-and-catch.po`` says them in Japanese). Copies of a number are printed alike: a card id
``C7-<copy>`` is printed as its kind ``C7``.
"""

from __future__ import annotations

from functools import lru_cache

from referee.engine.core import Printed
from referee.games.scratch_and_catch.cards import (
    DEFAULT_CAT_COUNTS,
    DEFAULT_SCRATCH_COUNTS,
    NUMBERS,
    card_value,
    deck_ids,
    is_scratch,
    kind_of,
)

CAT_NAME = "Cat {number}"
SCRATCH_NAME = "Scratch {number}"
NAMES = (CAT_NAME, SCRATCH_NAME)


def printed(card: str) -> Printed:
    """``card`` (an id ``C7-2`` or a kind ``C7``) as printed: ``Printed("Cat {number}",
    {"number": 7}, {"kind": "cat", "number": 7})``. ValueError for a card no deck holds."""
    kind = kind_of(card)
    if kind[:1] not in ("C", "S") or not kind[1:].isdigit() or card_value(kind) not in NUMBERS:
        raise ValueError(f"no Scratch & Catch card {card!r}")
    number = card_value(kind)
    scratch = is_scratch(kind)
    return Printed(SCRATCH_NAME if scratch else CAT_NAME, {"number": number},
                   {"kind": "scratch" if scratch else "cat", "number": number})


@lru_cache(maxsize=1)
def printed_cards() -> dict[str, Printed]:
    """Every card of the default deck and every kind (``C1`` .. ``C10``, ``S1`` .. ``S10``: what
    unseen hands name, and the face of any copy a deck option adds), as printed."""
    kinds = [f"{letter}{number}" for letter in ("C", "S") for number in NUMBERS]
    return {card: printed(card) for card in (*deck_ids(DEFAULT_CAT_COUNTS, DEFAULT_SCRATCH_COUNTS), *kinds)}
