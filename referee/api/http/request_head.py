"""Checks of the request head that gunicorn leaves to the application, made before any body
is read:

- **Host** (RFC 9112 section 3.2): 400 for an HTTP/1.1 request without Host, and for any
  request whose Host is not ``uri-host [":" port]`` (RFC 9110 section 7.2). gunicorn refuses
  a second Host line itself. The service never reads Host otherwise (answers name paths only),
  so a request in absolute-form is served by its path, as section 3.2.2 asks.
- **Methods** (RFC 9110 section 9.1): 501 for a method the service does not know; the
  methods of RFC 9110, PATCH and QUERY (the methods OpenAPI describes) are known, and
  answered 405 with ``Allow`` by a resource that does not take them. CONNECT is 501 too: the
  service opens no tunnels.
- **OPTIONS \\*** (RFC 9110 section 9.3.7): the server itself answers, 200 with the methods
  the service implements in ``Allow``.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any, Mapping

from flask import Response

from referee.api.http.problems import problem_response

IMPLEMENTED = "GET, HEAD, POST, OPTIONS"
# Methods of RFC 9110 section 9 (CONNECT aside), RFC 5789 (PATCH) and the HTTP QUERY method:
# known, so a resource that does not take one answers 405 with the methods it takes.
KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH", "QUERY"})

# RFC 3986 section 3.2.2: reg-name (IPv4address is one) or an IP-literal in brackets, then an
# optional port of digits (it may be empty).
_SUB_DELIMS_AND_UNRESERVED = r"A-Za-z0-9\-._~!$&'()*+,;="
_HOST = re.compile(rf"(?:(?:[{_SUB_DELIMS_AND_UNRESERVED}]|%[0-9A-Fa-f]{{2}})*|\[(?P<literal>[^\[\]]*)\])"
                   r"(?::[0-9]*)?")
_IPV_FUTURE = re.compile(rf"[vV][0-9A-Fa-f]+\.[{_SUB_DELIMS_AND_UNRESERVED}:]+")


def valid_host(value: str) -> bool:
    """Whether ``value`` is a Host field value: ``uri-host [":" port]``, the host a reg-name,
    an IPv4 address or an IP-literal (an IPv6 address or IPvFuture in brackets)."""
    found = _HOST.fullmatch(value)
    if found is None:
        return False
    literal = found.group("literal")
    if literal is None:
        return True
    if _IPV_FUTURE.fullmatch(literal):
        return True
    try:
        ipaddress.IPv6Address(literal)
    except ValueError:
        return False
    return "%" not in literal   # (a zone identifier is no part of a URI's IPv6address)


def refuse_head(environ: Mapping[str, Any]) -> Response | None:
    """The answer to a request whose head the service refuses or answers itself (a problem:
    400 ``malformed-request`` for Host, 501 ``not-implemented`` for the method; 200 for
    ``OPTIONS *``), else None."""
    host = environ.get("HTTP_HOST")
    if host is None:
        if environ.get("SERVER_PROTOCOL") == "HTTP/1.1":
            return problem_response(400, "An HTTP/1.1 request must send Host (RFC 9112 section 3.2).",
                                    title="Bad Request", slug="malformed-request")
    elif not valid_host(host):
        shown = host if len(host) <= 100 else host[:100] + "..."
        return problem_response(400, f"Host {shown!r} is not a host with an optional port (RFC 9110 section 7.2).",
                                title="Bad Request", slug="malformed-request")
    method = environ.get("REQUEST_METHOD", "")
    if method not in KNOWN_METHODS:
        shown = method if len(method) <= 20 else method[:20] + "..."
        return problem_response(501, f"The service does not implement the method {shown}; it implements "
                                     f"{IMPLEMENTED}.")
    if environ.get("PATH_INFO") == "*":
        if method == "OPTIONS":
            response = Response(status=200)
            del response.headers["Content-Type"]   # (no content)
            response.headers["Allow"] = IMPLEMENTED
            return response
        # (gunicorn refuses the asterisk-form for other methods; another server may not)
        return problem_response(400, "The request-target * is only for OPTIONS (RFC 9112 section 3.2.4).",
                                title="Bad Request", slug="malformed-request")
    return None
