"""Test support for the match endpoints: real redis-server processes (single or a 3-node
cluster) and gunicorn servers, each on a free port in a temporary directory."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def free_cluster_port() -> int:
    """A free port whose cluster bus port (+10000) is free too."""
    for _ in range(200):
        port = random.randint(20000, 45000)
        try:
            with socket.socket() as one, socket.socket() as two:
                one.bind(("127.0.0.1", port))
                two.bind(("127.0.0.1", port + 10000))
            return port
        except OSError:
            continue
    raise RuntimeError("no free port pair for a cluster node")


def wait_for(check, timeout: float = 10.0, what: str = "a condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:  # noqa: BLE001 - not up yet
            pass
        time.sleep(0.02)
    raise TimeoutError(f"timed out waiting for {what}")


def redis_ping(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
        sock.sendall(b"PING\r\n")
        return sock.recv(16).startswith(b"+PONG")


class RedisServer:
    """A redis-server process on ``port`` (free when not given), data in ``directory``."""

    def __init__(self, directory: Path, port: int | None = None, *extra: str):
        self.directory = Path(directory)
        self.port = port or (free_cluster_port() if "--cluster-enabled" in extra else free_port())
        self.extra = extra
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisServer":
        self.directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.directory), "--logfile", str(self.directory / "redis.log"), *self.extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: redis_ping(self.port), what=f"redis-server on port {self.port}")
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None


class RedisCluster3:
    """Three redis-server nodes in cluster mode, joined by ``redis-cli --cluster create``."""

    def __init__(self, directory: Path):
        self.nodes = [RedisServer(Path(directory) / f"node{i}", None, "--cluster-enabled", "yes",
                                  "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000")
                      for i in range(3)]

    @property
    def url(self) -> str:
        return self.nodes[0].url.rsplit("/", 1)[0]

    def start(self) -> "RedisCluster3":
        for node in self.nodes:
            node.start()
        addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
        subprocess.run(["redis-cli", "--cluster", "create", *addresses, "--cluster-replicas", "0", "--cluster-yes"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)

        def ok() -> bool:
            info = subprocess.run(["redis-cli", "-p", str(self.nodes[0].port), "cluster", "info"],
                                  capture_output=True, text=True, timeout=5).stdout
            return "cluster_state:ok" in info
        wait_for(ok, timeout=20, what="the cluster to be ok")
        return self

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


class Gunicorn:
    """``gunicorn -c gunicorn.conf.py`` on a free port with ``env`` added to the environment."""

    def __init__(self, env: dict[str, str], log: Path):
        self.port = free_port()
        self.env = {**os.environ, **env, "BIND": f"127.0.0.1:{self.port}"}
        self.log = log
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "Gunicorn":
        self.process = subprocess.Popen([str(VENV_BIN / "gunicorn"), "-c", "gunicorn.conf.py"], cwd=ROOT,
                                        env=self.env, stdout=self.log.open("ab"), stderr=subprocess.STDOUT)

        def up() -> bool:
            with urllib.request.urlopen(self.base + "/healthz", timeout=1) as answer:
                return answer.status == 200
        wait_for(up, timeout=20, what=f"gunicorn on port {self.port}")
        return self

    def stop(self) -> None:
        """Quick shutdown (SIGINT): the test is over and waits for no answer. A graceful one
        (SIGTERM) costs up to a second more, the gevent worker's polling interval; the tests
        of graceful stopping send SIGTERM themselves."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def http(method: str, url: str, body=None, headers: dict | None = None) -> tuple[int, dict, dict]:
    """One request with urllib: (status, headers, JSON body or {})."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"{}")


def have(program: str) -> bool:
    return shutil.which(program) is not None


def play_first_moves(client, store, match: dict, secrets: list[str], moves: int | None = None) -> int:
    """Play the first legal move of the match's state ``moves`` times (None: to the end of the
    game) through ``client`` (a Flask test client on ``store``); returns the version reached."""
    from referee.games import GAMES

    game = GAMES[match["game"]]
    version = store.get(match["id"]).version
    while moves is None or moves > 0:
        state = json.loads(store.get(match["id"]).state)
        if state["finished"]:
            break
        chosen = game.legal_moves(state)[0]
        answer = client.post(f"/v1/matches/{match['id']}/moves", json={"move": chosen},
                             headers={"Authorization": f"Bearer {secrets[chosen['player']]}",
                                      "If-Match": f'"{version}"'})
        assert answer.get_json()["legal"], answer.get_json()
        version += 1
        moves = None if moves is None else moves - 1
    return version
