"""Servers for the benchmarks: a private redis-server and gunicorn started with the service's
own settings (``gunicorn -c gunicorn.conf.py``), so a benchmark follows any change made there
(worker class, keep-alive, preload). Only 127.0.0.1 and free ports; everything started here is
stopped by the caller through :func:`stop`. Also :func:`callgrind_total`, the instruction count
of one command, and :func:`machine`, the line each script prints first.
"""

from __future__ import annotations

import os
import platform
import re
import runpy
import socket
import subprocess
import sys
import time
import timeit
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUNICORN_CONF = ROOT / "gunicorn.conf.py"


def interpreter() -> str:
    """The interpreter running this script (and the servers it starts): its real path, and
    whether its code runs from a shared ``libpython`` or is linked into the executable. Builds
    differ by a tenth to a fifth in speed on the same machine (a pyenv build with a shared
    libpython and without PGO or LTO, against Debian's)."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        linkage = "linkage unknown"
    else:
        linkage = "shared libpython" if "/libpython" in maps else "libpython linked in"
    return f"{os.path.realpath(sys.executable)} ({linkage})"


def machine() -> str:
    """One line naming the machine the figures come from: CPUs, their model, Python and its
    build (:func:`interpreter`), the time of ``sum(range(1000))`` (best of 5, as ``python -m
    timeit`` prints it), so that figures of different machines can be told apart from figures
    of different code, and whether the engine is compiled (:func:`engine`)."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    loops = 10_000
    best = min(timeit.repeat("sum(range(1000))", number=loops, repeat=5)) / loops
    return (f"machine: {os.cpu_count()} CPUs ({model}), Python {platform.python_version()} at {interpreter()}, "
            f"sum(range(1000)) in {best * 1e6:.1f} us (timeit, best of 5); {wakeups()}; {engine()}")


def wakeups(round_trips: int = 3000) -> str:
    """What one process waking another costs here: two processes answer each other over pipes
    ``round_trips`` times, on one CPU, then on two (``sched_setaffinity``, within the CPUs this
    process may use); for each, the wall microseconds of a round trip and the CPU microseconds
    this side (the parent, its own loop included) spends on it. A match move wakes Redis and is
    woken by it, so where waking a process on another CPU is dear, the round trip costs the
    service much more than the commands themselves."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if not cpus:
        return "wake-ups not measured (no CPU affinity here)"
    said = []
    pairs = [("one CPU", (cpus[0], cpus[0]))] + ([("two CPUs", (cpus[0], cpus[1]))] if len(cpus) > 1 else [])
    for label, (mine, theirs) in pairs:
        wall, cpu = _ping_pong(round_trips, mine, theirs)
        said.append(f"{label} {wall:.0f} us ({cpu:.0f} us CPU)")
    if len(cpus) == 1:
        said.append("two CPUs not measured (this process may use one)")
    return "process wake-up round trip: " + ", ".join(said)


def _ping_pong(round_trips: int, mine: int, theirs: int) -> tuple[float, float]:
    """(wall us, CPU us of this side) per round trip of one byte each way between this process
    on CPU ``mine`` and a forked child on CPU ``theirs``; the first round trip (the child's
    start) is not timed. Raises ValueError below 2 round trips."""
    if round_trips < 2:
        raise ValueError("at least 2 round trips (the first is not timed)")
    there_r, there_w = os.pipe()
    back_r, back_w = os.pipe()
    before = os.sched_getaffinity(0)
    try:
        child = os.fork()
    except OSError:
        for fd in (there_r, there_w, back_r, back_w):
            os.close(fd)
        raise
    if child == 0:  # (exits without running anything of the parent's)
        try:
            os.close(there_w)
            os.close(back_r)
            os.sched_setaffinity(0, {theirs})
            while os.read(there_r, 1):  # (until the parent closes its end)
                os.write(back_w, b"x")
        finally:
            os._exit(0)
    os.close(there_r)
    os.close(back_w)
    try:
        os.sched_setaffinity(0, {mine})
        os.write(there_w, b"x")
        os.read(back_r, 1)
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        for _ in range(round_trips - 1):
            os.write(there_w, b"x")
            os.read(back_r, 1)
        wall, cpu = time.perf_counter() - start_wall, time.process_time() - start_cpu
    finally:
        os.sched_setaffinity(0, before)
        os.close(there_w)  # (the child's read then ends, and it exits)
        os.close(back_r)
        os.waitpid(child, 0)
    return wall / (round_trips - 1) * 1e6, cpu / (round_trips - 1) * 1e6


def engine_of(code: Path) -> str:
    """:func:`engine` of another source tree (an :func:`export_revision`), asked of a fresh
    interpreter that imports that tree first, as its servers do."""
    said = subprocess.run([sys.executable, "-c", "import servers; print(servers.engine())"], capture_output=True,
                          text=True, cwd=str(Path(__file__).resolve().parent),
                          env=dict(os.environ, PYTHONPATH=str(code)))
    return said.stdout.strip() or f"engine unknown ({said.stderr.strip().splitlines()[-1:]})"


def engine() -> str:
    """Whether a tree's rules engine runs compiled (revisions before the plain-Python engine,
    built with mypyc) or interpreted."""
    import referee.engine

    compiled = getattr(referee.engine, "compiled", None)   # (only those revisions have it)
    return "engine compiled (mypyc)" if compiled is not None and compiled() else "engine interpreted"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {port}")


def start_redis(folder: Path, cpus: str | None = None) -> tuple[subprocess.Popen, str]:
    """A redis-server of our own on a free port (never the shared one), optionally pinned to
    ``cpus`` with taskset. Returns the process and its URL."""
    port = free_port()
    command = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
               "--dir", str(folder)]
    if cpus is not None:
        command = ["taskset", "-c", cpus] + command
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    wait_port(port)
    return proc, f"redis://127.0.0.1:{port}/0"


def service_settings(workers: int) -> dict:
    """The settings gunicorn.conf.py gives with ``workers`` workers (to print beside figures)."""
    saved = os.environ.get("WEB_CONCURRENCY")
    os.environ["WEB_CONCURRENCY"] = str(workers)
    try:
        conf = runpy.run_path(str(GUNICORN_CONF))
    finally:
        if saved is None:
            os.environ.pop("WEB_CONCURRENCY", None)
        else:
            os.environ["WEB_CONCURRENCY"] = saved
    return {name: conf.get(name) for name in ("worker_class", "workers", "keepalive", "preload_app",
                                              "worker_connections", "threads") if name in conf}


def start_gunicorn(port: int, workers: int, redis_url: str, folder: Path, app: str | None = None,
                   cpus: str | None = None, log: Path | None = None, code: Path = ROOT) -> subprocess.Popen:
    """gunicorn with the service's configuration file; ``app`` replaces its ``wsgi_app`` (the
    floor app), every other setting is the service's. ``folder`` holds the floor app's module
    and is the HOME of the server (gunicorn's control socket lives there, not in a shared one).
    ``code``: the source tree served (another revision, see :func:`export_revision`)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), str(code)]), BIND=f"127.0.0.1:{port}",
               WEB_CONCURRENCY=str(workers), REDIS_URL=redis_url, GUNICORN_LOG_LEVEL="warning", HOME=str(folder))
    env.pop("GUNICORN_ACCESS_LOG", None)
    command = [str(Path(sys.executable).parent / "gunicorn"), "-c", str(GUNICORN_CONF)]
    if app is not None:
        command.append(app)
    if cpus is not None:
        command = ["taskset", "-c", cpus] + command
    out = log.open("wb") if log is not None else None
    server = subprocess.Popen(command, cwd=code, env=env, stdout=out, stderr=subprocess.STDOUT if out else None)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            said = log.read_text(errors="replace")[-2000:] if log is not None else ""
            raise RuntimeError(f"gunicorn ({app or 'service'}) exited with {server.returncode}"
                               + (f":\n{said}" if said else ""))
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=0.5)
        except urllib.error.HTTPError:
            pass
        except OSError:
            time.sleep(0.1)
            continue
        if len(children(server.pid)) >= workers:  # every worker forked (their pids are read next)
            return server
        time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"{app or 'service'} did not start")


def export_revision(revision: str, folder: Path, name: str = "revision") -> Path:
    """The source tree of git ``revision`` extracted under ``folder`` (git archive), to serve it
    beside the working tree in the same run: what a change bought, measured in one run. A
    revision from before the plain-Python engine (one with setup.py) has its engine compiled in
    place as it was installed then (mypyc, about 40 s, when the running Python has mypy), unless
    REFEREE_PURE_PYTHON is set."""
    target = folder / name
    target.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], capture_output=True)
    if archive.returncode:
        raise SystemExit(f"cannot export git revision {revision!r}: {archive.stderr.decode(errors='replace').strip()}")
    archive = archive.stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    if (target / "setup.py").exists():
        # A revision whose engine is compiled (setup.py, mypyc) is measured as installed: setup.py
        # itself reads REFEREE_PURE_PYTHON.
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=target, check=True,
                       capture_output=True)
    return target


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def rss_kib(pid: int) -> int:
    """Resident memory of one process, in KiB (Linux /proc); 0 when it is gone."""
    try:
        return int(re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{pid}/status").read_text()).group(1))
    except (OSError, AttributeError):
        return 0


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


def stop(*procs: subprocess.Popen | None) -> None:
    """Terminate the processes this benchmark started (and wait for them)."""
    for proc in procs:
        if proc is not None and proc.poll() is None:
            proc.terminate()
    for proc in procs:
        if proc is not None:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def callgrind_total(command: list[str], folder: Path, cwd: Path | None = None, env: dict | None = None) -> int:
    """Instructions valgrind's callgrind counts for one run of ``command`` (its output file goes
    in ``folder``). Raises CalledProcessError when the command fails."""
    out = folder / "callgrind.out"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command], check=True, cwd=cwd,
                   env=env, capture_output=True)
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError("no total in the callgrind output")
