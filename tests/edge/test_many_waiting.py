"""Many requests waiting for the same move on one worker (docs/guides/matches.md, "Following a match live": up to
REFEREE_MAX_WAITING per worker): when the move lands they all wake at once, and each must get
the new version (200), not 503, from a Redis that is answering; the move itself gets 200.

Real processes: gunicorn (gevent, one worker) and a redis-server of the test's own. Marked
``timing``: how many wake-ups a worker serves within the store deadline depends on the
machine, so the test runs alone after the others (.ci/run), never beside them.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time

import pytest

from referee.games import GAMES
from tests.edge.support import RedisServer, free_port, http, read_until, start_gunicorn

WAITING = 600   # under REFEREE_MAX_WAITING (750 per worker)


def _blocked_clients(port: int) -> int:
    info = subprocess.run(["redis-cli", "-p", str(port), "info", "clients"], capture_output=True, text=True,
                          timeout=5).stdout
    return int(next(line.split(":")[1] for line in info.splitlines() if line.startswith("blocked_clients:")))


@pytest.mark.timing
def test_every_waiting_request_gets_the_move_that_woke_it(tmp_path):
    redis_server = RedisServer(tmp_path / "redis", free_port()).start()
    server = start_gunicorn(tmp_path, WEB_CONCURRENCY="1", REDIS_URL=redis_server.url, GUNICORN_ACCESS_LOG="")
    socks: list[socket.socket] = []
    try:
        status, _, match = http("POST", server.base + "/v1/matches",
                                {"game": "scratch-and-catch", "players": 2, "seed": "many"})
        assert status == 201
        path = f"/v1/matches/{match['id']}"
        request = (f"GET {path} HTTP/1.1\r\nHost: referee\r\nIf-None-Match: \"0\"\r\nPrefer: wait=30\r\n"
                   "Connection: close\r\n\r\n").encode()
        for _ in range(WAITING):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
            sock.sendall(request)
            socks.append(sock)
        deadline = time.monotonic() + 60
        while _blocked_clients(redis_server.port) < WAITING:
            assert time.monotonic() < deadline, f"only {_blocked_clients(redis_server.port)} requests wait"
            time.sleep(0.2)

        state = GAMES["scratch-and-catch"].setup(2, "many", {})
        move = GAMES["scratch-and-catch"].legal_moves(state)[0]
        status, headers, verdict = http("POST", server.base + path + "/moves", {"move": move},
                                        {"If-Match": '"0"',
                                         "Authorization": f"Bearer {match['seats'][move['player']]['secret']}"})
        assert status == 200 and verdict["legal"] and headers["ETag"] == '"1"', (status, verdict)

        statuses: dict[str, int] = {}
        for sock in socks:
            answer = read_until(sock, None, 60)
            head, _, body = answer.partition(b"\r\n\r\n")
            line = head.split(b"\r\n", 1)[0].decode()
            statuses[line] = statuses.get(line, 0) + 1
            if line.startswith("HTTP/1.1 200"):
                assert json.loads(body)["version"] == 1
        assert statuses == {"HTTP/1.1 200 OK": WAITING}, statuses
    finally:
        for sock in socks:
            sock.close()
        server.stop()
        redis_server.stop()
