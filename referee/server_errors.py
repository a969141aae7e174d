"""gunicorn's own error answers as problem+json, like every other answer of the service.

gunicorn answers a request it cannot parse or that is over its limits (a malformed request
line or header: 400; a request line over ``limit_request_line``: 414; headers over
``limit_request_field_size`` or ``limit_request_fields``: 431) before the application sees
it, with an HTML page written by ``gunicorn.util.write_error``. :func:`install` replaces that
function (every worker class calls it through the module), so those answers carry a problem
document: ``type`` ``/problems/malformed-request`` (``/problems/internal`` for gunicorn's own
500), ``title`` gunicorn's reason phrase, ``detail`` its message.
"""

from __future__ import annotations

from gunicorn import util

from referee.api.http.problems import PROBLEM_CONTENT_TYPE, problem_body, problem_text


def write_problem(sock, status_int: int, reason: str, mesg: str) -> None:
    """``gunicorn.util.write_error``'s signature: the answer, then gunicorn closes the connection."""
    body = problem_text(problem_body(status_int, mesg or reason, title=reason,
                                     slug=None if status_int >= 500 else "malformed-request")).encode("utf-8")
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: {PROBLEM_CONTENT_TYPE}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin-1") + body)


def install() -> None:
    """Make gunicorn write its own error answers with :func:`write_problem` (this process and
    the workers it forks)."""
    util.write_error = write_problem
