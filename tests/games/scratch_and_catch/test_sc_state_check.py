"""The state check's two passes agree: the set-first check of where the cards are (run on
every state judged) passes exactly when the detailed pass, which gives the pointers, finds
nothing (rulebook, Setup: every card of the deck is in exactly one place; Game Progress: the
line's piles in ascending values, a hand of at most 4 cards)."""

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.core import InvalidState
from referee.games.scratch_and_catch import GAME
from referee.games.scratch_and_catch import cards as C
from referee.games.scratch_and_catch.rules import MAX_FLEAS, _card_place_errors, _cards_in_place, _table_facts
from tests.games.scratch_and_catch.sc_helpers import build
from tests.support.misplaced import corrupted_position


def _places(state):
    """Every list of cards in the state, with a name."""
    places = [("draw_pile", state["draw_pile"])]
    for seat, player in enumerate(state["players"]):
        places += [(f"hand {seat}", player["hand"]), (f"collected {seat}", player["collected"])]
    places += [(f"pile {p}", pile["cards"]) for p, pile in enumerate(state["line"])]
    return places


def _corrupt(state, rnd):
    """One change of ``state`` (in place), some of which keep it consistent."""
    places = [cards for _name, cards in _places(state) if cards]
    kind = rnd.choice(["duplicate", "remove", "unknown", "other value", "swap piles", "pile value", "fleas",
                       "hand size", "empty pile", "move", "move to collected"])
    line, players = state["line"], state["players"]
    if kind == "duplicate":
        rnd.choice(places).append(rnd.choice(rnd.choice(places)))
    elif kind == "remove":
        cards = rnd.choice(places)
        cards.pop(rnd.randrange(len(cards)))
    elif kind == "unknown":
        cards = rnd.choice(places)
        cards[rnd.randrange(len(cards))] = rnd.choice(["C5-99", "X1-1", "C11-1", "S1"])
    elif kind == "other value" and any(pile["cards"] for pile in line):  # (an "empty pile" change may come first)
        pile = rnd.choice([pile for pile in line if pile["cards"]])
        others = [card for card in state["draw_pile"] + [c for p in players for c in p["collected"]]
                  if C.card_value(card) != pile["value"]]
        pile["cards"][0] = others[0] if others else "C5-99"
    elif kind == "swap piles" and len(line) > 1:
        i = rnd.randrange(len(line) - 1)
        line[i], line[i + 1] = line[i + 1], line[i]
    elif kind == "pile value" and line:
        rnd.choice(line)["value"] = rnd.choice([0, 11, -3, rnd.randint(1, 10)])
    elif kind == "fleas":
        rnd.choice(players)["fleas"] = rnd.choice([-1, MAX_FLEAS + 1, MAX_FLEAS, 0, 7])
    elif kind == "hand size":
        hand = rnd.choice(players)["hand"]
        while len(hand) <= C.HAND_SIZE and state["draw_pile"]:
            hand.append(state["draw_pile"].pop())
    elif kind == "empty pile" and line:
        pile = rnd.choice(line)
        state["draw_pile"].extend(pile["cards"])
        pile["cards"].clear()
    elif kind == "move":  # still consistent unless a hand grows past 4 or a pile gets a wrong value
        source = rnd.choice(places)
        card = source.pop(rnd.randrange(len(source)))
        rnd.choice([cards for _name, cards in _places(state)]).append(card)
    elif kind == "move to collected":  # always consistent
        source = rnd.choice([state["draw_pile"]] + [p["hand"] for p in players])
        if source:
            rnd.choice(players)["collected"].append(source.pop())
    return kind


@st.composite
def _corrupted_positions(draw):
    """A position of a random game (2 to 6 players, either chance) after up to 3 changes."""
    state = GAME.setup(draw(st.integers(2, 6)), draw(st.text(min_size=1, max_size=8)),
                       {"chance": draw(st.sampled_from(["seeded", "table"]))})
    return corrupted_position(GAME, state, draw(st.integers(0, 60)), draw(st.integers(0, 3)),
                              draw(st.randoms(use_true_random=False)), _corrupt)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=_corrupted_positions())
def test_the_set_first_check_passes_exactly_when_the_detailed_pass_finds_nothing(state):
    facts = _table_facts(len(state["players"]), state["options"])
    detailed = _card_place_errors(state, facts.known)
    assert _cards_in_place(state["players"], state["line"], state["draw_pile"], facts.position,
                           facts.values) == (not detailed)
    if detailed:
        with pytest.raises(InvalidState) as raised:
            GAME.check_state(state)
        assert set(detailed) <= set(raised.value.errors)


def test_each_kind_of_misplaced_card_is_refused_by_both_passes():
    """Cases worked out from the rules: each breaks one of them, and both passes say so."""
    base = GAME.setup(3, "check", {})
    facts = _table_facts(3, base["options"])

    def both(state):
        fast = _cards_in_place(state["players"], state["line"], state["draw_pile"], facts.position, facts.values)
        return fast, [pointer for pointer, _detail in _card_place_errors(state, facts.known)]

    assert both(base) == (True, [])
    twice = copy.deepcopy(base)
    twice["draw_pile"].append(twice["players"][0]["hand"][0])   # one card in two places
    assert both(twice) == (False, [f"/draw_pile/{len(base['draw_pile'])}"])
    gone = copy.deepcopy(base)
    gone["draw_pile"].pop()                                     # one card in no place
    assert both(gone) == (False, [""])
    swapped = copy.deepcopy(base)
    swapped["line"][0], swapped["line"][1] = swapped["line"][1], swapped["line"][0]   # piles out of order
    assert both(swapped) == (False, ["/line/1/value"])
    big_hand = copy.deepcopy(base)
    big_hand["players"][1]["hand"].append(big_hand["draw_pile"].pop())   # 5 cards in hand
    assert both(big_hand) == (False, ["/players/1/hand"])
    negative = copy.deepcopy(base)
    negative["players"][2]["fleas"] = -1
    assert both(negative) == (False, ["/players/2/fleas"])
    spelled = copy.deepcopy(base)                               # a hand that is not a list: the detailed pass says why
    spelled["players"][0]["hand"] = "".join(base["players"][0]["hand"][:1])
    fast, pointers = both(spelled)
    assert fast is False and "/players/0/hand/0" in pointers


@pytest.mark.parametrize("value", [0.5, 7.5, 11, 0])
def test_a_pile_value_no_card_has_is_refused_with_its_pointer(value):
    """Game Progress: the line's piles hold cards numbered 1 to 10. A value no card has (a
    fraction, 0, 11; the HTTP schema refuses these first, the engine's callers may not) is an
    impossible state, never a crash."""
    state = GAME.setup(2, "s", {})
    state["line"][0]["value"] = value
    with pytest.raises(InvalidState) as refused:
        GAME.check_state(state)
    card = state["line"][0]["cards"][0]
    assert ("/line/0/cards/0", f"card {card} does not have value {value}") in refused.value.errors


def test_a_deck_that_is_not_an_object_is_refused():
    state = GAME.setup(2, "s", {})
    state["options"]["deck"] = float("inf")
    with pytest.raises(InvalidState) as refused:
        GAME.check_state(state)
    assert refused.value.errors == [("/options/deck", "must be an object of counts (cat, scratch)")]


# Every state of a game in progress has a move (Game Progress: a turn is two cards, then the
# refill to 4 cards from the draw pile; End of the Game: a player who cannot refill ends the
# game, and a final turn with no card to play passes). A refill step with nothing to draw or
# a full hand, and a player to act with no card in hand and none in the pile, are reached by
# no game: the check refuses them (before, they were judged: no move was legal, or a draw into
# a full hand gave a hand of 5, which the check refuses).

def _refusal(**fields):
    with pytest.raises(InvalidState) as refused:
        build(**fields)
    return refused.value.errors


def test_a_refill_step_needs_a_card_to_draw_and_a_hand_short_of_4():
    hands = [["C1-1", "C2-1", "C3-1"], ["C5-1", "C6-1", "C7-1", "C8-1"]]
    line = [["C9-1"]]
    short = build(hands, line, pile=["C4-1"], turn=0, step="refill", chance="table", extra_pile=False)
    assert GAME.legal_moves(short) == [{"type": "draw", "player": 0, "card": "C4-1"}]
    step_error = ("/turn/step", "a refill step lasts while the draw pile has cards and the hand holds fewer than 4")
    assert step_error in _refusal(hands=hands, line=line, collected=[["C4-1"], []], turn=0, step="refill",
                                  chance="table", extra_pile=False)
    full = [["C1-1", "C2-1", "C3-1", "C4-1"], hands[1]]
    assert step_error in _refusal(hands=full, line=line, pile=["C10-1"], turn=0, step="refill", chance="table",
                                  extra_pile=False)


def test_the_player_to_act_has_a_card_in_hand_or_in_the_draw_pile():
    hands = [[], ["C5-1", "C6-1", "C7-1", "C8-1"]]
    final = {"ended_by": 1, "reason": "cannot_refill", "remaining": [0]}
    # An empty hand with a card in the pile: the pile play is the move.
    with_pile = build(hands, [["C9-1"]], pile=["C4-1"], turn=0, final_turns=final, extra_pile=False)
    assert GAME.legal_moves(with_pile) == [{"type": "play", "player": 0, "source": "pile"}]
    for step in ("first", "second"):
        errors = _refusal(hands=hands, line=[["C9-1"]], collected=[["C4-1"], []], turn=0, step=step,
                          final_turns=final, extra_pile=False)
        assert ("/turn/player", "the player to act has no card in hand and the draw pile is empty: that turn "
                                "ends or passes (End of the Game)") in errors
    # A finished game has no player to act.
    build(hands, [["C9-1"]], collected=[["C4-1"], []], turn=1,
          final_turns={"ended_by": 1, "reason": "cannot_refill", "remaining": []}, finished=True, extra_pile=False)


def test_before_the_final_turns_every_player_but_the_one_to_act_holds_4_cards():
    """Game Progress: each turn ends with the refill to 4 cards; End of the Game: a player who
    cannot refill ends the game. A player holding fewer outside the final turns was accepted,
    and a legal move then gave a state the check refuses (the next player to act, with no card
    and an empty pile)."""
    hands = [["C1-1", "C1-2", "C1-3", "C1-4"], []]
    errors = _refusal(hands=hands, line=[], pile=["C1-5"], turn=0, step="second", extra_pile=False)
    assert errors == [("/players/1/hand", "before the final turns, every player but the one to act holds 4 cards "
                                          "(each turn ends with the refill)")]
    # The player to act may hold fewer (a card played, or a pile play to come); so may anyone
    # during the final turns.
    build([["C1-1"], ["C2-1", "C2-2", "C2-3", "C2-4"]], [], pile=["C1-5"], turn=0, step="second")
    build(hands, [], pile=["C1-5"], turn=0, step="second", extra_pile=False,
          final_turns={"ended_by": 1, "reason": "cannot_refill", "remaining": [0]})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=_corrupted_positions())
def test_a_state_the_check_accepts_has_a_move_and_every_move_leads_to_one_it_accepts(state):
    try:
        GAME.check_state(state)
    except InvalidState:
        return
    moves = GAME.legal_moves(state)
    assert bool(moves) != state["finished"]
    for move in moves:
        verdict = GAME.adjudicate(state, move, checked=True)
        assert verdict.legal, verdict.violations
        try:
            GAME.check_state(verdict.state)
        except InvalidState as refused:
            # The one exception: fleas are judged up to MAX_FLEAS, and a move may take a player
            # at the bound past it (the answer's states are not bounded by it, rules.py).
            for pointer, detail in refused.errors:
                seat = int(pointer.split("/")[2])
                assert pointer == f"/players/{seat}/fleas" and detail == f"at most {MAX_FLEAS} fleas are judged"
                assert state["players"][seat]["fleas"] <= MAX_FLEAS < verdict.state["players"][seat]["fleas"]
