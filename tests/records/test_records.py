"""Match records (docs/records.md) and their verification: every finished random match of every
game and mode gives a record that verifies; altering any one value of a record fails
verification with a pointer to it; the command line and the HTTP operation answer the same."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.engine import joint
from referee.schemas.records import Record
from referee.service import seeding, verify
from tests.records.play import MODES, Table, finished_record

# Values a record carries without any check: the match's id, the reader it was read for, and
# the time of each move (docs/records.md).
UNCHECKED = ("/id", "/seat")
MUTATIONS = int(os.environ.get("REFEREE_RECORD_MUTATIONS", "100"))   # per record, by default


def _verdict(record: dict) -> verify.Verdict:
    """The verification's verdict; a value the Record schema refuses is a verdict at its pointer."""
    try:
        loaded = Record().load(record)
    except Exception as error:   # marshmallow's ValidationError: the first pointer it names
        from referee.schemas.pointers import pointer_errors
        return verify.Verdict(False, pointer_errors(error.messages)[0][0], "refused by the schema")
    return verify.verify(loaded)


@pytest.mark.parametrize("mode", MODES, ids=[f"{m[0]}-{i}" for i, m in enumerate(MODES)])
def test_every_finished_match_gives_a_record_that_verifies(mode):
    record = finished_record(*mode, seed=MODES.index(mode))
    assert _verdict(record) == verify.Verdict(True)
    assert record["final"]["outcome"]["finished"] and record["seeding"]["seed"] is not None
    assert not any(entry["redacted"] for entry in record["moves"])


# -- mutations ---------------------------------------------------------------------------------

def _leaves(value, base: str = ""):
    """``(pointer, value)`` of every scalar inside a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, f"{base}/{key.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{base}/{index}")
    else:
        yield base, value


def _altered(value):
    """Another value of the same kind (null becomes 1)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    return 1


def _set(record: dict, pointer: str, value) -> dict:
    copy = json.loads(json.dumps(record))
    *parents, last = [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]]
    target = copy
    for part in parents:
        target = target[int(part)] if isinstance(target, list) else target[part]
    target[int(last) if isinstance(target, list) else last] = value
    return copy


# Values checked together: an alteration of one is found where they disagree.
GROUPS = [("/seeding/seed", "/seeding/salt", "/seeding/commitment", "/start/rng/seed"),
          ("/options", "/start/options")]


def _points_to(found: str, altered: str) -> bool:
    """Whether the pointer ``found`` names the altered value: the same, a place that holds it,
    the same move of the record (a move and its events are checked together), or values
    checked together (GROUPS)."""
    def within(pointer: str, prefix: str) -> bool:
        return pointer == prefix or pointer.startswith(prefix + "/")
    if within(altered, found):
        return True
    parts = altered.split("/")
    if parts[1] == "moves" and within(found, "/".join(parts[:3])):
        return True
    return any(any(within(altered, p) for p in group) and any(within(found, p) for p in group)
               for group in GROUPS)


def _mutated_leaves(record: dict, limit: int | None, seed: int):
    leaves = [(pointer, value) for pointer, value in _leaves(record)
              if pointer not in UNCHECKED and not (pointer.startswith("/moves/") and pointer.endswith("/at"))]
    if limit is not None and len(leaves) > limit:
        rnd = random.Random(seed)
        named = [leaf for leaf in leaves if leaf[0].startswith(("/seeding", "/players", "/game", "/format",
                                                                "/complete", "/version", "/rules_version"))]
        others = [leaf for leaf in leaves if leaf not in named]
        leaves = named + rnd.sample(others, min(limit, len(others)))
    return leaves


# A few records: a seeded deal, a referee-drawn one at a table, a joint deal with boosters.
MUTATED = [MODES[1], MODES[2], MODES[8]]


def _check_mutations(mode, limit: int | None) -> int:
    record = finished_record(*mode, seed=MODES.index(mode))
    checked = 0
    for pointer, value in _mutated_leaves(record, limit, seed=MODES.index(mode)):
        verdict = _verdict(_set(record, pointer, _altered(value)))
        assert not verdict.valid, (pointer, value)
        assert _points_to(verdict.pointer, pointer), (pointer, value, verdict)
        checked += 1
    return checked


@pytest.mark.parametrize("mode", MUTATED, ids=[m[0] for m in MUTATED])
def test_altering_any_value_of_a_record_is_found_where_it_was_altered(mode):
    assert _check_mutations(mode, MUTATIONS) >= MUTATIONS


SLOW_MUTATIONS = 1500   # per record: every value of the shorter ones


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES, ids=[f"{m[0]}-{i}" for i, m in enumerate(MODES)])
def test_altering_any_value_of_any_record_is_found_where_it_was_altered(mode):
    _check_mutations(mode, SLOW_MUTATIONS)


def test_the_pointer_check_is_not_loose():
    """The acceptance rule above refuses a pointer elsewhere in the record."""
    assert not _points_to("/final/state", "/start/players/0/hand/1")
    assert not _points_to("/moves/3/events/0", "/moves/2/move/card")
    assert _points_to("/moves/2/events/0/card", "/moves/2/move/card")


# -- what a seat, a spectator and an app see ---------------------------------------------------

def test_a_record_read_during_the_game_shows_what_the_readers_view_and_log_show():
    table = Table()
    match = table.create("scratch-and-catch", 2, {}, {})
    secrets = [seat["secret"] for seat in match["seats"]]
    table.play(match, random.Random(5), moves=3)
    base = f"/v1/matches/{match['id']}"
    auth = {"Authorization": f"Bearer {secrets[0]}"}
    record = table.record(match["id"], 0, secrets[0])
    assert record.status_code == 200 and record.headers["ETag"] == '"3"'
    record = record.get_json()
    view = table.client.get(f"{base}?seat=0", headers=auth).get_json()
    log = table.client.get(f"{base}/log?seat=0", headers=auth).get_json()
    assert record["complete"] is False and record["version"] == 3 and record["seat"] == 0
    assert record["moves"] == log["entries"]
    assert record["final"] == {"state": view["state"], "scores": view["scores"], "outcome": view["outcome"]}
    assert record["seeding"] == {"mode": "referee", "commitment": match["seeding"]["commitment"],
                                 "salt": None, "seed": None}
    assert "rng" not in record["start"] and "rng" not in record["final"]["state"]
    # Seat 0 sees its own first hand, of the other only its size: 4 cards each (rulebook, Setup).
    assert len(record["start"]["players"][0]["hand"]) == 4
    assert record["start"]["players"][1]["hand_size"] == 4 and "hand" not in record["start"]["players"][1]
    # Readers are identified as for the log: another seat's secret is 403, none 401.
    assert table.record(match["id"], 1, secrets[0]).status_code == 403
    assert table.record(match["id"], 1).status_code == 401
    assert table.client.get(f"{base}/record", headers={"If-None-Match": '"3"'}).status_code == 304
    assert table.client.get("/v1/matches/nosuchmatch/record").status_code == 404
    # Incomplete: verification says why, at /complete.
    assert _verdict(record) == verify.Verdict(False, "/complete", _verdict(record).detail)


def test_once_the_game_is_over_every_reader_gets_everything():
    table = Table()
    match = table.create("catatac", 2, {}, {})
    secrets = [seat["secret"] for seat in match["seats"]]
    table.play(match, random.Random(6))
    spectator = table.record(match["id"]).get_json()
    seat = table.record(match["id"], 1, secrets[1]).get_json()
    assert spectator["complete"] and {**seat, "seat": None} == spectator
    stored = json.loads(table.store.get(match["id"]).state)
    assert spectator["final"]["state"] == stored   # the generator, the decks, every hand
    assert spectator["start"]["rng"]["seed"] == spectator["seeding"]["seed"]


# -- the commitment and the joint deal, computed here from docs/rng.md's words ------------------

def _sha256_hex(data: bytes) -> str:
    import hashlib
    return hashlib.sha256(data).hexdigest()


def test_the_examples_of_docs_rng_md_are_what_the_referee_computes():
    text = " ".join((Path(__file__).resolve().parents[2] / "docs" / "rng.md").read_text(encoding="utf-8").split())
    salt = "000102030405060708090a0b0c0d0e0f"
    commitment = _sha256_hex(bytes(range(16)) + b"\x00" + b"referee")
    assert seeding.commitment("referee", salt) == commitment and f"`{commitment}`" in text
    derived = _sha256_hex(b"\x00\x00\x00\x07referee\x00\x00\x00\x05alice\x00\x00\x00\x03bob")
    assert joint.derive("referee", ["alice", "bob"]) == derived and f"`{derived}`" in text


def test_a_seed_the_referee_draws_is_committed_from_version_0_and_revealed_at_the_end():
    table = Table()
    match = table.create("scratch-and-catch", 2, {}, {})
    commitment = match["seeding"]["commitment"]
    assert match["seeding"]["mode"] == "referee" and len(commitment) == 64
    table.play(match, random.Random(7))
    record = table.record(match["id"]).get_json()
    seed, salt = record["seeding"]["seed"], record["seeding"]["salt"]
    # docs/rng.md: SHA-256( 16 salt bytes || 0x00 || UTF-8 seed ), lowercase hex.
    assert len(salt) == 32 and _sha256_hex(bytes.fromhex(salt) + b"\x00" + seed.encode("utf-8")) == commitment
    assert record["seeding"]["commitment"] == commitment
    assert table.client.get(f"/v1/matches/{match['id']}").get_json()["seeding"]["commitment"] == commitment


def test_a_seed_the_creator_names_is_not_committed():
    table = Table()
    assert table.create("scratch-and-catch", 2, {}, {"seed": "desk"})["seeding"] == {"mode": "creator",
                                                                                   "commitment": None}
    answer = table.client.post("/v1/matches", json={"game": "catatac", "players": 2, "seed": "desk",
                                                    "seeding": "joint"})
    assert answer.status_code == 422 and answer.get_json()["errors"][0]["pointer"] == "/seeding"


def test_a_joint_deal_is_derived_as_documented():
    table = Table()
    match = table.create("catatac", 2, {}, {"seeding": "joint"})
    match_id, secrets = match["id"], [seat["secret"] for seat in match["seats"]]
    assert match["state"] is None and match["seeding"]["mode"] == "joint"
    base = f"/v1/matches/{match_id}"
    listed = table.client.get(f"{base}/legal-moves?seat=1", headers={"Authorization": f"Bearer {secrets[1]}"})
    assert listed.get_json()["moves"] == [{"type": "contribute", "player": 1, "contribution": None}]
    contributions = ["seat one's dice: 4 2 6", "f00d"]
    for version, seat in enumerate((1, 0)):
        answer = table.client.post(f"{base}/moves", json={"move": {
            "type": "contribute", "player": seat, "contribution": contributions[seat]}},
            headers={"Authorization": f"Bearer {secrets[seat]}", "If-Match": f'"{version}"'}).get_json()
        assert answer["legal"], answer
        assert answer["events"][0] == {"type": "contributed", "player": seat,
                                       "digest": _sha256_hex(contributions[seat].encode("utf-8"))}
    assert answer["events"][1] == {"type": "dealt"} and answer["state"] is not None
    # Seat 0 never saw seat 1's contribution.
    log = table.client.get(f"{base}/log?seat=0", headers={"Authorization": f"Bearer {secrets[0]}"}).get_json()
    assert log["entries"][0]["move"]["contribution"] is None and log["entries"][0]["redacted"]
    table.play(match, random.Random(8))
    record = table.record(match_id).get_json()
    seed = record["seeding"]["seed"]
    # docs/rng.md: SHA-256 over (seed, contribution of seat 0, of seat 1), each as its UTF-8
    # length in 4 big-endian bytes and its UTF-8 bytes; the game is set up from its hex.
    data = b"".join(len(part.encode()).to_bytes(4, "big") + part.encode() for part in (seed, *contributions))
    derived = _sha256_hex(data)
    assert record["start"]["rng"]["seed"] == derived
    dealt = table.client.post("/v1/games/catatac/setup", json={"players": 2, "seed": derived,
                                                               "options": record["options"]}).get_json()["state"]
    assert dealt == record["start"]
    assert _verdict(record).valid


def test_a_contribution_is_refused_out_of_its_time():
    table = Table()
    plain = table.create("scratch-and-catch", 2, {}, {})
    answer = table.client.post(f"/v1/matches/{plain['id']}/moves", json={"move": {
        "type": "contribute", "player": 0, "contribution": "x"}},
        headers={"Authorization": f"Bearer {plain['seats'][0]['secret']}", "If-Match": '"0"'}).get_json()
    assert answer["legal"] is False and answer["violations"][0]["code"] == "NOT_JOINT"
    joint = table.create("scratch-and-catch", 2, {}, {"seeding": "joint"})
    secret = joint["seats"][0]["secret"]
    move = {"type": "contribute", "player": 0, "contribution": "x"}
    first = table.client.post(f"/v1/matches/{joint['id']}/moves", json={"move": move},
                              headers={"Authorization": f"Bearer {secret}", "If-Match": '"0"'}).get_json()
    again = table.client.post(f"/v1/matches/{joint['id']}/moves", json={"move": move},
                              headers={"Authorization": f"Bearer {secret}", "If-Match": '"1"'}).get_json()
    early = table.client.post(f"/v1/matches/{joint['id']}/moves", json={"move": {
        "type": "play", "player": 0, "source": "pile"}},
        headers={"Authorization": f"Bearer {secret}", "If-Match": '"1"'}).get_json()
    assert first["legal"] and [v["code"] for v in again["violations"]] == ["ALREADY_CONTRIBUTED"]
    assert [v["code"] for v in early["violations"]] == ["DEAL_PENDING"]


def test_a_contribution_that_does_not_fit_is_refused_as_a_move():
    """A contribution is a move: its problem says what a move's says (not "options")."""
    table = Table()
    joint = table.create("scratch-and-catch", 2, {}, {"seeding": "joint"})
    answer = table.client.post(f"/v1/matches/{joint['id']}/moves", json={"move": {
        "type": "contribute", "player": 0, "contribution": "x" * 201}},
        headers={"Authorization": f"Bearer {joint['seats'][0]['secret']}", "If-Match": '"0"'})
    problem = answer.get_json()
    assert answer.status_code == 422 and [e["pointer"] for e in problem["errors"]] == ["/move/contribution"]
    assert problem["detail"].startswith("The move does not fit") and "options" not in problem["detail"]


# -- the command line and the HTTP operation ---------------------------------------------------

def test_the_command_line_and_the_http_operation_give_the_same_verdicts(tmp_path):
    table = Table()
    record = finished_record(*MODES[0], seed=0)
    altered = _set(record, "/final/outcome/winners", [])
    runs = {}
    for name, value, code in (("valid", record, 0), ("altered", altered, 1),
                              ("not_a_record", {"format": "referee-record/1", "moves": 3}, 2)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(value))
        run = runs[name] = CliRunner().invoke(main, ["verify", str(path)])
        http = table.client.post("/v1/records/verify", json=value)
        assert run.exit_code == code, run.output
        if code < 2:
            assert http.status_code == 200 and json.loads(run.stdout) == http.get_json()
    assert json.loads(runs["altered"].stdout) == {"valid": False, "pointer": "/final/outcome/winners/0",
                                                  "detail": json.loads(runs["altered"].stdout)["detail"]}
    assert http.status_code == 422
    pointers = {error["pointer"] for error in http.get_json()["errors"]}
    assert {"/moves", "/game", "/start"} <= pointers
    assert {error["pointer"] for error in json.loads(runs["not_a_record"].stderr)["errors"]} == pointers


def test_the_verify_command_runs_as_installed(tmp_path):
    """``referee verify`` as a real process: exit 1 and the pointer for an altered record."""
    record = finished_record(*MODES[4], seed=4)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(_set(record, "/moves/0/events/0/type", "card_lost")))
    run = subprocess.run([sys.executable, "-m", "referee.cli", "verify", str(path)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 1 and json.loads(run.stdout)["pointer"] == "/moves/0/events/0/type"


def test_a_record_too_long_for_one_request_is_413():
    """Over MAX_MATCH_MOVES (5,000) moves, more than any kept match holds: the command line
    verifies it."""
    record = finished_record(*MODES[0], seed=0)
    record["moves"] = record["moves"] * (5000 // len(record["moves"]) + 1)
    table = Table()
    table.client.application.config["MAX_CONTENT_LENGTH"] = 64 << 20   # (a body over 1 MiB is 413 anyway)
    answer = table.client.post("/v1/records/verify", json=record)
    assert answer.status_code == 413 and answer.get_json()["errors"][0]["pointer"] == "/moves"


def test_a_record_over_the_body_limit_is_413_pointing_to_the_command_line():
    """A record over REFEREE_MAX_BODY_BYTES (1 MiB by default) cannot be sent in parts as a
    replay can: the 413 names the command that verifies it offline."""
    record = finished_record(*MODES[0], seed=0)
    record["moves"] = record["moves"] * ((1 << 20) // len(json.dumps(record["moves"])) + 1)
    assert len(json.dumps(record)) > 1 << 20
    answer = Table().client.post("/v1/records/verify", json=record)
    assert answer.status_code == 413
    assert "referee verify RECORD.json" in answer.get_json()["detail"]


def test_a_record_with_a_name_twice_in_an_object_is_not_a_record(tmp_path):
    """RFC 8259 section 4: with a name repeated, parsers differ on which value counts (Python's
    reader and most keep the last, others the first). A record holding its real seed after a
    made-up one would verify here and show the made-up seed to a verifier keeping the first:
    no verdict is given on such a text (422, exit code 2), with a pointer to the repetition."""
    record = finished_record(*MODES[1], seed=1)
    text = json.dumps(record)
    seeding = json.dumps(record["seeding"])
    twice = text.replace(f'"seeding": {seeding}', '"seeding": {"seed": "chosen-by-me", ' + seeding[1:], 1)
    assert twice != text and json.loads(twice) == record   # the last value counts in Python's reader
    answer = Table().client.post("/v1/records/verify", data=twice, content_type="application/json")
    problem = answer.get_json()
    assert answer.status_code == 422, problem
    assert [error["pointer"] for error in problem["errors"]] == ["/seeding/seed"]
    deep = text.replace('"events": [', '"events": [], "events": [', 1)
    path = tmp_path / "twice.json"
    path.write_text(deep)
    run = CliRunner().invoke(main, ["verify", str(path)])
    assert run.exit_code == 2 and [e["pointer"] for e in json.loads(run.stderr)["errors"]] == ["/moves/0/events"]
    assert Table().client.post("/v1/records/verify", data=text, content_type="application/json").get_json() == {
        "valid": True}


def test_only_the_commitment_the_match_showed_ties_a_record_to_it():
    """docs/records.md: a valid verdict does not tie a record to a match; the commitment does.
    A record rewritten to creator mode, or carried under another match's id, still verifies,
    and differs from the match in what the match showed from version 0."""
    table = Table(http=False)
    match = table.create("scratch-and-catch", 2, {}, {})
    table.play(match, random.Random(5))
    record = table.record(match["id"]).get_json()
    shown = table.client.get(f"/v1/matches/{match['id']}").get_json()["seeding"]
    assert shown == {"mode": "referee", "commitment": record["seeding"]["commitment"]}
    relabelled = json.loads(json.dumps(record))
    relabelled["seeding"].update(mode="creator", commitment=None, salt=None)
    relabelled["id"] = "another-match"
    assert _verdict(relabelled) == verify.Verdict(True)
    assert {"mode": relabelled["seeding"]["mode"], "commitment": relabelled["seeding"]["commitment"]} != shown


def test_a_complete_record_names_where_its_seed_came_from():
    """No match that keeps a record has a null seeding mode (docs/records.md): a complete record
    with one would skip the commitment's check, so it does not verify."""
    record = finished_record(*MODES[1], seed=1)
    record["seeding"].update(mode=None, commitment=None, salt=None)
    verdict = _verdict(record)
    assert verdict.valid is False and verdict.pointer == "/seeding/mode"


def test_a_long_call_of_katulhu_record_verifies_over_http():
    """A random Call of Katulhu game runs to well over a replay's 1,000 moves; its record is
    within MAX_MATCH_MOVES, so an app verifies it over HTTP as the command line does. A fixed
    seed and fixed random moves make the game the same on every run (1,408 moves)."""
    record = finished_record("call-of-katulhu", 2, {"advanced": True}, {"seed": "long-3"}, seed=9)
    assert len(record["moves"]) > 1000
    answer = Table().client.post("/v1/records/verify", json=record)
    assert answer.status_code == 200 and answer.get_json() == {"valid": True}
