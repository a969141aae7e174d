"""Benchmark: what a match move's round trip to Redis costs, part by part, in one process.

No HTTP server and no load generator: requests go through the WSGI app directly, so the
figures are the application's own CPU (user + system time of this process, from getrusage).

1. Per request, in alternating rounds over the same Scratch & Catch moves (2 seats): a
   stateless adjudicate (the full state in the body), a match move with the commit to Redis
   replaced by a no-op (everything a match move does but the round trip), and a match move.
   The commit's own CPU and wall time inside the match moves are also printed.
2. One commit script call in a loop, outside the application, split into redis-py's steps:
   taking a connection from the pool, packing the command, sending it, reading the reply,
   giving the connection back; and a PING over a plain socket (the kernel's round trip).
3. redis-server's side: microseconds per call of the commit script and of the commands it
   runs (``INFO commandstats``).

    .venv/bin/python bench/bench_roundtrip.py [--requests 1000] [--rounds 5] [--pin]

``--pin``: redis-server alone on the last CPU (taskset) and this process on the first, so the
round trip's share is not mixed with the two sharing a CPU. Starts its own redis-server on a
free port and stops it. Prints Markdown.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import servers  # noqa: E402


def _cpu_us(before: resource.struct_rusage, after: resource.struct_rusage, count: int) -> float:
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) / count * 1e6


class App:
    """The WSGI app with the store of REDIS_URL, called without a server."""

    def __init__(self) -> None:
        from referee.app import create_app

        self.app = create_app({})
        self.statuses: list[str] = []

    def call(self, path: str, body: bytes, headers: dict) -> bytes:
        environ = {"REQUEST_METHOD": "POST", "PATH_INFO": path, "SERVER_NAME": "bench", "SERVER_PORT": "80",
                   "wsgi.url_scheme": "http", "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
                   "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "bench", "wsgi.errors": sys.stderr,
                   "wsgi.input": io.BytesIO(body),
                   **{"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()}}
        return b"".join(self.app(environ, lambda status, _headers, _exc=None: self.statuses.append(status)))

    def plan(self, count: int, seed_prefix: str) -> tuple[list[tuple], list[tuple]]:
        """``count`` match moves of new matches seeded ``seed_prefix`` + 0, 1... (each match's
        moves in order) and the same moves as stateless adjudicate requests."""
        from bench_matches import GAME_ID, plan_games

        moves: list[tuple] = []
        stateless: list[tuple] = []
        index = 0
        while len(moves) < count:
            seed = f"{seed_prefix}{index}"
            index += 1
            match = json.loads(self.call("/v1/matches", json.dumps({"game": GAME_ID, "players": 2,
                                                                     "seed": seed}).encode(), {}))
            seats = [seat["secret"] for seat in match["seats"]]
            for version, (state, move) in enumerate(plan_games([seed], 2)[0]):
                moves.append((f"/v1/matches/{match['id']}/moves", json.dumps({"move": move}).encode(),
                              {"If-Match": f'"{version}"', "Authorization": f"Bearer {seats[move['player']]}"}))
                stateless.append((f"/v1/games/{GAME_ID}/adjudicate",
                                  json.dumps({"state": state, "move": move}).encode(), {}))
        return moves[:count], stateless[:count]

    def run(self, requests: list[tuple]) -> float:
        """CPU microseconds per request (user + system); every answer must be 200."""
        self.statuses.clear()
        before = resource.getrusage(resource.RUSAGE_SELF)
        for request in requests:
            self.call(*request)
        after = resource.getrusage(resource.RUSAGE_SELF)
        assert self.statuses == ["200 OK"] * len(requests), set(self.statuses)
        return _cpu_us(before, after, len(requests))


def in_app(requests: int, rounds: int) -> dict:
    """Part 1: stateless, match move with a no-op commit, match move (CPU per request)."""
    from referee.store import Commit

    app = App()
    store = app.app.extensions["referee.store"]
    real_commit = store.commit
    spent = {"cpu": 0.0, "wall": 0.0, "calls": 0}

    def no_commit(match_id, expected, state, entry, now, key=None, stored=None, head=None):
        return Commit("ok", expected + 1, head="no-op")  # the cache follows; the store stays at 0

    def timed_commit(*args, **kwargs):
        cpu, wall = time.thread_time(), time.perf_counter()
        try:
            return real_commit(*args, **kwargs)
        finally:
            spent["cpu"] += time.thread_time() - cpu
            spent["wall"] += time.perf_counter() - wall
            spent["calls"] += 1

    total = requests * rounds + 200
    moves, stateless = app.plan(total, "roundtrip-real-")
    stub_moves, _ = app.plan(total, "roundtrip-stub-")  # other matches: their cached versions run ahead of the store
    figures: dict[str, list[float]] = {"stateless": [], "no-op commit": [], "match move": []}
    store.commit = timed_commit
    app.run(moves[:200])
    app.run(stateless[:200])
    store.commit = no_commit
    app.run(stub_moves[:200])
    spent.update(cpu=0.0, wall=0.0, calls=0)
    for round_index in range(rounds):
        part = slice(200 + round_index * requests, 200 + (round_index + 1) * requests)
        figures["stateless"].append(app.run(stateless[part]))
        store.commit = timed_commit
        figures["match move"].append(app.run(moves[part]))
        store.commit = no_commit
        figures["no-op commit"].append(app.run(stub_moves[part]))
    store.commit = real_commit
    return {"figures": figures, "commit_cpu_us": spent["cpu"] / spent["calls"] * 1e6,
            "commit_wall_us": spent["wall"] / spent["calls"] * 1e6}


def commit_parts(url: str, calls: int) -> dict:
    """Part 2: one commit script call split into redis-py's steps (thread CPU microseconds)."""
    from referee.store.redis import RedisStore, key_order_key, keys_of, versions_key

    store = RedisStore(url)
    state = json.dumps({"x": "y" * 1100})   # a Scratch & Catch state's size
    entry = json.dumps({"e": "z" * 400})    # a log entry's
    store.create("parts", "{}", state, time.time())
    client = store.client()
    pool = client.connection_pool
    script = store._scripts["commit"]
    client.script_load(script.script)
    keys = [*keys_of("parts"), versions_key("parts"), key_order_key("parts")]
    clock = time.thread_time
    parts = dict.fromkeys(("take a connection", "pack", "send", "read the reply", "give it back"), 0.0)
    for version in range(calls):
        args = [version, state, entry, "1.0", 604800000, "", "", f"token{version}", 16, "-", 100]
        t0 = clock()
        connection = pool.get_connection()
        t1 = clock()
        packed = connection.pack_command("EVALSHA", script.sha, len(keys), *keys, *args)
        t2 = clock()
        connection.send_packed_command(packed)
        t3 = clock()
        answer = connection.read_response()
        t4 = clock()
        pool.release(connection)
        t5 = clock()
        assert answer[0] == "ok", answer
        for name, spent in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
            parts[name] += spent
    host, port = url.split("//")[1].split("/")[0].split(":")
    with socket.create_connection((host, int(port))) as raw:
        start = clock()
        for _ in range(calls):
            raw.sendall(b"*1\r\n$4\r\nPING\r\n")
            raw.recv(64)
        ping = (clock() - start) / calls * 1e6
    stats = client.info("commandstats")
    store.close()
    figures = {name: spent / calls * 1e6 for name, spent in parts.items()}
    figures["ping over a plain socket"] = ping
    return {"parts": figures, "commandstats": stats}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1000, help="requests per round and kind")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pin", action="store_true", help="redis-server on the last CPU, this process on the first")
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    machine = servers.machine()  # (before --pin narrows this process to one CPU)
    with tempfile.TemporaryDirectory() as folder:
        redis_proc, url = servers.start_redis(Path(folder), cpus=str(cpus[-1]) if args.pin else None)
        try:
            if args.pin:
                os.sched_setaffinity(0, {cpus[0]})
            os.environ["REDIS_URL"] = url
            app = in_app(args.requests, args.rounds)
            import redis

            redis.Redis.from_url(url).config_resetstat()
            parts = commit_parts(url, args.requests * 3)
        finally:
            servers.stop(redis_proc)
    where = "redis-server alone on the last CPU, this process on the first" if args.pin else "both on every CPU"
    print(machine + "\n")
    print(f"Scratch & Catch, 2 seats; {args.rounds} rounds of {args.requests} requests per kind, alternating; "
          f"{where}\n")
    print("| request | CPU per request, us (median) | rounds |\n|---|---|---|")
    for name, values in app["figures"].items():
        print(f"| {name} | {statistics.median(values):.0f} | {', '.join(f'{v:.0f}' for v in values)} |")
    print(f"\nthe commit inside the match moves: {app['commit_cpu_us']:.0f} us of CPU, {app['commit_wall_us']:.0f} us "
          "wall per call\n")
    print("| one commit call alone, in a loop | thread CPU us |\n|---|---|")
    for name, value in parts["parts"].items():
        print(f"| {name} | {value:.1f} |")
    stats = parts["commandstats"]
    print("\n| redis-server | calls | us per call |\n|---|---|---|")
    for name in sorted(stats, key=lambda n: -stats[n]["usec"]):
        print(f"| {name.removeprefix('cmdstat_')} | {stats[name]['calls']} | {stats[name]['usec_per_call']} |")


if __name__ == "__main__":
    main()
