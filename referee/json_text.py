"""JSON text as Referee reads and writes it, over HTTP and on the command line.

Reading is strict JSON (RFC 8259). Python's ``json`` module accepts two things JSON does not
have: the literals ``NaN``, ``Infinity`` and ``-Infinity``, and ``\\uD800``-style escapes of lone
surrogates (no Unicode character; such a string cannot even be written back as UTF-8). Both
are refused here. Writing is canonical: sorted keys, no spaces, UTF-8 (same value, same bytes).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import orjson

from referee.limits import MAX_JSON_CONTAINERS

# An escaped surrogate (paired or not); only bodies holding one need the full check.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")
# The shape of a body: every digit made "0", each of ".", "e" and "E" made ".", every other
# byte "x"; two plain substring searches then find what may be a number with a fraction or an
# exponent (a digit then one of those), or an integer orjson would read as a float (19 digits
# or more). One search of "0." costs half of three searches of "0.", "0e" and "0E" in a body
# of digits only made "0" (many false starts).
_SHAPE = bytes(ord("0") if ord("0") <= byte <= ord("9") else ord(".") if byte in b".eE" else ord("x")
               for byte in range(256))
_LONG_INTEGER = b"0" * 19


def _may_hold_float(data: bytes) -> bool:
    """Whether ``data`` may hold a float or a big integer (strings may give false alarms)."""
    shape = data.translate(_SHAPE)
    return b"0." in shape or _LONG_INTEGER in shape


def ascii_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits (``str.isdigit()`` also admits other
    scripts' digits and "²", which a header, a query number or a port is never written as)."""
    return text.isascii() and text.isdigit()


# The messages of the two faults found here rather than by the JSON reader.
NOT_JSON_CONSTANT = "NaN and Infinity are not JSON"
LONE_SURROGATE = "a string holds a lone surrogate (no Unicode character)"
# A JSON string, or one of the constants Python's reader takes (outside strings).
_STRING_OR_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)', re.DOTALL)
# An escape in a string: a surrogate's \uXXXX (its code unit in the group), or any other.
_ESCAPE = re.compile(r"\\(?:u([dD][89a-fA-F][0-9a-fA-F]{2})|.)", re.DOTALL)


def _no_constant(name: str) -> Any:
    raise ValueError(NOT_JSON_CONSTANT)


def _constant_at(text: str) -> int:
    """Where the first NaN, Infinity or -Infinity outside a string starts in ``text``, which is
    JSON up to there (as the reader found it)."""
    for found in _STRING_OR_CONSTANT.finditer(text):
        if found.group(1):
            return found.start(1)
    return 0


def _lone_surrogate_at(text: str) -> int:
    """Where the first escape of a lone surrogate starts in ``text``, a JSON text (escapes are
    found in its strings only: a backslash is nowhere else): a high one not followed at once by
    a low one's escape, or a low one alone."""
    pending, pending_end = None, -1
    for found in _ESCAPE.finditer(text):
        unit = found.group(1)
        if pending is not None:
            if unit and unit[1] in "cdefCDEF" and found.start() == pending_end:
                pending = None   # a pair: one character
                continue
            return pending
        if unit and unit[1] in "89abAB":
            pending, pending_end = found.start(), found.end()
        elif unit:
            return found.start()
    return 0 if pending is None else pending


def error_place(error: ValueError) -> tuple[int, int, int]:
    """``(line, column, byte offset)`` of a reading error of :func:`strict_loads`
    (``json.JSONDecodeError`` or ``UnicodeDecodeError``): line and column from 1, the column in
    characters; the offset from 0, in bytes of the UTF-8 text. ``(1, 1, 0)`` for another error."""
    if isinstance(error, UnicodeDecodeError):
        data, start = error.object, error.start
        line_start = data.rfind(b"\n", 0, start) + 1
        return data.count(b"\n", 0, start) + 1, len(data[line_start:start].decode("utf-8", "replace")) + 1, start
    if isinstance(error, json.JSONDecodeError):
        return error.lineno, error.colno, len(error.doc[:error.pos].encode("utf-8", "surrogatepass"))
    return 1, 1, 0


class NumberTooLong(ValueError):
    """A JSON integer of more digits than Python converts (``sys.get_int_max_str_digits``, a
    bound against quadratic conversion): valid JSON that the service does not read."""

    def __init__(self, limit: int):
        super().__init__(f"an integer of more than {limit} digits")
        self.limit = limit


class TooManyContainers(ValueError):
    """A JSON text of more arrays and objects than any request needs (``MAX_JSON_CONTAINERS``):
    read, each would cost the worker its objects and their collection, about 0.6 s for a body
    of 400,000 nested lists within the body limit."""

    def __init__(self, limit: int):
        super().__init__(f"more than {limit:,} arrays and objects")
        self.limit = limit


def _bounded_int(literal: str) -> int:
    limit = sys.get_int_max_str_digits()
    if limit and len(literal) - literal.startswith("-") > limit:
        raise NumberTooLong(limit)
    return int(literal)


def _counting_float(on_float):
    def parse_float(literal: str) -> float:
        on_float()
        return float(literal)
    return parse_float


def strict_loads(data: bytes | str, on_float=None) -> Any:
    """``json.loads`` without NaN/Infinity and without lone surrogates; ``on_float()`` is called
    for each number with a fraction or an exponent.

    Raises ``json.JSONDecodeError`` (or ``UnicodeDecodeError`` for bytes that are not UTF-8),
    placed at the fault (:func:`error_place`), and NumberTooLong for an integer of more digits
    than Python converts.

    Bytes with no float (nor any big integer) are read by orjson, about four times faster; it
    rejects NaN, Infinity and lone surrogates itself. Any body orjson refuses, and any body
    that may hold a float, is read by ``json`` as below, so that the value and the errors
    stay those of ``json``.

    Raises TooManyContainers, before any parsing, for a text of more than
    ``MAX_JSON_CONTAINERS`` opening brackets and braces (those inside strings count too: no
    request needs that many of either)."""
    array, obj = (b"[", b"{") if isinstance(data, bytes) else ("[", "{")
    if data.count(array) + data.count(obj) > MAX_JSON_CONTAINERS:
        raise TooManyContainers(MAX_JSON_CONTAINERS)
    if isinstance(data, bytes) and not _may_hold_float(data):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    parse_float = None if on_float is None else _counting_float(on_float)
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=parse_float, parse_int=_bounded_int)
    except ValueError as error:
        if isinstance(error, (json.JSONDecodeError, NumberTooLong)):
            raise
        raise json.JSONDecodeError(NOT_JSON_CONSTANT, text, _constant_at(text)) from None
    if _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise json.JSONDecodeError(LONE_SURROGATE, text, _lone_surrogate_at(text)) from None
    return value


def loads(text: str) -> Any:
    """A JSON text this service wrote itself (a stored state or log entry, written by
    :func:`dumps`), read by orjson, about four times faster than ``json``. A text with 19
    digits in a row (what may be an integer beyond 64 bits, which orjson reads as a float) and
    one orjson refuses are read by ``json``: the value is the one ``json`` reads."""
    data = text.encode("utf-8", "surrogatepass")
    if _LONG_INTEGER not in data.translate(_SHAPE):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def dumps(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, UTF-8 text (same value, same bytes).

    orjson writes it about ten times faster than ``json``, with the same bytes for every value
    a game produces (strings escaped alike, keys sorted by code point); what orjson refuses
    (non-string keys, integers beyond 64 bits, lone surrogates) is written by ``json``."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def dumps_bytes(value: Any) -> bytes:
    """:func:`dumps` as UTF-8 bytes (an HTTP body: no decoding to text and encoding back)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class _Members(dict):
    """An object as read by :func:`repeated_name`: its members (the last value of a repeated
    name, as ``json`` keeps it) and the first name it repeats (None: none)."""

    repeated: str | None = None


def _members(pairs: list[tuple[str, Any]]) -> _Members:
    members = _Members()
    for name, value in pairs:
        if name in members and members.repeated is None:
            members.repeated = name
        members[name] = value
    return members


def repeated_name(data: bytes | str) -> str | None:
    """The JSON pointer of the first member whose name its object already has (RFC 8259
    section 4: parsers differ on which value counts), depth first (an object's own repetition
    before its members'); None when every object's names are unique. ``data`` is a JSON text
    :func:`strict_loads` has read."""
    stack: list[tuple[str, Any]] = [("", json.loads(data, object_pairs_hook=_members))]
    while stack:   # depth first, in document order, without recursion (a text may nest deep)
        base, value = stack.pop()
        if isinstance(value, _Members):
            if value.repeated is not None:
                return f"{base}/{_token(value.repeated)}"
            stack.extend(reversed([(f"{base}/{_token(name)}", item) for name, item in value.items()]))
        elif isinstance(value, list):
            stack.extend(reversed([(f"{base}/{index}", item) for index, item in enumerate(value)]))
    return None


def _token(name: str) -> str:
    """``name`` as a JSON pointer token (RFC 6901 section 3)."""
    return name.replace("~", "~0").replace("/", "~1")
