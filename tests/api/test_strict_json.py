"""Strict JSON bodies (referee/api/body/parsing.py): orjson reads a body only when no number in it
may be a float or an integer beyond 64 bits; any other body is read by ``json``, which tells
the floats apart. The screen that decides must never miss such a number."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.json_text import _may_hold_float, dumps, error_place, loads, strict_loads

# A float in JSON: a digit followed by a fraction or an exponent (RFC 8259 section 6); an
# integer orjson reads as a float: 19 digits or more.
_FLOAT_OR_LONG = re.compile(rb"[0-9][.eE]|[0-9]{19}")

_BYTES = st.binary(max_size=60) | st.lists(st.sampled_from([b"0", b"7", b"9", b".", b"e", b"E", b"-", b'"', b",", b"x",
                                                              b"[", b"]", b"1234567890"]),
                                           max_size=40).map(b"".join)


@settings(max_examples=3000, deadline=None)
@given(_BYTES)
def test_the_screen_flags_exactly_a_digit_before_a_fraction_or_exponent_or_19_digits(data):
    assert _may_hold_float(data) == bool(_FLOAT_OR_LONG.search(data))


def test_bodies_with_and_without_floats():
    assert not _may_hold_float(b'{"hand": ["C8-1", "e"], "fleas": 15, "seed": "E."}')
    assert _may_hold_float(b'{"fleas": 1.0}')
    assert _may_hold_float(b'{"fleas": 1e2}')
    assert _may_hold_float(b'{"fleas": 2E-3}')
    assert _may_hold_float(b'{"fleas": 1234567890123456789}')
    assert not _may_hold_float(b'{"fleas": 123456789012345678}')


@settings(max_examples=500, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
                    max_leaves=20))
def test_strict_loads_reads_what_json_reads_and_counts_every_float(value):
    data = json.dumps(value).encode()
    floats: list = []
    loaded = strict_loads(data, on_float=lambda: floats.append(True))
    assert loaded == json.loads(data)
    assert len(floats) == _float_count(value)


@settings(max_examples=500, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.integers(min_value=2 ** 63 - 2, max_value=2 ** 70)
                    | st.integers(min_value=-(2 ** 70), max_value=-(2 ** 63) + 2)
                    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
                    max_leaves=20))
def test_a_stored_text_reads_back_as_the_value_written(value):
    """Stored states and log entries are written by dumps and read by loads (orjson, with json
    for what orjson does not read as json does): the same value, and the same types."""
    loaded = loads(dumps(value))
    assert loaded == value and dumps(loaded) == dumps(value)


def test_integers_beyond_64_bits_read_as_integers():
    # orjson reads an integer beyond 64 bits as a float: 2**64 = 18446744073709551616.
    assert loads("[18446744073709551616,-9223372036854775809]") == [2 ** 64, -(2 ** 63) - 1]
    assert type(loads("18446744073709551616")) is int
    assert loads("18446744073709551615") == 2 ** 64 - 1   # the largest orjson reads itself


def _float_count(value) -> int:
    if type(value) is float:
        return 1
    if type(value) is list:
        return sum(_float_count(item) for item in value)
    if type(value) is dict:
        return sum(_float_count(item) for item in value.values())
    return 0


def _place(data: bytes) -> tuple[int, int, int]:
    try:
        strict_loads(data)
    except ValueError as error:
        return error_place(error)
    raise AssertionError("read")


def test_faults_found_after_reading_are_placed_where_they_are():
    """NaN and lone surrogates are refused once Python's reader has read them, which does not
    say where: the error is placed at the constant, or at the escape of the lone surrogate
    (line, column in characters from 1, byte offset from 0; counted by hand)."""
    # "NaN" inside a string is text; the constant -Infinity is the 7th character of line 2,
    # 13 bytes after line 1's 12 and its newline: byte 19.
    assert _place(b'{"x": "NaN",\n "b": -Infinity}') == (2, 7, 19)
    # \\ud800 is an escaped backslash then "ud800"; the pair \ud83d\ude00 is one character;
    # the lone low surrogate \udc00 starts at character 30.
    assert _place(b'["\\\\ud800", "\\ud83d\\ude00", "\\udc00"]') == (1, 30, 29)
    # a high surrogate followed by text, not by a low one's escape
    assert _place(b'["\\ud83d\\ude00", "x\\ud83dy"]') == (1, 20, 19)
    # the 8th character, after an \u00e9 of two bytes in UTF-8: byte offset 8
    assert _place('["\u00e9", "\\ud800"]'.encode("utf-8")) == (1, 8, 8)
    # bytes that are not UTF-8: the first of them (line 2, after one space and a quote)
    assert _place(b'{"a":\n "\xff"}') == (2, 3, 8)
