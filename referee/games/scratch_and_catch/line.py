"""Scratch & Catch, rulebook section Game Progress: the line in the center of the table.

A played card is placed on the line in ascending order of value; a card of a value already there
goes on top of that pile (a Stack). A second card makes a Stack, whose player takes the piles
adjacent on both sides, or, alone in its value, may join a Sequence of consecutive values.
The line is a list of piles ``{"value": 1..10, "cards": [ids or kinds, bottom first]}``.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.games.scratch_and_catch.cards import card_value


class Placed(NamedTuple):
    """Where a card was put on the line: the index of its pile, and whether that pile was
    there before (the card then forms a Stack)."""

    pile: int
    stacked: bool


def place_card(line: list[dict], card: str) -> Placed:
    """Put ``card`` on ``line`` in value order (changes ``line``; a pile it joins gets a new list
    of cards, since copies of a state share the old one)."""
    value = card_value(card)
    for index, pile in enumerate(line):
        if pile["value"] == value:
            pile["cards"] = [*pile["cards"], card]
            return Placed(index, True)
        if pile["value"] > value:
            line.insert(index, {"value": value, "cards": [card]})
            return Placed(index, False)
    line.append({"value": value, "cards": [card]})
    return Placed(len(line) - 1, False)


def take_adjacent(line: list[dict], placed: Placed, value: int) -> list[str]:
    """A Stack of ``value`` at ``placed``: remove the piles of the values next to it from
    ``line`` and return their cards (the pile above first, each bottom first)."""
    taken: list[str] = []
    for neighbour in (placed.pile + 1, placed.pile - 1):
        if 0 <= neighbour < len(line) and abs(line[neighbour]["value"] - value) == 1:
            taken.extend(line[neighbour]["cards"])
    line[:] = [pile for pile in line if abs(pile["value"] - value) != 1]
    return taken


def sequence_length(line: list[dict], placed: Placed) -> int:
    """How many piles of consecutive values the pile at ``placed`` belongs to (1: no Sequence)."""
    low = high = placed.pile
    while low > 0 and line[low - 1]["value"] == line[low]["value"] - 1:
        low -= 1
    while high < len(line) - 1 and line[high + 1]["value"] == line[high]["value"] + 1:
        high += 1
    return high - low + 1


def pile_size(line: list[dict], value: int) -> int:
    """How many cards the pile of ``value`` holds (Scratch Cards: the fleas each other player takes)."""
    return len(next(pile for pile in line if pile["value"] == value)["cards"])
