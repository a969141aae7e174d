"""HTTP/1.1 as RFC 9110 and RFC 9112 ask it of an origin server, checked on the bytes the
service sends under gunicorn (gevent worker, as the image runs it): the request head (Host,
request-target forms, methods, Connection), the answers given before the body was read and
the closes they need, and the answers gunicorn writes itself. The static files' conditional
and range answers are in test_static_files.py."""

from __future__ import annotations

import pytest

from tests.edge.support import exchange, start_gunicorn

LIMIT = 65536
SETUP = b"POST /v1/games/scratch-and-catch/setup HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    process = start_gunicorn(tmp_path_factory.mktemp("conformance"), REFEREE_MAX_BODY_BYTES=str(LIMIT))
    yield process
    process.stop()


def chunked(body: bytes, size: int = 4096) -> bytes:
    parts = [b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size]) for i in range(0, len(body), size)]
    return b"".join(parts) + b"0\r\n\r\n"


def problem_type(answer) -> str:
    assert answer.headers["content-type"] == "application/problem+json", answer.fields
    problem = answer.json()
    assert problem["status"] == answer.status
    return problem["type"]


# -- Connection (RFC 9112 section 9.6) -----------------------------------------------------------

@pytest.mark.parametrize("fields", [b"Connection: TE, close\r\nTE: trailers\r\n",
                                    b"Connection: keep-alive, close\r\n",
                                    b"Connection: TE\r\nConnection: close\r\nTE: trailers\r\n"])
def test_a_close_option_among_others_closes_the_connection(server, fields):
    """"close" is a connection option among others in a list (RFC 9110 section 7.6.1): the
    server MUST close after the answer, and says so (RFC 9112 section 9.6)."""
    answer = exchange(server.port, b"GET /healthz HTTP/1.1\r\nHost: referee\r\n" + fields + b"\r\n")
    assert answer.status == 200
    assert answer.headers["connection"] == "close" and answer.closed


def test_without_a_close_option_the_connection_stays_open(server):
    answer = exchange(server.port, b"GET /healthz HTTP/1.1\r\nHost: referee\r\nConnection: TE\r\nTE: trailers\r\n\r\n")
    assert answer.status == 200 and answer.headers["connection"] == "keep-alive" and not answer.closed
