"""Failure 1 of the edge issue: slow or idle clients must not stall the service. With the
default worker model (gevent, one worker, as the image runs it), 200 connections that send a
request head and then trickle their body, plus idle connections, leave /healthz answering
fast; a keep-alive connection serves several requests."""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import socket
import statistics
import threading
import time
from typing import Iterator

import pytest

from tests.edge.support import start_gunicorn, timed_get

HEAD = (b"POST /v1/games/scratch-and-catch/adjudicate HTTP/1.1\r\nHost: referee\r\n"
        b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n")


@contextlib.contextmanager
def trickling(port: int, clients: int, every: float) -> Iterator[list[socket.socket]]:
    """``clients`` connections that send HEAD and then a byte of body every ``every``
    seconds, until the block ends (then closed)."""
    stop = threading.Event()
    sockets: list[socket.socket] = []
    try:
        for _ in range(clients):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(HEAD + b"{")
            sockets.append(sock)

        def trickle():
            while not stop.is_set():
                for sock in sockets:
                    try:
                        sock.send(b" ")
                    except OSError:
                        pass
                stop.wait(every)
        threading.Thread(target=trickle, daemon=True).start()
        yield sockets
    finally:
        stop.set()
        for sock in sockets:
            sock.close()


@pytest.mark.timing
def test_trickling_and_idle_clients_do_not_hold_the_worker(tmp_path):
    server = start_gunicorn(tmp_path, WEB_CONCURRENCY="1")
    try:
        with trickling(server.port, 200, every=0.5):
            idle = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(20)]
            time.sleep(0.5)
            probes = []
            for _ in range(30):
                status, seconds = timed_get(server.base + "/healthz")
                assert status == 200
                probes.append(seconds)
                time.sleep(0.05)
            probes.sort()
            # Sync workers answered 67-70% of such probes after more than 2 s (the issue).
            # A few ms on an idle machine; the bound on the slowest leaves room for a busy test machine.
            assert statistics.median(probes) < 0.1, probes
            assert probes[-1] < 1.0, probes
            for sock in idle:
                sock.close()
    finally:
        server.stop()
    assert "Using worker: gevent" in (tmp_path / "gunicorn.log").read_text()


def test_connections_are_kept_alive(tmp_path):
    server = start_gunicorn(tmp_path)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        for _ in range(3):
            connection.request("GET", "/healthz")
            answer = connection.getresponse()
            assert answer.status == 200 and answer.read() == b'{"status":"ok"}'
            assert answer.getheader("Connection", "keep-alive").lower() == "keep-alive"
        connection.close()
    finally:
        server.stop()


@pytest.mark.parametrize("worker_class", ["gevent", "sync"])
def test_a_body_trickled_past_the_body_deadline_is_answered_408(tmp_path, worker_class):
    """A body that does not arrive within REFEREE_BODY_TIMEOUT_SECONDS is answered 408
    problem+json: a client trickling a byte now and then no longer holds a connection of the
    worker for as long as it likes. Under sync workers too: their one thread blocked in the
    read until gunicorn's worker timeout killed the worker, and the client got a 500."""
    server = start_gunicorn(tmp_path, REFEREE_BODY_TIMEOUT_SECONDS="1", GUNICORN_WORKER_CLASS=worker_class)
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            sock.sendall(HEAD + b"{")
            started = time.monotonic()
            received = b""
            sock.settimeout(0.2)
            while b"\r\n\r\n" not in received and time.monotonic() - started < 4:
                try:
                    sock.send(b" ")
                    part = sock.recv(65536)
                    if not part:
                        break
                    received += part
                except socket.timeout:
                    continue
            seconds = time.monotonic() - started
            # The body may come in a later segment than the head: read it whole.
            head, _, body = received.partition(b"\r\n\r\n")
            length = int(next((line.split(b":")[1] for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), b"0"))
            sock.settimeout(2)
            while len(body) < length:
                part = sock.recv(65536)
                if not part:
                    break
                body += part
            received = head + b"\r\n\r\n" + body
        status_line = received.split(b"\r\n", 1)[0]
        assert status_line.split()[1] == b"408", received
        assert b"application/problem+json" in received and b"REFEREE_BODY_TIMEOUT_SECONDS" in received
        assert 0.9 < seconds < 2.5, seconds
        # The connection is closed after the answer, and the answer says so (RFC 9112 section 9.6).
        connection = [line.split(b":", 1)[1].strip().lower() for line in head.split(b"\r\n")
                      if line.lower().startswith(b"connection:")]
        assert connection == [b"close"], head
        # The worker answered it: alive, and the next client is served at once.
        assert timed_get(f"{server.base}/healthz")[0] == 200
        assert b"WORKER TIMEOUT" not in server.log.read_bytes()
    finally:
        server.stop()


def test_a_slow_body_within_the_deadline_is_judged(tmp_path):
    """A body sent in parts, all within the body deadline, is read whole and judged."""
    server = start_gunicorn(tmp_path, REFEREE_BODY_TIMEOUT_SECONDS="2")
    try:
        body = b'{"players": 2, "seed": "slow"}'
        head = (b"POST /v1/games/scratch-and-catch/setup HTTP/1.1\r\nHost: referee\r\n"
                b"Content-Type: application/json\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n")
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            sock.sendall(head + body[:10])
            time.sleep(0.5)
            sock.sendall(body[10:20])
            time.sleep(0.5)
            sock.sendall(body[20:])
            received = b""
            while b"\r\n\r\n" not in received:
                received += sock.recv(65536)
        assert received.split(b"\r\n", 1)[0].split()[1] == b"200", received
    finally:
        server.stop()


@pytest.mark.timing
def test_clients_trickling_bodies_on_every_connection_do_not_take_the_service_down(tmp_path):
    """As many trickling clients as the worker has connections: without a body deadline they
    held all of them (and every later client waited forever); with it, they are answered 408
    and the service answers again once the deadline has passed."""
    server = start_gunicorn(tmp_path, GUNICORN_WORKER_CONNECTIONS="50", REFEREE_BODY_TIMEOUT_SECONDS="1",
                            GUNICORN_ACCESS_LOG="")
    try:
        with trickling(server.port, 50, every=0.2):
            time.sleep(0.3)
            status, seconds = timed_get(server.base + "/healthz")
            assert status == 200 and seconds < 4.0, seconds
    finally:
        server.stop()


def _json(port: int, method: str, path: str, body: dict | None = None, headers: dict | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path, None if body is None else json.dumps(body),
                       {"Content-Type": "application/json", **(headers or {})})
    answer = connection.getresponse()
    data = answer.read()
    connection.close()
    return answer.status, json.loads(data) if data else None


def test_a_stream_its_client_stops_reading_ends_at_the_stream_limit(tmp_path):
    """REFEREE_MAX_STREAM_SECONDS bounds a stream whose client reads nothing too. Such a stream
    blocks in a write once the socket buffers are full; unless that write is bounded, it holds
    its connection and waiting slot for as long as the client keeps the connection open, and
    with every slot of the worker taken so, each long-poll is answered 503."""
    server = start_gunicorn(tmp_path, REFEREE_MAX_STREAM_SECONDS="3", REFEREE_MAX_WAITING="2",
                            GUNICORN_WORKER_CONNECTIONS="20", GUNICORN_ACCESS_LOG="")
    sockets = []
    try:
        status, match = _json(server.port, "POST", "/v1/matches",
                              {"game": "call-of-katulhu", "players": 2, "seed": "unread"})
        assert status == 201
        secrets = [seat["secret"] for seat in match["seats"]]
        for _ in range(2):   # every waiting slot: streams of the placements (about 25 KB each), never read
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", server.port))
            sock.sendall(f"GET /v1/matches/{match['id']}/events?seat=0&include=legal_moves HTTP/1.1\r\n"
                         f"Host: referee\r\nAuthorization: Bearer {secrets[0]}\r\n\r\n".encode())
            sockets.append(sock)
        time.sleep(0.3)
        version, started, choose = 0, time.monotonic(), random.Random(0)   # (this game lasts 2,420 moves)
        while time.monotonic() - started < 2.5:   # megabytes for each stream, more than the socket buffers hold
            for seat in (version % 2, 1 - version % 2):   # (both place, then either may be the one to act)
                auth = {"Authorization": f"Bearer {secrets[seat]}"}
                status, listing = _json(server.port, "GET", f"/v1/matches/{match['id']}/legal-moves?seat={seat}",
                                        headers=auth)
                if listing["moves"]:
                    break
            assert status == 200 and listing["moves"], listing
            status, verdict = _json(server.port, "POST", f"/v1/matches/{match['id']}/moves",
                                    {"move": choose.choice(listing["moves"])},
                                    {**auth, "If-Match": f'"{version}"'})
            assert status == 200 and verdict["legal"], verdict
            version += 1
        time.sleep(4)   # past the stream limit, and a write blocked that long
        status, _ = _json(server.port, "GET", f"/v1/matches/{match['id']}",
                          headers={"If-None-Match": f'"{version}"', "Prefer": "wait=1"})
        assert status == 304   # a waiting slot was free: not 503
    finally:
        for sock in sockets:
            sock.close()
        server.stop()


def test_clients_that_never_read_large_answers_do_not_take_the_service_down(tmp_path):
    """More clients than the worker has connections, each asking for the Swagger UI bundle
    (1.6 MB, more than the socket buffers hold) and reading none of it: each answer's write
    blocks. A file is written a block at a time, each write bounded by
    REFEREE_BODY_TIMEOUT_SECONDS (1 s here): the connections are closed and the service
    answers again. Unbounded, they stay held for as long as the clients keep them open, and no
    later client is served."""
    server = start_gunicorn(tmp_path, GUNICORN_WORKER_CONNECTIONS="20", REFEREE_BODY_TIMEOUT_SECONDS="1",
                            GUNICORN_ACCESS_LOG="")
    sockets = []
    try:
        for _ in range(30):   # (more than the worker's connections: some wait to be accepted)
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            sock.connect(("127.0.0.1", server.port))
            sock.sendall(b"GET /docs/assets/swagger-ui-bundle.js HTTP/1.1\r\nHost: referee\r\n\r\n")
            sockets.append(sock)
        time.sleep(3)
        status, seconds = timed_get(server.base + "/healthz", timeout=10.0)
        assert status == 200, seconds
    finally:
        for sock in sockets:
            sock.close()
        server.stop()
