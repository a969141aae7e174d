"""Benchmarks of the stateless referee (docs/performance.md). A script, not a test.

    python bench/bench_stateless.py [--game scratch-and-catch] [--seconds 10] [--workers 2]
        [--threads 2] [--connections 8] [--skip-http] [--json out.json]
    python bench/bench_stateless.py --instructions [--baseline REV] [--game ...]

1. In process: adjudications per second (moves of random games, state check included) and
   complete random games per second (setup, then legal-moves + adjudicate until the end).
2. Over HTTP, in one run: POST /v1/games/<game>/adjudicate under gunicorn, against a minimal
   Flask endpoint that parses and echoes the same JSON body (the floor); both servers run
   ``gunicorn -c gunicorn.conf.py`` (the floor only swaps the WSGI app), so they share the
   service's worker class, workers, keep-alive and preload; the load comes from wrk (a
   separate process), in alternating rounds; the figures are the median requests per second
   of each, their ratio, and a worker's resident memory.
3. With ``--instructions``: instructions per in-process adjudication counted by callgrind (a
   busy machine does not change them), of this tree and of ``--baseline``: what a change of
   the engine bought.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import servers  # noqa: E402

if "--code" in sys.argv:  # the source tree of another revision (see --baseline), imported first
    sys.path.insert(0, sys.argv[sys.argv.index("--code") + 1])

from referee.games import GAMES  # noqa: E402

IN_PROCESS_AIM = 50_000
HTTP_AIM = 0.85

ECHO_APP = textwrap.dedent('''
    from flask import Flask, Response, request
    import json
    app = Flask(__name__)

    @app.post("/echo")
    def echo():
        body = request.get_json()
        return Response(json.dumps(body, sort_keys=True, separators=(",", ":")), content_type="application/json")
''')

WRK_SCRIPT = textwrap.dedent('''
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/json"
    local f = io.open(os.getenv("BENCH_BODY"), "rb")
    wrk.body = f:read("*a")
    f:close()
''')


def sample_positions(game, count: int, seed: str = "bench") -> list[tuple[dict, dict]]:
    """(state, move) pairs taken along random complete games."""
    rnd = random.Random(seed)
    pairs: list[tuple[dict, dict]] = []
    game_index = 0
    while len(pairs) < count:
        players = rnd.choice(game.player_counts)
        state = game.setup(players, f"{seed}-{game_index}", {})
        game_index += 1
        while not game.score(state)[1].finished and len(pairs) < count:
            moves = game.legal_moves(state)
            if not moves:
                break
            move = rnd.choice(moves)
            pairs.append((state, move))
            state = game.adjudicate(state, move, checked=True).state
    return pairs


def bench_in_process(game, seconds: float) -> dict:
    """Adjudications per second, state check included, by the wall clock and per second of
    this process's CPU time (the second is what a busy machine disturbs least); complete
    random games per second."""
    pairs = sample_positions(game, 2000)
    done, start, cpu_start = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds / 2:
        for state, move in pairs:
            game.adjudicate(state, move)
        done += len(pairs)
    adjudications = done / (time.perf_counter() - start)
    adjudications_cpu = done / (time.process_time() - cpu_start)
    rnd = random.Random(1)
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / 2:
        state = game.setup(rnd.choice(game.player_counts), f"g{games}", {})
        while True:
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.adjudicate(state, rnd.choice(moves)).state
        games += 1
    return {"adjudications_per_second": round(adjudications), "adjudications_per_cpu_second": round(adjudications_cpu),
            "games_per_second": round(games / (time.perf_counter() - start), 1)}


COUNTED_POSITIONS = 400


def _adjudicate_passes(game, passes: int) -> None:
    """Adjudicate COUNTED_POSITIONS positions once to warm up, then ``passes`` more times (what
    callgrind counts in :func:`instructions_per_adjudication`)."""
    pairs = sample_positions(game, COUNTED_POSITIONS, seed="counted")
    for _ in range(1 + passes):
        for state, move in pairs:
            game.adjudicate(state, move)


def instructions_per_adjudication(game_id: str, code: Path | None) -> int:
    """Instructions per in-process adjudication (state check included) of the tree ``code``
    (None: this one), counted by valgrind's callgrind: the difference of a run with 3 passes
    and one with 1, over 2 x COUNTED_POSITIONS adjudications. Python's string hashing is fixed
    (PYTHONHASHSEED=0) so that set and dict layouts, and the count, repeat."""
    extra = ["--code", str(code)] if code is not None else []
    with tempfile.TemporaryDirectory() as folder:
        once, thrice = (servers.callgrind_total([sys.executable, __file__, "--count-passes", str(passes), "--game",
                                                 game_id, *extra], Path(folder),
                                                env=dict(os.environ, PYTHONHASHSEED="0"))
                        for passes in (1, 3))
    return (thrice - once) // (2 * COUNTED_POSITIONS)


def in_process_against(game_id: str, baseline: str, rounds: int, seconds: float, revision: str | None = None) -> dict:
    """Adjudications per CPU second of this tree (or git ``revision``) and of git ``baseline``,
    each measured in its own process, alternating ``rounds`` times; the medians and their ratio."""
    rates: dict[str, list[float]] = {"tree": [], "baseline": []}
    with tempfile.TemporaryDirectory() as folder:
        code = servers.export_revision(baseline, Path(folder))
        tree = ["--code", str(servers.export_revision(revision, Path(folder), "tree"))] if revision else []
        for _ in range(rounds):
            for name, extra in (("tree", tree), ("baseline", ["--code", str(code)])):
                out = Path(folder) / "figures.json"
                subprocess.run([sys.executable, __file__, "--skip-http", "--game", game_id, "--in-process-seconds",
                                str(seconds), "--json", str(out), *extra], check=True, capture_output=True)
                rates[name].append(json.loads(out.read_text())[game_id]["adjudications_per_cpu_second"])
    tree, base = statistics.median(rates["tree"]), statistics.median(rates["baseline"])
    return {"in_process_cpu_tree": round(tree), "in_process_cpu_baseline": round(base),
            "in_process_over_baseline": round(tree / base, 3)}


def _wrk(url: str, body_path: str, seconds: int, threads: int, connections: int, script: str) -> tuple[float, int]:
    """(requests per second, requests answered) of one wrk run."""
    env = dict(os.environ, BENCH_BODY=body_path)
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "-s", script, url],
                         capture_output=True, text=True, env=env, check=True).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise RuntimeError(f"{url}: {errors.group(1)} error answers\n{out}")
    return (float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            int(re.search(r"(\d+) requests in", out).group(1)))


def bench_http(game, seconds: int, workers: int, threads: int, connections: int, rounds_count: int = 5,
               baseline: str | None = None, revision: str | None = None) -> dict:
    """Referee against the floor app, both under ``gunicorn -c gunicorn.conf.py`` (the floor
    only replaces the WSGI app), with REDIS_URL set to a private redis-server (the service's
    configuration asks for it with more than one worker; stateless requests never use it)."""
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed for the HTTP benchmark: apt-get install wrk")
    state, move = sample_positions(game, 40)[20]
    body = json.dumps({"state": state, "move": move})
    with tempfile.TemporaryDirectory() as folder:
        folder_path = Path(folder)
        (folder_path / "echo_app.py").write_text(ECHO_APP)
        (folder_path / "post.lua").write_text(WRK_SCRIPT)
        (folder_path / "body.json").write_text(body)
        redis_proc, redis_url = servers.start_redis(folder_path)
        started = {}
        plan = [("echo", "echo_app:app", "/echo", servers.ROOT),
                ("referee", None, f"/v1/games/{game.id}/adjudicate",
                 servers.export_revision(revision, folder_path, "tree") if revision else servers.ROOT)]
        if baseline:
            plan.append(("baseline", None, f"/v1/games/{game.id}/adjudicate",
                         servers.export_revision(baseline, folder_path)))
        try:
            for name, app, path, code in plan:
                port = servers.free_port()
                # Each server's output (its access log too) to a file: on a terminal, a line per
                # request would flood it, and a slow terminal would slow the server.
                started[name] = (servers.start_gunicorn(port, workers, redis_url, folder_path, app=app, code=code,
                                                        log=folder_path / f"{name}.log"),
                                 f"http://127.0.0.1:{port}{path}")
            run = lambda url, length: _wrk(url, str(folder_path / "body.json"), length, threads,  # noqa: E731
                                           connections, str(folder_path / "post.lua"))
            for _server, url in started.values():
                run(url, 2)  # warm-up
            # Alternate short rounds so that both see the same machine; keep the median of each.
            # Also the workers' CPU time per request (from /proc): on a machine shared with other
            # work it moves much less than requests per second.
            rounds: dict[str, list[float]] = {name: [] for name in started}
            cpu = {name: [0.0, 0] for name in started}
            for _ in range(rounds_count):
                for name, (server, url) in started.items():
                    workers_pids = servers.children(server.pid)
                    before = servers.cpu_seconds(workers_pids)
                    rate, count = run(url, max(1, seconds // rounds_count))
                    cpu[name][0] += servers.cpu_seconds(workers_pids) - before
                    cpu[name][1] += count
                    rounds[name].append(rate)
            results = {name: statistics.median(values) for name, values in rounds.items()}
            cpu_us = {name: used / max(count, 1) * 1e6 for name, (used, count) in cpu.items()}
            for name, (server, _url) in started.items():
                results[name + "_rss"] = max(servers.rss_kib(pid) for pid in servers.children(server.pid))
        finally:
            servers.stop(*(server for server, _url in started.values()), redis_proc)
    figures = {"body_bytes": len(body), "echo_rps": round(results["echo"]), "referee_rps": round(results["referee"]),
               "ratio": round(results["referee"] / results["echo"], 3),
               "echo_worker_rss_mib": round(results["echo_rss"] / 1024, 1),
               "referee_worker_rss_mib": round(results["referee_rss"] / 1024, 1),
               "echo_cpu_us": round(cpu_us["echo"]), "referee_cpu_us": round(cpu_us["referee"]),
               "cpu_ratio": round(cpu_us["echo"] / cpu_us["referee"], 3)}
    if baseline:
        figures.update({"baseline_rps": round(results["baseline"]),
                        "baseline_ratio": round(results["baseline"] / results["echo"], 3),
                        "referee_over_baseline": round(results["referee"] / results["baseline"], 3),
                        "baseline_cpu_us": round(cpu_us["baseline"])})
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every game)")
    parser.add_argument("--seconds", type=int, default=10, help="length of each HTTP measurement")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers for both servers (WEB_CONCURRENCY)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--connections", type=int, default=8, help="wrk connections")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--in-process-seconds", type=float, default=6)
    parser.add_argument("--code", help=argparse.SUPPRESS)
    parser.add_argument("--baseline-rounds", type=int, default=3, help="in-process rounds against --baseline")
    parser.add_argument("--revision", help="with --baseline: serve this git revision instead of the working tree")
    parser.add_argument("--baseline", metavar="REVISION",
                        help="also serve this git revision (same settings, alternating): what the changes since bought")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--instructions", action="store_true",
                        help="only count instructions per in-process adjudication (callgrind), of this tree and of "
                             "--baseline when given")
    parser.add_argument("--count-passes", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.count_passes is not None:  # a run under callgrind
        _adjudicate_passes(GAMES[args.game[0]], args.count_passes)
        return
    if args.instructions:
        with tempfile.TemporaryDirectory() as folder:
            baseline = servers.export_revision(args.baseline, Path(folder)) if args.baseline else None
            print("| game | instructions per adjudication, this tree"
                  + (f" | {args.baseline} | ratio |" if baseline else " |"))
            print("|---|---|" + ("---|---|" if baseline else ""))
            for game_id in args.game or list(GAMES):
                tree = instructions_per_adjudication(game_id, None)
                row = f"| {game_id} | {tree:,}"
                if baseline is not None:
                    base = instructions_per_adjudication(game_id, baseline)
                    row += f" | {base:,} | {tree / base:.3f}"
                print(row + " |", flush=True)
        print(f"\ncallgrind, PYTHONHASHSEED=0: (3 passes - 1 pass) over {COUNTED_POSITIONS} positions of random games, "
              "state check included")
        return
    report = {}
    print(servers.machine(), flush=True)
    if not args.skip_http:
        print("gunicorn settings (gunicorn.conf.py) for both servers:", servers.service_settings(args.workers),
              f"load: wrk -t{args.threads} -c{args.connections}", flush=True)
    for game_id in args.game or list(GAMES):
        game = GAMES[game_id]
        figures = bench_in_process(game, args.in_process_seconds)
        if args.baseline:
            figures.update(in_process_against(game_id, args.baseline, args.baseline_rounds, 4, args.revision))
        if not args.skip_http:
            figures.update(bench_http(game, args.seconds, args.workers, args.threads, args.connections,
                                      baseline=args.baseline, revision=args.revision))
        report[game_id] = figures
        print(game_id, json.dumps(figures), flush=True)
    print("\naims:")
    for game_id, figures in report.items():
        rate = figures["adjudications_per_second"]
        print(f"  {game_id}: in process {rate:,} adjudications/s (aim {IN_PROCESS_AIM:,}): "
              + ("met" if rate >= IN_PROCESS_AIM else "not met")
              + f"; per CPU second {figures['adjudications_per_cpu_second']:,}")
        if "ratio" in figures:
            print(f"  {game_id}: HTTP adjudicate / floor {figures['ratio']:.3f} (aim {HTTP_AIM}): "
                  + ("met" if figures["ratio"] >= HTTP_AIM else "not met")
                  + f"; worker CPU per request: floor {figures['echo_cpu_us']} us, "
                  f"referee {figures['referee_cpu_us']} us"
                  f" (floor / referee {figures['cpu_ratio']:.2f})")
        if "in_process_over_baseline" in figures:
            print(f"  {game_id}: in process, this tree / {args.baseline}: {figures['in_process_over_baseline']:.2f} "
                  f"({figures['in_process_cpu_tree']:,} / {figures['in_process_cpu_baseline']:,} adjudications "
                  "per CPU second, medians)")
        if "baseline_rps" in figures:
            print(f"  {game_id}: HTTP adjudicate, this tree / {args.baseline}: {figures['referee_over_baseline']:.2f} "
                  f"({figures['referee_rps']} / {figures['baseline_rps']} req/s); worker CPU per request "
                  f"{figures['referee_cpu_us']} / {figures['baseline_cpu_us']} us")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
