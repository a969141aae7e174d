"""The end of a finished match's event stream, as the HTML standard's server-sent events
("Server-sent events", processing model) have a client read it: a reader that has the ``end``
event (its Last-Event-ID is the final version, or beyond) is answered 204 No Content, which
makes an EventSource fail the connection instead of reconnecting; a reader without it gets the
entries it misses and ``end``, whose id is the final version, so that its reconnection is
answered 204. In process on the in-memory store, and on the wire under gunicorn."""

from __future__ import annotations

import json
import socket

import pytest

from referee.api.ops.live import WaitingSlots
from referee.app import create_app
from referee.games import GAMES
from referee.store.memory import MemoryStore
from tests.support.matches_support import Gunicorn, play_first_moves
from tests.support.matches_support import http as call

GAME = GAMES["scratch-and-catch"]


def parse_stream(text: str) -> tuple[list[dict], str, int | None]:
    """The events an EventSource dispatches from ``text`` (HTML standard, "Interpreting an
    event stream"): ``[{"type", "data", "last_event_id"}]``, the last event ID it would send
    on reconnection, and the reconnection time (``retry``, ms) or None."""
    events, last_id, retry = [], "", None
    data, kind = [], ""
    for line in text.replace("\r\n", "\n").split("\n"):
        if line == "":
            if data:
                events.append({"type": kind or "message", "data": "\n".join(data), "last_event_id": last_id})
            data, kind = [], ""
            continue
        if line.startswith(":"):
            continue
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "data":
            data.append(value)
        elif field == "event":
            kind = value
        elif field == "id" and "\0" not in value:
            last_id = value
        elif field == "retry" and value.isdigit():
            retry = int(value)
    return events, last_id, retry


@pytest.fixture(scope="module")
def finished():
    """An app on an in-memory store with no waiting slot to give (every wait is 503), and a
    seeded two-seat Scratch & Catch match played to its end: (client, match, final version)."""
    store = MemoryStore(ttl=3600)
    client = create_app({"TESTING": True, "REFEREE_STORE": store, "REFEREE_WAITING": WaitingSlots(0)}).test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "end"}).get_json()
    secrets = [seat["secret"] for seat in match["seats"]]
    return client, match, play_first_moves(client, store, match, secrets)


def _readers(match) -> list[tuple[str, dict]]:
    """The spectator and each seat with its secret: (query, headers)."""
    return [("", {})] + [(f"?seat={seat['seat']}", {"Authorization": f"Bearer {seat['secret']}"})
                         for seat in match["seats"]]


def test_a_reader_that_has_the_end_gets_204_and_nothing_else(finished):
    client, match, final = finished
    for query, auth in _readers(match):
        for last in (str(final), f" {final}\t", str(final + 1), "9" * 18):
            answer = client.get(f"/v1/matches/{match['id']}/events{query}", headers={**auth, "Last-Event-ID": last})
            # RFC 9110 section 15.3.5: no content; nothing to describe with a Content-Type.
            assert answer.status_code == 204, (query, last)
            assert answer.data == b"" and "Content-Type" not in answer.headers
            assert answer.headers["Cache-Control"] == "no-store"
    # The app has no waiting slot (REFEREE_WAITING 0): a 204 never takes one; a stream does.
    assert client.get(f"/v1/matches/{match['id']}/events", headers={"Last-Event-ID": str(final - 1)}
                      ).status_code == 503


def test_the_secret_is_checked_before_the_204(finished):
    client, match, final = finished
    seat1 = {"Authorization": f"Bearer {match['seats'][1]['secret']}"}
    assert client.get(f"/v1/matches/{match['id']}/events?seat=0", headers={"Last-Event-ID": str(final)}
                      ).status_code == 401
    assert client.get(f"/v1/matches/{match['id']}/events?seat=0", headers={**seat1, "Last-Event-ID": str(final)}
                      ).status_code == 403
    assert client.get(f"/v1/matches/{match['id']}/events", headers={"Last-Event-ID": "x"}).status_code == 422


@pytest.mark.parametrize("behind", [None, 1, 3])
def test_a_reader_without_the_end_gets_what_it_misses_then_end_and_its_reconnection_204(behind):
    """Without Last-Event-ID, or ``behind`` versions short of the end: the missing entries, each
    as /log shows them to that reader, then ``end`` (the outcome and scores that reader's match
    answer shows), whose id is the final version; the stream closes, and an EventSource
    reconnecting with the last event ID it then holds is answered 204."""
    store = MemoryStore(ttl=3600)
    client = create_app({"TESTING": True, "REFEREE_STORE": store}).test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "end"}).get_json()
    secrets = [seat["secret"] for seat in match["seats"]]
    version = 0
    while not (state := json.loads(store.get(match["id"]).state))["finished"]:
        chosen = GAME.legal_moves(state)[0]
        client.post(f"/v1/matches/{match['id']}/moves", json={"move": chosen},
                    headers={"Authorization": f"Bearer {secrets[chosen['player']]}", "If-Match": f'"{version}"'})
        version += 1
    for query, auth in _readers(match):
        headers = dict(auth) if behind is None else {**auth, "Last-Event-ID": str(version - behind)}
        answer = client.get(f"/v1/matches/{match['id']}/events{query}", headers=headers)
        assert answer.status_code == 200 and answer.mimetype == "text/event-stream"
        events, last_id, retry = parse_stream(b"".join(answer.response).decode())   # it ends by itself
        entries = client.get(f"/v1/matches/{match['id']}/log{query}", headers=auth).get_json()["entries"]
        missed = [] if behind is None else entries[version - behind:]
        assert [(e["type"], json.loads(e["data"]), e["last_event_id"]) for e in events[:-1]] == \
            [("move", entry, str(entry["version"])) for entry in missed]
        seen = client.get(f"/v1/matches/{match['id']}{query}", headers=auth).get_json()
        assert seen["outcome"]["finished"]
        assert (events[-1]["type"], json.loads(events[-1]["data"])) == \
            ("end", {"outcome": seen["outcome"], "scores": seen["scores"]})
        assert events[-1]["last_event_id"] == last_id == str(version) and retry == 1000
        again = client.get(f"/v1/matches/{match['id']}/events{query}", headers={**auth, "Last-Event-ID": last_id})
        assert again.status_code == 204 and again.data == b""


def test_an_unfinished_match_at_the_named_version_keeps_streaming():
    client = create_app({"TESTING": True, "REFEREE_STORE": MemoryStore(ttl=3600)}).test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}).get_json()
    answer = client.get(f"/v1/matches/{match['id']}/events", headers={"Last-Event-ID": "5"})
    assert answer.status_code == 200 and answer.mimetype == "text/event-stream"
    assert next(iter(answer.response)) == b"retry: 1000\nid: 0\n\n"
    answer.close()


def _head_and_rest(sock: socket.socket, request: bytes) -> tuple[list[str], bytes]:
    """Send ``request``; the answer's head lines and whatever followed it within 0.5 s."""
    sock.sendall(request)
    received = b""
    while b"\r\n\r\n" not in received:
        part = sock.recv(65536)
        assert part, "the server closed the connection before its answer's head"
        received += part
    head, _, rest = received.partition(b"\r\n\r\n")
    sock.settimeout(0.5)
    try:
        while part := sock.recv(65536):
            rest += part
    except socket.timeout:
        pass
    sock.settimeout(10)
    return head.decode("latin-1").split("\r\n"), rest


def test_on_the_wire_the_204_has_no_body_framing_and_keeps_the_connection(tmp_path):
    """gunicorn (gevent worker, in-memory store): RFC 9110 section 8.6 and RFC 9112 section 6.1
    forbid Content-Length and Transfer-Encoding on a 204, and nothing follows its head; the
    connection stays open for the next request (HTTP/1.1 persistence)."""
    server = Gunicorn({"WEB_CONCURRENCY": "1", "REDIS_URL": "", "REFEREE_CORS_ORIGINS": "", "HOME": str(tmp_path)},
                      tmp_path / "gunicorn.log").start()
    try:
        _, _, match = call("POST", server.base + "/v1/matches", {"game": "scratch-and-catch", "players": 2,
                                                                  "seed": "end"})
        secrets = [seat["secret"] for seat in match["seats"]]
        version = 0
        while True:
            _, _, seen = call("GET", f"{server.base}/v1/matches/{match['id']}")
            if seen["outcome"]["finished"]:
                break
            seat = seen["state"]["turn"]["player"]
            auth = {"Authorization": f"Bearer {secrets[seat]}"}
            _, _, listed = call("GET", f"{server.base}/v1/matches/{match['id']}/legal-moves?seat={seat}", headers=auth)
            status, _, verdict = call("POST", f"{server.base}/v1/matches/{match['id']}/moves",
                                      {"move": listed["moves"][0]}, headers={**auth, "If-Match": f'"{version}"'})
            assert status == 200 and verdict["legal"]
            version += 1
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            lines, rest = _head_and_rest(sock, (f"GET /v1/matches/{match['id']}/events HTTP/1.1\r\n"
                                                f"Host: 127.0.0.1\r\nLast-Event-ID: {version}\r\n\r\n").encode())
            assert lines[0].split(" ", 2)[:2] == ["HTTP/1.1", "204"]
            names = {line.partition(":")[0].strip().lower() for line in lines[1:]}
            assert not names & {"content-length", "transfer-encoding", "content-type"}
            assert rest == b""
            lines, _ = _head_and_rest(sock, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert lines[0].split(" ", 2)[:2] == ["HTTP/1.1", "200"]
    finally:
        server.stop()
