"""Failure 5: bounded work per request. Over a limit: 413/422 problem+json naming it; a
replay's steps carry no state unless asked; the heaviest replay the limits allow leaves
/healthz answering under gunicorn."""

from __future__ import annotations

import json
import random
import re
import threading
import time

import pytest

from referee.app import create_app
from referee.games import GAMES
from referee.games.call_of_katulhu.cards import DEFAULT_CATALOGUE, MAX_CATS
from referee.limits import (
    MAX_MATCH_MOVES,
    MAX_PROBLEM_ERRORS,
    MAX_REPLAY_MOVES,
    MAX_REPLAY_STATE_BYTES,
    MAX_REPLAY_WORK,
)
from referee.schemas.pointers import pointer_errors
from referee.service.errors import problem_body
from referee.store.memory import MemoryStore
from tests.edge.support import http, start_gunicorn, timed_get

SC = GAMES["scratch-and-catch"]


def random_moves(game, state, count, seed="limits"):
    rnd = random.Random(seed)
    moves, states = [], [state]
    while len(moves) < count and not state.get("finished"):
        move = rnd.choice(game.legal_moves(state))
        state = game.adjudicate(state, move).state
        moves.append(move)
        states.append(state)
    return moves, states


def test_replay_steps_carry_states_only_when_asked(client):
    start = SC.setup(2, "steps", {})
    moves, states = random_moves(SC, start, 12)
    plain = client.post("/v1/games/scratch-and-catch/replay", json={"state": start, "moves": moves})
    assert plain.status_code == 200
    answer = plain.get_json()
    assert [step["state"] for step in answer["steps"]] == [None] * len(moves)
    assert [step["legal"] for step in answer["steps"]] == [True] * len(moves)
    assert answer["state"] == states[-1] and answer["first_illegal"] is None
    full = client.post("/v1/games/scratch-and-catch/replay",
                       json={"state": start, "moves": moves, "include_states": True}).get_json()
    assert [step["state"] for step in full["steps"]] == states[1:]
    assert [step["events"] for step in full["steps"]] == [step["events"] for step in answer["steps"]]


def test_too_many_replay_moves_is_422_naming_the_limit(client):
    start = SC.setup(2, "many", {})
    move = SC.legal_moves(start)[0]
    answer = client.post("/v1/games/scratch-and-catch/replay",
                         json={"state": start, "moves": [move] * (MAX_REPLAY_MOVES + 1)})
    assert answer.status_code == 422 and answer.content_type == "application/problem+json"
    assert any(e["pointer"] == "/moves" and str(MAX_REPLAY_MOVES) in e["detail"] for e in answer.get_json()["errors"])


def test_replay_over_the_work_limit_is_413_naming_it(client):
    deck = {"cat": [99] * 10, "scratch": [99] * 10}
    start = client.post("/v1/games/scratch-and-catch/setup",
                        json={"players": 6, "seed": "w", "options": {"deck": deck}}).get_json()["state"]
    size = len(json.dumps(start, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    count = MAX_REPLAY_WORK // size + 1
    assert count <= MAX_REPLAY_MOVES
    move = SC.legal_moves(start)[0]
    answer = client.post("/v1/games/scratch-and-catch/replay", json={"state": start, "moves": [move] * count})
    assert answer.status_code == 413 and answer.content_type == "application/problem+json"
    problem = answer.get_json()
    assert "MAX_REPLAY_WORK" in problem["detail"] and f"{MAX_REPLAY_WORK:,}" in problem["detail"]
    assert problem["errors"][0]["pointer"] == "/moves"
    # Asking for every state lowers the bound to MAX_REPLAY_STATE_BYTES.
    count = MAX_REPLAY_STATE_BYTES // size + 1
    answer = client.post("/v1/games/scratch-and-catch/replay",
                         json={"state": start, "moves": [move] * count, "include_states": True})
    assert answer.status_code == 413 and answer.get_json()["errors"][0]["pointer"] == "/include_states"
    assert client.post("/v1/games/scratch-and-catch/replay",
                       json={"state": start, "moves": [move] * count}).status_code == 200


def test_a_match_holds_at_most_max_match_moves_moves():
    """A Call of Katulhu game can go on for ever (players who attract no cat discard one every
    two rounds, and the discard pile goes back into the deck), so its log would grow without
    bound, and with it every read of the log. A match takes MAX_MATCH_MOVES moves at most."""
    store = MemoryStore(ttl=3600)
    client = create_app({"TESTING": True, "REFEREE_STORE": store}).test_client()
    game = GAMES["call-of-katulhu"]
    match = client.post("/v1/matches", json={"game": "call-of-katulhu", "players": 2, "seed": "long"}).get_json()
    match_id, secrets = match["id"], [s["secret"] for s in match["seats"]]

    def post(move, version):
        return client.post(f"/v1/matches/{match_id}/moves", json={"move": move},
                           headers={"Authorization": f"Bearer {secrets[move['player']]}", "If-Match": f'"{version}"'})

    state = json.loads(store.get(match_id).state)
    assert post(game.legal_moves(state)[0], 0).get_json()["legal"]
    # The match as if MAX_MATCH_MOVES - 1 moves had been played (the same entry again).
    snap = store.get(match_id)
    entry = json.loads(store.log(match_id)[0])
    for version in range(1, MAX_MATCH_MOVES - 1):
        assert store.commit(match_id, version, snap.state, json.dumps({**entry, "version": version + 1}),
                            snap.updated).kind == "ok"
    state = json.loads(snap.state)
    last = post(game.legal_moves(state)[0], MAX_MATCH_MOVES - 1)
    assert last.status_code == 200 and last.get_json()["legal"] and last.get_json()["version"] == MAX_MATCH_MOVES
    state = json.loads(store.get(match_id).state)
    refused = post(game.legal_moves(state)[0], MAX_MATCH_MOVES)
    assert refused.status_code == 422 and refused.content_type == "application/problem+json"
    problem = refused.get_json()
    assert problem["type"] == "/problems/limit-exceeded" and str(MAX_MATCH_MOVES) in problem["detail"]
    assert store.get(match_id).version == MAX_MATCH_MOVES
    # legal-moves lists what POST .../moves would take: nothing now, for either seat.
    for seat in (0, 1):
        listed = client.get(f"/v1/matches/{match_id}/legal-moves?seat={seat}",
                            headers={"Authorization": f"Bearer {secrets[seat]}"})
        assert listed.status_code == 200 and listed.get_json()["moves"] == []


@pytest.mark.parametrize("path", ["/v1/games/catatac/legal-moves", "/v1/games/scratch-and-catch/adjudicate"])
def test_a_problem_lists_a_bounded_number_of_errors(client, path):
    """A state of 60,000 unknown fields (a body under the limit) was answered with one error
    per field: a 5 MB problem, half a second of CPU. A problem lists MAX_PROBLEM_ERRORS at
    most and says how many there were."""
    state = {f"k{i}": 1 for i in range(60_000)}
    answer = client.post(path, json={"state": state, "move": {}})
    assert answer.status_code == 422 and answer.content_type == "application/problem+json"
    problem = answer.get_json()
    assert len(problem["errors"]) == MAX_PROBLEM_ERRORS
    assert len(answer.data) < 100 * MAX_PROBLEM_ERRORS
    counted = re.search(rf"\(the first {MAX_PROBLEM_ERRORS} of ([\d,]+) errors are listed\)$", problem["detail"])
    assert counted and int(counted.group(1).replace(",", "")) >= 60_000, problem["detail"]   # (and the move's)
    assert all(error["pointer"].startswith("/state") for error in problem["errors"])
    assert {"pointer": "/state/k0", "detail": "Unknown field."} in problem["errors"]


def test_match_bodies_of_many_unknown_fields_list_the_first_of_them():
    """A match's create and move bodies with 80,000 unknown fields beside the known ones:
    the first MAX_PROBLEM_ERRORS of them, and their count, without marshmallow's work for each."""
    client = create_app({"TESTING": True, "REFEREE_STORE": MemoryStore(ttl=3600)}).test_client()
    extra = {f"k{i}": 1 for i in range(80_000)}
    created = client.post("/v1/matches", json={"game": "catatac", "players": 2, **extra})
    assert created.status_code == 422
    assert created.get_json()["detail"].endswith(f"(the first {MAX_PROBLEM_ERRORS} of 80,000 errors are listed)")
    match = client.post("/v1/matches", json={"game": "catatac", "players": 2}).get_json()
    moved = client.post(f"/v1/matches/{match['id']}/moves", json={"move": {"type": "decline", "player": 0}, **extra},
                        headers={"Authorization": f"Bearer {match['seats'][0]['secret']}", "If-Match": '"0"'})
    assert moved.status_code == 422
    assert moved.get_json()["detail"].endswith(f"(the first {MAX_PROBLEM_ERRORS} of 80,000 errors are listed)")


def test_a_problem_says_how_many_errors_there_were():
    """The detail counts every error, the errors list the first MAX_PROBLEM_ERRORS."""
    body = problem_body(422, "Bad.", pointer_errors({"players": {i: ["Not a valid integer."] for i in range(70)}}))
    assert body["detail"] == f"Bad. (the first {MAX_PROBLEM_ERRORS} of 70 errors are listed)"
    assert body["errors"][0] == {"pointer": "/players/0", "detail": "Not a valid integer."}
    assert len(body["errors"]) == MAX_PROBLEM_ERRORS


@pytest.mark.parametrize("game_id,field", [("catatac", "paw_deck"), ("scratch-and-catch", "draw_pile")])
def test_a_list_over_its_length_is_refused_before_its_items_are_read(client, game_id, field):
    """A list of 200,000 wrong items where the game allows a few hundred: marshmallow loaded
    every item before checking the length (1.4 s of CPU for one request, one error per item).
    The length is checked first: one error, at the list."""
    state = client.post(f"/v1/games/{game_id}/setup", json={"players": 2, "seed": "long"}).get_json()["state"]
    state[field] = [1] * 200_000
    answer = client.post(f"/v1/games/{game_id}/legal-moves", json={"state": state})
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    assert [e["pointer"] for e in errors] == [f"/state/{field}"], errors[:3]
    assert errors[0]["detail"].startswith("Longer than maximum length"), errors[0]


def test_a_replay_of_too_many_moves_is_refused_before_they_are_read(client):
    """40,000 empty moves (40 times MAX_REPLAY_MOVES): one error at /moves, not one per move.
    250,000 (a 1 MiB body) are more arrays and objects than any request needs, refused before
    the body is read (MAX_JSON_CONTAINERS)."""
    state = SC.setup(2, "many", {})
    answer = client.post("/v1/games/scratch-and-catch/replay", json={"state": state, "moves": [{}] * 40_000})
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    assert [e["pointer"] for e in errors] == ["/moves"], errors[:3]
    answer = client.post("/v1/games/scratch-and-catch/replay", json={"state": state, "moves": [{}] * 250_000})
    assert answer.status_code == 400
    assert answer.get_json()["errors"] == [{"pointer": "", "detail": "more than 50,000 arrays and objects"}]


def test_a_katulhu_catalogue_of_too_many_beats_entries_is_refused_before_they_are_read(client):
    """``beats`` maps each of at most 20 toys to the toys it beats; 80,000 entries (1 s of
    CPU: marshmallow loaded every key and value first) get one error, at the object."""
    catalogue = {**DEFAULT_CATALOGUE, "beats": {f"t{i}": 5 for i in range(80_000)}}
    answer = client.post("/v1/games/call-of-katulhu/setup",
                         json={"players": 2, "seed": "s", "options": {"catalogue": catalogue}})
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    assert [e["pointer"] for e in errors] == ["/options/catalogue/beats"], errors[:3]
    assert "20" in errors[0]["detail"], errors[0]


def test_katulhu_catalogue_over_the_cat_limit_is_422(client):
    cats = [{"id": f"c{i}", "colour": "blue", "slots": ["yarn", "mouse", None, "box"]} for i in range(MAX_CATS + 1)]
    catalogue = {**DEFAULT_CATALOGUE, "cats": cats, "cat_count": MAX_CATS + 1}
    answer = client.post("/v1/games/call-of-katulhu/setup", json={"players": 2, "options": {"catalogue": catalogue}})
    assert answer.status_code == 422
    pointers = {e["pointer"] for e in answer.get_json()["errors"]}
    assert "/options/catalogue/cats" in pointers or "/options/catalogue/cat_count" in pointers


@pytest.mark.timing
def test_heaviest_replays_leave_healthz_answering(tmp_path):
    """Four of the heaviest replays the limits allow (the worst of bench/bench_worst.py: Scratch &
    Catch, 6 players, the largest deck) in parallel on one worker; /healthz keeps answering. It
    was held 13 s by four 906 KB replays before the limits."""
    deck = {"cat": [99] * 10, "scratch": [99] * 10}
    start = SC.setup(6, "heavy", {"deck": deck})
    size = len(json.dumps(start, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    moves, _ = random_moves(SC, start, min(MAX_REPLAY_MOVES, MAX_REPLAY_WORK // size))
    server = start_gunicorn(tmp_path, WEB_CONCURRENCY="1")
    try:
        statuses, probes = [], []

        def replay():
            statuses.append(http("POST", server.base + "/v1/games/scratch-and-catch/replay",
                                 {"state": start, "moves": moves})[0])
        threads = [threading.Thread(target=replay) for _ in range(4)]
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            status, seconds = timed_get(server.base + "/healthz")
            assert status == 200
            probes.append(seconds)
            time.sleep(0.02)
        assert statuses == [200] * 4
        # Each replay costs at most about 0.25 s of CPU and yields between steps; parsing the body and
        # writing the answer cannot yield, so a probe may wait for a few of those (slower on a busy machine).
        # On an idle machine the probes take a few ms; on a busy 2-core test machine up to about a second.
        probes.sort()
        assert probes[len(probes) // 2] < 0.5 and probes[-1] < 3.0, probes
    finally:
        server.stop()
