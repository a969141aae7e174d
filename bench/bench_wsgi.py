"""Benchmark: CPU time of one stateless adjudicate through the whole WSGI app, without an HTTP
server or a load generator, for git revisions side by side (what each change bought).

Each revision (git archive) runs in its own process, in turn, ``--rounds`` times; each run
times ``--requests`` requests of a mid-game legal move per game (``time.process_time``). The
report gives the median microseconds per request of each revision and the ratio to the first.

    .venv/bin/python bench/bench_wsgi.py OLD NEW [NEWER...] [--rounds 5] [--requests 2000]
    .venv/bin/python bench/bench_wsgi.py OLD NEW [NEWER...] --instructions [--only healthz --only match-move]

``.`` names the working tree. ``--instructions`` counts instructions instead of timing
(valgrind's callgrind, which a busy machine does not disturb): each revision and game runs
twice under callgrind, with 100 and 600 requests after the warm-up, and the difference of
the two totals divided by 500 is the count per request.

The column ``healthz`` is a bare ``GET /healthz`` through the app, with the JSON access log
line gunicorn has the service's logger write after it (to /dev/null).

The column ``match-move`` is a legal move of a stored Scratch & Catch match (2 seats)
through the same app with a Redis store: a redis-server of its own, started by the script;
every request is the next move of one of the matches created before the timing starts, so
each is served from the worker's snapshot cache and committed in one script call, as a
keep-alive client's moves are. A revision that held its request metrics in memory
(referee/api/metrics_batch.py, before the plain-Python engine) holds them as its gevent
workers did.
"""

from __future__ import annotations

import argparse
import atexit
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

if __name__ == "__main__" and "--code" in sys.argv:  # a run inside one revision's tree
    sys.path.insert(0, sys.argv[sys.argv.index("--code") + 1])
sys.path.insert(1, str(ROOT / "bench"))

import servers  # noqa: E402


def measure(requests: int, only: str | None = None) -> dict:
    """Microseconds of CPU per adjudicate request, per game (``only``: that game), in this
    process's code."""
    from bench_stateless import sample_positions

    from referee.app import create_app
    from referee.games import GAMES

    app = create_app({"REFEREE_STORE": None})
    try:
        from referee.api.metrics_batch import BATCH
    except ImportError:   # a revision that writes every metric at once
        pass
    else:
        BATCH.batching = True   # as in a gevent worker (whose flush, once a second, is left out)
    figures = {}
    if only in (None, MATCH_MOVE):
        figures[MATCH_MOVE] = _measure_match_moves(requests)
    if only in (None, HEALTHZ):
        figures[HEALTHZ] = _measure_healthz(app, requests)
    for game_id, game in GAMES.items():
        if only is not None and game_id != only:
            continue
        state, move = sample_positions(game, 40)[20]
        body = json.dumps({"state": state, "move": move}).encode()
        environ = {"REQUEST_METHOD": "POST", "PATH_INFO": f"/v1/games/{game_id}/adjudicate", "SERVER_NAME": "bench",
                   "SERVER_PORT": "80", "wsgi.url_scheme": "http", "CONTENT_TYPE": "application/json",
                   "CONTENT_LENGTH": str(len(body)), "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "bench",
                   "wsgi.errors": sys.stderr}
        statuses = []

        def start_response(status, _headers, _exc=None):
            statuses.append(status)

        def one():
            env = dict(environ)
            env["wsgi.input"] = io.BytesIO(body)
            b"".join(app(env, start_response))

        for _ in range(200):
            one()
        assert all(s.startswith("200") for s in statuses), statuses[:3]
        began = time.process_time()
        for _ in range(requests):
            one()
        figures[game_id] = (time.process_time() - began) / requests * 1e6
    return figures


MATCH_MOVE = "match-move"
HEALTHZ = "healthz"


def _measure_healthz(app, requests: int) -> float:
    """Microseconds of CPU per bare ``GET /healthz``: the WSGI app, then the JSON access log
    line gunicorn has the service's logger write after the answer (to /dev/null)."""
    import datetime
    from types import SimpleNamespace

    from gunicorn.config import Config

    from referee.access_log import JsonAccessLogger

    config = Config()
    config.set("accesslog", os.devnull)
    logger = JsonAccessLogger(config)
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/healthz", "QUERY_STRING": "", "SERVER_NAME": "bench",
               "SERVER_PORT": "80", "wsgi.url_scheme": "http", "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "bench",
               "REMOTE_ADDR": "127.0.0.1", "HTTP_USER_AGENT": "bench", "wsgi.errors": sys.stderr}
    answer = SimpleNamespace(status=None, headers=None, sent=0)

    def start_response(status, headers, _exc=None):
        answer.status, answer.headers = status, headers

    def one():
        env = dict(environ)
        env["wsgi.input"] = io.BytesIO(b"")
        began = time.perf_counter()
        answer.sent = len(b"".join(app(env, start_response)))
        logger.access(answer, None, env, datetime.timedelta(seconds=time.perf_counter() - began))

    for _ in range(200):
        one()
    assert answer.status.startswith("200"), answer.status
    began = time.process_time()
    for _ in range(requests):
        one()
    return (time.process_time() - began) / requests * 1e6


def _measure_match_moves(requests: int) -> float:
    """Microseconds of CPU per legal match move (REDIS_URL: the script's own redis-server)."""
    from bench_roundtrip import App

    app = App()  # the store from REDIS_URL
    moves, _ = app.plan(requests + 200, "bench-wsgi-")
    app.run(moves[:200])
    began = time.process_time()
    app.run(moves[200:])
    return (time.process_time() - began) / requests * 1e6


def _callgrind_total(tree: Path, folder: Path, game_id: str, requests: int) -> int:
    """Instructions callgrind counts for one run of ``requests`` requests of ``game_id``."""
    return servers.callgrind_total([sys.executable, __file__, "--code", str(tree), "--json",
                                    str(folder / "ignored.json"), "--requests", str(requests), "--game", game_id],
                                   folder, cwd=tree)


def count_instructions(trees: dict[str, Path], folder: Path,
                       only: list[str] | None = None) -> dict[str, dict[str, int]]:
    """Instructions per request, per revision and column (``only``: those columns), the
    difference of 600 and 100 requests."""
    from referee.games import GAMES

    counts: dict[str, dict[str, int]] = {}
    for rev, tree in trees.items():
        counts[rev] = {game_id: (_callgrind_total(tree, folder, game_id, 600)
                                 - _callgrind_total(tree, folder, game_id, 100)) // 500
                       for game_id in only or [*GAMES, MATCH_MOVE, HEALTHZ]}
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revisions", nargs="*", default=["."])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--instructions", action="store_true", help="count instructions with callgrind instead")
    parser.add_argument("--only", action="append", help="with --instructions, this column only (repeatable)")
    parser.add_argument("--code", help=argparse.SUPPRESS)
    parser.add_argument("--json", help=argparse.SUPPRESS)
    parser.add_argument("--game", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        Path(args.json).write_text(json.dumps(measure(args.requests, args.game)))
        return
    with tempfile.TemporaryDirectory() as folder:
        redis_server, os.environ["REDIS_URL"] = servers.start_redis(Path(folder))  # for the match moves
        # Callgrind runs the code about 50 times slower: store timeouts that a loaded machine
        # under it cannot miss (a 503 would end the run).
        os.environ.setdefault("REDIS_SOCKET_TIMEOUT_SECONDS", "10")
        os.environ.setdefault("REFEREE_STORE_DEADLINE_SECONDS", "30")
        atexit.register(servers.stop, None, redis_server)
        trees = {rev: (ROOT if rev == "." else servers.export_revision(rev, Path(folder), f"tree{i}"))
                 for i, rev in enumerate(args.revisions)}
        if args.instructions:
            counts = count_instructions(trees, Path(folder), args.only)
            first = args.revisions[0]
            games = list(counts[first])
            print("| revision | "
                  + " | ".join(f"{g}, instructions per request (ratio to {first})" for g in games) + " |")
            print("|---" * (len(games) + 1) + "|")
            for rev in args.revisions:
                print(f"| {rev} | " + " | ".join(f"{counts[rev][g]:,} ({counts[rev][g] / counts[first][g]:.3f})"
                                                  for g in games) + " |")
            print("\ncallgrind: (instructions of 600 requests - of 100 requests) / 500, after 200 warm-up requests")
            return
        runs: dict[str, list[dict]] = {rev: [] for rev in trees}
        for _ in range(args.rounds):
            for rev, tree in trees.items():
                out = Path(folder) / "figures.json"
                subprocess.run([sys.executable, __file__, "--code", str(tree), "--json", str(out),
                                "--requests", str(args.requests)], check=True, cwd=tree)
                runs[rev].append(json.loads(out.read_text()))
    games = list(runs[args.revisions[0]][0])
    first = args.revisions[0]
    print(servers.machine() + "\n")
    print("| revision | " + " | ".join(f"{g}, us per request (ratio to {first})" for g in games) + " |")
    print("|---" * (len(games) + 1) + "|")
    for rev in args.revisions:
        cells = []
        for game in games:
            value = statistics.median(run[game] for run in runs[rev])
            base = statistics.median(run[game] for run in runs[first])
            cells.append(f"{value:.0f} ({value / base:.2f})")
        print(f"| {rev} | " + " | ".join(cells) + " |")
    print(f"\nmedians of {args.rounds} runs of {args.requests} requests per game, each run in its own process, in turn")


if __name__ == "__main__":
    main()
