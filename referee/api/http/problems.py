"""RFC 9457 problem details: every error answer of the service.

A problem is ``{"type", "title", "status", "detail", "errors": [{"pointer", "detail"}]}`` with
content type ``application/problem+json``. ``pointer`` is a JSON pointer (RFC 6901) into the
request body ("" for the whole body). ``detail`` says what happened and what to do next; title
and details are in the language Accept-Language asks for (English or Japanese), which the
answer names in ``Content-Language``. What a detail quotes of the request is cut to
``MAX_ECHO`` characters (referee/service/texts.py).
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping

from flask import Flask, Response, current_app, g, has_request_context, request
from werkzeug.exceptions import HTTPException

from referee.api.http.languages import language_of_request
from referee.i18n import DEFAULT_LANGUAGE
from referee.json_text import NumberTooLong, TooManyContainers
from referee.schemas.pointers import pointer_errors
from referee.service.errors import (
    PointerErrors,
    Refused,
    SeatSecretRequired,
    StaleVersion,
    number_too_long,
    problem_body,
    too_many_containers,
)
from referee.service.matches import etag
from referee.service.texts import Text, echo

PROBLEM_CONTENT_TYPE = "application/problem+json"
STORE_RETRY_AFTER_SECONDS = 1   # Retry-After of a 503 for a match store that does not answer

# slug -> what the problem means and what to do about it (served at /problems/<slug>).
PROBLEM_TYPES = {
    "bad-request": "The request body is not valid JSON (or nested too deeply). Send a JSON document.",
    "not-found": "No resource at this URL: check the path and the game id (GET /v1/games lists them).",
    "method-not-allowed": "This URL does not take this method; the Allow header lists those it takes.",
    "request-timeout": "The request body did not arrive within the service's body deadline "
                       "(REFEREE_BODY_TIMEOUT_SECONDS, 10 s by default, one more second per 16 KiB received); "
                       "send it again at once.",
    "precondition-failed": "The match has moved on from the version If-Match names (or If-Match gives only a "
                           "weak tag, which never matches); the ETag header carries the current version. Read "
                           "the match, choose a move on that version and send it with If-Match: that ETag.",
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
    "unsigned-state": "This referee signs the states it answers (REFEREE_STATE_KEYS) and the state sent does not "
                      "carry a state_signature that matches it: it was changed, signed for another game or with "
                      "a key the referee no longer holds, or not signed where signed states are required "
                      "(REFEREE_REQUIRE_SIGNED_STATES). Send the state exactly as answered, with its signature.",
    "unplayable-options": "The game cannot be set up with these options or this player count; errors point at them.",
    "precondition-required": "Moves in a match need If-Match with the match's current ETag.",
    "unauthorized": "This request needs a seat's secret, as the match gave it when it was created: "
                    "Authorization: Bearer <secret>. It was missing, or no seat's secret in this match.",
    "forbidden": "The secret given is another seat's.",
    "unreadable-file": "Command line: a file named as input cannot be read (missing, or no permission).",
    "malformed-header": "A header's value does not follow its syntax (If-Match: entity tags in double quotes, "
                        "as ETag gives them).",
    "idempotency-key-reused": "This Idempotency-Key was already used with another request.",
    "limit-exceeded": "The request asks for more work or a larger answer than the service's limits allow "
                      "(docs/reference/limits.md); the detail names the limit.",
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
    """A problem+json response, in the language of the request (Accept-Language; the answer
    then says Content-Language, app.py), in English outside a request."""
    language = DEFAULT_LANGUAGE
    if has_request_context():
        language = g.language = language_of_request()
    body = problem_body(status, detail, errors, title=title, slug=slug, language=language)
    response = Response(problem_text(body), status=status,
                        content_type=PROBLEM_CONTENT_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def body_too_large(limit: int | None, headers: Mapping[str, str] | None = None) -> Response:
    """413: the request body is over ``limit`` bytes (REFEREE_MAX_BODY_BYTES; None: no limit
    to name), whether its length was announced or it came in chunks."""
    if limit is None:
        detail = Text("The request body is larger than the limit of this service. Send a smaller body (a long "
                      "replay in parts, each from the state the last part ended on; a long match record with the "
                      "command line, referee verify RECORD.json).")
    else:
        detail = Text("The request body is larger than the limit of this service ({limit} bytes, "
                      "REFEREE_MAX_BODY_BYTES). Send a smaller body (a long replay in parts, each from the state "
                      "the last part ended on; a long match record with the command line, referee verify "
                      "RECORD.json).", limit=limit)
    return problem_response(413, detail, headers=headers)


def body_too_slow(allowed: float) -> Response:
    """408: the request body did not arrive within ``allowed`` seconds
    (REFEREE_BODY_TIMEOUT_SECONDS, one more per 16 KiB received)."""
    return problem_response(408, Text("The request body did not arrive within {seconds} seconds "
                                      "(REFEREE_BODY_TIMEOUT_SECONDS, one more per 16 KiB received). Send the "
                                      "request again, its whole body at once, on a new connection.",
                                      seconds=f"{allowed:g}"),
                            title="Request body too slow", slug="request-timeout")


def store_unavailable() -> Response:
    """503: the match store did not answer within the request's store deadline."""
    return problem_response(503, Text("The match store does not answer: try again after Retry-After seconds. A "
                                      "move sent now may have landed: send it again with the same Idempotency-Key, "
                                      "or read the match. Stateless operations (/v1/games/...) keep working."),
                            title="Match store unavailable",
                            slug="store-unavailable", headers={"Retry-After": str(STORE_RETRY_AFTER_SECONDS)})


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


# The detail of a 422 by the part of the request that does not fit (webargs' locations).
UNFIT_DETAILS = {
    "json": Text("The request body does not fit the schema of this operation: correct the fields the errors "
                 "point at (the schema is in /openapi.yaml, shown at /docs)."),
    "query": Text("A query parameter does not fit the schema of this operation: correct the parameters the "
                  "errors point at."),
    "headers": Text("A header does not fit the schema of this operation: correct the headers the errors point at."),
    "view_args": Text("A path parameter does not fit the schema of this operation: correct the path."),
}
_UNFIT_REQUEST = Text("The request does not fit the schema of this operation: correct what the errors point at "
                      "(the schema is in /openapi.yaml, shown at /docs).")
_EMPTY_BODY = Text("The request body is empty: send a JSON object with the fields the errors list.")
# A body holding what belongs inside one of its fields (webargs' messages say that field is missing).
_LOOKS_LIKE_A_MOVE = Text('The request body looks like a move: send it inside {"move": ...}.')
_LOOKS_LIKE_A_MOVE_WITHOUT_STATE = Text('The request body looks like a move: send the state and the move as '
                                        '{"state": ..., "move": ...}.')
_LOOKS_LIKE_A_STATE = Text('The request body looks like a game state: send it inside {"state": ...}, with the '
                           "operation's other fields beside it.")


def wrapper_hint(messages: Mapping, body: Any) -> Text | None:
    """The detail of a 422 whose body holds, at its top level, what belongs inside a field the
    messages (webargs': by location, then by field) say is missing: a move (it has ``type``)
    posted without ``{"move": ...}`` around it, or a state (``game`` and ``players``) without
    ``{"state": ...}``; None for any other body."""
    fields = messages.get("json")
    if not isinstance(fields, Mapping) or type(body) is not dict:
        return None
    def missing(name: str) -> bool:
        return name in fields and name not in body
    if missing("move") and "type" in body:
        return _LOOKS_LIKE_A_MOVE_WITHOUT_STATE if missing("state") else _LOOKS_LIKE_A_MOVE
    if missing("state") and "game" in body and "players" in body:
        return _LOOKS_LIKE_A_STATE
    return None


def _unfit(messages: Mapping, hint: Text | None) -> Text:
    """The detail of a 422 from webargs, naming the part of the request that does not fit."""
    if hint is not None:
        return hint
    if list(messages) == ["json"] and request and not request.get_data(cache=True):
        # webargs reads an empty body as no fields at all (each required one is then missing)
        return _EMPTY_BODY
    return UNFIT_DETAILS.get(next(iter(messages)), _UNFIT_REQUEST) if len(messages) == 1 else _UNFIT_REQUEST


def _not_here() -> Text:
    return Text('No resource at {path}: check the path (the operations are listed at /docs, and in '
                "/openapi.yaml).", path=echo(request.path))


def _not_allowed(error: HTTPException) -> Text:
    methods = getattr(error, "valid_methods", None)
    if not methods:
        return Text("{path} does not take the method {method}: the operations and their methods are listed at "
                    "/docs.", path=echo(request.path), method=echo(request.method))
    return Text("{path} does not take the method {method}: send one of those the Allow header lists ({allowed}).",
                path=echo(request.path), method=echo(request.method), allowed=", ".join(sorted(methods)))


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
            return problem_response(400, Text("The request could not be read: correct what the errors point at "
                                              "and send it again."), errors, headers=headers)
        return problem_response(422, _unfit(messages, data.get("hint")), errors, headers=headers)
    if status == 413:
        return body_too_large(current_app.config.get("MAX_CONTENT_LENGTH"), headers)
    if status >= 500:
        return problem_response(status, Text(
            "The service failed to answer this request; the fault is the service's, not the request's. Try "
            "again later; if it goes on, report it with this answer's X-Request-ID."), headers=headers)
    if status == 404:
        return problem_response(404, _not_here(), headers=headers)
    if status == 405:
        return problem_response(405, _not_allowed(error), headers=headers)
    if status == 416:
        return problem_response(416, Text("The range asked for is not within the file: ask for a range that is, "
                                          "or for the whole file (no Range header)."), headers=headers)
    detail = error.description if isinstance(error.description, str) else ""
    return problem_response(status, detail or error.name, headers=headers)


def register_error_handlers(app: Flask) -> None:
    """Answer as problems: the API's own (ProblemError), the service's refusals, and bodies the
    strict JSON reader refuses (400)."""
    app.register_error_handler(ProblemError, from_problem_error)
    app.register_error_handler(Refused, from_refusal)

    @app.errorhandler(NumberTooLong)
    def too_long(error):
        return problem_response(400, number_too_long(error), [("", Text("an integer of more than {limit} digits",
                                                                        limit=error.limit))],
                                title="The request body holds a number too long to read")

    @app.errorhandler(TooManyContainers)
    def too_many(error):
        return problem_response(400, too_many_containers(error),
                                [("", Text("more than {limit:,} arrays and objects", limit=error.limit))],
                                title="The request body holds too many arrays and objects")

    @app.errorhandler(RecursionError)
    def too_deep(_error):
        return problem_response(400, Text("The request body is nested too deeply to parse. Send a body nested less "
                                          "deeply: no operation takes more than a few levels."),
                                [("", Text("nested too deeply to parse"))])  # (as for a body that is not JSON)

