"""Examples of the problems the operations answer (OpenAPI ``components/examples``): each is
the problem document the service answers to the request its summary names.

Where the service builds a problem without a request (the seat and version refusals of the
match service, run here on an in-process store; the body, store and waiting limits of the
HTTP layer), the example is built by that code, so that it says what the service says. The
others (a body the JSON reader or the schema refuses, If-Match, the media type) are written
out. tests/api/test_contract_run.py sends each example's request to a real server and
requires its answer.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable

from werkzeug.exceptions import InternalServerError

from referee.api.body.transport import DEFAULT_BODY_TIMEOUT_SECONDS, DEFAULT_MAX_BODY_BYTES
from referee.api.contract import examples
from referee.api.http import problems
from referee.api.ops import live
from referee.games import GAMES
from referee.service.errors import Refused, problem_body
from referee.service.matches import IfMatch, Matches
from referee.store import max_waiting_from_env
from referee.store.memory import MemoryStore
from referee.store.snapshot_cache import RecentSnapshots

_UNFIT = "The request body does not fit the schema of this operation."
_QUERY_UNFIT = "A query parameter does not fit the schema of this operation."
_MISSING = "Missing data for required field."


def _answered(response) -> dict:
    return json.loads(response.get_data())


def _refused(call: Callable[[], Any]) -> dict:
    """The problem document of the refusal ``call`` raises."""
    try:
        call()
    except Refused as refusal:
        return refusal.problem()
    except problems.ProblemError as error:
        return _answered(problems.from_problem_error(error))
    raise AssertionError("the call was not refused")


def _missing(*names: str) -> dict:
    return problem_body(422, _UNFIT, [(f"/{name}", _MISSING) for name in names])


def _too_many_waiting() -> None:
    slots = live.WaitingSlots(max_waiting_from_env({}))
    for _ in range(slots.limit + 1):
        slots.acquire()


@lru_cache(maxsize=None)
def _match_refusals() -> dict[str, dict]:
    """The refusals of the match service on a real match (in-process store): a read without
    the seat's secret or with another seat's, an unknown match, a move chosen on another
    version, an idempotency key used again with another move."""
    matches = Matches(MemoryStore(), RecentSnapshots())
    game = GAMES[examples.MATCH_GAME]
    created = matches.create(game, examples.PLAYERS, None, {})
    match_id, other = created["id"], created["seats"][1]["secret"]
    first, second = [move for move in game.legal_moves(game.setup(examples.PLAYERS, "moves", {}))
                     if move["player"] == 0][:2]

    def move(chosen: dict, versions: set[int], key: str | None) -> None:
        held, cached = matches.held(match_id, frozenset(versions))
        matches.move(match_id, held, cached, chosen, 0, IfMatch(frozenset(versions)), key, examples.LANGUAGE)

    found = {
        "SeatSecretMissing": _refused(lambda: matches.read(match_id, 0, None)),
        "OtherSeatsSecret": _refused(lambda: matches.read(match_id, 0, f"Bearer {other}")),
        "NoSuchMatch": _refused(lambda: matches.snapshot(examples.MATCH_ID)),
        "StaleVersion": _refused(lambda: move(first, {1}, None)),
    }
    move(first, {0}, "move-1")
    found["IdempotencyKeyReused"] = _refused(lambda: move(second, {0}, "move-1"))
    # The match's id is drawn at random; the contract names the examples' match id instead.
    return {name: json.loads(json.dumps(problem).replace(match_id, examples.MATCH_ID))
            for name, problem in found.items()}


def _last_event_id() -> None:
    live.last_event_id("x")


# name -> (what was sent, the problem document: a callable when built by the service's code)
_SOURCES: dict[str, tuple[str, Any]] = {
    "BodyNotJson": ("a body that is not JSON (`{`)", problem_body(
        400, "The request body could not be parsed as JSON.", [("", "Invalid JSON body.")])),
    "BodyTooSlow": ("a body that did not arrive within the body deadline (10 s by default)",
                    lambda: _answered(problems.body_too_slow(DEFAULT_BODY_TIMEOUT_SECONDS))),
    "BodyTooLarge": ("a body over REFEREE_MAX_BODY_BYTES (1 MiB by default)",
                     lambda: _answered(problems.body_too_large(DEFAULT_MAX_BODY_BYTES))),
    "BodyNotJsonMedia": ("a body sent as `text/plain`",
                         problem_body(415, "Send the request body as application/json.")),
    "SetupUnfit": ("`{}`: no player count", _missing("players")),
    "StateMissing": ("`{}`: no state", _missing("state")),
    "AdjudicateUnfit": ("`{}`: no state, no move", _missing("state", "move")),
    "ViewUnfit": ("`{}`: no state, no seat", _missing("state", "seat")),
    "ReplayUnfit": ("`{}`: no state, no moves", _missing("state", "moves")),
    "UnknownGame": ("`{\"game\": \"chess\", \"players\": 2}`", problem_body(
        422, _UNFIT, [("/game", f"Must be one of: {', '.join(GAMES)}.")])),
    "SeatNotANumber": ("`?seat=x`", problem_body(422, _QUERY_UNFIT, [("/query/seat", "Not a valid integer.")])),
    "SeatMissing": ("no `?seat=`", problem_body(422, _QUERY_UNFIT, [("/query/seat", _MISSING)])),
    "LastEventIdNotAVersion": ("`Last-Event-ID: x`", lambda: _refused(_last_event_id)),
    "SeatSecretMissing": ("`?seat=0` (or a move by seat 0) without `Authorization`",
                          lambda: _match_refusals()["SeatSecretMissing"]),
    "OtherSeatsSecret": ("`?seat=0` (or a move by seat 0) with seat 1's secret",
                         lambda: _match_refusals()["OtherSeatsSecret"]),
    "NoSuchMatch": ("a match id that was never given (or whose match expired)",
                    lambda: _match_refusals()["NoSuchMatch"]),
    "StaleVersion": ("a move with `If-Match: \"1\"` on a match at version 0",
                     lambda: _match_refusals()["StaleVersion"]),
    "IdempotencyKeyReused": ("`Idempotency-Key: move-1` again, with another move",
                             lambda: _match_refusals()["IdempotencyKeyReused"]),
    "IfMatchMissing": ("a move without `If-Match`", problem_body(
        428, "A move needs If-Match with the match's ETag (GET the match to read it).")),
    "IfMatchMalformed": ("`If-Match: 0`, the version without its quotes", problem_body(
        400, "If-Match must list entity tags in double quotes, as the ETag header gives them (RFC 9110 section "
             "8.8.3): '0' is not one.", [("/headers/If-Match", "not a list of quoted entity tags")],
        title="Malformed header", slug="malformed-header")),
    "StoreUnavailable": ("any match request while the match store does not answer",
                         lambda: _answered(problems.store_unavailable())),
    "TooManyWaiting": ("a long-poll or event stream while REFEREE_MAX_WAITING requests (750 by default) wait",
                       lambda: _refused(_too_many_waiting)),
    "InternalError": ("a request the service failed to answer (a bug)",
                      lambda: _answered(problems.from_http_exception(InternalServerError()))),
}


@lru_cache(maxsize=None)
def example(name: str) -> dict[str, Any]:
    """The OpenAPI example object ``{"summary", "value"}`` of the problem ``name``."""
    summary, value = _SOURCES[name]
    return {"summary": summary, "value": value() if callable(value) else value}


NAMES = tuple(_SOURCES)
