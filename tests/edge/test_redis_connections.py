"""A healthy Redis must not look unavailable under a burst: many match requests at once on
one gevent worker (each holds a Redis connection while its reply is on the way), and many
event streams at once (each waits on a Redis connection of its own), all answered without
a 503 or an ``unavailable`` event. Real gunicorn, real redis-server."""

from __future__ import annotations

import collections
import selectors
import socket
import time

import pytest

from tests.edge.support import http as call
from tests.edge.support import read_until, start_gunicorn
from tests.support.matches_support import have

# Bursts of 300 connections load the machine: run alone, with the other tests under load.
pytestmark = [pytest.mark.skipif(not have("redis-server"), reason="needs redis-server"), pytest.mark.timing]

BURST = 300


def _create(server) -> str:
    status, _, match = call("POST", server.base + "/v1/matches",
                            {"game": "scratch-and-catch", "players": 2, "seed": "burst"})
    assert status == 201
    return match["id"]


def _send_all(port: int, request: bytes, count: int) -> list[socket.socket]:
    sockets = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(count)]
    for sock in sockets:
        sock.sendall(request)
    return sockets


def _read_all(sockets: list[socket.socket], seconds: float) -> list[bytes]:
    """What arrives on each socket in the next ``seconds``, read from all of them at once."""
    received = {sock: b"" for sock in sockets}
    with selectors.DefaultSelector() as selector:
        for sock in sockets:
            selector.register(sock, selectors.EVENT_READ)
        end = time.monotonic() + seconds
        while selector.get_map() and (left := end - time.monotonic()) > 0:
            for key, _ in selector.select(left):
                part = key.fileobj.recv(65536)
                received[key.fileobj] += part
                if not part:   # closed by the server
                    selector.unregister(key.fileobj)
    return [received[sock] for sock in sockets]


def test_a_burst_of_match_reads_is_answered_without_503(tmp_path, redis_url):
    server = start_gunicorn(tmp_path, REDIS_URL=redis_url, GUNICORN_ACCESS_LOG="")
    try:
        match_id = _create(server)
        request = f"GET /v1/matches/{match_id} HTTP/1.1\r\nHost: referee\r\nConnection: close\r\n\r\n".encode()
        sockets = _send_all(server.port, request, BURST)
        statuses = collections.Counter()
        for sock in sockets:
            statuses[read_until(sock, None, 10).split(b"\r\n", 1)[0]] += 1
            sock.close()
        assert statuses == {b"HTTP/1.1 200 OK": BURST}
    finally:
        server.stop()


def test_a_burst_of_event_streams_all_wait(tmp_path, redis_url):
    server = start_gunicorn(tmp_path, REDIS_URL=redis_url, GUNICORN_ACCESS_LOG="",
                            REFEREE_EVENTS_HEARTBEAT_SECONDS="30")
    sockets: list[socket.socket] = []
    try:
        match_id = _create(server)
        request = f"GET /v1/matches/{match_id}/events HTTP/1.1\r\nHost: referee\r\n\r\n".encode()
        sockets = _send_all(server.port, request, BURST)
        answers = [read_until(sock, b"retry:", 10) for sock in sockets]
        assert collections.Counter(a.split(b"\r\n", 1)[0] for a in answers) == {b"HTTP/1.1 200 OK": BURST}
        time.sleep(1.0)   # every stream has reached its wait (or failed, sending "unavailable")
        answers = [answer + more for answer, more in zip(answers, _read_all(sockets, 1.0))]
        assert [a for a in answers if b"event: unavailable" in a] == []
    finally:
        for sock in sockets:
            sock.close()
        server.stop()
