"""Request bodies parsed as strict JSON (RFC 8259), and the Blueprint that uses it.

Python's ``json`` module accepts two things JSON does not have: the literals ``NaN``,
``Infinity`` and ``-Infinity``, and ``\\uD800``-style escapes of lone surrogates (no Unicode
character; such a string cannot even be written back as UTF-8). Both make the body invalid
JSON here, so they are answered 400 like any other unparseable body.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
import sys
from typing import Any, Callable

import flask
import flask_smorest
import orjson
from marshmallow import missing
from webargs.flaskparser import FlaskParser, is_json_request

from referee.api.transport import BODY_KEY
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


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


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

    Raises ``json.JSONDecodeError`` (or ``UnicodeDecodeError`` for bytes that are not UTF-8), and
    NumberTooLong for an integer of more digits than Python converts.

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
        raise json.JSONDecodeError(str(error), text, 0) from None
    if _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise json.JSONDecodeError("a string holds a lone surrogate (no Unicode character)", text,
                                       0) from None
    return value


# The environ key of the body read by read_json_body, once per request.
_READ_KEY = "referee.json_body"


def read_json_body(req: flask.Request) -> tuple[Any, bool]:
    """``(value, holds_float)`` of a JSON request body (``missing`` when the request is not
    JSON), read with :func:`strict_loads` from the bytes transport.read_body kept, once per
    request (the fast path and the parser ask in turn). Raises ValueError (``json.JSONDecodeError``, ``UnicodeDecodeError``) for a body that is not JSON."""
    if not is_json_request(req):
        return missing, False
    environ = req.environ
    read = environ.get(_READ_KEY)
    if read is not None:   # (a body the fast path refused is read again by the parser)
        return read
    floats: list = []
    data = environ.get(BODY_KEY)  # the body transport.read_body read, without werkzeug's stream again
    value = strict_loads(req.get_data(cache=True) if data is None else data, on_float=lambda: floats.append(True))
    read = environ[_READ_KEY] = (value, bool(floats))
    return read


class StrictJsonParser(FlaskParser):
    """webargs' Flask parser, reading JSON bodies with :func:`strict_loads`."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        value, holds_float = read_json_body(req)
        flask.g._get_current_object().body_has_float = holds_float  # read by FastNested: no float, no need to look
        return value


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with strict JSON bodies."""

    ARGUMENTS_PARSER = StrictJsonParser()


def with_fast_body(schema, documented: Callable, view: Callable[..., flask.Response]) -> Callable:
    """The view to route for ``documented`` (``view`` wrapped by ``Blueprint.arguments(schema)``
    and ``Blueprint.response``; its documentation is kept): a JSON body that ``schema`` takes
    whole through the compiled fast path (``schema.fast_load``, FastEnvelope) is handed to
    ``view`` directly, without the wrappers' work per request; any other body (one that does
    not parse, holds a float, or fails a check) goes through ``documented``, which answers as
    it always did. ``view`` must answer a Response (the response wrapper passes those through
    unchanged)."""

    @functools.wraps(documented)
    def routed(*args: Any, **kwargs: Any) -> flask.Response:
        req = flask.request._get_current_object()
        try:
            value, holds_float = read_json_body(req)  # what the parser reads
        except ValueError:  # not JSON, or not UTF-8: the full path answers the 400
            value, holds_float = missing, True
        flask.g._get_current_object().body_has_float = holds_float  # for the view's own loads (a match move's move)
        loaded = schema.fast_load(value, holds_float=holds_float) if value is not missing else None
        if loaded is None:
            return documented(*args, **kwargs)
        return view(*args, loaded, **kwargs)

    return routed


def fast_body(schema) -> Callable[[Callable], Callable]:
    """Decorator form of :func:`with_fast_body`, placed between ``Blueprint.route`` and the
    documenting decorators (``arguments`` with ``schema``, ``response``, ``doc``): the view they
    wrap is found through ``__wrapped__``."""
    def decorate(documented: Callable) -> Callable:
        return with_fast_body(schema, documented, inspect.unwrap(documented))
    return decorate
