"""Prometheus metrics, served at ``GET /metrics`` in the text exposition format.

Under gunicorn every worker writes its metrics to ``PROMETHEUS_MULTIPROC_DIR`` (set by
referee/gunicorn_conf.py) and ``/metrics`` merges them, so the figures are the service's
whatever worker answers. Without that variable (one process, tests) the process's own
registry is served.

- ``referee_requests_total{operation, game, status}``: answers, by operation (the view's
  name: ``adjudicate``, ``post_move``...), game id (``-`` when none) and HTTP status;
- ``referee_request_duration_seconds{operation, game}``: latency histogram;
- ``referee_verdicts_total{game, legal}``: verdicts of adjudicate and match moves;
- ``referee_store_errors_total``: requests the match store did not answer (each a 503).
"""

from __future__ import annotations

import os
import time
from typing import Any

from flask import Request, Response, g
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

from referee.api.body.parsing import Blueprint
from referee.games import GAMES

REQUESTS = Counter("referee_requests_total", "HTTP answers by operation, game and status",
                   ["operation", "game", "status"])
DURATION = Histogram("referee_request_duration_seconds", "Time to answer, by operation and game",
                     ["operation", "game"],
                     buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5))
VERDICTS = Counter("referee_verdicts_total", "Verdicts given, legal or not", ["game", "legal"])
STORE_ERRORS = Counter("referee_store_errors_total", "Requests the match store did not answer (503)")

metrics_blp = Blueprint("metrics", __name__, description="Prometheus metrics")
_EXAMPLE = ('# HELP referee_requests_total HTTP answers by operation, game and status\n'
            '# TYPE referee_requests_total counter\n'
            'referee_requests_total{game="catatac",operation="adjudicate",status="200"} 12.0\n'
            '# HELP referee_store_errors_total Requests the match store did not answer (503)\n'
            '# TYPE referee_store_errors_total counter\n'
            'referee_store_errors_total 0.0\n')


@metrics_blp.route("/metrics")
@metrics_blp.doc(operationId="getMetrics", responses={200: {
    "description": "Prometheus text format (version 0.0.4): requests by operation, game and status, latency "
                   "histograms, verdicts, match store errors; merged over every worker",
    "content": {"text/plain": {"schema": {"type": "string"}, "example": _EXAMPLE}}}})
def metrics():
    """Metrics of the whole service (every gunicorn worker), Prometheus text format."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=directory)
    else:
        registry = REGISTRY
    return Response(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)


def name_game(game_id: str) -> None:
    """Name the request's game for the request metrics, where the path does not (a match's
    game is known once its snapshot is read)."""
    g.metrics_game = game_id


def count_verdict(game_id: str, legal: bool) -> None:
    """Count a verdict (and name the request's game for the request metrics)."""
    name_game(game_id)
    key = (game_id, legal)
    counter = _VERDICT_CHILDREN.get(key)
    if counter is None:
        counter = _VERDICT_CHILDREN[key] = VERDICTS.labels(game_id, "true" if legal else "false")
    counter.inc()


_VERDICT_CHILDREN: dict[tuple[str, bool], Counter] = {}  # game ids are the registered games


def count_store_error() -> None:
    STORE_ERRORS.inc()


def _labels(req: Request, request_globals: Any) -> tuple[str, str]:
    endpoint = req.endpoint
    if endpoint is None:
        return "unknown", "-"
    blueprint, _, view = endpoint.rpartition(".")
    game = request_globals.get("metrics_game") or (blueprint if blueprint in GAMES else "-")
    return view, game


def _children(operation: str, game: str, status: int) -> tuple:
    """The labelled request counter and latency histogram of an answer (``labels()`` checks
    and looks its arguments up under a lock on every call; the children never change)."""
    key = (operation, game, status)
    found = _CHILDREN.get(key)
    if found is None:
        found = (REQUESTS.labels(operation, game, str(status)), DURATION.labels(operation, game))
        if len(_CHILDREN) < _CHILDREN_KEPT:
            _CHILDREN[key] = found
    return found


_CHILDREN: dict[tuple[str, str, int], tuple] = {}
_CHILDREN_KEPT = 4096  # label sets are few (operations x games x statuses); a bound all the same


def start_timer(request_globals: Any) -> None:
    """Before each request (``request_globals``: flask.g)."""
    request_globals.metrics_started = time.perf_counter()


def record(response: Response, req: Request, request_globals: Any) -> Response:
    """After each request: count the answer and its latency, by operation and game."""
    started = request_globals.get("metrics_started")
    if started is not None:
        requests, duration = _children(*_labels(req, request_globals), response.status_code)
        requests.inc()
        duration.observe(time.perf_counter() - started)
    return response
