"""Response headers written on every answer, at the cost of an append.

werkzeug's ``headers[name] = value`` (``Headers.set``) checks the value and scans every header
for the name to replace it; the per-request headers (Content-Language, Vary, X-Request-ID) are
almost always absent, where ``Headers.add`` does the same with one append.
"""

from __future__ import annotations

from werkzeug.datastructures import Headers


def put_header(headers: Headers, name: str, value: str) -> None:
    """``headers[name] = value``: the one ``name`` header of the answer is ``value`` afterwards."""
    if headers.getlist(name):  # (a look-up that raises no KeyError when absent)
        headers[name] = value
    else:
        headers.add(name, value)
