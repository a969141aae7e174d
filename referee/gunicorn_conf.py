"""gunicorn settings for Referee (the root gunicorn.conf.py loads this module).

Environment: BIND (default 127.0.0.1:8000; the container sets 0.0.0.0:8000),
WEB_CONCURRENCY (worker processes, default 1), GUNICORN_TIMEOUT (seconds, default 30).
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
