"""Call of Katulhu, rulebook sections Setup, Gameplay and Optional Advanced Game Rule.

Expected values are worked out by hand from the rulebook and the reference card in
katulhu_helpers (yarn > feather, mouse; feather > mouse, laser; mouse > laser, catnip;
laser > catnip, box; catnip > box, yarn; box > yarn, feather).
"""

import pytest

from referee.engine.core import InvalidOptions
from referee.engine.rng import Rng
from referee.games.call_of_katulhu import GAME
from referee.games.call_of_katulhu.cards import DEFAULT_CATALOGUE
from tests.games.call_of_katulhu.katulhu_helpers import MECH, TOYS, N, build, catalogue, events_of, place, play_round

MECH_OPTS = {"catalogue": MECH}
# The placements of most tests below. Slot 1: yarn beats feather (red's removed); slot 2: box
# beats feather (blue's removed); slot 3: mouse and mouse stay; slot 4: laser beats catnip (red's
# removed). Blue keeps [yarn, -, mouse, laser], red keeps [-, box, mouse, -].
BLUE = ("yarn", "feather", "mouse", "laser")
RED = ("feather", "box", "mouse", "catnip")


def codes(verdict):
    return [v.code for v in verdict.violations]


# -- Setup -------------------------------------------------------------------------------

def test_setup_blue_and_red_decks_and_five_cats_face_up():
    """Setup: one player takes the blue deck (seat 0), the other the red deck (seat 1); the
    shuffled cat deck gives 5 cats face up."""
    state = GAME.setup(2, "seed-1")
    GAME.check_state(state)
    assert [p["deck"] for p in state["players"]] == ["blue", "red"]
    assert all(p["hand"] == TOYS and p["placement"] is None and p["cats"] == [] for p in state["players"])
    ids = [c["id"] for c in DEFAULT_CATALOGUE["cats"]]
    shuffled = Rng("seed-1").shuffle(list(ids))
    assert state["table"] == shuffled[:5]
    assert state["cat_deck"] == shuffled[5:]
    assert state["discard_pile"] == [] and state["phase"] == "place" and state["round"] == 1
    assert state["options"] == {"chance": "seeded", "advanced": False, "catalogue": None}
    assert state["rng"]["seed"] == "seed-1" and state["rng"]["counter"] >= 31


@pytest.mark.parametrize("players", [1, 3, 4])
def test_setup_is_for_two_players(players):
    """Setup / Components: two decks of toys, one per player: 2 players only."""
    with pytest.raises(InvalidOptions) as error:
        GAME.setup(players, "s")
    assert error.value.errors[0][0] == "/players"


def test_setup_refuses_unknown_and_bad_options():
    """Setup: options are checked and refused with pointers."""
    with pytest.raises(InvalidOptions) as error:
        GAME.setup(2, "s", {"chance": "dice", "advanced": "yes", "colour": 1})
    assert [p for p, _ in error.value.errors] == ["/options/chance", "/options/advanced", "/options/colour"]


def test_setup_table_chance_starts_with_the_cats_to_turn_up():
    """Setup with chance 'table': the first 5 moves name the cats turned up at the table."""
    state = GAME.setup(2, "s", {"chance": "table"})
    assert state["phase"] == "reveal" and state["table"] == [] and len(state["cat_deck"]) == 32
    moves = GAME.legal_moves(state)
    assert len(moves) == 64 and {m["type"] for m in moves} == {"reveal"}
    for cat in ("white-1", "blue-2", "red-3", "black-4", "yellow-5"):
        verdict = GAME.adjudicate(state, {"type": "reveal", "player": 1, "cat": cat})
        assert verdict.legal
        state = verdict.state
    assert state["table"] == ["white-1", "blue-2", "red-3", "black-4", "yellow-5"]
    assert state["phase"] == "place" and len(state["cat_deck"]) == 27


def test_reveal_of_a_cat_that_cannot_be_in_the_deck_is_illegal():
    """Gameplay (table chance): a cat turned up must be one still in the deck."""
    state = GAME.setup(2, "s", {"chance": "table"})
    state = GAME.adjudicate(state, {"type": "reveal", "player": 0, "cat": "white-1"}).state
    verdict = GAME.adjudicate(state, {"type": "reveal", "player": 0, "cat": "white-1"})
    assert codes(verdict) == ["CAT_NOT_IN_DECK"]
    assert codes(GAME.adjudicate(state, {"type": "reveal", "player": 0, "cat": "no-such-cat"})) == ["CAT_NOT_IN_DECK"]
    # As a match's legal-moves lists it, with the cat still null: the table must name it.
    assert codes(GAME.adjudicate(state, {"type": "reveal", "player": 0, "cat": None})) == ["CAT_REQUIRED"]
    assert codes(GAME.adjudicate(state, place(0, *BLUE))) == ["REVEAL_PENDING"]


def test_reveal_moves_are_refused_in_a_seeded_game():
    """Gameplay, seeded chance: the generator turns the cats up; a reveal move is refused."""
    state = GAME.setup(2, "s")
    assert codes(GAME.adjudicate(
        state, {"type": "reveal", "player": 0, "cat": state["cat_deck"][0]})) == ["REVEAL_NOT_ACCEPTED"]


# -- Gameplay: placement -----------------------------------------------------------------

def test_both_players_place_in_the_same_phase():
    """Gameplay: players simultaneously place 4 toys; legal_moves lists both players' 360
    placements (4 different toys of 6, in order: 6*5*4*3)."""
    state = GAME.setup(2, "s")
    moves = GAME.legal_moves(state)
    assert len(moves) == 720
    assert sum(m["player"] == 0 for m in moves) == 360
    assert all(len(set(m["toys"])) == 4 for m in moves)
    after = GAME.adjudicate(state, place(1, *RED)).state
    moves = GAME.legal_moves(after)
    assert len(moves) == 360 and {m["player"] for m in moves} == {0}


def test_placement_is_hidden_until_both_are_in():
    """Gameplay: toys are placed face down; the state keeps the first placement, the other
    player's view hides it, and nothing is revealed until both players have placed."""
    state = build(["a", "b", "c", "d", "e"], options=MECH_OPTS)
    verdict = GAME.adjudicate(state, place(0, *BLUE))
    assert verdict.legal
    assert verdict.events == [{"type": "toys_placed", "player": 0}]
    after = verdict.state
    assert after["players"][0]["placement"] == list(BLUE)
    assert after["players"][0]["hand"] == ["catnip", "box"]
    assert after["table"] == ["a", "b", "c", "d", "e"]
    other = GAME.view(after, 1)
    assert "placement" not in other["players"][0] and "hand" not in other["players"][0]
    assert other["players"][0]["placed"] is True and other["players"][0]["hand_size"] == 2
    assert GAME.view(after, 0)["players"][0]["placement"] == list(BLUE)
    spectator = GAME.view(after, None)
    assert all("placement" not in p for p in spectator["players"])
    assert "rng" not in spectator and spectator["cat_deck"] == {"size": 7}


def test_placing_twice_in_a_round_is_illegal():
    """Gameplay: each player fills their 4 slots once per round."""
    state = GAME.adjudicate(build(["a", "b", "c", "d", "e"], options=MECH_OPTS), place(0, *BLUE)).state
    assert codes(GAME.adjudicate(state, place(0, *RED))) == ["ALREADY_PLACED"]


@pytest.mark.parametrize("toys, code", [
    (["yarn", "yarn", "mouse", "laser"], "TOY_PLACED_TWICE"),
    (["yarn", "ball", "mouse", "laser"], "TOY_NOT_IN_DECK"),
    (["yarn", "mouse", "laser"], "WRONG_TOY_COUNT"),
    (["yarn", "mouse", "laser", "box", "catnip"], "WRONG_TOY_COUNT"),
])
def test_a_placement_is_4_different_toys_of_your_deck(toys, code):
    """Gameplay: 4 selected toys, one per slot, from the player's own deck of 6."""
    state = build(["a", "b", "c", "d", "e"], options=MECH_OPTS)
    verdict = GAME.adjudicate(state, {"type": "place", "player": 0, "toys": toys})
    assert codes(verdict) == [code] and verdict.state is None
    assert verdict.violations[0].rule == "Gameplay"


def test_only_placements_while_placing():
    """Gameplay: a discard is not a move of the placement phase; seats are 0 and 1 only."""
    state = build(["a", "b", "c", "d", "e"], options=MECH_OPTS)
    assert codes(GAME.adjudicate(state, {"type": "discard", "player": 0, "cat": "a"})) == ["PLACEMENT_PENDING"]
    assert codes(GAME.adjudicate(state, place(2, *BLUE))) == ["NO_SUCH_PLAYER"]


def test_standard_game_free_choice_of_4_of_6_every_round():
    """Components / Gameplay (standard game): decks of 6 toys, 4 selected freely each round;
    the same 4 may be played again."""
    state = build(["b", "e", "i", "j", "l"], options=MECH_OPTS)
    after = play_round(state, BLUE, RED).state
    assert after["players"][0]["must_play"] == []
    assert len([m for m in GAME.legal_moves(after) if m["player"] == 0]) == 360
    assert GAME.adjudicate(after, place(0, *BLUE)).legal


# -- Gameplay: the reveal ---------------------------------------------------------------

def test_reveal_slot_by_slot_removes_beaten_toys_and_leaves_the_slot_empty():
    """Gameplay: reveal slot 1 to 4; a toy countered by the other's toy in the same slot is
    removed and its slot stays empty (no consolidation): blue keeps [yarn, -, mouse, laser] and
    does not attract b [yarn, mouse, laser, open], which it would if the cards slid left."""
    state = build(["a", "b", "c", "d", "e"], options=MECH_OPTS)
    verdict = play_round(state, BLUE, RED)
    assert events_of(verdict, "toys_revealed") == [{"type": "toys_revealed", "slots": [
        {"slot": 1, "toys": ["yarn", "feather"], "removed": [1]},
        {"slot": 2, "toys": ["feather", "box"], "removed": [0]},
        {"slot": 3, "toys": ["mouse", "mouse"], "removed": []},
        {"slot": 4, "toys": ["laser", "catnip"], "removed": [1]},
    ]}]
    after = verdict.state
    assert after["players"][0]["cats"] == ["a"]
    assert "b" in after["table"]


def test_attracting_cats_open_slots_and_a_cat_attracted_by_both_is_discarded():
    """Gameplay: a cat is attracted when ALL its shown toys are matched in their slots (an open
    slot accepts anything, even an empty slot: a's slot 2); e shows feather in slot 2, which blue
    lost, so nobody attracts it; d (mouse in slot 3) is attracted by both and discarded."""
    state = build(["a", "b", "c", "d", "e"], options=MECH_OPTS)
    verdict = play_round(state, BLUE, RED)
    after = verdict.state
    assert after["players"][0]["cats"] == ["a"]
    assert after["players"][1]["cats"] == ["c"]
    assert after["discard_pile"] == ["d"]
    assert events_of(verdict, "cat_discarded") == [{"type": "cat_discarded", "cat": "d", "reason": "attracted_by_both"}]
    # refilled to 5 from the top of the deck (f, g, h, ... in catalogue order in this state)
    assert after["table"] == ["b", "e", "f", "g", "h"]
    assert after["cat_deck"] == ["i", "j", "k", "l"]
    assert events_of(verdict, "cats_turned_up") == [{"type": "cats_turned_up", "cats": ["f", "g", "h"]}]
    assert after["phase"] == "place" and after["round"] == 2 and after["quiet_rounds"] == 0
    assert all(p["hand"] == TOYS and p["placement"] is None for p in after["players"])


def test_several_cats_can_be_won_in_one_round():
    """Gameplay: multiple cats may be won in a single round (blue: a and f, both in table order)."""
    state = build(["f", "b", "a", "e", "c"], options=MECH_OPTS)
    after = play_round(state, BLUE, RED).state
    assert after["players"][0]["cats"] == ["f", "a"]
    assert after["players"][1]["cats"] == ["c"]
    assert after["table"][:2] == ["b", "e"] and len(after["table"]) == 5


def test_round_order_does_not_matter_red_may_place_first():
    """Gameplay: placement is simultaneous, so the order the two moves arrive in is free."""
    state = build(["a", "b", "c", "d", "e"], options=MECH_OPTS)
    first = GAME.adjudicate(state, place(1, *RED)).state
    after = GAME.adjudicate(first, place(0, *BLUE)).state
    assert after["players"][0]["cats"] == ["a"] and after["players"][1]["cats"] == ["c"]


# -- Gameplay: refill and reshuffle -----------------------------------------------------

def test_refill_reshuffles_the_discard_pile_when_the_deck_runs_out():
    """Gameplay: refill to 5; with no cat left in the deck, the discard pile is reshuffled
    (seeded generator) into the deck, then the refill goes on."""
    # deck [f]; discard [g..l]; the round discards d too, then needs 3 cats
    state = build(["a", "b", "c", "d", "e"], deck=["f"], options=MECH_OPTS, rest="discard")
    assert state["discard_pile"] == ["g", "h", "i", "j", "k", "l"]
    verdict = play_round(state, BLUE, RED)
    after = verdict.state
    shuffled = Rng("test").shuffle(["g", "h", "i", "j", "k", "l", "d"])
    assert after["table"] == ["b", "e", "f"] + shuffled[:2]
    assert after["cat_deck"] == shuffled[2:]
    assert after["discard_pile"] == []
    assert events_of(verdict, "discard_pile_reshuffled") == [{"type": "discard_pile_reshuffled", "cats": 7}]
    assert after["rng"]["counter"] > 0
    GAME.check_state(after)


def test_refill_reshuffle_with_table_chance_then_reveal_moves():
    """Gameplay, table chance: the reshuffled pile becomes the deck and the cats turned up are
    named by reveal moves, each checked to be possible."""
    state = build(["a", "b", "c", "d", "e"], options={"catalogue": MECH, "chance": "table"}, rest="discard")
    verdict = play_round(state, BLUE, RED)
    after = verdict.state
    assert after["phase"] == "reveal" and after["table"] == ["b", "e"]
    assert after["cat_deck"] == ["d", "f", "g", "h", "i", "j", "k", "l"] and after["discard_pile"] == []
    assert codes(GAME.adjudicate(after, {"type": "reveal", "player": 0, "cat": "a"})) == ["CAT_NOT_IN_DECK"]
    for cat in ("l", "d", "g"):
        after = GAME.adjudicate(after, {"type": "reveal", "player": 0, "cat": cat}).state
    assert after["table"] == ["b", "e", "l", "d", "g"] and after["phase"] == "place"


def test_game_ends_when_no_cat_is_left_to_refill():
    """Gameplay: no cat in the deck and no discard pile: the game ends and points are counted
    (blue a + f: 2 blue = 5 points; red c: 1 yellow = 2 points)."""
    small = catalogue([("a", "blue", ["yarn", N, "mouse", "laser"]), ("b", "red", ["yarn", "mouse", "laser", N]),
                       ("c", "yellow", [N, "box", "mouse", N]), ("e", "black", [N, "feather", N, N]),
                       ("f", "blue", ["yarn", N, N, N])])
    state = build(["a", "b", "c", "e", "f"], options={"catalogue": small})
    verdict = play_round(state, BLUE, RED)
    after = verdict.state
    assert after["finished"] and after["end"] == "no_cats_left" and after["phase"] == "over"
    assert after["table"] == ["b", "e"]
    assert verdict.outcome.winners == (0,) and verdict.scores["players"][0]["total"] == 5
    assert verdict.scores["players"][1]["total"] == 2
    assert GAME.legal_moves(after) == []
    assert codes(GAME.adjudicate(after, place(0, *BLUE))) == ["GAME_OVER"]


def test_game_ends_after_reshuffling_the_last_discarded_cat():
    """Gameplay: the discarded d is reshuffled and turned up; then nothing is left: game over."""
    six = catalogue([("a", "blue", ["yarn", N, "mouse", "laser"]), ("b", "red", ["yarn", "mouse", "laser", N]),
                     ("c", "yellow", [N, "box", "mouse", N]), ("d", "white", [N, N, "mouse", N]),
                     ("e", "black", [N, "feather", N, N])])
    state = build(["a", "b", "c", "d", "e"], options={"catalogue": six})
    verdict = play_round(state, BLUE, RED)
    after = verdict.state
    assert after["table"] == ["b", "e", "d"] and after["end"] == "no_cats_left"
    assert after["cat_deck"] == [] and after["discard_pile"] == []


# -- Gameplay: the stall rule -----------------------------------------------------------

QUIET_TABLE = ["b", "e", "i", "j", "l"]   # none of these is attracted by BLUE v RED


def test_one_quiet_round_is_not_a_stall():
    """Gameplay, stall rule: one round without any cat removed counts 1 and play goes on."""
    after = play_round(build(QUIET_TABLE, options=MECH_OPTS), BLUE, RED).state
    assert after["quiet_rounds"] == 1 and after["phase"] == "place" and after["table"] == QUIET_TABLE


def test_a_cat_removed_resets_the_quiet_round_count():
    """Gameplay, stall rule: "2 rounds go by" counts rounds in a row; a removed cat restarts it."""
    after = play_round(build(["a", "b", "c", "d", "e"], options=MECH_OPTS, quiet_rounds=1), BLUE, RED).state
    assert after["quiet_rounds"] == 0 and after["phase"] == "place"


def test_two_quiet_rounds_let_each_player_discard_a_cat():
    """Gameplay, stall rule: after 2 rounds without any cat removed, each player selects 1 cat
    of the table to discard (a move each, hidden until both chose); the two are replaced from
    the deck as usual."""
    state = build(QUIET_TABLE, options=MECH_OPTS, quiet_rounds=1)
    verdict = play_round(state, BLUE, RED)
    stalled = verdict.state
    assert stalled["phase"] == "stall" and stalled["quiet_rounds"] == 2
    assert events_of(verdict, "stall") == [{"type": "stall", "quiet_rounds": 2}]
    moves = GAME.legal_moves(stalled)
    assert sorted((m["player"], m["cat"]) for m in moves) == sorted((s, c) for s in (0, 1) for c in QUIET_TABLE)
    assert codes(GAME.adjudicate(stalled, place(0, *BLUE))) == ["STALL_DISCARD_PENDING"]
    assert codes(GAME.adjudicate(stalled, {"type": "discard", "player": 0, "cat": "a"})) == ["CAT_NOT_ON_TABLE"]
    one = GAME.adjudicate(stalled, {"type": "discard", "player": 1, "cat": "e"})
    assert one.legal and one.events == [{"type": "discard_chosen", "player": 1}]
    assert GAME.view(one.state, 0)["players"][1] == {
        "deck": "red", "hand_size": 6, "placed": False, "must_play": [], "discard_chosen": True, "cats": []}
    assert codes(GAME.adjudicate(one.state, {"type": "discard", "player": 1, "cat": "b"})) == ["ALREADY_CHOSE_DISCARD"]
    assert [m["player"] for m in GAME.legal_moves(one.state)] == [0] * 5
    two = GAME.adjudicate(one.state, {"type": "discard", "player": 0, "cat": "b"})
    after = two.state
    # discarded in seat order; the deck here is a, c, d, f, g, h, k (catalogue order)
    assert after["discard_pile"] == ["b", "e"]
    assert after["table"] == ["i", "j", "l", "a", "c"]
    assert after["phase"] == "place" and after["quiet_rounds"] == 0
    assert all(p["discard"] is None for p in after["players"])
    GAME.check_state(after)


def test_both_players_choosing_the_same_cat_discards_it_once():
    """Gameplay, stall rule (rules notes): both chose b: b alone is discarded and replaced."""
    stalled = build(QUIET_TABLE, options=MECH_OPTS, phase="stall", quiet_rounds=2, discards=("b", None))
    verdict = GAME.adjudicate(stalled, {"type": "discard", "player": 1, "cat": "b"})
    after = verdict.state
    assert after["discard_pile"] == ["b"]
    assert after["table"] == ["e", "i", "j", "l", "a"]
    assert events_of(verdict, "cat_discarded") == [{"type": "cat_discarded", "cat": "b", "reason": "stall",
                                                    "players": [0, 1]}]


# -- Gameplay: 7 cats end the game ---------------------------------------------------------

def test_first_player_to_collect_7_cats_ends_the_game_immediately():
    """Gameplay: blue holds 6 cats and attracts a: 7 cats, the game ends at once (no refill).
    Red's cat c of the same round counts (rules notes). Blue: blue a+k 5, red g+l 5, yellow h 2,
    white i 4, black j 4 = 20; red: yellow c 2."""
    state = build(["a", "b", "c", "d", "e"], cats=(["g", "h", "i", "j", "k", "l"], []), options=MECH_OPTS)
    verdict = play_round(state, BLUE, RED)
    after = verdict.state
    assert after["finished"] and after["end"] == "seven_cats"
    assert after["players"][0]["cats"] == ["g", "h", "i", "j", "k", "l", "a"]
    assert after["players"][1]["cats"] == ["c"]
    assert after["table"] == ["b", "e"] and after["cat_deck"] == ["f"]
    assert verdict.scores["players"][0]["total"] == 20 and verdict.scores["players"][1]["total"] == 2
    assert verdict.outcome.finished and verdict.outcome.winners == (0,)
    assert events_of(verdict, "game_over") == [{"type": "game_over", "reason": "seven_cats", "winners": [0],
                                                "tiebreak": None}]


def test_both_players_reaching_7_in_the_same_round_end_the_game_and_points_decide():
    """Gameplay (rules notes): both reach 7 cats in one round: the game ends and the points
    decide. Blue: 6 blue + a (blue) = 7 blue: 2*7 + 21 = 35. Red: 6 red + c (yellow): 2*6+15 = 27,
    + 2 = 29."""
    cats = [("a", "blue", ["yarn", N, "mouse", "laser"]), ("b", "red", ["yarn", "mouse", "laser", N]),
            ("c", "yellow", [N, "box", "mouse", N]), ("d", "white", [N, N, "mouse", N]),
            ("e", "black", [N, "feather", N, N])]
    cats += [(f"b{i}", "blue", ["box", N, N, N]) for i in range(6)]
    cats += [(f"r{i}", "red", ["box", N, N, N]) for i in range(6)]
    state = build(["a", "b", "c", "d", "e"], cats=([f"b{i}" for i in range(6)], [f"r{i}" for i in range(6)]),
                  options={"catalogue": catalogue(cats)})
    verdict = play_round(state, BLUE, RED)
    assert verdict.state["end"] == "seven_cats"
    assert [p["total"] for p in verdict.scores["players"]] == [35, 29]
    assert verdict.outcome.winners == (0,)


# -- Optional Advanced Game Rule ----------------------------------------------------------

def test_advanced_rule_first_round_is_free():
    """Optional Advanced Game Rule: nothing was set aside before the first round."""
    state = GAME.setup(2, "s", {"advanced": True})
    assert len(GAME.legal_moves(state)) == 720


def test_advanced_rule_set_aside_toys_must_be_played_next_round():
    """Optional Advanced Game Rule: the 2 toys set aside this round MUST be played next round;
    a placement that breaks it is illegal (not penalised), and legal_moves lists the 144
    placements that keep it (2 more toys of 4, in any of 4! orders: 6 * 24)."""
    state = build(QUIET_TABLE, options={"catalogue": MECH, "advanced": True})
    after = play_round(state, BLUE, RED).state
    assert after["players"][0]["must_play"] == ["catnip", "box"]
    assert after["players"][1]["must_play"] == ["yarn", "laser"]
    verdict = GAME.adjudicate(after, place(0, *BLUE))
    assert codes(verdict) == ["SET_ASIDE_NOT_PLAYED"]
    assert verdict.violations[0].rule == "Optional Advanced Game Rule"
    assert verdict.violations[0].params == {"toys": "catnip, box"}   # both set-aside toys are named
    assert codes(GAME.adjudicate(after, place(0, "catnip", "yarn", "mouse", "laser"))) == ["SET_ASIDE_NOT_PLAYED"]
    assert GAME.adjudicate(after, place(0, "box", "yarn", "catnip", "laser")).legal
    mine = [m for m in GAME.legal_moves(after) if m["player"] == 0]
    assert len(mine) == 144 and all({"catnip", "box"} <= set(m["toys"]) for m in mine)


def test_view_shows_the_toys_set_aside():
    """Optional Advanced Game Rule: the set-aside toys are known to both (the others were shown)."""
    after = play_round(build(QUIET_TABLE, options={"catalogue": MECH, "advanced": True}), BLUE, RED).state
    assert GAME.view(after, 1)["players"][0]["must_play"] == ["catnip", "box"]


def test_cats_won_are_visible_to_the_other_player():
    """Gameplay: cats that you have won must be visible to the other player (and spectators)."""
    after = play_round(build(["a", "b", "c", "d", "e"], options=MECH_OPTS), BLUE, RED).state
    assert GAME.view(after, 1)["players"][0]["cats"] == ["a"]
    assert GAME.view(after, None)["players"][1]["cats"] == ["c"]
    assert GAME.view(after, 1)["discard_pile"] == ["d"]


def test_replay_of_a_round_then_an_illegal_move():
    """Gameplay through replay: two placements resolve the round; a third placement by the same
    player in the next round is fine, a repeated one is reported as the first illegal move."""
    state = build(["a", "b", "c", "d", "e"], options=MECH_OPTS)
    moves = [place(0, *BLUE), place(1, *RED), place(1, *RED), place(1, *BLUE)]
    final, verdicts, illegal_at = GAME.replay(state, moves)
    assert illegal_at == 3 and [v.legal for v in verdicts] == [True, True, True, False]
    assert verdicts[3].violations[0].code == "ALREADY_PLACED"
    assert final["players"][1]["placement"] == list(RED) and final["round"] == 2
