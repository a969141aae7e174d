"""Benchmark: worker CPU per bare request (``GET /healthz``) under gunicorn, for git revisions
side by side (docs/performance.md, "Where the time of a request and a move goes").

Each revision (git archive; ``.`` is the working tree) is served by ``gunicorn -c
gunicorn.conf.py`` with one worker pinned to CPU 0, its JSON access log written to a file,
and loaded by wrk pinned to CPU 1 (8 keep-alive connections). Rounds alternate between the
revisions; each round reads the worker's CPU time (user + system, /proc) before and after,
and the report gives each revision's median microseconds of worker CPU per request and its
ratio to the first revision. CPU time per request moves much less than requests per second
on a machine shared with other work.

    .venv/bin/python bench/bench_request.py 6db4827 . [--rounds 7] [--seconds 3] [--path /healthz]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import servers  # noqa: E402


def _wrk(url: str, seconds: int) -> int:
    """Requests answered by one wrk run on CPU 1 (raises on any answer other than 2xx/3xx)."""
    out = subprocess.run(["taskset", "-c", "1", "wrk", "-t1", "-c8", f"-d{seconds}s", url],
                         capture_output=True, text=True, check=True).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise RuntimeError(f"{url}: {errors.group(1)} error answers\n{out}")
    return int(re.search(r"(\d+) requests in", out).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revisions", nargs="*", default=["."])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--path", default="/healthz")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install wrk")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        redis_server, redis_url = servers.start_redis(work)
        started = {}
        try:
            for i, rev in enumerate(args.revisions):
                code = servers.ROOT if rev == "." else servers.export_revision(rev, work, f"tree{i}")
                port = servers.free_port()
                server = servers.start_gunicorn(port, 1, redis_url, work, cpus="0", code=code,
                                                log=work / f"server{i}.log")
                started[rev] = (server, servers.children(server.pid), f"http://127.0.0.1:{port}{args.path}")
            for _server, _pids, url in started.values():
                _wrk(url, 1)   # warm-up
            per_request: dict[str, list[float]] = {rev: [] for rev in started}
            for _ in range(args.rounds):
                for rev, (_server, pids, url) in started.items():
                    before = servers.cpu_seconds(pids)
                    count = _wrk(url, args.seconds)
                    per_request[rev].append((servers.cpu_seconds(pids) - before) / count * 1e6)
        finally:
            servers.stop(*(server for server, _pids, _url in started.values()), redis_server)
    print(servers.machine() + "\n")
    first = statistics.median(per_request[args.revisions[0]])
    print(f"| revision | worker CPU per GET {args.path}, us (median) | ratio to {args.revisions[0]} | each round |")
    print("|---|---|---|---|")
    for rev, values in per_request.items():
        value = statistics.median(values)
        print(f"| {rev} | {value:.0f} | {value / first:.2f} | {', '.join(f'{v:.0f}' for v in values)} |")
    print(f"\n{args.rounds} alternating rounds of {args.seconds:g} s, wrk -t1 -c8 on CPU 1, one worker on CPU 0, "
          "access log to a file")


if __name__ == "__main__":
    main()
