"""A bounded memo for pure functions of a state's options (checked on every state judged).

Keys are the JSON text of the arguments (orjson, about a tenth of the cost of ``repr`` for a
Scratch & Catch deck): it tells apart every value JSON can hold (``1``, ``1.0``, ``true`` and
``"1"`` differ), so equal keys mean equal arguments. Some Python values share a JSON text: the
floats JSON cannot write (NaN, Infinity, -Infinity) and None are all ``null``, and a tuple and
a list look alike: arguments holding such a float are keyed by ``repr`` instead, and arguments
are JSON values, which have no tuples. Only answers are kept; a
function that raises is called again next time. Long arguments (a caller's own catalogue) are
not kept, so the memo stays small whatever callers send.
"""

from __future__ import annotations

from math import isfinite
from typing import Any, Callable

import orjson

MAX_KEY_CHARS = 1000


def _holds_non_finite(value: Any) -> bool:
    """Whether a NaN or an infinity lies anywhere in ``value`` (dicts, lists and tuples, to any
    depth: a stack of containers, so that a deep value cannot exhaust the interpreter's stack)."""
    kind = type(value)
    if kind is float:
        return not isfinite(value)
    if kind is not dict and kind is not list and kind is not tuple:
        return False
    pending: list[Any] = [value]
    while pending:
        container = pending.pop()
        for item in (container.values() if type(container) is dict else container):
            # Scalars inline: options are mostly flat, and a call per value cost more than the memo saved.
            kind = type(item)
            if kind is float:
                if not isfinite(item):
                    return True
            elif kind is dict or kind is list or kind is tuple:
                pending.append(item)
    return False


def options_memo(function: Callable[..., Any], size: int = 256) -> Callable[..., Any]:
    """``function(*json_values)`` remembered for up to ``size`` distinct arguments whose
    key is at most MAX_KEY_CHARS long (the memo is emptied when full): at most about
    256 KB of keys. Callers must not mutate what it returns."""
    answers: dict[Any, Any] = {}

    def remembered(*args: Any) -> Any:
        try:
            key: Any = orjson.dumps(args)
        except TypeError:   # not JSON (a key that is not a string, an integer over 64 bits)
            key = repr(args)
        else:
            # NaN and infinities write null, as None does.
            if b"null" in key and _holds_non_finite(args):
                key = repr(args)
        if len(key) > MAX_KEY_CHARS:
            return function(*args)
        answer = answers.get(key)
        if answer is None:
            answer = function(*args)
            if len(answers) >= size:
                answers.clear()
            answers[key] = answer
        return answer

    remembered.__doc__ = function.__doc__
    remembered.__wrapped__ = function  # type: ignore[attr-defined]
    return remembered
