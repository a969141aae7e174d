"""The headers every answer carries for its request: ``X-Request-ID``, and, where a message's
language was chosen, ``Content-Language`` with ``Vary: Accept-Language``.

They are added by :class:`RequestHeaders`, a WSGI middleware around the Flask application, to
the header list the server receives. Written into the response's werkzeug ``Headers`` instead,
each of them lengthened every later look-up there (werkzeug finds a header by a scan that
lowercases every name; the response's preparation looks up about a dozen, most of them
absent): the three cost about 41,600 instructions a CATATAC adjudicate there, 7,000 here
(docs/performance.md, "Mechanisms kept").
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from werkzeug.datastructures import HeaderSet
from werkzeug.http import parse_set_header

# The environ key where the application leaves ``(request id, language or None)`` for the
# answer (referee/app.py, after each request).
ANSWER_HEADERS_KEY = "referee.answer_headers"
REQUEST_ID = "X-Request-ID"


def answer_headers(headers: list[tuple[str, str]], request_id: str | None,
                   language: str | None) -> list[tuple[str, str]]:
    """``headers`` (a WSGI header list) with ``X-Request-ID: request_id`` and, when
    ``language`` is given, ``Content-Language: language`` (each the only one of its name) and
    ``Accept-Language`` among the names of ``Vary``. Several Vary lines (flask-cors writes its
    own beside the application's) become one, each name once."""
    if not request_id and language is None:
        return headers
    kept = []
    varies = []
    for name, value in headers:
        lowered = name.lower()
        if lowered == "vary":
            varies.append(value)
        elif not (lowered == "x-request-id" and request_id or lowered == "content-language" and language is not None):
            kept.append((name, value))   # (the answer's own value replaces the header named)
    if language is not None:
        kept.append(("Content-Language", language))
        varies.append("Accept-Language")
    if len(varies) == 1:
        kept.append(("Vary", varies[0]))
    elif varies:
        names = HeaderSet()
        for value in varies:
            for item in parse_set_header(value):
                names.add(item)   # (once, whatever its case)
        if "*" in names:   # "*" says the answer varies on everything (RFC 9110 section 12.5.5)
            names = HeaderSet(["*"])
        kept.append(("Vary", names.to_header()))
    if request_id:
        kept.append((REQUEST_ID, request_id))
    return kept


class RequestHeaders:
    """WSGI middleware: each answer of ``app`` gets the headers :func:`answer_headers` gives
    for the ``(request id, language)`` that the application left in the WSGI environ under
    ``ANSWER_HEADERS_KEY`` (none when it left nothing)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]):
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        def start_with_headers(status: str, headers: list[tuple[str, str]], exc_info=None):
            found = environ.get(ANSWER_HEADERS_KEY)
            if found is not None:
                headers = answer_headers(headers, *found)
            return start_response(status, headers, exc_info)

        return self.app(environ, start_with_headers)
