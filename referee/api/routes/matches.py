"""Match endpoints: ``/v1/matches``, stored snapshots that advance one legal move at a time.

- ``POST /v1/matches``: set up a game; 201 with ``Location``, ``ETag`` and one secret per seat.
- ``GET /v1/matches/{id}``: the match (spectator view, or ``?seat=N`` with that seat's secret).
- ``POST /v1/matches/{id}/moves``: judge a move; a legal move advances the match. Needs
  ``If-Match`` (428 without, 412 when stale) and the moving seat's secret (401/403);
  ``Idempotency-Key`` makes retries safe (same key, other body: 422).
- ``GET /v1/matches/{id}/log``: the legal moves so far, as the reader may see them.

Works for every registered game through the Game hooks only (setup, adjudicate, view,
seat_moves, visible_scores, disclosure). What each reader sees is the game's declaration:
states through ``Game.view``, moves and events through ``Game.disclosure`` applied by
referee.engine.information (each log entry stores its secrets and the keys it reveals, and is
rendered for the reader at read time). See docs/matches.md and docs/events.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
from datetime import datetime, timezone
from importlib import import_module
from typing import Any

from flask import Flask, Response, current_app, g, request
from flask_smorest import Api
from marshmallow import ValidationError

from referee.json_text import dumps
from referee.service import stateless
from referee.api.http import conditions
from referee.api.contract import examples
from referee.api.ops import live
from referee.api.ops import stopping
from referee.schemas.compiled import fast_load
from referee.api.routes.games import json_response, request_language
from referee.api.ops.metrics import count_store_error, count_verdict, name_game
from referee.schemas.matches import (LEGAL_MOVES, Match, MatchCreated, MatchCreateRequest, MatchLog, MatchVerdict,
                                       MoveRequest, SeatQuery, SeatRequiredQuery, legal_moves_doc)
from referee.api.body.parsing import Blueprint, fast_body
from referee.api.http.problems import PROBLEM_CONTENT_TYPE, ProblemError, pointer_errors, problem_response
from referee.store.snapshot_cache import RecentSnapshots, max_bytes_from_env
from referee.api.body.transport import close_after_answer
from referee.engine import information
from referee.engine.core import Game
from referee.games import GAMES, PACKAGES
from referee.limits import MAX_MATCH_MOVES
from referee.settings import configured
from referee.store import StoreUnavailable, store_from_env

RETRY_AFTER_SECONDS = 1
MAX_KEY_LENGTH = 255
_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
SECURITY_SCHEME = "SeatSecret"
# Fields legal-moves adds to a listed move for the caller; ignored when judging, so not logged.
_LISTING_ONLY = ("table_fills",)

blp = Blueprint("matches", __name__, url_prefix="/v1/matches",
                description="Matches: stored snapshots that advance one legal move at a time")


# -- helpers ----------------------------------------------------------------------------------

def _store():
    return current_app.extensions["referee.store"]


def _recent() -> RecentSnapshots:
    return current_app.extensions["referee.recent_snapshots"]


def _etag(version: int) -> str:
    return f'"{version}"'


def _time(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


_MOVE_SCHEMAS: dict[str, Any] = {}
_OPTION_SCHEMAS: dict[str, Any] = {}


def _schema(cache: dict, game_id: str, name: str):
    schema = cache.get(game_id)
    if schema is None:
        schema = getattr(import_module(f"referee.games.{PACKAGES[game_id]}.schema"), name)()
        cache[game_id] = schema
    return schema


def _load(schema, value: Any, base: str) -> dict:
    try:
        return fast_load(schema, value)
    except ValidationError as error:
        raise ProblemError(422, "The request body does not fit the schema of this operation.",
                           pointer_errors(error.messages, base)) from None


def _not_found(match_id: str) -> ProblemError:
    return ProblemError(404, f"No match {match_id} (it never existed or it expired).")


def _snapshot(match_id: str):
    if not _ID.match(match_id):
        raise _not_found(match_id)
    snap = _store().get(match_id)
    if snap is None:
        raise _not_found(match_id)
    return snap


def _stored(match_id: str) -> tuple[int, str, dict, None, str]:
    """``(version, head, meta, None, state text)`` of the match as the store holds it, in the
    shape of a snapshot cache entry whose state is not parsed yet; 404 when absent."""
    snap = _snapshot(match_id)
    return snap.version, snap.head, json.loads(snap.meta), None, snap.state


def _unauthorised(detail: str) -> ProblemError:
    return ProblemError(401, detail, title="Seat secret required", slug="unauthorized",
                        headers={"WWW-Authenticate": 'Bearer realm="referee matches"'})


def _seat_of_secret(meta: dict) -> int | None:
    """The seat whose secret the Authorization header carries; None without the header.
    Raises 401 when the header is malformed or the secret is no seat's."""
    header = request.environ.get("HTTP_AUTHORIZATION")  # the header, read directly
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise _unauthorised("Send the seat's secret as 'Authorization: Bearer <secret>'.")
    digest = _hash(token)
    for seat, stored in enumerate(meta["seats"]):
        if hmac.compare_digest(stored, digest):
            return seat
    raise _unauthorised("This secret is not a seat's secret in this match.")


def _require_seat(meta: dict, seat: int, pointer: str = "/query/seat") -> None:
    """422 for a seat the match does not have; 401 unless the Authorization header carries a
    seat secret; 403 when it is another seat's."""
    if seat >= len(meta["seats"]):
        raise ProblemError(422, f"This match has seats 0 to {len(meta['seats']) - 1}.",
                           [(pointer, f"no seat {seat} in this match")])
    holder = _seat_of_secret(meta)
    if holder is None:
        raise _unauthorised(f"Seat {seat} needs its secret: send 'Authorization: Bearer <secret>'.")
    if holder != seat:
        raise ProblemError(403, f"This secret is seat {holder}'s, not seat {seat}'s.", title="Not this seat's secret",
                           slug="forbidden")


def _read(match_id: str, seat: int | None):
    """The snapshot and meta of a match, for a spectator (``seat`` None) or a seat holding
    its secret (422/401/403 otherwise); 404 for an unknown match."""
    snap = _snapshot(match_id)
    meta = json.loads(snap.meta)
    name_game(meta["game"])
    if seat is not None:
        _require_seat(meta, seat)
    return snap, meta


def _private(response: Response, version: int) -> Response:
    """Headers of an answer that depends on who asks (the seat's secret) and on the version."""
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Vary"] = "Authorization"
    return _with_etag(response, version)


def _match_json(game: Game, match_id: str, meta: dict, version: int, state: dict, updated: float,
                expires: float, seat: int | None) -> dict:
    sheet, outcome = game.score(state)
    return {"id": match_id, "game": game.id, "players": meta["players"], "version": version, "seat": seat,
            "state": game.view(state, seat), "scores": game.visible_scores(state, seat, sheet),
            "outcome": outcome.to_json(),
            "created_at": _time(meta["created"]), "updated_at": _time(updated), "expires_at": _time(expires)}


def _with_etag(response: Response, version: int) -> Response:
    response.headers["ETag"] = _etag(version)
    return response


# -- log entries as each reader sees them -----------------------------------------------------

def _render(entry: dict, seat: int | None, revealed: frozenset[str]) -> dict:
    """A stored log entry as ``seat`` (None: a spectator) may read it, given every key the
    match has revealed so far (referee.engine.information)."""
    if "hidden" in entry:   # an entry stored before the declared model: its own table per reader
        shown = entry["hidden"].get("spectator" if seat is None else str(seat))
        move, events, redacted = (shown["move"], shown["events"], True) if shown else \
            (entry["move"], entry["events"], False)
    else:
        move, events, redacted = information.render(entry, seat, revealed)
    return {"version": entry["version"], "player": entry["player"], "at": _time(entry["at"]),
            "move": move, "events": events, "redacted": redacted}


# -- documentation fragments ------------------------------------------------------------------

def _problem(status: int, description: str, headers: dict | None = None) -> dict:
    doc: dict = {"description": description,
                 "content": {PROBLEM_CONTENT_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
    if headers:
        doc["headers"] = headers
    return doc


_ETAG_HEADER = {"ETag": {"description": "the match's version, a strong entity tag", "schema": {"type": "string"}}}
_RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}}
_UNAVAILABLE = _problem(503, "The match store does not answer; try again after Retry-After seconds", _RETRY_AFTER)
_NOT_FOUND = _problem(404, "No such match (or it expired)")
_UNAUTHORISED = _problem(401, "The seat's secret is missing, malformed or not a seat's secret in this match",
                         {"WWW-Authenticate": {"schema": {"type": "string"}}})
_FORBIDDEN = _problem(403, "The secret is another seat's")
_INVALID = _problem(422, "The body or a parameter does not fit the contract (JSON pointers in errors)")
_IF_NONE_MATCH = {"in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
                  "description": "the ETag of the version you hold: 304 Not Modified (no body) while the match is "
                                 "still at that version, so that a table app can poll cheaply"}
# The seat's secret goes in Authorization (security scheme SeatSecret), needed only with ?seat=.
_READ_PARAMS = [{"in": "query", "schema": SeatQuery}, _IF_NONE_MATCH]
_PREFER_WAIT = {"in": "header", "name": "Prefer", "required": False, "schema": {"type": "string"},
                "description": "with If-None-Match: `wait=N` (RFC 7240, N up to 30 seconds) waits until the match "
                               "moves on (200) or N seconds pass (304); the answer says Preference-Applied"}
_NOT_MODIFIED = {"description": "Not Modified: the match is still at the version named by If-None-Match",
                 "headers": {**_ETAG_HEADER}}
_MATCH_ID = {"match_id": "$response.body#/id"}


# -- endpoints --------------------------------------------------------------------------------

def _examples(operation: str) -> tuple[dict | None, dict]:
    """The examples of a match operation, built with this module's own answer shapes."""
    return examples.match_operation(operation, _match_json)


@blp.route("", methods=["POST"])
@blp.arguments(MatchCreateRequest(), examples=_examples("createMatch")[0])
@blp.response(201, MatchCreated, examples=_examples("createMatch")[1], headers={
    "Location": {"description": "the match's URL", "schema": {"type": "string"}}, **_ETAG_HEADER})
@blp.doc(operationId="createMatch", responses={
    201: {"links": {
        "GetMatch": {"operationId": "getMatch", "parameters": _MATCH_ID,
                     "description": "the match just created"},
        "GetMatchLog": {"operationId": "getMatchLog", "parameters": _MATCH_ID,
                        "description": "the log of the match just created"},
        "PostMove": {"operationId": "postMove",
                     "parameters": {**_MATCH_ID, "header.If-Match": "$response.header.ETag",
                                    "header.Authorization": "Bearer {$response.body#/seats/0/secret}"},
                     "description": "a move by seat 0 in the match just created, at the version just created"},
    }},
    "422": _INVALID, "503": _UNAVAILABLE})
def create_match(body):
    """Set up a match: the game's first state, stored at version 0. The answer carries one
    secret per seat (shown only here) and the spectator's view; 422 for an unknown game
    (pointer /game), a player count or options the game cannot be played with."""
    game = GAMES[body["game"]]
    name_game(game.id)
    if body["players"] not in game.player_counts:
        raise ProblemError(422, "The game cannot be played with this number of players.",
                           [("/players", f"must be one of {list(game.player_counts)}")])
    options = _load(_schema(_OPTION_SCHEMAS, game.id, "OPTIONS"), body.get("options") or {}, "/options")
    state = stateless.setup(game, {"players": body["players"], "seed": body.get("seed"), "options": options})["state"]
    match_id = secrets.token_urlsafe(16)
    seat_secrets = [secrets.token_urlsafe(24) for _ in range(body["players"])]
    now = time.time()
    meta = {"game": game.id, "players": body["players"], "seats": [_hash(s) for s in seat_secrets], "created": now}
    store = _store()
    state_text = dumps(state)
    head = store.create(match_id, dumps(meta), state_text, now)
    # The creator's first move usually comes back to this worker (a kept-alive connection):
    # it is judged on this snapshot, without reading it back from the store.
    _recent().put(match_id, 0, head, meta, state, state_text)
    answer = _match_json(game, match_id, meta, 0, state, now, now + store.ttl, None)
    answer["seats"] = [{"seat": seat, "secret": secret} for seat, secret in enumerate(seat_secrets)]
    response = _with_etag(json_response(answer, 201), 0)
    response.headers["Location"] = f"/v1/matches/{match_id}"
    response.headers["Cache-Control"] = "no-store"
    return response


@blp.route("/<string:match_id>", methods=["GET"])
@blp.arguments(SeatQuery(), location="query")
@blp.response(200, Match, examples=_examples("getMatch")[1], headers=_ETAG_HEADER)
@blp.doc(operationId="getMatch", parameters=[*_READ_PARAMS, _PREFER_WAIT], security=[{}, {SECURITY_SCHEME: []}],
         responses={"304": _NOT_MODIFIED, "401": _UNAUTHORISED, "403": _FORBIDDEN, "404": _NOT_FOUND, "422": _INVALID,
                    "503": _UNAVAILABLE})
def get_match(query, match_id):
    """The match as a spectator sees it, or as seat ``?seat=N`` sees it (with that seat's
    secret): other seats' hands as counts, no hidden placement, no deck order, no generator.

    Polling: with ``If-None-Match`` naming the current ETag the answer is 304 (no body); with
    ``Prefer: wait=N`` too (RFC 7240, N up to 30 seconds) the request first waits until the
    match moves on and answers 200 with it, or 304 after N seconds (``Preference-Applied``).
    503 with Retry-After when too many requests already wait on this server."""
    seat = query.get("seat")
    snap, meta = _read(match_id, seat)
    waited = conditions.not_modified(snap.version)
    if waited:
        snap = _wait_for_change(match_id, snap)
        if snap is None:
            raise _not_found(match_id)
        if conditions.not_modified(snap.version):
            return _preference_applied(_private(Response(status=304), snap.version))
    game = GAMES[meta["game"]]
    state = json.loads(snap.state)
    _recent().put(match_id, snap.version, snap.head, meta, state, snap.state)
    answer = _match_json(game, match_id, meta, snap.version, state, snap.updated, snap.expires, seat)
    response = _private(json_response(answer), snap.version)
    return _preference_applied(response) if waited else response


def _preferred_wait() -> int | None:
    """This request's ``Prefer: wait`` in seconds, capped at the server's longest wait."""
    return live.preferred_wait(request.headers.get("Prefer"), current_app.extensions["referee.max_wait"])


def _wait_for_change(match_id: str, snap):
    """With ``Prefer: wait=N``: the snapshot once the match is past ``snap``'s version, or
    ``snap`` after N seconds, or at once when the worker stops; None when the match is gone."""
    wait = _preferred_wait()
    if not wait:
        return snap
    store = _store()
    try:
        with current_app.extensions["referee.waiting"].held():
            version = stopping.wait_unless_stopping(lambda: store.wait(match_id, snap.version, wait))
    except stopping.Stopping:
        # The worker is stopping (referee/api/ops/stopping.py): the answer the wait would give if
        # no move came, now, on a connection then closed; the client asks another worker.
        g.wait_cut_short = True
        close_after_answer()
        return snap
    if version is None:
        return None
    return snap if version == snap.version else store.get(match_id)


def _preference_applied(response: Response) -> Response:
    """``Preference-Applied: wait=N`` on an answer that waited (or would have: the match moved
    during the wait), never on one answered at once because If-None-Match named an older
    version. Called only where If-None-Match named the current version."""
    wait = _preferred_wait()
    if wait is not None and not g.get("wait_cut_short"):   # (not waited out: not applied)
        response.headers["Preference-Applied"] = f"wait={wait}"
        response.vary.add("Prefer")
    return response


@blp.route("/<string:match_id>/events", methods=["GET"])
@blp.arguments(SeatQuery(), location="query")
@blp.response(200, content_type="text/event-stream", description=(
    "server-sent events: `retry`, then per applied move `id: <version>`, `event: move`, `data: <log entry as the "
    "reader sees it>`; `: heartbeat` comments when idle; `event: end` (data: outcome and scores) when the game is "
    "over, `event: gone` when the match expired, `event: unavailable` when the store stops answering"))
@blp.doc(operationId="getMatchEvents", parameters=[{"in": "query", "schema": SeatQuery}, {
    "in": "header", "name": "Last-Event-ID", "required": False,
    "schema": {"type": "string", "pattern": r"^[ \t]*[0-9]{0,18}[ \t]*$"},
    "description": "resume after this version (sent again by EventSource on reconnection); absent or empty: after "
                   "the current version"}], security=[{}, {SECURITY_SCHEME: []}],
    responses={200: {"content": {"text/event-stream": {"schema": {"type": "string"},
                                                       "examples": _examples("getMatchEvents")[1]}}},
               "401": _UNAUTHORISED, "403": _FORBIDDEN, "404": _NOT_FOUND, "422": _INVALID, "503": _UNAVAILABLE})
def get_events(query, match_id):
    """Follow a match live: one event per applied move, as the spectator (or seat ``?seat=N``,
    with its secret) may read its log entry; resumes after ``Last-Event-ID``; ends with an
    ``end`` event when the game is over."""
    seat = query.get("seat")
    snap, meta = _read(match_id, seat)
    after = live.last_event_id(request.headers.get("Last-Event-ID"))
    after = snap.version if after is None else min(after, snap.version)
    game = GAMES[meta["game"]]

    revealed: set[str] = set()   # every key revealed by the entries read so far

    def render(records: list[dict], after_version: int) -> list[dict]:
        # ``records``: the next entries of the log. Each is shown as /log would show it now.
        revealed.update(information.revealed_keys(records))
        shown = frozenset(revealed)
        return [_render(record, seat, shown) for record in records if record["version"] > after_version]

    def finished(state: dict) -> dict | None:
        sheet, outcome = game.score(state)
        return {"outcome": outcome.to_json(), "scores": game.visible_scores(state, seat, sheet)} if outcome.finished else None

    slots = current_app.extensions["referee.waiting"]
    slots.acquire()
    stream = live.event_stream(_store(), game, match_id, after, render, finished,
                               current_app.extensions["referee.heartbeat"], slots,
                               current_app.extensions["referee.stream_limit"])
    response = Response(stream, content_type="text/event-stream; charset=utf-8")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    response.headers["Vary"] = "Authorization"
    return response


@blp.route("/<string:match_id>/log", methods=["GET"])
@blp.arguments(SeatQuery(), location="query")
@blp.response(200, MatchLog, examples=_examples("getMatchLog")[1], headers=_ETAG_HEADER)
@blp.doc(operationId="getMatchLog", parameters=_READ_PARAMS, security=[{}, {SECURITY_SCHEME: []}],
         responses={"304": _NOT_MODIFIED, "401": _UNAUTHORISED, "403": _FORBIDDEN, "404": _NOT_FOUND, "422": _INVALID,
                    "503": _UNAVAILABLE})
def get_log(query, match_id):
    """The legal moves applied so far, in order, with their events, as a spectator (or seat
    ``?seat=N``, with its secret) may read them: values hidden from the reader are null."""
    seat = query.get("seat")
    snap, meta = _read(match_id, seat)
    if conditions.not_modified(snap.version):
        return _private(Response(status=304), snap.version)
    entries = _store().log(match_id)
    if entries is None:
        raise _not_found(match_id)
    records = [json.loads(text) for text in entries]
    revealed = information.revealed_keys(records)
    shown = [_render(record, seat, revealed) for record in records]
    version = shown[-1]["version"] if shown else 0
    version = max(version, snap.version)
    return _private(json_response({"id": match_id, "game": meta["game"], "version": version, "seat": seat,
                                   "entries": shown}), version)


@blp.route("/<string:match_id>/legal-moves", methods=["GET"])
@blp.arguments(SeatRequiredQuery(), location="query")
@blp.response(200, legal_moves_doc(), examples=_examples("getMatchLegalMoves")[1], headers=_ETAG_HEADER)
@blp.doc(operationId="getMatchLegalMoves", security=[{SECURITY_SCHEME: []}],
         responses={"401": _UNAUTHORISED, "403": _FORBIDDEN, "404": _NOT_FOUND, "422": _INVALID,
                    "503": _UNAVAILABLE})
def get_legal_moves(query, match_id):
    """Every move seat ``?seat=N`` may make now (with its secret), as that seat may see them:
    a value hidden from the seat is null. Send one of them to ``POST .../moves`` with the ETag.
    None once the match holds MAX_MATCH_MOVES moves (it takes no more)."""
    seat = query["seat"]
    snap, meta = _read(match_id, seat)
    game = GAMES[meta["game"]]
    moves = game.seat_moves(json.loads(snap.state), seat) if snap.version < MAX_MATCH_MOVES else []
    return _private(json_response({"id": match_id, "game": game.id, "version": snap.version, "seat": seat,
                                   "moves": moves}), snap.version)


def _fingerprint(seat: int, move: dict) -> str:
    return hashlib.sha256(dumps({"seat": seat, "move": move}).encode("utf-8")).hexdigest()


def _replayed(stored: str, fingerprint: str) -> Response:
    """The answer stored under an idempotency key, or 422 when the key was used for another body."""
    record = json.loads(stored)
    if record["fp"] != fingerprint:
        raise ProblemError(422, "This Idempotency-Key was already used with another request body.",
                           [("/headers/Idempotency-Key", "already used with another body")],
                           title="Idempotency key reused", slug="idempotency-key-reused")
    # The stored body's language, not this request's: the answer says which (app.py's headers).
    g.language = record.get("language")  # (absent from records of older versions)
    response = _with_etag(Response(record["body"], status=200, content_type="application/json"), record["version"])
    response.headers["Idempotent-Replayed"] = "true"
    return response


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not _KEY.match(key):
        raise ProblemError(422, "The Idempotency-Key header must be 1 to 255 visible ASCII characters.",
                           [("/headers/Idempotency-Key", "1 to 255 visible ASCII characters")])
    return key


def _cached_is_current(store, recent: RecentSnapshots, match_id: str, version: int, head: str) -> bool:
    """An illegal move judged on a cached snapshot writes nothing, so no commit checks the
    match: ask the store that it still holds this version with this head. False (the entry
    dropped) when it does not: the match expired, another worker moved it on, or the store
    lost writes; the move is then judged again on a fresh read, which answers each case."""
    if store.version_and_head(match_id) == (version, head):
        return True
    recent.drop(match_id)
    return False


_MOVE_REQUEST = MoveRequest()


@blp.route("/<string:match_id>/moves", methods=["POST"])
@fast_body(_MOVE_REQUEST)
@blp.arguments(_MOVE_REQUEST, examples=_examples("postMove")[0])
@blp.response(200, MatchVerdict, examples=_examples("postMove")[1], description="The verdict (a rule violation is a normal answer: legal false, "
              "and the match does not change)", headers=_ETAG_HEADER)
@blp.doc(operationId="postMove", security=[{SECURITY_SCHEME: []}], parameters=[
    {"in": "header", "name": "If-Match", "required": True,
     "schema": {"type": "string", "pattern": conditions.IF_MATCH_PATTERN},
     "description": "the ETag of the version the move was chosen on, quoted as the ETag header gives it "
                    "(\"3\"); compared strongly (RFC 9110 section 13.1.1), so a weak tag W/\"3\" never matches"},
    {"in": "header", "name": "Idempotency-Key", "required": False,
     "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH, "pattern": r"^[\x21-\x7e]+$"},
     "description": "makes retries safe: a retry with the same key and body gets the stored answer; the same key "
                    "with another body is answered 422. Keys expire with the match."},
], responses={
    "401": _UNAUTHORISED, "403": _FORBIDDEN, "404": _NOT_FOUND,
    "400": _problem(400, "If-Match is not a list of quoted entity tags (RFC 9110 section 8.8.3)"),
    "412": _problem(412, "If-Match names another version than the match's (or only weak tags, which never "
                         "match); ETag carries the current one", _ETAG_HEADER),
    "422": _problem(422, "The body does not fit the game's move schema, the Idempotency-Key was used "
                         "with another body, or the match has reached its limit of moves (MAX_MATCH_MOVES)"),
    "428": _problem(428, "If-Match is missing (or is *)"),
    "503": _UNAVAILABLE})
def post_move(body, match_id):
    """Judge a move of the match's game by seat ``move.player`` (its secret in Authorization).
    A legal move advances the match by one version atomically (compare-and-set on If-Match);
    an illegal move is answered 200 with its violations and changes nothing."""
    try:
        expected, weak, malformed = conditions.if_match()
    except ProblemError:  # 428: but a match that does not exist is the first thing to say
        _snapshot(match_id)
        raise
    key = _idempotency_key()
    store = _store()
    recent = _recent()
    # (version, head, meta, state or None, state text): the worker's cached snapshot, else the store's
    snapshot = recent.get(match_id, expected)
    cached = snapshot is not None
    version, head, meta, state, state_before = snapshot if cached else _stored(match_id)
    game = GAMES[meta["game"]]  # (meta never changes: the move is checked against it once)
    name_game(game.id)
    try:
        move = _load(_schema(_MOVE_SCHEMAS, game.id, "MOVE"), body["move"], "/move")
        for name in _LISTING_ONLY:
            move.pop(name, None)
        seat = move["player"]
        _require_seat(meta, seat, "/move/player")
    except ProblemError:
        # Found against a cached snapshot: a match the store no longer holds is 404 first (the
        # fresh read says so), as for a worker without the cache; else meta, which never
        # changes, is what the stored match holds too.
        if cached and not _cached_is_current(store, recent, match_id, version, head):
            _stored(match_id)
        raise
    if malformed is not None:
        raise malformed
    fingerprint = _fingerprint(seat, move) if key is not None else ""
    fresh = False  # judged again on a fresh read (once at most): the snapshot judged on was not the stored one
    while True:
        if fresh:
            version, head, meta, state, state_before = _stored(match_id)
            cached = False
        if version >= MAX_MATCH_MOVES and version in expected:
            raise ProblemError(422, f"This match has reached the limit of {MAX_MATCH_MOVES} moves (MAX_MATCH_MOVES); "
                                    "it takes no more moves.", [("/move", "the match takes no more moves")],
                               title="Over a limit of the service", slug="limit-exceeded")
        if version not in expected:
            if key is not None:
                stored = store.idempotent(match_id, key)
                if stored is not None:
                    return _replayed(stored, fingerprint)
            raise conditions.stale(version, weak)
        if state is None:
            state = json.loads(state_before)
            recent.put(match_id, version, head, meta, state, state_before)
        verdict = game.adjudicate(state, move, checked=True)
        if cached and not verdict.legal and not _cached_is_current(store, recent, match_id, version, head):
            fresh = True
            continue
        count_verdict(game.id, verdict.legal)
        language = request_language()
        answer = stateless.verdict_json(verdict, language, game)
        answer["scores"] = game.visible_scores(verdict.state if verdict.legal else state, seat, verdict.scores)
        answer["id"] = match_id
        if not verdict.legal:
            answer["version"] = version
            text = dumps(answer)
            if key is not None:
                earlier = store.remember(match_id, key, json.dumps({"fp": fingerprint, "version": version,
                                                                     "body": text, "language": language}))
                if earlier is not None:
                    return _replayed(earlier, fingerprint)
            return _with_etag(Response(text, status=200, content_type="application/json"), version)
        new_version = version + 1
        now = time.time()
        answer["version"] = new_version
        state_text = dumps(verdict.state)
        entry: dict = {"version": new_version, "player": seat, "move": move, "events": verdict.events, "at": now,
                       **information.disclose(game.disclosure, state, move, verdict.events)}
        answer["events"] = information.render(entry, seat, information.revealed_keys([entry]))[1]
        answer["state"] = game.view(verdict.state, seat)
        text = dumps(answer)
        stored = (json.dumps({"fp": fingerprint, "version": new_version, "body": text, "language": language})
                  if key is not None else None)
        result = store.commit(match_id, version, state_text, dumps(entry), now, key, stored, head)
        if result.kind == "ok":
            recent.put(match_id, new_version, result.head, meta, verdict.state, state_text)
            return _with_etag(Response(text, status=200, content_type="application/json"), new_version)
        recent.drop(match_id)
        if not fresh and (result.kind == "changed" or (result.kind == "stale" and cached)):
            # A cached snapshot another worker moved on, or one the store no longer holds (it lost
            # writes, even between this request's read and its commit): judge again on a fresh read.
            fresh = True
            continue
        if result.kind == "replay":
            return _replayed(result.stored, fingerprint)
        if result.kind == "missing":
            raise _not_found(match_id)
        raise ProblemError(412, f"The match is at version {result.version}; this move was chosen on another "
                                "version.", headers={"ETag": _etag(result.version)})


# -- wiring -----------------------------------------------------------------------------------

def _unavailable(error: StoreUnavailable) -> Response:
    current_app.logger.warning("match store unavailable: %s", error)
    count_store_error()
    return problem_response(503, "The match store does not answer; try again shortly. Stateless operations "
                                 "(/v1/games/...) keep working.", title="Match store unavailable",
                            slug="store-unavailable", headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def register_matches(app: Flask, api: Api) -> None:
    """Register the match endpoints and the match store (``app.config["REFEREE_STORE"]`` if
    given, else :func:`referee.store.store_from_env`) in ``app.extensions["referee.store"]``."""
    store = app.config.get("REFEREE_STORE") or store_from_env()
    app.extensions["referee.store"] = store
    app.extensions["referee.recent_snapshots"] = RecentSnapshots(
        configured(app.config, "REFEREE_SNAPSHOT_CACHE_BYTES", max_bytes_from_env))
    app.extensions["referee.waiting"] = app.config.get("REFEREE_WAITING") or live.slots_from_env()
    app.extensions["referee.heartbeat"] = configured(app.config, "REFEREE_EVENTS_HEARTBEAT_SECONDS", live.heartbeat_from_env)
    app.extensions["referee.max_wait"] = configured(app.config, "REFEREE_MAX_WAIT_SECONDS", live.max_wait_from_env)
    limit = configured(app.config, "REFEREE_MAX_STREAM_SECONDS", live.stream_limit_from_env)
    app.extensions["referee.stream_limit"] = limit if limit and limit > 0 else None   # 0: no limit, as documented
    api.spec.components.security_scheme(SECURITY_SCHEME, {
        "type": "http", "scheme": "bearer",
        "description": "a seat's secret, returned once when the match is created"})
    for schema in LEGAL_MOVES.values():
        api.spec.components.schema(schema.__name__, schema=schema)
    api.register_blueprint(blp)
    app.register_error_handler(StoreUnavailable, _unavailable)

