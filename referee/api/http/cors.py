"""Cross-origin calls from browser apps (flask-cors), for the origins in
``REFEREE_CORS_ORIGINS`` (comma-separated; unset or empty: no origin, no CORS headers)."""

from __future__ import annotations

import os

from flask import Flask
from flask_cors import CORS

# Every header a browser app sends or reads in docs/guides/matches.md: long-polls send Prefer and read
# Preference-Applied; an event stream read with fetch resumes with Last-Event-ID; a 401 names
# its scheme in WWW-Authenticate.
EXPOSED = ["ETag", "Location", "Retry-After", "Idempotent-Replayed", "Content-Language", "X-Request-ID",
           "Preference-Applied", "WWW-Authenticate"]
# EventSource polyfills, which a seat's stream needs to send Authorization, add request headers
# of their own: Cache-Control: no-cache (npm eventsource 1 and 2, LaunchDarkly's js-eventsource,
# react-native-sse), X-Requested-With (react-native-sse); Pragma: no-cache is Cache-Control's
# HTTP/1.0 twin that apps send beside it. (Accept: text/event-stream needs no preflight.)
STREAM_CLIENT_HEADERS = ["Cache-Control", "Pragma", "X-Requested-With"]
ALLOWED = ["Content-Type", "Accept-Language", "If-Match", "If-None-Match", "Idempotency-Key", "Authorization",
           "X-Request-ID", "Prefer", "Last-Event-ID", *STREAM_CLIENT_HEADERS]


def origins_from(value: str | None) -> list[str]:
    return [origin.strip() for origin in (value or "").split(",") if origin.strip()]


def enable_cors(app: Flask) -> None:
    """CORS for ``app.config["REFEREE_CORS_ORIGINS"]`` (else the environment); nothing when
    no origin is configured. Preflights are cached by browsers for 10 minutes."""
    configured = app.config.get("REFEREE_CORS_ORIGINS", os.environ.get("REFEREE_CORS_ORIGINS"))
    origins = origins_from(configured)
    if not origins:
        return
    CORS(app, origins=origins, expose_headers=EXPOSED, allow_headers=ALLOWED, max_age=600,
         methods=["GET", "POST", "OPTIONS"], vary_header=True)

    @app.after_request
    def vary_on_origin(response):
        # Whether an answer carries Access-Control-Allow-Origin depends on Origin, with one
        # configured origin too (flask-cors says so only for several): caches must know (the
        # Fetch standard, "CORS protocol and HTTP caches").
        response.vary.add("Origin")
        return response
