"""Request bodies: read whole before any view, within the body limit and the body deadline.

- **Body deadline.** Under gevent workers a client that sends its body a byte now and then
  would cost a greenlet and a connection of the worker for as long as it likes, and as many
  such clients as the worker has connections (GUNICORN_WORKER_CONNECTIONS) would stop the
  service for everyone. A body must arrive within ``REFEREE_BODY_TIMEOUT_SECONDS`` (default
  10), plus one second for every ``BODY_MIN_RATE`` bytes received (a large body on a slow
  link); else the answer is 408 problem+json and the connection is closed. (gunicorn bounds
  the request head itself, by its keep-alive timeout.) Enforced with a gevent timeout when
  gevent has patched the sockets, and with SIGALRM in a sync worker, whose one thread blocks
  in the read (gunicorn's worker timeout would otherwise kill it, and the client get a 500).
- **Chunked bodies** (``Transfer-Encoding: chunked``): gunicorn decodes the chunks while the
  application reads, and werkzeug would cut a chunked body silently at the limit. Read here,
  a malformed chunk and a chunked body over the limit are the problems a ``Content-Length``
  body gets: 400 for malformed chunking, 413 over ``MAX_CONTENT_LENGTH``. Another transfer
  coding (gzip, deflate and compress, which gunicorn passes on undecoded) is 501 (RFC 9112
  section 6.1).
- **Closing.** An answer given before the body was read whole (408, 413, 501, malformed
  chunking) closes the connection, rather than read or discard the rest of the body, and says
  so (``Connection: close``, RFC 9112 section 9.6) where the server lets the application ask
  for it: gunicorn's ``pre_request`` hook (referee/gunicorn_conf.py) hands each request's
  ``force_close`` over in :data:`CONNECTION_CLOSER`.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import io
import os
import signal
import socket
import threading
import time
from typing import Callable

from flask import Flask, Request, Response
from werkzeug.wsgi import get_content_length

from referee import settings
from referee.api.http.problems import body_too_large, body_too_slow, problem_response
from referee.schemas.compiled import BODY_HOLDS_FLOAT
from referee.service.texts import Text, echo

READ_SIZE = 16 * 1024
DEFAULT_BODY_TIMEOUT_SECONDS = 10.0
DEFAULT_MAX_BODY_BYTES = 1024 * 1024   # REFEREE_MAX_BODY_BYTES when unset
BODY_MIN_RATE = 16 * 1024   # bytes per second a slow body earns one more second with
# The environ key of the body read whole here, for the JSON parser (referee.api.body.parsing).
BODY_KEY = "referee.body"
# The environ key of a shorter bound on the answer's writes that a view asks for (bound_answer).
WRITE_LIMIT_KEY = "referee.write_limit"


# The server's way to close the current request's connection after the answer (gunicorn's
# Request.force_close: the answer then says Connection: close); unset under other servers.
CONNECTION_CLOSER: contextvars.ContextVar[Callable[[], None] | None] = contextvars.ContextVar(
    "referee_connection_closer", default=None)


class _BodyTimeout(Exception):
    """The body did not arrive within its deadline."""


def body_timeout_from_env(environ=os.environ) -> float:
    """REFEREE_BODY_TIMEOUT_SECONDS (default 10): the time a request body may take to arrive."""
    return settings.number("REFEREE_BODY_TIMEOUT_SECONDS", DEFAULT_BODY_TIMEOUT_SECONDS, environ=environ, positive=True)


def _chunked(environ: dict) -> bool:
    return "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()  # the header, read directly


def _undecoded_coding(environ: dict) -> str | None:
    """A transfer coding of the request other than chunked (and identity, which is none), which
    the server leaves encoded; None when there is none."""
    for coding in environ.get("HTTP_TRANSFER_ENCODING", "").split(","):
        coding = coding.strip(" \t").lower()
        if coding not in ("chunked", "identity", ""):
            return coding
    return None


@functools.cache
def _greenlet_timeout():
    """gevent's Timeout when gevent drives the sockets, else None (a blocking read of a real
    thread cannot be interrupted, and a sync worker has gunicorn's timeout). Asked at the first
    request, in the worker, after gevent's patching; the answer does not change afterwards."""
    try:
        from gevent import Timeout, monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return None
    return Timeout if monkey.is_module_patched("socket") else None


def _timer(seconds: float, environ: dict):
    """A timeout of the current greenlet when gevent drives the sockets; SIGALRM in a sync
    gunicorn worker (one thread, blocking sockets); else none (a thread's blocking read cannot
    be interrupted)."""
    timeout = _greenlet_timeout()
    if timeout is not None:
        return timeout(max(seconds, 0.001), _BodyTimeout)
    if ("gunicorn.socket" in environ and not environ.get("wsgi.multithread")
            and threading.current_thread() is threading.main_thread()):
        return _alarm(max(seconds, 0.001))
    return contextlib.nullcontext()


@contextlib.contextmanager
def _alarm(seconds: float):
    """Raise _BodyTimeout in this (main) thread after ``seconds``: a read blocked in the kernel
    is interrupted, since the signal handler raises (PEP 475 retries it otherwise)."""
    def expired(_signum, _frame):
        raise _BodyTimeout()

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
        finally:  # even when the alarm went off just now, inside this block
            signal.signal(signal.SIGALRM, previous)


def close_after_answer() -> None:
    """Have the server close this request's connection once the answer is sent, where it lets
    the application ask (gunicorn: the answer then carries ``Connection: close``)."""
    close = CONNECTION_CLOSER.get()
    if close is not None:
        close()


def bound_writes(environ: dict, seconds: float | None) -> None:
    """A write of this request's answer that cannot go on for ``seconds`` fails, where the
    server lets the application reach its connection (gunicorn's ``gunicorn.socket``): the
    server then closes the connection and the answer's body (an event stream gives its waiting
    slot back). A client that stops reading otherwise holds its connection (and a stream its
    slot) for as long as it keeps the connection open. None: no bound (the request's own
    reads, bounded by the body deadline)."""
    sock = environ.get("gunicorn.socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.settimeout(seconds)


def bound_answer(environ: dict, response: Response, base: float) -> None:
    """After each request: its answer's writes are bounded as a body's reads are, ``base``
    seconds (REFEREE_BODY_TIMEOUT_SECONDS) plus one second for every ``BODY_MIN_RATE`` bytes of
    an answer written at once (a file is written in blocks: ``base`` for each); shorter when the
    view asked for less (:data:`WRITE_LIMIT_KEY`, an event stream with REFEREE_MAX_STREAM_SECONDS).
    Without a bound, clients that request a large answer (the Swagger UI bundle: 1.6 MB) and
    never read it hold every connection of the worker."""
    # A file is written a block at a time (each block bounded), other answers in one write.
    length = 0 if response.direct_passthrough else response.content_length or 0
    seconds = base + length / BODY_MIN_RATE
    asked = environ.get(WRITE_LIMIT_KEY)
    bound_writes(environ, seconds if asked is None else min(asked, seconds))


def _close_reading(environ: dict) -> None:
    """Stop reading from this client: the server answers, then finds no next request and
    closes the connection, instead of waiting for the rest of the body; where the server lets
    the application say so, the answer carries ``Connection: close``."""
    close_after_answer()
    sock = environ.get("gunicorn.socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RD)


def answer_before_body(environ: dict, response: Response) -> Response:
    """``response``, given before the request's body is read: when the request announces a
    body (chunked, or a Content-Length above 0), the connection closes after the answer
    rather than read or discard that body (RFC 9112 section 9.6)."""
    if _chunked(environ) or get_content_length(environ):
        _close_reading(environ)
    return response


def forget_body() -> None:
    """After each request (Flask's teardown runs whatever the answer): what the request's
    body reader knew of its body no longer holds, for the next request of this connection or
    a load outside a request."""
    BODY_HOLDS_FLOAT.set(None)


def read_body(app: Flask, req: Request) -> Response | None:
    """Before each request: replaces the request body by the bytes it holds (also kept in
    ``environ[BODY_KEY]``), read within the body deadline, or answers problem+json: 408 (too
    slow), 400 (malformed chunking), 413 (over the limit: a ``Content-Length`` at once, without
    reading; a chunked body once the limit is passed) or 501 (a transfer coding besides
    chunked). Each of these closes the connection."""
    environ = req.environ
    bound_writes(environ, None)   # (the last answer on this connection bounded its writes: reads have their deadline)
    chunked = _chunked(environ)
    if chunked and (coding := _undecoded_coding(environ)) is not None:
        _close_reading(environ)
        return problem_response(501, f"The transfer coding {coding[:20]!r} is not decoded here: send the body "
                                     "with Transfer-Encoding: chunked alone, or with Content-Length.")
    length = get_content_length(environ)  # (werkzeug's, from the environ: req.content_length builds the headers)
    limit = app.config.get("MAX_CONTENT_LENGTH")
    if not chunked:
        if limit is not None and length is not None and length > limit:
            _close_reading(environ)
            return body_too_large(limit)
        if not length:
            return None
    stream = environ["wsgi.input"]
    allowed = app.config["REFEREE_BODY_TIMEOUT_SECONDS"]  # (create_app reads it from the environment)
    started = time.monotonic()
    parts: list[bytes] = []
    size = 0
    try:
        while chunked or size < length:
            remaining = started + allowed + size / BODY_MIN_RATE - time.monotonic()
            if remaining <= 0:
                raise _BodyTimeout()
            with _timer(remaining, environ):
                part = stream.read(READ_SIZE if chunked else min(READ_SIZE, length - size))
            if not part:
                break
            parts.append(part)
            size += len(part)
            if chunked and limit is not None and size > limit:
                _close_reading(environ)
                return body_too_large(limit)
    except _BodyTimeout:
        _close_reading(environ)
        return body_too_slow(allowed)
    except Exception as error:  # noqa: BLE001 - the server's body readers raise their own types
        _close_reading(environ)
        if chunked:
            return problem_response(400, Text("The chunked request body is malformed ({error}). Send it again in "
                                              "well-formed chunks (RFC 9112 section 7.1), or with Content-Length.",
                                              error=type(error).__name__), title="Malformed chunked body")
        return problem_response(400, Text("The request body could not be read ({error}). Send the request again.",
                                          error=type(error).__name__), title="Unreadable body")
    data = b"".join(parts)
    environ[BODY_KEY] = data
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    environ["wsgi.input_terminated"] = False
    return None


def unsupported_media(req: Request) -> Response | None:
    """415 for a body a POST to the API must send as JSON but does not: another media type, or
    a content coding the service does not decode (RFC 9110 section 15.5.16). Only for a route
    that exists and takes this method: others answer 404 or 405 first."""
    if req.url_rule is None or req.method not in ("POST", "PUT", "PATCH") or not req.path.startswith("/v1/"):
        return None
    if not req.is_json:
        sent = req.environ.get("CONTENT_TYPE")
        if not sent:
            return problem_response(415, Text("This operation takes a JSON body: send it with Content-Type: "
                                              "application/json."))
        return problem_response(415, Text("This operation takes a JSON body, not {sent}: send it with "
                                          "Content-Type: application/json.", sent=echo(sent)))
    coding = req.environ.get("HTTP_CONTENT_ENCODING")
    if coding is not None and (coding := coding.strip().lower()) != "identity":
        return problem_response(
            415, Text("Content-Encoding {coding} is not supported: send the body uncompressed, without "
                      "Content-Encoding.", coding=echo(coding) or "(empty)"),
            [("/headers/Content-Encoding", Text("only identity (no coding) is accepted"))],
            title="The request body's content coding is not supported")
    return None
