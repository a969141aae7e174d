"""Settings from the environment (docs/reference/configuration.md): a bad value stops the service at start
and names the variable; none reaches a request."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from referee.api.body.transport import body_timeout_from_env
from referee.api.ops import live
from referee.app import create_app
from referee.settings import SettingError, number
from referee.store import store_from_env
from referee.store.memory import MemoryStore
from tests.support.matches_support import ROOT, VENV_BIN, free_port


def test_a_number_is_read_or_defaulted():
    assert number("X", 7, environ={}) == 7
    assert number("X", 7, environ={"X": "  "}) == 7                 # blank: the default
    assert number("X", 7.0, environ={"X": " 2.5 "}) == 2.5
    assert number("X", 7.0, environ={"X": "1e3"}) == 1000.0
    assert number("X", 7, environ={"X": "-3"}, integer=True) == -3
    assert number("X", 7, environ={"X": "0"}, integer=True, minimum=0) == 0


@pytest.mark.parametrize(("raw", "options", "says"), [
    ("abc", {}, "X must be a number, not 'abc'"),
    ("nan", {}, "X must be a finite number, not 'nan'"),
    ("inf", {}, "X must be a finite number, not 'inf'"),
    ("1e400", {}, "X must be a finite number, not '1e400'"),
    ("1.5", {"integer": True}, "X must be a whole number, not '1.5'"),
    ("0", {"positive": True}, "X must be more than 0, not '0'"),
    ("-0.5", {"positive": True}, "X must be more than 0, not '-0.5'"),
    ("-1", {"integer": True, "minimum": 0}, "X must be at least 0, not '-1'"),
    ("1_0", {}, "X must be a number, not '1_0'"),                       # Python's float() takes it
    ("\u0661\u0662", {"integer": True}, "X must be a whole number, not '\u0661\u0662'"),   # and int() this
    ("0x10", {"integer": True}, "X must be a whole number, not '0x10'"),
])
def test_a_bad_number_names_the_variable_and_the_value(raw, options, says):
    with pytest.raises(SettingError) as refused:
        number("X", 1, environ={"X": raw}, **options)
    assert str(refused.value) == says


def test_each_reader_refuses_what_would_fail_requests_later():
    # A NaN heartbeat was taken, and every idle event stream then failed at its first wait.
    with pytest.raises(SettingError, match="REFEREE_EVENTS_HEARTBEAT_SECONDS"):
        live.heartbeat_from_env({"REFEREE_EVENTS_HEARTBEAT_SECONDS": "nan"})
    # A body timeout of 0 was taken, and every request with a body got 408.
    with pytest.raises(SettingError, match="REFEREE_BODY_TIMEOUT_SECONDS"):
        body_timeout_from_env({"REFEREE_BODY_TIMEOUT_SECONDS": "0"})
    with pytest.raises(SettingError, match="REFEREE_MAX_STREAM_SECONDS"):
        live.stream_limit_from_env({"REFEREE_MAX_STREAM_SECONDS": "abc"})
    with pytest.raises(SettingError, match="REDIS_SOCKET_TIMEOUT_SECONDS"):
        store_from_env({"REDIS_URL": "redis://127.0.0.1:1", "REDIS_SOCKET_TIMEOUT_SECONDS": "nan"})
    assert live.stream_limit_from_env({"REFEREE_MAX_STREAM_SECONDS": "0"}) is None       # 0: no limit
    for endless in ("-1", "0.001"):   # before: -1 meant no limit, and 0.001 a reconnection every second
        with pytest.raises(SettingError, match="REFEREE_MAX_STREAM_SECONDS"):
            live.stream_limit_from_env({"REFEREE_MAX_STREAM_SECONDS": endless})
    assert live.stream_limit_from_env({"REFEREE_MAX_STREAM_SECONDS": "2.5"}) == 2.5
    assert live.max_wait_from_env({"REFEREE_MAX_WAIT_SECONDS": "-4"}) == 0               # negative: no wait


@pytest.mark.parametrize(("variable", "value", "says"), [
    ("REFEREE_MAX_STREAM_SECONDS", "abc", "Referee: REFEREE_MAX_STREAM_SECONDS must be a number, not 'abc'"),
    ("GUNICORN_TIMEOUT", "30s", "Referee: GUNICORN_TIMEOUT must be a whole number, not '30s'"),
    # (it was read at the first request with a body: the service started, and each such request got a 500)
    ("REFEREE_BODY_TIMEOUT_SECONDS", "0", "Referee: REFEREE_BODY_TIMEOUT_SECONDS must be more than 0, not '0'"),
    ("REFEREE_BODY_TIMEOUT_SECONDS", "abc", "Referee: REFEREE_BODY_TIMEOUT_SECONDS must be a number, not 'abc'"),
    # (the service started, and /readyz and every match request answered 500)
    ("REDIS_URL", "unix:///tmp/redis.sock?db=abc", "Referee: REDIS_URL cannot be used (Invalid value for 'db'"),
])
def test_the_service_does_not_start_with_a_bad_setting_and_says_which(tmp_path, variable, value, says):
    env = {**os.environ, "BIND": f"127.0.0.1:{free_port()}", "REDIS_URL": "", "WEB_CONCURRENCY": "1",
           "PROMETHEUS_MULTIPROC_DIR": "", variable: value}
    started = subprocess.run([str(VENV_BIN / "gunicorn"), "-c", "gunicorn.conf.py"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=60)
    output = started.stdout + started.stderr
    assert started.returncode != 0
    assert says in output and "Traceback" not in output, output[-2000:]


@pytest.mark.parametrize(("asked", "stream", "wait"), [
    ({}, "3", "3"),                                                           # the defaults: the timeout less 5
    ({"GUNICORN_TIMEOUT": "4"}, "1", "0"),                  # no room: the shortest stream, no wait
    ({"REFEREE_MAX_STREAM_SECONDS": "", "REFEREE_MAX_WAIT_SECONDS": " "}, "3", "3"),   # blank is unset
    ({"REFEREE_MAX_STREAM_SECONDS": "0"}, "3", "3"),                          # no limit: not with sync workers
    ({"REFEREE_MAX_STREAM_SECONDS": "30", "REFEREE_MAX_WAIT_SECONDS": "30"}, "3", "3"),   # over the timeout
    ({"REFEREE_MAX_STREAM_SECONDS": "2", "REFEREE_MAX_WAIT_SECONDS": "1"}, "2", "1"),     # shorter: kept
])
def test_sync_workers_keep_waits_and_streams_within_the_worker_timeout(tmp_path, asked, stream, wait):
    """gunicorn kills a sync worker whose request outlasts GUNICORN_TIMEOUT (8 s here), so
    gunicorn.conf.py lets no stream stay open, and no long-poll wait, longer than 3 s, whatever
    the environment asks (before, an empty or 0 value meant no limit, and the worker was killed)."""
    env = {**os.environ, "GUNICORN_WORKER_CLASS": "sync", "GUNICORN_TIMEOUT": "8",
           "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), **asked}
    for name in ("REFEREE_MAX_STREAM_SECONDS", "REFEREE_MAX_WAIT_SECONDS"):
        if name not in asked:
            env.pop(name, None)
    read = subprocess.run([sys.executable, "-c", "import os, runpy; runpy.run_path('gunicorn.conf.py'); "
                           "print(os.environ['REFEREE_MAX_STREAM_SECONDS'], os.environ['REFEREE_MAX_WAIT_SECONDS'])"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert read.stdout.split()[-2:] == [stream, wait], read.stdout + read.stderr


def test_the_application_config_overrides_the_environment_without_reading_it(monkeypatch):
    monkeypatch.setenv("REFEREE_MAX_STREAM_SECONDS", "abc")
    app = create_app({"TESTING": True, "REFEREE_STORE": MemoryStore(ttl=60), "REFEREE_MAX_STREAM_SECONDS": 0})
    assert app.extensions["referee.stream_limit"] is None     # 0: no limit, as from the environment
    app = create_app({"TESTING": True, "REFEREE_STORE": MemoryStore(ttl=60), "REFEREE_MAX_STREAM_SECONDS": 4.0})
    assert app.extensions["referee.stream_limit"] == 4.0


@pytest.mark.parametrize("url", ["redis://127.0.0.1:7001/0", "redis://127.0.0.1:7001", "rediss://cache.example:6380/1",
                                 "redis://:secret@127.0.0.1:7001/2", "unix:///run/redis/redis.sock?db=0",
                                 "unix:///run/redis/redis.sock", "unix://user:secret@/run/redis/redis.sock?db=1",
                                 "rediss://cache.example:6380/0?ssl_cert_reqs=required", "redis://127.0.0.1:7001/0?protocol=3"])
def test_a_redis_url_redis_py_reads_is_taken(url):
    from referee.store import checked_redis_url

    assert checked_redis_url(url, cluster=False) == url


@pytest.mark.parametrize(("url", "cluster", "says"), [
    ("unix:///run/redis.sock?db=abc", False, "Invalid value for 'db'"),
    ("unix:///run/redis.sock?db=0&socket_timeout=abc", False, "Invalid value for 'socket_timeout'"),
    ("redis://127.0.0.1:notaport/0", False, "Port could not be cast"),
    ("127.0.0.1:7001", False, "must specify one of the following schemes"),
    ("http://127.0.0.1:7001/0", False, "must specify one of the following schemes"),
    ("redis://127.0.0.1:7001/abc", False, "the database 'abc' is not a number"),   # (redis-py: database 0)
    ("unix://run/redis.sock?db=0", False, "names a host ('run')"),                  # (redis-py: /redis.sock)
    ("unix:///run/redis.sock?db=0", True, "REDIS_CLUSTER=1 needs a node's redis:// or rediss:// URL"),
    ("redis://:secret@127.0.0.1:7001/abc", False, "is not a number"),
    ("redis://127.0.0.1:99999/0", False, "Port out of range"),
    ("unix://redis.sock", False, "names a host ('redis.sock')"),             # (redis-py: the path "")
    # Options that would override the store's own bounds: a frozen Redis cost 5 s a request.
    ("redis://127.0.0.1:7001/0?socket_timeout=5", False, "sets socket_timeout, which the store sets itself"),
    ("unix:///run/redis.sock?db=0&socket_connect_timeout=9", False, "REDIS_SOCKET_TIMEOUT_SECONDS"),
    ("redis://127.0.0.1:7001/0?max_connections=2", False, "GUNICORN_WORKER_CONNECTIONS"),
])
def test_a_redis_url_every_match_request_would_fail_on_is_refused(url, cluster, says):
    """Before, the service started, and /readyz and every match request answered 500 (or,
    with a Cluster over a Unix socket, 503 as if Redis were down)."""
    from referee.store import store_from_env

    environ = {"REDIS_URL": url, "REDIS_CLUSTER": "1" if cluster else ""}
    with pytest.raises(SettingError) as refused:
        store_from_env(environ)
    assert says in str(refused.value)
    assert "secret" not in str(refused.value)   # a password in the URL is never repeated
