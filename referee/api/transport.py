"""Request bodies sent with ``Transfer-Encoding: chunked``: read whole, within the body limit.

gunicorn decodes the chunks while the application reads; a malformed chunk raises in the
middle of that read (once a 500), and werkzeug cuts a chunked body silently at the limit
(once a 400 "not valid JSON" for a body that was only too large). Reading the body here,
before any view, makes both cases the problems a ``Content-Length`` body gets: 400 for
malformed chunking, 413 over ``MAX_CONTENT_LENGTH``. (The server then discards the rest of
the body, or closes the connection when the chunking is broken.)
"""

from __future__ import annotations

import io

from flask import Flask, Response, request

from referee.api.problems import problem_response

READ_SIZE = 64 * 1024


def _chunked() -> bool:
    return "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def read_chunked_body(app: Flask) -> Response | None:
    """A before-request hook: replaces a chunked body by the bytes it holds, or answers
    400/413 problem+json."""
    if not _chunked():
        return None
    environ = request.environ
    limit = app.config.get("MAX_CONTENT_LENGTH")
    stream = environ["wsgi.input"]
    parts: list[bytes] = []
    size = 0
    try:
        while True:
            part = stream.read(READ_SIZE)
            if not part:
                break
            parts.append(part)
            size += len(part)
            if limit is not None and size > limit:
                return problem_response(413, f"The request body is larger than the limit of this service "
                                             f"({limit} bytes, REFEREE_MAX_BODY_BYTES).")
    except Exception as error:  # noqa: BLE001 - the server's chunk parser raises its own types
        return problem_response(400, f"The chunked request body is malformed ({type(error).__name__}).",
                                title="Malformed chunked body")
    data = b"".join(parts)
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    environ["wsgi.input_terminated"] = False
    return None
