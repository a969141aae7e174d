"""The headers of the service's answers in the contract, and the plugin that declares the ones
every answer or every body carries.

Each header the service writes on an answer of an operation is declared on that response:
reusable header objects (``components/headers``, :data:`HEADERS`) referenced by name from
the views' declarations, and, through :class:`AnswerDocs`, ``X-Request-ID`` on every response
and the body reader's problems (400, 408, 413, 415: referee/api/body/transport.py) on every
operation that takes a body. Transport headers (Date, Server, Content-Length, Connection,
Transfer-Encoding) and CORS headers (only for the origins in ``REFEREE_CORS_ORIGINS``) are not
declared. tests/api/test_contract_run.py compares a recorded run of every operation with
these declarations, both ways.
"""

from __future__ import annotations

from typing import Any

from apispec import BasePlugin

from referee.api.contract import problem_examples
from referee.api.http.problems import PROBLEM_CONTENT_TYPE

_TEXT = {"type": "string"}

# Header objects (OpenAPI 3.1 section 4.8.21); "required": true where every answer of the
# responses naming it carries it.
HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-ID": {
        "description": "The request's id, also written in the access log: the caller's `X-Request-ID` when it is "
                       "1 to 128 letters, digits and `._:+/=-`, else a new random one (32 hex digits).",
        "required": True, "schema": {"type": "string", "pattern": "^[A-Za-z0-9._:+/=-]{1,128}$"}},
    "ETag": {
        "description": "The match's version as a strong entity tag, such as `\"3\"`: send it as `If-Match` with a "
                       "move, or as `If-None-Match` to poll.",
        "required": True, "schema": {"type": "string", "pattern": '^"(0|[1-9][0-9]{0,17})"$'}},
    "Location": {"description": "The new match's URL, `/v1/matches/{id}`.", "required": True, "schema": _TEXT},
    "Cache-Control": {
        "description": "`private, no-cache` on a match read (it depends on the seat's secret and on the version: "
                       "revalidate with `If-None-Match`); `no-store` on the answer holding the seat secrets and "
                       "on event streams.",
        "required": True, "schema": {"type": "string", "enum": ["private, no-cache", "no-store"]}},
    "Vary": {
        "description": "The request headers this answer depends on: `Authorization` (a seat's view), "
                       "`Accept-Language` (verdict messages, problem details), `Prefer` (a long-poll that waited).",
        "required": True, "schema": _TEXT},
    "Content-Language": {
        "description": "The language of the verdict messages, catalogue texts and problem details: `ja` when "
                       "`Accept-Language` prefers Japanese, else `en`.",
        "required": True, "schema": {"type": "string", "enum": ["en", "ja"]}},
    "Idempotent-Replayed": {
        "description": "`true` when this is the answer stored under the request's `Idempotency-Key` (a retry of "
                       "a move already judged); absent on a move judged now.",
        "required": False, "schema": {"type": "string", "enum": ["true"]}},
    "Preference-Applied": {
        "description": "`wait=N` (RFC 7240) when the request waited for a move with `Prefer: wait=N`, N capped at "
                       "the server's longest wait; absent when it was answered at once.",
        "required": False, "schema": {"type": "string", "pattern": "^wait=[0-9]+$"}},
    "WWW-Authenticate": {
        "description": "`Bearer realm=\"referee matches\"` (RFC 6750): send a seat's secret as "
                       "`Authorization: Bearer <secret>`.",
        "required": True, "schema": _TEXT},
    "Retry-After": {"description": "Seconds to wait before trying again (RFC 9110 section 10.2.3).",
                    "required": True, "schema": {"type": "integer", "minimum": 0}},
    "X-Accel-Buffering": {
        "description": "`no`: a proxy such as nginx passes the stream on as it comes instead of buffering it.",
        "required": True, "schema": {"type": "string", "enum": ["no"]}},
}


def named(*names: str) -> dict[str, str]:
    """Response ``headers`` naming components of :data:`HEADERS` (apispec writes the ``$ref``)."""
    unknown = set(names) - set(HEADERS)
    if unknown:
        raise KeyError(f"no header component {sorted(unknown)}")
    return {name: name for name in names}


def optional(name: str, when: str) -> dict[str, dict[str, Any]]:
    """Response ``headers`` declaring :data:`HEADERS` ``name`` as sent on some answers only, ``when``."""
    header = dict(HEADERS[name], required=False)
    header["description"] = f"{header['description']} Sent {when}."
    return {name: header}


# Every problem is said in the language Accept-Language asks for (referee/api/http/problems.py).
PROBLEM_HEADERS = ("Content-Language", "Vary")


def problem(description: str, *examples: str, headers: dict | None = None) -> dict[str, Any]:
    """A problem+json response with the named examples of
    :mod:`referee.api.contract.problem_examples` (components/examples); its headers are
    ``headers`` and :data:`PROBLEM_HEADERS` (added by :class:`AnswerDocs`)."""
    media: dict[str, Any] = {"schema": "Problem"}
    if examples:
        media["examples"] = {name: name for name in examples}
    response: dict[str, Any] = {"description": description, "content": {PROBLEM_CONTENT_TYPE: media}}
    if headers:
        response["headers"] = dict(headers)
    return response


# The answers the body reader gives before any view runs, on every operation taking a body.
BODY_PROBLEMS = {
    "400": problem("The body is not JSON (or holds more arrays and objects than the service reads), or its "
                   "chunked framing is malformed", "BodyNotJson"),
    "408": problem("The body did not arrive within the body deadline (REFEREE_BODY_TIMEOUT_SECONDS); the "
                   "connection is closed", "BodyTooSlow"),
    "413": problem("The body is larger than REFEREE_MAX_BODY_BYTES", "BodyTooLarge"),
    "415": problem("The body is not sent as `application/json` (or in a content coding)", "BodyNotJsonMedia"),
}


class AnswerDocs(BasePlugin):
    """apispec plugin (flask-smorest's ``extra_plugins``): registers :data:`HEADERS` and the
    problem examples as components; declares ``X-Request-ID`` on every response of every
    operation, ``Content-Language`` and ``Vary`` on every problem response, and
    :data:`BODY_PROBLEMS` on every operation that takes a body (an operation's own response of
    the same status keeps its description and gains the example)."""

    def init_spec(self, spec) -> None:
        super().init_spec(spec)
        for name, header in HEADERS.items():
            spec.components.header(name, header)
        for name in problem_examples.NAMES:
            spec.components.example(name, problem_examples.example(name), lazy=True)

    def operation_helper(self, path=None, operations=None, **kwargs) -> None:
        for operation in (operations or {}).values():
            responses: dict[str, Any] = {}
            for status, response in operation.get("responses", {}).items():
                status = str(status)
                if isinstance(response, dict) or status not in responses:   # (its own over flask-smorest's)
                    responses[status] = response
            if "requestBody" in operation:
                for status, response in BODY_PROBLEMS.items():
                    responses[status] = _with_examples(responses[status], response) if status in responses \
                        else _copy(response)
            for response in responses.values():
                if isinstance(response, dict):   # (a component's name: the component declares it)
                    language = named(*PROBLEM_HEADERS) if PROBLEM_CONTENT_TYPE in response.get("content", {}) else {}
                    response["headers"] = {**named("X-Request-ID"), **language, **response.get("headers", {})}
            # in the order of their status codes, "default" last
            operation["responses"] = dict(sorted(responses.items(), key=lambda item: (not item[0].isdigit(), item[0])))


def _copy(response: dict) -> dict:
    return {**response, "content": {kind: {**media, "examples": dict(media.get("examples", {}))}
                                    for kind, media in response["content"].items()}}


def _with_examples(own: dict | str, body: dict) -> dict | str:
    """``own`` (an operation's response) with the examples of ``body`` (a BODY_PROBLEMS response) added."""
    if not isinstance(own, dict):
        return _copy(body)
    media = own.setdefault("content", {}).setdefault(PROBLEM_CONTENT_TYPE, {"schema": "Problem"})
    media["examples"] = {**media.get("examples", {}), **body["content"][PROBLEM_CONTENT_TYPE]["examples"]}
    return own
