"""A connection the store's pool hands out never has a reply pending, so a command never
reads another command's reply (a request interrupted between sending a command and reading
its reply releases such a connection). The pool's check answers with the OS's poll, cheap
under gevent, and the pool acts on it: redis-py 8 ignores it while maintenance notifications
are "auto", its default."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
import redis

from referee.store import StoreUnavailable
from referee.store.redis import IdleCheckedConnection, IdleCheckedUnixConnection, RedisStore
from tests.support.matches_support import have, wait_for

pytestmark = pytest.mark.skipif(not have("redis-server"), reason="needs redis-server")


@pytest.fixture(scope="module")
def unix_redis_url(tmp_path_factory):
    """A redis-server listening on a Unix socket only (``unix://`` URL)."""
    folder = tmp_path_factory.mktemp("unix-redis")
    path = folder / "redis.sock"
    process = subprocess.Popen(["redis-server", "--port", "0", "--unixsocket", str(path), "--unixsocketperm", "700",
                                "--save", "", "--appendonly", "no", "--dir", str(folder)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"unix://{path}?db=0"
    try:
        wait_for(lambda: _answers(url), what="redis-server on a Unix socket")
        yield url
    finally:
        process.terminate()
        process.wait(5)


def _answers(url: str) -> bool:
    try:
        return redis.Redis.from_url(url).ping()
    except redis.RedisError:
        return False


@pytest.fixture(params=["tcp", "unix"])
def url_and_class(request, redis_url):
    """The store's URL of each transport, and the connection class its pool must hand out."""
    if request.param == "tcp":
        return redis_url, IdleCheckedConnection
    return request.getfixturevalue("unix_redis_url"), IdleCheckedUnixConnection


@pytest.mark.parametrize("blocking", [False, True], ids=["commands", "waits"])
def test_a_connection_with_a_reply_pending_is_not_handed_out(url_and_class, blocking):
    url, connection_class = url_and_class
    store = RedisStore(url)
    client = store.blocking_client() if blocking else store.client()
    connection = client.connection_pool.get_connection()
    try:
        assert type(connection) is connection_class
        assert connection.can_read(0) is False  # idle: nothing pending
        connection.send_command("ECHO", "pending")
        connection._sock.settimeout(5)
        assert connection.can_read(1) is True  # the reply arrives (redis-py's own check)
        assert connection.can_read(0) is True  # and is seen by the cheap check too
    finally:
        client.connection_pool.release(connection)
    # The pool finds the pending reply when it hands the connection out again, and reconnects.
    assert client.echo("fresh") == "fresh"
    assert client.echo("again") == "again"


def test_a_reply_buffered_by_the_parser_counts_as_pending(url_and_class):
    client = RedisStore(url_and_class[0]).client()
    connection = client.connection_pool.get_connection()
    try:
        connection.send_command("ECHO", "one")
        connection.send_command("ECHO", "two")
        time.sleep(0.2)  # both replies arrive, so the read of "one" takes "two" into the buffer
        assert connection.read_response() == "one"
        assert connection._parser._reader.has_data()  # "two" waits in the parser, not the socket
        assert connection.can_read(0) is True
    finally:
        client.connection_pool.release(connection)
    assert client.echo("three") == "three"


def test_scripts_flushed_by_a_restarted_redis_are_loaded_again(redis_url):
    """A Redis that restarted (or ran SCRIPT FLUSH) answers NOSCRIPT: the store loads the
    script and runs it again, once, on the same connection."""
    store = RedisStore(redis_url, ttl=100)
    store.create("flushed", '{"game":"x"}', '{"v":0}', time.time())
    redis.Redis.from_url(redis_url).script_flush()
    assert store.commit("flushed", 0, '{"v":1}', '{"version":1}', time.time()).kind == "ok"
    redis.Redis.from_url(redis_url).script_flush()
    assert store.log("flushed") == ['{"version":1}']
    assert store.get("flushed").version == 1


def test_a_failed_command_does_not_leave_its_reply_behind(redis_url):
    """An error reply (a wrong type) raises, and the connection answers the next command with
    the next reply."""
    store = RedisStore(redis_url, ttl=100)
    client = store.client()
    client.set("match:{typed}:snap", "not a hash")
    with pytest.raises(StoreUnavailable):
        store.commit("typed", 0, "{}", "{}", time.time())
    assert client.echo("next") == "next"


def test_a_url_redis_py_cannot_read_makes_the_store_unavailable_not_an_error():
    """The service refuses such a URL at start (referee.store.checked_redis_url); a store
    made with one anyway answers as a store that cannot be reached, never with a ValueError
    (the library's words for the log, the reason alone for readiness)."""
    store = RedisStore("unix:///tmp/referee-no-such.sock?db=abc")
    health = store.health()
    assert health["error"] == "cannot reach Redis" and health["ok"] is False
    assert "Invalid value for 'db'" in health["detail"]   # for the log only: /readyz leaves it out
    with pytest.raises(StoreUnavailable, match="Invalid value for 'db'") as raised:
        store.get("any")
    assert raised.value.reason == "cannot reach Redis"


_FULL_QUEUE = r"""
from gevent import monkey
monkey.patch_all()
import os, socket, sys, tempfile
path = os.path.join(tempfile.mkdtemp(), "redis.sock")
listener = socket.socket(socket.AF_UNIX)
listener.bind(path)
listener.listen(1)            # never accepted: a frozen Redis whose accept queue fills up
held = []
while True:
    queued = socket.socket(socket.AF_UNIX)
    queued.setblocking(False)
    try:
        queued.connect(path)
    except BlockingIOError:
        break
    held.append(queued)
from referee.store import StoreUnavailable
from referee.store.redis import RedisStore
store = RedisStore(f"unix://{path}?db=0", socket_timeout=0.25, deadline=0.5)
print(store.health())
try:
    store.get("any")
except StoreUnavailable as error:
    print("unavailable:", error)
"""


def test_a_unix_socket_redis_whose_queue_is_full_is_unavailable_not_an_error():
    """Under gevent a connect to a Unix socket whose accept queue is full waits, then times
    out; redis-py then read the connection's host and port, which a Unix socket connection
    lacked: an AttributeError, answered 500 by /readyz and every match request. Now the
    store answers "unavailable" (503), as it does over TCP."""
    ran = subprocess.run([sys.executable, "-c", _FULL_QUEUE], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert "'ok': False" in ran.stdout and "Timeout connecting to server" in ran.stdout
    assert "unavailable: Redis did not answer: Timeout connecting to server" in ran.stdout


def test_readiness_says_why_redis_refused_without_naming_it(tmp_path):
    """A wrong password and a database out of range are Redis refusing, not Redis silent:
    readiness says so, and the library's words (which name the address) go to the log."""
    from referee.app import create_app
    from tests.support.matches_support import RedisServer, free_port

    server = RedisServer(tmp_path / "redis", free_port()).start()
    subprocess.run(["redis-cli", "-p", str(server.port), "config", "set", "requirepass", "sesame"], check=True,
                   capture_output=True, timeout=10)
    try:
        for url, reason in ((f"redis://:wrong@127.0.0.1:{server.port}/0", "Redis refused the credentials"),
                            (f"redis://:sesame@127.0.0.1:{server.port}/99", "Redis refused the request")):
            client = create_app({"TESTING": True, "REFEREE_STORE": RedisStore(url, socket_timeout=0.3)}).test_client()
            ready = client.get("/readyz")
            assert ready.status_code == 503
            assert ready.get_json()["store"] == {"kind": "redis", "ok": False, "error": reason}
            assert str(server.port) not in ready.get_data(as_text=True) and "sesame" not in ready.get_data(as_text=True)
    finally:
        server.stop()
