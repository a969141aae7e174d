"""The table page: ``GET /table`` and its files, static HTML, CSS and JavaScript shipped in
``referee/table/`` (no build step, nothing fetched from elsewhere).

The page is a client of the public API only (matches, legal moves, the event stream); it is
not part of the API contract, so it is a plain Flask blueprint, left out of openapi.yaml.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response

from referee.api.http.static_files import send_static

TABLE_DIR = Path(__file__).resolve().parents[2] / "table"
# Everything the page loads comes from this service; seat secrets live in the page only.
CONTENT_SECURITY_POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                           "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def _page_headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-cache"
    return response


def table_blueprint() -> Blueprint:
    """``GET /table`` (the page) and ``GET /table/<file>`` (its stylesheet and script); 404
    for any other name."""
    blp = Blueprint("table", __name__)

    @blp.get("/table")
    def table_page():
        return _page_headers(send_static(TABLE_DIR, "index.html", max_age=0))

    @blp.get("/table/<path:filename>")
    def table_file(filename):
        return _page_headers(send_static(TABLE_DIR, filename, max_age=0))

    return blp
