"""Match stores: versioned match snapshots with compare-and-set writes.

A match is kept as a snapshot (meta, version, state) plus an append-only log and a table
of idempotency keys, each one a seat's own (:class:`IdempotencyKey`), all of which expire
together ``ttl`` seconds after the last write.
Two stores share this interface:

- :class:`referee.store.memory.MemoryStore`: one process only (tests, a single worker);
- :class:`referee.store.redis.RedisStore`: a Redis server or a Redis Cluster (every key
  of a match under the hash tag ``match:{id}:...``, writes as single Lua scripts).

Configuration (environment, read by :func:`store_from_env`):

- ``REDIS_URL``: ``redis://``, ``rediss://`` or ``unix://`` URL; absent: the in-process store.
- ``REDIS_CLUSTER``: ``1`` when ``REDIS_URL`` names a node of a Redis Cluster.
- ``REFEREE_MATCH_TTL_SECONDS``: lifetime of an idle match (default 604800, 7 days).
- ``REDIS_SOCKET_TIMEOUT_SECONDS``: connect and read timeout of one attempt (default 0.25);
- ``REFEREE_STORE_DEADLINE_SECONDS``: the time one request may spend on the store, every
  call and retry included (default 0.3); past it the request is answered 503.
- ``GUNICORN_WORKER_CONNECTIONS`` (default 1000) and ``REFEREE_MAX_WAITING`` (default three
  quarters of it, 750): the Redis store's connections per process, for requests and for
  waiting requests.

Every store method raises :class:`StoreUnavailable` when the backing service does not
answer; the HTTP layer turns it into 503 with ``Retry-After``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple, Protocol

from referee import settings

DEFAULT_TTL_SECONDS = 7 * 24 * 3600
DEFAULT_SOCKET_TIMEOUT = 0.25
DEFAULT_DEADLINE = 0.3
MAX_WAIT_SECONDS = 30          # the longest a request may wait for a match to change (Prefer: wait)
DEFAULT_MAX_CONNECTIONS = 1000  # requests one gevent worker serves at once (GUNICORN_WORKER_CONNECTIONS)
DEFAULT_MAX_WAITING = DEFAULT_MAX_CONNECTIONS * 3 // 4   # of them, how many may wait for a move


class StoreUnavailable(Exception):
    """The match store does not answer (connection refused, timeout, cluster down).

    ``reason``: what happened, in words that name no address or configuration (readiness
    reports it to any caller); ``detail``: the client library's own error, for the log only."""

    def __init__(self, reason: str, detail: object = None):
        super().__init__(reason if detail is None else f"{reason}: {detail}")
        self.reason = reason


@dataclass(frozen=True)
class Snapshot:
    """A stored match: ``meta`` (immutable JSON text: game, players, seat secret hashes,
    created), ``version`` (0 after creation, +1 per legal move), ``state`` (canonical JSON
    text of the full state), ``updated`` (epoch seconds of the last write), ``expires``
    (epoch seconds when the match will be forgotten unless written again), ``head`` (an
    opaque token of the write that made this version, new at every write: a store that lost
    writes, such as a Redis restarted from an older dump, may reach the same version number
    again by another history, which only the head tells apart; "" for a match written before
    heads were kept)."""

    meta: str
    version: int
    state: str
    updated: float
    expires: float
    head: str = ""


class IdempotencyKey(NamedTuple):
    """An Idempotency-Key header as one seat sent it. Its identity in a match is ``(seat,
    name)``: the same name sent by two seats is two keys, so no seat can spend another's key,
    nor be answered with what another seat's key keeps (that seat's view)."""

    seat: int
    name: str


@dataclass(frozen=True)
class Commit:
    """Outcome of :meth:`Store.commit`.

    ``kind``: ``"ok"`` (written; ``version`` is the new version, ``head`` its head),
    ``"stale"`` (the stored version is ``version``, not the expected one), ``"changed"``
    (the stored version has the expected number but another head: another history),
    ``"missing"`` (no such match, or it expired), ``"replay"`` (the idempotency key was
    already used; ``stored`` is the text stored with it).
    """

    kind: str
    version: int = 0
    stored: str | None = None
    head: str = ""


class Store(Protocol):
    """What the match endpoints need from a store. Texts are canonical JSON."""

    kind: str
    ttl: int

    def create(self, match_id: str, meta: str, state: str, now: float) -> str:
        """Store a new match at version 0 (the id is random and assumed new); return the head
        of version 0."""

    def get(self, match_id: str) -> Snapshot | None:
        """The snapshot, or None when absent or expired."""

    def log(self, match_id: str, start: int = 0) -> list[str] | None:
        """The log entries (JSON texts) in order from index ``start`` (0: the first), or None
        when the match is absent."""

    def follow(self, match_id: str, start: int = 0) -> tuple[list[str], Snapshot] | None:
        """The log entries from index ``start`` and the snapshot, read at one moment (the
        snapshot is at the version of the last entry), or None when the match is absent: what
        an event stream reads each time it wakes."""

    def idempotent(self, match_id: str, key: IdempotencyKey) -> str | None:
        """The text stored under idempotency key ``key`` (of its seat), or None."""

    def remember(self, match_id: str, key: IdempotencyKey, stored: str) -> str | None:
        """Store ``stored`` under ``key`` unless the key is taken; returns the text already
        stored when it is (None when written). Expires with the match."""

    def commit(self, match_id: str, expected: int, state: str, entry: str, now: float,
               key: IdempotencyKey | None = None, stored: str | None = None, head: str | None = None) -> Commit:
        """Atomically: unless ``key`` is already used (-> replay), check the version is
        ``expected`` (-> stale / missing) and, when ``head`` is given, that its head is
        ``head`` (-> changed), then write the state at ``expected + 1`` with a new head,
        append ``entry`` to the log, store ``stored`` under ``key`` and renew the match's TTL."""

    def version_and_head(self, match_id: str) -> tuple[int, str] | None:
        """The stored version and its head, or None when the match is absent or expired."""

    def wait(self, match_id: str, version: int, timeout: float) -> int | None:
        """Block until the match is at another version than ``version``, or ``timeout``
        seconds pass; return a version the match had then: another than ``version`` once it
        moved (not always the newest, when many moves landed at once: read the match to
        know), else ``version`` (None when the match is absent). A commit announces its new
        version so that waiters on any server wake at once."""

    def health(self) -> dict:
        """``{"kind", "ok", ...}``; never raises."""


def worker_connections_from_env(environ: Mapping[str, str] = os.environ) -> int:
    """GUNICORN_WORKER_CONNECTIONS (default 1000): requests one gevent worker serves at once."""
    return settings.number("GUNICORN_WORKER_CONNECTIONS", DEFAULT_MAX_CONNECTIONS, environ=environ, integer=True,
                           positive=True)


def max_waiting_from_env(environ: Mapping[str, str] = os.environ) -> int:
    """REFEREE_MAX_WAITING: requests of one process that may wait at once (long-polls, event
    streams); the Redis store keeps a connection for each. Default: three quarters of the
    worker's connections (750 of 1000), so that waiting requests never hold them all: a
    worker whose every connection waits accepts nothing, not even the 503 for one more."""
    return settings.number("REFEREE_MAX_WAITING", worker_connections_from_env(environ) * 3 // 4, environ=environ,
                           integer=True, minimum=0)


def ttl_from_env(environ: Mapping[str, str]) -> int:
    """REFEREE_MATCH_TTL_SECONDS (default 7 days); raises SettingError unless a whole number above 0."""
    return settings.number("REFEREE_MATCH_TTL_SECONDS", DEFAULT_TTL_SECONDS, environ=environ, integer=True,
                           positive=True)


# Options a URL's query may give redis-py that would override the store's own bounds (a
# frozen Redis would then cost a request the URL's timeout, not the store's deadline).
_STORE_OWN_OPTIONS = {
    "socket_timeout": "use REDIS_SOCKET_TIMEOUT_SECONDS",
    "socket_connect_timeout": "use REDIS_SOCKET_TIMEOUT_SECONDS",
    "timeout": "use REDIS_SOCKET_TIMEOUT_SECONDS (the wait for a free connection)",
    "max_connections": "use GUNICORN_WORKER_CONNECTIONS (and REFEREE_MAX_WAITING for waiting requests)",
    "health_check_interval": "the store checks idle connections itself",
    "retry_on_timeout": "the store retries within REFEREE_STORE_DEADLINE_SECONDS",
}


def checked_redis_url(url: str, cluster: bool) -> str:
    """``url`` when redis-py can use it as REDIS_URL (``redis://``, ``rediss://``, or
    ``unix:///path?db=N``; with ``cluster``, a node's ``redis://`` or ``rediss://`` URL);
    raises SettingError naming REDIS_URL otherwise, so that the service does not start with a
    URL every match request would fail on. (The messages never repeat the URL, which may hold
    a password.) redis-py reads a database that is not a number in
    a ``redis://`` path as 0, and the host of ``unix://host/path`` as nothing (the socket is
    then ``/path``): both are refused here rather than followed, as are query options that
    would override the store's own timeouts and bounds (``?socket_timeout=5``)."""
    from urllib.parse import urlsplit

    from redis.connection import parse_url

    forms = "redis://HOST:PORT/DB, rediss://HOST:PORT/DB or unix:///PATH/TO/SOCKET?db=DB"
    try:
        options = parse_url(url)
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError as error:
        raise settings.SettingError(f"REDIS_URL cannot be used ({error}); give {forms}") from None
    for name in options:
        if name in _STORE_OWN_OPTIONS:
            raise settings.SettingError(f"REDIS_URL sets {name}, which the store sets itself: "
                                        f"{_STORE_OWN_OPTIONS[name]}")
    if parts.scheme in ("redis", "rediss"):
        database = parts.path.strip("/")
        if database and not (database.isascii() and database.isdigit()):
            raise settings.SettingError(f"REDIS_URL: the database {database!r} is not a number; give {forms}")
    elif host:
        raise settings.SettingError(f"REDIS_URL names a host ({host!r}) before the socket's path: "
                                    "a Unix socket's URL has three slashes, unix:///PATH/TO/SOCKET")
    elif cluster:
        raise settings.SettingError("REDIS_CLUSTER=1 needs a node's redis:// or rediss:// URL: "
                                    "a Redis Cluster is not reached through a Unix socket")
    return url


def store_from_env(environ: Mapping[str, str] | None = None) -> Any:
    """The store configured by the environment (see the module docstring). Never connects:
    the Redis client is created on first use, so the service starts while Redis is down.
    Raises SettingError for a setting it cannot take (:func:`checked_redis_url`, the numbers)."""
    environ = os.environ if environ is None else environ
    ttl = ttl_from_env(environ)
    url = environ.get("REDIS_URL", "").strip()
    if not url:
        from referee.store.memory import MemoryStore
        return MemoryStore(ttl=ttl)
    from referee.store.redis import RedisStore
    cluster = environ.get("REDIS_CLUSTER", "").strip().lower() in ("1", "true", "yes")
    url = checked_redis_url(url, cluster)
    timeout = settings.number("REDIS_SOCKET_TIMEOUT_SECONDS", DEFAULT_SOCKET_TIMEOUT, environ=environ, positive=True)
    deadline = settings.number("REFEREE_STORE_DEADLINE_SECONDS", DEFAULT_DEADLINE, environ=environ, positive=True)
    return RedisStore(url, cluster=cluster, ttl=ttl, socket_timeout=timeout, deadline=deadline,
                      max_waiting=max_waiting_from_env(environ),
                      max_connections=worker_connections_from_env(environ))
