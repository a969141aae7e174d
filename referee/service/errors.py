"""The requests the service refuses, as domain errors, and the problem document of each.

Each error class names its problem type (``slug``, described at ``GET /problems/<slug>``),
its title and the HTTP status an answer gives it; the command line prints the same problem
document. ``errors`` are ``(JSON pointer, detail)`` pairs into the request.
"""

from __future__ import annotations

from typing import Any, Iterable

from referee.limits import MAX_PROBLEM_ERRORS

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

    def problem(self) -> dict[str, Any]:
        """The RFC 9457 document of this refusal (see :func:`problem_body`)."""
        return problem_body(self.status, self.detail, self.errors, title=self.title, slug=self.slug)


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

    status, slug, title = 401, "unauthorized", "Seat secret required"


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
    """An idempotency key already used with another body (422)."""

    slug, title = "idempotency-key-reused", "Idempotency key reused"


class PointerErrors(list):
    """``(pointer, detail)`` pairs: the first ``MAX_PROBLEM_ERRORS`` of ``total`` errors."""

    total: int = 0


def problem_type(status: int, slug: str | None = None) -> str:
    """The problem ``type`` URI of ``status`` (or of a more specific ``slug``)."""
    return TYPE_BASE + (slug or STATUS_KINDS.get(status, ("error", "Error"))[0])


def problem_body(status: int, detail: str, errors: Iterable[tuple[str, str]] = (), *,
                 title: str | None = None, slug: str | None = None) -> dict[str, Any]:
    """The problem details document (JSON) of ``status``; ``errors`` as ``(pointer, detail)``,
    at most ``MAX_PROBLEM_ERRORS`` of them (the detail then says how many there were)."""
    _, default_title = STATUS_KINDS.get(status, ("error", "Error"))
    body: dict[str, Any] = {
        "type": problem_type(status, slug),
        "title": title or default_title,
        "status": status,
        "detail": detail,
    }
    total = getattr(errors, "total", None)
    errors = list(errors)
    total = len(errors) if total is None else total
    if total > MAX_PROBLEM_ERRORS:
        # A bounded answer (referee/limits.py): a body of 80,000 unknown fields is 5 MB of errors.
        body["detail"] = f"{detail} (the first {MAX_PROBLEM_ERRORS} of {total:,} errors are listed)"
        errors = errors[:MAX_PROBLEM_ERRORS]
    if errors:
        body["errors"] = [{"pointer": pointer, "detail": text} for pointer, text in errors]
    return body
