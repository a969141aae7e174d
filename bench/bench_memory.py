"""Benchmark: resident memory of the gunicorn workers after 20,000 mixed requests (aim: at
most 80 MiB per worker).

The service runs as deployed (``gunicorn -c gunicorn.conf.py``, WEB_CONCURRENCY workers, a
private redis-server as REDIS_URL). Load processes each send their share of the requests
through one keep-alive connection, cycling through every kind of request: the game list, and
per game setup, legal-moves, adjudicate, score and a short replay; a match created, read, its
legal moves, a move, its log. Every answer must be 2xx.

    .venv/bin/python bench/bench_memory.py [--requests 20000] [--workers 2] [--clients 2]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import servers  # noqa: E402

from referee.games import GAMES  # noqa: E402

RSS_AIM_MIB = 80


def _request(conn_box: list, port: int, method: str, path: str, body=None, headers=None) -> tuple[int, bytes]:
    for attempt in (0, 1):
        conn = conn_box[0]
        try:
            data = json.dumps(body).encode() if body is not None else None
            conn.request(method, path, data, {"Content-Type": "application/json", **(headers or {})})
            answer = conn.getresponse()
            payload = answer.read()
            if answer.getheader("Connection", "").lower() == "close":
                conn.close()
            return answer.status, payload
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            conn.close()
            conn_box[0] = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            if attempt:
                raise
    raise AssertionError("unreachable")


def load(port: int, index: int, count: int, queue) -> None:
    """Send ``count`` mixed requests; report (sent, failed)."""
    conn_box = [http.client.HTTPConnection("127.0.0.1", port, timeout=60)]
    sent = failed = 0
    cycle = 0

    def call(method, path, body=None, headers=None):
        nonlocal sent, failed
        status, payload = _request(conn_box, port, method, path, body, headers)
        sent += 1
        if not 200 <= status < 300:
            failed += 1
        return status, payload

    while sent < count:
        cycle += 1
        call("GET", "/v1/games")
        for game_id, game in GAMES.items():
            players = game.player_counts[0]
            seed = f"mem-{index}-{cycle}-{game_id}"
            state = game.setup(players, seed, {})
            moves = []
            for _ in range(3):
                legal = game.legal_moves(state)
                if not legal:
                    break
                moves.append(legal[0])
                state = game.adjudicate(state, legal[0], checked=True).state
            start = game.setup(players, seed, {})
            base = f"/v1/games/{game_id}"
            call("POST", f"{base}/setup", {"players": players, "seed": seed})
            call("POST", f"{base}/legal-moves", {"state": state})
            call("POST", f"{base}/adjudicate", {"state": start, "move": moves[0]})
            call("POST", f"{base}/score", {"state": state})
            call("POST", f"{base}/replay", {"state": start, "moves": moves})
            status, payload = call("POST", "/v1/matches", {"game": game_id, "players": players, "seed": seed})
            if status != 201:
                continue
            match = json.loads(payload)
            secrets = [s["secret"] for s in match["seats"]]
            path = f"/v1/matches/{match['id']}"
            call("GET", path)
            mover = moves[0]["player"]
            auth = {"Authorization": f"Bearer {secrets[mover]}"}
            call("GET", f"{path}/legal-moves?seat={mover}", headers=auth)
            call("POST", f"{path}/moves", {"move": moves[0]}, {**auth, "If-Match": '"0"'})
            call("GET", f"{path}/log")
    conn_box[0].close()
    queue.put((sent, failed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=2)
    args = parser.parse_args()
    print(servers.machine(), flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench-memory-"))
    redis_proc = server = None
    try:
        redis_proc, url = servers.start_redis(tmp)
        port = servers.free_port()
        server = servers.start_gunicorn(port, args.workers, url, tmp, log=tmp / "gunicorn.log")
        workers = servers.children(server.pid)
        before = {pid: servers.rss_kib(pid) for pid in workers}
        queue = multiprocessing.Queue()
        share = args.requests // args.clients
        began = time.perf_counter()
        procs = [multiprocessing.Process(target=load, args=(port, i, share, queue)) for i in range(args.clients)]
        for proc in procs:
            proc.start()
        results = [queue.get(timeout=1800) for _ in procs]
        for proc in procs:
            proc.join()
        elapsed = time.perf_counter() - began
        sent, failed = sum(r[0] for r in results), sum(r[1] for r in results)
        after = {pid: servers.rss_kib(pid) for pid in workers}
        print("gunicorn settings (gunicorn.conf.py):", servers.service_settings(args.workers))
        print(f"{sent:,} mixed requests in {elapsed:.0f} s, {failed} not 2xx")
        for pid in workers:
            print(f"worker {pid}: RSS {before[pid] / 1024:.1f} MiB at start, {after[pid] / 1024:.1f} MiB after")
        print(f"master: RSS {servers.rss_kib(server.pid) / 1024:.1f} MiB")
        worst = max(after.values()) / 1024
        print(f"largest worker RSS {worst:.1f} MiB (aim at most {RSS_AIM_MIB} MiB): "
              + ("met" if worst <= RSS_AIM_MIB else "not met"))
    finally:
        servers.stop(server, redis_proc)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
