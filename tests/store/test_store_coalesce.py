"""Request coalescing (referee/store/coalesce.py): concurrent reads of one key share a call,
none gets a result older than its own arrival, and a failure reaches every caller waiting."""

from __future__ import annotations

import threading
import time

import pytest

from referee.store.coalesce import Coalescer


class _Gate:
    """A store call that blocks until opened, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0
        self.opened = threading.Event()
        self.entered = threading.Event()

    def __call__(self):
        self.calls += 1
        number = self.calls
        self.entered.set()
        assert self.opened.wait(10)
        return number


def _in_threads(count: int, target) -> tuple[list[threading.Thread], list]:
    results: list = []
    threads = [threading.Thread(target=lambda: results.append(target())) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads, results


def _until(condition, seconds: float = 5.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end
        time.sleep(0.005)


def test_callers_arriving_during_a_call_share_the_next_one():
    coalescer, gate = Coalescer(), _Gate()
    first, first_results = _in_threads(1, lambda: coalescer.run("m", gate))
    assert gate.entered.wait(5)
    # Ten callers arrive while call 1 runs: they must not get its result (it began before
    # them), so they queue, and all of them share call 2.
    arrived: list[int] = []

    def later_caller():
        arrived.append(1)
        return coalescer.run("m", gate)

    later, later_results = _in_threads(10, later_caller)
    _until(lambda: len(arrived) == 10)
    time.sleep(0.1)  # from arrival to the queue is a lock taken and a dict entry: no waiting
    assert gate.calls == 1
    gate.opened.set()
    for thread in first + later:
        thread.join(10)
    assert first_results == [1]
    assert later_results == [2] * 10
    assert gate.calls == 2
    assert coalescer._running == {} and coalescer._next == {}


def test_a_caller_alone_gets_a_call_of_its_own_and_keys_do_not_mix():
    coalescer = Coalescer()
    counts = {"a": 0, "b": 0}

    def read(key):
        counts[key] += 1
        return key, counts[key]

    assert coalescer.run("a", lambda: read("a")) == ("a", 1)
    assert coalescer.run("a", lambda: read("a")) == ("a", 2)   # no call running: a new read
    assert coalescer.run("b", lambda: read("b")) == ("b", 1)


def test_a_failed_call_fails_its_callers_and_the_queued_ones_without_another_call():
    coalescer, gate = Coalescer(), _Gate()

    def failing():
        gate()
        raise ConnectionError("store down")

    errors: list[BaseException] = []

    def attempt():
        try:
            coalescer.run("m", failing)
        except ConnectionError as error:
            errors.append(error)

    first, _ = _in_threads(1, attempt)
    assert gate.entered.wait(5)
    queued, _ = _in_threads(5, attempt)
    _until(lambda: "m" in coalescer._next)
    time.sleep(0.05)
    gate.opened.set()
    for thread in first + queued:
        thread.join(10)
    assert [str(error) for error in errors] == ["store down"] * 6
    # An exception of its own each: one object raised in every caller would gather their frames.
    assert len({id(error) for error in errors}) == 6
    assert gate.calls == 1
    with pytest.raises(ConnectionError):   # the next caller, alone, tries again
        coalescer.run("m", failing)
    assert gate.calls == 2


class _Stop(BaseException):
    """An interruption that is not an error (a killed greenlet, a time limit)."""


class _InterruptibleEvent:
    """The running call's event, whose first ``wait`` is interrupted once ``interrupt`` is set."""

    def __init__(self, event: threading.Event) -> None:
        self.event, self.interrupt, self.interrupted = event, threading.Event(), False

    def wait(self, timeout=None):
        if not self.interrupted:
            self.interrupted = True
            assert self.interrupt.wait(10)
            raise _Stop()
        return self.event.wait(timeout)

    def set(self):
        self.event.set()


def _stopped_caller(coalescer: Coalescer, call) -> tuple[threading.Thread, list]:
    """A thread calling ``coalescer.run("m", call)``, which notes "stopped" when interrupted."""
    outcomes: list = []

    def caller():
        try:
            coalescer.run("m", call)
        except _Stop:
            outcomes.append("stopped")

    thread = threading.Thread(target=caller)
    thread.start()
    return thread, outcomes


def test_an_interrupted_leader_leaves_its_callers_to_read_again():
    """The caller leading the queued call is interrupted while it waits for the running one:
    the callers queued with it neither hang nor get its interruption; they read again, after
    the running call, and the key is left clean."""
    coalescer, gate = Coalescer(), _Gate()
    first, first_results = _in_threads(1, lambda: coalescer.run("m", gate))
    assert gate.entered.wait(5)
    running = coalescer._running["m"]
    running.done = _InterruptibleEvent(running.done)
    leader, outcomes = _stopped_caller(coalescer, gate)
    _until(lambda: "m" in coalescer._next)
    followers, follower_results = _in_threads(3, lambda: coalescer.run("m", gate))
    time.sleep(0.1)
    running.done.interrupt.set()
    leader.join(10)
    assert outcomes == ["stopped"]
    time.sleep(0.1)
    gate.opened.set()
    for thread in first + followers:
        thread.join(10)
        assert not thread.is_alive()
    assert first_results == [1] and follower_results == [2, 2, 2]
    assert coalescer._running == {} and coalescer._next == {}


def test_a_leader_interrupted_during_its_call_leaves_its_callers_to_read_again():
    coalescer, gate = Coalescer(), _Gate()

    def interrupted():
        gate()
        raise _Stop()

    first, outcomes = _stopped_caller(coalescer, interrupted)
    assert gate.entered.wait(5)
    calls_before = gate.calls
    followers, follower_results = _in_threads(3, lambda: coalescer.run("m", lambda: ("read", gate.calls)))
    _until(lambda: "m" in coalescer._next)
    time.sleep(0.1)
    gate.opened.set()
    for thread in [first, *followers]:
        thread.join(10)
    assert outcomes == ["stopped"]
    assert follower_results == [("read", calls_before)] * 3   # one read of their own, shared
    assert coalescer._running == {} and coalescer._next == {}
