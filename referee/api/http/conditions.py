"""Conditional requests on matches (RFC 9110 section 13): If-Match on moves, If-None-Match on
reads. The match's version is its strong entity tag, written ``"3"``."""

from __future__ import annotations

import re

from flask import Response, request

from referee.api.http.problems import ProblemError
from referee.service.matches import etag
from referee.service.texts import Text, echo

_VERSION = re.compile(r"^(0|[1-9][0-9]{0,17})$")  # exactly as a match's ETag writes it
# Section 8.8.3: entity-tag = [ W/ ] DQUOTE *etagc DQUOTE, in a comma-separated list.
_ENTITY_TAG = r'(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"'
_ENTITY_TAGS = re.compile(rf"^[ \t]*(?:,[ \t]*)*{_ENTITY_TAG}(?:[ \t]*,(?:[ \t]*{_ENTITY_TAG})?)*[ \t]*$")
_TAG = re.compile(r'(W/)?"([^"]*)"')
# The same list in the contract, ASCII only (JSON Schema patterns are ECMA-262 regexes).
IF_MATCH_PATTERN = r'^(W/)?"[\x21\x23-\x7e]*"([ \t]*,[ \t]*(W/)?"[\x21\x23-\x7e]*")*$'


def if_match() -> tuple[frozenset[int], list[str], ProblemError | None]:
    """What If-Match names: the versions of its strong tags, its weak tags, and the 400 to raise
    (once the seat's secret is checked) when it is not a list of quoted entity tags (section
    8.8.3: ``"1"``, not ``1``).

    Section 13.1.1: If-Match uses the strong comparison, so a weak tag (``W/"1"``) never
    matches; the condition holds when a strong tag names the current version. Raises 428
    without the header (or with ``*``). An empty set of versions means 412."""
    header = request.environ.get("HTTP_IF_MATCH")  # the header, read directly
    match = echo((request.view_args or {}).get("match_id", "{id}"))
    if header is None:
        raise ProblemError(428, Text('A move needs If-Match with the ETag of the version it was chosen on: read '
                                     'the match (GET /v1/matches/{match}) and send the move with its ETag, such as '
                                     'If-Match: "3".', match=match))
    if header.strip() == "*":
        raise ProblemError(428, Text('If-Match: * is not taken for moves: send the ETag of the version the move '
                                     'was chosen on, such as If-Match: "3" (GET /v1/matches/{match} gives it).',
                                     match=match))
    if not _ENTITY_TAGS.match(header):
        return frozenset(), [], ProblemError(
            400, Text('If-Match must list entity tags in double quotes, as the ETag header gives them (RFC 9110 '
                      'section 8.8.3); the value sent, {sent}, is not one. Send the ETag exactly as given, quotes '
                      'included, such as If-Match: "3".',
                      sent=echo(header.strip())),
            [("/headers/If-Match", Text("not a list of quoted entity tags"))], title="Malformed header",
            slug="malformed-header")
    strong, weak = set(), []
    for weak_prefix, tag in _TAG.findall(header):
        if weak_prefix:
            weak.append(f'W/"{tag}"')
        elif _VERSION.match(tag):
            strong.add(int(tag))
    return frozenset(strong), weak, None


def not_modified(version: int) -> bool:
    """Whether If-None-Match names ``version`` (section 13.1.2: weak comparison; ``*`` matches
    any current match): the read is then answered 304."""
    condition = request.if_none_match
    return bool(condition) and condition.contains_weak(str(version))


def private(response: Response, version: int) -> Response:
    """Headers of an answer that depends on who asks (the seat's secret) and on the version:
    ``Cache-Control: private, no-cache``, ``Vary: Authorization`` and the version's ETag."""
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Vary"] = "Authorization"
    response.headers["ETag"] = etag(version)
    return response
