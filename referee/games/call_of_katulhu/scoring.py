"""Call of Katulhu, rulebook sections Scoring and Cat Cards: the score sheet and who wins.

Scoring: blue, red and yellow cats score 2 each plus 1 per earlier cat of the set; white and
black cats 4 each plus, from 2 cats on, the set's size squared (cards.set_points). Cat Cards:
most points wins; ties go to the largest white or black set, then the largest blue, red or
yellow set, then the most white and black cats together; otherwise both players win.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from referee.engine.core import UNFINISHED, Outcome, State
from referee.games.call_of_katulhu.cards import ADVANCED_COLOURS, BASIC_COLOURS, COLOURS, set_points
from referee.games.call_of_katulhu.deal import catalogue_of

# Tiebreak steps (rulebook, Cat Cards), in order, as an outcome names them.
TIEBREAK_WHITE_BLACK_SET = "largest_white_or_black_set"
TIEBREAK_BASIC_SET = "largest_blue_red_or_yellow_set"
TIEBREAK_WHITE_BLACK_TOTAL = "most_white_and_black_cats"
TIEBREAK_SHARED = "shared"


def score(state: State) -> tuple[dict, Outcome]:
    """The score sheet ``{"players": [{"player", "cats", "sets": {colour: cats},
    "points": {colour: points}, "total"}]}`` and the outcome of ``state``. Scores are
    provisional until ``finished``."""
    cats = catalogue_of(state).cats
    sheet = []
    for seat, player in enumerate(state["players"]):
        sets = dict.fromkeys(COLOURS, 0)
        for card in player["cats"]:
            sets[cats[card].colour] += 1
        points = dict.fromkeys(COLOURS, 0)
        for colour, size in sets.items():
            if size:  # an empty set scores 0
                points[colour] = set_points(colour, size)
        sheet.append({"player": seat, "cats": len(player["cats"]), "sets": sets, "points": points,
                      "total": sum(points.values())})
    scores = {"players": sheet}
    if not state["finished"]:
        return scores, UNFINISHED
    return scores, decide(sheet)


class Tiebreak(NamedTuple):
    """A tiebreak step of the rulebook (Cat Cards): its name, and what a score sheet row has
    the most of to win it."""

    name: str
    measure: Callable[[dict], int]


TIEBREAKS = (
    Tiebreak(TIEBREAK_WHITE_BLACK_SET, lambda row: max(row["sets"][c] for c in ADVANCED_COLOURS)),
    Tiebreak(TIEBREAK_BASIC_SET, lambda row: max(row["sets"][c] for c in BASIC_COLOURS)),
    Tiebreak(TIEBREAK_WHITE_BLACK_TOTAL, lambda row: sum(row["sets"][c] for c in ADVANCED_COLOURS)),
)


def decide(sheet: list[dict]) -> Outcome:
    """The outcome of a finished game from its score sheet (rulebook, Cat Cards): most points;
    then the largest white or black set; then the largest blue, red or yellow set; then the
    most white and black cats combined; otherwise both win."""
    best = max(row["total"] for row in sheet)
    leaders = [row for row in sheet if row["total"] == best]
    if len(leaders) == 1:
        return Outcome(True, (leaders[0]["player"],))
    for tiebreak in TIEBREAKS:
        top = max(tiebreak.measure(row) for row in leaders)
        narrowed = [row for row in leaders if tiebreak.measure(row) == top]
        if len(narrowed) < len(leaders):
            leaders = narrowed
            if len(leaders) == 1:
                return Outcome(True, (leaders[0]["player"],), tiebreak.name)
    return Outcome(True, tuple(row["player"] for row in leaders), TIEBREAK_SHARED)
