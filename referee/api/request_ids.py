"""``X-Request-ID``: taken from the request when it is a sensible token, else made; echoed in
the answer (and so in the JSON access log, referee/access_log.py)."""

from __future__ import annotations

import os
import re

from typing import Any, Mapping

from flask import Response

HEADER = "X-Request-ID"
_TOKEN = re.compile(r"^[A-Za-z0-9._:+/=-]{1,128}$")


def new_request_id() -> str:
    """A random (version 4) UUID in hex: ``uuid.uuid4().hex`` without building a UUID object
    (the same bits, at about half the cost)."""
    number = int.from_bytes(os.urandom(16), "big") & _KEEP | _VERSION_4
    return f"{number:032x}"


_KEEP = ~((0xc000 << 48) | (0xf000 << 64))  # the variant and version bits, set below
_VERSION_4 = (0x8000 << 48) | (4 << 76)  # RFC 4122 variant, version 4 (as uuid.UUID(version=4))


def take_request_id(environ: Mapping[str, Any], request_globals: Any) -> None:
    """Before each request: ``request_id`` of ``request_globals`` (flask.g) from the header in
    the WSGI ``environ``, or a new UUID (hex)."""
    given = environ.get("HTTP_X_REQUEST_ID")  # the header X-Request-ID
    request_globals.request_id = given if given and _TOKEN.match(given) else new_request_id()


def echo_request_id(response: Response, request_globals: Any) -> Response:
    """After each request: the request id in the answer."""
    request_id = request_globals.get("request_id")
    if request_id:
        response.headers[HEADER] = request_id
    return response
