"""Static files (the table page's, the /docs assets) with the conditional and range answers of
RFC 9110. werkzeug's ``send_file`` writes the file's validators (a strong ``ETag`` of its
modification time, size and path; ``Last-Modified``); its own evaluation of the request's
conditions is replaced by :func:`conditional`, which follows the RFC where werkzeug does not:

- **Order** (section 13.2.2): ``If-Match`` (strong comparison), else ``If-Unmodified-Since``:
  412 when it fails; then ``If-None-Match`` (weak comparison), else ``If-Modified-Since``:
  304; only then ``Range``. (werkzeug's ``make_conditional`` answers a Range before
  If-None-Match, and does not read If-Unmodified-Since.)
- **Range** (section 14.2) only on GET (a Range on HEAD is ignored). One range of bytes is
  206 (werkzeug's answer); a range no byte of the file satisfies, or a malformed one, is 416
  with ``Content-Range: bytes */<length>`` (section 15.5.17). A Range of another unit, or of
  several ranges (which would need a multipart/byteranges answer), is ignored: 200 with the
  whole file.
- **If-Range** (section 13.1.5): an entity tag holds when it is the file's, compared strongly
  (a weak tag never holds); a date when it is exactly ``Last-Modified`` and that is a strong
  validator (section 8.8.2.2: at least a second old). When it does not hold, the Range is
  ignored.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Mapping

from flask import Response, request, send_from_directory
from werkzeug.exceptions import RequestedRangeNotSatisfiable
from werkzeug.http import parse_date, parse_etags, unquote_etag

from referee.api.http.problems import problem_response


def send_static(directory: Path, filename: str, **options: Any) -> Response:
    """The file ``filename`` of ``directory`` (404 when there is none) answered to the current
    request as :func:`conditional` says; ``options`` as for Flask's ``send_from_directory``."""
    return conditional(request.environ, send_from_directory(directory, filename, conditional=False, **options))


def _if_range_holds(value: str, etag: str | None, modified: datetime | None) -> bool:
    value = value.strip(" \t")
    if '"' in value[:3]:   # an entity tag ("..." or W/"..."), not a date (section 13.1.5)
        return etag is not None and not value.startswith("W/") and value == etag
    date = parse_date(value)
    return (date is not None and modified is not None and date == modified
            and modified <= datetime.now(timezone.utc) - timedelta(seconds=1))


def conditional(environ: Mapping[str, Any], response: Response) -> Response:
    """``response`` (a file's 200 with ``ETag``, ``Last-Modified`` and ``Content-Length``, to a
    GET or HEAD) as the request's conditions and Range make it: 412 problem (with the ETag),
    304, 206 or 200 with ``Accept-Ranges: bytes``; raises RequestedRangeNotSatisfiable (416)."""
    etag = response.headers.get("ETag")
    tag = unquote_etag(etag)[0] if etag else None
    modified = response.last_modified
    response.accept_ranges = "bytes"
    if_match = environ.get("HTTP_IF_MATCH")
    if if_match is not None:
        failed = not parse_etags(if_match).is_strong(tag)
    else:
        since = parse_date(environ.get("HTTP_IF_UNMODIFIED_SINCE"))
        failed = since is not None and modified is not None and modified > since
    if failed:
        response.close()
        return problem_response(412, "The file has changed since the version the request names; ETag and "
                                     "Last-Modified give the current one.", headers={"ETag": etag} if etag else None)
    if_none_match = environ.get("HTTP_IF_NONE_MATCH")
    if if_none_match is not None:
        unchanged = parse_etags(if_none_match).contains_weak(tag)
    else:
        since = parse_date(environ.get("HTTP_IF_MODIFIED_SINCE"))
        unchanged = since is not None and modified is not None and modified <= since
    if unchanged:
        response.status_code = 304   # (werkzeug sends no content, and keeps the validators)
        return response
    wanted = environ.get("HTTP_RANGE")
    if (wanted is None or environ.get("REQUEST_METHOD") != "GET"
            or ("HTTP_IF_RANGE" in environ and not _if_range_holds(environ["HTTP_IF_RANGE"], etag, modified))):
        return response
    unit, _, ranges = wanted.partition("=")
    if unit.strip(" \t").lower() != "bytes" or "," in ranges:
        return response
    length = response.content_length
    try:
        # werkzeug's 206 for the one range, asked with the Range alone (the conditions are met)
        response.make_conditional({"REQUEST_METHOD": "GET", "HTTP_RANGE": wanted}, accept_ranges="bytes",
                                  complete_length=length)
    except RequestedRangeNotSatisfiable:
        response.close()
        shown = wanted if len(wanted) <= 100 else wanted[:100] + "..."
        raise RequestedRangeNotSatisfiable(length, description=(
            f"The Range {shown!r} names no byte of this file of {length} bytes: ask for bytes 0 to "
            f"{max(length - 1, 0)}, or send no Range for the whole file.")) from None
    return response
