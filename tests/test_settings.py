"""Settings from the environment (README, Configuration): a bad value stops the service at start
and names the variable; none reaches a request."""

from __future__ import annotations

import os
import subprocess

import pytest

from referee.api import live
from referee.api.transport import body_timeout_from_env
from referee.settings import SettingError, number
from referee.store import store_from_env
from tests.matches.matches_support import ROOT, VENV_BIN, free_port


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
    assert live.stream_limit_from_env({"REFEREE_MAX_STREAM_SECONDS": "2.5"}) == 2.5
    assert live.max_wait_from_env({"REFEREE_MAX_WAIT_SECONDS": "-4"}) == 0               # negative: no wait


@pytest.mark.parametrize(("variable", "value", "says"), [
    ("REFEREE_MAX_STREAM_SECONDS", "abc", "Referee: REFEREE_MAX_STREAM_SECONDS must be a number, not 'abc'"),
    ("GUNICORN_TIMEOUT", "30s", "Referee: GUNICORN_TIMEOUT must be a whole number, not '30s'"),
])
def test_the_service_does_not_start_with_a_bad_setting_and_says_which(tmp_path, variable, value, says):
    env = {**os.environ, "BIND": f"127.0.0.1:{free_port()}", "REDIS_URL": "", "WEB_CONCURRENCY": "1",
           "PROMETHEUS_MULTIPROC_DIR": "", variable: value}
    started = subprocess.run([str(VENV_BIN / "gunicorn"), "-c", "gunicorn.conf.py"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=60)
    output = started.stdout + started.stderr
    assert started.returncode != 0
    assert says in output and "Traceback" not in output, output[-2000:]
