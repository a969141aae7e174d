"""``X-Request-ID``: taken from the request when it is a sensible token, else made; echoed in
the answer (and so in the JSON access log, referee/access_log.py)."""

from __future__ import annotations

import re
import uuid

from flask import Response, g, request

HEADER = "X-Request-ID"
_TOKEN = re.compile(r"^[A-Za-z0-9._:+/=-]{1,128}$")


def take_request_id() -> None:
    """Before each request: ``g.request_id`` from the header, or a new UUID (hex)."""
    given = request.headers.get(HEADER, "")
    g.request_id = given if _TOKEN.match(given) else uuid.uuid4().hex


def echo_request_id(response: Response) -> Response:
    request_id = g.get("request_id")
    if request_id:
        response.headers[HEADER] = request_id
    return response
