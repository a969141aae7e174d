"""Benchmark: a match move through Redis against a stateless adjudicate of the same move.

One gunicorn server (gunicorn.conf.py, sync workers, WEB_CONCURRENCY workers, REDIS_URL set)
answers both operations; load comes from separate processes, each with one keep-alive
http.client connection (re-opened when the server closes it, as sync workers do). The same
Scratch & Catch games are played both ways: each load process owns its matches and knows
every legal move in advance (the engine replays the seeded game locally), so every request
is a legal move at the right version, and the stateless run posts the very same moves with
the full state before each one. Runs alternate (stateless, match, stateless, match...) and
the report gives requests per second of each and the ratio match / stateless.

    /work/venv/bin/python bench/bench_matches.py [--seconds 5] [--rounds 2] [--workers 2]
        [--clients 2] [--players 2]

Starts its own redis-server on a free port unless REDIS_URL is set. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.games import GAMES  # noqa: E402

GAME_ID = "scratch-and-catch"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_port(port: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {port}")


class Client:
    """A keep-alive HTTP/1.1 connection that re-opens when the server closes it."""

    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body: bytes | None, headers: dict) -> tuple[int, bytes, dict]:
        for attempt in (0, 1):
            try:
                self.conn.request(method, path, body, headers)
                answer = self.conn.getresponse()
                data = answer.read()
                if answer.getheader("Connection", "").lower() == "close":
                    self.conn.close()
                return answer.status, data, dict(answer.getheaders())
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")


def plan_games(seeds: list[str], players: int) -> list[list[tuple[dict, dict]]]:
    """For each seed, the whole game as (state before, move) pairs, always the first legal move."""
    game = GAMES[GAME_ID]
    plans = []
    for seed in seeds:
        state = game.setup(players, seed, {})
        steps = []
        while True:
            moves = game.legal_moves(state)
            if not moves:
                break
            steps.append((state, moves[0]))
            state = game.adjudicate(state, moves[0], checked=True).state
        plans.append(steps)
    return plans


def load(kind: str, port: int, index: int, seconds: float, players: int, start_at: float, queue) -> None:
    """One load process: play its own games for ``seconds``; report (requests, errors)."""
    client = Client(port)
    json_headers = {"Content-Type": "application/json"}
    seeds = [f"bench-{kind}-{index}-{n}" for n in range(400)]
    plans = plan_games(seeds[:40], players)
    games = iter(range(len(seeds)))

    def new_game():
        n = next(games)
        if n >= len(plans):
            plans.extend(plan_games(seeds[len(plans):len(plans) + 20], players))
        steps = plans[n]
        if kind == "stateless":
            return None, None, steps
        body = json.dumps({"game": GAME_ID, "players": players, "seed": seeds[n]}).encode()
        status, data, _ = client.request("POST", "/v1/matches", body, json_headers)
        assert status == 201, data
        match = json.loads(data)
        return match["id"], [s["secret"] for s in match["seats"]], steps

    prepared = [new_game() for _ in range(3 if kind == "match" else 1)]
    requests = errors = 0
    while time.time() < start_at:
        time.sleep(0.001)
    end = start_at + seconds
    current = prepared.pop(0)
    step = 0
    while True:
        now = time.time()
        if now >= end:
            break
        match_id, match_secrets, steps = current
        if step >= len(steps):
            current = prepared.pop(0) if prepared else new_game()
            step = 0
            continue
        state, move = steps[step]
        if kind == "match":
            body = json.dumps({"move": move}).encode()
            headers = {**json_headers, "If-Match": f'"{step}"', "Authorization": f"Bearer {match_secrets[move['player']]}"}
            status, data, _ = client.request("POST", f"/v1/matches/{match_id}/moves", body, headers)
        else:
            body = json.dumps({"state": state, "move": move}).encode()
            status, data, _ = client.request("POST", f"/v1/games/{GAME_ID}/adjudicate", body, json_headers)
        if status != 200 or b'"legal":true' not in data:
            errors += 1
        requests += 1
        step += 1
    queue.put((requests, errors))


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of processes (Linux /proc), 0 where unreadable."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def run(kind: str, port: int, clients: int, seconds: float, players: int) -> tuple[float, int]:
    queue = multiprocessing.Queue()
    start_at = time.time() + 3.0  # time for each process to plan and create its first matches
    procs = [multiprocessing.Process(target=load, args=(kind, port, i, seconds, players, start_at, queue))
             for i in range(clients)]
    for proc in procs:
        proc.start()
    results = [queue.get(timeout=seconds + 120) for _ in procs]
    for proc in procs:
        proc.join()
    total = sum(r[0] for r in results)
    return total / seconds, sum(r[1] for r in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (WEB_CONCURRENCY)")
    parser.add_argument("--clients", type=int, default=2, help="load processes")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-matches-"))
    redis_proc = None
    url = os.environ.get("REDIS_URL")
    if not url:
        redis_port = free_port()
        redis_proc = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(redis_port), "--save", "",
                                       "--appendonly", "no", "--dir", str(tmp)], stdout=subprocess.DEVNULL)
        wait_port(redis_port)
        url = f"redis://127.0.0.1:{redis_port}/0"
    port = free_port()
    env = {**os.environ, "REDIS_URL": url, "WEB_CONCURRENCY": str(args.workers), "BIND": f"127.0.0.1:{port}",
           "GUNICORN_LOG_LEVEL": "warning"}
    server = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py"], cwd=ROOT,
                              env=env, stdout=(tmp / "gunicorn.log").open("wb"), stderr=subprocess.STDOUT)
    try:
        wait_port(port)
        rates: dict[str, list[float]] = {"stateless": [], "match": []}
        cpu: dict[str, list[float]] = {"stateless": [0.0, 0.0, 0], "match": [0.0, 0.0, 0]}
        errors = 0
        workers = children(server.pid)
        for _ in range(args.rounds):
            for kind in ("stateless", "match"):
                before = cpu_seconds(workers), cpu_seconds([redis_proc.pid] if redis_proc else [])
                rate, failed = run(kind, port, args.clients, args.seconds, args.players)
                after = cpu_seconds(workers), cpu_seconds([redis_proc.pid] if redis_proc else [])
                rates[kind].append(rate)
                errors += failed
                cpu[kind][0] += after[0] - before[0]
                cpu[kind][1] += after[1] - before[1]
                cpu[kind][2] += int(rate * args.seconds)
        stateless, match = statistics.mean(rates["stateless"]), statistics.mean(rates["match"])
        print(f"| operation | requests/s (mean of {args.rounds} runs of {args.seconds:g} s) | runs |")
        print("|---|---|---|")
        print(f"| POST /v1/games/{GAME_ID}/adjudicate (stateless) | {stateless:.0f} | "
              + ", ".join(f"{r:.0f}" for r in rates["stateless"]) + " |")
        print(f"| POST /v1/matches/{{id}}/moves (Redis) | {match:.0f} | "
              + ", ".join(f"{r:.0f}" for r in rates["match"]) + " |")
        print(f"\nratio match / stateless: {match / stateless:.2f}; failed or illegal answers: {errors}")
        for kind in ("stateless", "match"):
            worker_cpu, redis_cpu, count = cpu[kind]
            print(f"CPU per {kind} request (includes creating matches): gunicorn workers "
                  f"{worker_cpu / max(count, 1) * 1e6:.0f} us, redis-server {redis_cpu / max(count, 1) * 1e6:.0f} us")
        print(f"settings: {args.workers} sync workers, {args.clients} load processes, {args.players} players, "
              f"{os.cpu_count()} CPUs, Redis {url.split('@')[-1]}")
    finally:
        server.terminate()
        server.wait(10)
        if redis_proc is not None:
            redis_proc.terminate()
            redis_proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
