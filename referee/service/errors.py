"""The requests the service refuses, as domain errors, and the problem document of each.

Each error class names its problem type (``slug``, described at ``GET /problems/<slug>``),
its title and the HTTP status an answer gives it; the command line prints the same problem
document. ``errors`` are ``(JSON pointer, detail)`` pairs into the request. A ``detail`` says
what happened and what to do next; it is a :class:`~referee.service.texts.Text` (or a message
the catalog holds), said in the language of the answer when the document is written.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from referee.i18n import DEFAULT_LANGUAGE
from referee.json_text import LONE_SURROGATE, NOT_JSON_CONSTANT, NumberTooLong, TooManyContainers, error_place
from referee.limits import MAX_PROBLEM_ERRORS
from referee.service.texts import Text, echo, said

# Problem types are relative URIs (RFC 9457 section 3.1.1).
TYPE_BASE = "/problems/"

# status -> (type slug, title) of a problem that names no more specific type
STATUS_KINDS = {
    400: ("bad-request", "The request body is not valid JSON"),
    404: ("not-found", "No such resource"),
    405: ("method-not-allowed", "Method not allowed"),
    408: ("request-timeout", "The request body arrived too slowly"),
    412: ("precondition-failed", "The resource has changed"),
    413: ("content-too-large", "The request body is too large"),
    415: ("unsupported-media-type", "The request body must be JSON"),
    416: ("range-not-satisfiable", "Range not satisfiable"),
    422: ("unprocessable-content", "The request does not fit the contract"),
    428: ("precondition-required", "This request needs If-Match naming a version"),
    500: ("internal", "Internal error"),
    501: ("not-implemented", "Not implemented"),
    503: ("unavailable", "Service unavailable"),
}


class Refused(Exception):
    """A request the service refuses. Subclasses set ``status``; ``slug`` and ``title``
    default to the status's own (STATUS_KINDS)."""

    status = 422
    slug: str | None = None
    title: str | None = None

    def __init__(self, detail: str, errors: Iterable[tuple[str, str]] = ()):
        super().__init__(detail)
        self.detail = detail
        self.errors = errors if isinstance(errors, PointerErrors) else list(errors)

    def problem(self, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The RFC 9457 document of this refusal in ``language`` (see :func:`problem_body`)."""
        return problem_body(self.status, self.detail, self.errors, title=self.title, slug=self.slug,
                            language=language)


class InvalidRequest(Refused):
    """A body or parameter that does not fit the contract (422)."""


class ImpossibleState(Refused):
    """A well-formed state that cannot exist in the game (422)."""

    slug, title = "impossible-state", "Impossible state"


class UnplayableOptions(Refused):
    """Options or a player count the game cannot be set up with (422)."""

    slug, title = "unplayable-options", "Unplayable options"


class TooMuchWork(Refused):
    """A request over a limit on the work of one request (413; referee/limits.py)."""

    status, slug, title = 413, "limit-exceeded", "Over a limit of the service"


class MatchFull(Refused):
    """A move on a match that holds MAX_MATCH_MOVES moves (422)."""

    slug, title = "limit-exceeded", "Over a limit of the service"


class MatchNotFound(Refused):
    """No such match: it never existed or it expired (404)."""

    status = 404


class SeatSecretRequired(Refused):
    """The seat's secret is missing, malformed or no seat's in this match (401)."""

    status, slug, title = 401, "unauthorized", "Seat secret missing or wrong"


class NotThisSeat(Refused):
    """The secret is another seat's (403)."""

    status, slug, title = 403, "forbidden", "Not this seat's secret"


class StaleVersion(Refused):
    """The move was chosen on another version than the match's ``version`` (412)."""

    status = 412

    def __init__(self, detail: str, version: int):
        super().__init__(detail)
        self.version = version


class KeyReused(Refused):
    """An idempotency key already used with another request: another move or include (422)."""

    slug, title = "idempotency-key-reused", "Idempotency key reused"


# What Python's JSON reader says (json.JSONDecodeError.msg, its start), in the words of a problem.
_JSON_REASONS = {
    "Expecting value": "a value was expected",
    "Expecting property name enclosed in double quotes": "a member name in double quotes was expected",
    "Expecting ':' delimiter": "a colon was expected after the member name",
    "Expecting ',' delimiter": "a comma or a closing bracket was expected",
    "Extra data": "text follows the end of the JSON value",
    "Unterminated string starting at": "an unclosed string starts",
    "Invalid control character at": "a control character is unescaped in a string",
    "Invalid \\uXXXX escape": "a \\u escape lacks its four hexadecimal digits",
    "Invalid \\escape": "an escape JSON does not have",
    "Illegal trailing comma before end of object": "a comma comes before the closing brace",
    "Illegal trailing comma before end of array": "a comma comes before the closing bracket",
    "Unexpected UTF-8 BOM": "a byte order mark starts the text",
    NOT_JSON_CONSTANT: "a NaN or Infinity (not JSON numbers)",
    LONE_SURROGATE: "a \\u escape of a lone surrogate (no character)",
}


def json_reason(error: ValueError) -> Text:
    """What is wrong where a JSON text could not be read (a reading error of
    :func:`referee.json_text.strict_loads`)."""
    if isinstance(error, UnicodeDecodeError):
        return Text("a byte that is not UTF-8")
    message = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
    for start, reason in _JSON_REASONS.items():
        if message.startswith(start):
            return Text(reason)
    return Text(echo(message))


class NotJson(Refused):
    """A request body (or an input file: ``path``) that is not JSON text (400), told by line,
    column (in characters, from 1) and byte offset (from 0) of the first fault. The pointer is
    ``pointer`` (``""``: the whole body)."""

    status = 400

    def __init__(self, error: ValueError, pointer: str = "", path: str | None = None):
        line, column, offset = error_place(error)
        reason = json_reason(error)
        if path is None:
            detail = Text("The request body is not valid JSON: {reason} at line {line}, column {column} (byte "
                          "offset {offset}). Correct the JSON text there and send the request again.",
                          reason=reason, line=line, column=column, offset=offset)
        else:
            detail = Text("{path} is not valid JSON: {reason} at line {line}, column {column} (byte offset "
                          "{offset}). Correct the file there and run the command again.",
                          path=path, reason=reason, line=line, column=column, offset=offset)
            self.title = "An input file is not valid JSON"
        super().__init__(detail, [(pointer, Text("{reason} at line {line}, column {column}", reason=reason,
                                                 line=line, column=column))])


def number_too_long(error: NumberTooLong, path: str | None = None) -> Text:
    """The detail of a body (or the input file ``path``) holding an integer over NumberTooLong's limit."""
    if path is not None:
        return Text("{path} holds an integer of more than {limit:,} digits, more than Referee reads. No field takes "
                    "such a number: correct it.", path=path, limit=error.limit)
    return Text("The request body holds an integer of more than {limit:,} digits, more than the service reads. No "
                "field takes such a number: correct it and send the request again.", limit=error.limit)


def too_many_containers(error: TooManyContainers, path: str | None = None) -> Text:
    """The detail of a body (or the input file ``path``) of more arrays and objects than MAX_JSON_CONTAINERS."""
    if path is not None:
        return Text("{path} holds more than {limit:,} arrays and objects, more than Referee reads. Replay a long "
                    "game in parts, each from the state the last part ended on.", path=path, limit=error.limit)
    return Text("The request body holds more than {limit:,} arrays and objects, more than the service reads. Send "
                "a smaller body (a long replay in parts, each from the state the last part ended on; a long match "
                "record with the command line, referee verify RECORD.json).",
                limit=error.limit)


class PointerErrors(list):
    """``(pointer, detail)`` pairs: the first ``MAX_PROBLEM_ERRORS`` of ``total`` errors."""

    total: int = 0


def problem_type(status: int, slug: str | None = None) -> str:
    """The problem ``type`` URI of ``status`` (or of a more specific ``slug``)."""
    return TYPE_BASE + (slug or STATUS_KINDS.get(status, ("error", "Error"))[0])


def problem_body(status: int, detail: str, errors: Iterable[tuple[str, str]] = (), *,
                 title: str | None = None, slug: str | None = None,
                 language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The problem details document (JSON) of ``status``, its title and details said in
    ``language`` (:func:`referee.service.texts.said`); ``errors`` as ``(pointer, detail)``, at
    most ``MAX_PROBLEM_ERRORS`` of them (the detail then says how many there were)."""
    _, default_title = STATUS_KINDS.get(status, ("error", "Error"))
    total = getattr(errors, "total", None)
    errors = list(errors)
    total = len(errors) if total is None else total
    if total > MAX_PROBLEM_ERRORS:
        # A bounded answer (referee/limits.py): a body of 80,000 unknown fields is 5 MB of errors.
        detail = Text("{detail} (the first {listed} of {total:,} errors are listed)",
                      detail=detail if isinstance(detail, Text) else Text(str(detail)),
                      listed=MAX_PROBLEM_ERRORS, total=total)
        errors = errors[:MAX_PROBLEM_ERRORS]
    body: dict[str, Any] = {
        "type": problem_type(status, slug),
        "title": said(title or default_title, language),
        "status": status,
        "detail": said(detail, language),
    }
    if errors:
        body["errors"] = [{"pointer": pointer, "detail": said(text, language)} for pointer, text in errors]
    return body


class NoRecord(Refused):
    """A match that kept no record: it was created before records were kept (404)."""

    status = 404
