"""Examples of the problems the operations answer (OpenAPI ``components/examples``): each is
the problem document the service answers to the request its summary names.

Each example is built by the code that answers it, so that it says what the service says:
the refusals of the match service (run here on an in-process store), of records, seeding and
signed states; the body, store and waiting limits of the HTTP layer; and the checks that read
the request (If-Match, the media type), run here in a request made up for them. A body the
schema refuses is said with the words of referee/api/http/problems.py and marshmallow's.
tests/api/test_contract_run.py sends each example's request to a real server and requires its
answer (with its match's id in place of the examples' ``MATCH_ID``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable

import flask
from flask import Flask
from werkzeug.exceptions import InternalServerError

from referee.api.body.transport import DEFAULT_BODY_TIMEOUT_SECONDS, DEFAULT_MAX_BODY_BYTES, unsupported_media
from referee.api.contract import examples
from referee.api.http import conditions, includes, problems
from referee.api.ops import live
from referee.games import GAMES
from referee.json_text import strict_loads
from referee.limits import MAX_MATCH_MOVES
from referee.service import records, seeding, state_signing, verify
from referee.service.errors import NotJson, Refused, problem_body
from referee.service.matches import IfMatch, Matches
from referee.store import max_waiting_from_env
from referee.store.memory import MemoryStore
from referee.store.snapshot_cache import RecentSnapshots

_UNFIT = problems.UNFIT_DETAILS["json"]
_QUERY_UNFIT = problems.UNFIT_DETAILS["query"]
_MISSING = "Missing data for required field."   # (marshmallow's)
# A key for the signed states' example (REFEREE_STATE_KEYS holds the deployment's own).
_EXAMPLE_KEYS = state_signing.StateKeys((b"an example key of the contract",))


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


def _not_json() -> None:
    try:
        strict_loads(b"{")
    except ValueError as error:
        raise NotJson(error) from None


def _in_request(path: str, check: Callable[[], Any], **request: Any) -> dict:
    """The problem ``check`` raises or answers in a request to ``path`` (a POST route of the
    service's, so that the request's view arguments are the service's)."""
    app = Flask(__name__)
    app.add_url_rule(path.replace(examples.MATCH_ID, "<match_id>"), "example", methods=["POST"])
    with app.test_request_context(path, method="POST", **request):
        answered = _refused(check) if request.get("headers") is not None else check()
    return answered if isinstance(answered, dict) else _answered(answered)


def _query_refusal(query: str) -> dict:
    """The refusal of a match read's ``include`` in the query ``query``."""
    with Flask(__name__).test_request_context(f"/v1/matches/{examples.MATCH_ID}?{query}"):
        seat = flask.request.args.get("seat")
        return _refused(lambda: includes.legal_moves_asked(None if seat is None else int(seat), spectator=True))


def _if_match() -> None:
    error = conditions.if_match()[2]
    if error is not None:
        raise error


def _unsigned_state() -> None:
    state = GAMES[examples.MATCH_GAME].setup(examples.PLAYERS, "example", {})
    state_signing.check(_EXAMPLE_KEYS, examples.MATCH_GAME, {"state": state, "state_signature": "0" * 64})


def _record_too_long() -> None:
    entry = {"version": 1, "player": 0, "at": "2026-01-01T00:00:00Z", "move": {}, "events": [], "redacted": False}
    verify.check_work({"start": {}, "moves": [entry] * (MAX_MATCH_MOVES + 1)})


_MOVES = f"/v1/matches/{examples.MATCH_ID}/moves"
_RECORD_FIELDS = ("format", "id", "game", "rules_version", "players", "seat", "version", "complete", "options",
                  "seeding", "start", "moves", "final")


# name -> (what was sent, the problem document: a callable when built by the service's code)
_SOURCES: dict[str, tuple[str, Any]] = {
    "BodyNotJson": ("a body that is not JSON (`{`)", lambda: _refused(_not_json)),
    "BodyTooSlow": ("a body that did not arrive within the body deadline (10 s by default)",
                    lambda: _answered(problems.body_too_slow(DEFAULT_BODY_TIMEOUT_SECONDS))),
    "BodyTooLarge": ("a body over REFEREE_MAX_BODY_BYTES (1 MiB by default)",
                     lambda: _answered(problems.body_too_large(DEFAULT_MAX_BODY_BYTES))),
    "BodyNotJsonMedia": ("a body sent as `text/plain`", lambda: _in_request(
        _MOVES, lambda: unsupported_media(flask.request), content_type="text/plain", data=b"{}")),
    "SetupUnfit": ("`{}`: no player count", _missing("players")),
    "StateMissing": ("`{}`: no state", _missing("state")),
    "AdjudicateUnfit": ("`{}`: no state, no move", _missing("state", "move")),
    "ViewUnfit": ("`{}`: no state, no seat", _missing("state", "seat")),
    "ReplayUnfit": ("`{}`: no state, no moves", _missing("state", "moves")),
    "UnknownGame": ("`{\"game\": \"chess\", \"players\": 2}`", problem_body(
        422, _UNFIT, [("/game", f"Must be one of: {', '.join(GAMES)}.")])),
    "SeatNotANumber": ("`?seat=x`", problem_body(422, _QUERY_UNFIT, [("/query/seat", "Not a valid integer.")])),
    "SeatMissing": ("no `?seat=`", problem_body(422, _QUERY_UNFIT, [("/query/seat", _MISSING)])),
    "IncludeUnknown": ("`?include=everything`", problem_body(422, _QUERY_UNFIT, [
        ("/query/include", "Must be one of: legal_moves.")])),
    "IncludeRepeated": ("`?include=legal_moves&include=legal_moves`",
                        lambda: _query_refusal("seat=0&include=legal_moves&include=legal_moves")),
    "IncludeWithoutSeat": ("`?include=legal_moves` without `seat=N`", lambda: _query_refusal("include=legal_moves")),
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
    "IfMatchMissing": ("a move without `If-Match`", lambda: _in_request(_MOVES, _if_match, headers={})),
    "IfMatchMalformed": ("`If-Match: 0`, the version without its quotes",
                         lambda: _in_request(_MOVES, _if_match, headers={"If-Match": "0"})),
    "SeedingWithSeed": ("`{\"game\": \"scratch-and-catch\", \"players\": 2, \"seed\": \"s\", \"seeding\": "
                        "\"joint\"}`", lambda: _refused(lambda: seeding.check_request("s", "joint"))),
    "NoRecord": ("the record of a match stored without its seeding (kept by an earlier version of the service)",
                 lambda: _refused(lambda: records.record(None, examples.MATCH_ID, None, {}, None))),
    "RecordUnfit": ("`{}`: no field of a record", _missing(*_RECORD_FIELDS)),
    "RecordTooLong": (f"a record of {MAX_MATCH_MOVES + 1} moves (`MAX_MATCH_MOVES`: {MAX_MATCH_MOVES})",
                      lambda: _refused(_record_too_long)),
    "UnsignedState": ("with `REFEREE_STATE_KEYS` set: a state with a `state_signature` that does not match it",
                      lambda: _refused(_unsigned_state)),
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
