"""Failure 1 of the edge issue: slow or idle clients must not stall the service. With the
default worker model (gevent, one worker, as the image runs it), 200 connections that send a
request head and then trickle their body, plus idle connections, leave /healthz answering
fast; a keep-alive connection serves several requests."""

from __future__ import annotations

import pytest
import http.client
import socket
import statistics
import threading
import time

from tests.edge.support import start_gunicorn, timed_get

HEAD = (b"POST /v1/games/scratch-and-catch/adjudicate HTTP/1.1\r\nHost: referee\r\n"
        b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n")


@pytest.mark.timing
def test_trickling_and_idle_clients_do_not_hold_the_worker(tmp_path):
    server = start_gunicorn(tmp_path, WEB_CONCURRENCY="1")
    stop = threading.Event()
    sockets: list[socket.socket] = []
    try:
        for _ in range(200):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            sock.sendall(HEAD + b"{")
            sockets.append(sock)
        idle = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(20)]

        def trickle():
            while not stop.is_set():
                for sock in sockets:
                    try:
                        sock.send(b" ")
                    except OSError:
                        pass
                stop.wait(0.5)
        threading.Thread(target=trickle, daemon=True).start()
        time.sleep(0.5)
        probes = []
        for _ in range(30):
            status, seconds = timed_get(server.base + "/healthz")
            assert status == 200
            probes.append(seconds)
            time.sleep(0.05)
        probes.sort()
        # Sync workers answered 67-70% of such probes after more than 2 s (the issue).
        # A few ms on an idle machine; the bound on the slowest leaves room for a busy test machine.
        assert statistics.median(probes) < 0.1, probes
        assert probes[-1] < 1.0, probes
        for sock in idle:
            sock.close()
    finally:
        stop.set()
        for sock in sockets:
            sock.close()
        server.stop()
    assert "Using worker: gevent" in (tmp_path / "gunicorn.log").read_text()


def test_connections_are_kept_alive(tmp_path):
    server = start_gunicorn(tmp_path)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        for _ in range(3):
            connection.request("GET", "/healthz")
            answer = connection.getresponse()
            assert answer.status == 200 and answer.read() == b'{"status":"ok"}'
            assert answer.getheader("Connection", "keep-alive").lower() == "keep-alive"
        connection.close()
    finally:
        server.stop()
