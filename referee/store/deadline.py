"""One deadline per request for every call to the match store, all attempts included.

The HTTP layer opens a budget at the start of each request (:func:`open_budget`); the first
store call of the request starts its clock, and every later call and retry of the same
request shares what is left. Outside a request (command line, benchmarks) each store call
gets a deadline of its own. A context variable, so each thread or gevent greenlet has its own.
"""

from __future__ import annotations

import time
from contextvars import ContextVar


class Budget:
    """The deadline of one request (``time.monotonic()`` seconds; None until the first call)."""

    __slots__ = ("until",)

    def __init__(self) -> None:
        self.until: float | None = None


_budget: ContextVar[Budget | None] = ContextVar("referee_store_budget", default=None)


def open_budget() -> None:
    """Start a new request: its first store call starts the clock."""
    _budget.set(Budget())


def renew_budget() -> None:
    """After an intended wait (a long-poll): the request's next store call starts a new clock."""
    budget = _budget.get()
    if budget is not None:
        budget.until = None


def close_budget() -> None:
    _budget.set(None)


def deadline_for(seconds: float) -> float:
    """The monotonic time by which the current store call must be done: the request's deadline
    (started now if this is its first call), or ``seconds`` from now outside a request."""
    budget = _budget.get()
    if budget is None:
        return time.monotonic() + seconds
    if budget.until is None:
        budget.until = time.monotonic() + seconds
    return budget.until
