"""Match endpoints, ``/v1/matches``: thin views over referee/service/matches.py.

- ``POST /v1/matches``: set up a game; 201 with ``Location``, ``ETag`` and one secret per seat.
- ``GET /v1/matches/{id}``: the match (spectator view, or ``?seat=N`` with that seat's secret);
  ``If-None-Match`` with ``Prefer: wait=N`` waits for the next move.
- ``GET /v1/matches/{id}/events``: server-sent events, one per applied move.
- ``GET /v1/matches/{id}/log``: the legal moves so far, as the reader may see them.
- ``GET /v1/matches/{id}/legal-moves?seat=N``: every move that seat may make now.
- ``POST /v1/matches/{id}/moves``: judge a move (``If-Match``, the mover's secret,
  optionally ``Idempotency-Key``); a legal move advances the match.

See docs/guides/matches.md and docs/reference/events.md.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import import_module

from flask import Flask, Response, current_app, g, request
from flask_smorest import Api
from marshmallow import ValidationError

from referee.api.body.parsing import Blueprint, fast_body
from referee.api.body.transport import WRITE_LIMIT_KEY, close_after_answer
from referee.api.contract import examples
from referee.api.contract import match_docs as docs
from referee.api.contract.header_docs import named, problem
from referee.api.http import conditions
from referee.api.http.includes import legal_moves_asked
from referee.api.http.problems import ProblemError, store_unavailable
from referee.api.ops import live, stopping
from referee.api.ops.metrics import count_store_error, count_verdict, name_game
from referee.api.routes.games import json_response, language_of_request
from referee.engine.joint import CONTRIBUTE
from referee.games import GAMES, PACKAGES
from referee.schemas.compiled import fast_load
from referee.schemas.matches import (
    LEGAL_MOVES,
    Contribution,
    IncludeQuery,
    Match,
    MatchCreated,
    MatchCreateRequest,
    MatchLog,
    MatchVerdict,
    MoveRequest,
    SeatIncludeQuery,
    SeatQuery,
    SeatRequiredQuery,
    legal_moves_doc,
)
from referee.schemas.pointers import pointer_errors
from referee.service import seeding
from referee.service.errors import InvalidRequest, Refused
from referee.service.following import Follower
from referee.service.matches import (
    LISTING_ONLY,
    IfMatch,
    Matches,
    Observer,
    check_names,
    etag,
    seat_names,
)
from referee.service.seats import require_seat
from referee.service.texts import Text, echo
from referee.settings import configured
from referee.store import StoreUnavailable, store_from_env
from referee.store.snapshot_cache import RecentSnapshots, max_bytes_from_env

_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")
MOVE_REQUEST = MoveRequest()
# The query of a move, read in the view (the body's fast path passes no query through webargs).
_INCLUDE_PARSER = Blueprint.ARGUMENTS_PARSER
_INCLUDE_QUERY = IncludeQuery()
_GOOD_QUERIES = (b"", b"include=legal_moves")

blp = Blueprint("matches", __name__, url_prefix="/v1/matches",
                description="Matches: stored snapshots that advance one legal move at a time")


class _Metrics(Observer):
    """The service's observations, counted in the request metrics (referee/api/ops/metrics.py)."""

    def game(self, game_id: str) -> None:
        name_game(game_id)

    def verdict(self, game_id: str, legal: bool) -> None:
        count_verdict(game_id, legal)


def _matches() -> Matches:
    return current_app.extensions["referee.matches"]


@lru_cache(maxsize=None)
def _game_schema(game_id: str, name: str):
    """An instance of the game's schema ``name`` (MOVE, OPTIONS), or of a contribution to a
    joint deal (CONTRIBUTION), the same in every game."""
    if name == "CONTRIBUTION":
        return Contribution()
    return getattr(import_module(f"referee.games.{PACKAGES[game_id]}.schema"), name)()


def _move_schema(move) -> str:
    """The schema a posted move is loaded with: a contribution's or the game's move schema."""
    return "CONTRIBUTION" if isinstance(move, dict) and move.get("type") == CONTRIBUTE else "MOVE"


def _load(game_id: str, name: str, value, base: str) -> dict:
    """``value`` loaded with the game's schema ``name``; 422 with pointers under ``base``."""
    try:
        return fast_load(_game_schema(game_id, name), value)
    except ValidationError as error:
        raise InvalidRequest(_unfit(game_id, name), pointer_errors(error.messages, base)) from None


def _unfit(game_id: str, name: str) -> Text:
    """The detail of a move (``name`` MOVE or CONTRIBUTION) or options (OPTIONS) that do not fit
    the game's schema."""
    if name != "OPTIONS":
        return Text("The move does not fit the moves of {game}: correct the fields the errors point at, or send a "
                    "move that GET /v1/matches/{match}/legal-moves?seat=N lists (each in the shape this operation "
                    "takes).", game=game_id, match=echo(request.view_args.get("match_id", "")))
    return Text("The options do not fit the options of {game}: correct the fields the errors point at (GET "
                "/v1/games/{game} lists the options and their defaults).", game=game_id)


def _authorization() -> str | None:
    return request.environ.get("HTTP_AUTHORIZATION")


# -- endpoints --------------------------------------------------------------------------------

@blp.route("", methods=["POST"])
@blp.arguments(MatchCreateRequest(), examples=examples.match_operation("createMatch")[0])
@blp.response(201, MatchCreated, examples=examples.match_operation("createMatch")[1],
              headers=named("Location", "ETag", "Cache-Control"))
@blp.doc(operationId="createMatch", responses={
    201: {"links": {
        "GetMatch": {"operationId": "getMatch", "parameters": docs.MATCH_ID,
                     "description": "the match just created"},
        "GetMatchLog": {"operationId": "getMatchLog", "parameters": docs.MATCH_ID,
                        "description": "the log of the match just created"},
        "PostMove": {"operationId": "postMove",
                     "parameters": {**docs.MATCH_ID, "header.If-Match": "$response.header.ETag",
                                    "header.Authorization": "Bearer {$response.body#/seats/0/secret}"},
                     "description": "a move by seat 0 in the match just created, at the version just created"},
    }},
    "422": problem("The body does not fit: an unknown game (pointer `/game`), a player count or options the "
                   "game cannot be played with, `seeding` beside `seed` (pointer `/seeding`), `names` not one per "
                   "seat (pointer `/names`) or a name that is empty, too long, only whitespace or holds a control "
                   "character (pointer `/names/<seat>`)", "UnknownGame", "SeedingWithSeed", "NamesNotOnePerSeat",
                   "NameBlank"),
    "503": docs.STORE_UNAVAILABLE})
def create_match(body):
    """Create a match

    The game's first state, stored at version 0. The answer holds the spectator's view and one
    secret per seat, shown only here: give each player only their own. Without `seed` the
    referee draws one and never shows it (whoever knows the seed can deal the same game and
    see every card). 422 for an unknown game (pointer `/game`), or a player count or options
    the game cannot be played with. `names` (optional): one display name per seat, shown to
    every reader; 422 with pointer `/names` when not one per seat, `/names/<seat>` for a name
    that is empty, over 32 characters, only whitespace or holds a control character."""
    game = GAMES[body["game"]]
    name_game(game.id)
    if body["players"] not in game.player_counts:
        counts = ", ".join(map(str, game.player_counts))
        raise InvalidRequest(Text("{game} cannot be played with {players} players: choose one of {counts} (GET "
                                  "/v1/games lists the player counts of each game).", game=game.id,
                                  players=body["players"], counts=counts),
                             [("/players", Text("must be one of [{counts}]", counts=counts))])
    names = body.get("names")
    check_names(names, body["players"])
    options = _load(game.id, "OPTIONS", body.get("options") or {}, "/options")
    seeding.check_request(body.get("seed"), body.get("seeding"))
    answer = _matches().create(game, body["players"], body.get("seed"), options, body.get("seeding") == "joint",
                               names)
    response = json_response(answer, 201)
    response.headers["ETag"] = etag(0)
    response.headers["Location"] = f"/v1/matches/{answer['id']}"
    response.headers["Cache-Control"] = "no-store"
    return response


@blp.route("/<string:match_id>", methods=["GET"])
@blp.arguments(SeatIncludeQuery(), location="query")
@blp.response(200, Match, examples=examples.match_operation("getMatch")[1],
              headers={**docs.READ_HEADERS, **docs.WAITED})
@blp.doc(operationId="getMatch", parameters=[*docs.INCLUDE_READ_PARAMS, docs.PREFER_WAIT],
         security=[{}, {docs.SECURITY_SCHEME: []}],
         responses={"304": {**docs.NOT_MODIFIED, "headers": {**docs.READ_HEADERS, **docs.WAITED}},
                    **docs.READ_PROBLEMS, "422": docs.BAD_SEAT_OR_INCLUDE, "503": docs.WAITING_UNAVAILABLE})
def get_match(query, match_id):
    """Read a match

    The match as a spectator sees it, or as seat `?seat=N` sees it (with that seat's secret):
    other seats' hands as counts, no hidden placement, no deck order, no generator.

    Polling: with `If-None-Match` naming the current ETag the answer is 304 (no body); with
    `Prefer: wait=N` too (RFC 7240, N up to 30 seconds) the request first waits until the
    match moves on and answers 200 with it, or 304 after N seconds (`Preference-Applied`).
    503 with `Retry-After` when too many requests already wait on this server.

    With `?include=legal_moves` (and `seat=N`) the match also carries `legal_moves`: the
    seat's legal moves at the version shown, as `GET .../legal-moves?seat=N` lists them there.
    422 (pointer `/query/include`) for another value, a repeated `include`, or a spectator."""
    seat = query.get("seat")
    legal_moves = legal_moves_asked(seat, spectator=True)
    matches = _matches()
    snap, meta = matches.read(match_id, seat, _authorization())
    waited = conditions.not_modified(snap.version)
    if waited:
        snap = _wait_for_change(matches, match_id, snap)
        if conditions.not_modified(snap.version):
            return _preference_applied(conditions.private(Response(status=304), snap.version))
    response = conditions.private(json_response(matches.view(match_id, snap, meta, seat, legal_moves)), snap.version)
    return _preference_applied(response) if waited else response


def _preferred_wait() -> int | None:
    """This request's ``Prefer: wait`` in seconds, capped at the server's longest wait."""
    return live.preferred_wait(request.headers.get("Prefer"), current_app.extensions["referee.max_wait"])


def _wait_for_change(matches: Matches, match_id: str, snap):
    """With ``Prefer: wait=N``: the snapshot once the match is past ``snap``'s version, or
    ``snap`` after N seconds, or at once when the worker stops. Raises MatchNotFound when
    the match is gone."""
    wait = _preferred_wait()
    if not wait:
        return snap
    try:
        with current_app.extensions["referee.waiting"].held():
            version = stopping.wait_unless_stopping(lambda: matches.store.wait(match_id, snap.version, wait))
    except stopping.Stopping:
        # The worker is stopping (referee/api/ops/stopping.py): the answer the wait would give if
        # no move came, now, on a connection then closed; the client asks another worker.
        g.wait_cut_short = True
        close_after_answer()
        return snap
    if version == snap.version:
        return snap
    return matches.snapshot(match_id)


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
@blp.arguments(SeatIncludeQuery(), location="query")
@blp.response(200, content_type="text/event-stream", headers=named("Cache-Control", "Vary", "X-Accel-Buffering"),
              description=(
    "Server-sent events: `retry`, then per applied move `id: <version>`, `event: move`, `data: <log entry as the "
    "reader sees it>`; `: heartbeat` comments when idle; `event: end` (data: outcome and scores) when the game is "
    "over, its `id` the final version; `event: gone` when the match expired, `event: unavailable` when the store "
    "stops answering. With `?include=legal_moves` (a seat's stream): whenever the stream has sent every entry up "
    "to the stored version (at its start and after each batch of `move` events), `event: legal_moves` without an "
    "`id`, `data: {\"version\": V, \"moves\": [...]}`: the seat's legal moves at version V as `GET "
    ".../legal-moves?seat=N` lists them there (empty when the seat is not to act); none once the game is over."))
@blp.doc(operationId="getMatchEvents", parameters=[{"in": "query", "schema": SeatIncludeQuery}, {
    "in": "header", "name": "Last-Event-ID", "required": False,
    "schema": {"type": "string", "pattern": r"^[ \t]*[0-9]{0,18}[ \t]*$"},
    "description": "Resume after this version (sent again by EventSource on reconnection); absent or empty: after "
                   "the current version."}], security=[{}, {docs.SECURITY_SCHEME: []}],
    responses={200: {"content": {"text/event-stream": {"schema": {"type": "string"},
                                                       "examples": examples.match_operation("getMatchEvents")[1]}}},
               204: docs.EVENTS_ENDED,
               **docs.READ_PROBLEMS,
               "422": problem("`?seat=` is not a seat number, `?include=` not `legal_moves` (once, with a seat), or "
                              "`Last-Event-ID` not a version (JSON pointers in `errors`)", "SeatNotANumber",
                              "IncludeUnknown", "IncludeRepeated", "IncludeWithoutSeat", "LastEventIdNotAVersion"),
               "503": docs.WAITING_UNAVAILABLE})
def get_events(query, match_id):
    """Follow a match live (server-sent events)

    One event per applied move, as the spectator (or seat `?seat=N`, with its secret) may read
    its log entry; resumes after `Last-Event-ID`; ends with an `end` event when the game is
    over. A reader that already has the `end` event (its `Last-Event-ID` is the final version
    or beyond) gets 204 No Content, which tells an `EventSource` to stop reconnecting.

    With `?include=legal_moves` (and `seat=N`) the stream also sends `legal_moves` events
    (no `id`): the seat's legal moves each time it has sent every entry up to the stored
    version. 422 (pointer `/query/include`) for another value, a repeated `include`, or a
    spectator."""
    seat = query.get("seat")
    legal_moves = legal_moves_asked(seat, spectator=True)
    matches = _matches()
    snap, meta = matches.read(match_id, seat, _authorization())
    resumed = live.last_event_id(request.headers.get("Last-Event-ID"))
    after = snap.version if resumed is None else min(resumed, snap.version)
    follower = Follower(matches, match_id, meta, seat)
    if resumed is not None and resumed >= snap.version and follower.is_over(snap):
        return _no_more_events()
    slots = current_app.extensions["referee.waiting"]
    slots.acquire()
    # A stream ends after its limit even when its client stopped reading (a write blocked so long fails).
    request.environ[WRITE_LIMIT_KEY] = current_app.extensions["referee.stream_limit"]
    stream = live.event_stream(matches.store, match_id, after, follower.entries, follower.ended,
                               current_app.extensions["referee.heartbeat"], slots,
                               current_app.extensions["referee.stream_limit"],
                               follower.legal_moves if legal_moves else None)
    response = Response(stream, content_type="text/event-stream; charset=utf-8")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    response.headers["Vary"] = "Authorization"
    return response


def _no_more_events() -> Response:
    """204 No Content, without a body or Content-Type: the reader has every event of a finished
    match, its ``end`` included. The HTML standard ("Server-sent events") has an EventSource
    fail the connection on it, without reconnecting."""
    response = Response(status=204)
    del response.headers["Content-Type"]
    response.headers["Cache-Control"] = "no-store"
    response.headers["Vary"] = "Authorization"
    return response


@blp.route("/<string:match_id>/log", methods=["GET"])
@blp.arguments(SeatQuery(), location="query")
@blp.response(200, MatchLog, examples=examples.match_operation("getMatchLog")[1], headers=docs.READ_HEADERS)
@blp.doc(operationId="getMatchLog", parameters=docs.READ_PARAMS, security=[{}, {docs.SECURITY_SCHEME: []}],
         responses={"304": docs.NOT_MODIFIED, **docs.READ_PROBLEMS, "503": docs.STORE_UNAVAILABLE})
def get_log(query, match_id):
    """Read a match's log

    The legal moves applied so far, in order, with their events, as a spectator (or seat
    `?seat=N`, with its secret) may read them: values hidden from the reader are null."""
    seat = query.get("seat")
    matches = _matches()
    snap, meta = matches.read(match_id, seat, _authorization())
    if conditions.not_modified(snap.version):
        return conditions.private(Response(status=304), snap.version)
    version, entries = matches.log(match_id, snap, seat)
    return conditions.private(json_response({"id": match_id, "game": meta["game"], "version": version, "seat": seat,
                                              "names": seat_names(meta), "entries": entries}), version)


@blp.route("/<string:match_id>/legal-moves", methods=["GET"])
@blp.arguments(SeatRequiredQuery(), location="query")
@blp.response(200, legal_moves_doc(), examples=examples.match_operation("getMatchLegalMoves")[1],
              headers=docs.READ_HEADERS)
@blp.doc(operationId="getMatchLegalMoves", security=[{docs.SECURITY_SCHEME: []}],
         parameters=[{"in": "query", "schema": SeatRequiredQuery}, docs.IF_NONE_MATCH],
         responses={"304": docs.NOT_MODIFIED, **docs.READ_PROBLEMS,
                    "422": problem("`?seat=` is missing or not a seat number (JSON pointers in `errors`)",
                                   "SeatMissing"),
                    "503": docs.STORE_UNAVAILABLE})
def get_legal_moves(query, match_id):
    """List a seat's legal moves

    Every move seat `?seat=N` may make now (with its secret), as that seat may see them: a
    value hidden from the seat is null. Send one of them to `POST .../moves` with the ETag.
    None once the match holds `MAX_MATCH_MOVES` moves (it takes no more). With `If-None-Match`
    naming the current ETag the answer is 304 (no body)."""
    seat = query["seat"]
    matches = _matches()
    snap, meta = matches.read(match_id, seat, _authorization())
    if conditions.not_modified(snap.version):
        return conditions.private(Response(status=304), snap.version)
    listing = {"id": match_id, "game": meta["game"], "version": snap.version, "seat": seat,
               "moves": matches.seat_moves(snap, meta, seat)}
    return conditions.private(json_response(listing), snap.version)


def _idempotency_key() -> str | None:
    """The Idempotency-Key header; 422 unless it is 1 to 255 visible ASCII characters."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not _KEY.match(key):
        raise ProblemError(422, Text("The Idempotency-Key header must be 1 to 255 visible ASCII characters: send "
                                     "such a key (a UUID, say), or none."),
                           [("/headers/Idempotency-Key", Text("1 to 255 visible ASCII characters"))])
    return key


@blp.route("/<string:match_id>/moves", methods=["POST"])
@fast_body(MOVE_REQUEST)
@blp.arguments(MOVE_REQUEST, examples=examples.match_operation("postMove")[0])
@blp.response(200, MatchVerdict, examples=examples.match_operation("postMove")[1],
              description="The verdict (a rule violation is a normal answer: `legal: false`, "
                          "and the match does not change)",
              headers=named("ETag", "Content-Language", "Vary", "Idempotent-Replayed"))
@blp.doc(operationId="postMove", security=[{docs.SECURITY_SCHEME: []}], parameters=[
    {"in": "query", "schema": IncludeQuery},
    {"in": "header", "name": "If-Match", "required": True,
     "schema": {"type": "string", "pattern": conditions.IF_MATCH_PATTERN},
     "description": "The ETag of the version the move was chosen on, quoted as the ETag header gives it "
                    "(`\"3\"`); compared strongly (RFC 9110 section 13.1.1), so a weak tag `W/\"3\"` never "
                    "matches."},
    {"in": "header", "name": "Idempotency-Key", "required": False,
     "schema": {"type": "string", "minLength": 1, "maxLength": docs.MAX_KEY_LENGTH, "pattern": r"^[\x21-\x7e]+$"},
     "description": "Makes retries safe: a retry with the same key, body and query gets the stored answer; the "
                    "same key with another body or `include` is answered 422. A key is the moving seat's own: "
                    "another seat's use of the same key neither spends it nor is ever answered to this seat. Keys "
                    "expire with the match."},
], responses={
    "401": docs.UNAUTHORISED, "403": docs.FORBIDDEN, "404": docs.NOT_FOUND,
    "400": problem("The body is not JSON, or `If-Match` is not a list of quoted entity tags (RFC 9110 section "
                   "8.8.3)", "IfMatchMalformed"),
    "412": problem("`If-Match` names another version than the match's (or only weak tags, which never match); "
                   "`ETag` carries the current one", "StaleVersion", headers=docs.ETAG_HEADER),
    "422": problem("The body does not fit the game's move schema, the seat used the `Idempotency-Key` with "
                   "another body or `include`, the match has reached its limit of moves (`MAX_MATCH_MOVES`), or "
                   "`?include=` is not `legal_moves` (once)", "IdempotencyKeyReused", "IncludeUnknown",
                   "IncludeRepeated"),
    "428": problem("`If-Match` is missing (or is `*`)", "IfMatchMissing"),
    "503": docs.STORE_UNAVAILABLE})
def post_move(body, match_id):
    """Judge a move in a match

    A move of the match's game by seat `move.player`, its secret in `Authorization`. A legal
    move advances the match by one version atomically (compare-and-set on `If-Match`); an
    illegal move is answered 200 with its violations and changes nothing.

    With `?include=legal_moves` the verdict also carries `legal_moves`: the mover's legal
    moves at the answer's `version`, as `GET .../legal-moves?seat=<mover>` lists them there
    (empty when it is not to act), so a seat that acts again learns it without another
    request. A replay under an `Idempotency-Key` carries the moves kept with the first answer.
    422 (pointer `/query/include`) for another value or a repeated `include`."""
    # The two queries a client sends are known good; marshmallow's load of even one field
    # cost 7% of a move's worker CPU in the peer benchmark's one-request flow.
    if request.query_string not in _GOOD_QUERIES:
        _INCLUDE_PARSER.parse(_INCLUDE_QUERY, request, location="query")
    legal_moves = legal_moves_asked()
    matches = _matches()
    try:
        versions, weak, malformed = conditions.if_match()
    except ProblemError:  # 428: but a match that does not exist is the first thing to say
        matches.snapshot(match_id)
        raise
    key = _idempotency_key()
    held, cached = matches.held(match_id, versions)
    game_id = held.meta["game"]   # (meta never changes: the move is checked against it once)
    name_game(game_id)
    try:
        move = _load(game_id, _move_schema(body["move"]), body["move"], "/move")
        for name in LISTING_ONLY:
            move.pop(name, None)
        require_seat(held.meta["seats"], move["player"], _authorization(), "/move/player")
    except Refused:
        # Found on a cached snapshot: a match the store no longer holds is 404 first (the fresh
        # read says so), as for a worker without the cache; meta, which never changes, is what
        # the stored match holds too.
        if cached and not matches.still_current(match_id, held):
            matches.snapshot(match_id)
        raise
    if malformed is not None:
        raise malformed
    answer = matches.move(match_id, held, cached, move, move["player"], IfMatch(versions, tuple(weak)), key,
                          language_of_request(), legal_moves)
    g.language = answer.language   # the answer then says Content-Language (app.py)
    response = Response(answer.body, status=200, content_type="application/json")
    response.headers["ETag"] = etag(answer.version)
    if answer.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


# -- wiring -----------------------------------------------------------------------------------

def _unavailable(error: StoreUnavailable) -> Response:
    current_app.logger.warning("match store unavailable: %s", error)
    count_store_error()
    return store_unavailable()


def register_matches(app: Flask, api: Api) -> None:
    """Register the match endpoints and the match operations over the store
    (``app.config["REFEREE_STORE"]`` if given, else :func:`referee.store.store_from_env`)."""
    store = app.config.get("REFEREE_STORE") or store_from_env()
    app.extensions["referee.store"] = store
    recent = RecentSnapshots(configured(app.config, "REFEREE_SNAPSHOT_CACHE_BYTES", max_bytes_from_env))
    app.extensions["referee.recent_snapshots"] = recent
    app.extensions["referee.matches"] = Matches(store, recent, _Metrics())
    app.extensions["referee.waiting"] = app.config.get("REFEREE_WAITING") or live.slots_from_env()
    app.extensions["referee.heartbeat"] = configured(app.config, "REFEREE_EVENTS_HEARTBEAT_SECONDS",
                                                     live.heartbeat_from_env)
    app.extensions["referee.max_wait"] = configured(app.config, "REFEREE_MAX_WAIT_SECONDS", live.max_wait_from_env)
    limit = configured(app.config, "REFEREE_MAX_STREAM_SECONDS", live.stream_limit_from_env)
    app.extensions["referee.stream_limit"] = limit if limit and limit > 0 else None   # 0: no limit, as documented
    api.spec.components.security_scheme(docs.SECURITY_SCHEME, {
        "type": "http", "scheme": "bearer",
        "description": "a seat's secret, returned once when the match is created"})
    for schema in LEGAL_MOVES.values():
        api.spec.components.schema(schema.__name__, schema=schema)
    api.register_blueprint(blp)
    app.register_error_handler(StoreUnavailable, _unavailable)
