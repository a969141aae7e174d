"""Redis outages: the service starts while Redis is down; with Redis stopped or frozen, match
endpoints answer 503 problem+json with Retry-After (never 500) and quickly, stateless
endpoints keep answering, /readyz reports the store, /healthz never touches it; when Redis
returns, matches carry on."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time

import pytest
import redis

from referee.app import create_app
from referee.games import GAMES
from referee.store.redis import WAIT_MARGIN_SECONDS, RedisStore, versions_key
from tests.support.matches_support import RedisServer, free_port

GAME = GAMES["scratch-and-catch"]


@pytest.fixture()
def server(tmp_path):
    node = RedisServer(tmp_path / "redis", free_port())
    yield node
    if node.process is not None and node.process.poll() is None:
        os.kill(node.process.pid, signal.SIGCONT)
    node.stop()


def assert_unavailable(answer):
    assert answer.status_code == 503, answer.get_data(as_text=True)
    assert answer.content_type == "application/problem+json"
    assert int(answer.headers["Retry-After"]) >= 1
    assert answer.get_json()["status"] == 503


def stateless_answers(client):
    assert client.get("/healthz").status_code == 200
    assert client.get("/v1/games").status_code == 200
    setup = client.post("/v1/games/scratch-and-catch/setup", json={"players": 2, "seed": "s"})
    assert setup.status_code == 200
    state = setup.get_json()["state"]
    judged = client.post("/v1/games/scratch-and-catch/adjudicate",
                         json={"state": state, "move": GAME.legal_moves(state)[0]})
    assert judged.status_code == 200 and judged.get_json()["legal"] is True


def match_endpoints_unavailable(client, match, version, legal):
    started = time.monotonic()
    assert_unavailable(client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}))
    assert_unavailable(client.get(f"/v1/matches/{match['id']}"))
    assert_unavailable(client.get(f"/v1/matches/{match['id']}/log"))
    assert_unavailable(client.post(f"/v1/matches/{match['id']}/moves", json={"move": legal},
                                   headers={"If-Match": f'"{version}"',
                                            "Authorization": f"Bearer {match['seats'][legal['player']]['secret']}"}))
    ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.get_json()["store"]["ok"] is False
    assert_no_address(ready)
    return time.monotonic() - started


def assert_no_address(ready):
    """Readiness says what happened to the store, not where it is: no host or port of the
    store's URL in the answer (the log has the library's error)."""
    store = ready.get_json()["store"]
    assert set(store) == {"kind", "ok", "error"}
    assert store["error"] in ("cannot reach Redis", "Redis did not answer",
                              "Redis did not answer within the request's deadline"), store
    assert "127.0.0.1" not in ready.get_data(as_text=True) and "Error" not in store["error"]


def play_one(client, store, match, version):
    state = json.loads(store.get(match["id"]).state)
    legal = GAME.legal_moves(state)[0]
    answer = client.post(f"/v1/matches/{match['id']}/moves", json={"move": legal},
                         headers={"If-Match": f'"{version}"',
                                  "Authorization": f"Bearer {match['seats'][legal['player']]['secret']}"})
    assert answer.status_code == 200 and answer.get_json()["version"] == version + 1
    return version + 1


def next_legal(store, match):
    return GAME.legal_moves(json.loads(store.get(match["id"]).state))[0]


def test_outage_and_recovery(server):
    store = RedisStore(server.url, ttl=600, socket_timeout=0.2)
    client = create_app({"TESTING": True, "REFEREE_STORE": store}).test_client()

    # Started while Redis is down.
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 503
    assert_no_address(client.get("/readyz"))
    assert client.get("/readyz").get_json()["store"]["error"] == "cannot reach Redis"   # refused, never reached
    assert_unavailable(client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}))

    server.start()
    assert client.get("/readyz").get_json()["store"] == {"kind": "redis", "ok": True}
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "f"}).get_json()
    version = play_one(client, store, match, 0)

    # Stopped (connections refused); the data is saved and comes back with the server.
    legal = next_legal(store, match)
    subprocess.run(["redis-cli", "-p", str(server.port), "shutdown", "save"], capture_output=True, timeout=10)
    server.process.wait(10)
    elapsed = match_endpoints_unavailable(client, match, version, legal)
    assert elapsed < 5, f"503 answers took {elapsed:.1f}s"
    stateless_answers(client)

    server.start()
    version = play_one(client, store, match, version)
    assert client.get("/readyz").status_code == 200

    # Frozen (timeouts rather than refusals).
    legal = next_legal(store, match)
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        elapsed = match_endpoints_unavailable(client, match, version, legal)
        assert elapsed < 10, f"503 answers took {elapsed:.1f}s"
        stateless_answers(client)
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    version = play_one(client, store, match, version)
    log = client.get(f"/v1/matches/{match['id']}/log").get_json()
    assert [e["version"] for e in log["entries"]] == [1, 2, 3]
    store.close()


def _frozen_during(server, seconds_before, request):
    """Run ``request()`` in a thread, freeze Redis (SIGSTOP) ``seconds_before`` later, and
    return (its result, the seconds it took)."""
    outcome = {}

    def run():
        started = time.monotonic()
        outcome["result"] = request()
        outcome["took"] = time.monotonic() - started

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(seconds_before)
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        thread.join(60)
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    assert not thread.is_alive()
    return outcome["result"], outcome["took"]


def test_a_long_poll_on_a_frozen_redis_ends_about_a_second_after_its_wait(server):
    """docs/guides/operating.md, "Faults": a Redis that stops answering while a request waits for a move
    costs the wait asked (Prefer: wait=1) and about a second more, then 503; not the longest
    wait (30 s) whatever was asked."""
    server.start()
    store = RedisStore(server.url, ttl=600)
    client = create_app({"TESTING": True, "REFEREE_STORE": store}).test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}).get_json()
    answer, took = _frozen_during(server, 0.3, lambda: client.get(
        f"/v1/matches/{match['id']}", headers={"If-None-Match": '"0"', "Prefer": "wait=1"}))
    assert_unavailable(answer)
    assert took < 1 + WAIT_MARGIN_SECONDS + 1.5, f"503 after {took:.1f} s"
    store.close()


def test_an_event_stream_on_a_frozen_redis_says_unavailable_after_its_heartbeat(server):
    """docs/reference/events.md: a stream whose store stops answering ends with ``event: unavailable``;
    with a frozen Redis that comes about a second after the heartbeat interval."""
    server.start()
    store = RedisStore(server.url, ttl=600)
    client = create_app({"TESTING": True, "REFEREE_STORE": store, "REFEREE_EVENTS_HEARTBEAT_SECONDS": 1}).test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}).get_json()
    body, took = _frozen_during(server, 0.3, lambda: client.get(f"/v1/matches/{match['id']}/events").get_data(
        as_text=True))
    assert body.startswith("retry: ") and "event: unavailable" in body
    assert took < 1 + WAIT_MARGIN_SECONDS + 1.5, f"unavailable after {took:.1f} s"
    store.close()


def test_a_stream_waiting_after_an_announcement_read_says_unavailable_in_time(server):
    """Past version 0 a stream's wake reads the newest announcement with the snapshot, and its
    wait is one XREAD after it, with no call before (RedisStore.wait): frozen during that
    wait, the stream still ends with ``unavailable`` about a second after its heartbeat."""
    server.start()
    store = RedisStore(server.url, ttl=600)
    client = create_app({"TESTING": True, "REFEREE_STORE": store, "REFEREE_EVENTS_HEARTBEAT_SECONDS": 1}).test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}).get_json()
    play_one(client, store, match, 0)
    body, took = _frozen_during(server, 0.3, lambda: client.get(f"/v1/matches/{match['id']}/events").get_data(
        as_text=True))
    assert store._announced[match["id"]][1] == 1   # (the wait that froze was the XREAD alone)
    assert body.startswith("retry: 1000\nid: 1\n\nevent: unavailable\n") and body.count("event: ") == 1
    assert took < 1 + WAIT_MARGIN_SECONDS + 1.5, f"unavailable after {took:.1f} s"
    store.close()


def test_a_wait_that_opens_a_connection_to_a_frozen_redis_gives_up_as_quickly(server):
    """A waiting request may need a new connection of the blocking client (a fresh worker, more
    waiters than idle connections, or one disconnected after a give-up): opening it and its
    handshake on a frozen Redis are bounded by the store's socket timeout, not by the longest
    wait (31 s before)."""
    server.start()
    store = RedisStore(server.url, ttl=600, socket_timeout=0.25)
    os.kill(server.process.pid, signal.SIGSTOP)
    started = time.monotonic()
    try:
        with pytest.raises(redis.RedisError):
            store._block_on(versions_key("frozen"), "0-0", 1000)   # no connection of its pool yet
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    assert time.monotonic() - started < 1 + WAIT_MARGIN_SECONDS, f"gave up after {time.monotonic() - started:.1f} s"
    store.close()
