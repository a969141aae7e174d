"""The state check of Call of Katulhu refuses a state exactly when a toy or a cat is out of
place (rulebook, Setup: each player holds the 6 toys of their deck; every cat card is in the
deck, on the table, won or discarded, once), judged against counts written from the catalogue."""

import copy
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.call_of_katulhu import GAME
from referee.games.call_of_katulhu.cards import DEFAULT_CATALOGUE
from tests.support.misplaced import corrupted_position, refusal

TOYS = list(DEFAULT_CATALOGUE["toys"])
CATS = [cat["id"] for cat in DEFAULT_CATALOGUE["cats"]]


def _in_place(state) -> bool:
    """Each player: the 6 toys once between hand and placement, the hand in catalogue order;
    every cat of the catalogue once."""
    for player in state["players"]:
        held = player["hand"] + (player["placement"] or [])
        if Counter(held) != Counter(TOYS) or player["hand"] != sorted(player["hand"], key=TOYS.index):
            return False
    cats = [cat for player in state["players"] for cat in player["cats"]]
    cats += state["table"] + state["cat_deck"] + state["discard_pile"]
    return Counter(cats) == Counter(CATS)


def _corrupt(state, rnd):
    """One change of the toys or cats (in place); a swap of two cats keeps the state consistent."""
    player = rnd.choice(state["players"])
    hand = player["hand"]
    kind = rnd.choice(["toy twice", "toy missing", "hand order", "cat twice", "cat missing", "unknown cat",
                       "swap cats"])
    if kind == "toy twice" and hand:
        hand.append(rnd.choice(hand))
    elif kind == "toy missing" and hand:
        hand.pop(rnd.randrange(len(hand)))
    elif kind == "hand order" and len(hand) > 1:
        i = rnd.randrange(len(hand) - 1)
        hand[i], hand[i + 1] = hand[i + 1], hand[i]
    elif kind == "cat twice":
        state["cat_deck"].append(rnd.choice(state["table"] + state["cat_deck"]))
    elif kind == "cat missing" and state["cat_deck"]:
        state["cat_deck"].pop(rnd.randrange(len(state["cat_deck"])))
    elif kind == "unknown cat" and state["cat_deck"]:
        state["cat_deck"][0] = "green-1"
    elif kind == "swap cats" and state["cat_deck"]:
        chosen = {player["discard"] for player in state["players"]}   # a cat chosen for discard stays
        free = [i for i, cat in enumerate(state["table"]) if cat not in chosen]
        if free:
            i, j = rnd.choice(free), rnd.randrange(len(state["cat_deck"]))
            state["table"][i], state["cat_deck"][j] = state["cat_deck"][j], state["table"][i]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=8), advanced=st.booleans(), steps=st.integers(0, 40),
       changes=st.integers(0, 2), rnd=st.randoms(use_true_random=False))
def test_a_state_is_refused_exactly_when_a_toy_or_cat_is_out_of_place(seed, advanced, steps, changes, rnd):
    state = corrupted_position(GAME, GAME.setup(2, seed, {"advanced": advanced}), steps, changes, rnd, _corrupt)
    if state["finished"]:
        return
    errors = refusal(GAME, state)
    assert (errors is None) == _in_place(state), errors


def test_each_kind_of_misplaced_toy_or_cat_has_its_pointer():
    state = GAME.setup(2, "check", {})
    GAME.check_state(state)

    def pointers(change):
        bad = copy.deepcopy(state)
        change(bad)
        errors = refusal(GAME, bad)
        assert errors is not None, "accepted"
        return errors

    # The default catalogue's toys, in catalogue order: yarn, feather, mouse, laser, catnip, box.
    assert pointers(lambda s: s["players"][0]["hand"].pop()) == [
        ("/players/0/hand", "the hand and the placement hold each of the 6 toys exactly once; missing: box")]
    # An unknown toy and a repeated one are each named at their own place, with the toy missing
    # (the order of such a hand is not judged).
    assert pointers(lambda s: s["players"][0]["hand"].__setitem__(2, "ball")) == [
        ("/players/0/hand/2", "unknown toy id 'ball'"),
        ("/players/0/hand", "the hand and the placement hold each of the 6 toys exactly once; missing: mouse")]
    assert pointers(lambda s: s["players"][1]["hand"].__setitem__(2, "feather")) == [
        ("/players/1/hand/2", "toy feather is also at /players/1/hand/1"),
        ("/players/1/hand", "the hand and the placement hold each of the 6 toys exactly once; missing: mouse")]
    assert pointers(lambda s: s["players"][1]["hand"].reverse()) == [
        ("/players/1/hand", "the hand is kept in catalogue order")]
    first_on_table = state["table"][0]
    assert pointers(lambda s: s["cat_deck"].append(first_on_table)) == [
        (f"/cat_deck/{len(state['cat_deck'])}", f"cat {first_on_table} is also at /table/0")]
    last_in_deck = state["cat_deck"][-1]
    assert pointers(lambda s: s["cat_deck"].pop()) == [("", f"cats missing from every place: {last_in_deck}")]
