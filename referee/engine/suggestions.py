"""Suggestions for an illegal move: the moves of the same seat closest to it. Pure.

A move is a JSON object with ``type``, ``player`` and its choices; a game names the fields that
hold the card a move is about (``Game.card_fields``: ``card`` in Scratch & Catch, ``card`` and
``points_card`` in CATATAC, ``cat`` in Call of Katulhu). The candidates are the moves the seat
may make, in the order they are listed; each gets a rank, smallest first:

1. its tier: 0, the same type and the same card with other choices; 1, the same type and the
   same choices with another card; 2, the same type, another card and other choices; 3,
   another type;
2. the number of values that differ: each field that differs counts 1, except a list or an
   object, which counts each position or key that differs (a placement of toys differing in
   one slot counts 1; a pair differing in its direction only counts 1);
3. its place in the listing (ties keep the listing's order).

A field a candidate lists in ``table_fills`` and leaves null (at a physical table, what the
table shows) is the same as any value proposed. ``type``, ``player`` and ``table_fills``
themselves are not compared: every candidate is the seat's own.
"""

from __future__ import annotations

import heapq
from typing import Any, Iterable, Sequence

LIMIT = 3
TABLE_FILLS = "table_fills"
_NOT_COMPARED = frozenset({"type", "player", TABLE_FILLS})
_ABSENT = object()


def closest(proposed: dict, candidates: Sequence[dict], card_fields: Iterable[str] = ("card",),
            limit: int = LIMIT) -> list[dict]:
    """The at most ``limit`` moves of ``candidates`` closest to ``proposed``, closest first, in
    the order of the module docstring. ``candidates`` should be the proposing seat's own moves;
    the result holds them as they are (with their ``table_fills``)."""
    cards = tuple(card_fields)
    return [candidates[index] for _, index in
            heapq.nsmallest(limit, ((_rank(proposed, move, cards), index) for index, move in enumerate(candidates)))]


def _rank(proposed: dict, candidate: dict, cards: tuple[str, ...]) -> tuple[int, int]:
    """``(tier, differences)`` of ``candidate`` against ``proposed``."""
    fills = candidate.get(TABLE_FILLS) or ()
    card_differences = choice_differences = 0
    for name in proposed.keys() | candidate.keys():
        if name in _NOT_COMPARED:
            continue
        count = _difference(proposed.get(name, _ABSENT), candidate.get(name, _ABSENT), name in fills)
        if name in cards:
            card_differences += count
        else:
            choice_differences += count
    total = card_differences + choice_differences
    if candidate.get("type") != proposed.get("type"):
        return 3, total
    return (0 if not card_differences else 1 if not choice_differences else 2), total


def _difference(proposed: Any, listed: Any, filled_by_table: bool) -> int:
    """How many values of ``listed`` differ from ``proposed`` (0: the same)."""
    if proposed == listed or (filled_by_table and listed is None):
        return 0
    if type(proposed) is list and type(listed) is list:
        return (sum(a != b for a, b in zip(proposed, listed)) + abs(len(proposed) - len(listed)))
    if type(proposed) is dict and type(listed) is dict:
        return sum(proposed.get(key, _ABSENT) != listed.get(key, _ABSENT) for key in proposed.keys() | listed.keys())
    return 1
