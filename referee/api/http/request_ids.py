"""``X-Request-ID``: taken from the request when it is a sensible token, else made; echoed in
the answer by referee/api/http/headers.py (and so in the JSON access log, referee/access_log.py)."""

from __future__ import annotations

import random
import re
from typing import Any, Mapping

_TOKEN = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")   # whole value: fullmatch ("$" admits a final newline)


_VERSION_4 = ~(0xF000 << 64 | 0xC000 << 48) & (1 << 128) - 1   # clears the version and variant bits
_VERSION_4_BITS = 0x4000 << 64 | 0x8000 << 48   # version 4, RFC 4122 variant


def new_request_id() -> str:
    """A random (version 4) UUID in hex, as ``uuid.uuid4().hex`` writes one. An id names a
    request, it guards nothing: its bits come from the ``random`` module (a third of the cost
    of reading the OS's random bytes), which Python seeds anew in every forked worker."""
    return f"{random.getrandbits(128) & _VERSION_4 | _VERSION_4_BITS:032x}"


def take_request_id(environ: Mapping[str, Any], request_globals: Any) -> None:
    """Before each request: ``request_id`` of ``request_globals`` (flask.g) from the header in
    the WSGI ``environ``, or a new UUID (hex)."""
    given = environ.get("HTTP_X_REQUEST_ID")  # the header X-Request-ID
    request_globals.request_id = given if given and _TOKEN.fullmatch(given) else new_request_id()
