"""gunicorn's logger with one JSON object per access log line.

Fields: ``time`` (ISO 8601, UTC), ``remote``, ``method``, ``path``, ``query``, ``status``,
``bytes`` (body bytes sent), ``duration_ms``, ``request_id`` (the ``X-Request-ID`` the
service echoed: the caller's, or one it made), ``user_agent``, ``pid``.
"""

from __future__ import annotations

import json
import os
import traceback
from datetime import datetime, timezone

from gunicorn.glogging import Logger


def _header(headers, name: str) -> str | None:
    if headers is None:
        return None
    items = headers.items() if hasattr(headers, "items") else headers
    for key, value in items:
        if key.lower() == name:
            return value
    return None


class JsonAccessLogger(Logger):
    """Access lines as JSON (gunicorn's ``access_log_format`` does not escape values)."""

    def access(self, resp, req, environ, request_time):
        if not self.access_log_enabled:
            return
        try:
            status = resp.status
            if isinstance(status, str):
                status = status.split(None, 1)[0]
            record = {
                "time": datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                "remote": environ.get("REMOTE_ADDR"),
                "method": environ.get("REQUEST_METHOD"),
                "path": environ.get("PATH_INFO"),
                "query": environ.get("QUERY_STRING") or None,
                "status": int(status) if str(status).isdigit() else status,
                "bytes": getattr(resp, "sent", None),
                "duration_ms": round(request_time.total_seconds() * 1000, 3),
                "request_id": _header(resp.headers, "x-request-id"),
                "user_agent": environ.get("HTTP_USER_AGENT"),
                "pid": os.getpid(),
            }
            self.access_log.info(json.dumps(record, ensure_ascii=False))
        except Exception:  # noqa: BLE001 - a log line must never fail a request
            self.error(traceback.format_exc())
