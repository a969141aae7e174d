"""The deadline of a request's calls to the match store, all attempts included.

The HTTP layer opens a budget at the start of each request (:func:`open_budget`); a store
call starts its clock, and the retries and later calls of the same request share what is left
until Redis answers one of them: the store then starts the clock again (:func:`renew_budget`)
for the next call. So a Redis that stops answering costs a request about one deadline, while
the time a busy worker takes between two answered calls (hundreds of requests woken at once)
is not charged to Redis. Outside a request (command line, benchmarks) each store call gets a
deadline of its own. A context variable, so each thread or gevent greenlet has its own.
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
    """After a call Redis answered, or an intended wait (a long-poll): the request's next
    store call starts a new clock."""
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
