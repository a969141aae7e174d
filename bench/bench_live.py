"""Benchmark: does a crowd of waiting clients slow a stateless adjudicate?

One gunicorn server (gunicorn.conf.py as the service runs it, WEB_CONCURRENCY workers,
REDIS_URL set) answers stateless ``adjudicate`` requests from separate load processes, each
with one keep-alive connection, in rounds that alternate: with no waiting client, and with
``--waiters`` connections waiting on matches (half long-polls, ``If-None-Match`` with
``Prefer: wait=30``, half event streams). The report gives requests per second and latency
percentiles of each round kind and the ratio with / without waiters.

    .venv/bin/python bench/bench_live.py [--seconds 5] [--rounds 2] [--workers 1]
        [--clients 4] [--waiters 200]

Starts its own redis-server on a free port. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from servers import free_port, wait_port  # noqa: E402

from referee.games import GAMES  # noqa: E402


def adjudicate_body() -> bytes:
    game = GAMES["scratch-and-catch"]
    state = game.setup(3, "bench-live")
    return json.dumps({"state": state, "move": game.legal_moves(state)[0]}).encode()


def load(port: int, body: bytes, seconds: float, queue) -> None:
    """One client: adjudicate in a loop for ``seconds``; puts (count, latencies in ms)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"}
    latencies = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        try:
            conn.request("POST", "/v1/games/scratch-and-catch/adjudicate", body, headers)
            answer = conn.getresponse()
            answer.read()
            if answer.status != 200:
                raise RuntimeError(f"adjudicate answered {answer.status}")
            if answer.getheader("Connection", "").lower() == "close":
                conn.close()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            conn.close()
            continue
        latencies.append((time.perf_counter() - started) * 1000)
    queue.put((len(latencies), latencies))


def open_waiters(port: int, count: int) -> list[socket.socket]:
    """``count`` connections waiting on new matches (long-polls and event streams)."""
    waiters = []
    for index in range(count):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("POST", "/v1/matches", json.dumps({"game": "scratch-and-catch", "players": 2}).encode(),
                     {"Content-Type": "application/json"})
        match = json.loads(conn.getresponse().read())
        conn.close()
        sock = socket.create_connection(("127.0.0.1", port))
        if index % 2:
            request = (f"GET /v1/matches/{match['id']} HTTP/1.1\r\nHost: bench\r\nIf-None-Match: \"0\"\r\n"
                       "Prefer: wait=30\r\n\r\n")
        else:
            request = f"GET /v1/matches/{match['id']}/events HTTP/1.1\r\nHost: bench\r\n\r\n"
        sock.sendall(request.encode())
        waiters.append(sock)
    return waiters


def measure(port: int, body: bytes, clients: int, seconds: float) -> tuple[float, list[float]]:
    queue = multiprocessing.Queue()
    processes = [multiprocessing.Process(target=load, args=(port, body, seconds, queue)) for _ in range(clients)]
    for process in processes:
        process.start()
    results = [queue.get() for _ in processes]
    for process in processes:
        process.join()
    count = sum(r[0] for r in results)
    return count / seconds, [latency for r in results for latency in r[1]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--waiters", type=int, default=200)
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="bench-live-")
    redis_port, port = free_port(), free_port()
    redis_server = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                                     "--appendonly", "no", "--dir", directory],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = {**os.environ, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(args.workers),
           "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", "REFEREE_MAX_WAITING": str(args.waiters + 100)}
    server = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py"], cwd=ROOT,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(redis_port)
        wait_port(port)
        body = adjudicate_body()
        measure(port, body, args.clients, 1)   # warm up
        rows: dict[str, list] = {"none": [], "waiting": []}
        for _ in range(args.rounds):
            rows["none"].append(measure(port, body, args.clients, args.seconds))
            waiters = open_waiters(port, args.waiters)
            time.sleep(0.5)
            rows["waiting"].append(measure(port, body, args.clients, args.seconds))
            for sock in waiters:
                sock.close()
            time.sleep(0.5)
        print(f"| waiting clients | adjudicate req/s | p50 ms | p99 ms |  ({args.workers} worker(s), "
              f"{args.clients} load clients, {args.rounds} alternating rounds of {args.seconds:g} s)")
        print("|---|---|---|---|")
        rates = {}
        for kind, label in (("none", "0"), ("waiting", str(args.waiters))):
            rates[kind] = statistics.mean(r[0] for r in rows[kind])
            latencies = sorted(latency for r in rows[kind] for latency in r[1])
            p50 = latencies[len(latencies) // 2]
            p99 = latencies[int(len(latencies) * 0.99)]
            print(f"| {label} | {rates[kind]:,.0f} | {p50:.2f} | {p99:.2f} |")
        print(f"\nratio with / without waiting clients: {rates['waiting'] / rates['none']:.2f}")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:   # event streams still open: stop the workers hard
            server.kill()
            server.wait(10)
        redis_server.terminate()
        redis_server.wait(10)


if __name__ == "__main__":
    main()
