"""Benchmark: CPU time of one stateless adjudicate through the whole WSGI app, without an HTTP
server or a load generator, for git revisions side by side (what each change bought).

Each revision (git archive) runs in its own process, in turn, ``--rounds`` times; each run
times ``--requests`` requests of a mid-game legal move per game (``time.process_time``). The
report gives the median microseconds per request of each revision and the ratio to the first.

    .venv/bin/python bench/bench_wsgi.py OLD NEW [NEWER...] [--rounds 5] [--requests 2000]

``.`` names the working tree.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

if __name__ == "__main__" and "--code" in sys.argv:  # a run inside one revision's tree
    sys.path.insert(0, sys.argv[sys.argv.index("--code") + 1])
sys.path.insert(1, str(ROOT / "bench"))

import servers  # noqa: E402


def measure(requests: int) -> dict:
    """Microseconds of CPU per adjudicate request, per game, in this process's code."""
    from bench_stateless import sample_positions
    from referee.app import create_app
    from referee.games import GAMES

    app = create_app({"REFEREE_STORE": None})
    figures = {}
    for game_id, game in GAMES.items():
        state, move = sample_positions(game, 40)[20]
        body = json.dumps({"state": state, "move": move}).encode()
        environ = {"REQUEST_METHOD": "POST", "PATH_INFO": f"/v1/games/{game_id}/adjudicate", "SERVER_NAME": "bench",
                   "SERVER_PORT": "80", "wsgi.url_scheme": "http", "CONTENT_TYPE": "application/json",
                   "CONTENT_LENGTH": str(len(body)), "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.errors": sys.stderr}
        statuses = []

        def start_response(status, _headers, _exc=None):
            statuses.append(status)

        def one():
            env = dict(environ)
            env["wsgi.input"] = io.BytesIO(body)
            b"".join(app(env, start_response))

        for _ in range(200):
            one()
        assert all(s.startswith("200") for s in statuses), statuses[:3]
        began = time.process_time()
        for _ in range(requests):
            one()
        figures[game_id] = (time.process_time() - began) / requests * 1e6
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revisions", nargs="*", default=["."])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--code", help=argparse.SUPPRESS)
    parser.add_argument("--json", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        Path(args.json).write_text(json.dumps(measure(args.requests)))
        return
    with tempfile.TemporaryDirectory() as folder:
        trees = {rev: (ROOT if rev == "." else servers.export_revision(rev, Path(folder), f"tree{i}"))
                 for i, rev in enumerate(args.revisions)}
        runs: dict[str, list[dict]] = {rev: [] for rev in trees}
        for _ in range(args.rounds):
            for rev, tree in trees.items():
                out = Path(folder) / "figures.json"
                subprocess.run([sys.executable, __file__, "--code", str(tree), "--json", str(out),
                                "--requests", str(args.requests)], check=True, cwd=tree)
                runs[rev].append(json.loads(out.read_text()))
    games = list(runs[args.revisions[0]][0])
    first = args.revisions[0]
    print("| revision | " + " | ".join(f"{g}, us per request (ratio to {first})" for g in games) + " |")
    print("|---" * (len(games) + 1) + "|")
    for rev in args.revisions:
        cells = []
        for game in games:
            value = statistics.median(run[game] for run in runs[rev])
            base = statistics.median(run[game] for run in runs[first])
            cells.append(f"{value:.0f} ({value / base:.2f})")
        print(f"| {rev} | " + " | ".join(cells) + " |")
    print(f"\nmedians of {args.rounds} runs of {args.requests} requests per game, each run in its own process, in turn")


if __name__ == "__main__":
    main()
