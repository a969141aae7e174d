"""Scratch & Catch rule clauses, each test naming its rulebook section.

Values are worked out by hand from shared/rulebooks/scratch-and-catch.en.txt.
"""

import pytest

from referee.engine.core import InvalidOptions, InvalidState
from referee.engine.rng import Rng
from referee.games.scratch_and_catch import GAME
from referee.games.scratch_and_catch.cards import deck_ids, flea_points
from tests.games.scratch_and_catch.sc_helpers import build, line_of, play

DEFAULT_DECK = deck_ids((5, 6, 7, 7, 7, 7, 7, 7, 6, 5), (1, 1, 1, 1, 2, 2, 1, 1, 1, 1))


# --- Components ------------------------------------------------------------------------

def test_components_default_deck_has_76_cards_64_cat_12_scratch():
    """Components: 76 numbered cards from 1 to 10, 64 Cat cards and 12 Scratch cards."""
    assert len(DEFAULT_DECK) == 76
    assert sum(1 for c in DEFAULT_DECK if c.startswith("C")) == 64
    assert sum(1 for c in DEFAULT_DECK if c.startswith("S")) == 12
    assert {int(c[1:c.index("-")]) for c in DEFAULT_DECK} == set(range(1, 11))


# --- Setup ---------------------------------------------------------------------------

@pytest.mark.parametrize("players,fleas", [(2, 22), (3, 20), (4, 18), (5, 16), (6, 15)])
def test_setup_deals_4_cards_and_the_flea_table(players, fleas):
    """Setup: each player is dealt 4 cards and receives the fleas of the table."""
    state = GAME.setup(players, "seed-1")
    assert [len(p["hand"]) for p in state["players"]] == [4] * players
    assert [p["fleas"] for p in state["players"]] == [fleas] * players
    assert all(p["collected"] == [] for p in state["players"])


def test_setup_line_has_the_next_4_cards_in_ascending_order():
    """Setup: the top 4 cards of the draw pile go on the line in ascending order."""
    state = GAME.setup(3, "seed-2")
    deck = list(DEFAULT_DECK)
    Rng("seed-2").shuffle(deck)
    turned = deck[12:16]
    line_cards = [c for pile in state["line"] for c in pile["cards"]]
    assert sorted(line_cards) == sorted(turned)
    values = [pile["value"] for pile in state["line"]]
    assert values == sorted(set(values))
    assert state["draw_pile"] == deck[16:]
    # Deal is one card at a time, round robin from seat 0.
    assert state["players"][0]["hand"] == deck[0:12:3]
    assert state["players"][2]["hand"] == deck[2:12:3]


@pytest.mark.parametrize("players", [1, 7, 0])
def test_setup_refuses_a_player_count_outside_2_to_6(players):
    """Setup: the flea table covers 2 to 6 players only."""
    with pytest.raises(InvalidOptions) as error:
        GAME.setup(players, "s")
    assert error.value.errors[0][0] == "/players"


def test_setup_refuses_a_deck_too_small_to_deal():
    """Setup: 3 players need 12 cards in hand and 4 on the line."""
    with pytest.raises(InvalidOptions) as error:
        GAME.setup(3, "s", {"deck": {"cat": [1] * 10, "scratch": [0] * 10}})
    assert error.value.errors[0][0] == "/options/deck"


def test_setup_custom_deck_composition_is_used():
    """Options: a custom deck composition replaces the default one."""
    state = GAME.setup(2, "s", {"deck": {"cat": [2] * 10, "scratch": [0] * 9 + [1]}})
    cards = ([c for p in state["players"] for c in p["hand"]] + [c for pile in state["line"] for c in pile["cards"]]
             + state["draw_pile"])
    assert len(cards) == 21
    assert "S10-1" in cards and "C1-2" in cards


def test_setup_table_deal_is_taken_as_given():
    """Setup at a physical table: the hands and line dealt there are recorded; the pile order is unknown."""
    hands = [["C1-1", "C2-1", "C3-1", "C4-1"], ["C5-1", "C6-1", "C7-1", "C8-1"]]
    state = GAME.setup(2, "s", {"chance": "table", "deal": {"hands": hands, "line": ["C9-1", "C1-2", "C9-2", "S5-1"]}})
    assert [p["hand"] for p in state["players"]] == hands
    assert line_of(state) == {1: ["C1-2"], 5: ["S5-1"], 9: ["C9-1", "C9-2"]}
    assert state["draw_pile"] == sorted(state["draw_pile"])
    assert len(state["draw_pile"]) == 76 - 12


# --- Game Progress: two cards a turn --------------------------------------------------

def test_game_progress_first_card_has_no_effect():
    """Game Progress: the 1st card is placed and does not trigger any effect (no Sequence)."""
    state = build([["C4-1", "C9-1", "C9-2", "C9-3"], ["C1-1"] * 0 + ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C3-1"], ["C5-1"]], fleas=[10, 10])
    verdict = play(state, 0, "C4-1")
    assert verdict.legal
    assert verdict.state["players"][0]["fleas"] == 10
    assert line_of(verdict.state)[4] == ["C4-1"]
    assert verdict.state["turn"] == {"player": 0, "step": "second"}
    assert [e["type"] for e in verdict.events] == ["card_played"]


def test_game_progress_second_card_sequence_discards_its_length():
    """Game Progress (Sequence): Fred played a 6, then a 7: a sequence of 3 cards, he discards 3 fleas."""
    state = build([["C6-1", "C7-1", "C1-1", "C1-2"], ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C5-1"], ["C9-1"]], fleas=[12, 10])
    state = play(state, 0, "C6-1").state
    verdict = play(state, 0, "C7-1")
    assert verdict.legal
    assert verdict.state["players"][0]["fleas"] == 9
    assert {"type": "sequence", "player": 0, "length": 3, "fleas_discarded": 3} in verdict.events


def test_game_progress_sequence_length_counts_line_positions_not_stacked_cards():
    """Game Progress (Sequence): a stack counts once in a sequence (rules notes: length in values)."""
    state = build([["C4-1", "C1-1", "C1-2", "C1-3"], ["C2-2", "C2-3", "C2-4", "C2-5"]],
                  [["C2-1"], ["C3-1", "C3-2", "C3-3"]], fleas=[10, 10])
    state = play(state, 0, "C1-1").state   # first card: the run 1-2-3 has no effect
    verdict = play(state, 0, "C4-1")        # run 1,2,3,4 = 4 positions (6 cards)
    assert verdict.state["players"][0]["fleas"] == 6


def test_game_progress_sequence_never_takes_fleas_below_zero():
    """Game Progress (Sequence): a player with fewer fleas than the length discards them all."""
    state = build([["C6-1", "C7-1", "C1-1", "C1-2"], ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C5-1"], ["C8-1"]], fleas=[2, 10])
    state = play(state, 0, "C6-1").state
    verdict = play(state, 0, "C7-1")   # run 5-6-7-8 = 4, only 2 fleas held
    assert verdict.state["players"][0]["fleas"] == 0
    assert {"type": "sequence", "player": 0, "length": 4, "fleas_discarded": 2} in verdict.events


def test_game_progress_lone_second_card_does_nothing():
    """Game Progress: no card of that value and no adjacent card: neither Sequence nor Stack."""
    state = build([["C1-1", "C9-1", "C7-7", "C7-6"], ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C5-1"]], fleas=[10, 10])
    state = play(state, 0, "C1-1").state
    verdict = play(state, 0, "C9-1")
    assert verdict.state["players"][0]["fleas"] == 10
    assert verdict.state["players"][0]["collected"] == []
    assert [e["type"] for e in verdict.events] == ["card_played", "cards_drawn"]


def test_game_progress_stack_example_delphine():
    """Game Progress (Stack): Delphine played a 2, then a 3: she collects all the Cat 2 cards,
    but not the Cat 5 card because it is not adjacent."""
    state = build([["C2-2", "C3-2", "C8-1", "C8-2"], ["C9-1", "C9-2", "C9-3", "C9-4"]],
                  [["C2-1"], ["C3-1"], ["C5-1"]], fleas=[10, 10])
    state = play(state, 0, "C2-2").state
    verdict = play(state, 0, "C3-2")
    after = verdict.state
    assert sorted(after["players"][0]["collected"]) == ["C2-1", "C2-2"]
    assert line_of(after) == {3: ["C3-1", "C3-2"], 5: ["C5-1"]}
    assert after["players"][0]["fleas"] == 10


def test_game_progress_stack_takes_both_sides():
    """Game Progress (Stack): the cards adjacent on both sides of the stack are taken."""
    state = build([["C1-1", "C5-2", "C8-1", "C8-2"], ["C9-1", "C9-2", "C9-3", "C9-4"]],
                  [["C4-1", "C4-2"], ["C5-1"], ["C6-1"], ["C7-1"]], fleas=[10, 10])
    state = play(state, 0, "C1-1").state
    verdict = play(state, 0, "C5-2")
    assert sorted(verdict.state["players"][0]["collected"]) == ["C4-1", "C4-2", "C6-1"]
    assert line_of(verdict.state) == {1: ["C1-1"], 5: ["C5-1", "C5-2"], 7: ["C7-1"]}


def test_game_progress_cards_can_come_from_the_draw_pile():
    """Game Progress: the 1st and/or 2nd card can be played from the draw pile (top card)."""
    state = build([["C1-1", "C1-2", "C1-3", "C1-4"], ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C9-1"]], pile=["C6-1", "C7-1", "C8-1"], extra_pile=False)
    first = play(state, 0, source="pile")
    assert first.legal and line_of(first.state)[6] == ["C6-1"]
    second = play(first.state, 0, source="pile")   # the generator turns the top card, C7-1
    assert second.legal
    # Sequence 6-7 (8 is not on the line yet; 9 is not adjacent to 7): 2 fleas
    assert second.state["players"][0]["fleas"] == 8
    # Hand still 4: nothing to draw; the pile keeps C8-1.
    assert second.state["draw_pile"] == ["C8-1"]


def test_game_progress_naming_a_pile_card_is_refused_with_seeded_chance():
    """Game Progress / chance: with the seeded generator the referee turns the top card; a pile
    play naming a card is refused the same way whatever it names (the top card too), so the
    pile's order cannot be found by elimination."""
    state = build([["C1-1", "C1-2", "C1-3", "C1-4"], ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C9-1"]], pile=["C6-1", "C7-1"], extra_pile=False)
    for named in ("C7-1", "C6-1"):
        verdict = play(state, 0, named, source="pile")
        assert not verdict.legal and [v.code for v in verdict.violations] == ["SEEDED_CHANCE"]
        assert verdict.state is None


def test_game_progress_table_chance_pile_card_must_be_possible():
    """Chance at a table: the card seen must be one still in the draw pile."""
    state = build([["C1-1", "C1-2", "C1-3", "C1-4"], ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C9-1"]], pile=["C6-1", "C7-1"], chance="table", extra_pile=False)
    assert play(state, 0, "C7-1", source="pile").legal
    assert play(state, 0, "C9-1", source="pile").violations[0].code == "CARD_NOT_IN_PILE"
    assert play(state, 0, source="pile").violations[0].code == "CARD_REQUIRED"


def test_game_progress_a_table_names_a_card_as_printed():
    """Chance at a table (rules notes, Physical tables): copies of a number are the same printed
    card. A pile card named by an id that lies in a hand takes a copy of that number from the
    pile, and the two copies swap ids: the card played face up is the id named, so no reader
    learns where that id was. A number with no copy in the pile stays CARD_NOT_IN_PILE."""
    state = build([["C1-1", "C1-2", "C1-3", "C1-4"], ["C7-1", "C2-1", "C2-2", "C2-3"]],
                  [["C9-1"]], pile=["C6-1", "C7-2"], chance="table", extra_pile=False)
    verdict = play(state, 0, "C7-1", source="pile")
    assert verdict.legal and verdict.events[0]["card"] == "C7-1"
    assert [pile["cards"] for pile in verdict.state["line"]] == [["C7-1"], ["C9-1"]]
    assert verdict.state["players"][1]["hand"] == ["C7-2", "C2-1", "C2-2", "C2-3"]
    assert verdict.state["draw_pile"] == ["C6-1"]
    assert state["players"][1]["hand"][0] == "C7-1" and state["draw_pile"] == ["C6-1", "C7-2"]   # unchanged
    # The mover's own copy swaps the same way; a 2 has no copy in the pile.
    own = build([["C7-1", "C1-1", "C1-2", "C1-3"], ["C2-1", "C2-2", "C2-3", "C2-4"]],
                [["C9-1"]], pile=["C6-1", "C7-2"], chance="table", extra_pile=False)
    verdict = play(own, 0, "C7-1", source="pile")
    assert verdict.legal and verdict.state["players"][0]["hand"] == ["C7-2", "C1-1", "C1-2", "C1-3"]
    assert play(state, 0, "C2-1", source="pile").violations[0].code == "CARD_NOT_IN_PILE"


def test_game_progress_a_copy_taken_in_place_tells_its_holder_nothing_of_the_pile():
    """Chance at a table (rules notes, Physical tables): seat 0 plays a 7 from the pile naming
    C7-1, which seat 1 holds, so seat 1's copy takes the id of one the pile held. Seat 1 never saw
    C7-2 to C7-7: whether seat 2 holds C7-2 (world Y) or the pile does (world X) is hidden from it.
    Were seat 1 given the pile's first copy, C7-3 would tell it C7-2 is in a hand (another seat
    holds a 7). The copy is the generator's, any of the pile's 7s: over 40 seeds seat 1 receives
    each of them (C7-2 to C7-7 in X; C7-3 to C7-7 in Y), C7-3 in either world."""
    line = [["C1-1"], ["C5-1"], ["C9-1"], ["C10-1"]]
    sevens = [f"C7-{copy}" for copy in range(2, 8)]
    for seat2, pile in ((["C3-1", "C6-1", "C6-2", "C6-3"], sevens),
                        (["C7-2", "C6-1", "C6-2", "C6-3"], ["C3-1"] + sevens[1:])):
        state = build([["C2-1", "C2-2", "C2-3", "C2-4"], ["C7-1", "C4-1", "C4-2", "C4-3"], seat2],
                      line, pile=pile, chance="table", extra_pile=False)
        received = set()
        for seed in range(40):
            verdict = play(dict(state, rng={"seed": f"holder-{seed}", "counter": 0}), 0, "C7-1", source="pile")
            assert verdict.legal and verdict.events[0]["card"] == "C7-1"
            GAME.check_state(verdict.state)
            received.add(verdict.state["players"][1]["hand"][0])
        assert received == {card for card in pile if card.startswith("C7-")}


def test_game_progress_a_table_draws_a_card_as_printed():
    """Chance at a table, the refill: a draw naming an id that lies in another hand takes a
    copy of that number from the pile into the drawer's hand; the other hand does not change
    (the card drawn stays hidden from it)."""
    state = build([["C1-1", "C3-1", "C5-1", "C5-2"], ["C7-1", "C2-1", "C2-2", "C2-3"]],
                  [["C9-1"]], pile=["C7-2", "C8-1"], chance="table", extra_pile=False)
    state = play(play(state, 0, "C1-1").state, 0, "C3-1").state
    assert state["turn"] == {"player": 0, "step": "refill"}
    after = GAME.adjudicate(state, {"type": "draw", "player": 0, "card": "C7-1"}).state
    assert after["players"][0]["hand"] == ["C5-1", "C5-2", "C7-2"]
    assert after["players"][1]["hand"] == ["C7-1", "C2-1", "C2-2", "C2-3"] and after["draw_pile"] == ["C8-1"]


def test_game_progress_refill_to_4_at_end_of_turn():
    """Game Progress: at the end of your turn, draw cards until you have 4 cards in hand."""
    state = build([["C1-1", "C3-1", "C5-1", "C5-2"], ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C9-1"]], pile=["C7-1", "C7-2", "C7-3"], extra_pile=False)
    state = play(state, 0, "C1-1").state
    verdict = play(state, 0, "C3-1")
    assert verdict.state["players"][0]["hand"] == ["C5-1", "C5-2", "C7-1", "C7-2"]
    assert verdict.state["draw_pile"] == ["C7-3"]
    assert verdict.state["turn"] == {"player": 1, "step": "first"}


def test_game_progress_table_refill_is_drawn_card_by_card():
    """Game Progress at a table: the refill cards are named one draw move at a time."""
    state = build([["C1-1", "C3-1", "C5-1", "C5-2"], ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C9-1"]], pile=["C7-1", "C7-2", "C7-3"], chance="table", extra_pile=False)
    state = play(state, 0, "C1-1").state
    state = play(state, 0, "C3-1").state
    assert state["turn"] == {"player": 0, "step": "refill"}
    assert play(state, 0, "C5-5").violations[0].code == "REFILL_PENDING"
    state = GAME.adjudicate(state, {"type": "draw", "player": 0, "card": "C7-3"}).state
    assert state["turn"]["step"] == "refill"
    state = GAME.adjudicate(state, {"type": "draw", "player": 0, "card": "C7-1"}).state
    assert state["players"][0]["hand"] == ["C5-1", "C5-2", "C7-3", "C7-1"]
    assert state["turn"] == {"player": 1, "step": "first"}


def test_game_progress_players_take_turns_clockwise():
    """Game Progress: players take turns clockwise; another player cannot act."""
    state = build([["C1-1", "C1-2", "C1-3", "C1-4"], ["C2-1", "C2-2", "C2-3", "C2-4"],
                   ["C3-1", "C3-2", "C3-3", "C3-4"]],
                  [["C9-1"]])
    verdict = play(state, 1, "C2-1")
    assert not verdict.legal
    assert verdict.violations[0].code == "NOT_YOUR_TURN"
    assert verdict.violations[0].rule == "Game Progress"
    state = play(play(state, 0, "C1-1").state, 0, "C1-2").state
    assert state["turn"]["player"] == 1
    absent = play(state, 3, "C2-1")   # a 3-player table: seats 0 to 2 (Setup)
    assert [(v.code, v.rule) for v in absent.violations] == [("NO_SUCH_PLAYER", "Setup")]
    assert absent.violations[0].text() == "There is no player 3: the seats are 0 to 2."


def test_game_progress_card_must_be_in_hand():
    """Game Progress: a card is played from your hand (or the pile), not from elsewhere."""
    state = build([["C1-1", "C1-2", "C1-3", "C1-4"], ["C2-1", "C2-2", "C2-3", "C2-4"]], [["C9-1"]])
    verdict = play(state, 0, "C2-1")
    assert verdict.violations[0].code == "CARD_NOT_IN_HAND"
    assert verdict.violations[0].text() == "Card C2-1 is not in your hand."
    # Components: the default deck has 7 Cat 5s (C5-1 to C5-7), so no C5-99 exists anywhere.
    unknown = play(state, 0, "C5-99")
    assert [(v.code, v.rule) for v in unknown.violations] == [("UNKNOWN_CARD", "Game Progress")]
    assert unknown.violations[0].text() == "Unknown card id C5-99: this game's deck has no such card."


def test_game_progress_empty_draw_pile_cannot_be_played_from():
    """Game Progress: a card from the draw pile needs a draw pile (rules notes)."""
    state = build([["C1-1", "C1-2", "C1-3", "C1-4"], ["C2-1", "C2-2", "C2-3", "C2-4"]], [["C9-1"]], extra_pile=False)
    assert play(state, 0, source="pile").violations[0].code == "DRAW_PILE_EMPTY"


# --- Scratch Cards -------------------------------------------------------------------

def test_scratch_cards_example_nicolas():
    """Scratch Cards: Nicolas played a 5, then a 6 (Scratch): he collects all the Cat 5 and 7
    cards; all other players each take 2 fleas."""
    state = build([["C5-2", "S6-1", "C9-1", "C9-2"], ["C1-1", "C1-2", "C1-3", "C1-4"],
                   ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C5-1"], ["C6-1"], ["C7-1", "C7-2"]], fleas=[10, 4, 7])
    state = play(state, 0, "C5-2").state
    verdict = play(state, 0, "S6-1")
    after = verdict.state
    assert sorted(after["players"][0]["collected"]) == ["C5-1", "C5-2", "C7-1", "C7-2"]
    assert [p["fleas"] for p in after["players"]] == [10, 6, 9]
    assert {"type": "scratch", "player": 0, "fleas_each": 2, "players": [1, 2]} in verdict.events


def test_scratch_cards_alone_in_its_pile_gives_one_flea():
    """Scratch Cards: if the Scratch card is alone in its pile, the other players take 1 flea."""
    state = build([["C1-1", "S9-1", "C8-8", "C8-7"], ["C2-1", "C2-2", "C2-3", "C2-4"]], [["C5-1"]], fleas=[10, 3])
    state = play(state, 0, "C1-1").state
    verdict = play(state, 0, "S9-1")
    assert [p["fleas"] for p in verdict.state["players"]] == [10, 4]


def test_scratch_cards_as_first_card_have_no_effect():
    """Scratch Cards: as the 1st card, it has no effect."""
    state = build([["S5-1", "C1-1", "C1-2", "C1-3"], ["C2-1", "C2-2", "C2-3", "C2-4"]], [["C5-1"]], fleas=[10, 3])
    verdict = play(state, 0, "S5-1")
    assert [p["fleas"] for p in verdict.state["players"]] == [10, 3]


def test_scratch_cards_with_a_sequence_apply_both():
    """Scratch Cards: as the 2nd card, resolve the Sequence, and the others take fleas."""
    state = build([["C1-1", "S6-1", "C8-8", "C8-7"], ["C2-1", "C2-2", "C2-3", "C2-4"]], [["C5-1"]], fleas=[10, 3])
    state = play(state, 0, "C1-1").state
    verdict = play(state, 0, "S6-1")
    assert [p["fleas"] for p in verdict.state["players"]] == [8, 4]


# --- End of the Game -------------------------------------------------------------------

def test_end_of_the_game_no_fleas_gives_every_other_player_a_final_turn():
    """End of the Game: a player with no more fleas ends the game; all other players take one
    final turn, except the player who ended it."""
    state = build([["C6-1", "C7-1", "C1-1", "C1-2"], ["C2-1", "C2-2", "C2-3", "C2-4"],
                   ["C3-2", "C3-3", "C3-4", "C3-5"]],
                  [["C5-1"]], fleas=[3, 10, 10])
    state = play(state, 0, "C6-1").state
    verdict = play(state, 0, "C7-1")
    state = verdict.state
    assert state["players"][0]["fleas"] == 0
    assert state["final_turns"] == {"ended_by": 0, "reason": "no_fleas", "remaining": [1, 2]}
    assert {"type": "game_end_triggered", "player": 0, "reason": "no_fleas"} in verdict.events
    state = play(play(state, 1, "C2-1").state, 1, "C2-2").state
    assert state["turn"]["player"] == 2 and not state["finished"]
    state = play(state, 2, "C3-2").state
    verdict = play(state, 2, "C3-3")
    assert verdict.state["finished"]
    assert verdict.outcome.finished
    assert play(verdict.state, 0, "C1-1").violations[0].code == "GAME_OVER"


def test_end_of_the_game_cannot_refill_ends_the_game():
    """End of the Game: a player who can no longer draw to complete their hand ends the game."""
    state = build([["C1-1", "C3-1", "C5-1", "C5-2"], ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C9-1"]], pile=["C7-1"], extra_pile=False)
    state = play(state, 0, "C1-1").state
    verdict = play(state, 0, "C3-1")
    assert verdict.state["final_turns"] == {"ended_by": 0, "reason": "cannot_refill", "remaining": [1]}
    assert verdict.state["players"][0]["hand"] == ["C5-1", "C5-2", "C7-1"]
    assert verdict.state["turn"]["player"] == 1


def test_end_of_the_game_final_turn_with_one_card_ends_after_it():
    """End of the Game: a final turn with a single card and no pile is that card alone (rules notes)."""
    state = build([["C1-1", "C1-2", "C1-3"], ["C2-1"]], [["C9-1"]], turn=1, extra_pile=False,
                  final_turns={"ended_by": 0, "reason": "cannot_refill", "remaining": [1]})
    verdict = play(state, 1, "C2-1")
    assert verdict.state["finished"]


def test_end_of_the_game_player_without_cards_is_passed_over():
    """End of the Game: a player with no card and an empty pile cannot take a final turn (a
    recorded position: in a game every player holds 4 cards when the end is triggered)."""
    final = {"ended_by": 2, "reason": "cannot_refill", "remaining": [0, 1]}
    state = build([["C1-1", "C1-2", "C6-1", "C6-2"], [], ["C3-1", "C3-2"]], [["C9-1"]], turn=0, extra_pile=False,
                  final_turns=final)
    state = play(state, 0, "C1-1").state
    verdict = play(state, 0, "C1-2")
    assert {"type": "turn_passed", "player": 1, "reason": "no_cards"} in verdict.events
    assert verdict.state["final_turns"]["remaining"] == []
    assert verdict.state["finished"] is True


@pytest.mark.parametrize("fleas,points", [
    (0, 15), (1, 12), (5, 12), (6, 6), (10, 6), (11, 0), (15, 0), (16, -4), (20, -4), (21, -8), (25, -8), (26, -12),
    (70, -12),
])
def test_end_of_the_game_flea_table(fleas, points):
    """End of the Game: Fleas 0 +15, 1-5 +12, 6-10 +6, 11-15 0, 16-20 -4, 21-25 -8, 26+ -12."""
    assert flea_points(fleas) == points


def _finished(collected_counts, fleas):
    starts = [0, collected_counts[0], collected_counts[0] + collected_counts[1]]
    cats = [[f"C{1 + (i % 10)}-{1 + i // 10}" for i in range(start, start + count)]
            for start, count in zip(starts, collected_counts)]
    return build([[], [], []], [], collected=cats, fleas=fleas, extra_pile=False, finished=True,
                 final_turns={"ended_by": 0, "reason": "no_fleas", "remaining": []})


def test_end_of_the_game_scoring_example():
    """End of the Game: Fred 21 + 0 = 21, Delphine 27 - 8 = 19, Nicolas 7 + 15 = 22: Nicolas wins."""
    scores, outcome = GAME.score(_finished([21, 27, 7], [12, 22, 0]))
    assert [row["total"] for row in scores["players"]] == [21, 19, 22]
    assert outcome.finished and outcome.winners == (2,) and outcome.tiebreak is None


def test_end_of_the_game_tie_goes_to_fewest_fleas():
    """End of the Game: in case of a tie, the player with the fewest fleas wins."""
    scores, outcome = GAME.score(_finished([10, 12, 4], [7, 12, 30]))
    assert [row["total"] for row in scores["players"]] == [16, 12, -8]
    scores, outcome = GAME.score(_finished([10, 16, 4], [7, 12, 30]))
    assert [row["total"] for row in scores["players"]] == [16, 16, -8]
    assert outcome.winners == (0,) and outcome.tiebreak == "fewest_fleas"


def test_end_of_the_game_tie_on_points_and_fleas_is_shared():
    """End of the Game: tied on points and fleas: both win (rules notes)."""
    scores, outcome = GAME.score(_finished([10, 10, 4], [7, 7, 30]))
    assert outcome.winners == (0, 1) and outcome.tiebreak == "shared"


def test_end_of_the_game_cards_in_hand_do_not_count():
    """End of the Game: cards in hand are not counted."""
    state = build([["C1-1", "C1-2"], []], [], collected=[["C2-1"], []], fleas=[12, 12], extra_pile=False,
                  finished=True, final_turns={"ended_by": 1, "reason": "no_fleas", "remaining": []})
    scores, _ = GAME.score(state)
    assert scores["players"][0]["cards"] == 1


def test_end_of_the_game_only_cat_cards_score_unless_the_option_counts_scratch_cards():
    """End of the Game: "Each Cat card in front of you is worth 1 point"; Components lists Cat and
    Scratch cards as separate kinds, so collected Scratch cards score nothing by default. The
    option scratch_cards_score keeps them counting (rules notes)."""
    collected = [["C2-1", "S2-1", "S3-1"], []]
    kwargs = dict(extra_pile=False, finished=True, fleas=[12, 12],
                  final_turns={"ended_by": 1, "reason": "no_fleas", "remaining": []})
    literal = GAME.score(build([[], []], [], collected=collected, scratch_cards_score=False, **kwargs))[0]
    assert literal["players"][0]["cards"] == 1
    assert literal["players"][0]["total"] == 1 + 0  # 12 fleas: 0 points (table 11-15)
    counted = GAME.score(build([[], []], [], collected=collected, scratch_cards_score=True, **kwargs))[0]
    assert counted["players"][0]["cards"] == 3


def test_end_of_the_game_literal_scoring_is_the_default_at_setup():
    """End of the Game: a game set up without options scores Cat cards only."""
    assert GAME.setup(2, "literal")["options"]["scratch_cards_score"] is False
    assert GAME.setup(2, "house", {"scratch_cards_score": True})["options"]["scratch_cards_score"] is True
    assert GAME.options_info()["scratch_cards_score"]["default"] is False


# --- Impossible states ------------------------------------------------------------------

def _valid():
    return GAME.setup(3, "impossible")


@pytest.mark.parametrize("mutate,pointer", [
    (lambda s: s["players"][0]["hand"].append(s["players"][1]["hand"][0]), "/players/1/hand/0"),
    (lambda s: s["players"][0]["hand"].__setitem__(0, "C11-1"), "/players/0/hand/0"),
    (lambda s: s["players"][1].__setitem__("fleas", -1), "/players/1/fleas"),
    (lambda s: s["draw_pile"].pop(), ""),
    (lambda s: s["players"].append({"hand": [], "fleas": 1, "collected": []})
     or s["players"].extend([s["players"][-1]] * 4), "/players"),
    (lambda s: s["turn"].__setitem__("player", 3), "/turn/player"),
    (lambda s: s.update(finished=True, final_turns={"ended_by": 0, "reason": "no_fleas", "remaining": [1]}),
     "/finished"),
    (lambda s: s["line"].reverse() if len(s["line"]) > 1 else s["line"][0].__setitem__("value", 11), "/line/1/value"),
])
def test_impossible_states_are_refused_with_a_pointer(mutate, pointer):
    """Design, section 2: the referee validates consistency before judging a move."""
    state = _valid()
    mutate(state)
    with pytest.raises(InvalidState) as error:
        GAME.check_state(state)
    assert pointer in [p for p, _ in error.value.errors]


def test_adjudicate_never_mutates_the_state_given():
    state = _valid()
    before = repr(state)
    move = GAME.legal_moves(state)[0]
    GAME.adjudicate(state, move)
    assert repr(state) == before


def test_later_moves_never_change_an_earlier_state():
    """A move's next state shares with its state the lists the move leaves alone (the other
    players' hands and collected cards, each pile's cards): every state of a whole game, kept,
    must read the same at the end as when it was made, and its piles hold only their fields."""
    state = GAME.setup(4, "shared", {})
    kept = [(state, repr(state))]
    while not state["finished"]:
        state = GAME.adjudicate(state, GAME.legal_moves(state)[-1], checked=True).state
        kept.append((state, repr(state)))
        assert all(pile.keys() == {"value", "cards"} for pile in state["line"])
    assert len(kept) > 20
    assert [text for _, text in kept] == [repr(earlier) for earlier, _ in kept]


def test_game_progress_draw_moves_are_only_for_refills_at_a_table():
    """Game Progress: cards are drawn at the end of the turn; with the generator the draw is automatic."""
    hands = [["C1-1", "C1-2", "C1-3", "C1-4"], ["C2-1", "C2-2", "C2-3", "C2-4"]]
    seeded = build(hands, [["C9-1"]], pile=["C6-1"], extra_pile=False)
    verdict = GAME.adjudicate(seeded, {"type": "draw", "player": 0, "card": "C6-1"})
    assert verdict.violations[0].code == "REFILL_IS_AUTOMATIC"
    table = build(hands, [["C9-1"]], pile=["C6-1"], chance="table", extra_pile=False)
    verdict = GAME.adjudicate(table, {"type": "draw", "player": 0, "card": "C6-1"})
    assert verdict.violations[0].code == "NOT_REFILLING"


def test_game_progress_table_cards_not_named_are_a_violation_not_a_schema_error():
    """Chance at a table: a pile play or a draw that does not name the card (null, as a
    match's legal-moves shows it) is answered CARD_REQUIRED."""
    state = build([["C1-1", "C3-1", "C5-1", "C5-2"], ["C2-1", "C2-2", "C2-3", "C2-4"]],
                  [["C9-1"]], pile=["C7-1", "C7-2", "C7-3"], chance="table", extra_pile=False)
    assert GAME.adjudicate(
        state, {"type": "play", "player": 0, "source": "pile", "card": None}).violations[0].code == "CARD_REQUIRED"
    state = play(play(state, 0, "C1-1").state, 0, "C3-1").state
    assert GAME.adjudicate(state, {"type": "draw", "player": 0, "card": None}).violations[0].code == "CARD_REQUIRED"
    assert GAME.adjudicate(state, {"type": "draw", "player": 0}).violations[0].code == "CARD_REQUIRED"
