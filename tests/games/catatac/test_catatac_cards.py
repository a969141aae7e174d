"""Every paw card of the base game: conditions met and unmet, each side of each bar, and
combos in both orders (rulebook: Making a Pair, Activating the Action Block, The "Combo",
Icons). Two players: seat 0 is White, seat 1 Black. The board, left to right:
black_hideout, black_alley, neutral_alley, white_alley, white_hideout."""

import pytest

from referee.games.catatac import cards as C
from tests.games.catatac.catatac_helpers import bad, ball, build, ok, play

NO_PAIR_TOP = ["P5-4"]  # a top card that pairs with nothing used below (cards of other numbers)


def state_with(card, spot, colour, top=None, seat=0, **kw):
    hands = [[card, "P1-1"], ["P2-1"]] if seat == 0 else [["P2-1"], [card, "P1-1"]]
    return build(hands, top or (["P8-4"] if C.KINDS[card].number == 5 else NO_PAIR_TOP), (spot, colour),
                 turn=seat, **kw)


# -- Icons: the catalogue matches the counts printed in the rulebook -------------------------

def test_icon_counts_match_rulebook_icons_section():
    """Icons: Possession 12, Enemy Possession 12, Stash Attempt 6, Movement 14, Steal 4,
    Counter 4, Coin Flip 2, Bar 4, Joker 2, Cooperation 2; 1. Play a Paw Card: 7 of each number."""
    kinds = [C.KINDS[c] for c in C.ALL_PAW_CARDS]
    assert len(kinds) == 58

    def count(pred):
        return sum(1 for k in kinds for _ in range(pred(k)))

    def effects(k, name):
        return sum(1 for r in k.rows for o in r for e in o.effects if e[0] == name)

    assert count(lambda k: C.POSSESSION in k.conditions) == 12
    assert count(lambda k: C.ENEMY_POSSESSION in k.conditions) == 12
    assert count(lambda k: effects(k, "stash")) == 6
    assert count(lambda k: effects(k, "movement")) == 14
    assert count(lambda k: effects(k, "steal")) == 4
    assert count(lambda k: effects(k, "counter")) == 4
    assert count(lambda k: effects(k, "coin_flip")) == 2
    assert count(lambda k: len(k.bars)) == 4
    assert sum(k.joker for k in kinds) == 2
    assert sum(k.cooperation for k in kinds) == 2
    for n in range(1, 9):
        assert sum(1 for k in kinds if k.number == n) == 7


def test_points_cards_and_sardines_match_rulebook():
    """Icons (Sardines 4x) and Crowning the Winning Clan: two-valued cards give the clan's colour value."""
    assert len(C.POINTS_IDS) == 8
    assert sum(C.sardines(c) for c in C.POINTS_IDS) == 4
    assert C.points_value("black-ball", "black") == 2 and C.points_value("black-ball", "white") == 1
    assert C.points_value("white-ball", "white") == 2 and C.points_value("white-ball", "black") == 1


# -- Making a Pair ----------------------------------------------------------------------------

def test_making_a_pair_same_number():
    """Making a Pair: same number as the top card; the pair allows a steal."""
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "black"))
    assert ball(ok(s, play(0, "P3-2", ("steal", None)))) == ("neutral_alley", "white")


def test_making_a_pair_different_number_is_no_pair():
    """Making a Pair: a different number does not make a pair."""
    s = build([["P4-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "black"))
    assert bad(s, play(0, "P4-2", ("steal", None))) == ["NO_PAIR"]


def test_joker_pairs_with_a_number_and_with_a_joker():
    """Icons, Joker: copies the number of the top card; only a Joker pairs a Joker."""
    s = build([["joker-1"], ["P1-1"]], ["P6-1"], ("neutral_alley", "black"))
    assert ball(ok(s, play(0, "joker-1", ("steal", None)))) == ("neutral_alley", "white")
    s = build([["joker-2"], ["P1-1"]], ["joker-1"], ("neutral_alley", "black"))
    assert ball(ok(s, play(0, "joker-2", ("steal", None)))) == ("neutral_alley", "white")


def test_number_on_a_joker_is_no_pair():
    """Icons, Joker: only a Joker can make the pair on another Joker (also a Joker turned at setup)."""
    s = build([["P6-2"], ["P1-1"]], ["P6-1", "joker-1"], ("neutral_alley", "black"))
    assert bad(s, play(0, "P6-2", ("steal", None))) == ["NO_PAIR"]


def test_joker_has_no_action_block():
    """Activating the Action Block: a Joker has none."""
    s = build([["joker-1"], ["P1-1"]], ["P6-1"], ("neutral_alley", "white"))
    assert bad(s, play(0, "joker-1", None, ((), ("white",)))) == ["NO_ACTION_BLOCK"]


def test_pair_steal_needs_enemy_possession_on_an_alley():
    """Making a Pair, Steal: only if the enemy clan possesses the ball."""
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "white"))
    assert bad(s, play(0, "P3-2", ("steal", None))) == ["PAIR_ACTION_NOT_POSSIBLE"]


@pytest.mark.parametrize("direction,target", [("black", "black_alley"), ("white", "white_alley")])
def test_pair_movement_to_an_adjacent_alley_either_direction(direction, target):
    """Making a Pair, Movement; 2. Influencing the Yarn Ball: adjacent alley, in either direction."""
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "white"))
    assert ball(ok(s, play(0, "P3-2", ("movement", direction)))) == (target, "white")


def test_pair_movement_needs_possession():
    """Making a Pair, Movement: only if your clan possesses the ball."""
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "black"))
    assert bad(s, play(0, "P3-2", ("movement", "white"))) == ["PAIR_ACTION_NOT_POSSIBLE"]


def test_pair_movement_never_onto_a_hideout():
    """2. Influencing the Yarn Ball: never onto the enemy hideout; movements stay on alley cards."""
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("black_alley", "white"))
    assert bad(s, play(0, "P3-2", ("movement", "black"))) == ["MOVE_OFF_ALLEYS"]
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("white_alley", "white"))
    assert bad(s, play(0, "P3-2", ("movement", "white"))) == ["MOVE_OFF_ALLEYS"]


def test_pair_movement_states_its_direction():
    """Making a Pair: a movement states a direction; other actions state none."""
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "white"))
    assert bad(s, play(0, "P3-2", ("movement", None))) == ["DIRECTIONS_MISMATCH"]
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "black"))
    assert bad(s, play(0, "P3-2", ("steal", "white"))) == ["DIRECTIONS_MISMATCH"]


def test_pair_stash_attempt_from_the_alley_next_to_your_hideout():
    """Making a Pair, Stash Attempt: from the alley adjacent to your hideout, with possession."""
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("white_alley", "white"))
    after = ok(s, play(0, "P3-2", ("stash", None)))
    assert ball(after) == ("white_hideout", "white")
    assert after["stash"]["answer"] == [1]
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "white"))
    assert bad(s, play(0, "P3-2", ("stash", None))) == ["PAIR_ACTION_NOT_POSSIBLE"]
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("black_alley", "white"))
    assert bad(s, play(0, "P3-2", ("stash", None))) == ["PAIR_ACTION_NOT_POSSIBLE"]


def test_black_clan_stashes_on_its_own_side():
    """2. Influencing the Yarn Ball: Black stashes from the Black alley onto the Black hideout."""
    s = build([["P1-1"], ["P3-2"]], ["P3-1"], ("black_alley", "black"), turn=1)
    assert ball(ok(s, play(1, "P3-2", ("stash", None)))) == ("black_hideout", "black")


def test_pair_counter_needs_deck_hockey():
    """Variants, Deck Hockey: without it a pair cannot counter."""
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "white"))
    assert bad(s, play(0, "P3-2", ("counter", None))) == ["COUNTER_NEEDS_DECK_HOCKEY"]


def test_card_with_no_effect():
    """Playing a Card with No Effect: no pair and no block used: the ball does not move."""
    s = build([["P1-2"], ["P2-1"]], ["P5-1"], ("neutral_alley", "black"))
    after = ok(s, play(0, "P1-2"))
    assert ball(after) == ("neutral_alley", "black") and after["discard"][-1] == "P1-2"


def test_pair_is_optional():
    """Making a Pair: you *may* influence the yarn ball; playing the pairing card for nothing is legal."""
    s = build([["P3-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "black"))
    assert ball(ok(s, play(0, "P3-2"))) == ("neutral_alley", "black")


# -- Activating the Action Block: each card ------------------------------------------------------

@pytest.mark.parametrize("card", ["charge-1", "charge-2", "charge-3", "charge-4"])
def test_charge_possession_movement_1(card):
    """Activating the Action Block, Charge: Possession; movement 1."""
    s = state_with(card, "neutral_alley", "white")
    assert ball(ok(s, play(0, card, None, ((), ("white",))))) == ("white_alley", "white")
    assert ball(ok(s, play(0, card, None, ((), ("black",))))) == ("black_alley", "white")
    assert bad(state_with(card, "neutral_alley", "black"),
               play(0, card, None, ((), ("white",)))) == ["CONDITION_NOT_MET"]
    assert bad(state_with(card, "white_alley", "white"), play(0, card, None, ((), ("white",)))) == ["MOVE_OFF_ALLEYS"]


@pytest.mark.parametrize("card", ["sprint-1", "sprint-2"])
def test_sprint_bar_movement_2_or_movement_1(card):
    """Icons, The Bar; Sprint: Possession; movement 2 / movement 1."""
    s = state_with(card, "black_alley", "white")
    assert ball(ok(s, play(0, card, None, ((0,), ("white",))))) == ("white_alley", "white")
    assert ball(ok(s, play(0, card, None, ((1,), ("white",))))) == ("neutral_alley", "white")
    centre = state_with(card, "neutral_alley", "white")
    assert bad(centre, play(0, card, None, ((0,), ("white",)))) == ["MOVE_OFF_ALLEYS"]
    assert bad(centre, play(0, card, None, ((0,), ("black",)))) == ["MOVE_OFF_ALLEYS"]
    assert bad(state_with(card, "black_alley", "black"),
               play(0, card, None, ((1,), ("white",)))) == ["CONDITION_NOT_MET"]


def test_bar_choices_must_be_stated():
    """Icons, The Bar: one side of each bar is chosen, and it must exist."""
    s = state_with("sprint-1", "black_alley", "white")
    assert bad(s, play(0, "sprint-1", None, ((), ("white",)))) == ["BAR_CHOICES"]
    assert bad(s, play(0, "sprint-1", None, ((2,), ("white",)))) == ["BAR_SIDE"]
    assert bad(s, play(0, "sprint-1", None, ((0,), ()))) == ["DIRECTIONS_MISMATCH"]
    assert bad(s, play(0, "sprint-1", None, ((0, 1), ("white",)))) == ["BAR_CHOICES"]


@pytest.mark.parametrize("card", ["stop-1", "stop-5"])
def test_stop_counter_then_coin_flip(card):
    """Countering a Stash and Icons (Counter, Coin Flip), !Stop!: Enemy Possession; counter,
    then coin flip (table chance: the face seen at the table)."""
    s = build([["P2-1"], [card, "P1-1"]], ["P8-4"], ("white_hideout", "white"), turn=1, phase="answer",
              stash={"clan": "white", "by": 0, "next": 1, "answer": [1]}, chance="table")
    after = ok(s, play(1, card, None, ((), ()), coins=["black"]))
    assert ball(after) == ("white_alley", "black")
    after = ok(s, play(1, card, None, ((), ()), coins=["white"]))
    assert ball(after) == ("white_alley", "white")
    assert bad(s, play(1, card, None, ((), ()))) == ["COIN_COUNT"]


def test_stop_unmet_outside_a_stash():
    """Activating the Action Block: !Stop! cannot be activated without a stash to counter
    (all effects must apply), nor with the Possession of your own clan."""
    assert bad(state_with("stop-1", "neutral_alley", "black"),
               play(0, "stop-1", None, ((), ()), coins=None)) == ["EFFECT_NOT_APPLICABLE"]
    assert bad(state_with("stop-1", "neutral_alley", "white"),
               play(0, "stop-1", None, ((), ()))) == ["CONDITION_NOT_MET"]


@pytest.mark.parametrize("card", ["capture-2", "capture-3", "capture-4", "capture-5"])
def test_capture_enemy_possession_steal(card):
    """Activating the Action Block, Capture: Enemy Possession; steal."""
    assert ball(ok(state_with(card, "black_alley", "black"), play(0, card, None, ((), ())))) == ("black_alley", "white")
    assert bad(state_with(card, "black_alley", "white"), play(0, card, None, ((), ()))) == ["CONDITION_NOT_MET"]


@pytest.mark.parametrize("card", ["smash-3", "smash-4", "smash-5"])
def test_smash_possession_stash_from_1(card):
    """Activating the Action Block and Stash Attempt, Smash!: Possession; stash attempt from 1."""
    after = ok(state_with(card, "white_alley", "white"), play(0, card, None, ((), ())))
    assert ball(after) == ("white_hideout", "white") and after["turn"] == {"player": 1, "phase": "answer"}
    assert bad(state_with(card, "white_alley", "black"), play(0, card, None, ((), ()))) == ["CONDITION_NOT_MET"]
    assert bad(state_with(card, "neutral_alley", "white"), play(0, card, None, ((), ()))) == ["EFFECT_NOT_APPLICABLE"]


@pytest.mark.parametrize("card", ["courage-6", "courage-7", "courage-8"])
def test_courage_enemy_possession_movement_1(card):
    """Activating the Action Block, Courage: Enemy Possession; movement 1 (the ball stays the enemy's)."""
    assert ball(ok(state_with(card, "neutral_alley", "black"),
                   play(0, card, None, ((), ("black",))))) == ("black_alley", "black")
    assert bad(state_with(card, "neutral_alley", "white"),
               play(0, card, None, ((), ("black",)))) == ["CONDITION_NOT_MET"]


@pytest.mark.parametrize("card", ["impact-6", "impact-7"])
def test_impact_possession_stash_from_2(card):
    """Stash Attempt, Impact: Possession; stash attempt from 2 (the neutral alley)."""
    assert ball(ok(state_with(card, "neutral_alley", "white"),
                   play(0, card, None, ((), ())))) == ("white_hideout", "white")
    assert ball(ok(state_with(card, "neutral_alley", "black", seat=1),
                   play(1, card, None, ((), ())))) == ("black_hideout", "black")
    assert bad(state_with(card, "white_alley", "white"), play(0, card, None, ((), ()))) == ["EFFECT_NOT_APPLICABLE"]
    assert bad(state_with(card, "neutral_alley", "black"), play(0, card, None, ((), ()))) == ["CONDITION_NOT_MET"]


@pytest.mark.parametrize("card", ["miracle-6", "miracle-7"])
def test_miracle_counter_on_own_turn(card):
    """Countering a Stash, Miracle: Enemy Possession; counter (here by the next opponent)."""
    s = build([["P2-1"], [card, "P1-1"]], ["P8-4"], ("white_hideout", "white"), turn=1, phase="answer",
              stash={"clan": "white", "by": 0, "next": 1, "answer": [1]})
    assert ball(ok(s, play(1, card, None, ((), ())))) == ("white_alley", "white")
    assert bad(state_with(card, "neutral_alley", "black"), play(0, card, None, ((), ()))) == ["EFFECT_NOT_APPLICABLE"]
    assert bad(state_with(card, "neutral_alley", "white"), play(0, card, None, ((), ()))) == ["CONDITION_NOT_MET"]


def test_bingo_bar_movement_1_or_stash_from_1():
    """Icons, The Bar; Bingo: Possession; movement 1 / stash attempt from 1."""
    s = state_with("bingo-8", "white_alley", "white")
    assert ball(ok(s, play(0, "bingo-8", None, ((0,), ("black",))))) == ("neutral_alley", "white")
    assert ball(ok(s, play(0, "bingo-8", None, ((1,), ())))) == ("white_hideout", "white")
    assert bad(s, play(0, "bingo-8", None, ((1,), ("black",)))) == ["DIRECTIONS_MISMATCH"]
    assert bad(state_with("bingo-8", "neutral_alley", "white"),
               play(0, "bingo-8", None, ((1,), ()))) == ["EFFECT_NOT_APPLICABLE"]
    assert bad(state_with("bingo-8", "white_alley", "black"),
               play(0, "bingo-8", None, ((0,), ("black",)))) == ["CONDITION_NOT_MET"]


def test_fido_bar_movement_2_or_movement_1():
    """Icons, The Bar; Fido: Enemy Possession; movement 2 / movement 1."""
    s = state_with("fido-8", "black_alley", "black")
    assert ball(ok(s, play(0, "fido-8", None, ((0,), ("white",))))) == ("white_alley", "black")
    assert ball(ok(s, play(0, "fido-8", None, ((1,), ("white",))))) == ("neutral_alley", "black")
    assert bad(s, play(0, "fido-8", None, ((0,), ("black",)))) == ["MOVE_OFF_ALLEYS"]
    assert bad(state_with("fido-8", "black_alley", "white"),
               play(0, "fido-8", None, ((1,), ("white",)))) == ["CONDITION_NOT_MET"]


@pytest.mark.parametrize("number", range(1, 9))
def test_plain_cards_have_no_block(number):
    """1. Play a Paw Card: plain cards only pair."""
    card = f"P{number}-2"
    s = state_with(card, "neutral_alley", "white", top=[f"P{number % 8 + 1}-3"])
    assert bad(s, play(0, card, None, ((), ()))) == ["NO_ACTION_BLOCK"]


# -- The "Combo" -------------------------------------------------------------------------------

def test_combo_capture_block_first_then_pair_movement():
    """The "Combo": block first (steal), then the pair's movement, now in possession."""
    s = build([["capture-3", "P1-1"], ["P2-1"]], ["P3-1"], ("neutral_alley", "black"))
    after = ok(s, play(0, "capture-3", ("movement", "white"), ((), ()), "block_first"))
    assert ball(after) == ("white_alley", "white")


def test_combo_capture_pair_first_then_block_fails_its_condition():
    """The "Combo": pair first (steal) leaves no Enemy Possession for Capture's block."""
    s = build([["capture-3", "P1-1"], ["P2-1"]], ["P3-1"], ("neutral_alley", "black"))
    assert bad(s, play(0, "capture-3", ("steal", None), ((), ()), "pair_first")) == ["CONDITION_NOT_MET"]
    assert bad(s, play(0, "capture-3", ("movement", "white"), ((), ()), "pair_first")) == ["PAIR_ACTION_NOT_POSSIBLE"]


def test_combo_charge_pair_first_creates_the_condition():
    """The "Combo" (Cat Tip): making the pair first (steal) creates Charge's Possession."""
    s = build([["charge-2", "P1-1"], ["P3-1"]], ["P2-1"], ("black_alley", "black"))
    after = ok(s, play(0, "charge-2", ("steal", None), ((), ("white",)), "pair_first"))
    assert ball(after) == ("neutral_alley", "white")
    assert bad(s, play(0, "charge-2", ("steal", None), ((), ("white",)), "block_first")) == ["CONDITION_NOT_MET"]


def test_combo_smash_pair_movement_then_stash():
    """The "Combo": Smash! paired: move next to your hideout, then stash from 1; the other order fails."""
    s = build([["smash-4", "P1-1"], ["P3-1"]], ["P4-1"], ("neutral_alley", "white"))
    after = ok(s, play(0, "smash-4", ("movement", "white"), ((), ()), "pair_first"))
    assert ball(after) == ("white_hideout", "white")
    assert bad(s, play(0, "smash-4", ("movement", "white"), ((), ()), "block_first")) == ["EFFECT_NOT_APPLICABLE"]


def test_combo_sprint_both_orders_both_sides():
    """The "Combo" with a bar: Sprint paired, both orders and both sides."""
    s = build([["sprint-1", "P3-1"], ["P3-2"]], ["P1-1"], ("black_alley", "white"))
    assert ball(ok(s, play(0, "sprint-1", ("movement", "white"), ((1,), ("white",)),
                           "pair_first"))) == ("white_alley", "white")
    assert ball(ok(s, play(0, "sprint-1", ("movement", "black"), ((0,), ("white",)),
                           "block_first"))) == ("neutral_alley", "white")
    assert bad(s, play(0, "sprint-1", ("movement", "white"), ((0,), ("white",)), "pair_first")) == ["MOVE_OFF_ALLEYS"]
    assert ball(ok(s, play(0, "sprint-1", ("movement", "white"), ((1,), ("black",)),
                           "pair_first"))) == ("black_alley", "white")


def test_combo_after_a_stash_attempt_nothing_follows():
    """Stash Attempt (Cat Caution): a stash attempt ends the turn at once."""
    s = build([["bingo-8", "P1-1"], ["P3-1"]], ["P8-1"], ("white_alley", "white"))
    assert bad(s, play(0, "bingo-8", ("movement", "black"), ((1,), ()), "block_first")) == ["STASH_ENDS_TURN"]
    assert bad(s, play(0, "bingo-8", ("stash", None), ((0,), ("black",)), "pair_first")) == ["STASH_ENDS_TURN"]
    assert ball(ok(s, play(0, "bingo-8", ("movement", "black"), ((0,), ("white",)),
                           "pair_first"))) == ("white_alley", "white")


def test_combo_order_stated_exactly_when_both_are_used():
    """The "Combo": the order of your choice, stated; no order without a combo."""
    s = build([["capture-3", "P1-1"], ["P2-1"]], ["P3-1"], ("neutral_alley", "black"))
    assert bad(s, play(0, "capture-3", ("movement", "white"), ((), ()), None)) == ["ORDER_REQUIRED"]
    assert bad(s, play(0, "capture-3", None, ((), ()), "block_first")) == ["ORDER_UNEXPECTED"]
