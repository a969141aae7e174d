"""Live matches across servers: long-poll (``If-None-Match`` + ``Prefer: wait``) and
server-sent events, with two gunicorn servers on one real Redis server; the waiting bound
in process."""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
from pathlib import Path

import pytest
import redis

from referee.api.http.problems import ProblemError
from referee.api.ops import live
from referee.api.ops.live import WaitingSlots, preferred_wait
from referee.app import create_app
from referee.games import GAMES
from referee.store import MAX_WAIT_SECONDS
from referee.store.memory import MemoryStore
from tests.support.documents import load_yaml
from tests.support.matches_support import Gunicorn, RedisServer, have, play_first_moves
from tests.support.matches_support import http as call

pytestmark = pytest.mark.skipif(not have("redis-server"), reason="needs redis-server")
GAME = GAMES["scratch-and-catch"]


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """Two servers on one Redis: A (3 workers, where clients wait) and B (where moves are posted)."""
    directory = tmp_path_factory.mktemp("live")
    redis_server = RedisServer(directory / "redis").start()
    env = {"REDIS_URL": redis_server.url, "REFEREE_EVENTS_HEARTBEAT_SECONDS": "1"}
    a = Gunicorn({**env, "WEB_CONCURRENCY": "3"}, directory / "a.log").start()
    b = Gunicorn({**env, "WEB_CONCURRENCY": "1"}, directory / "b.log").start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()
        redis_server.stop()


def _create(server, players=2, seed="live"):
    status, headers, match = call("POST", server.base + "/v1/matches",
                                  {"game": "scratch-and-catch", "players": players, "seed": seed})
    assert status == 201
    return match


def _state(server, match, seat):
    secret = match["seats"][seat]["secret"]
    status, _, answer = call("GET", f"{server.base}/v1/matches/{match['id']}?seat={seat}",
                             headers={"Authorization": f"Bearer {secret}"})
    assert status == 200
    return answer


def _play_next(server, match, version):
    """Post the first legal move of the seat to act (Scratch & Catch: one seat acts at a time)."""
    seat = _state(server, match, 0)["state"]["turn"]["player"]
    secret = match["seats"][seat]["secret"]
    _, _, listed = call("GET", f"{server.base}/v1/matches/{match['id']}/legal-moves?seat={seat}",
                        headers={"Authorization": f"Bearer {secret}"})
    status, headers, verdict = call("POST", f"{server.base}/v1/matches/{match['id']}/moves",
                                    {"move": listed["moves"][0]},
                                    headers={"Authorization": f"Bearer {secret}", "If-Match": f'"{version}"'})
    assert status == 200 and verdict["legal"], verdict
    return verdict


def test_prefer_wait_is_parsed_per_rfc_7240():
    assert preferred_wait("wait=10") == 10
    assert preferred_wait("respond-async, wait=5") == 5
    assert preferred_wait("wait=600") == 30          # capped at 30 seconds
    assert preferred_wait("wait=soon") is None and preferred_wait(None) is None


@pytest.mark.timing
def test_a_waiting_get_returns_within_100_ms_of_a_move_on_another_server(servers):
    a, b = servers
    match = _create(a)
    result: dict = {}

    def wait():
        result["answer"] = call("GET", f"{a.base}/v1/matches/{match['id']}",
                                headers={"If-None-Match": '"0"', "Prefer": "wait=10"})
        result["at"] = time.monotonic()

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.5)
    assert waiter.is_alive()                 # still waiting: nothing has moved
    _play_next(b, match, 0)
    posted = time.monotonic()                # the move has landed (its answer is back)
    waiter.join(10)
    status, headers, body = result["answer"]
    assert status == 200 and headers["ETag"] == '"1"' and body["version"] == 1
    assert headers["Preference-Applied"] == "wait=10"
    assert result["at"] - posted < 0.1, f"woke {result['at'] - posted:.3f} s after the move"


def test_a_wait_with_no_move_answers_304_after_the_wait(servers):
    a, _ = servers
    match = _create(a)
    started = time.monotonic()
    status, headers, _ = call("GET", f"{a.base}/v1/matches/{match['id']}",
                              headers={"If-None-Match": '"0"', "Prefer": "wait=1"})
    took = time.monotonic() - started
    assert status == 304 and headers["ETag"] == '"0"' and headers["Preference-Applied"] == "wait=1"
    assert 0.9 <= took < 3


class _Stream:
    """A text/event-stream read event by event."""

    def __init__(self, server, path: str, headers: dict):
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()
        assert self.response.headers["Content-Type"].startswith("text/event-stream")

    def next(self, within: float | None = None) -> dict:
        """The next event (comments and retry lines skipped): {"id", "event", "data"};
        TimeoutError when none came ``within`` seconds (heartbeats keep the stream busy)."""
        fields: dict = {}
        deadline = None if within is None else time.monotonic() + within
        while True:
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"no event within {within} s")
            line = self.response.readline().decode("utf-8")
            if line == "":
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line == "":
                if "event" in fields:
                    return fields
                fields = {}
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(": ")
            if name in ("id", "event"):
                fields[name] = value
            elif name == "data":
                fields["data"] = json.loads(value)

    def close(self) -> None:
        self.connection.close()


def test_events_on_one_server_follow_every_move_posted_on_the_other(servers):
    a, b = servers
    match = _create(a, seed="live-stream")
    seat1 = {"Authorization": f"Bearer {match['seats'][1]['secret']}"}
    spectator = _Stream(a, f"/v1/matches/{match['id']}/events", {})
    seat = _Stream(a, f"/v1/matches/{match['id']}/events?seat=1", seat1)
    for version in range(6):
        _play_next(b, match, version)
    got = {"spectator": [spectator.next() for _ in range(6)], "seat": [seat.next() for _ in range(6)]}
    spectator.close()
    seat.close()
    for reader, query, headers in (("spectator", "", {}), ("seat", "?seat=1", seat1)):
        _, _, log = call("GET", f"{a.base}/v1/matches/{match['id']}/log{query}", headers=headers)
        events = got[reader]
        assert [int(e["id"]) for e in events] == [1, 2, 3, 4, 5, 6]       # in order, no gap
        assert all(e["event"] == "move" for e in events)
        assert [e["data"] for e in events] == log["entries"]              # as that reader reads the log


def test_seats_play_a_whole_match_with_their_streams_and_moves_only(servers):
    """Each seat follows the match on server A with one event stream (include=legal_moves)
    and posts its moves on server B with include=legal_moves, choosing from what those carry;
    nobody asks for legal moves. The match ends after one POST per move, and each stream's
    legal moves at a version are those of the mover's verdict there."""
    a, b = servers
    match = _create(a, seed="live-one-request")
    base = f"/v1/matches/{match['id']}"
    auth = [{"Authorization": f"Bearer {seat['secret']}"} for seat in match["seats"]]
    streams = [_Stream(a, f"{base}/events?seat={seat}&include=legal_moves", {**auth[seat], "Last-Event-ID": "0"})
               for seat in (0, 1)]

    def listed(seat: int, version: int) -> list[dict] | None:
        """The seat's moves at ``version`` from its stream; None once the stream says ``end``."""
        while True:
            event = streams[seat].next(within=10)
            if event["event"] == "end":
                return None
            if event["event"] == "legal_moves" and event["data"]["version"] == version:
                assert "id" not in event
                return event["data"]["moves"]

    known = [listed(seat, 0) for seat in (0, 1)]
    version = posts = 0
    while any(known):
        seat = 0 if known[0] else 1
        status, _, verdict = call("POST", f"{b.base}{base}/moves?include=legal_moves", {"move": known[seat][0]},
                                  headers={**auth[seat], "If-Match": f'"{version}"'})
        posts += 1
        assert status == 200 and verdict["legal"] and verdict["version"] == version + 1, verdict
        version += 1
        for reader in (0, 1):
            moves = listed(reader, version)
            if reader == seat and moves is not None:
                assert moves == verdict["legal_moves"]
            known[reader] = moves or []
    for stream in streams:
        stream.close()
    _, _, final = call("GET", f"{a.base}{base}")
    assert final["outcome"]["finished"] and final["version"] == version == posts


def test_events_resume_after_last_event_id(servers):
    a, b = servers
    match = _create(a, seed="live-resume")
    for version in range(4):
        _play_next(b, match, version)
    first = _Stream(a, f"/v1/matches/{match['id']}/events", {"Last-Event-ID": "0"})
    assert [int(first.next()["id"]) for _ in range(2)] == [1, 2]
    first.close()                                                        # the connection drops
    _play_next(b, match, 4)
    again = _Stream(a, f"/v1/matches/{match['id']}/events", {"Last-Event-ID": "2"})
    assert [int(again.next()["id"]) for _ in range(3)] == [3, 4, 5]
    again.close()
    status, _, problem = call("GET", f"{a.base}/v1/matches/{match['id']}/events",
                              headers={"Last-Event-ID": "two"})
    assert status == 422 and problem["errors"][0]["pointer"] == "/headers/Last-Event-ID"


def test_the_contract_admits_exactly_the_last_event_ids_the_service_takes():
    """Last-Event-ID: empty is the same as absent (resume after the current version); a
    version is at most 18 ASCII digits, with the spaces and tabs HTTP allows around a value;
    anything else is a 422 (superscript and other Unicode digits included: once a 500). The
    contract says the same."""
    spec = load_yaml((Path(__file__).resolve().parents[3] / "openapi.yaml").read_text())
    parameters = spec["paths"]["/v1/matches/{match_id}/events"]["get"]["parameters"]
    pattern = next(p for p in parameters if p["name"] == "Last-Event-ID")["schema"]["pattern"]
    for value, taken in (("", None), (" ", None), ("0", 0), ("42", 42), (" 0 ", 0), ("\t1", 1),
                         ("9" * 18, 10**18 - 1), ("9" * 19, "refused"), ("two", "refused"), ("-1", "refused"),
                         ("1.5", "refused"), ("0x1", "refused"), ("\u00b2", "refused"), ("1\u00b9", "refused"),
                         ("\u0661", "refused"), ("\u00a01", "refused")):
        try:
            answer = live.last_event_id(value)
        except ProblemError as error:
            answer = "refused"
            assert error.status == 422
        assert answer == taken, value
        assert (re.fullmatch(pattern, value) is not None) == (taken != "refused"), value


def test_a_wait_preference_with_unicode_digits_is_ignored():
    """RFC 7240: a preference that cannot be honoured is ignored ("wait=\u00b2" was a 500)."""
    assert preferred_wait("wait=\u00b2") is None and preferred_wait("wait=1\u00b9") is None
    assert preferred_wait("wait=\u0661") is None and preferred_wait("wait=3") == 3
    assert preferred_wait("wait=" + "9" * 20) == preferred_wait("wait=31") == MAX_WAIT_SECONDS  # capped, not ignored
    store = MemoryStore(ttl=3600)
    client = create_app({"TESTING": True, "REFEREE_STORE": store}).test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "prefer"}).get_json()
    began = time.monotonic()
    answer = client.get(f"/v1/matches/{match['id']}", headers={"If-None-Match": '"0"', "Prefer": "wait=\u00b2"})
    assert answer.status_code == 304 and time.monotonic() - began < 1


def test_a_stream_ends_with_the_game():
    """The last event of a finished game's stream is ``end`` with the outcome (in process)."""
    store = MemoryStore(ttl=3600)
    client = create_app({"TESTING": True, "REFEREE_STORE": store}).test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "end"}).get_json()
    secrets = [s["secret"] for s in match["seats"]]
    version = play_first_moves(client, store, match, secrets)
    stream = client.get(f"/v1/matches/{match['id']}/events", headers={"Last-Event-ID": str(version - 1)})
    text = b"".join(stream.response).decode()   # a finished game's stream ends by itself
    assert text.count("event: move") == 1 and text.rstrip().split("\n")[-2] == "event: end"
    end = json.loads(text.rstrip().split("\n")[-1][len("data: "):])
    assert end["outcome"]["finished"] and end["outcome"]["winners"]


def test_waiting_requests_are_bounded_per_process():
    store = MemoryStore(ttl=3600)
    app = create_app({"TESTING": True, "REFEREE_STORE": store, "REFEREE_WAITING": WaitingSlots(1)})
    client = app.test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}).get_json()
    held = client.get(f"/v1/matches/{match['id']}/events")          # holds the one slot while open
    refused = client.get(f"/v1/matches/{match['id']}", headers={"If-None-Match": '"0"', "Prefer": "wait=5"})
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "1"
    assert refused.content_type == "application/problem+json"
    held.close()
    assert app.extensions["referee.waiting"].waiting == 0
    assert client.get(f"/v1/matches/{match['id']}", headers={"If-None-Match": '"0"', "Prefer": "wait=0"}
                      ).status_code == 304


def _ends_unavailable_without_spinning(stream, client) -> None:
    """The stream says ``unavailable`` within 5 s and ends, in fewer than 200 Redis commands."""
    commands = client.info("stats")["total_commands_processed"]
    started = time.monotonic()
    ended = stream.next(within=10)
    assert ended["event"] == "unavailable" and time.monotonic() - started < 5
    assert client.info("stats")["total_commands_processed"] - commands < 200
    stream.close()


def test_a_stream_whose_moves_the_store_lost_ends_so_that_the_client_resumes(servers):
    """The store loses versions a stream had sent (its keys put back as they were at version
    2, as a failover to a replica behind its primary does). Before: the stream read an empty
    log tail and a changed version in a loop, thousands of Redis calls a second, and skipped
    the new history's versions 3 and 4. Now it ends with ``unavailable``, and a reconnection
    with its Last-Event-ID resumes from the stored version."""
    a, b = servers
    match = _create(a, seed="live-lost")
    for version in range(2):
        _play_next(b, match, version)
    client = redis.Redis.from_url(a.env["REDIS_URL"])
    keys = client.keys("match:{" + match["id"] + "}:*")
    saved = {key: client.dump(key) for key in keys}
    for version in range(2, 4):
        _play_next(b, match, version)
    stream = _Stream(a, f"/v1/matches/{match['id']}/events", {"Last-Event-ID": "4"})
    assert set(client.keys("match:{" + match["id"] + "}:*")) == set(saved)
    with client.pipeline(transaction=True) as restore:  # all at once, as a promoted replica would
        for key, value in saved.items():
            restore.restore(key, 0, value, replace=True)
        restore.execute()
    _ends_unavailable_without_spinning(stream, client)
    again = _Stream(a, f"/v1/matches/{match['id']}/events", {"Last-Event-ID": "4"})  # EventSource reconnects
    _play_next(b, match, 2)                                   # the new history's version 3
    resumed = again.next(within=10)
    again.close()
    _, _, log = call("GET", f"{a.base}/v1/matches/{match['id']}/log")
    assert (int(resumed["id"]), resumed["data"]) == (3, log["entries"][2])


def test_a_stream_whose_next_entries_the_log_lacks_ends_rather_than_spins(servers):
    """A Redis under memory pressure evicts keys one by one (``maxmemory-policy allkeys-lru``):
    here the log list, while the snapshot stays. The next move leaves the store at version 3
    with a log of one entry, so a stream that has sent version 2 finds no entry after it. It
    must say ``unavailable`` at once and end (a reconnection gets the same answer, a second
    apart), not read the log and the version again and again, never writing a byte (so never
    noticing that its client left)."""
    a, b = servers
    match = _create(a, seed="live-evicted")
    for version in range(2):
        _play_next(b, match, version)
    stream = _Stream(a, f"/v1/matches/{match['id']}/events", {"Last-Event-ID": "2"})
    client = redis.Redis.from_url(a.env["REDIS_URL"])
    assert client.delete("match:{" + match["id"] + "}:log") == 1   # as an eviction does
    _play_next(b, match, 2)
    _ends_unavailable_without_spinning(stream, client)


def test_under_sync_workers_a_long_poll_ends_before_the_worker_timeout(tmp_path):
    """gunicorn kills a sync worker busy with one request longer than GUNICORN_TIMEOUT, and its
    client gets a 500. With sync workers the longest wait is 5 s less (docs/reference/configuration.md):
    ``Prefer: wait=30`` under an 8 s timeout waits 3 s and answers 304, saying so."""
    from tests.edge.support import free_port, start_gunicorn

    redis_server = RedisServer(tmp_path / "redis", free_port()).start()
    server = start_gunicorn(tmp_path, GUNICORN_WORKER_CLASS="sync", GUNICORN_TIMEOUT="8", REDIS_URL=redis_server.url)
    try:
        status, _, match = call("POST", server.base + "/v1/matches", {"game": "scratch-and-catch", "players": 2})
        assert status == 201
        started = time.monotonic()
        status, headers, _ = call("GET", f"{server.base}/v1/matches/{match['id']}",
                                  headers={"If-None-Match": '"0"', "Prefer": "wait=30"})
        took = time.monotonic() - started
        assert status == 304 and headers["Preference-Applied"] == "wait=3"
        assert 2.5 < took < 8, f"answered after {took:.1f} s"
    finally:
        server.stop()
        redis_server.stop()


def test_a_stream_ends_after_its_limit_and_its_client_resumes_where_it_was():
    """REFEREE_MAX_STREAM_SECONDS ends a stream (sync workers need it, see the next test). Its
    first chunk names the version it follows from (``id:``), so a client that reconnects with
    that Last-Event-ID, as EventSource does, gets the move made while it was away."""
    store = MemoryStore(ttl=3600)
    client = create_app({"TESTING": True, "REFEREE_STORE": store, "REFEREE_MAX_STREAM_SECONDS": 1.0,
                         "REFEREE_EVENTS_HEARTBEAT_SECONDS": 0.4}).test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "limit"}).get_json()
    started, text = time.monotonic(), ""
    for chunk in client.get(f"/v1/matches/{match['id']}/events").response:   # heartbeats: a chunk each 0.4 s
        text += chunk.decode()
        assert time.monotonic() - started < 3, "the stream did not end"
    took = time.monotonic() - started
    assert 0.9 < took < 3, f"the stream lasted {took:.1f} s"
    assert text.startswith(f"retry: {live.RECONNECT_MILLISECONDS}\nid: 0\n\n")
    assert ": heartbeat" in text and "event:" not in text        # no move: heartbeats only, then the end
    chosen = GAME.legal_moves(json.loads(store.get(match["id"]).state))[0]
    answer = client.post(f"/v1/matches/{match['id']}/moves", json={"move": chosen},
                         headers={"Authorization": f"Bearer {match['seats'][chosen['player']]['secret']}",
                                  "If-Match": '"0"'})
    assert answer.get_json()["legal"]
    resumed = client.get(f"/v1/matches/{match['id']}/events", headers={"Last-Event-ID": "0"})
    first = b""
    for chunk in resumed.response:
        first += chunk
        if b"event: move" in first:
            break
    resumed.close()
    assert "id: 1\nevent: move\n" in first.decode()


def test_under_sync_workers_an_event_stream_ends_before_the_worker_timeout(tmp_path):
    """A sync worker is held by its one request, and gunicorn kills it when that request outlasts
    GUNICORN_TIMEOUT: a stream cut short, a worker lost. With sync workers a stream stays open 5 s
    less (docs/reference/configuration.md), ends cleanly, and the worker lives on."""
    from tests.edge.support import free_port, start_gunicorn

    redis_server = RedisServer(tmp_path / "redis", free_port()).start()
    server = start_gunicorn(tmp_path, GUNICORN_WORKER_CLASS="sync", GUNICORN_TIMEOUT="8", REDIS_URL=redis_server.url,
                            REFEREE_EVENTS_HEARTBEAT_SECONDS="1")
    try:
        status, _, match = call("POST", server.base + "/v1/matches", {"game": "scratch-and-catch", "players": 2})
        assert status == 201
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
        started = time.monotonic()
        connection.request("GET", f"/v1/matches/{match['id']}/events")
        response = connection.getresponse()
        body = response.read().decode()          # the whole body: IncompleteRead if the stream were cut
        took = time.monotonic() - started
        connection.close()
        assert response.status == 200 and body.startswith("retry: ") and "id: 0\n" in body
        assert 2.5 < took < 7, f"the stream lasted {took:.1f} s"
        assert call("GET", server.base + "/healthz")[0] == 200
        assert "WORKER TIMEOUT" not in (tmp_path / "gunicorn.log").read_text()
    finally:
        server.stop()
        redis_server.stop()
