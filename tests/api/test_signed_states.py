"""Signed states (docs/guides/stateless.md, "Signed states"): with REFEREE_STATE_KEYS the states setup,
adjudicate and replay answer carry an HMAC-SHA256 signature of the game id and the state's
canonical JSON; with REFEREE_REQUIRE_SIGNED_STATES=1 a state sent without it, altered, moved or
signed with a key the referee does not hold is refused and nothing is judged."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import os
import subprocess

import pytest
from click.testing import CliRunner

from referee.app import create_app
from referee.cli import main
from referee.schemas.bodies import game_schemas
from referee.service.state_signing import StateKeys
from referee.settings import SettingError
from tests.support.matches_support import ROOT, VENV_BIN, Gunicorn, free_port, http

OLD = "old-key-0123456789abcdef"
NEW = "new-key-fedcba9876543210"
OTHER = "someone-elses-key-000000"
GAMES = ("scratch-and-catch", "catatac", "call-of-katulhu")
UNSIGNED = "/problems/unsigned-state"


def _expected(key: str, game_id: str, state) -> str:
    """The signature as docs/guides/stateless.md, "Signed states" defines it, computed here from
    the standard library."""
    canonical = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    message = b"referee-state-v1\n" + game_id.encode("utf-8") + b"\n" + canonical
    return hmac.new(key.encode("utf-8"), message, hashlib.sha256).hexdigest()


def _client(keys: str | None, required: bool = False):
    config = {"TESTING": True}
    if keys is not None:
        config["REFEREE_STATE_KEYS"] = keys
    if required:
        config["REFEREE_REQUIRE_SIGNED_STATES"] = "1"
    return create_app(config).test_client()


@pytest.fixture(scope="module")
def strict():
    return _client(f"{NEW},{OLD}", required=True)


def _setup(client, game_id: str = "scratch-and-catch", seed: str = "signed") -> dict:
    answer = client.post(f"/v1/games/{game_id}/setup", json={"players": 2, "seed": seed})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def _refused(answer) -> None:
    body = answer.get_json()
    assert answer.status_code == 422, body
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert body["type"] == UNSIGNED and [e["pointer"] for e in body["errors"]] == ["/state_signature"]


def _leaves(value, path=()):
    """Every scalar of a JSON value, with its path."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, path + (index,))
    else:
        yield path, value


def _altered(value):
    """Another value of the same JSON type (so that the state still fits its schema as often as can be)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1 if value < 5 else value - 1
    if isinstance(value, str):
        return value[:-1] + ("x" if value[-1:] != "x" else "y")
    return 0 if value is None else None


@pytest.mark.parametrize("game_id", GAMES)
def test_each_answered_state_carries_its_signature_made_with_the_first_key(strict, game_id):
    setup = _setup(strict, game_id)
    assert setup["state_signature"] == _expected(NEW, game_id, setup["state"])
    body = {"state": setup["state"], "state_signature": setup["state_signature"]}
    move = strict.post(f"/v1/games/{game_id}/legal-moves", json=body).get_json()["moves"][0]
    verdict = strict.post(f"/v1/games/{game_id}/adjudicate", json={**body, "move": move}).get_json()
    assert verdict["legal"] and verdict["state_signature"] == _expected(NEW, game_id, verdict["state"])
    replay = strict.post(f"/v1/games/{game_id}/replay", json={**body, "moves": [move], "include_states": True})
    replayed = replay.get_json()
    assert replayed["state_signature"] == _expected(NEW, game_id, replayed["state"])
    assert replayed["steps"][0]["state_signature"] == _expected(NEW, game_id, replayed["steps"][0]["state"])
    # The next state, sent back with its signature, is taken by every operation that takes a state.
    after = {"state": verdict["state"], "state_signature": verdict["state_signature"]}
    for operation, extra in (("legal-moves", {}), ("score", {}), ("view", {"seat": 0}), ("replay", {"moves": []})):
        answer = strict.post(f"/v1/games/{game_id}/{operation}", json={**after, **extra})
        assert answer.status_code == 200, (operation, answer.get_json())


def test_an_illegal_verdict_and_an_unincluded_replay_step_sign_no_state(strict):
    setup = _setup(strict)
    body = {"state": setup["state"], "state_signature": setup["state_signature"]}
    out_of_turn = {"type": "play", "player": 1, "source": "pile"}
    verdict = strict.post("/v1/games/scratch-and-catch/adjudicate", json={**body, "move": out_of_turn}).get_json()
    assert verdict["legal"] is False and verdict["state"] is None and verdict["state_signature"] is None
    replay = strict.post("/v1/games/scratch-and-catch/replay", json={**body, "moves": [out_of_turn]}).get_json()
    assert replay["steps"][0]["state_signature"] is None
    assert replay["state_signature"] == setup["state_signature"]   # the state before the illegal move


@pytest.mark.parametrize("operation", ["legal-moves", "adjudicate", "score", "view", "replay"])
def test_an_unsigned_state_is_refused_where_signed_states_are_required(strict, operation):
    state = _setup(strict)["state"]
    extra = {"adjudicate": {"move": {"type": "play", "player": 0, "source": "pile"}}, "view": {"seat": 0},
             "replay": {"moves": [{"type": "play", "player": 0, "source": "pile"}]}}.get(operation, {})
    _refused(strict.post(f"/v1/games/scratch-and-catch/{operation}", json={"state": state, **extra}))


@pytest.mark.parametrize("game_id", GAMES)
def test_any_altered_value_of_a_signed_state_is_refused(strict, game_id):
    setup = _setup(strict, game_id)
    signed = {"state": setup["state"], "state_signature": setup["state_signature"]}
    move = strict.post(f"/v1/games/{game_id}/legal-moves", json=signed).get_json()["moves"][0]
    leaves = list(_leaves(setup["state"]))
    # Each value altered alone, and each string swapped with the next different one (two cards
    # trading places: a state that can exist, so only the signature tells).
    changes = [((path, _altered(value)),) for path, value in leaves]
    strings = [(path, value) for path, value in leaves if isinstance(value, str)]
    changes += [((a, vb), (b, va)) for (a, va), (b, vb) in zip(strings, strings[1:]) if va != vb]
    signed_only = 0
    for change in changes:
        state = copy.deepcopy(setup["state"])
        for path, value in change:
            target = state
            for part in path[:-1]:
                target = target[part]
            target[path[-1]] = value
        answer = strict.post(f"/v1/games/{game_id}/adjudicate",
                             json={"state": state, "state_signature": setup["state_signature"], "move": move})
        assert answer.status_code == 422, change   # never judged
        if answer.get_json()["type"] == UNSIGNED:
            _refused(answer)
            signed_only += 1
    assert signed_only > 10


def test_an_altered_byte_of_the_signature_is_refused(strict):
    setup = _setup(strict)
    signature = setup["state_signature"]
    for index in range(len(signature)):
        forged = signature[:index] + ("0" if signature[index] != "0" else "1") + signature[index + 1:]
        _refused(strict.post("/v1/games/scratch-and-catch/score", json={"state": setup["state"],
                                                                          "state_signature": forged}))
    for forged in (signature.upper(), signature[:-1], signature + "0", "", "é" * 64):
        _refused(strict.post("/v1/games/scratch-and-catch/score", json={"state": setup["state"],
                                                                          "state_signature": forged}))


def test_the_signature_covers_the_value_not_how_its_json_is_written(strict):
    setup = _setup(strict)
    text = json.dumps({"state_signature": setup["state_signature"], "state": setup["state"]}, indent=3)
    answer = strict.post("/v1/games/scratch-and-catch/score", data=text, content_type="application/json")
    assert answer.status_code == 200, answer.get_json()


def test_a_signature_moved_to_another_state_or_game_is_refused(strict):
    first, second = _setup(strict, seed="first"), _setup(strict, seed="second")
    _refused(strict.post("/v1/games/scratch-and-catch/score",
                         json={"state": second["state"], "state_signature": first["state_signature"]}))
    # The same state signed as another game's (the game id is signed): refused.
    as_catatac = _expected(NEW, "catatac", first["state"])
    _refused(strict.post("/v1/games/scratch-and-catch/score",
                         json={"state": first["state"], "state_signature": as_catatac}))


def test_a_state_signed_with_an_unknown_key_is_refused(strict):
    state = _setup(strict)["state"]
    _refused(strict.post("/v1/games/scratch-and-catch/score",
                         json={"state": state, "state_signature": _expected(OTHER, "scratch-and-catch", state)}))


def test_rotation_keeps_old_signatures_valid_until_the_old_key_is_dropped():
    before = _setup(_client(OLD, required=True))
    assert before["state_signature"] == _expected(OLD, "scratch-and-catch", before["state"])
    body = {"state": before["state"], "state_signature": before["state_signature"]}
    rotated = _client(f"{NEW},{OLD}", required=True)
    assert rotated.post("/v1/games/scratch-and-catch/score", json=body).status_code == 200
    move = rotated.post("/v1/games/scratch-and-catch/legal-moves", json=body).get_json()["moves"][0]
    verdict = rotated.post("/v1/games/scratch-and-catch/adjudicate", json={**body, "move": move}).get_json()
    assert verdict["state_signature"] == _expected(NEW, "scratch-and-catch", verdict["state"])
    _refused(_client(NEW, required=True).post("/v1/games/scratch-and-catch/score", json=body))


def test_unsigned_states_are_taken_when_not_required_but_a_wrong_signature_is_not():
    lenient = _client(NEW)
    setup = _setup(lenient)
    assert setup["state_signature"] == _expected(NEW, "scratch-and-catch", setup["state"])
    assert lenient.post("/v1/games/scratch-and-catch/score", json={"state": setup["state"]}).status_code == 200
    _refused(lenient.post("/v1/games/scratch-and-catch/score",
                          json={"state": setup["state"], "state_signature": "0" * 64}))


def test_a_state_judged_unsigned_gets_no_signature_so_a_client_cannot_have_its_own_state_signed():
    """Where unsigned states are taken, a client could otherwise send a state it made up (the
    other seat's hand swapped into its own), have a move judged on it and keep the signed
    answer, which a referee requiring signatures with the same keys would then take."""
    lenient, setup = _client(NEW), _setup(_client(NEW))
    made_up = copy.deepcopy(setup["state"])
    made_up["players"][0]["hand"], made_up["players"][1]["hand"] = (made_up["players"][1]["hand"],
                                                                    made_up["players"][0]["hand"])
    move = lenient.post("/v1/games/scratch-and-catch/legal-moves", json={"state": made_up}).get_json()["moves"][0]
    verdict = lenient.post("/v1/games/scratch-and-catch/adjudicate", json={"state": made_up, "move": move}).get_json()
    assert verdict["legal"] and verdict["state_signature"] is None
    replay = lenient.post("/v1/games/scratch-and-catch/replay",
                          json={"state": made_up, "moves": [move], "include_states": True}).get_json()
    assert replay["state_signature"] is None and replay["steps"][0]["state_signature"] is None
    # A state sent with its signature is answered signed, as where signatures are required.
    signed = {"state": setup["state"], "state_signature": setup["state_signature"]}
    move = lenient.post("/v1/games/scratch-and-catch/legal-moves", json=signed).get_json()["moves"][0]
    verdict = lenient.post("/v1/games/scratch-and-catch/adjudicate", json={**signed, "move": move}).get_json()
    assert verdict["state_signature"] == _expected(NEW, "scratch-and-catch", verdict["state"])


def test_without_keys_nothing_is_signed_and_a_signature_sent_is_ignored(client):
    setup = _setup(client)
    assert set(setup) == {"state"}
    body = {"state": setup["state"], "state_signature": "anything"}
    move = client.post("/v1/games/scratch-and-catch/legal-moves", json=body).get_json()["moves"][0]
    verdict = client.post("/v1/games/scratch-and-catch/adjudicate", json={**body, "move": move}).get_json()
    assert verdict["legal"] and "state_signature" not in verdict
    replay = client.post("/v1/games/scratch-and-catch/replay", json={**body, "moves": [move]}).get_json()
    assert "state_signature" not in replay and "state_signature" not in replay["steps"][0]


def test_a_signed_body_takes_the_fast_path():
    from importlib import import_module
    schemas = game_schemas("scratch-and-catch", import_module("referee.games.scratch_and_catch.schema"), (2, 3))
    state = _setup(_client(NEW))["state"]
    body = {"state": state, "state_signature": "ab" * 32, "move": {"type": "play", "player": 0, "source": "pile"}}
    assert schemas.adjudicate_request().fast_load(body) == body
    assert schemas.adjudicate_request().fast_load({**body, "state_signature": 5}) is None   # the full path refuses it


def test_keys_are_read_from_the_environment_and_checked():
    keys = StateKeys.from_environ({"REFEREE_STATE_KEYS": f" {NEW} ,, {OLD} ", "REFEREE_REQUIRE_SIGNED_STATES": "1"})
    assert keys.keys == (NEW.encode(), OLD.encode()) and keys.required
    assert StateKeys.from_environ({}) == StateKeys()
    with pytest.raises(SettingError, match="REFEREE_STATE_KEYS: secret 2 has 5 characters; each must have at least 16"):
        StateKeys.from_environ({"REFEREE_STATE_KEYS": f"{NEW},short"})
    with pytest.raises(SettingError, match="REFEREE_REQUIRE_SIGNED_STATES=1 needs at least one key"):
        StateKeys.from_environ({"REFEREE_REQUIRE_SIGNED_STATES": "1"})
    with pytest.raises(SettingError, match="REFEREE_REQUIRE_SIGNED_STATES must be 1 or 0, not 'yes'"):
        StateKeys.from_environ({"REFEREE_STATE_KEYS": NEW, "REFEREE_REQUIRE_SIGNED_STATES": "yes"})


def test_the_command_line_signs_and_checks_states_as_the_service_does(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_STATE_KEYS", NEW)
    monkeypatch.setenv("REFEREE_REQUIRE_SIGNED_STATES", "1")
    setup = _setup(_client(NEW))
    move = {"type": "play", "player": 0, "source": "hand", "card": setup["state"]["players"][0]["hand"][0]}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    (tmp_path / "move.json").write_text(json.dumps(move))
    result = CliRunner().invoke(main, ["adjudicate", str(tmp_path / "setup.json"), str(tmp_path / "move.json")])
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)
    assert verdict["legal"] and verdict["state_signature"] == _expected(NEW, "scratch-and-catch", verdict["state"])
    (tmp_path / "bare.json").write_text(json.dumps(setup["state"]))
    refused = CliRunner().invoke(main, ["adjudicate", str(tmp_path / "bare.json"), str(tmp_path / "move.json")])
    assert refused.exit_code == 2 and json.loads(refused.stderr)["type"] == UNSIGNED
    setup["state"]["players"][0]["fleas"] -= 1
    (tmp_path / "altered.json").write_text(json.dumps(setup))
    (tmp_path / "moves.json").write_text(json.dumps([move]))
    refused = CliRunner().invoke(main, ["replay", str(tmp_path / "altered.json"), str(tmp_path / "moves.json")])
    assert refused.exit_code == 2 and json.loads(refused.stderr)["errors"][0]["pointer"] == "/state_signature"


def test_the_command_line_signs_no_state_that_follows_from_an_unsigned_one(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_STATE_KEYS", NEW)
    state = _setup(_client(NEW))["state"]
    move = {"type": "play", "player": 0, "source": "hand", "card": state["players"][0]["hand"][0]}
    (tmp_path / "bare.json").write_text(json.dumps(state))
    (tmp_path / "move.json").write_text(json.dumps(move))
    result = CliRunner().invoke(main, ["adjudicate", str(tmp_path / "bare.json"), str(tmp_path / "move.json")])
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)
    assert verdict["legal"] and verdict["state_signature"] is None


def test_a_served_referee_signs_and_requires_signed_states(tmp_path):
    server = Gunicorn({"REDIS_URL": "", "WEB_CONCURRENCY": "1", "PROMETHEUS_MULTIPROC_DIR": "",
                       "REFEREE_STATE_KEYS": f"{NEW},{OLD}", "REFEREE_REQUIRE_SIGNED_STATES": "1"},
                      tmp_path / "gunicorn.log").start()
    try:
        base = server.base + "/v1/games/catatac"
        status, _, setup = http("POST", f"{base}/setup", {"players": 2, "seed": "served"})
        assert status == 200 and setup["state_signature"] == _expected(NEW, "catatac", setup["state"])
        status, _, _ = http("POST", f"{base}/score", setup)
        assert status == 200
        status, headers, problem = http("POST", f"{base}/score", {"state": setup["state"]})
        assert status == 422 and problem["type"] == UNSIGNED
    finally:
        server.stop()


def test_the_service_does_not_start_with_a_short_key_and_keeps_it_to_itself():
    env = {**os.environ, "BIND": f"127.0.0.1:{free_port()}", "REDIS_URL": "", "WEB_CONCURRENCY": "1",
           "PROMETHEUS_MULTIPROC_DIR": "", "REFEREE_STATE_KEYS": "tiny-secret"}
    started = subprocess.run([str(VENV_BIN / "gunicorn"), "-c", "gunicorn.conf.py"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=60)
    output = started.stdout + started.stderr
    assert started.returncode != 0
    assert "Referee: REFEREE_STATE_KEYS: secret 1 has 11 characters" in output and "Traceback" not in output
    assert "tiny-secret" not in output
