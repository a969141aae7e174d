"""gunicorn settings for Referee (the root gunicorn.conf.py loads this module).

Environment:

- BIND (default 127.0.0.1:8000; the container sets 0.0.0.0:8000);
- WEB_CONCURRENCY (worker processes, default 1; more than one needs REDIS_URL, see on_starting);
- GUNICORN_WORKER_CLASS (default ``gevent``; ``sync`` for the old one-connection-per-worker model);
- GUNICORN_WORKER_CONNECTIONS (connections per gevent worker, default 1000; REFEREE_MAX_WAITING
  must be below it, see on_starting);
- GUNICORN_TIMEOUT (seconds, default 30; 0: no timeout; with sync workers REFEREE_MAX_WAIT_SECONDS
  and REFEREE_MAX_STREAM_SECONDS are 5 s less, or less if asked, so that a long-poll or an event
  stream ends before gunicorn kills its worker);
- GUNICORN_ACCESS_LOG (default ``-``: JSON access log lines on standard output; empty: none);
- REFEREE_CONTROL_SOCKET (unset: no control socket; a path: gunicorn's control socket there,
  one path per instance, since gunicorn's default path is shared by every instance on a host);
- PROMETHEUS_MULTIPROC_DIR (where workers keep their metrics for GET /metrics; unset: a new
  temporary directory per instance, removed at exit; set: its files are removed at start).

gevent workers: a slow or idle client costs a greenlet, not a worker, and connections are kept
alive between requests. Every request's work is bounded (docs/reference/limits.md), and Redis
calls have one short deadline per request, so no greenlet holds the worker for long. gevent's
monkey-patching happens here, in the master, before the application is preloaded: the sockets
and locks redis-py creates later are then gevent's (cooperative) ones.
"""

import gc
import os
import shutil
import tempfile

worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gevent").strip() or "gevent"
if worker_class == "gevent":
    from gevent import monkey

    monkey.patch_all()

from referee.server_errors import install as _problem_errors  # noqa: E402 - after gevent's patching

_problem_errors()  # gunicorn's own 400/414/431 answers as problem+json (referee/server_errors.py)

from referee import settings as _settings  # noqa: E402
from referee.api.body.transport import CONNECTION_CLOSER as _connection_closer  # noqa: E402
from referee.store import worker_connections_from_env as _worker_connections_from_env  # noqa: E402

bind = os.environ.get("BIND", "127.0.0.1:8000")
try:
    workers = _settings.number("WEB_CONCURRENCY", 1, integer=True, positive=True)
    worker_connections = _worker_connections_from_env()   # (the store sizes its pool by it too)
    timeout = _settings.number("GUNICORN_TIMEOUT", 30, integer=True, minimum=0)   # 0: gunicorn kills no worker
    if worker_class != "gevent" and timeout > 0:
        # A sync worker busy with one request longer than ``timeout`` is killed (the client gets
        # a 500, or a stream cut short): a long-poll waits, and an event stream stays open, at
        # most what leaves room for the give-up margin and store calls, whatever is asked
        # (nothing, 0 for no limit, or more).
        from referee.api.ops.live import max_wait_from_env, stream_limit_from_env

        _longest_stream = max(timeout - 5, 1)   # (a stream limit is at least 1 s)
        os.environ["REFEREE_MAX_WAIT_SECONDS"] = str(min(max_wait_from_env(), max(timeout - 5, 0)))
        os.environ["REFEREE_MAX_STREAM_SECONDS"] = (
            f"{min(stream_limit_from_env() or _longest_stream, _longest_stream):g}")
except _settings.SettingError as _bad:
    raise SystemExit(f"Referee: {_bad}") from None
graceful_timeout = 10
keepalive = 5
# gunicorn's largest request line (its default is 4094): RFC 9112 section 3 recommends reading
# request lines of at least 8,000 octets.
limit_request_line = 8190
# Files (the docs' assets) are written, not handed to sendfile(): gunicorn counts no bytes sent by
# sendfile, so the access log would say 0 for them.
sendfile = False
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
logger_class = "referee.access_log.JsonAccessLogger"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
preload_app = True
wsgi_app = "referee.wsgi:app"

_control_socket = os.environ.get("REFEREE_CONTROL_SOCKET", "").strip()
control_socket_disable = not _control_socket
if _control_socket:
    control_socket = _control_socket

# Metrics of every worker, merged by GET /metrics (prometheus_client's multiprocess mode).
# Set before the application is imported: prometheus_client reads it when a metric is made.
_metrics_dir_made = False
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").strip():
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="referee-metrics-")
    _metrics_dir_made = True
else:
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)
    for _name in os.listdir(os.environ["PROMETHEUS_MULTIPROC_DIR"]):
        if _name.endswith(".db"):
            os.remove(os.path.join(os.environ["PROMETHEUS_MULTIPROC_DIR"], _name))


def on_starting(server):
    """Refuse several workers without Redis: the in-process match store serves one process, so each worker would keep
    its own matches and a match would seem to vanish at random.
    Refuse as many waiting requests (long-polls, event streams) as a gevent worker has
    connections: once they all wait, the worker accepts nothing more, not even the 503 meant
    for the waiting requests beyond the limit."""
    if server.cfg.workers > 1 and not os.environ.get("REDIS_URL", "").strip():
        message = (f"Referee: {server.cfg.workers} workers need a shared match store: set REDIS_URL "
                   "(see docs/guides/operating.md, the match store), or run one worker "
                   "(WEB_CONCURRENCY=1, or referee serve --workers 1).")
        server.log.error(message)
        raise SystemExit(message)
    from referee.store import max_waiting_from_env

    waiting = max_waiting_from_env()
    if worker_class == "gevent" and waiting >= server.cfg.worker_connections:
        message = (f"Referee: REFEREE_MAX_WAITING ({waiting}) must be below GUNICORN_WORKER_CONNECTIONS "
                   f"({server.cfg.worker_connections}): requests waiting for moves would hold every connection "
                   "of a worker (the default is three quarters of them).")
        server.log.error(message)
        raise SystemExit(message)


def _asks_to_close(headers) -> bool:
    """Whether the request's Connection fields (gunicorn's ``(NAME, value)`` pairs) list the
    ``close`` option, alone or among others, on any line (RFC 9110 section 7.6.1)."""
    return any(option.strip(" \t").lower() == "close"
               for name, value in headers if name == "CONNECTION" for option in value.split(","))


def pre_request(worker, req):
    """Log the request at debug level (gunicorn's own hook does), and let the application
    close its connection: an answer given before the body arrived whole (408, 400) then says
    ``Connection: close`` as it closes (referee/api/body/transport.py, CONNECTION_CLOSER).
    A request whose Connection lists ``close`` is closed after its answer, which says so (RFC
    9112 section 9.6: MUST); gunicorn itself sees the option only when it is the whole of the
    first Connection line."""
    worker.log.debug("%s %s", req.method, req.path)
    _connection_closer.set(req.force_close)
    if _asks_to_close(req.headers):
        req.force_close()


def pre_fork(server, worker):
    """Move everything the master has made (the preloaded application: schemas, catalogs, the
    contract) out of the garbage collector's sight before a worker is forked: the worker's
    collections then never walk those objects, and do not write to their pages either, so
    the pages stay shared with the master (Python's gc.freeze documentation)."""
    gc.freeze()


def post_worker_init(worker):
    """End the event streams' waits when the worker stops (referee/api/ops/stopping.py)."""
    from referee.api.ops import stopping

    stopping.watch(worker)


def child_exit(server, worker):
    """A dead worker's live gauges no longer count (its counters do)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _metrics_dir_made:
        shutil.rmtree(os.environ["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
