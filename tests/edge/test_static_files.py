"""The static files (the table page's, the /docs assets) under gunicorn: conditional requests
in the order RFC 9110 section 13.2.2 evaluates them, and range requests (section 14), checked
on the bytes sent."""

from __future__ import annotations

import email.utils
from datetime import timedelta

import pytest

from referee.api.routes.meta import SWAGGER_UI_DIR
from referee.api.routes.table_page import TABLE_DIR
from tests.edge.support import exchange, start_gunicorn

FILES = {"/table/table.css": TABLE_DIR / "table.css", "/docs/assets/swagger-ui.css": SWAGGER_UI_DIR / "swagger-ui.css"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    process = start_gunicorn(tmp_path_factory.mktemp("static"))
    yield process
    process.stop()


def get(server, path: str, fields: bytes = b"", method: bytes = b"GET"):
    return exchange(server.port, method + b" " + path.encode() + b" HTTP/1.1\r\nHost: referee\r\n" + fields + b"\r\n",
                    head_only=method == b"HEAD")


@pytest.fixture(scope="module", params=sorted(FILES))
def file(request, server):
    """(path, bytes, validators of the full answer)."""
    path = request.param
    whole = get(server, path)
    assert whole.status == 200 and whole.headers["accept-ranges"] == "bytes"
    return path, FILES[path].read_bytes(), whole.headers


def test_a_range_is_answered_206_with_its_bytes(server, file):
    path, content, _ = file
    answer = get(server, path, b"Range: bytes=3-12\r\n")
    assert answer.status == 206 and answer.body == content[3:13]
    assert answer.headers["content-range"] == f"bytes 3-12/{len(content)}"


def test_a_range_on_head_is_ignored(server, file):
    """RFC 9110 section 14.2: range handling is defined for GET only; a server MUST ignore
    Range on other methods. HEAD answers as a GET without Range would (section 9.3.2)."""
    path, content, _ = file
    answer = get(server, path, b"Range: bytes=0-9\r\n", method=b"HEAD")
    assert answer.status == 200 and answer.body == b""
    assert answer.headers["content-length"] == str(len(content)) and "content-range" not in answer.headers


@pytest.mark.parametrize("value", [b"items=0-9", b"pages=1", b"bytes=0-1,5-6"])
def test_a_range_of_another_unit_or_of_several_parts_is_answered_whole(server, file, value):
    """RFC 9110 section 14.2: a server MUST ignore a range unit it does not understand; it MAY
    ignore any Range (several ranges would need multipart/byteranges): 200 with the whole
    file, never 416 for ranges it could satisfy."""
    path, content, _ = file
    answer = get(server, path, b"Range: " + value + b"\r\n")
    assert answer.status == 200 and answer.body == content


def test_an_unsatisfiable_range_is_416_with_the_length(server, file):
    """RFC 9110 section 15.5.17: a 416 to a byte-range request SHOULD carry Content-Range with
    the current length (``bytes */length``)."""
    path, content, _ = file
    answer = get(server, path, b"Range: bytes=%d-\r\n" % (len(content) + 10))
    assert answer.status == 416
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["type"] == "/problems/range-not-satisfiable"
    assert answer.headers["content-range"] == f"bytes */{len(content)}"


def test_if_range_with_the_current_strong_tag_gives_the_range(server, file):
    path, content, headers = file
    answer = get(server, path, b"Range: bytes=0-4\r\nIf-Range: " + headers["etag"].encode() + b"\r\n")
    assert answer.status == 206 and answer.body == content[:5]


@pytest.mark.parametrize("validator", ["weak tag", "other tag", "later date", "earlier date"])
def test_if_range_that_does_not_hold_gives_the_whole_file(server, file, validator):
    """RFC 9110 section 13.1.5: an entity tag holds only by the strong comparison (a weak tag
    never does), a date only when it is exactly Last-Modified; otherwise the Range is
    ignored: 200 with the whole file."""
    path, content, headers = file
    modified = email.utils.parsedate_to_datetime(headers["last-modified"])
    value = {"weak tag": "W/" + headers["etag"], "other tag": '"another"',
             "later date": email.utils.format_datetime(modified + timedelta(days=1), usegmt=True),
             "earlier date": email.utils.format_datetime(modified - timedelta(days=1), usegmt=True)}[validator]
    answer = get(server, path, b"Range: bytes=0-4\r\nIf-Range: " + value.encode() + b"\r\n")
    assert answer.status == 200 and answer.body == content


def test_if_none_match_comes_before_the_range(server, file):
    """RFC 9110 section 13.2.2: If-None-Match (step 3) is evaluated before Range and If-Range
    (step 5): a representation the client has is 304, range or not."""
    path, _, headers = file
    for fields in (b"Range: bytes=0-4\r\n", b"Range: bytes=999999999-\r\n"):
        answer = get(server, path, fields + b"If-None-Match: " + headers["etag"].encode() + b"\r\n")
        assert answer.status == 304 and answer.body == b""
        assert answer.headers["etag"] == headers["etag"] and "content-range" not in answer.headers


@pytest.mark.parametrize("field, status", [("If-None-Match", 304), ("If-Match", 412)])
def test_a_weak_tag_matches_if_none_match_but_not_if_match(server, file, field, status):
    """RFC 9110 sections 13.1.1 and 13.1.2: If-Match compares strongly, If-None-Match weakly."""
    path, _, headers = file
    weak = "W/" + headers["etag"]
    answer = get(server, path, f"{field}: {weak}\r\n".encode())
    assert answer.status == status


def test_if_unmodified_since_before_the_last_change_is_412(server, file):
    """RFC 9110 section 13.1.4: an origin server MUST NOT perform the method when the file
    changed after the date given (step 2 of section 13.2.2, when there is no If-Match)."""
    path, _, headers = file
    modified = email.utils.parsedate_to_datetime(headers["last-modified"])
    earlier = email.utils.format_datetime(modified - timedelta(days=1), usegmt=True).encode()
    answer = get(server, path, b"If-Unmodified-Since: " + earlier + b"\r\n")
    assert answer.status == 412
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["type"] == "/problems/precondition-failed"
    assert answer.headers["etag"] == headers["etag"]
    same = get(server, path, b"If-Unmodified-Since: " + headers["last-modified"].encode() + b"\r\n")
    assert same.status == 200


def test_a_not_modified_answer_carries_the_validators_and_caching_of_the_full_one(server, file):
    """RFC 9110 section 15.4.5: a 304 carries the Cache-Control, Date, ETag, Expires and Vary
    the 200 would, and no content."""
    path, _, headers = file
    answer = get(server, path, b"If-None-Match: " + headers["etag"].encode() + b"\r\n")
    assert answer.status == 304 and answer.body == b""
    for name in ("cache-control", "etag", "vary"):
        assert answer.headers.get(name) == headers.get(name), name
    for name in ("date", "expires"):   # (each the time of its own answer)
        assert (name in answer.headers) == (name in headers), name
