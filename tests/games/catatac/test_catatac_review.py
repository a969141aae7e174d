"""Review of CATATAC verdicts against the rulebook, on clauses not pinned elsewhere: stash
distances for both clans, cooperation with a stash in six players, and two booster edge
cases recorded in docs/rules-notes.md. Expected values are worked out by hand."""

import pytest

from referee.games.catatac import GAME
from tests.games.catatac.catatac_booster_helpers import bbuild
from tests.games.catatac.catatac_helpers import bad, ball, build, decline, ok, play

BLOCK = ((), ())


@pytest.mark.parametrize("card,clan,start", [
    ("smash-3", "white", "white_alley"), ("impact-6", "white", "neutral_alley"),
    ("smash-3", "black", "black_alley"), ("impact-6", "black", "neutral_alley"),
])
def test_stash_attempt_starts_at_the_distance_shown_for_each_clan(card, clan, start):
    """Icons, Stash Attempt: from 1 = own alley, from 2 = neutral alley; onto the player's own
    hideout, never from another distance."""
    seat = 0 if clan == "white" else 1
    hands = [["P1-1"], ["P2-1"]]
    hands[seat] = [card, "P1-2"] if seat == 0 else [card, "P2-2"]
    for spot in ("black_alley", "neutral_alley", "white_alley"):
        s = build(hands, ["P8-4"], (spot, clan), turn=seat)
        if spot == start:
            after = ok(s, play(seat, card, None, BLOCK))
            assert ball(after) == (f"{clan}_hideout", clan)
            assert after["stash"]["next"] == 1 - seat and after["turn"] == {"player": 1 - seat, "phase": "answer"}
        else:
            assert bad(s, play(seat, card, None, BLOCK)) == ["EFFECT_NOT_APPLICABLE"]


@pytest.mark.parametrize("clan,seat,start", [("white", 0, "black_alley"), ("black", 1, "white_alley")])
def test_brute_stash_from_3_starts_on_the_enemy_alley(clan, seat, start):
    """Icons, Stash Attempt from 3 (Brute): the ball starts on the enemy clan's alley and goes
    onto the player's own hideout, never onto the enemy hideout."""
    hands = [["P1-1"], ["P2-1"]]
    hands[seat] = ["brute-1", "P3-1"]
    s = bbuild(hands, ["P8-4"], (start, clan), boosters=["distraction"], turn=seat)
    assert ball(ok(s, play(seat, "brute-1", None, BLOCK))) == (f"{clan}_hideout", clan)


def test_ninja_cooperation_stash_in_six_players():
    """Cooperation (2x) and Countering a Stash: seat 1 (Black) is due; seat 3 plays Ninja in
    their place from the Black alley. The ball goes onto the Black hideout; the next opposing
    player is seat 2 (left of the skipped seat 1), then White seats 4 and 0. Seat 3 does not
    refill now, seat 1 does not draw. Nobody counters: Black takes the top points card and
    play resumes with seat 2, who could not counter."""
    hands = [["P1-1"], ["P2-1", "P2-2"], ["P3-1"], ["ninja-8", "P4-2"], ["P5-1"], ["P6-1"]]
    s = bbuild(hands, ["P8-1"], ("black_alley", "black"), boosters=["distraction"], turn=1)
    after = ok(s, play(3, "ninja-8", None, BLOCK))
    assert ball(after) == ("black_hideout", "black")
    assert after["stash"] == {"clan": "black", "by": 3, "next": 2, "answer": [2, 4, 0]}
    assert after["players"][3]["hand"] == ["P4-2"] and after["players"][1]["hand"] == ["P2-1", "P2-2"]
    top = after["points_deck"][0]
    after = ok(ok(ok(after, decline(2)), decline(4)), decline(0))
    assert after["points"]["black"] == [top] and ball(after)[0] == "neutral_alley"
    assert after["turn"] == {"player": 2, "phase": "play"}


def test_alpha_holder_with_an_empty_hand_keeps_the_alpha_and_refills():
    """The Boosters, Alpha (rules notes): a player whose hand is empty while the paw deck has
    cards (after a cooperation play) has a turn made of the refill alone; their alpha card
    stays in front of them (playing it cannot be forced, and there is no pass move)."""
    s = bbuild([["P1-1", "P1-2"], [], ["P3-1"], ["P4-1"]], ["P8-4"], ("neutral_alley", "black"),
               alpha=["maine-coon", "lykoi", "manx", "laperm"])
    verdict = GAME.adjudicate(s, play(0, "P1-1"))
    after = verdict.state
    assert after["turn"] == {"player": 2, "phase": "play"}
    assert len(after["players"][1]["hand"]) == 6 and after["players"][1]["alpha"] == "lykoi"
    assert {"type": "turn_passed", "player": 1, "reason": "no_cards"} in verdict.events
