"""``X-Request-ID``: taken from the request when it is a sensible token, else made; echoed in
the answer by referee/api/http/headers.py (and so in the JSON access log, referee/access_log.py)."""

from __future__ import annotations

import os
import re
from typing import Any, Mapping

_TOKEN = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")   # whole value: fullmatch ("$" admits a final newline)


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
    request_globals.request_id = given if given and _TOKEN.fullmatch(given) else new_request_id()
