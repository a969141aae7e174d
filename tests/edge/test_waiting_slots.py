"""The waiting slots (REFEREE_MAX_WAITING) are given back by every request that took one,
including requests whose event stream is never sent: a HEAD request answers the headers of
the stream without its body. Against gunicorn as the image runs it (gevent, one worker)."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess

from tests.edge.support import http as call
from tests.edge.support import start_gunicorn, timed_get
from tests.support.matches_support import ROOT, VENV_BIN


def _status(port: int, method: str, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request(method, path)
        answer = connection.getresponse()
        return answer.status
    finally:
        connection.close()


def test_head_requests_on_an_event_stream_give_their_slot_back(tmp_path):
    server = start_gunicorn(tmp_path, REFEREE_MAX_WAITING="2")
    try:
        status, _, match = call("POST", server.base + "/v1/matches",
                                {"game": "scratch-and-catch", "players": 2, "seed": "heads"})
        assert status == 201
        events = f"/v1/matches/{match['id']}/events"
        # Each HEAD answers like the GET it stands for, with no body; none may keep a slot.
        assert [_status(server.port, "HEAD", events) for _ in range(5)] == [200] * 5
        # The slots are free: a long-poll waiting 0 seconds is answered 304, not 503.
        status, _, _ = call("GET", server.base + f"/v1/matches/{match['id']}",
                            headers={"If-None-Match": '"0"', "Prefer": "wait=0"})
        assert status == 304
    finally:
        server.stop()


def test_waiting_requests_leave_connections_for_the_others(tmp_path):
    """With the default REFEREE_MAX_WAITING, event streams cannot take every connection of a
    worker: once they had (1000 streams, the default, for 1000 connections), the worker
    accepted nothing more, not even the 503 meant for the waiting requests beyond the limit."""
    server = start_gunicorn(tmp_path, GUNICORN_WORKER_CONNECTIONS="40", GUNICORN_ACCESS_LOG="")
    streams: list[socket.socket] = []
    try:
        status, _, match = call("POST", server.base + "/v1/matches",
                                {"game": "scratch-and-catch", "players": 2, "seed": "many"})
        assert status == 201
        request = f"GET /v1/matches/{match['id']}/events HTTP/1.1\r\nHost: referee\r\n\r\n".encode()
        statuses = []
        for _ in range(40):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(request)
            head = sock.recv(65536).split(b"\r\n", 1)[0].split()[1]
            statuses.append(int(head))
            if head == b"200":
                streams.append(sock)
            else:
                sock.close()   # a refused client comes back later
        assert 0 < statuses.count(200) < 40 and set(statuses) == {200, 503}, statuses
        status, seconds = timed_get(server.base + "/healthz")
        assert status == 200 and seconds < 2.0, seconds
    finally:
        for sock in streams:
            sock.close()
        server.stop()


def test_gunicorn_refuses_as_many_waiting_requests_as_connections():
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(GUNICORN_WORKER_CONNECTIONS="50", REFEREE_MAX_WAITING="50", WEB_CONCURRENCY="1", BIND="127.0.0.1:0")
    done = subprocess.run([str(VENV_BIN / "gunicorn"), "-c", "gunicorn.conf.py"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode != 0
    assert "REFEREE_MAX_WAITING (50) must be below GUNICORN_WORKER_CONNECTIONS (50)" in done.stderr
