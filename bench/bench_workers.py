"""gevent workers against sync workers, in one run (docs/performance.md, "Worker model").

    .venv/bin/python bench/bench_workers.py [--seconds 3] [--rounds 3] [--workers 2] [--connections 16]

Two servers started as the README and the image start them (``gunicorn -c gunicorn.conf.py``,
``WEB_CONCURRENCY`` workers, access log on), one with ``GUNICORN_WORKER_CLASS=gevent`` (the
default) and one with ``sync``:

1. throughput: ``wrk`` (one thread, ``--connections`` keep-alive connections) posting the same Scratch & Catch
   adjudicate body, in alternating rounds; median requests per second of each, and the ratio;
2. slow clients: 200 connections that send a request head and then one byte of body every
   0.5 s, while 20 ``/healthz`` probes (new connection each, 2 s timeout) are timed: how many
   failed, and the median latency of those answered.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_stateless import WRK_SCRIPT, _free_port, _wrk, sample_positions  # noqa: E402

from referee.games import GAMES  # noqa: E402

HEAD = (b"POST /v1/games/scratch-and-catch/adjudicate HTTP/1.1\r\nHost: bench\r\n"
        b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n")


def start(worker_class: str, workers: int) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    env = dict(os.environ, BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY=str(workers), GUNICORN_WORKER_CLASS=worker_class,
               REDIS_URL="redis://127.0.0.1:1/0" if workers > 1 else "")
    server = subprocess.Popen([str(Path(sys.executable).with_name("gunicorn")), "-c", "gunicorn.conf.py"], cwd=ROOT,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=0.5)
            return server, port
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"{worker_class} server did not start")


def probe_under_trickle(port: int, connections: int = 200, probes: int = 20) -> dict:
    stop = threading.Event()
    sockets = []
    for _ in range(connections):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.setblocking(False)
        try:
            sock.send(HEAD)
        except OSError:
            pass
        sockets.append(sock)

    def trickle():
        while not stop.is_set():
            for sock in sockets:
                try:
                    sock.send(b" ")
                except OSError:
                    pass
            stop.wait(0.5)
    threading.Thread(target=trickle, daemon=True).start()
    times, failed = [], 0
    try:
        for _ in range(probes):
            started = time.monotonic()
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
                times.append(time.monotonic() - started)
            except OSError:
                failed += 1
            time.sleep(0.1)
    finally:
        stop.set()
        for sock in sockets:
            sock.close()
    return {"probes": probes, "failed": failed,
            "median_ms": round(statistics.median(times) * 1000, 1) if times else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--connections", type=int, default=16, help="wrk's keep-alive connections")
    args = parser.parse_args()
    game = GAMES["scratch-and-catch"]
    state, move = sample_positions(game, 40)[20]
    servers = {}
    with tempfile.TemporaryDirectory() as folder:
        body, script = Path(folder) / "body.json", Path(folder) / "post.lua"
        body.write_text(json.dumps({"state": state, "move": move}))
        script.write_text(WRK_SCRIPT)
        try:
            for name in ("gevent", "sync"):
                servers[name] = start(name, args.workers)
            url = {name: f"http://127.0.0.1:{port}/v1/games/scratch-and-catch/adjudicate"
                   for name, (_, port) in servers.items()}
            for name in servers:
                _wrk(url[name], str(body), 1, 4, str(script))
            rounds: dict[str, list[float]] = {name: [] for name in servers}
            for _ in range(args.rounds):
                for name in servers:
                    rounds[name].append(_wrk(url[name], str(body), args.seconds, args.connections, str(script)))
            trickle = {name: probe_under_trickle(port) for name, (_, port) in servers.items()}
        finally:
            for server, _ in servers.values():
                server.terminate()
                server.wait(timeout=15)
    medians = {name: statistics.median(values) for name, values in rounds.items()}
    print(f"| {args.workers} workers | adjudicate req/s, {args.connections} connections (rounds) "
          "| /healthz under 200 trickling clients |")
    print("|---|---|---|")
    for name in servers:
        t = trickle[name]
        print(f"| {name} | {medians[name]:,.0f} ({', '.join(f'{v:,.0f}' for v in rounds[name])}) | "
              f"{t['failed']}/{t['probes']} probes failed (2 s timeout), median {t['median_ms']} ms |")
    print(f"\nratio gevent / sync: {medians['gevent'] / medians['sync']:.2f}")


if __name__ == "__main__":
    main()
