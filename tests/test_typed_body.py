"""The one-pass decoder of request envelopes (referee/api/typed_body.py) accepts only bodies
that marshmallow loads, to the same value, and the answers do not depend on which path read
the body."""

import copy
import json
from importlib import import_module

import msgspec
import pytest
from hypothesis import given, settings, strategies as st
from marshmallow import Schema, ValidationError

import referee.api.parsing as parsing
from referee.api.schemas import game_schemas
from referee.api.typed_body import MAX_DECODED_BYTES, Unsupported, envelope_decoder, msgspec_type, pattern_language, typed_load
from referee.games import GAMES, PACKAGES
from referee.games.call_of_katulhu.cards import DEFAULT_CATALOGUE
from referee.limits import MAX_JSON_CONTAINERS
from tests.pointers import paths

# Values a damaged body may hold in place of any part: wrong types, floats that equal integers,
# integers beyond 64 bits, ids with a final newline (which "$" in Python's re also matches).
ODD_VALUES = [None, True, False, 0, 1, -1, 1.0, 2.5, 2 ** 63, -(2 ** 63) - 1, 10 ** 20, "", "x", "C1-1",
              "C1-1\n", "P3-1\n", "S10-2", "red", "toy-1\n", [], {}, [1], {"a": 1}]


def _schemas(game_id):
    game = GAMES[game_id]
    return game_schemas(game_id, import_module(f"referee.games.{PACKAGES[game_id]}.schema"), game.player_counts)


def _position(game, players, seed, steps, pick):
    state = game.setup(players, seed, {})
    for _ in range(steps):
        moves = game.legal_moves(state)
        if not moves or game.score(state)[1].finished:
            break
        state = game.adjudicate(state, pick(moves), checked=True).state
    return state


def _changed(value, path, action, new):
    """``value`` with the part at ``path`` replaced by ``new``, dropped, or given an unknown member."""
    value = copy.deepcopy(value)
    if not path:
        return new if action == "replace" else value
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    if action == "replace":
        parent[path[-1]] = new
    elif action == "drop" and isinstance(parent, dict):
        del parent[path[-1]]
    elif action == "add" and isinstance(parent[path[-1]], dict):
        parent[path[-1]]["unexpected"] = new
    return value


def _marshmallow_load(schema_class, body):
    try:
        return Schema.load(schema_class(), body)  # marshmallow's own load, not a fast path
    except ValidationError:
        return ValidationError


def test_finite_pattern_languages():
    # P1-P8 alone or with a suffix -1 to -4 (8 + 32), and joker alone or -1, -2 (3): 43 strings.
    language = pattern_language(r"^(P[1-8](-[1-4])?|joker(-[12])?)$")
    assert len(language) == 43
    assert {"P1", "P8-4", "joker", "joker-2"} <= language and "P9" not in language and "joker-3" not in language
    assert pattern_language(r"^[CS](10|[1-9])$") == {f"{suit}{rank}" for suit in "CS" for rank in range(1, 11)}
    assert pattern_language(r"^a{2,3}$") == {"aa", "aaa"}


@pytest.mark.parametrize("pattern", [r"^\d$", r"^a+$", r"^.$", r"^[^a]$", r"^(?i:a)$", r"abc$", r"^abc",
                                     r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,39}$"])
def test_patterns_without_a_small_finite_language(pattern):
    assert pattern_language(pattern) is None


def test_schemas_outside_the_subset_have_no_type():
    for schema in ({"type": "number"}, {"type": ["string", "integer"]}, {"type": "array"},
                   {"type": "object"}, {"type": "string", "format": "date"},
                   {"type": "object", "properties": {}, "additionalProperties": True}):
        with pytest.raises(Unsupported):
            msgspec_type(schema)


def test_every_game_s_state_and_adjudicate_envelopes_have_a_decoder():
    for game_id in GAMES:
        schemas = _schemas(game_id)
        assert envelope_decoder(schemas.adjudicate_request) is not None, game_id
        assert envelope_decoder(schemas.state_request) is not None, game_id
        assert envelope_decoder(schemas.replay_request) is None  # a list of moves and a default: the usual path


@settings(max_examples=60, deadline=None)
@given(game_id=st.sampled_from(sorted(GAMES)), seed=st.text(max_size=4), steps=st.integers(0, 30), data=st.data())
def test_valid_bodies_take_the_one_pass_decoder(game_id, seed, steps, data):
    game = GAMES[game_id]
    state = _position(game, data.draw(st.sampled_from(game.player_counts)), seed or "s", steps,
                      lambda moves: data.draw(st.sampled_from(moves)))
    moves = game.legal_moves(state)
    if not moves:
        return
    body = {"state": state, "move": data.draw(st.sampled_from(moves))}
    loaded = typed_load(_schemas(game_id).adjudicate_request, json.dumps(body).encode())
    assert loaded == body


@settings(max_examples=500, deadline=None)
@given(game_id=st.sampled_from(sorted(GAMES)), steps=st.integers(0, 20), data=st.data())
def test_the_decoder_accepts_only_what_marshmallow_loads(game_id, steps, data):
    """Any part of a body replaced, dropped or given an unknown member: whenever the decoder
    takes the body, marshmallow loads it to the same value; a refusal is harmless (the usual
    path answers)."""
    game = GAMES[game_id]
    envelope = _schemas(game_id).adjudicate_request
    state = _position(game, data.draw(st.sampled_from(game.player_counts)), "typed", steps,
                      lambda moves: data.draw(st.sampled_from(moves)))
    body = {"state": state, "move": (game.legal_moves(state) or [{"type": "pass", "player": 0}])[0]}
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(paths(body))))
        body = _changed(body, path, data.draw(st.sampled_from(["replace", "drop", "add"])),
                        data.draw(st.sampled_from(ODD_VALUES)))
    loaded = typed_load(envelope, json.dumps(body).encode())
    if loaded is not None:
        assert _marshmallow_load(envelope, body) == loaded


def test_long_bodies_go_the_usual_way(client):
    """A body over MAX_DECODED_BYTES is not decoded here (msgspec would read a long list whole
    before its bound); the usual path answers it: 422, its pointer at the list."""
    game = GAMES["catatac"]
    envelope = _schemas("catatac").adjudicate_request
    state = game.setup(4, "long", {})
    body = {"state": dict(state, paw_deck=["P1-1"] * 3_000), "move": game.legal_moves(state)[0]}
    data = json.dumps(body).encode()
    assert len(data) > MAX_DECODED_BYTES and typed_load(envelope, data) is None
    answer = client.post("/v1/games/catatac/adjudicate", data=data, content_type="application/json")
    assert answer.status_code == 422
    assert [error["pointer"] for error in answer.json["errors"]] == ["/state/paw_deck"]


def test_a_decoded_body_cannot_hold_more_containers_than_the_usual_path_reads():
    assert MAX_DECODED_BYTES < MAX_JSON_CONTAINERS  # one byte per bracket at least


@pytest.mark.parametrize("path", ["adjudicate", "legal-moves", "score"])
def test_too_many_containers_are_refused_before_decoding(client, path):
    """The usual path answers 400 to a body of more than MAX_JSON_CONTAINERS brackets and braces
    before parsing, even where they sit in the copies of a duplicated key (the last copy is the
    one read): the one-pass decoder must not take such a body either."""
    game = GAMES["scratch-and-catch"]
    state = game.setup(2, "x", {})
    body = {"state": state, "move": game.legal_moves(state)[0]} if path == "adjudicate" else {"state": state}
    seed_copies = '"seed":"' + "[" * 200 + '",'
    count = MAX_JSON_CONTAINERS // 200 + 1
    text = json.dumps(body).replace('"rng": {', '"rng": {' + seed_copies * count, 1)
    assert text.count("[") > MAX_JSON_CONTAINERS
    answer = client.post(f"/v1/games/scratch-and-catch/{path}", data=text, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json["errors"] == [{"detail": f"more than {MAX_JSON_CONTAINERS:,} arrays and objects", "pointer": ""}]


def test_damaged_bytes_are_refused():
    game = GAMES["catatac"]
    envelope = _schemas("catatac").adjudicate_request
    state = game.setup(4, "bytes", {})
    text = json.dumps({"state": state, "move": game.legal_moves(state)[0]})
    assert typed_load(envelope, text.encode()) is not None
    card = state["players"][0]["hand"][0]
    for damaged in (text.replace(f'"{card}"', f'"{card}\\n"', 1),        # Rulebook card ids only
                    text.replace('"schema_version": 1', '"schema_version": 1.0'),
                    text.replace('"schema_version": 1', '"schema_version": NaN'),
                    text.replace(f'"{card}"', '"\\ud800"', 1),             # a lone surrogate
                    text[:-1], text + "x", text.replace("{", "{\"unexpected\": 1, ", 1)):
        assert damaged != text
        assert typed_load(envelope, damaged.encode()) is None, damaged[:80]


def test_ids_of_an_open_pattern_are_matched_whole():
    """Call of Katulhu's toy and cat ids come from a caller's catalogue (a pattern, no list):
    one with a final newline, which ``$`` in Python's re also matches, is refused."""
    game = GAMES["call-of-katulhu"]
    envelope = _schemas("call-of-katulhu").adjudicate_request
    state = game.setup(2, "open", {})
    text = json.dumps({"state": state, "move": game.legal_moves(state)[0]})
    assert typed_load(envelope, text.encode()) is not None
    for damaged in (text.replace('"black-2"', '"black-2\\n"', 1), text.replace('"yarn"', '"yarn\\n"', 1),
                    text.replace('"yarn"', '"-yarn"', 1), text.replace('"yarn"', '"' + "y" * 41 + '"', 1)):
        assert damaged != text
        assert typed_load(envelope, damaged.encode()) is None, damaged[:80]
    assert typed_load(envelope, text.replace('"black-2"', '"' + "b" * 40 + '"', 1).encode()) is not None


def test_the_default_catalogue_s_ids_take_a_decoder_without_regular_expressions():
    """Call of Katulhu's envelopes name the default catalogue's ids as the strings its id
    pattern commonly takes: a game on that catalogue is decoded by a first decoder that takes
    only them (a Literal, no regular expression per id); a caller's catalogue, whose ids that
    decoder refuses, by the second, with the pattern; both load what marshmallow loads."""
    game = GAMES["call-of-katulhu"]
    envelope = _schemas("call-of-katulhu").adjudicate_request
    (common, full), _checks = envelope_decoder(envelope)
    state = game.setup(2, "common", {})
    body = {"state": state, "move": game.legal_moves(state)[0]}
    data = json.dumps(body).encode()
    assert msgspec.to_builtins(common.decode(data)) == body
    assert typed_load(envelope, data) == body
    rename = {toy: f"own.{toy}" for toy in DEFAULT_CATALOGUE["toys"]} | {
        cat["id"]: f"own:{cat['id']}" for cat in DEFAULT_CATALOGUE["cats"]}   # the same catalogue, ids renamed
    text = json.dumps(DEFAULT_CATALOGUE)
    for old, new in rename.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    state = game.setup(2, "own", {"catalogue": json.loads(text)})
    body = {"state": state, "move": game.legal_moves(state)[0]}
    data = json.dumps(body).encode()
    with pytest.raises(msgspec.ValidationError):
        common.decode(data)
    assert msgspec.to_builtins(full.decode(data)) == body
    assert typed_load(envelope, data) == body == _marshmallow_load(envelope, body)
    assert all(len(envelope_decoder(_schemas(other).adjudicate_request)[0]) == 1
               for other in GAMES if other != "call-of-katulhu")   # finite id patterns: one decoder


def test_a_common_string_its_pattern_refuses_stops_the_decoder_being_built():
    """A common string outside its pattern would let the first decoder take what the schema
    refuses: building it fails. Length bounds still apply to the common strings."""
    pattern = "^[a-z][a-z0-9]{0,7}$"
    with pytest.raises(ValueError, match="9lives"):
        msgspec_type({"type": "string", "pattern": pattern}, common={pattern: frozenset({"cat", "9lives"})})
    decoder = msgspec.json.Decoder(list[msgspec_type({"type": "string", "pattern": pattern, "maxLength": 3},
                                                     common={pattern: frozenset({"cat", "kitten"})})])
    assert decoder.decode(b'["cat"]') == ["cat"]
    for refused in (b'["kitten"]', b'["dog"]'):
        with pytest.raises(msgspec.ValidationError):
            decoder.decode(refused)


def test_a_64_bit_overflow_goes_the_usual_way():
    """Integers beyond 64 bits are valid JSON that the schema may take (a Scratch & Catch
    player's fleas have no maximum): the decoder leaves them to the usual path."""
    envelope = _schemas("scratch-and-catch").adjudicate_request
    game = GAMES["scratch-and-catch"]
    state = game.setup(3, "big", {})
    body = {"state": state, "move": game.legal_moves(state)[0]}
    for fleas, decoded in ((2 ** 63 - 1, True), (2 ** 63, False), (10 ** 30, False)):
        body["state"]["players"][1]["fleas"] = fleas
        assert (typed_load(envelope, json.dumps(body).encode()) is not None) is decoded, fleas
        assert _marshmallow_load(envelope, body) == body  # the schema takes it either way


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_answers_are_the_same_bytes_through_either_path(client, monkeypatch, game_id):
    """Adjudicate and the state operations answer byte for byte the same whether the body was
    read by the one-pass decoder or by the usual path (the decoder gives members in the
    schema's order, not the body's)."""
    game = GAMES[game_id]
    bodies = []
    for seed in range(6):
        state = _position(game, game.player_counts[seed % len(game.player_counts)], f"same-{seed}", 3 * seed,
                          lambda moves: moves[len(moves) // 2])
        for move in game.legal_moves(state)[:3]:
            bodies.append(("adjudicate", json.dumps({"state": state, "move": move})))
        bodies.append(("legal-moves", json.dumps({"state": state})))
        bodies.append(("score", json.dumps({"state": state})))

    def answers():
        return [client.post(f"/v1/games/{game_id}/{path}", data=body, content_type="application/json").data
                for path, body in bodies]

    typed = answers()
    monkeypatch.setattr(parsing, "typed_load", lambda envelope, data: None)
    assert answers() == typed
