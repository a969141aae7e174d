"""``X-Request-ID``: taken from the request when it is a sensible token, else made; echoed in
the answer (and so in the JSON access log, referee/access_log.py)."""

from __future__ import annotations

import os
import re

from typing import Any, Mapping

from flask import Response

from referee.api.headers import put_header

HEADER = "X-Request-ID"
_TOKEN = re.compile(r"^[A-Za-z0-9._:+/=-]{1,128}$")


def new_request_id() -> str:
    """A random (version 4) UUID in hex: the bits of ``uuid.uuid4().hex``, set on the random
    bytes directly (a third of the cost of building a UUID object)."""
    octets = bytearray(os.urandom(16))
    octets[6] = octets[6] & 0x0F | 0x40  # version 4
    octets[8] = octets[8] & 0x3F | 0x80  # RFC 4122 variant
    return octets.hex()


def take_request_id(environ: Mapping[str, Any], request_globals: Any) -> None:
    """Before each request: ``request_id`` of ``request_globals`` (flask.g) from the header in
    the WSGI ``environ``, or a new UUID (hex)."""
    given = environ.get("HTTP_X_REQUEST_ID")  # the header X-Request-ID
    request_globals.request_id = given if given and _TOKEN.match(given) else new_request_id()


def echo_request_id(response: Response, request_globals: Any) -> Response:
    """After each request: the request id in the answer."""
    request_id = request_globals.get("request_id")
    if request_id:
        put_header(response.headers, HEADER, request_id)
    return response
