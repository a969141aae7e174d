"""A body gunicorn already holds whole is read without the body timer (referee/api/transport.py);
any other body is read under it, as before."""

from __future__ import annotations

import contextlib
import io
import json
import socket

from gunicorn.http.body import Body, ChunkedReader, LengthReader
from gunicorn.http.unreader import IterUnreader

from referee.api import transport
from referee.app import create_app
from tests.edge.support import raw_request, start_gunicorn

BODY = json.dumps({"players": 3, "seed": "held"}).encode()


def gunicorn_body(held: bytes, later: list[bytes], length: int) -> Body:
    """gunicorn's body of a Content-Length request: ``held`` already read from the socket
    (with the head), ``later`` still to come from it."""
    unreader = IterUnreader(later)
    unreader.unread(held)
    return Body(LengthReader(unreader, length))


def test_a_body_read_with_the_head_is_held_whole():
    assert transport._held_whole(gunicorn_body(BODY, [], len(BODY)), len(BODY))
    # More than the body (the next pipelined request) is held whole too.
    assert transport._held_whole(gunicorn_body(BODY + b"GET / HTTP/1.1\r\n", [], len(BODY)), len(BODY))


def test_a_body_still_on_its_way_is_not_held_whole():
    assert not transport._held_whole(gunicorn_body(BODY[:10], [BODY[10:]], len(BODY)), len(BODY))
    assert not transport._held_whole(gunicorn_body(b"", [BODY], len(BODY)), len(BODY))


def test_other_streams_are_not_held_whole():

    assert not transport._held_whole(io.BytesIO(BODY), len(BODY))
    unreader = IterUnreader([])
    unreader.unread(b"5\r\nhello\r\n0\r\n\r\n")
    assert not transport._held_whole(Body(ChunkedReader({}, unreader)), 5)


def _read(monkeypatch, stream: Body) -> tuple[bytes, list[float]]:
    """read_body over ``stream``; the body timers it started (their seconds)."""
    timers: list[float] = []

    def recording_timer(seconds, _environ):
        timers.append(seconds)
        return contextlib.nullcontext()

    monkeypatch.setattr(transport, "_timer", recording_timer)
    app = create_app({"TESTING": True})
    with app.test_request_context("/v1/games/scratch-and-catch/setup", method="POST", data=b"",
                                  content_type="application/json") as context:
        environ = context.request.environ
        environ["wsgi.input"] = stream
        environ["CONTENT_LENGTH"] = str(len(BODY))
        assert transport.read_body(app, context.request) is None
        return environ[transport.BODY_KEY], timers


def test_a_held_body_is_read_without_a_timer(monkeypatch):
    data, timers = _read(monkeypatch, gunicorn_body(BODY, [], len(BODY)))
    assert data == BODY and timers == []


def test_a_body_on_its_way_is_read_under_the_timer(monkeypatch):
    data, timers = _read(monkeypatch, gunicorn_body(BODY[:10], [BODY[10:]], len(BODY)))
    assert data == BODY
    assert len(timers) == 1 and 9 < timers[0] <= 10   # REFEREE_BODY_TIMEOUT_SECONDS' default


def test_pipelined_requests_are_each_answered_with_their_own_body(tmp_path):
    """Two requests in one segment to a gevent worker (sync workers close the connection after
    each answer): the first body is held whole with the second request behind it; each request
    gets its own body (a setup's answer is a function of its seed)."""
    server = start_gunicorn(tmp_path)
    try:
        def request(seed: str, close: bool = False) -> bytes:
            body = json.dumps({"players": 3, "seed": seed}).encode()
            return (b"POST /v1/games/scratch-and-catch/setup HTTP/1.1\r\nHost: referee\r\n"
                    b"Content-Type: application/json\r\nContent-Length: %d\r\n%s\r\n%s"
                    % (len(body), b"Connection: close\r\n" if close else b"", body))

        alone = [raw_request(server.port, request(seed, close=True))[2] for seed in ("one", "two")]
        assert alone[0] != alone[1]

        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(request("one") + request("two", close=True))
            received = b""
            while part := sock.recv(65536):
                received += part
        answers = []
        rest = received
        while rest:
            head, _, rest = rest.partition(b"\r\n\r\n")
            length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length:")))
            assert head.startswith(b"HTTP/1.1 200"), head
            answers.append(rest[:length])
            rest = rest[length:]
        assert answers == alone
    finally:
        server.stop()
