"""A move wakes every event stream of its match; each stream must then fetch what is new, not
the whole log again. Before, every stream read and rendered every entry of the log on every
move: with a long match and many spectators, one move cost listeners x log size (a Call of
Katulhu log of 3,000 moves is 900 KB and 45 ms of CPU per stream and per move).

Measured in bytes, not time: a TCP proxy between gunicorn and a real redis-server counts the
bytes Redis sends while one move reaches every stream."""

from __future__ import annotations

import json
import random
import socket
import time

import pytest

from tests.edge.support import DelayProxy, read_until, start_gunicorn
from tests.edge.support import http as call
from tests.support.matches_support import RedisServer, have

pytestmark = pytest.mark.skipif(not have("redis-server"), reason="needs redis-server")

STREAMS = 8
MOVES = 150


def _open_stream(port: int, match_id: str, after: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET /v1/matches/{match_id}/events HTTP/1.1\r\nHost: referee\r\n"
                 f"Last-Event-ID: {after}\r\n\r\n".encode())
    return sock


def test_a_move_costs_each_stream_its_new_entry_not_the_whole_log(tmp_path):
    redis_server = RedisServer(tmp_path / "redis").start()
    proxy = DelayProxy(redis_server.port)
    server = start_gunicorn(tmp_path, REDIS_URL=proxy.url, GUNICORN_ACCESS_LOG="",
                            REFEREE_EVENTS_HEARTBEAT_SECONDS="30")
    streams: list[socket.socket] = []
    try:
        status, _, match = call("POST", server.base + "/v1/matches",
                                {"game": "call-of-katulhu", "players": 2, "seed": "fanout"})
        assert status == 201
        match_id, secrets = match["id"], [s["secret"] for s in match["seats"]]
        rnd = random.Random(7)
        version = 0

        def play_one() -> None:
            nonlocal version
            seat = version % 2
            _, _, listed = call("GET", f"{server.base}/v1/matches/{match_id}/legal-moves?seat={seat}",
                                headers={"Authorization": f"Bearer {secrets[seat]}"})
            if not listed["moves"]:
                seat = 1 - seat
                _, _, listed = call("GET", f"{server.base}/v1/matches/{match_id}/legal-moves?seat={seat}",
                                    headers={"Authorization": f"Bearer {secrets[seat]}"})
            move = rnd.choice(listed["moves"])
            status, _, verdict = call("POST", f"{server.base}/v1/matches/{match_id}/moves", {"move": move},
                                      headers={"Authorization": f"Bearer {secrets[seat]}",
                                               "If-Match": f'"{version}"'})
            assert status == 200 and verdict["legal"], verdict
            version += 1

        while version < MOVES:
            play_one()
        status, _, log = call("GET", f"{server.base}/v1/matches/{match_id}/log")
        log_bytes = len(json.dumps(log["entries"]))
        assert log_bytes > 30_000, log_bytes   # long enough for the whole log to show

        streams = [_open_stream(server.port, match_id, version) for _ in range(STREAMS)]
        for sock in streams:
            assert b"retry:" in read_until(sock, b"retry:", 10)
        time.sleep(0.5)   # every stream has read the log once and waits
        before = proxy.replied
        play_one()
        for sock in streams:
            assert f"id: {version}".encode() in read_until(sock, f"id: {version}".encode(), 10)
        time.sleep(0.3)   # the streams are waiting again
        per_stream = (proxy.replied - before) / STREAMS
        # What a stream needs per move: the new entry, and the snapshot (a state of a few KB)
        # to tell whether the game is over; not the 30 KB and more of the whole log.
        assert per_stream < log_bytes / 4, (per_stream, log_bytes)
    finally:
        for sock in streams:
            sock.close()
        server.stop()
        proxy.close()
        redis_server.stop()
