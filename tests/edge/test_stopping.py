"""A stopping gevent worker ends its event streams at once (referee/api/ops/stopping.py): each
stream's answer ends whole (its last chunk), the client reconnects to another worker with
Last-Event-ID, and the worker exits without waiting out its graceful timeout (10 s), where an
open stream used to keep it for the whole timeout and was then cut."""

from __future__ import annotations

import signal
import socket
import time

import pytest

from tests.edge.support import RedisServer, http, read_until, start_gunicorn


def _open_stream(port: int, match_id: str) -> socket.socket:
    stream = socket.create_connection(("127.0.0.1", port), timeout=10)
    stream.sendall(f"GET /v1/matches/{match_id}/events HTTP/1.1\r\nHost: x\r\n"
                   "Accept: text/event-stream\r\n\r\n".encode())
    head = read_until(stream, b"id: 0\n\n", 5)
    assert b" 200 " in head and b"retry: " in head, head   # open, waiting for the first move
    return stream


@pytest.mark.parametrize("store", ["memory", "redis"])
def test_a_stopping_worker_ends_its_event_streams_whole_and_exits_at_once(tmp_path, store):
    """Waiting in the in-process store's condition, or in Redis's XREAD BLOCK (two workers)."""
    redis_server = RedisServer(tmp_path / "redis").start() if store == "redis" else None
    server = start_gunicorn(tmp_path,
                            **({"REDIS_URL": redis_server.url, "WEB_CONCURRENCY": "2"} if redis_server else {}))
    streams = []
    try:
        status, _, match = http("POST", server.base + "/v1/matches", {"game": "scratch-and-catch", "players": 2,
                                                                      "seed": "stopping"})
        assert status == 201
        streams = [_open_stream(server.port, match["id"]) for _ in range(3)]
        time.sleep(0.5)   # every stream is in its wait for a move
        stopped_at = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        for stream in streams:
            rest = read_until(stream, None, 8)   # until the server closes the connection
            assert rest.endswith(b"0\r\n\r\n"), rest   # the chunked answer's last chunk: ended, not cut
            assert b"event:" not in rest   # ended without a word, as at the stream's time limit
            assert time.monotonic() - stopped_at < 2.5
        server.process.wait(8)
        assert time.monotonic() - stopped_at < 5   # not the 10 s graceful timeout
        log = server.log.read_text()
        assert "graceful timeout" not in log.lower() and "Traceback" not in log, log[-2000:]
    finally:
        for stream in streams:
            stream.close()
        server.stop()
        if redis_server is not None:
            redis_server.stop()


def test_a_stopping_worker_answers_its_long_polls_at_once(tmp_path):
    """A long-poll (Prefer: wait) waiting when its worker stops gets the answer its wait would
    give with no move, 304, at once, without Preference-Applied (the wait was not waited out)
    and with Connection: close; it used to get no answer at all when gunicorn killed the
    worker at the end of its graceful timeout (10 s)."""
    server = start_gunicorn(tmp_path)
    polls = []
    try:
        status, headers, match = http("POST", server.base + "/v1/matches", {"game": "scratch-and-catch",
                                                                            "players": 2, "seed": "polls"})
        assert status == 201
        for _ in range(2):
            poll = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            poll.sendall(f"GET /v1/matches/{match['id']} HTTP/1.1\r\nHost: x\r\nIf-None-Match: {headers['ETag']}"
                         "\r\nPrefer: wait=25\r\n\r\n".encode())
            polls.append(poll)
        time.sleep(0.5)   # both wait
        stopped_at = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        for poll in polls:
            answer = read_until(poll, None, 8)   # until the server closes the connection
            head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
            assert head.startswith("http/1.1 304"), answer[:300]
            assert "connection: close" in head and "preference-applied" not in head, head
            assert time.monotonic() - stopped_at < 2.5
        server.process.wait(8)
        assert time.monotonic() - stopped_at < 5
        assert "Traceback" not in server.log.read_text()
    finally:
        for poll in polls:
            poll.close()
        server.stop()
