"""The language of an answer's words (verdict messages, problem details): English or Japanese,
as ``Accept-Language`` prefers."""

from __future__ import annotations

from functools import lru_cache

from flask import request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from referee.i18n import DEFAULT_LANGUAGE, LANGUAGES


def language_of_request() -> str:
    """The language of messages: ``ja`` when Accept-Language prefers it, else ``en``.

    The caller's languages are taken in order of preference, each by its primary subtag
    (``ja-JP`` is Japanese, ``en-US`` English); the first we have wins, ``*`` means English.
    (werkzeug's ``best_match`` matches ``en`` exactly before it tries primary subtags, so
    ``ja-JP,en;q=0.9`` came out English and ``en-US,ja;q=0.5`` Japanese.)"""
    header = request.environ.get("HTTP_ACCEPT_LANGUAGE")
    return DEFAULT_LANGUAGE if header is None else _language_of(header)


@lru_cache(maxsize=256)
def _language_of(header: str) -> str:
    """The language of an Accept-Language value (callers send few distinct values)."""
    # werkzeug sorts "*" last whatever its quality: order by quality alone (stable).
    for value, quality in sorted(parse_accept_header(header, LanguageAccept), key=lambda item: -item[1]):
        if quality <= 0:
            continue
        primary = value.replace("_", "-").split("-", 1)[0].lower()
        if primary in LANGUAGES:
            return primary
        if primary == "*":
            return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE
