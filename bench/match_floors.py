"""WSGI apps for ``bench_matches.py --floors``: the service itself, with the match commit
replaced, so that what a match move costs beside its round trip to Redis, and what one bare
round trip costs, are measured on the same server settings as the real match move.

- ``no_commit``: the commit writes nothing and answers "ok" (the worker's snapshot cache
  follows the match; the store stays at version 0). A match move without any round trip.
- ``ping_commit``: as ``no_commit``, after one PING to the same Redis over a plain socket of
  the worker's own (no pool, no script): one wait for Redis per move, as this store's
  commit makes (not a bound on every design; commits batched behind one read, which would share
  it, were tried and gained nothing outside the machine's spread).

Served as ``match_floors:no_commit`` and ``match_floors:ping_commit``: bench_matches.py copies
this file into its run's folder, which bench/servers.start_gunicorn puts on PYTHONPATH. Bench
code only: the service never runs it. Only ``redis://`` URLs without a password (the bench's
own redis-server); replies are read by hiredis, as the store's are.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

import hiredis

from referee.app import create_app
from referee.store import DEFAULT_SOCKET_TIMEOUT, Commit


def _ok(match_id, expected, state, entry, now, key=None, stored=None, head=None) -> Commit:
    return Commit("ok", expected + 1, head=f"floor-{expected + 1}")


def _with_commit(commit) -> object:
    app = create_app()
    app.extensions["referee.store"].commit = commit
    return app


class _Ping:
    """One PING and its reply per call, on a socket no other request of the worker uses
    meanwhile (gevent's socket once gunicorn's gevent worker has patched the socket module,
    as the store's are): idle sockets wait in a list with their hiredis readers (one per
    connection, as the store's connections keep theirs), a new one opens when none is idle."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        if parts.scheme != "redis" or parts.password:
            raise SystemExit(f"match_floors: a redis:// URL without a password, not {parts.scheme}://")
        self.address = (parts.hostname or "127.0.0.1", parts.port or 6379)
        self.idle: list[tuple[socket.socket, hiredis.Reader]] = []
        self.pid = os.getpid()

    def _connection(self) -> tuple[socket.socket, hiredis.Reader]:
        if self.pid != os.getpid():  # a forked worker: the parent's sockets are not its own
            self.idle, self.pid = [], os.getpid()
        if self.idle:
            return self.idle.pop()
        sock = socket.create_connection(self.address, timeout=DEFAULT_SOCKET_TIMEOUT)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock, hiredis.Reader()

    def __call__(self, *args, **kwargs) -> Commit:
        sock, reader = self._connection()
        try:
            sock.sendall(b"*1\r\n$4\r\nPING\r\n")
            reply = False
            while reply is False:
                part = sock.recv(64)
                if not part:
                    raise ConnectionError("Redis closed the connection")
                reader.feed(part)
                reply = reader.gets()
        except BaseException:
            sock.close()
            raise
        if reply != b"PONG":  # (an error reply is a ReplyError object)
            sock.close()
            raise ConnectionError(f"Redis answered {reply!r} to PING")
        self.idle.append((sock, reader))  # (its reply read whole: the reader holds nothing)
        return _ok(*args, **kwargs)


def __getattr__(name: str) -> object:
    """The app gunicorn asks for, created then (only the one served)."""
    if name == "no_commit":
        return _with_commit(_ok)
    if name == "ping_commit":
        return _with_commit(_Ping(os.environ["REDIS_URL"]))
    raise AttributeError(name)
