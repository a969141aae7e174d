"""Scratch & Catch card data (rulebook sections Components, Setup, End of the Game): the deck, card ids, fleas.

Card ids are ``C<number>-<copy>`` for Cat cards and ``S<number>-<copy>`` for Scratch cards,
copies counted from 1 (``C5-1``, ``S10-2``). A card's kind is what is printed on it, the id
without its copy (``C5``: a Cat 5; ``S10``: a Scratch 10): copies of one kind are identical, and
with unseen hands (``options.hands: "unseen"``) cards are named by kind only. The default
composition is the provisional one of ``shared/games/scratch-and-catch-deck.md``; the rulebook
(Components) only fixes 76 cards numbered 1 to 10, 64 Cat and 12 Scratch.
"""

from __future__ import annotations

from functools import lru_cache

NUMBERS = range(1, 11)

DEFAULT_CAT_COUNTS = (5, 6, 7, 7, 7, 7, 7, 7, 6, 5)
DEFAULT_SCRATCH_COUNTS = (1, 1, 1, 1, 2, 2, 1, 1, 1, 1)

# Rulebook, Setup: starting fleas by player count.
STARTING_FLEAS = {2: 22, 3: 20, 4: 18, 5: 16, 6: 15}

HAND_SIZE = 4
LINE_AT_SETUP = 4

# Rulebook, End of the Game: (lowest flea count of the band, points), highest band first.
FLEA_POINTS = ((26, -12), (21, -8), (16, -4), (11, 0), (6, 6), (1, 12), (0, 15))


def _flea_points(fleas: int) -> int:
    for lowest, points in FLEA_POINTS:
        if fleas >= lowest:
            return points
    raise ValueError("fleas cannot be negative")


# The same table by flea count, up to the highest band (read on every score sheet).
_POINTS_BY_FLEAS = tuple(_flea_points(fleas) for fleas in range(FLEA_POINTS[0][0] + 1))


def flea_points(fleas: int) -> int:
    """Points for ``fleas`` flea tokens held at the end (rulebook, End of the Game)."""
    if 0 <= fleas <= FLEA_POINTS[0][0]:
        return _POINTS_BY_FLEAS[fleas]
    return _flea_points(fleas)


@lru_cache(maxsize=4096)
def card_value(card: str) -> int:
    """The number printed on ``card``, an id or a kind (``"C7-2"`` -> 7, ``"C7"`` -> 7)."""
    dash = card.find("-")
    return int(card[1:dash] if dash > 0 else card[1:])


def kind_of(card: str) -> str:
    """The kind of a card id, as printed (``"C7-2"`` -> ``"C7"``); a kind is its own kind."""
    dash = card.find("-")
    return card[:dash] if dash > 0 else card


def is_scratch(card: str) -> bool:
    """Whether ``card`` is a Scratch card."""
    return card[0] == "S"


@lru_cache(maxsize=64)
def deck_ids(cat_counts: tuple[int, ...], scratch_counts: tuple[int, ...]) -> tuple[str, ...]:
    """Every card id of a deck, in catalogue order (number 1 to 10; Cat cards, then Scratch)."""
    ids: list[str] = []
    for number, cats, scratches in zip(NUMBERS, cat_counts, scratch_counts):
        ids.extend(f"C{number}-{copy}" for copy in range(1, cats + 1))
        ids.extend(f"S{number}-{copy}" for copy in range(1, scratches + 1))
    return tuple(ids)


@lru_cache(maxsize=64)
def deck_set(cat_counts: tuple[int, ...], scratch_counts: tuple[int, ...]) -> frozenset[str]:
    """The card ids of a deck, as a set."""
    return frozenset(deck_ids(cat_counts, scratch_counts))


@lru_cache(maxsize=64)
def kind_counts(cat_counts: tuple[int, ...], scratch_counts: tuple[int, ...]) -> dict[str, int]:
    """Copies of each kind in a deck, in catalogue order, kinds with no copy left out
    (``{"C1": 5, "S1": 1, ...}``). Do not mutate the cached answer."""
    counts: dict[str, int] = {}
    for number, cats, scratches in zip(NUMBERS, cat_counts, scratch_counts):
        if cats:
            counts[f"C{number}"] = cats
        if scratches:
            counts[f"S{number}"] = scratches
    return counts
