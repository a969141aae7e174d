"""Call of Katulhu, rulebook sections Scoring and Cat Cards (tiebreaks). Expected points are
worked out by hand from the rulebook's examples."""

import pytest

from referee.games.call_of_katulhu import GAME
from referee.games.call_of_katulhu.cards import set_points
from tests.games.call_of_katulhu.katulhu_helpers import N, build, catalogue

COLOURS = ("blue", "red", "yellow", "white", "black")
# 10 cats of each colour, so that any composition can be held.
TIE = catalogue([(f"{c}-{i}", c, ["yarn", N, N, N]) for c in COLOURS for i in range(1, 11)])


@pytest.mark.parametrize("colour", ["blue", "red", "yellow"])
@pytest.mark.parametrize("size, points", [(0, 0), (1, 2), (2, 5), (3, 9), (4, 14), (5, 20)])
def test_basic_cats_2_points_plus_1_per_earlier_cat_of_the_set(colour, size, points):
    """Scoring: a single blue card is worth 2; the 2nd 2 + 1; the 3rd 2 + 2; the 4th 2 + 3."""
    assert set_points(colour, size) == points


@pytest.mark.parametrize("colour", ["white", "black"])
@pytest.mark.parametrize("size, points", [(0, 0), (1, 4), (2, 12), (3, 21), (4, 32), (5, 45)])
def test_white_and_black_4_points_plus_the_square_from_two_cats(colour, size, points):
    """Scoring: a single black card is 4; 2 black 12 (8 + 2x2); 3 black 21 (12 + 3x3); 4 black
    32 (16 + 4x4)."""
    assert set_points(colour, size) == points


def held(**counts):
    """Cat ids of TIE: held(blue=2, white=1) -> ["blue-1", "blue-2", "white-1"]; a second call
    for the other player uses ids from 6 up (``start``)."""
    start = counts.pop("start", 1)
    return [f"{c}-{i}" for c, n in counts.items() for i in range(start, start + n)]


def finished(blue_cats, red_cats):
    table = ["blue-10", "red-10", "yellow-10", "white-10", "black-10"]
    return build(table, cats=(blue_cats, red_cats), options={"catalogue": TIE}, phase="over",
                 finished=True, end="seven_cats")


def test_score_sheet_per_colour_set():
    """Scoring: each colour is its own set. Blue 3 (9) + white 2 (12) + black 1 (4) + red 1 (2) = 27."""
    state = finished(held(blue=3, white=2, black=1, red=1), held(yellow=1, start=6))
    scores, outcome = GAME.score(state)
    row = scores["players"][0]
    assert row["sets"] == {"blue": 3, "red": 1, "yellow": 0, "white": 2, "black": 1}
    assert row["points"] == {"blue": 9, "red": 2, "yellow": 0, "white": 12, "black": 4}
    assert row["total"] == 27 and row["cats"] == 7
    assert scores["players"][1]["total"] == 2
    assert outcome.finished and outcome.winners == (0,) and outcome.tiebreak is None


def test_scores_are_provisional_until_the_end():
    """Scoring: the points are tallied at the end; before it the outcome is not finished."""
    state = build(["blue-10", "red-10", "yellow-10", "white-10", "black-10"],
                  cats=(held(white=2), held(blue=1, start=6)), options={"catalogue": TIE})
    scores, outcome = GAME.score(state)
    assert scores["players"][0]["total"] == 12
    assert outcome.finished is False and outcome.winners == () and outcome.tiebreak is None


def test_tiebreak_1_largest_white_or_black_set():
    """Cat Cards: ties are won by the largest set of either black or white cats.
    Blue: white 3 (21) + blue 4 (14) = 35; red: white 2 (12) + black 2 (12) + red 3 (9) +
    yellow 1 (2) = 35. Largest white/black set 3 v 2: blue wins."""
    state = finished(held(white=3, blue=4), held(white=2, black=2, red=3, yellow=1, start=6))
    scores, outcome = GAME.score(state)
    assert [r["total"] for r in scores["players"]] == [35, 35]
    assert outcome.winners == (0,) and outcome.tiebreak == "largest_white_or_black_set"


def test_tiebreak_1_can_favour_the_red_deck():
    """Cat Cards: the same tie the other way round: red's black set of 3 beats blue's sets of 2."""
    state = finished(held(white=2, black=2, red=3, yellow=1), held(black=3, blue=4, start=6))
    outcome = GAME.score(state)[1]
    assert outcome.winners == (1,) and outcome.tiebreak == "largest_white_or_black_set"


def test_tiebreak_2_largest_blue_red_or_yellow_set():
    """Cat Cards: second tiebreaker, the largest red/blue/yellow set. Blue: blue 4 (14) + white 1
    (4) + red 1 (2) + yellow 1 (2) = 22; red: blue 3 (9) + red 3 (9) + black 1 (4) = 22. White or
    black sets 1 v 1; basic sets 4 v 3: blue wins."""
    state = finished(held(blue=4, white=1, red=1, yellow=1), held(blue=3, red=3, black=1, start=6))
    scores, outcome = GAME.score(state)
    assert [r["total"] for r in scores["players"]] == [22, 22]
    assert outcome.winners == (0,) and outcome.tiebreak == "largest_blue_red_or_yellow_set"


def test_tiebreak_3_most_white_and_black_cats_combined():
    """Cat Cards: then the most black/white cats combined. Blue: white 1 (4) + black 1 (4) +
    blue 3 (9) + red 2 (5) = 22; red: white 1 (4) + blue 3 (9) + red 3 (9) = 22. Largest
    white/black set 1 v 1, largest basic set 3 v 3, white and black together 2 v 1: blue."""
    state = finished(held(white=1, black=1, blue=3, red=2), held(white=1, blue=3, red=3, start=6))
    scores, outcome = GAME.score(state)
    assert [r["total"] for r in scores["players"]] == [22, 22]
    assert outcome.winners == (0,) and outcome.tiebreak == "most_white_and_black_cats"


def test_tiebreak_4_still_tied_both_players_win():
    """Cat Cards: still tied after that, both players win. Blue: blue 3 (9) + white 1 (4) + red 3
    (9) = 22; red: red 3 (9) + black 1 (4) + yellow 3 (9) = 22; sets 1 v 1, 3 v 3, 1 v 1."""
    state = finished(held(blue=3, white=1, red=3), held(red=3, black=1, yellow=3, start=6))
    outcome = GAME.score(state)[1]
    assert outcome.winners == (0, 1) and outcome.tiebreak == "shared"
