"""HTTP/1.1 as RFC 9110 and RFC 9112 ask it of an origin server, checked on the bytes the
service sends under gunicorn (gevent worker, as the image runs it): the request head (Host,
request-target forms, methods, Connection), the answers given before the body was read and
the closes they need, and the answers gunicorn writes itself. The static files' conditional
and range answers are in test_static_files.py."""

from __future__ import annotations

import email.utils
import gzip
import json
import socket

import pytest

from referee.app import create_app
from tests.edge.support import exchange, read_until, start_gunicorn

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


# -- Host and the request-target (RFC 9112 section 3.2) --------------------------------------------

@pytest.mark.parametrize("head", [
    b"GET /healthz HTTP/1.1\r\n\r\n",                                   # HTTP/1.1 without Host
    b"GET /healthz HTTP/1.1\r\nHost: referee example\r\n\r\n",          # a space is in no host
    b"GET /healthz HTTP/1.1\r\nHost: referee:http\r\n\r\n",             # port = *DIGIT
    b"GET /healthz HTTP/1.1\r\nHost: [::1\r\n\r\n",                     # an IP-literal is bracketed
    b"GET /healthz HTTP/1.1\r\nHost: [not-an-address]:80\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: user@referee\r\n\r\n",             # no userinfo in Host
    b"GET /healthz HTTP/1.0\r\nHost: referee/x\r\n\r\n",                # invalid in any version
    b"GET /healthz HTTP/1.1\r\nHost: referee\r\nHost: referee\r\n\r\n",  # more than one (gunicorn's own)
])
def test_a_missing_or_invalid_host_is_400(server, head):
    """RFC 9112 section 3.2: a server MUST answer 400 to an HTTP/1.1 request without Host,
    and to any request with more than one Host or an invalid one (RFC 9110 section 7.2:
    uri-host [":" port])."""
    answer = exchange(server.port, head)
    assert answer.status == 400
    assert problem_type(answer) == "/problems/malformed-request"


def test_a_missing_host_is_400_also_with_a_body_and_the_body_is_not_read(server):
    answer = exchange(server.port, b"POST /v1/games/scratch-and-catch/setup HTTP/1.1\r\n"
                                   b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
    assert answer.status == 400 and problem_type(answer) == "/problems/malformed-request"
    assert answer.headers["connection"] == "close" and answer.closed


@pytest.mark.parametrize("head", [
    b"GET /healthz HTTP/1.1\r\nHost: referee\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: [::1]:8000\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: [v1.fe80::a+en1]\r\n\r\n",         # IPvFuture
    b"GET /healthz HTTP/1.1\r\nHost: xn--bcher-kva.example:\r\n\r\n",   # an empty port is a port
    b"GET /healthz HTTP/1.1\r\nHost: caf%C3%A9.example\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost:\r\n\r\n",                          # empty: a target without authority
    b"GET /healthz HTTP/1.0\r\n\r\n",                                   # HTTP/1.0 need not send Host
    b"GET http://elsewhere.example/healthz HTTP/1.1\r\nHost: referee\r\n\r\n",   # absolute-form
])
def test_valid_hosts_and_the_absolute_form_are_served(server, head):
    """RFC 9112 section 3.2.2: a server MUST accept the absolute-form (and then ignores Host;
    the service never reads Host)."""
    assert exchange(server.port, head).status == 200


def test_options_asterisk_is_answered_for_the_server(server):
    """RFC 9110 section 9.3.7: OPTIONS * asks about the server in general; it exists."""
    answer = exchange(server.port, b"OPTIONS * HTTP/1.1\r\nHost: referee\r\n\r\n")
    assert answer.status == 200
    assert answer.headers["content-length"] == "0" and answer.body == b""
    assert {method.strip() for method in answer.headers["allow"].split(",")} == {"GET", "HEAD", "POST", "OPTIONS"}
    assert not answer.closed


def test_the_asterisk_form_with_another_method_is_400(server):
    """RFC 9112 section 3.2.4: the asterisk-form is only for OPTIONS (gunicorn's own answer)."""
    answer = exchange(server.port, b"GET * HTTP/1.1\r\nHost: referee\r\n\r\n")
    assert answer.status == 400 and problem_type(answer) == "/problems/malformed-request"


# -- methods (RFC 9110 sections 9.1, 15.5.6, 15.6.2) ---------------------------------------------------

@pytest.mark.parametrize("head", [b"FOO /healthz HTTP/1.1\r\nHost: referee\r\n\r\n",
                                  b"PROPFIND /v1/games HTTP/1.1\r\nHost: referee\r\n\r\n",
                                  b"CONNECT referee:443 HTTP/1.1\r\nHost: referee:443\r\n\r\n"])
def test_a_method_the_service_does_not_implement_is_501(server, head):
    """RFC 9110 section 9.1: an origin server that receives a method it does not recognize or
    implement SHOULD answer 501 (405 says the method is known but not for this resource)."""
    answer = exchange(server.port, head)
    assert answer.status == 501
    assert problem_type(answer) == "/problems/not-implemented"


def test_a_standard_method_this_resource_does_not_take_is_405_with_allow(server):
    """RFC 9110 section 15.5.6: a 405 MUST carry Allow."""
    answer = exchange(server.port, b"DELETE /v1/games HTTP/1.1\r\nHost: referee\r\n\r\n")
    assert answer.status == 405 and problem_type(answer) == "/problems/method-not-allowed"
    assert {method.strip() for method in answer.headers["allow"].split(",")} == {"GET", "HEAD", "OPTIONS"}


# -- early answers and closes (RFC 9112 sections 6.1, 6.3, 9.6; RFC 9110 section 15.5.14) -----------

def test_a_content_length_over_the_limit_is_413_and_the_connection_closes(server):
    """The body is not read; the server closes rather than read or discard it."""
    answer = exchange(server.port, SETUP + b"Content-Length: %d\r\n\r\n{" % (LIMIT + 1))
    assert answer.status == 413 and problem_type(answer) == "/problems/content-too-large"
    assert answer.headers["connection"] == "close" and answer.closed


def test_an_announced_oversized_body_after_100_continue_is_413_and_closes(server):
    """gunicorn answers 100 Continue before the service sees the request (RFC 9110 section
    10.1.1 allows it); the 413 then comes as soon as the head is judged, and closes."""
    answer = exchange(server.port, SETUP + b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n" % (LIMIT + 1))
    assert answer.status == 413 and answer.headers["connection"] == "close" and answer.closed


def test_a_chunked_body_over_the_limit_is_413_and_the_connection_closes(server):
    """The rest of the chunks is not read; the server closes."""
    body = b'{"players": 2, "seed": "' + b"a" * (2 * LIMIT) + b'"}'
    answer = exchange(server.port, SETUP + b"Transfer-Encoding: chunked\r\n\r\n" + chunked(body))
    assert answer.status == 413 and problem_type(answer) == "/problems/content-too-large"
    assert answer.headers["connection"] == "close" and answer.closed


def test_a_body_read_whole_keeps_the_connection(server):
    """An error answered after the whole body was read leaves the connection open."""
    answer = exchange(server.port, SETUP + b"Content-Length: 1\r\n\r\n{")
    assert answer.status == 400 and answer.headers["connection"] == "keep-alive" and not answer.closed


@pytest.mark.parametrize("coding", [b"gzip, chunked", b"deflate, chunked"])
def test_a_transfer_coding_besides_chunked_is_501_and_closes(server, coding):
    """RFC 9112 section 6.1: a server SHOULD answer 501 to a transfer coding it does not
    decode; gunicorn passes gzip and deflate on undecoded, so the service answers."""
    body = gzip.compress(json.dumps({"players": 2, "seed": "coded"}).encode())
    answer = exchange(server.port, SETUP + b"Transfer-Encoding: " + coding + b"\r\n\r\n" + chunked(body))
    assert answer.status == 501 and problem_type(answer) == "/problems/not-implemented"
    assert answer.headers["connection"] == "close" and answer.closed


# -- what gunicorn answers itself --------------------------------------------------------------

@pytest.mark.parametrize("data, status, phrase", [
    (b"NOT A REQUEST LINE\r\n\r\n", 400, "Bad Request"),
    (b"GET /healthz HTTP/1.1\r\nHost : referee\r\n\r\n", 400, "Bad Request"),   # whitespace before the colon
    (SETUP + b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400, "Bad Request"),
    (SETUP + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "Bad Request"),
    (SETUP + b"Transfer-Encoding: foo, chunked\r\n\r\n0\r\n\r\n", 501, "Not Implemented"),
    (b"GET /healthz HTTP/1.1\r\nHost: referee\r\nExpect: 200-ok\r\n\r\n", 417, "Expectation Failed"),
])
def test_gunicorn_refusals_carry_date_and_their_status_phrase_and_close(server, data, status, phrase):
    """Refused by gunicorn before the service sees them (RFC 9112 sections 5.1, 6.1, 6.3;
    RFC 9110 section 10.1.1), answered with the service's problem writer: a Date (RFC 9110
    section 6.6.1: an origin server MUST send it in every 4xx), the status's own reason phrase,
    and a close (the framing of anything after is unknown)."""
    answer = exchange(server.port, data)
    assert answer.status_line == f"HTTP/1.1 {status} {phrase}"
    assert email.utils.parsedate_to_datetime(answer.headers["date"]).tzinfo is not None
    assert answer.headers["connection"] == "close" and answer.closed
    expected = "/problems/not-implemented" if status == 501 else "/problems/malformed-request"
    assert problem_type(answer) == expected
    assert answer.json()["title"] == phrase


def test_a_request_line_of_8000_octets_is_read(server):
    """RFC 9112 section 3: recipients should read request lines of at least 8,000 octets."""
    target = b"/healthz?pad=" + b"a" * (8000 - len(b"GET  HTTP/1.1") - len(b"/healthz?pad="))
    line = b"GET " + target + b" HTTP/1.1"
    assert len(line) == 8000
    assert exchange(server.port, line + b"\r\nHost: referee\r\n\r\n").status == 200


def test_a_request_line_over_the_limit_is_414(server):
    answer = exchange(server.port, b"GET /healthz?pad=" + b"a" * 8200 + b" HTTP/1.1\r\nHost: referee\r\n\r\n")
    assert answer.status == 414 and answer.status_line == "HTTP/1.1 414 URI Too Long"
    assert problem_type(answer) == "/problems/malformed-request" and answer.closed


# -- HEAD (RFC 9110 section 9.3.2) ------------------------------------------------------------------

def _head_fields(port: int, data: bytes) -> tuple[int, dict[str, str]]:
    """The status and header fields of the answer to ``data`` (its body, maybe endless, unread)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(data)
        head = read_until(sock, b"\r\n\r\n", 5).partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    return int(head[0].split()[1]), {name.lower(): value.strip()
                                     for name, _, value in (line.partition(":") for line in head[1:])}


def test_head_on_every_get_route_answers_the_get_headers_without_content(server):
    """HEAD answers as GET would, with the same header fields (Content-Length included) and no
    content; a field whose value is the time of the answer (Date, Expires), the request id,
    the framing of an endless stream (Transfer-Encoding) and the length of the metrics (which
    count the GET) aside."""
    created = json.loads(exchange(server.port, b"POST /v1/matches HTTP/1.1\r\nHost: referee\r\n"
                                               b"Content-Type: application/json\r\nContent-Length: 36\r\n\r\n"
                                               b'{"game": "catatac", "players": 2}   ').body)
    filled = {"match_id": created["id"], "slug": "not-found"}
    files = {"contract.docs_assets": "swagger-ui.css", "table.table_file": "table.js", "static": "none.txt"}
    auth = f"Authorization: Bearer {created['seats'][0]['secret']}\r\n".encode()
    checked = 0
    for rule in create_app({"TESTING": True}).url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        path = rule.rule.replace("<string:match_id>", filled["match_id"]).replace("<slug>", filled["slug"])
        path = path.replace("<path:filename>", files.get(rule.endpoint, ""))
        if rule.endpoint == "matches.get_legal_moves":
            path += "?seat=0"
        request = b" " + path.encode() + b" HTTP/1.1\r\nHost: referee\r\n" + auth + b"\r\n"
        status, fields = _head_fields(server.port, b"GET" + request)
        head = exchange(server.port, b"HEAD" + request, head_only=True)   # (no byte after the head)
        assert head.status == status, path
        ignored = {"date", "expires", "x-request-id", "transfer-encoding"}
        if rule.endpoint == "metrics.metrics":
            ignored.add("content-length")
        assert {k: v for k, v in head.headers.items() if k not in ignored} == \
               {k: v for k, v in fields.items() if k not in ignored}, path
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("slug", ["malformed-request", "not-implemented", "method-not-allowed", "content-too-large",
                                  "range-not-satisfiable", "precondition-failed", "too-many-waiting",
                                  "store-unavailable"])
def test_the_problem_types_of_these_answers_have_their_pages(server, slug):
    """RFC 9457 section 3.1.1: a problem type URI, dereferenced, should describe the problem."""
    answer = exchange(server.port, f"GET /problems/{slug} HTTP/1.1\r\nHost: referee\r\n\r\n".encode())
    assert answer.status == 200 and answer.json()["type"] == f"/problems/{slug}"
