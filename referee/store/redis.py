"""The Redis match store: a single Redis server or a Redis Cluster.

Keys of match ``id`` (one hash tag, so one cluster slot, so every script runs
unchanged on a cluster; the scripts are in referee/store/redis_keys.py):

- ``match:{id}:snap``: hash ``meta`` (JSON text), ``version`` (int), ``state`` (JSON
  text), ``updated`` (epoch seconds), ``head`` (the token of the write that made this version);
- ``match:{id}:log``: list of log entries (JSON texts), oldest first;
- ``match:{id}:keys``: hash idempotency key -> stored answer (JSON text), each key a seat's
  own: the field is ``<seat>:<key>`` (:func:`key_field`);
- ``match:{id}:keyorder``: list of those fields, oldest first: past ``MAX_IDEMPOTENCY_KEYS``
  of one seat, storing a key of that seat forgets the seat's oldest;
- ``match:{id}:commits``: hash commit token -> the version that commit created;
- ``match:{id}:versions``: a short stream of the versions committed, read with ``XREAD
  BLOCK`` by requests waiting for the next move (long-poll, event streams) on any server.

All of them expire ``ttl`` seconds after the last write (creation or legal move). A move is
one Lua script, one round trip: idempotency lookup, version check, and the writes of state,
version, log entry and key, and the version announced on the versions stream, happen in one
atomic step.

Retries and the deadline: redis-py itself does not retry; this module does, within the
request's deadline (:mod:`referee.store.deadline`, ``deadline`` seconds for the attempts of
its calls, started again after each call Redis answered). A retry starts only while at least
one socket timeout is left, so a frozen Redis costs a request about ``deadline`` seconds (at
worst one more socket timeout, when a retry's connect and reply both wait), then 503.
Concurrent reads of the same match by the requests of one process share one call
(:mod:`referee.store.coalesce`).
Every script may run twice (a reply lost to a timeout is not a command not run), so each
recognises its own earlier run: a commit carries a token made once per :meth:`commit` call
and stored with the version it created; a second run finds the token and answers that
version instead of "stale".

Connections: each request holds at most one connection of the client at a time, from a pool
of ``max_connections`` per process (per node of a cluster): as many as the requests a gevent
worker serves at once (GUNICORN_WORKER_CONNECTIONS), so a burst of requests on one worker is
not mistaken for an outage (a request finding every connection busy would wait for one, at
most a socket timeout). Requests waiting for a move (``XREAD BLOCK``) use a second client
whose pool holds one connection per waiting slot (``max_waiting``, REFEREE_MAX_WAITING).

The client is created on first use (``RedisCluster`` connects in its constructor), so the
service starts while Redis is down. Every failure to reach Redis raises
:class:`referee.store.StoreUnavailable`.
"""

from __future__ import annotations

import os
import secrets
import select
import threading
import time
from typing import Any, Callable, TypeVar

import hiredis
import redis
from redis.backoff import NoBackoff
from redis.exceptions import (
    AuthenticationError,
    ClusterError,
    DataError,
    NoScriptError,
    RedisClusterException,
    RedisError,
    ResponseError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.maint_notifications import MaintNotificationsConfig
from redis.retry import Retry

from referee.limits import MAX_IDEMPOTENCY_KEYS
from referee.store import (
    DEFAULT_DEADLINE,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_WAITING,
    DEFAULT_SOCKET_TIMEOUT,
    DEFAULT_TTL_SECONDS,
    Commit,
    IdempotencyKey,
    Snapshot,
    StoreUnavailable,
)
from referee.store.coalesce import Coalescer
from referee.store.deadline import deadline_for, renew_budget
from referee.store.redis_keys import (
    COMMIT,
    CREATE,
    FOLLOW,
    LOG,
    REMEMBER,
    VERSIONS_KEPT,
    announcement,
    key_field,
    key_order_key,
    keys_of,
    versions_key,
)

RETRIES = 2
BACKOFF = 0.01  # seconds before the first retry, doubled after each
# Failures worth another attempt: the server may answer next time.
TRANSIENT = (RedisConnectionError, RedisTimeoutError, ClusterError, OSError)
T = TypeVar("T")



def _reason(failure: BaseException) -> str:
    """What a failure says of the store, in words that name no address: a refused or failed
    connection is "cannot reach Redis" (the client connects on first use, so a store that was
    never reached fails here too), a timeout "Redis did not answer", an error reply "Redis
    refused the request" (or "the credentials")."""
    if isinstance(failure, AuthenticationError):
        return "Redis refused the credentials"
    if isinstance(failure, ResponseError):   # (a database out of range, NOAUTH, ...)
        return "Redis refused the request"
    if isinstance(failure, (RedisTimeoutError, TimeoutError)):
        return "Redis did not answer"
    if isinstance(failure, (RedisConnectionError, OSError)):
        return "cannot reach Redis"
    return "Redis did not answer"


class _connection:
    """``with _connection(pool) as connection``: one connection of ``pool`` for a command sent
    by hand; disconnected before it goes back when anything but an error reply interrupted it
    (a reply may still be on its way). (A class: a generator-based context manager costs
    a few microseconds more on every call to Redis.)"""

    __slots__ = ("pool", "connection")

    def __init__(self, pool: Any):
        self.pool = pool

    def __enter__(self) -> Any:
        self.connection = self.pool.get_connection()
        return self.connection

    def __exit__(self, kind: type | None, error: BaseException | None, trace: Any) -> None:
        try:
            if kind is not None and not issubclass(kind, ResponseError):  # an error reply: the connection is fine
                self.connection.disconnect()
        finally:
            self.pool.release(self.connection)


def _os_poll() -> Callable[[], Any]:
    """``select.poll`` as the OS gives it, even once gevent has patched the select module."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return select.poll
    return monkey.get_original("select", "poll")


_OS_POLL = _os_poll()


def _pack(args: tuple) -> list[bytes]:
    """The RESP bytes of one command (str, bytes, int and float arguments), as redis-py's
    ``send_packed_command`` takes them: hiredis's packer (redis[hiredis]), which redis-py's
    own calls after a pass over every argument that these arguments do not need. An argument
    of another type raises redis-py's DataError, as its packer does."""
    try:
        return [hiredis.pack_command(args)]
    except TypeError as error:
        raise DataError(error) from None


class _IdleChecked:
    """A redis-py connection whose check of an idle connection asks the OS's poll directly.

    The pool asks ``can_read(0)`` each time it hands a connection out (no data may be pending
    on it). Under gevent's monkey patching ``select.poll`` is cooperative: each check starts
    watchers and yields to the hub, about as much CPU as the command itself (measured in a
    gevent worker: a script call took 393 us of CPU with it, 213 us with the OS's poll). A
    zero timeout never blocks, so the OS's poll is safe there. Whatever else (data pending,
    a timeout, another parser) is redis-py's own check."""

    def can_read(self, timeout: float = 0) -> bool:
        sock = self._sock
        reader = getattr(self._parser, "_reader", None)  # hiredis's Reader, which buffers replies
        if timeout == 0 and sock is not None and reader is not None and not reader.has_data():
            poller = _OS_POLL()
            poller.register(sock.fileno(), select.POLLIN)
            if not poller.poll(0):
                return False
        return super().can_read(timeout)  # type: ignore[misc]


class IdleCheckedConnection(_IdleChecked, redis.Connection):
    """redis-py's TCP connection (``redis://``), idle-checked by the OS's poll (_IdleChecked)."""


class IdleCheckedUnixConnection(_IdleChecked, redis.UnixDomainSocketConnection):
    """redis-py's Unix socket connection (``unix://``), idle-checked by the OS's poll: with
    gevent's poll, a match move through a Unix socket cost a gevent worker more CPU than
    through TCP (969 against 828 us per request, measured with bench/bench_matches.py)."""

    # redis-py 8.1 reads a connection's host and port for its error metrics when a connect
    # times out (a frozen Redis whose accept queue is full), which its Unix socket connection
    # does not have: an AttributeError, answered 500, instead of its TimeoutError (503).
    host = None
    port = None


WAIT_MARGIN_SECONDS = 1.0   # a blocking read's answer may come this long after its block time
ANNOUNCEMENTS_KEPT = 4096   # matches whose newest announcement read a process keeps (RedisStore.wait)


class RedisStore:
    """Matches in Redis (``cluster``: a Redis Cluster reached through one node's URL)."""

    def __init__(self, url: str, *, cluster: bool = False, ttl: int = DEFAULT_TTL_SECONDS,
                 socket_timeout: float = DEFAULT_SOCKET_TIMEOUT, retries: int = RETRIES,
                 deadline: float = DEFAULT_DEADLINE, max_waiting: int = DEFAULT_MAX_WAITING,
                 max_connections: int = DEFAULT_MAX_CONNECTIONS):
        self.url = url
        self.max_waiting = max_waiting
        self.max_connections = max_connections
        self.cluster = cluster
        self.kind = "redis-cluster" if cluster else "redis"
        self.ttl = ttl
        self.socket_timeout = socket_timeout
        self.retries = retries
        self.deadline = deadline
        self._lock = threading.Lock()
        self._client: Any = None
        self._pid = 0
        self._scripts: dict[str, Any] = {}
        self._blocking: Any = None
        self._blocking_pid = 0
        self._coalescer = Coalescer()
        self._coalescer_pid = os.getpid()
        self._announced: dict[str, tuple[str, int]] = {}   # match -> its newest announcement read: (id, version)
        self._announced_lock = threading.Lock()

    # -- connection ------------------------------------------------------------------------

    def _connect(self) -> Any:
        # As many connections as the worker has requests at once, each request holding at most
        # one (redis-py's default pool of 100 raises "Too many connections" at the 101st);
        # a blocking pool, so that even then a request waits for one rather than failing.
        options = dict(decode_responses=True, socket_timeout=self.socket_timeout,
                       socket_connect_timeout=self.socket_timeout, retry=Retry(NoBackoff(), 0),
                       max_connections=self.max_connections, timeout=self.socket_timeout, **self._checked())
        if self.cluster:
            return redis.RedisCluster.from_url(self.url, connection_pool_class=redis.BlockingConnectionPool,
                                               **options)
        pool = redis.BlockingConnectionPool.from_url(self.url, health_check_interval=30, **options)
        return redis.Redis(connection_pool=pool)

    def _checked(self) -> dict:
        """Pool options under which a connection handed out is never one with a reply pending.

        redis-py's pool checks that (``can_read``) but, while maintenance notifications are
        left to "auto" (RESP3 servers' push messages, redis-py 8), ignores the answer; this
        store speaks RESP2, so they are off, and the check counts again. The check itself is
        IdleCheckedConnection's, or IdleCheckedUnixConnection's for a Unix socket; TLS keeps the
        class its scheme names (the TLS layer may hold a record that the socket's poll cannot see)."""
        options: dict = {"maint_notifications_config": MaintNotificationsConfig(enabled=False)}
        if self.url.startswith("redis://"):
            options["connection_class"] = IdleCheckedConnection
        elif self.url.startswith("unix://"):
            options["connection_class"] = IdleCheckedUnixConnection
        return options

    def client(self) -> Any:
        """The client, created on first use and again after a fork. Raises StoreUnavailable."""
        pid = os.getpid()
        client = self._client
        if client is not None and self._pid == pid:
            return client
        with self._lock:
            if self._client is None or self._pid != pid:
                try:
                    client = self._connect()
                # (ValueError: a URL redis-py cannot read, which store_from_env refuses at start)
                except (RedisError, RedisClusterException, OSError, ValueError) as error:
                    raise StoreUnavailable("cannot reach Redis", error) from None
                self._scripts = {name: client.register_script(text) for name, text in
                                 (("commit", COMMIT), ("create", CREATE), ("follow", FOLLOW), ("log", LOG),
                                  ("remember", REMEMBER))}
                self._client, self._pid = client, pid
            return self._client

    def _call(self, operation: Callable[[Any], T]) -> T:
        """``operation(client)``, tried again after a transient failure while the request's
        deadline leaves room for a whole attempt. Raises StoreUnavailable."""
        deadline = deadline_for(self.deadline)
        attempt = 0
        while True:
            if time.monotonic() >= deadline:
                raise StoreUnavailable("Redis did not answer within the request's deadline")
            client = self.client()
            try:
                answer = operation(client)
            except TRANSIENT as error:
                failure = error
            except (RedisError, RedisClusterException) as error:
                raise StoreUnavailable(_reason(error), error) from None
            else:
                # Redis answered: the request's next call gets a deadline of its own. The time
                # between calls is the worker's (hundreds of requests woken at once queue for
                # it), not Redis's, and a Redis that stops answering fails the next call in time.
                renew_budget()
                return answer
            attempt += 1
            pause = BACKOFF * 2 ** (attempt - 1)
            if attempt > self.retries or deadline - time.monotonic() < pause + self.socket_timeout:
                raise StoreUnavailable(_reason(failure), failure) from None
            time.sleep(pause)

    def _run(self, script: str, keys: list[str], args: list[Any]) -> Any:
        if self.cluster:
            return self._call(lambda client: self._scripts[script](keys=keys, args=args, client=client))
        return self._call(lambda client: self._evalsha(client, script, keys, args))

    def _evalsha(self, client: Any, name: str, keys: list[str], args: list[Any]) -> Any:
        """Run registered script ``name`` on one connection of the client's pool: EVALSHA, and
        after NOSCRIPT (a restarted Redis) SCRIPT LOAD and EVALSHA again, as redis-py's Script
        does through ``execute_command``. That path's bookkeeping per command (observability
        hooks, a retry wrapper this store turns off, checks of deprecated arguments) cost
        about a tenth of a match move's CPU in a gevent worker. The command is packed by
        hiredis itself (:data:`_pack`). A connection that failed mid-command is disconnected
        before it goes back to the pool."""
        script = self._scripts[name]
        command = _pack(("EVALSHA", script.sha, len(keys), *keys, *args))
        with _connection(client.connection_pool) as connection:
            try:
                connection.send_packed_command(command)
                return connection.read_response()
            except NoScriptError:
                connection.send_command("SCRIPT", "LOAD", script.script)
                connection.read_response()
                connection.send_packed_command(command)
                return connection.read_response()

    def blocking_client(self) -> Any:
        """A second client for ``XREAD BLOCK`` only: its own connections, so that waiting
        requests never hold the pool of the others. Its socket timeout is the store's (opening
        a connection, its handshake, reading a reply that has begun to arrive): how long a
        blocking read may wait is :meth:`_block_on`'s to say."""
        pid = os.getpid()
        if self._blocking is not None and self._blocking_pid == pid:
            return self._blocking
        with self._lock:
            if self._blocking is None or self._blocking_pid != pid:
                # One connection per waiting slot: each waiting request holds one for its wait.
                options = dict(decode_responses=True, socket_timeout=self.socket_timeout,
                               socket_connect_timeout=self.socket_timeout, retry=Retry(NoBackoff(), 0),
                               max_connections=self.max_waiting, **self._checked())
                try:
                    self._blocking = (redis.RedisCluster.from_url(self.url, **options) if self.cluster
                                      else redis.Redis.from_url(self.url, **options))
                except (RedisError, RedisClusterException, OSError, ValueError) as error:  # (as in client())
                    raise StoreUnavailable("cannot reach Redis", error) from None
                self._blocking_pid = pid
            return self._blocking

    def _block_on(self, stream: str, last: str, block_ms: int) -> tuple[str, int] | None:
        """``XREAD BLOCK block_ms`` on ``stream`` after id ``last``, on one connection of the
        blocking client, given up WAIT_MARGIN_SECONDS after its block time: a Redis that stops
        answering (frozen, or a network that drops everything) costs a wait that much more than
        asked, not the blocking client's socket timeout (the longest wait). Returns the newest
        announcement read, ``(id, version)``, or None when the block time passed without one.
        Raises redis-py's errors; a connection that failed or was given up is disconnected
        before it goes back."""
        client = self.blocking_client()
        if self.cluster:
            client = client.get_redis_connection(client.get_node_from_key(stream))
        with _connection(client.connection_pool) as connection:
            connection.send_command("XREAD", "COUNT", VERSIONS_KEPT, "BLOCK", block_ms, "STREAMS", stream, last)
            if not connection.can_read(timeout=block_ms / 1000 + WAIT_MARGIN_SECONDS):
                raise RedisTimeoutError(f"no answer within {block_ms / 1000 + WAIT_MARGIN_SECONDS:g} s of XREAD BLOCK")
            reply = connection.read_response()
        if not reply:
            return None
        entries = next(iter(reply.values())) if isinstance(reply, dict) else reply[0][1]   # (RESP3, RESP2)
        return announcement(*entries[-1])

    def _remember_announcement(self, match_id: str, announcement: tuple[str, int]) -> None:
        """Keep the newest announcement this process read of a match (its stream id and
        version), for the next wait at that version to read after it directly."""
        with self._announced_lock:
            self._announced.pop(match_id, None)
            self._announced[match_id] = announcement
            if len(self._announced) > ANNOUNCEMENTS_KEPT:
                del self._announced[next(iter(self._announced))]

    def close(self) -> None:
        with self._lock:
            if self._blocking is not None:
                try:
                    self._blocking.close()
                except Exception:  # noqa: BLE001 - closing a broken client must not fail
                    pass
                self._blocking = None
            if self._client is not None:
                try:
                    self._client.close()
                except Exception:  # noqa: BLE001 - closing a broken client must not fail
                    pass
            self._client = None

    # -- operations ------------------------------------------------------------------------

    def create(self, match_id: str, meta: str, state: str, now: float) -> str:
        head = secrets.token_hex(12)
        self._run("create", [*keys_of(match_id), key_order_key(match_id)],
                  [meta, state, repr(now), self.ttl * 1000, head])
        return head

    def _shared(self, key: tuple, call: Callable[[], T]) -> T:
        """``call()``, shared with the requests of this process reading the same ``key`` at the
        same moment (:mod:`referee.store.coalesce`): a burst of reads of one match (long-polls
        arriving or woken together) makes one or two round trips, not one per request."""
        if self._coalescer_pid != os.getpid():  # a forked worker: the parent's calls are not its own
            self._coalescer, self._coalescer_pid = Coalescer(), os.getpid()
        return self._coalescer.run(key, call)

    def get(self, match_id: str) -> Snapshot | None:
        return self._shared(("get", match_id), lambda: self._get(match_id))

    def _get(self, match_id: str) -> Snapshot | None:
        snap = keys_of(match_id)[0]
        meta, version, state, updated, head = self._call(
            lambda client: client.hmget(snap, ("meta", "version", "state", "updated", "head")))
        if meta is None or version is None or state is None:
            return None
        return self._snapshot(meta, version, state, updated, head)

    def _snapshot(self, meta: str, version: str, state: str, updated: str | None, head: str | None) -> Snapshot:
        """A snapshot of the fields of a match's ``snap`` hash, as Redis answers them."""
        updated_at = float(updated or 0)
        return Snapshot(meta, int(version), state, updated_at, updated_at + self.ttl, head or "")

    def log(self, match_id: str, start: int = 0) -> list[str] | None:
        snap, log, _, _ = keys_of(match_id)
        answer = self._run("log", [snap, log], [start])
        return None if not answer else list(answer[1])

    def follow(self, match_id: str, start: int = 0) -> tuple[list[str], Snapshot] | None:
        """(Store.follow.) One script call; the newest announcement it reads is kept for the
        next wait at that version (:meth:`wait`)."""
        snap, log, _, _ = keys_of(match_id)
        answer = self._run("follow", [snap, log, versions_key(match_id)], [start])
        if not answer:
            return None
        texts, fields, newest = answer
        if newest:
            self._remember_announcement(match_id, announcement(*newest[0]))
        return list(texts), self._snapshot(*fields)

    def idempotent(self, match_id: str, key: IdempotencyKey) -> str | None:
        return self._call(lambda client: client.hget(keys_of(match_id)[2], key_field(key)))

    def version_and_head(self, match_id: str) -> tuple[int, str] | None:
        version, head = self._call(lambda client: client.hmget(keys_of(match_id)[0], ("version", "head")))
        return None if version is None else (int(version), head or "")

    def remember(self, match_id: str, key: IdempotencyKey, stored: str) -> str | None:
        snap, _, keys, _ = keys_of(match_id)
        return self._run("remember", [snap, keys, key_order_key(match_id)],
                         [key_field(key), stored, MAX_IDEMPOTENCY_KEYS]) or None

    def commit(self, match_id: str, expected: int, state: str, entry: str, now: float,
               key: IdempotencyKey | None = None, stored: str | None = None, head: str | None = None) -> Commit:
        token = secrets.token_hex(12)  # the same for every attempt of this commit; the new head
        field = "" if key is None else key_field(key)   # ('' in the script: no key)
        answer = self._run("commit", [*keys_of(match_id), versions_key(match_id), key_order_key(match_id)],
                           [expected, state, entry, repr(now), self.ttl * 1000, field, stored or "", token,
                            VERSIONS_KEPT, "-" if head is None else head, MAX_IDEMPOTENCY_KEYS])
        kind = answer[0]
        if kind == "ok":
            return Commit("ok", int(answer[1]), head=token)
        if kind in ("stale", "changed"):
            return Commit(kind, int(answer[1]))
        if kind == "replay":
            return Commit("replay", int(answer[1]), answer[2])
        return Commit("missing")

    def wait(self, match_id: str, version: int, timeout: float) -> int | None:
        """(Store.wait.) A wait at a version this process has read announced (the usual case
        for an event stream, which waits again at the version its last wait returned) is one
        XREAD after that announcement; another first reads the newest announcement and the
        version. A wait that ends without an announcement reads the version (None: the match
        expired)."""
        stream = versions_key(match_id)
        snap = keys_of(match_id)[0]
        known = self._announced.get(match_id)
        if known is not None and known[1] == version:
            last = known[0]
        else:
            def newest_and_version(client):
                # The stream's last id first, then the version: a commit after the version was
                # read is announced after that id, so XREAD from it cannot miss it.
                newest = client.xrevrange(stream, count=1)
                return (announcement(*newest[0]) if newest else ("0-0", -1)), client.hget(snap, "version")

            (last, announced), current = self._shared(("newest", match_id), lambda: self._call(newest_and_version))
            if current is None or int(current) != version:
                return None if current is None else int(current)
            if announced == version:
                self._remember_announcement(match_id, (last, announced))
        try:  # (not a _call: the wait is not store work, and the call before it renewed the deadline)
            newer = self._block_on(stream, last, max(1, int(timeout * 1000)))
        except (RedisError, RedisClusterException, OSError) as error:
            raise StoreUnavailable("Redis did not answer", error) from None
        if newer is not None:
            self._remember_announcement(match_id, newer)
            return newer[1]
        current = self._shared(("version", match_id), lambda: self._call(lambda client: client.hget(snap, "version")))
        return None if current is None else int(current)

    def health(self) -> dict:
        try:
            self._call(lambda client: client.ping())
        except StoreUnavailable as error:
            # ``error``: the reason only (the library's words name the store's address, which a
            # readiness probe's caller need not learn); ``detail``: those words, for the log.
            return {"kind": self.kind, "ok": False, "error": error.reason, "detail": str(error)}
        return {"kind": self.kind, "ok": True}
