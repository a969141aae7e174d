"""``X-Request-ID``: taken from the request when it is a sensible token, else made; echoed in
the answer (and so in the JSON access log, referee/access_log.py)."""

from __future__ import annotations

import os
import re

from flask import Response, g, request

HEADER = "X-Request-ID"
_TOKEN = re.compile(r"^[A-Za-z0-9._:+/=-]{1,128}$")


def new_request_id() -> str:
    """A random (version 4) UUID in hex: ``uuid.uuid4().hex`` without building a UUID object
    (the same bits, at about half the cost)."""
    number = int.from_bytes(os.urandom(16), "big") & _KEEP | _VERSION_4
    return f"{number:032x}"


_KEEP = ~((0xc000 << 48) | (0xf000 << 64))  # the variant and version bits, set below
_VERSION_4 = (0x8000 << 48) | (4 << 76)  # RFC 4122 variant, version 4 (as uuid.UUID(version=4))


def take_request_id() -> None:
    """Before each request: ``g.request_id`` from the header, or a new UUID (hex)."""
    given = request.environ.get("HTTP_X_REQUEST_ID")  # request.headers.get(HEADER), cheaper
    g.request_id = given if given and _TOKEN.match(given) else new_request_id()


def echo_request_id(response: Response) -> Response:
    request_id = g.get("request_id")
    if request_id:
        response.headers[HEADER] = request_id
    return response
