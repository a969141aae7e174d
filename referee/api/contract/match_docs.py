"""OpenAPI fragments of the match operations: their problems, headers and parameters."""

from __future__ import annotations

from referee.api.http.problems import PROBLEM_CONTENT_TYPE
from referee.schemas.matches import SeatQuery

SECURITY_SCHEME = "SeatSecret"
MAX_KEY_LENGTH = 255


def problem(status: int, description: str, headers: dict | None = None) -> dict:
    doc: dict = {"description": description,
                 "content": {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
    if headers:
        doc["headers"] = headers
    return doc


ETAG_HEADER = {"ETag": {"description": "the match's version, a strong entity tag", "schema": {"type": "string"}}}
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}}
UNAVAILABLE = problem(503, "The match store does not answer; try again after Retry-After seconds", RETRY_AFTER)
NOT_FOUND = problem(404, "No such match (or it expired)")
UNAUTHORISED = problem(401, "The seat's secret is missing, malformed or not a seat's secret in this match",
                        {"WWW-Authenticate": {"schema": {"type": "string"}}})
FORBIDDEN = problem(403, "The secret is another seat's")
INVALID = problem(422, "The body or a parameter does not fit the contract (JSON pointers in errors)")
IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
                 "description": "the ETag of the version you hold: 304 Not Modified (no body) while the match is "
                                "still at that version, so that a table app can poll cheaply"}
# The seat's secret goes in Authorization (security scheme SeatSecret), needed only with ?seat=.
READ_PARAMS = [{"in": "query", "schema": SeatQuery}, IF_NONE_MATCH]
PREFER_WAIT = {"in": "header", "name": "Prefer", "required": False, "schema": {"type": "string"},
               "description": "with If-None-Match: `wait=N` (RFC 7240, N up to 30 seconds) waits until the match "
                              "moves on (200) or N seconds pass (304); the answer says Preference-Applied"}
NOT_MODIFIED = {"description": "Not Modified: the match is still at the version named by If-None-Match",
                "headers": {**ETAG_HEADER}}
MATCH_ID = {"match_id": "$response.body#/id"}
EVENTS_ENDED = {"description": "No Content: the game is over and Last-Event-ID names its final version (the id of "
                               "the `end` event) or a later one, so the reader has every event. No body and no "
                               "Content-Type; an EventSource stops reconnecting on it (HTML standard, "
                               "\"Server-sent events\"), and any other client should stop too"}
