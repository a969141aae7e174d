"""Every view a match can show (each seat's and a spectator's, during and after the game) fits
the game's <Game>View component of the contract, and every listed move its <Game>Move."""

from __future__ import annotations

import random

import jsonschema_rs
import pytest

from referee.app import create_app
from referee.engine.joint import CONTRIBUTE, Seeded
from referee.games import GAMES

SPEC = create_app({"TESTING": True}).extensions["referee.api"].spec.to_dict()
PREFIX = {"scratch-and-catch": "ScratchAndCatch", "call-of-katulhu": "CallOfKatulhu", "catatac": "Catatac"}
SETUPS = [
    ("scratch-and-catch", 2, {}), ("scratch-and-catch", 5, {"chance": "table"}),
    ("call-of-katulhu", 2, {}), ("call-of-katulhu", 2, {"chance": "table", "advanced": True}),
    ("catatac", 2, {}), ("catatac", 4, {"chance": "table", "deck_hockey": True}),
    ("catatac", 6, {"boosters": ["distraction", "alpha", "momentum"]}), ("catatac", 2, {"marathon": True}),
    ("scratch-and-catch", 3, {"chance": "table", "hands": "unseen"}),
    ("catatac", 4, {"chance": "table", "hands": "unseen", "boosters": ["momentum"]}),
    ("catatac", 6, {"chance": "table", "hands": "unseen", "boosters": ["distraction", "alpha", "momentum"]}),
]


def validator(component: str):
    return jsonschema_rs.validator_for({"$ref": f"#/components/schemas/{component}", "components": SPEC["components"]})


def _states(game_id, players, options, seed):
    """The states of one random game (at most 3000 moves), first to last."""
    game = GAMES[game_id]
    rnd = random.Random(seed)
    state = game.setup(players, f"views-{seed}", options)
    yield state
    for _ in range(3000):
        moves = game.legal_moves(state)
        if not moves:
            return
        state = game.adjudicate(state, rnd.choice(moves), checked=True).state
        yield state


@pytest.mark.parametrize("game_id,players,options", SETUPS)
def test_every_view_fits_the_games_view_schema(game_id, players, options):
    view_check = validator(PREFIX[game_id] + "View")
    move_check = validator(PREFIX[game_id] + "Move")
    game = GAMES[game_id]
    last = None
    for state in _states(game_id, players, options, seed=len(options) + players):
        for seat in [None, *range(players)]:
            view = game.view(state, seat)
            errors = [f"{e.instance_path}: {e.message}" for e in view_check.iter_errors(view)]
            assert errors == [], (seat, errors)
        for move in game.legal_moves(state)[:50]:
            assert move_check.is_valid(move), move
        last = state
    assert last is not None and last["finished"], "the random game should reach its end"


def test_a_view_with_a_field_the_schema_lacks_does_not_fit():
    """The check can fail: a view field the contract does not declare is reported."""
    view = GAMES["scratch-and-catch"].view(GAMES["scratch-and-catch"].setup(2, "x", {}), None)
    view["deck_order"] = ["C1-1"]
    assert not validator("ScratchAndCatchView").is_valid(view)


@pytest.mark.parametrize("component", ["Match", "MatchVerdict"])
def test_a_matchs_scores_are_the_games_sheet_from_version_0_never_null(component):
    """docs/guides/matches.md: a match's ``scores`` is the game's score sheet as the reader may see it,
    during the game too (``Game.visible_scores``). The contract says so: a ``<Game>Scores``,
    and what every reader is shown at version 0 fits it, never null, whether the seed was drawn
    alone or dealt jointly once every seat contributed. The one null is a match whose joint deal
    waits for contributions (no cards yet: :func:`test_a_pending_joint_deal_has_no_scores`), and
    the contract says so."""
    scores = SPEC["components"]["schemas"][component]["properties"]["scores"]
    check = jsonschema_rs.validator_for({**scores, "components": SPEC["components"]})
    assert scores["description"].endswith("null while a jointly seeded match waits for contributions")
    for game in GAMES.values():
        joint = Seeded(game, joint=True, seed="scores", options={})
        dealt = joint.setup(2, "scores", {})
        for seat in (0, 1):
            dealt, _ = joint.apply(dealt, {"type": CONTRIBUTE, "player": seat, "contribution": f"c{seat}"})
        for state in (Seeded(game).setup(2, "scores", {}), dealt):
            for seat in (None, 0, 1):
                shown = Seeded(game).visible_scores(state, seat)
                assert shown is not None and check.is_valid(shown), (game.id, seat)
    assert not check.is_valid({"players": [{"player": 0, "total": "many"}]})


def test_a_pending_joint_deal_has_no_scores():
    """Before every seat has contributed no card is dealt: the match's scores (and a
    contribution's verdict's) are null for every reader, and the contract admits it there."""
    checks = [jsonschema_rs.validator_for({**SPEC["components"]["schemas"][component]["properties"]["scores"],
                                           "components": SPEC["components"]})
              for component in ("Match", "MatchVerdict")]
    for game in GAMES.values():
        joint = Seeded(game, joint=True, seed="scores", options={})
        pending = joint.setup(2, "scores", {})
        pending, _ = joint.apply(pending, {"type": CONTRIBUTE, "player": 0, "contribution": "c0"})
        for seat in (None, 0, 1):
            assert joint.visible_scores(pending, seat) is None and all(check.is_valid(None) for check in checks), \
                (game.id, seat)
