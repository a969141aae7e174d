"""The words of problems: English that can be said in Japanese, and what they may quote.

A :class:`Text` is a ``str``, its English words (a refusal reads the same wherever it is
printed), that keeps its msgid (the English template) and its parameters; :func:`said` gives it
in a language from the ``referee`` gettext catalog
(``referee/locale/<lang>/LC_MESSAGES/referee.po``). Messages that marshmallow and the games'
schemas write arrive as plain strings: :func:`said` translates those the catalog holds word for
word, and those that fit one of :data:`FOREIGN_TEMPLATES` (``Must be one of: {choices}.``),
whose parameters it keeps as they are. Anything else stays in English.

Whatever a message quotes of a request (a member name, a header value, a path) goes through
:func:`echo` first: at most ``MAX_ECHO`` characters, so an answer never grows with what was sent.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache
from typing import Any

from referee.i18n import DEFAULT_LANGUAGE, translate
from referee.limits import MAX_ECHO

DOMAIN = "referee"
ELLIPSIS = "\u2026"

# Parameterised messages written by marshmallow and the games' schemas (their English text is
# all that arrives): each is a msgid of the catalog, matched whole, its fields any text.
FOREIGN_TEMPLATES = (
    "Must be one of: {choices}.",
    "Must be equal to {other}.",
    "Must be greater than or equal to {min}.",
    "Must be greater than {min}.",
    "Must be less than or equal to {max}.",
    "Must be less than {max}.",
    "Must be greater than or equal to {min} and less than or equal to {max}.",
    "Shorter than minimum length {min}.",
    "Longer than maximum length {max}.",
    "Length must be between {min} and {max}.",
    "Length must be {equal}.",
    "At most {maximum} members.",
    "Must be an integer from {low} to {high}.",
    "its name: {message}",
    "A state of another game: this operation judges {game} states.",
    "only a play has {name}",
    "a {kind} has no {name}",
    "a {type} move names the cat",
    "a {type} move places no toys",
)


class Text(str):
    """``msgid.format(**params)``, the English words, remembering ``msgid`` and ``params``.

    With parameters, ``msgid`` is a :meth:`str.format` template (``{{`` for a brace); without,
    it is the words as they are. A parameter is a value written alike in every language, or a
    Text, said in the language of its sentence. Whatever a parameter quotes of a request must
    be :func:`echo`-ed by the caller."""

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, **params: Any) -> Text:
        text = super().__new__(cls, msgid.format(**params) if params else msgid)
        text.msgid = msgid
        text.params = params
        return text


def echo(value: Any, limit: int = MAX_ECHO) -> str:
    """``value`` as text (a str as it is), cut to ``limit`` characters, the last an ellipsis,
    when it is longer."""
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= limit else text[:limit - 1] + ELLIPSIS


def said(message: str, language: str) -> str:
    """``message`` in ``language``: a Text from its msgid's translation, its Text parameters said
    in ``language`` too; a plain string from the catalog's translation of it, or of the
    :data:`FOREIGN_TEMPLATES` it fits (its fields said in turn: ``its name: {message}``); else
    (and in English) the English words."""
    if language == DEFAULT_LANGUAGE:
        return str(message)
    if isinstance(message, Text) and message.params:
        params = {name: said(value, language) if isinstance(value, Text) else value
                  for name, value in message.params.items()}
        return translate(message.msgid, language, DOMAIN).format(**params)
    message = str(message)
    translated = translate(message, language, DOMAIN)
    if translated != message:
        return translated
    for pattern, msgid in _foreign_patterns():
        found = pattern.fullmatch(message)
        if found:
            params = {name: said(value, language) for name, value in found.groupdict().items()}
            return translate(msgid, language, DOMAIN).format(**params)
    return message


@lru_cache(maxsize=None)
def _foreign_patterns() -> tuple[tuple[re.Pattern, str], ...]:
    """Each of FOREIGN_TEMPLATES as a regular expression, one group per field, those with the
    most fixed words first ("Must be greater than or equal to {min} and less than or equal to
    {max}." before "Must be greater than or equal to {min}.", which it fits too)."""
    patterns = []
    for msgid in FOREIGN_TEMPLATES:
        parts, fixed = [], 0
        for literal, field, _spec, _conversion in string.Formatter().parse(msgid):
            parts.append(re.escape(literal))
            fixed += len(literal)
            if field is not None:
                parts.append(f"(?P<{field}>.+?)")
        patterns.append((fixed, re.compile("".join(parts), re.DOTALL), msgid))
    return tuple((pattern, msgid) for _, pattern, msgid in sorted(patterns, key=lambda found: -found[0]))
