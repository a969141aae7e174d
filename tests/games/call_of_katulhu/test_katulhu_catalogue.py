"""Call of Katulhu catalogue (Components, Cat Cards) and state consistency (check_state)."""

import copy
import json
from pathlib import Path

import pytest

from referee.engine.core import InvalidOptions, InvalidState
from referee.games.call_of_katulhu import GAME
from referee.games.call_of_katulhu.cards import DEFAULT_CATALOGUE
from tests.games.call_of_katulhu.katulhu_helpers import MECH, N, build, catalogue

SHARED = Path("/work/shared/games/call-of-katulhu.default-catalogue.json")


@pytest.mark.skipif(not SHARED.exists(), reason="shared catalogue not present")
def test_default_catalogue_is_the_shared_one():
    """Components: the package's copy equals shared/games/call-of-katulhu.default-catalogue.json."""
    shared = json.loads(SHARED.read_text())
    assert DEFAULT_CATALOGUE["toys"] == shared["toys"]
    assert DEFAULT_CATALOGUE["beats"] == shared["beats"]
    assert DEFAULT_CATALOGUE["cats"] == shared["cats"]


def test_catalogue_says_it_is_provisional():
    """Components: the rulebook publishes neither toys, beats nor cats: the default is provisional."""
    info = GAME.catalogue()
    assert info["provisional"] is True and "provisional" in info["note"]
    assert len(info["cats"]) == 32 and info["cat_count"] == 32 and len(info["toys"]) == 6
    assert info["decks"] == ["blue", "red"]
    assert info["set_points"]["black"][:4] == [4, 12, 21, 32]
    assert info["set_points"]["blue"][:4] == [2, 5, 9, 14]
    assert sorted(c["colour"] for c in info["cats"]).count("white") == 4
    custom = GAME.catalogue({"catalogue": MECH})
    assert custom["provisional"] is False and [c["id"] for c in custom["cats"]][:2] == ["a", "b"]


def test_custom_catalogue_is_accepted_and_travels_in_the_state():
    """Components: a caller's catalogue (toys, beats, cats, cat_count) is used and kept in
    state["options"], so the state is self-contained."""
    custom = catalogue([(f"c{i}", "blue", ["yarn", N, N, N]) for i in range(20)], cat_count=20)
    custom["toys"] = ["t1", "t2", "t3", "t4", "t5", "t6"]
    custom["beats"] = {"t1": ["t2"], "t3": ["t1", "t4"]}
    for cat in custom["cats"]:
        cat["slots"] = ["t1", N, "t3", N]
    state = GAME.setup(2, "s", {"catalogue": custom})
    GAME.check_state(state)
    assert state["options"]["catalogue"]["beats"] == {"t1": ["t2"], "t2": [], "t3": ["t1", "t4"], "t4": [], "t5": [],
                                                      "t6": []}
    assert state["players"][0]["hand"] == ["t1", "t2", "t3", "t4", "t5", "t6"]
    assert len(state["table"]) + len(state["cat_deck"]) == 20
    verdict = GAME.adjudicate(state, {"type": "place", "player": 0, "toys": ["t1", "t2", "t3", "t4"]})
    assert verdict.legal
    # red's t1 in slot 1 ties blue's t1; slot 3: blue t3 v red t1: t3 beats t1 (red's removed)
    after = GAME.adjudicate(verdict.state, {"type": "place", "player": 1, "toys": ["t1", "t5", "t6", "t2"]})
    assert after.legal
    # every cat is t1 . t3 .: all 5 on the table go to blue
    assert len(after.state["players"][0]["cats"]) == 5 and after.state["players"][1]["cats"] == []


def bad(mutate):
    data = copy.deepcopy(MECH)
    mutate(data)
    with pytest.raises(InvalidOptions) as error:
        GAME.setup(2, "s", {"catalogue": data})
    return [pointer for pointer, _ in error.value.errors]


def test_custom_catalogue_refused_toy_beats_itself():
    """Components (reference card): no toy beats itself."""
    assert bad(lambda d: d["beats"]["yarn"].append("yarn")) == ["/options/catalogue/beats/yarn/2"]


def test_custom_catalogue_refused_two_toys_beat_each_other():
    """Components (reference card): two toys cannot beat each other."""
    assert bad(lambda d: d["beats"]["feather"].append("yarn")) == ["/options/catalogue/beats/feather"]


def test_custom_catalogue_refused_unknown_toys():
    """Components: every toy of the beats relation and of every cat exists."""
    assert bad(lambda d: d["beats"].update(ball=["yarn"])) == ["/options/catalogue/beats/ball"]
    assert bad(lambda d: d["beats"]["yarn"].append("ball")) == ["/options/catalogue/beats/yarn/2"]
    assert bad(lambda d: d["cats"][2]["slots"].__setitem__(0, "ball")) == ["/options/catalogue/cats/2/slots/0"]


@pytest.mark.parametrize("toys", [["yarn"] * 6, ["yarn", "feather", "mouse", "laser", "catnip"], "yarn", []])
def test_custom_catalogue_refused_not_6_distinct_toys(toys):
    """Components: decks of 6 toy cards each."""
    assert bad(lambda d: d.update(toys=toys)) == ["/options/catalogue/toys"]


def test_custom_catalogue_refused_cat_count_not_32_unless_said():
    """Components: 32 cat cards unless the caller says otherwise with cat_count."""
    data = copy.deepcopy(MECH)
    del data["cat_count"]
    with pytest.raises(InvalidOptions) as error:
        GAME.setup(2, "s", {"catalogue": data})
    assert [p for p, _ in error.value.errors] == ["/options/catalogue/cats"]
    assert bad(lambda d: d.update(cat_count=13)) == ["/options/catalogue/cats"]


def test_custom_catalogue_refused_fewer_than_5_cats():
    """Setup: 5 cats face up need at least 5 cats."""
    assert bad(lambda d: (d.update(cat_count=4), d.update(cats=d["cats"][:4]))) == ["/options/catalogue/cat_count"]


@pytest.mark.parametrize("mutate, pointer", [
    (lambda d: d["cats"][1].update(colour="green"), "/options/catalogue/cats/1/colour"),
    (lambda d: d["cats"][1].update(id="a"), "/options/catalogue/cats/1/id"),
    (lambda d: d["cats"][1].update(id=""), "/options/catalogue/cats/1/id"),
    (lambda d: d["cats"][1]["slots"].append(N), "/options/catalogue/cats/1/slots"),
    (lambda d: d["cats"][1].update(slots=["yarn", N, N]), "/options/catalogue/cats/1/slots"),
    (lambda d: d["cats"][1].update(slots=["yarn", N, "yarn", N]), "/options/catalogue/cats/1/slots/2"),
    (lambda d: d["cats"][1].update(slots=[N, N, N, N]), "/options/catalogue/cats/1/slots"),
    (lambda d: d["cats"][1].update(paws=4), "/options/catalogue/cats/1/paws"),
    (lambda d: d.update(extra=1), "/options/catalogue/extra"),
    (lambda d: d["cats"].__setitem__(1, "cat"), "/options/catalogue/cats/1"),
])
def test_custom_catalogue_refused_cats_that_make_no_sense(mutate, pointer):
    """Cat Cards: known colours, unique ids, 4 slots of known toys or open, no toy shown twice
    (4 different toys are placed), at least one toy shown."""
    assert pointer in bad(mutate)


def test_custom_catalogue_refused_not_an_object():
    """Components: the catalogue is an object."""
    with pytest.raises(InvalidOptions) as error:
        GAME.setup(2, "s", {"catalogue": [1, 2]})
    assert error.value.errors[0][0] == "/options/catalogue"


# -- check_state ----------------------------------------------------------------------------

def impossible(state):
    with pytest.raises(InvalidState) as error:
        GAME.check_state(state)
    return [pointer for pointer, _ in error.value.errors]


TABLE = ["a", "b", "c", "d", "e"]


def test_check_state_cats_in_exactly_one_place():
    """Components: every cat of the catalogue is in exactly one place."""
    state = build(TABLE, options={"catalogue": MECH})
    twice = dict(state, discard_pile=["a"])
    assert "/discard_pile/0" in impossible(twice)
    missing = dict(state, cat_deck=state["cat_deck"][1:])
    assert "" in impossible(missing)
    unknown = dict(state, discard_pile=["zz"])
    assert "/discard_pile/0" in impossible(unknown)


def test_check_state_toys_and_placements():
    """Gameplay: each player's 6 toys are in hand or placed, once; both placed cannot wait."""
    state = build(TABLE, options={"catalogue": MECH})
    players = [dict(p) for p in state["players"]]
    players[0]["hand"] = players[0]["hand"][:5]
    assert "/players/0/hand" in impossible(dict(state, players=players))
    both = build(TABLE, options={"catalogue": MECH}, placements=(["yarn", "feather", "mouse", "laser"], None))
    players = [dict(p) for p in both["players"]]
    players[1] = dict(players[1], placement=["yarn", "feather", "mouse", "laser"], hand=["catnip", "box"])
    assert "/players/1/placement" in impossible(dict(both, players=players))
    players = [dict(p) for p in state["players"]]
    players[1]["deck"] = "blue"
    assert "/players/1/deck" in impossible(dict(state, players=players))


def test_check_state_table_phase_and_counters():
    """Setup / Gameplay: 5 cats on the table while placing, counters agree with the phase."""
    state = build(TABLE, options={"catalogue": MECH})
    assert "/table" in impossible(dict(state, table=TABLE[:4], cat_deck=["e"] + state["cat_deck"]))
    assert "/quiet_rounds" in impossible(dict(state, quiet_rounds=2))
    assert "/quiet_rounds" in impossible(dict(state, phase="stall"))
    assert "/phase" in impossible(dict(state, phase="reveal", table=TABLE[:4], cat_deck=["e"] + state["cat_deck"]))
    assert "/finished" in impossible(dict(state, finished=True))
    held = build(TABLE, cats=(["f", "g", "h", "i", "j", "k", "l"], []), options={"catalogue": MECH},
                 phase="over", finished=True, end="seven_cats")
    assert "/finished" in impossible(dict(held, finished=False, phase="place", end=None))
    assert "/end" in impossible(dict(state, phase="over", finished=True, end="seven_cats"))
    assert "/end" in impossible(dict(state, phase="over", finished=True, end="no_cats_left"))


def test_check_state_advanced_rule_fields():
    """Optional Advanced Game Rule: set-aside toys exist only with the rule, 2 of them."""
    state = build(TABLE, options={"catalogue": MECH}, round_=2)
    players = [dict(p) for p in state["players"]]
    players[0]["must_play"] = ["yarn", "box"]
    assert "/players/0/must_play" in impossible(dict(state, players=players))
    adv = build(TABLE, options={"catalogue": MECH, "advanced": True}, round_=2,
                must_play=(["yarn", "box"], ["yarn", "box"]))
    players = [dict(p) for p in adv["players"]]
    players[1]["must_play"] = ["yarn"]
    assert "/players/1/must_play" in impossible(dict(adv, players=players))


def test_check_state_refuses_other_games_and_bad_options():
    """The referee never trusts a state: game id, schema version and options are checked."""
    state = build(TABLE, options={"catalogue": MECH})
    assert impossible(dict(state, game="catatac")) == ["/game"]
    assert impossible(dict(state, schema_version=2)) == ["/schema_version"]
    assert "/options/chance" in impossible(dict(state, options=dict(state["options"], chance="dice")))
    bad_cat = copy.deepcopy(MECH)
    bad_cat["beats"]["yarn"].append("yarn")
    assert "/options/catalogue/beats/yarn/2" in impossible(
        dict(state, options=dict(state["options"], catalogue=bad_cat)))
