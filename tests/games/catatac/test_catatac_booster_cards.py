"""Every booster card (The Boosters; card rows of shared/games/catatac-cards.md): conditions
met and unmet, each side of each bar, the new counter-capable cards. Seat 0 is White, seat 1
Black (seats 2 and 3 White and Black in 4-player states). The board, left to right:
black_hideout, black_alley, neutral_alley, white_alley, white_hideout."""

import pytest

from referee.games.catatac import cards as C
from tests.games.catatac.catatac_booster_helpers import bbuild, stash_by
from tests.games.catatac.catatac_helpers import bad, ball, ok, play


def top_for(card):
    """A top card that pairs with nothing played below."""
    return ["P8-4"] if C.KINDS[card].number == 5 else ["P5-4"]


def state_with(card, spot, colour, seat=0, players=2, **kw):
    """``card`` in seat ``seat``'s hand (with P1-1), or in front of it when an alpha card."""
    others = [["P2-1"], ["P2-2"], ["P2-3"], ["P2-4"], ["P3-1"], ["P3-2"]]
    hands = [others[s] for s in range(players)]
    alpha = "default"
    if C.KINDS[card].alpha:
        hands[seat] = ["P1-1"]
        clans = ["white" if s % 2 == 0 else "black" for s in range(players)]
        alpha = []
        for s in range(players):
            if s == seat:
                alpha.append(card)
            else:
                alpha.append(next(c for c in C.alpha_pile(clans[s], C.BOOSTERS) if c != card and c not in alpha))
    else:
        hands[seat] = [card, "P1-1"]
    return bbuild(hands, kw.pop("discard", top_for(card)), (spot, colour), alpha=alpha, turn=seat, **kw)


def answering(card, players=2, seat=0):
    """Seat ``seat`` (White) answers a Black stash attempt made by the seat before it."""
    by = (seat - 1) % players
    answer = [s for s in ((seat + k) % players for k in range(players)) if s % 2 == 0]
    return state_with(card, "black_hideout", "black", seat=seat, players=players, phase="answer",
                      stash=stash_by("black", by, seat, answer))


BLOCK = ((), ())


# -- The catalogue of the boosters ------------------------------------------------------------

def test_booster_contents_match_the_rules_cards():
    """The Boosters: Distraction and Momentum hold 8 paw cards, 1 points card and 2 alpha cards
    each; Alpha holds 6 alpha cards and 2 points cards."""
    for booster in ("distraction", "momentum"):
        assert len(C.BOOSTER_PAW_CARDS[booster]) == 8
        assert len(C.BOOSTER_POINTS[booster]) == 1
        assert len([c for c in C.ALPHA_IDS if C.ALPHA_BOOSTER[c] == booster]) == 2
    assert len([c for c in C.ALPHA_IDS if C.ALPHA_BOOSTER[c] == "alpha"]) == 6
    assert sorted(C.BOOSTER_POINTS["alpha"]) == ["pasta-left", "pasta-right"]
    assert [C.KINDS[c].number for c in C.BOOSTER_PAW_CARDS["distraction"]] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [C.KINDS[c].number for c in C.BOOSTER_PAW_CARDS["momentum"]] == [1, 2, 3, 4, 5, 6, 7, 8]
    counter_capable = {C.KINDS[c].name for c in C.KINDS if C.KINDS[c].counter_icon}
    assert counter_capable == {"!Stop!", "Miracle", "Bicycle", "Challenge", "Schrodinger", "Angora"}
    assert {C.KINDS[c].name for c in C.KINDS if C.KINDS[c].cooperation} == {"Miracle", "Ninja"}
    assert C.KINDS["manx"].sardines == 1 and C.KINDS["lykoi"].sardines == 1 and C.KINDS["laperm"].sardines == 0


# -- Booster A, Distraction ------------------------------------------------------------------

def test_brute_stash_attempt_from_the_enemy_alley():
    """Brute: Possession; stash attempt from 3 (the enemy clan's alley)."""
    new = ok(state_with("brute-1", "black_alley", "white"), play(0, "brute-1", None, BLOCK))
    assert ball(new) == ("white_hideout", "white") and new["turn"] == {"player": 1, "phase": "answer"}


def test_brute_conditions_unmet():
    """Brute: Enemy possession fails the condition; from the neutral alley it is not from 3."""
    assert bad(state_with("brute-1", "black_alley", "black"), play(0, "brute-1", None, BLOCK)) == ["CONDITION_NOT_MET"]
    assert bad(state_with("brute-1", "neutral_alley", "white"),
               play(0, "brute-1", None, BLOCK)) == ["EFFECT_NOT_APPLICABLE"]


def test_bicycle_counters_then_skips_the_next_player():
    """Bicycle (counter-capable): counter, then Skip: after the counterer's turn, the next
    player (seat 1) is skipped and seat 2 plays."""
    new = ok(answering("bicycle-2", players=4), play(0, "bicycle-2", None, BLOCK))
    assert ball(new) == ("black_alley", "black") and new["stash"] is None
    assert new["turn"] == {"player": 2, "phase": "play"} and new["skip"] is False
    assert len(new["players"][0]["hand"]) == 6  # the counterer refilled; the skipped seat did not draw
    assert new["players"][1]["hand"] == ["P2-2"]


def test_bicycle_conditions_unmet():
    """Bicycle: its counter applies only to a stash attempt; own possession fails the condition."""
    assert bad(state_with("bicycle-2", "neutral_alley", "black"),
               play(0, "bicycle-2", None, BLOCK)) == ["EFFECT_NOT_APPLICABLE"]
    assert bad(state_with("bicycle-2", "neutral_alley", "white"),
               play(0, "bicycle-2", None, BLOCK)) == ["CONDITION_NOT_MET"]


@pytest.mark.parametrize("card", ["dribble-3", "dribble-4"])
def test_dribble_moves_then_skips(card):
    """Dribble: Possession; movement 1, then Skip (seat 1 skipped in a 4-player game)."""
    new = ok(state_with(card, "neutral_alley", "white", players=4), play(0, card, None, ((), ("white",))))
    assert ball(new) == ("white_alley", "white") and new["turn"] == {"player": 2, "phase": "play"}
    assert bad(state_with(card, "neutral_alley", "black", players=4),
               play(0, card, None, ((), ("white",)))) == ["CONDITION_NOT_MET"]


@pytest.mark.parametrize("card", ["rat-5", "zzzz-6"])
@pytest.mark.parametrize("colour", ["white", "black"])
def test_rat_and_zzzz_skip_without_condition(card, colour):
    """Rat, Zzzz: no condition; Skip."""
    new = ok(state_with(card, "neutral_alley", colour, players=4), play(0, card, None, BLOCK))
    assert ball(new) == ("neutral_alley", colour) and new["turn"] == {"player": 2, "phase": "play"}


def test_rat_without_its_block_skips_nobody():
    """Activating the Action Block: the block is optional; unused, nobody is skipped."""
    new = ok(state_with("rat-5", "neutral_alley", "white", players=4), play(0, "rat-5"))
    assert new["turn"] == {"player": 1, "phase": "play"}


def test_surprise_steals_then_skips():
    """Surprise: Enemy Possession; steal, then Skip."""
    new = ok(state_with("surprise-7", "neutral_alley", "black", players=4), play(0, "surprise-7", None, BLOCK))
    assert ball(new) == ("neutral_alley", "white") and new["turn"] == {"player": 2, "phase": "play"}
    assert bad(state_with("surprise-7", "neutral_alley", "white"),
               play(0, "surprise-7", None, BLOCK)) == ["CONDITION_NOT_MET"]


def test_ninja_stash_attempt_from_1():
    """Ninja: Possession; stash attempt from 1."""
    new = ok(state_with("ninja-8", "white_alley", "white"), play(0, "ninja-8", None, BLOCK))
    assert ball(new) == ("white_hideout", "white") and new["turn"] == {"player": 1, "phase": "answer"}
    assert bad(state_with("ninja-8", "white_alley", "black"), play(0, "ninja-8", None, BLOCK)) == ["CONDITION_NOT_MET"]
    assert bad(state_with("ninja-8", "neutral_alley", "white"),
               play(0, "ninja-8", None, BLOCK)) == ["EFFECT_NOT_APPLICABLE"]


def test_ninja_printed_cooperation_icon_is_honoured():
    """Ninja's cooperation icon (rules notes): a teammate plays it in place of the player due
    (seat 0 for seat 2); the stash is answered by the player after the skipped teammate."""
    s = bbuild([["ninja-8", "P1-1"], ["P2-2"], ["P2-3"], ["P2-4"]], ["P5-4"], ("white_alley", "white"), turn=2)
    new = ok(s, play(0, "ninja-8", None, BLOCK))
    assert new["stash"] == {"clan": "white", "by": 0, "next": 3, "answer": [3, 1]}
    assert new["players"][0]["hand"] == ["P1-1"] and new["players"][2]["hand"] == ["P2-3"]


def test_bengal_alpha_moves_then_skips():
    """Bengal (alpha, Distraction with Alpha): Possession; movement 1, then Skip. The alpha card
    is not part of the hand, so the refill brings the hand back to 6 from 1 card."""
    new = ok(state_with("bengal-white", "neutral_alley", "white", players=4),
             play(0, "bengal-white", None, ((), ("black",))))
    assert ball(new) == ("black_alley", "white") and new["turn"] == {"player": 2, "phase": "play"}
    assert new["players"][0]["alpha"] is None and new["discard"][-1] == "bengal-white"
    assert len(new["players"][0]["hand"]) == 6
    bad_state = state_with("bengal-white", "neutral_alley", "black", players=4)
    assert bad(bad_state, play(0, "bengal-white", None, ((), ("black",)))) == ["CONDITION_NOT_MET"]


# -- Booster C, Momentum ---------------------------------------------------------------------

def test_challenge_counters_then_replays():
    """Challenge (counter-capable): counter, then Replay: the counterer plays another card at
    once, before refilling."""
    new = ok(answering("challenge-1"), play(0, "challenge-1", None, BLOCK))
    assert ball(new) == ("black_alley", "black") and new["turn"] == {"player": 0, "phase": "replay"}
    assert new["players"][0]["hand"] == ["P1-1"]
    after = ok(new, play(0, "P1-1"))
    assert after["turn"] == {"player": 1, "phase": "play"} and len(after["players"][0]["hand"]) == 6


def test_challenge_conditions_unmet():
    """Challenge: no stash to counter outside a stash attempt; own possession fails."""
    assert bad(state_with("challenge-1", "neutral_alley", "black"),
               play(0, "challenge-1", None, BLOCK)) == ["EFFECT_NOT_APPLICABLE"]
    assert bad(state_with("challenge-1", "neutral_alley", "white"),
               play(0, "challenge-1", None, BLOCK)) == ["CONDITION_NOT_MET"]


@pytest.mark.parametrize("card", ["duo-2", "duo-3"])
@pytest.mark.parametrize("colour", ["white", "black"])
def test_duo_replays_without_condition(card, colour):
    """Duo: no condition; Replay."""
    new = ok(state_with(card, "neutral_alley", colour), play(0, card, None, BLOCK))
    assert new["turn"] == {"player": 0, "phase": "replay"} and ball(new) == ("neutral_alley", colour)


def test_accident_steals_then_stashes_from_1():
    """Accident: Enemy Possession; steal, then stash attempt from 1."""
    new = ok(state_with("accident-4", "white_alley", "black"), play(0, "accident-4", None, BLOCK))
    assert ball(new) == ("white_hideout", "white") and new["turn"] == {"player": 1, "phase": "answer"}
    assert bad(state_with("accident-4", "white_alley", "white"),
               play(0, "accident-4", None, BLOCK)) == ["CONDITION_NOT_MET"]
    assert bad(state_with("accident-4", "neutral_alley", "black"),
               play(0, "accident-4", None, BLOCK)) == ["EFFECT_NOT_APPLICABLE"]


@pytest.mark.parametrize("side,spot", [(0, "white_alley"), (1, "neutral_alley")])
def test_reflexes_each_bar_side(side, spot):
    """Reflexes: Possession; stash attempt from 1 / from 2."""
    new = ok(state_with("reflexes-5", spot, "white"), play(0, "reflexes-5", None, ((side,), ())))
    assert ball(new) == ("white_hideout", "white")


def test_reflexes_unmet():
    """Reflexes: a side whose start is elsewhere does not apply; enemy possession fails; no third side."""
    assert bad(state_with("reflexes-5", "neutral_alley", "white"),
               play(0, "reflexes-5", None, ((0,), ()))) == ["EFFECT_NOT_APPLICABLE"]
    assert bad(state_with("reflexes-5", "white_alley", "white"),
               play(0, "reflexes-5", None, ((1,), ()))) == ["EFFECT_NOT_APPLICABLE"]
    assert bad(state_with("reflexes-5", "white_alley", "black"),
               play(0, "reflexes-5", None, ((0,), ()))) == ["CONDITION_NOT_MET"]
    assert bad(state_with("reflexes-5", "white_alley", "white"),
               play(0, "reflexes-5", None, ((2,), ()))) == ["BAR_SIDE"]


@pytest.mark.parametrize("colour", ["white", "black"])
def test_mission_coin_flip_then_movement(colour):
    """Mission: no condition; coin flip, then movement 1 (a table reports the face)."""
    s = state_with("mission-6", "neutral_alley", colour, chance="table")
    new = ok(s, play(0, "mission-6", None, ((), ("white",)), coins=["black"]))
    assert ball(new) == ("white_alley", "black")
    assert bad(s, play(0, "mission-6", None, ((), ("white",)))) == ["COIN_COUNT"]


def test_schrodinger_counter_side_answers_a_stash():
    """Schrodinger (counter-capable): Enemy Possession / Possession; counter / stash attempt from 2."""
    new = ok(answering("schrodinger-7"), play(0, "schrodinger-7", None, ((0,), ())))
    assert ball(new) == ("black_alley", "black") and new["turn"] == {"player": 1, "phase": "play"}
    assert bad(answering("schrodinger-7"), play(0, "schrodinger-7", None, ((1,), ()))) == ["CONDITION_NOT_MET"]


def test_schrodinger_stash_side_from_2():
    """Schrodinger: the right side needs possession and starts from the neutral alley."""
    new = ok(state_with("schrodinger-7", "neutral_alley", "white"), play(0, "schrodinger-7", None, ((1,), ())))
    assert ball(new) == ("white_hideout", "white")
    assert bad(state_with("schrodinger-7", "neutral_alley", "black"),
               play(0, "schrodinger-7", None, ((1,), ()))) == ["CONDITION_NOT_MET"]
    assert bad(state_with("schrodinger-7", "neutral_alley", "white"),
               play(0, "schrodinger-7", None, ((0,), ()))) == ["CONDITION_NOT_MET"]
    assert bad(state_with("schrodinger-7", "neutral_alley", "black"),
               play(0, "schrodinger-7", None, ((0,), ()))) == ["EFFECT_NOT_APPLICABLE"]


def test_agile_steals_moves_and_replays():
    """Agile: Enemy Possession; steal, movement 1, Replay."""
    new = ok(state_with("agile-8", "neutral_alley", "black"), play(0, "agile-8", None, ((), ("white",))))
    assert ball(new) == ("white_alley", "white") and new["turn"] == {"player": 0, "phase": "replay"}
    assert bad(state_with("agile-8", "neutral_alley", "white"),
               play(0, "agile-8", None, ((), ("white",)))) == ["CONDITION_NOT_MET"]


def test_ragdoll_alpha_moves_flips_and_replays():
    """Ragdoll (alpha, Momentum with Alpha): no condition; movement 1, coin flip, Replay."""
    s = state_with("ragdoll-white", "neutral_alley", "white", chance="table")
    new = ok(s, play(0, "ragdoll-white", None, ((), ("black",)), coins=["black"]))
    assert ball(new) == ("black_alley", "black") and new["turn"] == {"player": 0, "phase": "replay"}
    assert new["players"][0]["alpha"] is None and new["players"][0]["hand"] == ["P1-1"]


# -- Booster B, Alpha ------------------------------------------------------------------------

@pytest.mark.parametrize("card,seat", [("angora-white", 0), ("angora-black", 1)])
def test_angora_counters_then_steals(card, seat):
    """Angora (alpha, counter-capable): Enemy Possession; counter, then steal."""
    clan = C.KINDS[card].alpha
    enemy = C.ENEMY[clan]
    s = state_with(card, f"{enemy}_hideout", enemy, seat=seat, phase="answer",
                   stash=stash_by(enemy, 1 - seat, seat, [seat]))
    new = ok(s, play(seat, card, None, BLOCK))
    assert ball(new) == (f"{enemy}_alley", clan) and new["stash"] is None
    assert new["players"][seat]["alpha"] is None and new["discard"][-1] == card


def test_angora_unmet():
    """Angora: outside a stash attempt its counter does not apply; own possession fails."""
    assert bad(state_with("angora-white", "neutral_alley", "black"),
               play(0, "angora-white", None, BLOCK)) == ["EFFECT_NOT_APPLICABLE"]
    assert bad(state_with("angora-white", "neutral_alley", "white"),
               play(0, "angora-white", None, BLOCK)) == ["CONDITION_NOT_MET"]


@pytest.mark.parametrize("card,seat,clan", [("maine-coon", 0, "white"), ("laperm", 1, "black")])
def test_maine_coon_and_laperm_each_bar_side(card, seat, clan):
    """Maine Coon (White), LaPerm (Black): no condition; steal / movement 1 / stash attempt from 1."""
    enemy = C.ENEMY[clan]
    new = ok(state_with(card, "neutral_alley", enemy, seat=seat), play(seat, card, None, ((0,), ())))
    assert ball(new) == ("neutral_alley", clan)
    new = ok(state_with(card, "neutral_alley", enemy, seat=seat), play(seat, card, None, ((1,), (clan,))))
    assert ball(new) == (f"{clan}_alley", enemy)
    new = ok(state_with(card, f"{clan}_alley", clan, seat=seat), play(seat, card, None, ((2,), ())))
    assert ball(new) == (f"{clan}_hideout", clan)


@pytest.mark.parametrize("card,seat,clan", [("maine-coon", 0, "white"), ("laperm", 1, "black")])
def test_maine_coon_and_laperm_unmet(card, seat, clan):
    """A steal on your own ball does not apply; a stash attempt needs possession (rules notes)."""
    enemy = C.ENEMY[clan]
    assert bad(state_with(card, "neutral_alley", clan, seat=seat),
               play(seat, card, None, ((0,), ()))) == ["EFFECT_NOT_APPLICABLE"]
    assert bad(state_with(card, f"{clan}_alley", enemy, seat=seat),
               play(seat, card, None, ((2,), ()))) == ["EFFECT_NOT_APPLICABLE"]
    assert bad(state_with(card, "neutral_alley", clan, seat=seat),
               play(seat, card, None, ((2,), ()))) == ["EFFECT_NOT_APPLICABLE"]


@pytest.mark.parametrize("card,seat", [("manx", 0), ("lykoi", 1)])
def test_manx_and_lykoi_each_bar_side(card, seat):
    """Manx (White), Lykoi (Black): no condition; movement 2 / movement 1."""
    new = ok(state_with(card, "black_alley", "black", seat=seat), play(seat, card, None, ((0,), ("white",))))
    assert ball(new) == ("white_alley", "black")
    new = ok(state_with(card, "black_alley", "white", seat=seat), play(seat, card, None, ((1,), ("white",))))
    assert ball(new) == ("neutral_alley", "white")
    s = state_with(card, "neutral_alley", "white", seat=seat)
    assert bad(s, play(seat, card, None, ((0,), ("white",)))) == ["MOVE_OFF_ALLEYS"]
