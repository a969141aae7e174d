"""Benchmark: the cost of a replay per move at 100, 1,000 and 5,000 moves (it should not grow).

A Call of Katulhu game long enough is played first (seeded; both players place toys that
attract no cat when they can, so the stall rule keeps the game going), then its first N moves
are replayed from the starting state:

- in process: ``Game.replay`` with the state check;
- over HTTP: ``POST /v1/games/call-of-katulhu/replay`` under ``gunicorn -c gunicorn.conf.py``
  (one worker), through one keep-alive connection; sizes above the service's replay limit are
  reported as refused by the limit.

    .venv/bin/python bench/bench_replay.py [--sizes 100,1000,5000] [--repeat 3]

Prints microseconds per move (median of the repeats, each size replayed once before them, not
timed) and the ratio of the largest size to the smallest (1.0 is linear).
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


def in_process(start: dict, moves: list[dict], repeat: int) -> float:
    """Median seconds of ``Game.replay`` over ``moves``, after one replay not timed (the first
    pays for warming the process's caches, which would weigh on the smallest size most); the
    answer of each run is freed outside the timing."""
    game = GAMES[GAME_ID]
    times = []
    for run in range(1 + repeat):
        began = time.perf_counter()
        _final, verdicts, illegal = game.replay(start, moves)
        if run:
            times.append(time.perf_counter() - began)
        assert illegal is None and len(verdicts) == len(moves)
        # Freed here, not when the next run's answer replaces it (inside its timing): freeing
        # 5,000 states is the caller's cost, and it weighed on the largest size most.
        del _final, verdicts
    return statistics.median(times)


def over_http(port: int, start: dict, moves: list[dict], repeat: int) -> float | None:
    """Median seconds of the replay request, after one request not timed (as in_process);
    None when the service refuses the size (422)."""
    body = json.dumps({"state": start, "moves": moves}).encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    times = []
    try:
        for run in range(1 + repeat):
            began = time.perf_counter()
            conn.request("POST", f"/v1/games/{GAME_ID}/replay", body, {"Content-Type": "application/json"})
            answer = conn.getresponse()
            data = answer.read()
            if run:
                times.append(time.perf_counter() - began)
            if answer.status in (413, 422):
                return None
            assert answer.status == 200, data[:500]
            assert json.loads(data)["first_illegal"] is None
            if answer.getheader("Connection", "").lower() == "close":
                conn.close()
    finally:
        conn.close()
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,5000")
    parser.add_argument("--repeat", type=int, default=3)
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
        print("| moves | in process, us per move | over HTTP, us per move |")
        print("|---|---|---|")
        figures = {}
        for size in sizes:
            local = in_process(start, moves[:size], args.repeat) / size * 1e6
            remote = over_http(port, start, moves[:size], args.repeat)
            remote_text = "refused (over the replay limit)" if remote is None else f"{remote / size * 1e6:.0f}"
            figures[size] = (local, None if remote is None else remote / size * 1e6)
            print(f"| {size:,} | {local:.0f} | {remote_text} |", flush=True)
        small, large = figures[min(sizes)], figures[max(sizes)]
        print(f"\nper-move cost at {max(sizes):,} / at {min(sizes):,}: in process {large[0] / small[0]:.2f}"
              + (f", over HTTP {large[1] / small[1]:.2f}" if large[1] and small[1] else ""))
        print(f"worker RSS after the replays: {max(servers.rss_kib(p) for p in servers.children(server.pid)) / 1024:.1f} MiB")
    finally:
        servers.stop(server, redis_proc)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
