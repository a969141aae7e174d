"""Request metrics written in batches (referee/api/metrics_batch.py): the same figures as
writing each amount at once, held until a flush, written before /metrics answers and when a
worker exits."""

from __future__ import annotations

import random
import re
import signal
import socket
import urllib.request

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from referee.api import metrics
from referee.api.metrics_batch import Batch
from tests.edge.support import http, start_gunicorn


def _pair(registry: CollectorRegistry, prefix: str):
    counter = Counter(f"{prefix}_requests_total", "answers", ["operation"], registry=registry)
    histogram = Histogram(f"{prefix}_duration_seconds", "latency", ["operation"], registry=registry,
                          buckets=metrics.DURATION._upper_bounds[:-1])
    return counter, histogram


def _samples(registry: CollectorRegistry, prefix: str) -> list[str]:
    """The exposition's sample lines, the metric prefix taken out and the creation times left out."""
    return sorted(line.replace(prefix + "_", "") for line in generate_latest(registry).decode().splitlines()
                  if line.startswith(prefix) and "_created" not in line)


def test_a_batch_writes_what_each_amount_written_at_once_writes():
    registry = CollectorRegistry()
    direct_counter, direct_histogram = _pair(registry, "direct")
    held_counter, held_histogram = _pair(registry, "held")
    batch = Batch()
    batch.batching = True
    rnd = random.Random(14)
    bounds = list(metrics.DURATION._upper_bounds[:-1])
    # Amounts on every bound (a bucket's own upper bound belongs to it), just above, far above
    # the last, zero, and random ones.
    amounts = bounds + [bound * 1.0001 for bound in bounds] + [0.0, 7.5, 1e-9]
    amounts += [rnd.uniform(0, 3) for _ in range(500)]
    for amount in amounts:
        operation = rnd.choice(["adjudicate", "setup", "post_move"])
        direct_counter.labels(operation).inc()
        direct_histogram.labels(operation).observe(amount)
        batch.inc(held_counter.labels(operation))
        batch.observe(held_histogram.labels(operation), amount)
    assert _samples(registry, "held") != _samples(registry, "direct")   # held until the flush
    batch.flush()
    assert _samples(registry, "held") == _samples(registry, "direct")
    count = sum(float(line.rsplit(" ", 1)[1]) for line in _samples(registry, "held")
                if line.startswith("duration_seconds_count"))
    assert count == len(amounts)
    batch.flush()   # nothing held: nothing changes
    assert _samples(registry, "held") == _samples(registry, "direct")


def test_without_batching_every_amount_is_written_at_once():
    registry = CollectorRegistry()
    counter, histogram = _pair(registry, "now")
    batch = Batch()
    batch.inc(counter.labels("adjudicate"), 2)
    batch.observe(histogram.labels("adjudicate"), 0.003)
    text = "\n".join(_samples(registry, "now"))
    assert 'requests_total{operation="adjudicate"} 2.0' in text
    assert 'duration_seconds_bucket{le="0.0025",operation="adjudicate"} 0.0' in text
    assert 'duration_seconds_bucket{le="0.005",operation="adjudicate"} 1.0' in text


def _adjudicate_count(text: str) -> float:
    found = re.search(r'referee_requests_total\{game="scratch-and-catch",operation="adjudicate",status="200"\} (\S+)',
                      text)
    return float(found.group(1)) if found else 0.0


def test_a_worker_answers_its_own_figures_exactly_and_writes_what_it_holds_when_it_exits(tmp_path):
    """With a flush interval far longer than the test, the held counts reach /metrics and the
    metrics files only through the flush before /metrics answers and the flush at exit."""
    folder = tmp_path / "metrics"
    server = start_gunicorn(tmp_path, PROMETHEUS_MULTIPROC_DIR=str(folder), REFEREE_METRICS_FLUSH_SECONDS="600")
    try:
        base = server.base + "/v1/games/scratch-and-catch"
        state = http("POST", base + "/setup", {"players": 2, "seed": "batch"})[2]["state"]
        move = http("POST", base + "/legal-moves", {"state": state})[2]["moves"][0]
        for _ in range(7):
            assert http("POST", base + "/adjudicate", {"state": state, "move": move})[0] == 200
        status, _, _ = http("GET", server.base + "/healthz")
        assert status == 200
        with urllib.request.urlopen(server.base + "/metrics", timeout=5) as answer:
            assert _adjudicate_count(answer.read().decode()) == 7   # one worker: it answers, exact
        for _ in range(5):
            assert http("POST", base + "/adjudicate", {"state": state, "move": move})[0] == 200
    finally:
        server.stop()   # SIGTERM: the worker exits gracefully
    assert server.process.returncode == 0
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(folder))
    assert _adjudicate_count(generate_latest(registry).decode()) == 12


def test_outside_a_gevent_worker_nothing_is_held():
    """A sync worker's one thread blocks between requests, so no flush would come: start()
    leaves every amount written at once there (and in any process gevent has not patched)."""
    from gevent import monkey

    from referee.api import metrics_batch

    assert not monkey.is_module_patched("socket")
    metrics_batch.start(0.01)
    assert metrics_batch.BATCH.batching is False


def test_a_worker_kept_past_its_graceful_timeout_by_a_slow_body_has_written_its_counts(tmp_path):
    """A request whose body is still arriving (it may take REFEREE_BODY_TIMEOUT_SECONDS, 10)
    keeps a stopping gevent worker until gunicorn kills it at the end of its graceful timeout,
    so it never reaches worker_exit: once it is stopping, the flusher writes what is held
    (within a second) and the later amounts are written at once. (Event streams and long-polls
    no longer keep it: referee/api/stopping.py.)"""
    folder = tmp_path / "metrics"
    server = start_gunicorn(tmp_path, PROMETHEUS_MULTIPROC_DIR=str(folder), REFEREE_METRICS_FLUSH_SECONDS="600",
                            GUNICORN_CMD_ARGS="--graceful-timeout 3")
    stream = None
    try:
        stream = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        stream.sendall(b"POST /v1/games/scratch-and-catch/score HTTP/1.1\r\nHost: x\r\n"
                       b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")   # 1 byte of 100
        base = server.base + "/v1/games/scratch-and-catch"
        state = http("POST", base + "/setup", {"players": 2, "seed": "stream"})[2]["state"]
        move = http("POST", base + "/legal-moves", {"state": state})[2]["moves"][0]
        for _ in range(5):
            assert http("POST", base + "/adjudicate", {"state": state, "move": move})[0] == 200
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(20)
        assert "Worker exiting" not in server.log.read_text()   # killed at the timeout, never at worker_exit
    finally:
        if stream is not None:
            stream.close()
        server.stop()
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(folder))
    assert _adjudicate_count(generate_latest(registry).decode()) == 5
