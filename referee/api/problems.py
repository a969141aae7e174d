"""RFC 9457 problem details: every error answer of the service.

A problem is ``{"type", "title", "status", "detail", "errors": [{"pointer", "detail"}]}`` with
content type ``application/problem+json``. ``pointer`` is a JSON pointer (RFC 6901) into the
request body ("" for the whole body).
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping

from flask import Response
from werkzeug.exceptions import HTTPException

PROBLEM_CONTENT_TYPE = "application/problem+json"
TYPE_BASE = "https://referee.example/problems/"

# status -> (type slug, title)
_KINDS = {
    400: ("bad-request", "The request body is not valid JSON"),
    404: ("not-found", "No such resource"),
    405: ("method-not-allowed", "Method not allowed"),
    412: ("precondition-failed", "The resource has changed"),
    413: ("content-too-large", "The request body is too large"),
    415: ("unsupported-media-type", "The request body must be JSON"),
    422: ("unprocessable-content", "The request does not fit the contract"),
    428: ("precondition-required", "This request needs an If-Match header"),
    500: ("internal", "Internal error"),
    503: ("unavailable", "Service unavailable"),
}


class ProblemError(Exception):
    """An error to answer as a problem. ``errors``: iterable of ``(pointer, detail)``."""

    def __init__(self, status: int, detail: str, errors: Iterable[tuple[str, str]] = (),
                 *, title: str | None = None, slug: str | None = None, headers: Mapping[str, str] | None = None):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = list(errors)
        self.title = title
        self.slug = slug
        self.headers = dict(headers or {})


def escape_token(token: Any) -> str:
    """One JSON pointer reference token (RFC 6901 escaping)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer_errors(messages: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Flatten marshmallow's nested error messages into ``(pointer, detail)`` pairs."""
    found: list[tuple[str, str]] = []
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            if key == "_schema":
                found.extend(pointer_errors(value, prefix))
            else:
                found.extend(pointer_errors(value, f"{prefix}/{escape_token(key)}"))
    elif isinstance(messages, (list, tuple)):
        for item in messages:
            if isinstance(item, (Mapping, list, tuple)):
                found.extend(pointer_errors(item, prefix))
            else:
                found.append((prefix, str(item)))
    else:
        found.append((prefix, str(messages)))
    return found


def problem_response(status: int, detail: str, errors: Iterable[tuple[str, str]] = (), *,
                     title: str | None = None, slug: str | None = None,
                     headers: Mapping[str, str] | None = None) -> Response:
    """A problem+json response."""
    default_slug, default_title = _KINDS.get(status, ("error", "Error"))
    body: dict[str, Any] = {
        "type": TYPE_BASE + (slug or default_slug),
        "title": title or default_title,
        "status": status,
        "detail": detail,
    }
    errors = list(errors)
    if errors:
        body["errors"] = [{"pointer": pointer, "detail": text} for pointer, text in errors]
    response = Response(json.dumps(body, ensure_ascii=False, sort_keys=True), status=status,
                        content_type=PROBLEM_CONTENT_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def from_problem_error(error: ProblemError) -> Response:
    return problem_response(error.status, error.detail, error.errors, title=error.title, slug=error.slug,
                            headers=error.headers)


def from_http_exception(error: HTTPException) -> Response:
    """Translate werkzeug/webargs exceptions into problems (422 keeps the field pointers)."""
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages") or data.get("errors")
    headers = dict(data.get("headers") or {})
    if status == 405 and getattr(error, "valid_methods", None):
        headers["Allow"] = ", ".join(error.valid_methods)
    if status in (400, 422) and isinstance(messages, Mapping):
        # webargs nests messages under the location ("json", "query", "headers").
        errors: list[tuple[str, str]] = []
        for location, inner in messages.items():
            base = "" if location == "json" else f"/{location}"
            errors.extend(pointer_errors(inner, base))
        if status == 400:
            return problem_response(400, "The request body could not be parsed as JSON.", errors, headers=headers)
        return problem_response(422, "The request body does not fit the schema of this operation.", errors,
                                headers=headers)
    if status == 413:
        return problem_response(413, "The request body is larger than the limit of this service.", headers=headers)
    if status >= 500:
        return problem_response(status, "The service failed to answer this request.", headers=headers)
    detail = error.description if isinstance(error.description, str) else _KINDS.get(status, ("", "Error"))[1]
    return problem_response(status, detail, headers=headers)
