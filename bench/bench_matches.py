"""Benchmark: a match move through Redis against a stateless adjudicate of the same move.

One gunicorn server (``gunicorn -c gunicorn.conf.py``: the service's settings, worker class
included; WEB_CONCURRENCY workers, REDIS_URL set) answers both operations; load comes from
separate processes, each with one keep-alive http.client connection (re-opened when the
server closes it, as sync workers do). The same Scratch & Catch games are played both ways:
each load process owns its matches and knows every legal move in advance (the engine replays
the seeded game locally), so every request is a legal move at the right version, and the
stateless run posts the very same moves with the full state before each one. Runs alternate
(stateless, match, stateless, match...) and the report gives requests per second of each and
the ratio match / stateless. A second configuration pins redis-server alone on the last CPU
with taskset (gunicorn and the load on the others), so the share of the round trip shows.

    .venv/bin/python bench/bench_matches.py [--seconds 5] [--rounds 2] [--workers 2]
        [--clients 2] [--players 2] [--no-pinned] [--load wrk [--connections 8] [--requests 2500]] [--floors]
        [--baseline REVISION]

``--load wrk``: the load is wrk instead (the load generator of ``bench_stateless.py``, whose
own CPU is a small share of the machine's, where 8 Python processes take much of it and pull
the ratio towards 1), with ``--connections`` threads of one connection each; each connection
sends a file of prepared requests in order (its own games, the matches created before the
timed run), so every request is again a legal move at the right version.

``--floors``: two more servers with the same settings and the same Redis play the same match
moves with the commit replaced (bench/match_floors.py): by nothing (a match move without any
round trip), then by one PING over a plain socket (one wait for Redis per move, as the
store's commit makes). Their ratios to the stateless adjudicate show how much of the aim the round trip itself
leaves; the store stays at version 0 for them, and each worker's snapshot cache follows (so a
move reaching a worker without the match cached, after a connection is opened again, is a
cheap 412 there: read the failed answers of each server before its rate).

``--baseline REVISION``: one more server, of that git revision's source tree (bench/servers.py
export_revision: a revision from before the plain-Python engine is compiled in place when the
running Python has mypy; the report says whether it is), with the same Redis and the same number
of workers, plays the same match moves: its ratio beside this tree's, measured in the same
run (both over this tree's stateless runs), is what the changes since bought. It runs that
revision's own gunicorn settings (gunicorn.conf.py reads referee/gunicorn_conf.py of the tree
it serves), and runs last in each round, after the floors.

Starts its own redis-server on a free port unless REDIS_URL is set. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "bench"))

import servers  # noqa: E402

from referee.games import GAMES  # noqa: E402

MATCH_AIM = 0.8

GAME_ID = "scratch-and-catch"


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


def load(kind: str, port: int, index: int, seconds: float, players: int, start_at: float, queue,
         cpus: set[int] | None = None) -> None:
    """One load process: play its own games for ``seconds``; report (requests, errors)."""
    if cpus:
        os.sched_setaffinity(0, cpus)
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
            headers = {**json_headers, "If-Match": f'"{step}"',
                       "Authorization": f"Bearer {match_secrets[move['player']]}"}
            status, data, _ = client.request("POST", f"/v1/matches/{match_id}/moves", body, headers)
        else:
            body = json.dumps({"state": state, "move": move}).encode()
            status, data, _ = client.request("POST", f"/v1/games/{GAME_ID}/adjudicate", body, json_headers)
        if status != 200 or b'"legal":true' not in data:
            errors += 1
        requests += 1
        step += 1
    queue.put((requests, errors))


# wrk's Lua: each thread (one connection) sends the requests of its own file in order, so the
# moves of a match arrive one after another; every answer but a legal move's 200 is counted.
WRK_SEQUENCE = r"""
local threads, count = {}, 0
function setup(thread)
  thread:set("id", count)
  count = count + 1
  table.insert(threads, thread)
end
local queue, at = {}, 1
bad = 0  -- a global: done() reads it with thread:get
function init(args)
  local f = assert(io.open(os.getenv("BENCH_REQUESTS") .. "/" .. id .. ".http", "rb"))
  local data = f:read("*a")
  f:close()
  local i = 1
  while i <= #data do
    local newline = data:find("\n", i, true)
    local length = tonumber(data:sub(i, newline - 1))
    table.insert(queue, data:sub(newline + 1, newline + length))
    i = newline + length + 1
  end
end
function request()
  local r = queue[at]
  if r == nil then r = queue[#queue] end  -- out of requests: sent again, and answered 412 (counted)
  at = at + 1
  return r
end
function response(status, headers, body)
  if status ~= 200 or not body:find('"legal":true', 1, true) then bad = bad + 1 end
end
function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("bad") end
  io.write(string.format("bad answers: %d\n", total))
end
"""


def _raw_request(port: int, path: str, body: bytes, headers: dict) -> bytes:
    lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Content-Type: application/json",
             f"Content-Length: {len(body)}", *(f"{name}: {value}" for name, value in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def _adjudicate_request(port: int, state: dict, move: dict) -> bytes:
    return _raw_request(port, f"/v1/games/{GAME_ID}/adjudicate",
                        json.dumps({"state": state, "move": move}).encode(), {})


def run_wrk_prepared(kind: str, port: int, args, round_index: int, folder: Path,
                     cpus: set[int] | None = None) -> Callable[[], tuple[float, int]]:
    """Prepare one wrk run of ``kind``: ``args.connections`` wrk threads of one connection
    each, every connection playing its own games (``args.requests`` moves each; the matches
    created now). Returns the run itself, which gives (requests per second, bad answers)."""
    connections, seconds, players, per_connection = args.connections, args.seconds, args.players, args.requests
    client = Client(port)
    requests_dir = folder / f"wrk-{kind}-{round_index}"
    requests_dir.mkdir(parents=True, exist_ok=True)
    for connection in range(connections):
        chunks, n = [], 0
        while n < per_connection:
            seed = f"wrk-{round_index}-{connection}-{len(chunks)}"
            steps = plan_games([seed], players)[0]
            if kind == "match":
                body = json.dumps({"game": GAME_ID, "players": players, "seed": seed}).encode()
                status, data, _ = client.request("POST", "/v1/matches", body, {"Content-Type": "application/json"})
                assert status == 201, data
                match = json.loads(data)
                match_secrets = [s["secret"] for s in match["seats"]]
            raw = []
            for step, (state, move) in enumerate(steps):
                if kind == "match":
                    raw.append(_raw_request(port, f"/v1/matches/{match['id']}/moves",
                                            json.dumps({"move": move}).encode(),
                                            {"If-Match": f'"{step}"',
                                             "Authorization": f"Bearer {match_secrets[move['player']]}"}))
                else:
                    raw.append(_adjudicate_request(port, state, move))
            if not chunks:
                # First, one stateless adjudicate (for either kind): a request wrk takes and loses
                # (a connection it opens again) is that one, not the first move of a match.
                raw.insert(0, _adjudicate_request(port, *steps[0]))
            chunks.append(b"".join(str(len(r)).encode() + b"\n" + r for r in raw))
            n += len(raw)
        (requests_dir / f"{connection}.http").write_bytes(b"".join(chunks))
    script = folder / "sequence.lua"
    script.write_text(WRK_SEQUENCE)
    command = ["wrk", f"-t{connections}", f"-c{connections}", f"-d{seconds:g}s", "-s", str(script),
               f"http://127.0.0.1:{port}/"]
    if cpus:
        command = ["taskset", "-c", ",".join(map(str, sorted(cpus)))] + command

    def start() -> tuple[float, int]:
        done = subprocess.run(command, capture_output=True, text=True,
                              env=dict(os.environ, BENCH_REQUESTS=str(requests_dir)))
        if done.returncode:
            raise RuntimeError(f"wrk failed: {done.stderr or done.stdout}")
        out = done.stdout
        shutil.rmtree(requests_dir, ignore_errors=True)
        rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        return rate, int(re.search(r"bad answers: (\d+)", out).group(1))
    return start


def run(kind: str, port: int, clients: int, seconds: float, players: int,
        cpus: set[int] | None = None) -> tuple[float, int]:
    queue = multiprocessing.Queue()
    start_at = time.time() + 3.0  # time for each process to plan and create its first matches
    procs = [multiprocessing.Process(target=load, args=(kind, port, i, seconds, players, start_at, queue, cpus))
             for i in range(clients)]
    for proc in procs:
        proc.start()
    results = [queue.get(timeout=seconds + 120) for _ in procs]
    for proc in procs:
        proc.join()
    total = sum(r[0] for r in results)
    return total / seconds, sum(r[1] for r in results)


# --floors: the same match moves on servers whose commit is replaced (bench/match_floors.py)
FLOORS = {"match, no commit": "match_floors:no_commit", "match, commit = one PING": "match_floors:ping_commit"}


def measure(args, tmp: Path, pinned: bool) -> dict:
    """One configuration: its own redis-server (unless REDIS_URL is set) and gunicorn, runs
    alternating stateless / match (/ the floors of --floors, each on a server of its own with
    the same settings). ``pinned``: redis-server alone on the last CPU (taskset), gunicorn and
    the load processes on the others."""
    ncpu = os.cpu_count() or 1
    redis_cpus = str(ncpu - 1) if pinned else None
    other_cpus = set(range(ncpu - 1)) if pinned else None
    other_list = ",".join(map(str, sorted(other_cpus))) if other_cpus else None
    redis_proc = None
    url = os.environ.get("REDIS_URL")
    if not url:
        redis_proc, url = servers.start_redis(tmp, cpus=redis_cpus)
    started: list[subprocess.Popen] = []
    try:
        port = servers.free_port()
        server = servers.start_gunicorn(port, args.workers, url, tmp, cpus=other_list, log=tmp / "gunicorn.log")
        started.append(server)
        service_workers = servers.children(server.pid)
        # (label, load kind, port, worker pids)
        runs = [("stateless", "stateless", port, service_workers), ("match", "match", port, service_workers)]
        if args.floors:
            shutil.copy(ROOT / "bench" / "match_floors.py", tmp / "match_floors.py")
            for label, app in FLOORS.items():
                floor_port = servers.free_port()
                floor = servers.start_gunicorn(floor_port, args.workers, url, tmp, app=app, cpus=other_list,
                                               log=tmp / f"{app.split(':')[1]}.log")
                started.append(floor)
                runs.append((label, "match", floor_port, servers.children(floor.pid)))
        if args.baseline:
            base_port = servers.free_port()
            base = servers.start_gunicorn(base_port, args.workers, url, tmp, cpus=other_list,
                                          log=tmp / "baseline.log", code=args.baseline_code)
            started.append(base)
            runs.append((f"match, {args.baseline}", "match", base_port, servers.children(base.pid)))
        rates: dict[str, list[float]] = {label: [] for label, *_ in runs}
        cpu: dict[str, list[float]] = {label: [0.0, 0.0, 0] for label, *_ in runs}
        errors: dict[str, int] = {label: 0 for label, *_ in runs}
        redis_pids = [redis_proc.pid] if redis_proc else []
        for round_index in range(args.rounds):
            for label, kind, run_port, workers in runs:
                if args.load == "wrk":
                    # (the matches are created first, outside the timed run and its CPU figures)
                    start_wrk = run_wrk_prepared(kind, run_port, args, round_index, tmp, other_cpus)
                    before = servers.cpu_seconds(workers), servers.cpu_seconds(redis_pids)
                    rate, failed = start_wrk()
                else:
                    before = servers.cpu_seconds(workers), servers.cpu_seconds(redis_pids)
                    rate, failed = run(kind, run_port, args.clients, args.seconds, args.players, other_cpus)
                after = servers.cpu_seconds(workers), servers.cpu_seconds(redis_pids)
                rates[label].append(rate)
                errors[label] += failed
                cpu[label][0] += after[0] - before[0]
                cpu[label][1] += after[1] - before[1]
                cpu[label][2] += int(rate * args.seconds)
    finally:
        servers.stop(*started, redis_proc)
    return {"rates": rates, "cpu": cpu, "errors": errors, "url": url}


def report(args, title: str, figures: dict) -> float:
    rates, cpu = figures["rates"], figures["cpu"]
    means = {label: statistics.mean(values) for label, values in rates.items()}
    stateless, match = means["stateless"], means["match"]
    print(f"\n{title}\n")
    print(f"| operation | requests/s (mean of {args.rounds} runs of {args.seconds:g} s) | runs | / stateless |")
    print("|---|---|---|---|")
    names = {"stateless": f"POST /v1/games/{GAME_ID}/adjudicate (stateless)",
             "match": "POST /v1/matches/{id}/moves (Redis)"}
    for label, values in rates.items():
        print(f"| {names.get(label, label)} | {means[label]:.0f} | " + ", ".join(f"{r:.0f}" for r in values)
              + f" | {means[label] / stateless:.2f} |")
    ratio = match / stateless
    print(f"\nratio match / stateless: {ratio:.2f} (aim {MATCH_AIM}: {'met' if ratio >= MATCH_AIM else 'not met'}); "
          "failed or illegal answers: " + ", ".join(f"{label} {count}" for label, count in figures["errors"].items()))
    for label in rates:
        worker_cpu, redis_cpu, count = cpu[label]
        creating = "" if label == "stateless" else " (includes creating matches)"
        print(f"CPU per request, {label}{creating}: gunicorn workers "
              f"{worker_cpu / max(count, 1) * 1e6:.0f} us, redis-server {redis_cpu / max(count, 1) * 1e6:.0f} us")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (WEB_CONCURRENCY)")
    parser.add_argument("--clients", type=int, default=2, help="load processes")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--no-pinned", action="store_true", help="skip the run with Redis on its own CPU")
    parser.add_argument("--load", choices=("clients", "wrk"), default="clients",
                        help="clients: --clients Python processes; wrk: wrk with --connections connections")
    parser.add_argument("--connections", type=int, default=8, help="wrk connections (one wrk thread each)")
    parser.add_argument("--floors", action="store_true",
                        help="also the same match moves with the commit replaced by nothing, then by one PING "
                             "(bench/match_floors.py): what the round trip itself costs")
    parser.add_argument("--baseline", metavar="REVISION",
                        help="also the same match moves on a server of this git revision (its own gunicorn "
                             "settings, the same Redis and workers, alternating): what the changes since bought")
    parser.add_argument("--requests", type=int, default=2500,
                        help="wrk: moves prepared per connection and run (more than a run sends)")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-matches-"))
    try:
        args.baseline_code = servers.export_revision(args.baseline, tmp) if args.baseline else None
        print(servers.machine())
        if args.baseline_code is not None:
            print(f"baseline {args.baseline}: {servers.engine_of(args.baseline_code)}, its own gunicorn settings")
        print("gunicorn settings (gunicorn.conf.py):", servers.service_settings(args.workers),
              (f"wrk -t{args.connections} -c{args.connections} (one connection per thread, each playing its own "
               f"games in order)" if args.load == "wrk" else f"{args.clients} load processes")
              + f", {args.players} players, {os.cpu_count()} CPUs")
        shared = measure(args, tmp, pinned=False)
        report(args, "Every process on every CPU:", shared)
        if not args.no_pinned and (os.cpu_count() or 1) > 1 and shutil.which("taskset"):
            pinned = measure(args, tmp, pinned=True)
            report(args, f"redis-server alone on CPU {os.cpu_count() - 1} (taskset); gunicorn and load on the others:",
                   pinned)
        print(f"Redis: {shared['url'].split('@')[-1]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
