"""Request metrics kept in the worker's memory and written to prometheus_client in batches.

Under gunicorn every metric value lives in a memory-mapped file of the worker
(prometheus_client's multiprocess mode), so that ``GET /metrics`` in any worker can merge
them all. Each ``inc`` and ``observe`` there takes a lock and writes the file: about 1.1 and
2.3 us, three of them per answer (docs/benchmarks.md, fourteenth pass). Once :func:`start`
has run in a gevent worker, :class:`Batch` adds the amounts to dicts instead (0.1 us) and a
greenlet writes them all every ``seconds`` (REFEREE_METRICS_FLUSH_SECONDS, default 1, read
by referee/gunicorn_conf.py); the worker also writes them before it
serves ``/metrics`` and when it exits.

What this changes for a reader of ``/metrics``: the figures of the answering worker are
exact; another worker's are at most ``seconds`` old, and a worker killed outright
(SIGKILL, or gunicorn's timeout) loses at most that much of its counts. Counters stay
monotonic. Until :func:`start` (one process, a sync worker, tests) every amount is written
at once, as before.
"""

from __future__ import annotations

import logging
from bisect import bisect_left
from typing import Any

_log = logging.getLogger(__name__)


class Batch:
    """Amounts for prometheus_client children (a labelled Counter's or Histogram's
    ``labels(...)``), held until :meth:`flush` while ``batching`` is on.

    The histogram's batch is written through its child's own per-bucket values (``_sum``,
    ``_buckets``, ``_upper_bounds``, which prometheus_client has no public name for), bucket
    for bucket as ``observe`` would have written them: tests/edge/test_metrics_batch.py checks
    that the exposition is the same, and would fail on a release that renamed them."""

    def __init__(self) -> None:
        self.batching = False
        self._counts: dict[Any, float] = {}
        self._observations: dict[Any, list] = {}   # child -> [sum, count per bucket...]

    def inc(self, child: Any, amount: float = 1.0) -> None:
        """``child.inc(amount)``, now or at the next flush."""
        if not self.batching:
            child.inc(amount)
            return
        counts = self._counts
        counts[child] = counts.get(child, 0.0) + amount

    def observe(self, child: Any, amount: float) -> None:
        """``child.observe(amount)`` (seconds), now or at the next flush."""
        if not self.batching:
            child.observe(amount)
            return
        pending = self._observations.get(child)
        if pending is None:
            pending = self._observations[child] = [0.0] + [0] * len(child._upper_bounds)
        pending[0] += amount
        # observe's bucket: the first whose upper bound is at least the amount (the last is +Inf)
        pending[1 + bisect_left(child._upper_bounds, amount)] += 1

    def flush(self) -> None:
        """Write every held amount (a no-op when nothing is held)."""
        counts, self._counts = self._counts, {}
        observations, self._observations = self._observations, {}
        for child, amount in counts.items():
            child.inc(amount)
        for child, pending in observations.items():
            child._sum.inc(pending[0])
            for bucket, count in zip(child._buckets, pending[1:]):
                if count:
                    bucket.inc(count)


BATCH = Batch()


def start(seconds: float = 1.0, worker: Any = None) -> None:
    """In a gevent worker, after the fork (gunicorn's ``post_worker_init``, ``worker`` its
    gunicorn worker): hold the amounts and write them every ``seconds`` from a greenlet.
    Elsewhere nothing changes: a sync worker has no greenlet to flush with, and its one
    thread blocks between requests.

    Once the worker is stopping (``worker.alive`` false: SIGTERM, SIGHUP, SIGQUIT), what is
    held is written within a second and later amounts at once: a worker that still serves
    long-polls when its graceful timeout ends is killed, and never reaches ``worker_exit``
    (event streams no longer keep it: they end when it stops, referee/api/stopping.py)."""
    from gevent import monkey, spawn, sleep

    if not monkey.is_module_patched("socket"):
        return
    step = min(seconds, 1.0)

    def flush_now_and_then() -> None:
        waited = 0.0
        while worker is None or worker.alive:
            sleep(step)
            waited += step
            if waited < seconds:
                continue
            waited = 0.0
            try:
                BATCH.flush()
            except Exception:   # noqa: BLE001 - a full disk must not stop the metrics for good
                _log.exception("Referee: the request metrics could not be written")
        stop()

    BATCH.batching = True
    spawn(flush_now_and_then)


def stop() -> None:
    """When the worker exits (gunicorn's ``worker_exit``): write what is held, and stop holding."""
    BATCH.batching = False
    BATCH.flush()
