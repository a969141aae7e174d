"""gunicorn's own error answers as problem+json, like every other answer of the service.

gunicorn answers a request it cannot parse or that is over its limits (a malformed request
line or header: 400; a request line over ``limit_request_line``: 414; headers over
``limit_request_field_size`` or ``limit_request_fields``: 431; an ``Expect`` other than
100-continue: 417; a transfer coding it does not know: 501) before the application sees it,
with an HTML page written by ``gunicorn.util.write_error``. :func:`install` replaces that
function (every worker class calls it through the module), so those answers carry a problem
document: ``type`` ``/problems/malformed-request`` (``/problems/not-implemented`` for 501,
``/problems/internal`` for gunicorn's own 500), ``title`` the status's reason phrase, ``detail``
gunicorn's message (cut to ``MAX_ECHO`` characters, since it quotes the request) and what to do.
They carry ``Date`` (RFC 9110 section 6.6.1: an origin server with a clock MUST send it in every
4xx) and close the connection.
"""

from __future__ import annotations

from gunicorn import util

from referee.api.http.problems import PROBLEM_CONTENT_TYPE, problem_body, problem_text
from referee.service.texts import echo

# What to do about each of gunicorn's answers, after its message (in English: the request's
# headers, Accept-Language among them, are what could not be read).
_NEXT = {
    400: "Correct the request line and headers (RFC 9112) and send the request again.",
    414: "Send a shorter request line (at most 8,190 bytes): a shorter URL.",
    431: "Send fewer or shorter headers (at most 100 headers, of at most 8,190 bytes each).",
}

# RFC 9110 section 15's reason phrases of the statuses gunicorn answers itself; gunicorn names
# some of them with another status's phrase (501 as "Bad Request").
REASONS = {400: "Bad Request", 403: "Forbidden", 414: "URI Too Long", 417: "Expectation Failed",
           431: "Request Header Fields Too Large", 500: "Internal Server Error", 501: "Not Implemented"}


def write_problem(sock, status_int: int, reason: str, mesg: str) -> None:
    """``gunicorn.util.write_error``'s signature: the answer, then gunicorn closes the connection.
    The detail is gunicorn's message, which quotes the request, cut to MAX_ECHO characters, then
    what to do."""
    reason = REASONS.get(status_int, reason)
    then = _NEXT.get(status_int, "Send the request again later." if status_int >= 500 else
                     "Correct the request and send it again.")
    detail = f"{echo(mesg or reason)}. {then}"
    slug = "not-implemented" if status_int == 501 else None if status_int >= 500 else "malformed-request"
    body = problem_text(problem_body(status_int, detail, title=reason, slug=slug)).encode("utf-8")
    head = (f"HTTP/1.1 {status_int} {reason}\r\nDate: {util.http_date()}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_CONTENT_TYPE}\r\nContent-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + body)


def install() -> None:
    """Make gunicorn write its own error answers with :func:`write_problem` (this process and
    the workers it forks)."""
    util.write_error = write_problem
