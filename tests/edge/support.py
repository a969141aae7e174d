"""Test support for the edge tests: gunicorn started as the README and the image start it
(gunicorn.conf.py), raw HTTP over sockets, and a TCP proxy that delays chosen Redis replies."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

from tests.support.matches_support import Gunicorn, RedisServer, free_port, http  # noqa: F401 - RedisServer, free_port and http are shared from here


def start_gunicorn(tmp_path: Path, **env: str) -> Gunicorn:
    """gunicorn -c gunicorn.conf.py on a free port, its output in ``tmp_path/gunicorn.log``."""
    settings = {"WEB_CONCURRENCY": "1", "REDIS_URL": "", "REFEREE_CORS_ORIGINS": "", "GUNICORN_ACCESS_LOG": "-",
                "HOME": str(tmp_path), "XDG_RUNTIME_DIR": "", "PROMETHEUS_MULTIPROC_DIR": ""}
    settings.update(env)
    return Gunicorn(settings, tmp_path / "gunicorn.log").start()


def timed_get(url: str, timeout: float = 5.0) -> tuple[int, float]:
    """(status, seconds) of one GET on a new connection."""
    started = time.monotonic()
    status, _, _ = http("GET", url)
    return status, time.monotonic() - started


def raw_request(port: int, data: bytes, timeout: float = 5.0) -> tuple[int, dict, bytes]:
    """Send ``data`` as is; (status, headers, body) of the answer (Content-Length framed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            sock.sendall(data)
        except OSError:
            pass  # the server may answer and stop reading before the whole body is sent
        received = b""
        while b"\r\n\r\n" not in received:
            part = sock.recv(65536)
            if not part:
                break
            received += part
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        sock.settimeout(5)
        while len(body) < length:
            part = sock.recv(65536)
            if not part:
                break
            body += part
        return status, headers, body


def problem_of(body: bytes) -> dict:
    return json.loads(body)


def _shut(*socks: socket.socket) -> None:
    for sock in socks:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def read_until(sock: socket.socket, marker: bytes | None, seconds: float) -> bytes:
    """What arrives on ``sock`` until ``marker`` (None: only the time limit), ``seconds``
    pass, or the server closes the connection."""
    received = b""
    end = time.monotonic() + seconds
    while (marker is None or marker not in received) and (left := end - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            part = sock.recv(65536)
        except socket.timeout:
            break
        if not part:
            break
        received += part
    return received


class DelayProxy:
    """A TCP proxy to a Redis server that holds back the reply to a request containing
    ``marker`` by ``delay`` seconds, ``times`` times in all (then passes everything), and
    counts the bytes of Redis's replies (``replied``)."""

    def __init__(self, upstream_port: int, marker: bytes = b"", delay: float = 0.0, times: int = 0):
        self.upstream_port = upstream_port
        self.marker = marker
        self.delay = delay
        self.times = times
        self.delayed = 0
        self.replied = 0
        self.port = free_port()
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            hold = {"seconds": 0.0}
            threading.Thread(target=self._requests, args=(client, upstream, hold), daemon=True).start()
            threading.Thread(target=self._replies, args=(upstream, client, hold), daemon=True).start()

    def _requests(self, source, target, hold) -> None:
        try:
            while data := source.recv(65536):
                if self.marker and self.marker in data:
                    with self._lock:
                        if self.delayed < self.times:
                            self.delayed += 1
                            hold["seconds"] = self.delay
                target.sendall(data)
        except OSError:
            pass
        finally:
            _shut(source, target)

    def _replies(self, source, target, hold) -> None:
        try:
            while data := source.recv(65536):
                if hold["seconds"]:
                    time.sleep(hold["seconds"])
                    hold["seconds"] = 0.0
                with self._lock:
                    self.replied += len(data)
                target.sendall(data)
        except OSError:
            pass
        finally:
            _shut(source, target)

    def close(self) -> None:
        self._closing = True
        self._server.close()


class Answer:
    """One answer read off a raw socket: its status line, header lines (``headers``: the last
    value of each name, lowercase; ``fields``: every line as sent), body, and whether the
    server closed the connection after it (``closed``)."""

    def __init__(self, status_line: str, fields: list[tuple[str, str]], body: bytes, closed: bool):
        self.status_line = status_line
        self.status = int(status_line.split()[1])
        self.fields = fields
        self.headers = {name.lower(): value for name, value in fields}
        self.body = body
        self.closed = closed

    def json(self) -> dict:
        return json.loads(self.body)


# Sent after an answer on the same connection: a connection the server kept serves it (and is
# then closed, as it asks); one the server closed answers nothing.
PROBE = b"GET /healthz HTTP/1.1\r\nHost: referee\r\nConnection: close\r\n\r\n"


def _read_to_close(sock: socket.socket, seconds: float) -> tuple[bytes, bool]:
    """What arrives on ``sock`` until the server closes the connection (then True) or
    ``seconds`` pass (then False)."""
    received = b""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            part = sock.recv(65536)
        except socket.timeout:
            return received, False
        except ConnectionResetError:
            return received, True
        if not part:
            return received, True
        received += part
    return received, False


def exchange(port: int, data: bytes, head_only: bool = False) -> Answer:
    """Send ``data``; the first final answer (1xx answers skipped), its body framed by
    Content-Length (none when ``head_only``: the answer to a HEAD). Then whether the server
    closed the connection after it (``closed``): a GET /healthz sent next on the connection
    gets no answer when it did, and its 200 (and no other byte before it) when it kept it."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        try:
            sock.sendall(data)
        except OSError:
            pass  # the server may answer and stop reading before the whole request is sent
        received = read_until(sock, b"\r\n\r\n", 5)
        while received.startswith(b"HTTP/1.1 1") and b"\r\n\r\n" in received:
            received = received.partition(b"\r\n\r\n")[2]
            if b"\r\n\r\n" not in received:
                received += read_until(sock, b"\r\n\r\n", 5)
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        fields = [(name, value.strip()) for name, _, value in (line.partition(":") for line in lines[1:])]
        length = 0 if head_only else int(dict((n.lower(), v) for n, v in fields).get("content-length", "0"))
        sock.settimeout(5)
        while len(body) < length:
            part = sock.recv(65536)
            if not part:
                break
            body += part
        extra = body[length:]
        try:
            sock.sendall(PROBE)
        except OSError:
            closed = True
        else:
            after, closed = _read_to_close(sock, 5)
            if after.startswith(b"HTTP/1.1 200 OK\r\n"):
                closed = False   # the probe was served (then closed, as it asks): the connection was kept
            else:
                extra += after
        assert not extra, f"bytes after the answer: {extra[:200]!r}"
        return Answer(lines[0], fields, body[:length], closed)
