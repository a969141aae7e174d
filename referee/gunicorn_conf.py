"""gunicorn settings for Referee (the root gunicorn.conf.py loads this module).

Environment: BIND (default 127.0.0.1:8000; the container sets 0.0.0.0:8000),
WEB_CONCURRENCY (worker processes, default 1; more than one needs REDIS_URL, see on_starting),
GUNICORN_TIMEOUT (seconds, default 30).
Sync workers: the service is CPU-bound and answers each request in well under a millisecond.
"""

import os

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "1"))
worker_class = "sync"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
keepalive = 5
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
preload_app = True
wsgi_app = "referee.wsgi:app"


def on_starting(server):
    """Refuse several workers without Redis: the in-process match store serves one process,
    so each worker would keep its own matches and a match would seem to vanish at random."""
    if server.cfg.workers > 1 and not os.environ.get("REDIS_URL", "").strip():
        message = (f"Referee: {server.cfg.workers} workers need a shared match store: set REDIS_URL "
                   "(see docs/matches.md), or run one worker (WEB_CONCURRENCY=1).")
        server.log.error(message)
        raise SystemExit(message)
