"""gunicorn's own problems (referee/server_errors.py) quote at most MAX_ECHO characters of the
request they refuse, and say what to do; and the service's problems follow Accept-Language
under gunicorn as in process."""

from __future__ import annotations

from referee.limits import MAX_ECHO
from tests.edge.support import problem_of, raw_request, start_gunicorn


def test_gunicorn_problems_quote_a_bounded_part_of_the_request_and_say_what_to_do(tmp_path):
    """gunicorn's message quotes the request line or header it refuses (up to 8,190 bytes
    each); the detail keeps its first MAX_ECHO characters."""
    server = start_gunicorn(tmp_path)
    try:
        for data, status, then in (
                (b"NOT A REQUEST LINE " + b"d" * 3000 + b"\r\n\r\n", 400,
                 "Correct the request line and headers (RFC 9112) and send the request again."),
                (b"GET / HTTP/1.1\r\nHost: x\r\nBad\x01" + b"e" * 3000 + b": v\r\n\r\n", 400,
                 "Correct the request line and headers (RFC 9112) and send the request again."),
                (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414,
                 "Send a shorter request line (at most 8,190 bytes): a shorter URL.")):
            answer_status, headers, body = raw_request(server.port, data)
            assert answer_status == status, body[:200]
            detail = problem_of(body)["detail"]
            assert detail.endswith(". " + then), detail
            message = detail[:-len(". " + then)]
            assert 0 < len(message) <= MAX_ECHO, detail
            assert len(body) < 512
        status, headers, body = raw_request(
            server.port, b"GET /v1/games/chess HTTP/1.1\r\nHost: x\r\nAccept-Language: ja\r\n\r\n")
        assert status == 404 and headers["content-language"] == "ja"
        assert problem_of(body)["detail"].startswith("ゲーム「chess」はありません。")
    finally:
        server.stop()
