"""Benchmarks of the stateless referee (docs/benchmarks.md). A script, not a test.

    python bench/bench_stateless.py [--game scratch-and-catch] [--seconds 10] [--json out.json]

1. In process: adjudications per second (moves of random games, state check included) and
   complete random games per second (setup, then legal-moves + adjudicate until the end).
2. Over HTTP, in one run: POST /v1/games/<game>/adjudicate under gunicorn, against a minimal
   Flask endpoint that parses and echoes the same JSON body under the same gunicorn settings;
   the load comes from wrk (a separate process), in alternating rounds; the figures are the
   median requests per second of each, their ratio, and the servers' resident memory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.games import GAMES  # noqa: E402

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
    pairs = sample_positions(game, 2000)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / 2:
        for state, move in pairs:
            game.adjudicate(state, move)
        done += len(pairs)
    adjudications = done / (time.perf_counter() - start)
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
    return {"adjudications_per_second": round(adjudications), "games_per_second": round(games / (time.perf_counter() - start), 1)}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(app: str, port: int, workers: int, cwd: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(cwd) + os.pathsep + str(ROOT))
    env.pop("REDIS_URL", None)
    command = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
               "--worker-class", "sync", "--keep-alive", "5", "--log-level", "warning", app]
    server = subprocess.Popen(command, cwd=cwd, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=0.5)
        except urllib.error.HTTPError:
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"{app} did not start")


def _rss_kib(server: subprocess.Popen) -> int:
    """Resident memory of the gunicorn master and its workers, in KiB (Linux /proc)."""
    pids = [server.pid] + [int(p) for p in subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True,
                                                          text=True).stdout.split()]
    total = 0
    for pid in pids:
        status = Path(f"/proc/{pid}/status").read_text()
        total += int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
    return total


def _wrk(url: str, body_path: str, seconds: int, connections: int, script: str) -> float:
    env = dict(os.environ, BENCH_BODY=body_path)
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-s", script, url],
                         capture_output=True, text=True, env=env, check=True).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise RuntimeError(f"{url}: {errors.group(1)} error answers\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def bench_http(game, seconds: int, workers: int, connections: int, rounds_count: int = 5) -> dict:
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed for the HTTP benchmark: apt-get install wrk")
    state, move = sample_positions(game, 40)[20]
    body = json.dumps({"state": state, "move": move})
    with tempfile.TemporaryDirectory() as folder:
        folder_path = Path(folder)
        (folder_path / "echo_app.py").write_text(ECHO_APP)
        (folder_path / "post.lua").write_text(WRK_SCRIPT)
        (folder_path / "body.json").write_text(body)
        servers = {}
        try:
            for name, app, path in (("echo", "echo_app:app", "/echo"),
                                    ("referee", "referee.wsgi:app", f"/v1/games/{game.id}/adjudicate")):
                port = _free_port()
                servers[name] = (_start(app, port, workers, folder_path if name == "echo" else ROOT),
                                 f"http://127.0.0.1:{port}{path}")
            run = lambda url, length: _wrk(url, str(folder_path / "body.json"), length, connections,  # noqa: E731
                                           str(folder_path / "post.lua"))
            for _server, url in servers.values():
                run(url, 2)  # warm-up
            # Alternate short rounds so that both see the same machine; keep the median of each.
            rounds: dict[str, list[float]] = {"echo": [], "referee": []}
            for _ in range(rounds_count):
                for name, (_server, url) in servers.items():
                    rounds[name].append(run(url, max(1, seconds // rounds_count)))
            results = {name: statistics.median(values) for name, values in rounds.items()}
            for name, (server, _url) in servers.items():
                results[name + "_rss"] = _rss_kib(server)
        finally:
            for server, _url in servers.values():
                server.terminate()
                server.wait(timeout=15)
    return {"body_bytes": len(body), "echo_rps": round(results["echo"]), "referee_rps": round(results["referee"]),
            "ratio": round(results["referee"] / results["echo"], 3),
            "echo_rss_mib": round(results["echo_rss"] / 1024, 1), "referee_rss_mib": round(results["referee_rss"] / 1024, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every game)")
    parser.add_argument("--seconds", type=int, default=10, help="length of each HTTP measurement")
    parser.add_argument("--workers", type=int, default=1, help="gunicorn workers for both servers")
    parser.add_argument("--connections", type=int, default=4, help="wrk connections")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    report = {}
    for game_id in args.game or list(GAMES):
        game = GAMES[game_id]
        figures = bench_in_process(game, 6)
        if not args.skip_http:
            figures.update(bench_http(game, args.seconds, args.workers, args.connections))
        report[game_id] = figures
        print(game_id, json.dumps(figures), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
