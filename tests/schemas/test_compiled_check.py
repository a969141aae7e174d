"""The compiled fast path of FastNested accepts exactly what marshmallow accepts."""

import copy
from importlib import import_module

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from referee.games import GAMES, PACKAGES
from referee.schemas.compiled import _has_float, compiled_validator, schema_checks
from tests.support.pointers import paths

ODD_VALUES = [None, True, False, 0, 1, -1, 1.0, 2.5, "", "x", "C1-1", "S10-2", [], {}, [1], {"a": 1}, 10**20]


def _replace(value, path, new):
    if not path:
        return new
    value = copy.deepcopy(value)
    target = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return value


def _marshmallow_accepts(schema_class, value):
    try:
        schema_class().load(value)
        return True
    except ValidationError:
        return False


@settings(max_examples=300, deadline=None)
@given(game_id=st.sampled_from(sorted(GAMES)), seed=st.text(max_size=5), data=st.data())
def test_fast_path_agrees_with_marshmallow(game_id, seed, data):
    game = GAMES[game_id]
    state_schema = import_module(f"referee.games.{PACKAGES[game_id]}.schema").STATE
    validator = compiled_validator(state_schema)
    state = game.setup(data.draw(st.sampled_from(game.player_counts)), seed or "s", {})
    places = list(paths(state))
    path = data.draw(st.sampled_from(places))
    mutated = _replace(state, path, data.draw(st.sampled_from(ODD_VALUES)))
    if data.draw(st.booleans()) and isinstance(mutated, dict):
        mutated = dict(mutated, unexpected=1)
    expected = _marshmallow_accepts(state_schema, mutated)
    if validator is None:
        return
    fast = validator.is_valid(mutated) and not _has_float(mutated)
    # The fast path may only say yes when marshmallow says yes; a fast "no" falls back to marshmallow.
    assert not fast or expected, (path, mutated if len(str(mutated)) < 500 else path)


def test_valid_states_take_the_fast_path():
    for game_id, game in GAMES.items():
        state_schema = import_module(f"referee.games.{PACKAGES[game_id]}.schema").STATE
        validator = compiled_validator(state_schema)
        if validator is not None:
            assert validator.is_valid(game.setup(game.player_counts[0], "fast", {}))
    assert compiled_validator(import_module("referee.games.scratch_and_catch.schema").STATE) is not None


def test_dictionary_keys_are_checked_like_marshmallow():
    """Call of Katulhu's caller catalogue: beats keys are toy ids (propertyNames in the contract)."""
    game = GAMES["call-of-katulhu"]
    schema = import_module("referee.games.call_of_katulhu.schema").STATE
    catalogue = game.catalogue()
    custom = {key: catalogue[key] for key in ("toys", "beats", "cats")}
    state = game.setup(2, "keys", {"catalogue": custom})
    validator = compiled_validator(schema)
    assert validator.is_valid(state) and _marshmallow_accepts(schema, state)
    for bad_key in ("yarn\n", "", "-yarn", "x" * 41):
        broken = copy.deepcopy(state)
        broken["options"]["catalogue"]["beats"][bad_key] = []
        assert not _marshmallow_accepts(schema, broken)
        assert not validator.is_valid(broken), bad_key


def _fast_move_accepts(move_schema, value):
    """FastNested's fast path for a move: the compiled check of its fields, then its own checks."""
    validator = compiled_validator(move_schema)
    if validator is None or not validator.is_valid(value) or _has_float(value):
        return False
    try:
        for check in schema_checks(move_schema):
            check(value)
    except ValidationError:
        return False
    return True


MOVE_KEYS = ["type", "player", "card", "cards", "pair", "block", "order", "draw", "coins", "points_card", "toys",
             "cat", "pile", "direction", "unexpected"]


@settings(max_examples=400, deadline=None)
@given(game_id=st.sampled_from(sorted(GAMES)), seed=st.text(max_size=5), steps=st.integers(0, 12), data=st.data())
def test_fast_path_of_moves_agrees_with_marshmallow(game_id, seed, steps, data):
    """Moves have checks that depend on their type (validates_schema): the fast path accepts a
    move only when marshmallow accepts it, and then loads the same value."""
    game = GAMES[game_id]
    move_schema = import_module(f"referee.games.{PACKAGES[game_id]}.schema").MOVE
    state = game.setup(data.draw(st.sampled_from(game.player_counts)), seed or "s", {})
    for _ in range(steps):
        moves = game.legal_moves(state)
        if not moves:
            break
        state = game.adjudicate(state, data.draw(st.sampled_from(moves)), checked=True).state
    moves = game.legal_moves(state) or [{"type": "pass", "player": 0}]
    move = data.draw(st.sampled_from(moves))
    action = data.draw(st.sampled_from(["keep", "replace", "drop", "add"]))
    if action == "replace":
        move = _replace(move, data.draw(st.sampled_from(list(paths(move)))), data.draw(st.sampled_from(ODD_VALUES)))
    elif action == "drop" and isinstance(move, dict) and move:
        move = {k: v for k, v in move.items() if k != data.draw(st.sampled_from(sorted(move)))}
    elif action == "add" and isinstance(move, dict):
        move = dict(move, **{data.draw(st.sampled_from(MOVE_KEYS)): data.draw(st.sampled_from(ODD_VALUES))})
    expected = _marshmallow_accepts(move_schema, move)
    if _fast_move_accepts(move_schema, move):
        assert expected, move
        assert move_schema().load(move) == move


def test_legal_moves_take_the_fast_path():
    for game_id, game in GAMES.items():
        move_schema = import_module(f"referee.games.{PACKAGES[game_id]}.schema").MOVE
        state = game.setup(game.player_counts[0], "fast", {})
        assert all(_fast_move_accepts(move_schema, move) for move in game.legal_moves(state)), game_id


@settings(max_examples=200, deadline=None)
@given(game_id=st.sampled_from(sorted(GAMES)), data=st.data())
def test_fast_envelope_agrees_with_marshmallow(game_id, data):
    """An adjudicate body taken by the envelope's fast path is one marshmallow loads to the same value."""
    from marshmallow import Schema

    from referee.schemas.bodies import game_schemas

    game = GAMES[game_id]
    schemas = game_schemas(game_id, import_module(f"referee.games.{PACKAGES[game_id]}.schema"), game.player_counts)
    state = game.setup(game.player_counts[0], "envelope", {})
    body = {"state": state, "move": game.legal_moves(state)[0]}
    action = data.draw(st.sampled_from(["keep", "drop", "add", "replace"]))
    if action == "drop":
        body.pop(data.draw(st.sampled_from(["state", "move"])))
    elif action == "add":
        body["extra"] = data.draw(st.sampled_from(ODD_VALUES))
    elif action == "replace":
        body[data.draw(st.sampled_from(["state", "move"]))] = data.draw(st.sampled_from(ODD_VALUES))
    request_schema = schemas.adjudicate_request()
    try:
        expected = Schema.load(request_schema, body)  # marshmallow's own load, not the fast path
    except ValidationError:
        expected = ValidationError
    try:
        loaded = request_schema.load(body)
    except ValidationError:
        loaded = ValidationError
    assert loaded == expected


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_match_move_envelope_agrees_with_marshmallow(data):
    """A match move body ({"move": <object>}, the object loaded later with its game's schema)
    is taken by the fast path exactly when marshmallow loads it, and to the same value."""
    from marshmallow import Schema

    from referee.schemas.matches import MoveRequest

    body = {"move": {"player": 0, "type": "play", "card": "C1-1"}}
    action = data.draw(st.sampled_from(["keep", "drop", "add", "replace", "float"]))
    if action == "drop":
        body.pop("move")
    elif action == "add":
        body["extra"] = data.draw(st.sampled_from(ODD_VALUES))
    elif action == "replace":
        body["move"] = data.draw(st.sampled_from(ODD_VALUES))
    elif action == "float":
        body["move"]["player"] = 0.5
    request_schema = MoveRequest()
    try:
        expected = Schema.load(request_schema, body)
    except ValidationError:
        expected = ValidationError
    fast = request_schema.fast_load(body)
    assert fast is None or fast == expected
    assert (fast is not None) == (action in ("keep", "replace") and isinstance(body["move"], dict)
                                  and not _has_float(body))


def test_what_a_request_knew_of_its_body_does_not_outlive_it(client):
    """The JSON reader tells the compiled check whether the body holds a float; after the
    request, a load (the next request of a kept-alive connection, or the command line) looks
    for itself again, so a float is not taken for an integer."""
    from referee.schemas.matches import MoveRequest

    state = client.post("/v1/games/scratch-and-catch/setup", json={"players": 2, "seed": "f"}).get_json()["state"]
    assert client.post("/v1/games/scratch-and-catch/legal-moves", json={"state": state}).status_code == 200
    assert MoveRequest().fast_load({"move": {"player": 0.0, "type": "play"}}) is None
