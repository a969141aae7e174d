"""The waiting slots (REFEREE_MAX_WAITING) are given back by every request that took one,
including requests whose event stream is never sent: a HEAD request answers the headers of
the stream without its body. Against gunicorn as the image runs it (gevent, one worker)."""

from __future__ import annotations

import http.client

from tests.edge.support import http as call, start_gunicorn


def _status(port: int, method: str, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request(method, path)
        answer = connection.getresponse()
        return answer.status
    finally:
        connection.close()


def test_head_requests_on_an_event_stream_give_their_slot_back(tmp_path):
    server = start_gunicorn(tmp_path, REFEREE_MAX_WAITING="2")
    try:
        status, _, match = call("POST", server.base + "/v1/matches",
                                {"game": "scratch-and-catch", "players": 2, "seed": "heads"})
        assert status == 201
        events = f"/v1/matches/{match['id']}/events"
        # Each HEAD answers like the GET it stands for, with no body; none may keep a slot.
        assert [_status(server.port, "HEAD", events) for _ in range(5)] == [200] * 5
        # The slots are free: a long-poll waiting 0 seconds is answered 304, not 503.
        status, _, _ = call("GET", server.base + f"/v1/matches/{match['id']}",
                            headers={"If-None-Match": '"0"', "Prefer": "wait=0"})
        assert status == 304
    finally:
        server.stop()
