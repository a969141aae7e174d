"""OpenAPI fragments of the match operations: their problems, headers and parameters."""

from __future__ import annotations

from referee.api.contract.header_docs import named, problem
from referee.schemas.matches import SeatIncludeQuery, SeatQuery

SECURITY_SCHEME = "SeatSecret"
MAX_KEY_LENGTH = 255

ETAG_HEADER = named("ETag")
# A read of a match: it depends on the version and on the seat's secret.
READ_HEADERS = named("ETag", "Cache-Control", "Vary")
WAITED = named("Preference-Applied")
STORE_UNAVAILABLE = problem("The match store does not answer; try again after Retry-After seconds",
                            "StoreUnavailable", headers=named("Retry-After"))
WAITING_UNAVAILABLE = problem("The match store does not answer, or this server already holds as many waiting "
                              "requests as it allows (REFEREE_MAX_WAITING); try again after Retry-After seconds",
                              "StoreUnavailable", "TooManyWaiting", headers=named("Retry-After"))
NOT_FOUND = problem("No such match (or it expired)", "NoSuchMatch")
UNAUTHORISED = problem("The seat's secret is missing, malformed or not a seat's secret in this match",
                       "SeatSecretMissing", headers=named("WWW-Authenticate"))
FORBIDDEN = problem("The secret is another seat's", "OtherSeatsSecret")
BAD_SEAT = problem("`?seat=` is not a seat number (JSON pointers in `errors`)", "SeatNotANumber")
BAD_SEAT_OR_INCLUDE = problem("`?seat=` is not a seat number, or `?include=` not `legal_moves` (once, with a seat) "
                              "(JSON pointers in `errors`)", "SeatNotANumber", "IncludeUnknown", "IncludeRepeated",
                              "IncludeWithoutSeat")
# The problems of a read with ?seat= (getMatch, getMatchLog, getMatchEvents).
READ_PROBLEMS = {"401": UNAUTHORISED, "403": FORBIDDEN, "404": NOT_FOUND, "422": BAD_SEAT}
IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
                 "description": "The ETag of the version you hold: 304 Not Modified (no body) while the match is "
                                "still at that version, so that a table app can poll cheaply."}
# The seat's secret goes in Authorization (security scheme SeatSecret), needed only with ?seat=.
READ_PARAMS = [{"in": "query", "schema": SeatQuery}, IF_NONE_MATCH]
INCLUDE_READ_PARAMS = [{"in": "query", "schema": SeatIncludeQuery}, IF_NONE_MATCH]
PREFER_WAIT = {"in": "header", "name": "Prefer", "required": False, "schema": {"type": "string"},
               "description": "With If-None-Match: `wait=N` (RFC 7240, N up to 30 seconds) waits until the match "
                              "moves on (200) or N seconds pass (304); the answer says `Preference-Applied`."}
NOT_MODIFIED = {"description": "Not Modified: the match is still at the version named by If-None-Match",
                "headers": READ_HEADERS}
MATCH_ID = {"match_id": "$response.body#/id"}
EVENTS_ENDED = {"description": "No Content: the game is over and Last-Event-ID names its final version (the id of "
                               "the `end` event) or a later one, so the reader has every event. No body and no "
                               "Content-Type; an EventSource stops reconnecting on it (HTML standard, "
                               "\"Server-sent events\"), and any other client should stop too",
                "headers": named("Cache-Control", "Vary")}
