"""A bounded memo for pure functions of a state's options (checked on every state judged).

Keys are ``repr`` of JSON values: it tells apart every value JSON can hold (``1``, ``1.0``,
``True`` and ``"1"`` differ), so equal keys mean equal arguments. Only answers are kept;
a function that raises is called again next time. Long arguments (a caller's own catalogue)
are not kept, so the memo stays small whatever callers send.
"""

from __future__ import annotations

from typing import Any, Callable


MAX_KEY_CHARS = 1000


def options_memo(function: Callable[..., Any], size: int = 256) -> Callable[..., Any]:
    """``function(*json_values)`` remembered for up to ``size`` distinct arguments whose
    ``repr`` is at most MAX_KEY_CHARS long (the memo is emptied when full): at most about
    256 KB of keys. Callers must not mutate what it returns."""
    answers: dict[str, Any] = {}

    def remembered(*args: Any) -> Any:
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
