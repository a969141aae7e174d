"""Benchmark: the cost of a replay per move at 100, 1,000 and 5,000 moves (it should not grow).

A Call of Katulhu game long enough is played first (seeded; both players place toys that
attract no cat when they can, so the stall rule keeps the game going), then its first N moves
are replayed from the starting state:

- in process: ``Game.replay`` with the state check;
- over HTTP: ``POST /v1/games/call-of-katulhu/replay`` under ``gunicorn -c gunicorn.conf.py``
  (one worker), through one keep-alive connection; sizes above the service's replay limit are
  reported as refused by the limit.

    .venv/bin/python bench/bench_replay.py [--sizes 100,1000,5000] [--repeat 9]

Each size is replayed once untimed, then the sizes take turns, ``--repeat`` rounds, in an order
that rotates from one round to the next: a machine whose speed drifts (another machine's load
on the same host) weighs on every size alike instead of on whichever came last. Prints
microseconds per move (the median of each size's rounds; in process both by the wall clock and
per second of this process's CPU time, which a busy host disturbs less) and the ratio of the
largest size to the smallest (1.0 is linear).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import servers  # noqa: E402

from referee.games import GAMES  # noqa: E402

GAME_ID = "call-of-katulhu"


def long_game(moves_wanted: int, seed: str = "bench-replay") -> tuple[dict, list[dict]]:
    """A starting state and ``moves_wanted`` legal moves from it (fewer if the game ends)."""
    game = GAMES[GAME_ID]
    rnd = random.Random(seed)
    start = game.setup(2, seed, {})
    state, moves = start, []
    while len(moves) < moves_wanted:
        legal = game.legal_moves(state)
        if not legal:
            break
        chosen = None
        for move in rnd.sample(legal, min(len(legal), 30)):
            verdict = game.adjudicate(state, move, checked=True)
            if not any(e["type"] in ("cat_attracted", "game_over") for e in verdict.events):
                chosen = move, verdict.state
                break
        if chosen is None:
            move = rnd.choice(legal)
            chosen = move, game.adjudicate(state, move, checked=True).state
        moves.append(chosen[0])
        state = chosen[1]
    return start, moves


def in_process(start: dict, moves: list[dict]) -> tuple[float, float]:
    """Wall and CPU seconds of one ``Game.replay`` over ``moves`` (state check included); the
    answer is freed outside the timing."""
    game = GAMES[GAME_ID]
    began, cpu = time.perf_counter(), time.process_time()
    _final, verdicts, illegal = game.replay(start, moves)
    wall, used = time.perf_counter() - began, time.process_time() - cpu
    assert illegal is None and len(verdicts) == len(moves)
    # Freed here, not when the next run's answer replaces it (inside its timing): freeing
    # 5,000 states is the caller's cost, and it weighed on the largest size most.
    del _final, verdicts
    return wall, used


def over_http(conn: http.client.HTTPConnection, body: bytes) -> float | None:
    """Seconds of one replay request with ``body`` on ``conn`` (keep-alive); None when the
    service refuses the size (413 or 422)."""
    began = time.perf_counter()
    conn.request("POST", f"/v1/games/{GAME_ID}/replay", body, {"Content-Type": "application/json"})
    answer = conn.getresponse()
    data = answer.read()
    took = time.perf_counter() - began
    if answer.status in (413, 422):
        return None
    assert answer.status == 200, data[:500]
    assert json.loads(data)["first_illegal"] is None
    if answer.getheader("Connection", "").lower() == "close":
        conn.close()  # (http.client opens it again at the next request)
    return took


def rounds(start: dict, moves: list[dict], sizes: list[int], repeat: int, port: int) -> dict[int, tuple]:
    """Per size: (wall us per move in process, CPU us per move in process, us per move over
    HTTP or None when refused), medians over ``repeat`` rotating rounds after one untimed."""
    bodies = {size: json.dumps({"state": start, "moves": moves[:size]}).encode() for size in sizes}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    timed: dict[int, list[tuple]] = {size: [] for size in sizes}
    try:
        for size in sizes:  # warm-up: the first run pays for the process's caches
            in_process(start, moves[:size])
            over_http(conn, bodies[size])
        for run in range(repeat):
            order = sizes[run % len(sizes):] + sizes[:run % len(sizes)]
            for size in order:
                wall, used = in_process(start, moves[:size])
                timed[size].append((wall, used, over_http(conn, bodies[size])))
    finally:
        conn.close()
    figures = {}
    for size, runs in timed.items():
        remote = [r for _w, _u, r in runs]
        figures[size] = (statistics.median(w for w, _u, _r in runs) / size * 1e6,
                         statistics.median(u for _w, u, _r in runs) / size * 1e6,
                         None if None in remote else statistics.median(remote) / size * 1e6)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,5000")
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    start, moves = long_game(max(sizes))
    if len(moves) < max(sizes):
        raise SystemExit(f"the game ended after {len(moves)} moves")
    tmp = Path(tempfile.mkdtemp(prefix="bench-replay-"))
    redis_proc = server = None
    try:
        redis_proc, url = servers.start_redis(tmp)
        port = servers.free_port()
        server = servers.start_gunicorn(port, 1, url, tmp, log=tmp / "gunicorn.log")
        print(servers.machine() + "\n")
        print("| moves | in process, us per move | in process, CPU us per move | over HTTP, us per move |")
        print("|---|---|---|---|")
        figures = rounds(start, moves, sizes, args.repeat, port)
        for size in sizes:
            local, local_cpu, remote = figures[size]
            remote_text = "refused (over the replay limit)" if remote is None else f"{remote:.0f}"
            print(f"| {size:,} | {local:.1f} | {local_cpu:.1f} | {remote_text} |", flush=True)
        small, large = figures[min(sizes)], figures[max(sizes)]
        print(f"\nper-move cost at {max(sizes):,} / at {min(sizes):,}: in process {large[0] / small[0]:.2f} "
              f"(CPU time: {large[1] / small[1]:.2f})"
              + (f", over HTTP {large[2] / small[2]:.2f}" if large[2] and small[2] else ""))
        print("worker RSS after the replays: "
              f"{max(servers.rss_kib(p) for p in servers.children(server.pid)) / 1024:.1f} MiB")
    finally:
        servers.stop(server, redis_proc)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
