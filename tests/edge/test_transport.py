"""Failure 6: chunked request bodies under gunicorn. Malformed chunking is a 400 problem, a
chunked body over the body limit a 413 problem (like a Content-Length body), a valid chunked
body is judged as any other."""

from __future__ import annotations

import json

import pytest

from tests.edge.support import http, problem_of, raw_request, start_gunicorn

HEAD = (b"POST /v1/games/scratch-and-catch/setup HTTP/1.1\r\nHost: referee\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")


def chunked(body: bytes, size: int = 4096) -> bytes:
    parts = [b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size]) for i in range(0, len(body), size)]
    return b"".join(parts) + b"0\r\n\r\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    process = start_gunicorn(tmp_path_factory.mktemp("transport"), REFEREE_MAX_BODY_BYTES="65536")
    yield process
    process.stop()


def test_valid_chunked_body_is_judged(server):
    status, headers, body = raw_request(server.port, HEAD + chunked(b'{"players": 3, "seed": "chunks"}', 7))
    assert status == 200, body
    assert len(json.loads(body)["state"]["players"]) == 3


@pytest.mark.parametrize("size_line", [b"zz", b"-1", b"1x"])
def test_malformed_chunk_size_is_400(server, size_line):
    status, headers, body = raw_request(server.port, HEAD + size_line + b"\r\nabc\r\n0\r\n\r\n")
    assert status == 400
    assert headers["content-type"] == "application/problem+json"
    assert problem_of(body)["status"] == 400 and "chunked" in problem_of(body)["detail"]


def test_missing_chunk_terminator_is_400(server):
    status, headers, body = raw_request(server.port, HEAD + b"5\r\n{\"a\":1}XX0\r\n\r\n")
    assert status == 400 and headers["content-type"] == "application/problem+json"


def test_oversized_chunked_body_is_413(server):
    body = b'{"players": 2, "seed": "' + b"a" * 70000 + b'"}'  # valid JSON over the 65536-byte limit
    status, headers, answer = raw_request(server.port, HEAD + chunked(body))
    assert status == 413
    assert headers["content-type"] == "application/problem+json"
    problem = problem_of(answer)
    assert problem["status"] == 413 and "65536" in problem["detail"]


def test_oversized_content_length_body_is_413_too(server):
    body = b'{"players": 2, "seed": "' + b"a" * 70000 + b'"}'
    head = (b"POST /v1/games/scratch-and-catch/setup HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body))
    status, headers, _ = raw_request(server.port, head + body)
    assert status == 413 and headers["content-type"] == "application/problem+json"


def test_requests_gunicorn_refuses_are_answered_with_problems(tmp_path):
    """A request line over gunicorn's limit (414), a header over it (431) and a malformed
    request line (400) never reach the application: gunicorn answers them, and those answers
    are problem+json like the service's own (referee/server_errors.py), not an HTML page, and
    written the same way (sorted keys, no spaces)."""
    server = start_gunicorn(tmp_path)
    try:
        for data, status in ((b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
                             (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n", 431),
                             (b"NOT A REQUEST LINE\r\n\r\n", 400)):
            answer_status, headers, body = raw_request(server.port, data)
            assert answer_status == status
            assert headers["content-type"] == "application/problem+json"
            problem = problem_of(body)
            assert problem["status"] == status and problem["type"] == "/problems/malformed-request"
            assert problem["title"] and problem["detail"]
            assert body == json.dumps(problem, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
        assert http("GET", server.base + "/problems/malformed-request")[0] == 200
        assert http("GET", server.base + "/healthz")[0] == 200  # the worker serves on
    finally:
        server.stop()
