"""Match operations: create a match, read it as a reader may, list a seat's moves, judge a
move and commit it, read the log. No Flask: the HTTP layer hands in what the request says
(the seat's credentials, the versions If-Match names, an idempotency key) and turns the
answers and the domain errors (referee/service/errors.py) into HTTP.

A match is a stored snapshot (referee/store): meta (game, players, hashes of the seat
secrets, creation time), state, version, log. What each reader sees is the game's
declaration: states through ``Game.view``, log entries through ``Game.disclosure``
(referee/engine/information.py), rendered for the reader at read time.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, NamedTuple

from referee.engine import information, joint
from referee.engine.core import Game, Verdict
from referee.json_text import dumps, loads
from referee.limits import MAX_MATCH_MOVES
from referee.service import seeding, stateless
from referee.service.errors import InvalidRequest, KeyReused, MatchFull, MatchNotFound, StaleVersion
from referee.service.seats import require_seat, secret_hash
from referee.service.texts import Text, echo
from referee.store import IdempotencyKey, Snapshot, Store
from referee.store.snapshot_cache import RecentSnapshots

_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# Fields legal-moves adds to a listed move for the caller; ignored when judging, so not logged.
LISTING_ONLY = ("table_fills",)
# How many legal_moves events a worker keeps for its other streams of the same seat and version:
# a move wakes every stream of its match at once, so the few latest suffice. A Call of Katulhu
# listing is about 25 KB of JSON (a few hundred KB parsed), so a few MB at most.
SHARED_LISTINGS = 16


def etag(version: int) -> str:
    """The strong entity tag of a match version (RFC 9110 section 8.8.3): ``"3"``."""
    return f'"{version}"'


def timestamp(epoch: float) -> str:
    """Epoch seconds as ISO 8601 UTC with milliseconds: ``2026-01-01T12:00:00.000Z``."""
    return datetime.fromtimestamp(epoch, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Held(NamedTuple):
    """A version of a match as this worker holds it: from its snapshot cache (``state``
    parsed) or read from the store (``state`` None until parsed)."""

    version: int
    head: str
    meta: dict
    state: dict | None
    state_text: str


@dataclass(frozen=True)
class IfMatch:
    """What a move's If-Match names: the versions of its strong tags, and its weak tags (which
    never match, RFC 9110 section 13.1.1)."""

    versions: frozenset[int]
    weak: tuple[str, ...] = ()


@dataclass(frozen=True)
class MoveAnswer:
    """The answer to a move: ``body`` (canonical JSON text of the verdict) at ``version`` in
    ``language``; ``replayed`` when it is the answer stored under the idempotency key."""

    body: str
    version: int
    language: str | None
    replayed: bool = False


class Observer:
    """What the service tells the operations layer (metrics); the default tells no one."""

    def game(self, game_id: str) -> None:
        """A request concerns a match of ``game_id``."""

    def verdict(self, game_id: str, legal: bool) -> None:
        """A move was judged."""


class Matches:
    """The match operations over one store and this worker's cache of recent snapshots."""

    def __init__(self, store: Store, recent: RecentSnapshots, observer: Observer | None = None,
                 clock: Callable[[], float] = time.time):
        self.store = store
        self.recent = recent
        self.observer = observer or Observer()
        self.clock = clock
        # The latest legal_moves events sent, shared by the event streams of a seat (moves_event).
        self._listings: OrderedDict[tuple[str, int, str, int], dict] = OrderedDict()
        self._listings_lock = threading.Lock()

    # -- reading ------------------------------------------------------------------------------

    def snapshot(self, match_id: str) -> Snapshot:
        """The stored snapshot. Raises MatchNotFound."""
        snap = self.store.get(match_id) if _ID.match(match_id) else None
        if snap is None:
            raise not_found(match_id)
        return snap

    def read(self, match_id: str, seat: int | None, authorization: str | None) -> tuple[Snapshot, dict]:
        """``(snapshot, meta)`` for a spectator (``seat`` None) or the seat whose secret
        ``authorization`` carries. Raises MatchNotFound, InvalidRequest (no such seat),
        SeatSecretRequired, NotThisSeat."""
        snap = self.snapshot(match_id)
        meta = loads(snap.meta)
        self.observer.game(meta["game"])
        if seat is not None:
            require_seat(meta["seats"], seat, authorization)
        return snap, meta

    def view(self, match_id: str, snap: Snapshot, meta: dict, seat: int | None, legal_moves: bool = False) -> dict:
        """:meth:`match_json` of a snapshot read (kept in the cache for the next move); with
        ``legal_moves`` (a seat's view only) also ``legal_moves``: :meth:`seat_moves` at the
        snapshot's version."""
        state = loads(snap.state)
        self.recent.put(match_id, snap.version, snap.head, meta, state, snap.state)
        answer = match_json(match_id, meta, snap.version, state, snap.updated, snap.expires, seat)
        if legal_moves and seat is not None:
            answer["legal_moves"] = listed_moves(seeding.game_of(meta), state, snap.version, seat)
        return answer

    def log(self, match_id: str, snap: Snapshot, seat: int | None) -> tuple[int, list[dict]]:
        """``(version, entries)``: the log as ``seat`` may read it (each entry as :func:`render`
        gives it). Raises MatchNotFound when the match expired since ``snap`` was read."""
        entries = self.store.log(match_id)
        if entries is None:
            raise not_found(match_id)
        records = [loads(text) for text in entries]
        revealed = information.revealed_keys(records)
        names = seat_names(loads(snap.meta))
        shown = [with_player_name(render(record, seat, revealed), names) for record in records]
        return max(shown[-1]["version"] if shown else 0, snap.version), shown

    def seat_moves(self, snap: Snapshot, meta: dict, seat: int) -> list[dict]:
        """Every move ``seat`` may make now, as it may see them; none once the match holds
        MAX_MATCH_MOVES moves."""
        return listed_moves(seeding.game_of(meta), loads(snap.state), snap.version, seat)

    def moves_event(self, match_id: str, snap: Snapshot, meta: dict, seat: int) -> dict:
        """The data of an event stream's ``legal_moves`` event: ``{"version": snap.version,
        "moves": <seat_moves at that version>}`` (empty when the seat is not to act). Worked
        out once per seat and version of a match (its head: the write that made it) for
        every stream of this worker that sends it; treat it as read-only."""
        if not snap.head:   # (a match written before heads were kept: a version alone may be two)
            return {"version": snap.version, "moves": self.seat_moves(snap, meta, seat)}
        key = (match_id, snap.version, snap.head, seat)
        with self._listings_lock:
            data = self._listings.get(key)
            if data is not None:
                self._listings.move_to_end(key)
                return data
        data = {"version": snap.version, "moves": self.seat_moves(snap, meta, seat)}
        with self._listings_lock:
            self._listings[key] = data
            while len(self._listings) > SHARED_LISTINGS:
                self._listings.popitem(last=False)
        return data

    # -- creating -----------------------------------------------------------------------------

    def create(self, game: Game, players: int, seed: str | None, options: dict, joint_seeding: bool = False,
               names: list[str] | None = None) -> dict:
        """A new match at version 0: the spectator's view and ``seats``, one secret per seat
        (given only here). With ``joint_seeding`` the cards are dealt once every seat has sent
        a contribution (referee/engine/joint.py). ``names``: the seats' display names, one per
        seat (already checked), kept in meta and shown to every reader. Raises UnplayableOptions."""
        self.observer.game(game.id)
        seed, seeded = seeding.draw(seed, joint_seeding)
        state = stateless.setup(game, {"players": players, "seed": seed, "options": options})["state"]
        if joint_seeding:   # (the deal above checked the options; the cards are dealt by the last contribution)
            state = joint.pending_state(game.id, players)
        match_id = secrets.token_urlsafe(16)
        seat_secrets = [secrets.token_urlsafe(24) for _ in range(players)]
        now = self.clock()
        # The seeding (the seed included) and the options as given deal the first state again for
        # the match's record (referee/service/records.py); meta never changes, and of it only the
        # seats' names are shown as they are (to every reader).
        meta = {"game": game.id, "players": players, "seats": [secret_hash(s) for s in seat_secrets], "created": now,
                "seeding": seeded, "options": options}
        if names is not None:
            meta["names"] = list(names)
        state_text = dumps(state)
        head = self.store.create(match_id, dumps(meta), state_text, now)
        # The creator's first move usually comes back to this worker (a kept-alive connection):
        # it is judged on this snapshot, without reading it back from the store.
        self.recent.put(match_id, 0, head, meta, state, state_text)
        answer = match_json(match_id, meta, 0, state, now, now + self.store.ttl, None)
        answer["seats"] = [{"seat": seat, "secret": secret} for seat, secret in enumerate(seat_secrets)]
        return answer

    # -- moving -------------------------------------------------------------------------------

    def held(self, match_id: str, versions: frozenset[int]) -> tuple[Held, bool]:
        """``(held, cached)``: this worker's cached snapshot when it is at one of ``versions``,
        else the stored one. Raises MatchNotFound."""
        cached = self.recent.get(match_id, versions)
        if cached is not None:
            return Held(*cached), True
        snap = self.snapshot(match_id)
        return Held(snap.version, snap.head, loads(snap.meta), None, snap.state), False

    def still_current(self, match_id: str, held: Held) -> bool:
        """Whether the store still holds ``held``'s version with its head. An illegal move
        judged on a cached snapshot writes nothing, so no commit checks the match: when the
        store holds something else (the match expired, another worker moved it on, the store
        lost writes) the entry is dropped and the move is judged again on a fresh read."""
        if self.store.version_and_head(match_id) == (held.version, held.head):
            return True
        self.recent.drop(match_id)
        return False

    def move(self, match_id: str, held: Held, cached: bool, move: dict, seat: int, condition: IfMatch,
             key: str | None, language: str, legal_moves: bool = False) -> MoveAnswer:
        """Judge ``move`` by ``seat`` (already checked against the game's schema and the seat's
        secret) on ``held``; a legal move is committed as the next version (compare-and-set),
        an illegal one changes nothing. ``key``: the request's Idempotency-Key, which is the
        seat's own (another seat's use of the same key does not concern it). With
        ``legal_moves`` the body also holds ``legal_moves``: the seat's legal moves at the
        answer's version, as :meth:`seat_moves` lists them (empty when the seat is not to act).
        The choice is part of the request an idempotency key stands for: a replay answers the
        first answer's body as it was, and a key reused with the other choice is KeyReused.
        Raises MatchFull, StaleVersion, MatchNotFound, KeyReused.

        A snapshot from the cache may be behind the store: when the judgement or the commit
        shows it is, the move is judged once more on a fresh read."""
        own = IdempotencyKey(seat, key) if key is not None else None
        fingerprint = _fingerprint(seat, move, legal_moves) if key is not None else ""
        answer = self._judge_and_commit(match_id, held, cached, move, seat, condition, own, fingerprint, language,
                                        legal_moves)
        if answer is None:
            fresh = self.held(match_id, frozenset())[0]
            answer = self._judge_and_commit(match_id, fresh, False, move, seat, condition, own, fingerprint,
                                            language, legal_moves, last_try=True)
        return answer

    def _judge_and_commit(self, match_id: str, held: Held, cached: bool, move: dict, seat: int, condition: IfMatch,
                          key: IdempotencyKey | None, fingerprint: str, language: str, legal_moves: bool,
                          last_try: bool = False) -> MoveAnswer | None:
        """The answer to the move on ``held``; None when it must be judged again on a fresh read
        (never on the ``last_try``)."""
        version, meta = held.version, held.meta
        if version >= MAX_MATCH_MOVES and version in condition.versions:
            raise MatchFull(Text("This match has reached the limit of {limit} moves (MAX_MATCH_MOVES) and takes no "
                                 "more. Its log and views can still be read; to play on, create a new match (POST "
                                 "/v1/matches).", limit=MAX_MATCH_MOVES),
                            [("/move", Text("the match takes no more moves"))])
        if version not in condition.versions:
            stored = self.store.idempotent(match_id, key) if key is not None else None
            if stored is not None:
                return _replayed(stored, fingerprint)
            raise _stale(match_id, version, seat, condition.versions, condition.weak)
        game = seeding.game_of(meta)
        state = held.state
        if state is None:
            state = loads(held.state_text)
            self.recent.put(match_id, version, held.head, meta, state, held.state_text)
        verdict = game.adjudicate(state, move, checked=True)
        if not verdict.legal:
            if cached and not last_try and not self.still_current(match_id, held):
                return None
            return self._refuse(match_id, game, state, move, verdict, seat, version, key, fingerprint, language,
                                legal_moves)
        return self._commit(match_id, game, held, state, move, verdict, seat, key, fingerprint, language,
                            retry_allowed=not last_try, cached=cached, legal_moves=legal_moves)

    def _refuse(self, match_id: str, game: Game, state: dict, move: dict, verdict: Verdict, seat: int,
                version: int, key: IdempotencyKey | None, fingerprint: str, language: str,
                legal_moves: bool) -> MoveAnswer:
        """The answer to an illegal move (the match does not change), kept under ``key``; its
        suggestions come from the seat's own moves as it may know them (``Game.seat_moves``),
        which it lists whole with ``legal_moves``."""
        self.observer.verdict(game.id, False)
        own = game.seat_moves(state, seat)
        answer = stateless.verdict_json(verdict, language, game, stateless.suggestions(game, move, own))
        answer["scores"] = game.visible_scores(state, seat, verdict.scores)
        answer["id"] = match_id
        answer["version"] = version
        if legal_moves:
            answer["legal_moves"] = own
        text = dumps(answer)
        if key is not None:
            earlier = self.store.remember(match_id, key, _record(fingerprint, version, text, language))
            if earlier is not None:
                return _replayed(earlier, fingerprint)
        return MoveAnswer(text, version, language)

    def _commit(self, match_id: str, game: Game, held: Held, state: dict, move: dict, verdict: Verdict, seat: int,
                key: IdempotencyKey | None, fingerprint: str, language: str, retry_allowed: bool,
                cached: bool, legal_moves: bool) -> MoveAnswer | None:
        """Write a legal move as the next version and answer it; None when the snapshot judged
        on turns out not to be the stored one (and ``retry_allowed``). With ``legal_moves`` the
        answer lists the mover's legal moves at the new version."""
        self.observer.verdict(game.id, True)
        version, new_version, now = held.version, held.version + 1, self.clock()
        entry: dict = {"version": new_version, "player": seat, "move": move, "events": verdict.events, "at": now,
                       **information.disclose(game.disclosure, state, move, verdict.events),
                       **seeding.dealt(state, verdict.state)}
        answer = stateless.verdict_json(verdict, language, game)
        answer["scores"] = game.visible_scores(verdict.state, seat, verdict.scores)
        answer["id"] = match_id
        answer["version"] = new_version
        answer["events"] = information.render(entry, seat, information.revealed_keys([entry]))[1]
        answer["state"] = game.view(verdict.state, seat)
        if legal_moves:
            answer["legal_moves"] = listed_moves(game, verdict.state, new_version, seat)
        text = dumps(answer)
        stored = _record(fingerprint, new_version, text, language) if key is not None else None
        state_text = dumps(verdict.state)
        result = self.store.commit(match_id, version, state_text, dumps(entry), now, key, stored, held.head)
        if result.kind == "ok":
            self.recent.put(match_id, new_version, result.head, held.meta, verdict.state, state_text)
            return MoveAnswer(text, new_version, language)
        self.recent.drop(match_id)
        if retry_allowed and (result.kind == "changed" or (result.kind == "stale" and cached)):
            # A cached snapshot another worker moved on, or one the store no longer holds (it lost
            # writes, even between this request's read and its commit): judge again on a fresh read.
            return None
        if result.kind == "replay":
            return _replayed(result.stored, fingerprint)
        if result.kind == "missing":
            raise not_found(match_id)
        raise _stale(match_id, result.version, seat, frozenset((version,)), ())


def check_names(names: list[str] | None, players: int) -> None:
    """Raise InvalidRequest (422, pointer ``/names``) unless ``names`` (each already checked by
    the request's schema) gives one name per seat, or is None."""
    if names is not None and len(names) != players:
        raise InvalidRequest(Text("`names` gives {given} name(s) for {players} players: give one name per seat, in "
                                  "seat order, or leave `names` out.", given=len(names), players=players),
                             [("/names", Text("must list {players} names, one per seat", players=players))])


def seat_names(meta: dict) -> list[str | None]:
    """The seats' display names in seat order, as the creation request gave them; None for
    every seat of a match created without names. Public: the same for every reader."""
    names = meta.get("names")
    return list(names) if names is not None else [None] * meta["players"]


def with_player_name(entry: dict, names: list[str | None]) -> dict:
    """A rendered log entry with ``player_name``: the name of the seat that moved (None for an
    entry without a player, or a match without names)."""
    player = entry["player"]
    entry["player_name"] = names[player] if isinstance(player, int) and 0 <= player < len(names) else None
    return entry


def match_json(match_id: str, meta: dict, version: int, state: dict, updated: float, expires: float,
               seat: int | None) -> dict:
    """The match as ``seat`` (None: a spectator) sees it: ``{"id", "game", "players", "version",
    "seat", "state", "scores", "outcome", "seeding", "created_at", "updated_at", "expires_at",
    "names"}`` (``seeding``: ``{"mode", "commitment"}``, referee/service/seeding.py; ``names``:
    :func:`seat_names`)."""
    game = seeding.game_of(meta)
    sheet, outcome = game.score(state)
    return {"id": match_id, "game": game.id, "players": meta["players"], "version": version, "seat": seat,
            "state": game.view(state, seat), "scores": game.visible_scores(state, seat, sheet),
            "outcome": outcome.to_json(), "seeding": seeding.public(meta.get("seeding")),
            "created_at": timestamp(meta["created"]),
            "updated_at": timestamp(updated), "expires_at": timestamp(expires), "names": seat_names(meta)}


def render(entry: dict, seat: int | None, revealed: frozenset[str]) -> dict:
    """A stored log entry as ``seat`` (None: a spectator) may read it, given every key the
    match has revealed so far: ``{"version", "player", "at", "move", "events", "redacted"}``."""
    if "hidden" in entry:   # an entry stored before the declared model: its own table per reader
        shown = entry["hidden"].get("spectator" if seat is None else str(seat))
        move, events, redacted = (shown["move"], shown["events"], True) if shown else \
            (entry["move"], entry["events"], False)
    else:
        move, events, redacted = information.render(entry, seat, revealed)
    return {"version": entry["version"], "player": entry["player"], "at": timestamp(entry["at"]),
            "move": move, "events": events, "redacted": redacted}


def _fingerprint(seat: int, move: dict, legal_moves: bool) -> str:
    """The request an idempotency key stands for: the seat, its move and whether it asked for
    its legal moves."""
    request: dict[str, Any] = {"seat": seat, "move": move}
    if legal_moves:
        request["include"] = "legal_moves"
    return hashlib.sha256(dumps(request).encode("utf-8")).hexdigest()


def listed_moves(game: Game, state: dict, version: int, seat: int) -> list[dict]:
    """Every move ``seat`` may make in ``state`` (the match at ``version``), as it may see
    them (``Game.seat_moves``); none once the match holds MAX_MATCH_MOVES moves."""
    if version >= MAX_MATCH_MOVES:
        return []
    return game.seat_moves(state, seat)


def _record(fingerprint: str, version: int, body: str, language: str) -> str:
    """What an idempotency key keeps: the request's fingerprint and the answer given."""
    return json.dumps({"fp": fingerprint, "version": version, "body": body, "language": language})


def _replayed(stored: str, fingerprint: str) -> MoveAnswer:
    """The answer stored under a seat's idempotency key. Raises KeyReused when the seat used
    the key with another move."""
    record: dict[str, Any] = loads(stored)
    if record["fp"] != fingerprint:
        raise KeyReused(Text("This Idempotency-Key was already used with another request: another move, or the other "
                             "include choice. Send a new key with a new request; a retry sends the same key with the "
                             "same body and query."),
                        [("/headers/Idempotency-Key", Text("already used with another request"))])
    # The stored body's language, not this request's (absent from records of older versions).
    return MoveAnswer(record["body"], record["version"], record.get("language"), replayed=True)


def not_found(match_id: str) -> MatchNotFound:
    """The refusal of a match id no store holds (expired or never created)."""
    return MatchNotFound(Text('No match "{match}": it never existed or it expired. Check the id, or create a match '
                              "(POST /v1/matches).", match=echo(match_id)))


def _stale(match_id: str, version: int, seat: int, chosen: frozenset[int], weak: tuple[str, ...]) -> StaleVersion:
    """The match is at ``version``, which If-Match does not name as a strong tag: it names the
    versions ``chosen`` and the weak tags ``weak``. The detail says why (a weak tag never
    matches) and how to send the move again."""
    read = f"/v1/matches/{echo(match_id)}?seat={seat}"
    if weak:
        detail = Text('The match is at version {version}. If-Match compares entity tags strongly (RFC 9110 section '
                      '13.1.1), so the weak tag {weak} never matches. Send the ETag exactly as given, If-Match: '
                      '"{version}", with a move chosen on version {version} (GET {read} reads the match).',
                      version=version, weak=echo(", ".join(weak)), read=read)
    elif len(chosen) == 1:
        detail = Text('The match is at version {version}; this move was chosen on version {chosen}. Read the match '
                      '(GET {read}), choose a move on version {version} and send it with If-Match: "{version}".',
                      version=version, chosen=next(iter(chosen)), read=read)
    else:
        detail = Text('The match is at version {version}; If-Match names another version. Read the match (GET '
                      '{read}), choose a move on version {version} and send it with If-Match: "{version}".',
                      version=version, read=read)
    return StaleVersion(detail, version)
