"""RFC 9457 problem details: every error answer of the service.

A problem is ``{"type", "title", "status", "detail", "errors": [{"pointer", "detail"}]}`` with
content type ``application/problem+json``. ``pointer`` is a JSON pointer (RFC 6901) into the
request body ("" for the whole body).
"""

from __future__ import annotations

import json
from typing import Iterable, Mapping

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException

from referee.json_text import NumberTooLong, TooManyContainers
from referee.schemas.pointers import pointer_errors
from referee.service.errors import STATUS_KINDS as _KINDS
from referee.service.errors import PointerErrors, Refused, SeatSecretRequired, StaleVersion, problem_body
from referee.service.matches import etag

PROBLEM_CONTENT_TYPE = "application/problem+json"

# slug -> what the problem means and what to do about it (served at /problems/<slug>).
PROBLEM_TYPES = {
    "bad-request": "The request body is not valid JSON (or nested too deeply). Send a JSON document.",
    "not-found": "No resource at this URL: check the path and the game id (GET /v1/games lists them).",
    "method-not-allowed": "This URL does not take this method; the Allow header lists those it takes.",
    "request-timeout": "The request body did not arrive within the service's body deadline "
                       "(REFEREE_BODY_TIMEOUT_SECONDS, 10 s by default, one more second per 16 KiB received); "
                       "send it again at once.",
    "precondition-failed": "If-Match names another version than the match's; the ETag header carries the current one.",
    "content-too-large": "The request body is larger than the service's limit "
                         "(REFEREE_MAX_BODY_BYTES, 1 MiB by default).",
    "unsupported-media-type": "Send the request body with Content-Type: application/json.",
    "malformed-request": "The HTTP server could not read the request itself (its request line or headers are "
                         "malformed, or over the server's limits: 8,190 bytes of request line, 8,190 bytes per "
                         "header, 100 headers); detail says which.",
    "unprocessable-content": "The body does not fit the operation's schema; each entry of errors points at a "
                             "bad field.",
    "impossible-state": "The state is well formed but cannot exist in the game (a card in two places, a count out "
                        "of range...); errors point at the places.",
    "unplayable-options": "The game cannot be set up with these options or this player count; errors point at them.",
    "precondition-required": "Moves in a match need If-Match with the match's current ETag.",
    "unauthorized": "This request needs a seat's secret: Authorization: Bearer <secret>.",
    "forbidden": "The secret given is another seat's.",
    "unreadable-file": "Command line: a file named as input cannot be read (missing, or no permission).",
    "malformed-header": "A header's value does not follow its syntax (If-Match: entity tags in double quotes, "
                        "as ETag gives them).",
    "idempotency-key-reused": "This Idempotency-Key was already used with another body.",
    "limit-exceeded": "The request asks for more work or a larger answer than the service's limits allow "
                      "(docs/matches.md, Limits); the detail names the limit.",
    "store-unavailable": "The match store does not answer; retry after Retry-After seconds. Stateless endpoints "
                         "keep working.",
    "range-not-satisfiable": "The Range header names no byte of the file, or is malformed; Content-Range gives "
                             "the file's length.",
    "not-implemented": "The service does not implement the request's method (it implements GET, HEAD, POST and "
                       "OPTIONS) or its transfer coding (it decodes chunked only).",
    "too-many-waiting": "This server already holds as many requests waiting for moves (long-polls, event streams) "
                        "as it may (REFEREE_MAX_WAITING); retry after Retry-After seconds.",
    "internal": "The service failed; this is a bug.",
    "unavailable": "The service cannot answer now; retry later.",
}


class ProblemError(Exception):
    """An error to answer as a problem. ``errors``: iterable of ``(pointer, detail)``."""

    def __init__(self, status: int, detail: str, errors: Iterable[tuple[str, str]] = (),
                 *, title: str | None = None, slug: str | None = None, headers: Mapping[str, str] | None = None):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = errors if isinstance(errors, PointerErrors) else list(errors)
        self.title = title
        self.slug = slug
        self.headers = dict(headers or {})


def problem_text(body: dict) -> str:
    """A problem's JSON text, written as every other answer is: sorted keys, no spaces."""
    return json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def problem_response(status: int, detail: str, errors: Iterable[tuple[str, str]] = (), *,
                     title: str | None = None, slug: str | None = None,
                     headers: Mapping[str, str] | None = None) -> Response:
    """A problem+json response."""
    body = problem_body(status, detail, errors, title=title, slug=slug)
    response = Response(problem_text(body), status=status,
                        content_type=PROBLEM_CONTENT_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def body_too_large(limit: int | None, headers: Mapping[str, str] | None = None) -> Response:
    """413: the request body is over ``limit`` bytes (REFEREE_MAX_BODY_BYTES; None: no limit
    to name), whether its length was announced or it came in chunks."""
    named = f" ({limit} bytes, REFEREE_MAX_BODY_BYTES)" if limit is not None else ""
    return problem_response(413, f"The request body is larger than the limit of this service{named}.",
                            headers=headers)


def from_problem_error(error: ProblemError) -> Response:
    return problem_response(error.status, error.detail, error.errors, title=error.title, slug=error.slug,
                            headers=error.headers)


def from_refusal(error: Refused) -> Response:
    """The answer to a request the service refused, with the headers its kind calls for."""
    headers = {}
    if isinstance(error, SeatSecretRequired):
        headers["WWW-Authenticate"] = 'Bearer realm="referee matches"'
    elif isinstance(error, StaleVersion):
        headers["ETag"] = etag(error.version)
    return problem_response(error.status, error.detail, error.errors, title=error.title, slug=error.slug,
                            headers=headers)


_PARTS = {"json": "The request body", "query": "A query parameter", "headers": "A header",
          "view_args": "A path parameter"}


def _unfit(messages: Mapping) -> str:
    """The detail of a 422 from webargs, naming the part of the request that does not fit."""
    parts = [_PARTS.get(location, "The request") for location in messages]
    subject = parts[0] if len(parts) == 1 else "The request"
    if list(messages) == ["json"] and request and not request.get_data(cache=True):
        # webargs reads an empty body as no fields at all (each required one is then missing)
        return "The request body is empty: this operation needs a JSON object with the fields listed."
    return f"{subject} does not fit the schema of this operation."


def from_http_exception(error: HTTPException) -> Response:
    """Translate werkzeug/webargs exceptions into problems (422 keeps the field pointers)."""
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    # The headers werkzeug gives the exception (Allow on 405, WWW-Authenticate on 401,
    # Content-Range on 416, Retry-After on 429 and 503), its own content type aside.
    headers = {name: value for name, value in error.get_headers() if name.lower() != "content-type"}
    headers.update(data.get("headers") or {})
    if status in (400, 422) and isinstance(messages, Mapping):
        # webargs nests messages under the location ("json", "query", "headers").
        errors = PointerErrors()
        for location, inner in messages.items():
            base = "" if location == "json" else f"/{location}"
            found = pointer_errors(inner, base)
            errors.extend(found)
            errors.total += found.total
        if status == 400:
            return problem_response(400, "The request body could not be parsed as JSON.", errors, headers=headers)
        return problem_response(422, _unfit(messages), errors, headers=headers)
    if status == 413:
        return body_too_large(current_app.config.get("MAX_CONTENT_LENGTH"), headers)
    if status >= 500:
        return problem_response(status, "The service failed to answer this request.", headers=headers)
    detail = error.description if isinstance(error.description, str) else _KINDS.get(status, ("", "Error"))[1]
    return problem_response(status, detail, headers=headers)


def register_error_handlers(app: Flask) -> None:
    """Answer as problems: the API's own (ProblemError), the service's refusals, and bodies the
    strict JSON reader refuses (400)."""
    app.register_error_handler(ProblemError, from_problem_error)
    app.register_error_handler(Refused, from_refusal)

    @app.errorhandler(NumberTooLong)
    def too_long(error):
        return problem_response(400, f"The request body holds an integer of more than {error.limit:,} digits, "
                                     "more than the service reads.", [("", str(error))],
                                title="The request body holds a number too long to read")

    @app.errorhandler(TooManyContainers)
    def too_many(error):
        return problem_response(400, f"The request body holds {error}, more than the service reads.",
                                [("", str(error))], title="The request body holds too many arrays and objects")

    @app.errorhandler(RecursionError)
    def too_deep(_error):
        return problem_response(400, "The request body is nested too deeply to parse.",
                                [("", "nested too deeply to parse")])  # (as for a body that is not JSON)
