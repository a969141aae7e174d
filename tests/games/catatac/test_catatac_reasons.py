"""Why a basic action, an action block's effect or its activation condition fails: the verdict
says it in the rulebook's words (Making a Pair; Activating the Action Block; Icons), from what
lies on the table (the yarn ball's spot and colour), in English and in Japanese.

Seat 0 plays the White clan: its hideout is white_hideout, the alley card adjacent to it is
white_alley, and the neutral alley is two alley cards from it.
"""

from __future__ import annotations

import pytest

from referee.games.catatac import GAME
from referee.service.stateless import violation_json
from tests.games.catatac.catatac_helpers import build, play

NO_BLOCK_CHOICE = ((), ())


def _only_violation(state, move, language="en") -> dict:
    verdict = GAME.adjudicate(state, move)
    assert not verdict.legal, move
    assert len(verdict.violations) == 1, verdict.violations
    return violation_json(verdict.violations[0], language, GAME)


def _paired(ball, action, direction=None):
    """Seat 0 pairs a 3 on the 3 on top of the discard pile, with the basic ``action``."""
    return _only_violation(build([["P3-1"], ["P5-1"]], ["P3-2"], ball=ball), play(0, "P3-1", pair=(action, direction)))


@pytest.mark.parametrize("ball, action, direction, reason", [
    # Steal: "If the enemy clan is in possession of the yarn ball on an alley card".
    (("neutral_alley", "white"), "steal", None, "your clan is in possession of the yarn ball"),
    # Movement: "If your clan is in possession of the yarn ball on an alley card".
    (("neutral_alley", "black"), "movement", "white", "the enemy clan is in possession of the yarn ball"),
    # Stash Attempt: "If your clan is in possession of the yarn ball on the alley card adjacent
    # to your hideout card".
    (("white_alley", "black"), "stash", None, "the enemy clan is in possession of the yarn ball"),
    (("neutral_alley", "white"), "stash", None, "the yarn ball is not on the alley card adjacent to your hideout card"),
])
def test_a_basic_action_not_possible_says_why(ball, action, direction, reason):
    assert _paired(ball, action, direction) == {
        "code": "PAIR_ACTION_NOT_POSSIBLE", "rule": "Making a Pair",
        "message": f"The basic action {action} is not possible now: {reason}."}


@pytest.mark.parametrize("card, ball, condition, reason", [
    # Capture: Enemy Possession ("The color of the yarn ball must be that of the enemy clan").
    ("capture-3", ("neutral_alley", "white"), "Enemy Possession", "your clan is in possession of the yarn ball"),
    # Smash!: Possession ("The color of the yarn ball must be that of your clan").
    ("smash-3", ("white_alley", "black"), "Possession", "the enemy clan is in possession of the yarn ball"),
])
def test_an_activation_condition_not_met_says_why(card, ball, condition, reason):
    state = build([[card], ["P5-1"]], ["P8-1"], ball=ball)
    assert _only_violation(state, play(0, card, block=NO_BLOCK_CHOICE)) == {
        "code": "CONDITION_NOT_MET", "rule": "Activating the Action Block",
        "message": f"The activation condition {condition} of card {card} is not met: {reason}."}


@pytest.mark.parametrize("card, ball, effect, reason", [
    # Impact: Possession, then a stash attempt "starting from an alley card at the distance
    # shown" (2: the neutral alley for White); the ball is White's on the White alley.
    ("impact-6", ("white_alley", "white"), "stash 2",
     "the yarn ball is not on the alley card at the distance shown from your hideout"),
    # Miracle: Enemy Possession, then Counter, "from the enemy hideout": no stash is pending.
    ("miracle-6", ("neutral_alley", "black"), "counter",
     "the yarn ball is not on the enemy hideout, so there is no stash attempt to counter"),
])
def test_an_effect_not_applicable_says_why(card, ball, effect, reason):
    state = build([[card], ["P5-1"]], ["P8-1"], ball=ball)
    assert _only_violation(state, play(0, card, block=NO_BLOCK_CHOICE)) == {
        "code": "EFFECT_NOT_APPLICABLE", "rule": "Activating the Action Block",
        "message": f"The effect {effect} of card {card} cannot be applied now ({reason}); an action block is "
                   "played in full or not at all."}


def test_the_reason_is_in_japanese_too():
    """The reason is a word of the catalog: the Japanese answer says it in the Japanese
    rulebook's words (自分の一族, 毛糸玉, 所有)."""
    answer = _only_violation(build([["P3-1"], ["P5-1"]], ["P3-2"], ball=("neutral_alley", "white")),
                             play(0, "P3-1", pair=("steal", None)), language="ja")
    assert answer["message"] == "基本アクション「奪う」は今は行えません:毛糸玉は自分の一族が所有しています。"


def test_over_http_the_reason_follows_accept_language(client):
    state = build([["capture-3"], ["P5-1"]], ["P8-1"], ball=("neutral_alley", "white"))
    move = play(0, "capture-3", block=NO_BLOCK_CHOICE)
    english = client.post("/v1/games/catatac/adjudicate", json={"state": state, "move": move}).get_json()
    japanese = client.post("/v1/games/catatac/adjudicate", json={"state": state, "move": move},
                           headers={"Accept-Language": "ja"}).get_json()
    assert english["violations"][0]["message"].endswith(": your clan is in possession of the yarn ball.")
    assert japanese["violations"][0]["message"] == \
        "カードcapture-3の発動条件「相手の一族が毛糸玉を所有している」を満たしていません:毛糸玉は自分の一族が所有しています。"
