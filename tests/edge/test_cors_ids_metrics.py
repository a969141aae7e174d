"""Failures 7 and 8, and what an operator watches: CORS for configured origins only, request
ids taken or made and echoed, /metrics correct across gunicorn workers with JSON access log
lines, and no control socket unless a path is given."""

from __future__ import annotations

import json
import re
import time
import urllib.request
import uuid

import pytest

from referee.app import create_app
from referee.games import GAMES
from tests.edge.support import RedisServer, free_port, http, start_gunicorn

ORIGIN = "https://table.example"
PREFLIGHT = {"Origin": ORIGIN, "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "Content-Type, If-Match, Idempotency-Key, Authorization"}


@pytest.fixture(scope="module")
def cors_client():
    return create_app({"TESTING": True, "REFEREE_CORS_ORIGINS": f"{ORIGIN}, https://other.example"}).test_client()


def test_preflight_from_an_allowed_origin(cors_client):
    answer = cors_client.options("/v1/matches/abc/moves", headers=PREFLIGHT)
    assert answer.status_code == 200
    assert answer.headers["Access-Control-Allow-Origin"] == ORIGIN
    allowed = {h.strip().lower() for h in answer.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"content-type", "if-match", "idempotency-key", "authorization"} <= allowed
    assert "POST" in answer.headers["Access-Control-Allow-Methods"]


@pytest.mark.parametrize("path, asked", [
    ("/v1/matches/abc", "Authorization, If-None-Match, Prefer"),   # a long-poll (docs/guides/matches.md)
    ("/v1/matches/abc/events", "Authorization, Last-Event-ID"),     # an event stream resumed with fetch
    # EventSource polyfills (referee/api/http/cors.py): npm eventsource 1 and 2, LaunchDarkly's
    # js-eventsource and react-native-sse send Cache-Control, react-native-sse X-Requested-With
    ("/v1/matches/abc/events", "Authorization, Cache-Control, Last-Event-ID, X-Requested-With"),
    ("/v1/matches/abc/events", "authorization,cache-control,pragma"),   # as a browser words it
])
def test_preflight_allows_what_following_a_match_sends(cors_client, path, asked):
    answer = cors_client.options(path, headers={"Origin": ORIGIN, "Access-Control-Request-Method": "GET",
                                                "Access-Control-Request-Headers": asked})
    assert answer.headers["Access-Control-Allow-Origin"] == ORIGIN
    allowed = {h.strip().lower() for h in answer.headers["Access-Control-Allow-Headers"].split(",")}
    assert {h.strip().lower() for h in asked.split(",")} <= allowed


def test_a_long_poll_answer_exposes_preference_applied(cors_client):
    created = cors_client.post("/v1/matches", json={"game": "catatac", "players": 2}).get_json()
    answer = cors_client.get(f"/v1/matches/{created['id']}", headers={"Origin": ORIGIN, "If-None-Match": '"0"',
                                                                      "Prefer": "wait=1"})
    assert answer.status_code == 304 and answer.headers["Preference-Applied"] == "wait=1"
    exposed = {h.strip().lower() for h in answer.headers["Access-Control-Expose-Headers"].split(",")}
    assert "preference-applied" in exposed


def test_a_401_exposes_its_scheme(cors_client):
    created = cors_client.post("/v1/matches", json={"game": "catatac", "players": 2}).get_json()
    answer = cors_client.get(f"/v1/matches/{created['id']}?seat=0", headers={"Origin": ORIGIN})
    assert answer.status_code == 401 and answer.headers["WWW-Authenticate"].startswith("Bearer")
    exposed = {h.strip().lower() for h in answer.headers["Access-Control-Expose-Headers"].split(",")}
    assert "www-authenticate" in exposed


def test_answer_to_an_allowed_origin_exposes_the_headers(cors_client):
    answer = cors_client.post("/v1/matches", json={"game": "catatac", "players": 2}, headers={"Origin": ORIGIN})
    assert answer.status_code == 201
    assert answer.headers["Access-Control-Allow-Origin"] == ORIGIN
    exposed = {h.strip().lower() for h in answer.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"etag", "location", "retry-after", "idempotent-replayed", "x-request-id"} <= exposed


@pytest.mark.parametrize("origin", [ORIGIN, "https://evil.example", None])
def test_with_one_configured_origin_every_answer_varies_on_origin(origin):
    """Fetch standard, CORS protocol and HTTP caches: Access-Control-Allow-Origin depends on
    the request's Origin, so the answer says Vary: Origin, whichever origin asked (or none)."""
    client = create_app({"TESTING": True, "REFEREE_CORS_ORIGINS": ORIGIN}).test_client()
    answer = client.get("/v1/games", headers={"Origin": origin} if origin else {})
    assert answer.status_code == 200
    assert "origin" in {value.strip().lower() for header in answer.headers.getlist("Vary")
                        for value in header.split(",")}
    assert ("Access-Control-Allow-Origin" in answer.headers) == (origin != "https://evil.example")


def test_refused_origin_gets_no_cors_headers(cors_client):
    answer = cors_client.options("/v1/matches", headers={**PREFLIGHT, "Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in answer.headers
    answer = cors_client.get("/v1/games", headers={"Origin": "https://evil.example"})
    assert answer.status_code == 200 and "Access-Control-Allow-Origin" not in answer.headers


def test_no_origin_configured_means_no_cors(client):
    answer = client.options("/v1/matches", headers=PREFLIGHT)
    assert "Access-Control-Allow-Origin" not in answer.headers


def test_request_id_is_echoed_or_made(client):
    assert client.get("/healthz", headers={"X-Request-ID": "req-42.a"}).headers["X-Request-ID"] == "req-42.a"
    made = client.get("/healthz").headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", made)
    assert uuid.UUID(made).version == 4 and uuid.UUID(made).variant == uuid.RFC_4122
    assert client.get("/healthz").headers["X-Request-ID"] != made
    # Not a sensible token (spaces, too long): replaced by a new id.
    assert re.fullmatch(r"[0-9a-f]{32}",
                        client.get("/healthz", headers={"X-Request-ID": "a b"}).headers["X-Request-ID"])
    assert client.post("/v1/games/nope/setup", json={}, headers={"X-Request-ID": "r1"}).headers["X-Request-ID"] == "r1"


def _metric(text: str, name: str, **labels: str) -> float:
    total = 0.0
    for line in text.splitlines():
        if not (line.startswith(name + "{") or line.startswith(name + " ")):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line.split("}")[0])) if "{" in line else {}
        if all(found.get(k) == v for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


def _metrics_once_settled(base: str, seconds: float = 8.0) -> str:
    """GET /metrics until two answers 1.3 s apart agree (every request of the test counted), at
    most ``seconds``; the last text."""


    def read() -> str:
        with urllib.request.urlopen(base + "/metrics", timeout=5) as answer:
            assert answer.headers["Content-Type"].startswith("text/plain")
            return answer.read().decode()

    deadline = time.monotonic() + seconds
    text = read()
    while True:
        time.sleep(1.3)
        later = read()
        if _counts_of(later) == _counts_of(text):
            return later
        assert time.monotonic() < deadline, "the figures were still moving on"
        text = later


def _counts_of(text: str) -> dict[str, float]:
    """Every sample but the latency sums (which grow with each /metrics answer's own time)."""
    return {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
            if line and not line.startswith("#") and "_sum{" not in line and 'operation="metrics"' not in line}


def _access_log_pids(tmp_path) -> set[int]:
    log = tmp_path / "gunicorn.log"
    text = log.read_text() if log.exists() else ""
    return {json.loads(line)["pid"] for line in text.splitlines() if line.startswith("{")}


def test_metrics_count_every_operation_across_two_workers(tmp_path):
    redis_server = RedisServer(tmp_path / "redis", free_port()).start()
    server = start_gunicorn(tmp_path, WEB_CONCURRENCY="2", REDIS_URL=redis_server.url)
    try:
        game = GAMES["scratch-and-catch"]
        state = game.setup(2, "metrics", {})
        move = game.legal_moves(state)[0]
        base = server.base + "/v1/games/scratch-and-catch"
        sent = {"setup": 0, "legal_moves": 0, "adjudicate": 0, "score": 0, "replay": 0}
        rounds = 0
        # One connection per request; the kernel may hand every one to the same worker for a
        # while (a loaded machine), so rounds go on until both workers have answered some.
        while rounds < 6 or (len(_access_log_pids(tmp_path)) < 2 and rounds < 60):
            assert http("POST", base + "/setup", {"players": 2})[0] == 200
            assert http("POST", base + "/legal-moves", {"state": state})[0] == 200
            assert http("POST", base + "/adjudicate", {"state": state, "move": move})[0] == 200
            assert http("POST", base + "/adjudicate", {"state": state, "move": {**move, "player": 1}})[0] == 200
            assert http("POST", base + "/score", {"state": state})[0] == 200
            assert http("POST", base + "/replay", {"state": state, "moves": [move]})[0] == 200
            for name in sent:
                sent[name] += 1
            rounds += 1
        status, headers, match = http("POST", server.base + "/v1/matches", {"game": "scratch-and-catch", "players": 2,
                                                                             "seed": "metrics"})
        assert status == 201
        match_state = game.setup(2, "metrics", {})
        first = game.legal_moves(match_state)[0]
        auth = {"Authorization": f"Bearer {match['seats'][first['player']]['secret']}"}
        assert http("GET", f"{server.base}/v1/matches/{match['id']}")[0] == 200
        assert http("GET", f"{server.base}/v1/matches/{match['id']}/log")[0] == 200
        assert http("POST", f"{server.base}/v1/matches/{match['id']}/moves", {"move": first},
                    {**auth, "If-Match": '"0"'})[0] == 200
        assert http("GET", f"{server.base}/v1/matches/nope")[0] == 404
        text = _metrics_once_settled(server.base)
        for operation, count in sent.items():
            expected = count * (2 if operation == "adjudicate" else 1)
            assert _metric(text, "referee_requests_total", operation=operation, game="scratch-and-catch",
                           status="200") == expected, operation
        assert _metric(text, "referee_request_duration_seconds_count", operation="adjudicate") == 2 * rounds
        # Each round: one legal move (seat to play) and one illegal (the other seat); plus the match move.
        assert _metric(text, "referee_verdicts_total", game="scratch-and-catch", legal="true") == rounds + 1
        assert _metric(text, "referee_verdicts_total", game="scratch-and-catch", legal="false") == rounds
        assert _metric(text, "referee_requests_total", operation="create_match", status="201") == 1
        assert _metric(text, "referee_requests_total", operation="post_move", game="scratch-and-catch",
                       status="200") == 1
        assert _metric(text, "referee_requests_total", operation="get_match", status="404") == 1
        assert _metric(text, "referee_store_errors_total") == 0
        # The JSON access log: one object per answer, with the echoed request id; both workers answered.
        lines = [json.loads(line) for line in (tmp_path / "gunicorn.log").read_text().splitlines()
                 if line.startswith("{")]
        assert len([line for line in lines if line["path"] == "/v1/games/scratch-and-catch/adjudicate"]) == 2 * rounds
        assert all(re.fullmatch(r"[0-9a-f]{32}", line["request_id"]) for line in lines)
        assert len({line["pid"] for line in lines}) == 2
    finally:
        server.stop()
        redis_server.stop()


def test_match_requests_are_counted_under_their_game():
    """docs/guides/operating.md, "Metrics, logs and health": requests are counted "by operation,
    game and status". A match's game is
    known once its snapshot is read, so every match operation on an existing match names it,
    whatever the status; an unknown match has none."""
    client = create_app({"TESTING": True}).test_client()
    created = client.post("/v1/matches", json={"game": "call-of-katulhu", "players": 2, "seed": "metrics-game"})
    assert created.status_code == 201
    match_id = created.get_json()["id"]
    secret = created.get_json()["seats"][0]["secret"]
    before = client.get("/metrics").get_data(as_text=True)
    placement = client.get(f"/v1/matches/{match_id}/legal-moves?seat=0",
                           headers={"Authorization": f"Bearer {secret}"}).get_json()["moves"][0]
    answers = {
        ("get_match", "200"): client.get(f"/v1/matches/{match_id}"),
        ("get_log", "200"): client.get(f"/v1/matches/{match_id}/log"),
        ("get_legal_moves", "401"): client.get(f"/v1/matches/{match_id}/legal-moves?seat=1"),
        ("post_move", "412"): client.post(f"/v1/matches/{match_id}/moves", json={"move": placement},
                                          headers={"Authorization": f"Bearer {secret}", "If-Match": '"3"'}),
        ("post_move", "200"): client.post(f"/v1/matches/{match_id}/moves", json={"move": placement},
                                          headers={"Authorization": f"Bearer {secret}", "If-Match": '"0"'}),
    }
    assert {key: answer.status_code for key, answer in answers.items()} == {key: int(key[1]) for key in answers}
    assert client.get("/v1/matches/AAAAAAAAAAAAAAAAAAAAAA").status_code == 404
    after = client.get("/metrics").get_data(as_text=True)
    for operation, status in answers:
        counted = (_metric(after, "referee_requests_total", operation=operation, game="call-of-katulhu", status=status)
                   - _metric(before, "referee_requests_total", operation=operation, game="call-of-katulhu",
                             status=status))
        assert counted == 1, (operation, status)
    assert _metric(after, "referee_requests_total", operation="create_match", game="call-of-katulhu",
                   status="201") >= 1
    assert (_metric(after, "referee_requests_total", operation="get_match", game="-", status="404")
            - _metric(before, "referee_requests_total", operation="get_match", game="-", status="404")) == 1


def test_store_errors_are_counted(tmp_path):
    server = start_gunicorn(tmp_path, REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")
    try:
        status, headers, _ = http("GET", server.base + "/v1/matches/abc")
        assert status == 503 and headers["Retry-After"]
        with urllib.request.urlopen(server.base + "/metrics", timeout=5) as answer:
            text = answer.read().decode()
        assert _metric(text, "referee_store_errors_total") == 1
        assert _metric(text, "referee_requests_total", operation="get_match", status="503") == 1
    finally:
        server.stop()


def test_no_control_socket_unless_a_path_is_given(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    server = start_gunicorn(tmp_path, HOME=str(home))
    try:
        assert http("GET", server.base + "/healthz")[0] == 200
        assert not (home / ".gunicorn").exists()
    finally:
        server.stop()
    path = tmp_path / "referee.ctl"
    server = start_gunicorn(tmp_path, HOME=str(home), REFEREE_CONTROL_SOCKET=str(path))
    try:
        deadline = time.monotonic() + 5
        while not path.exists():
            assert time.monotonic() < deadline, "no control socket at the path given"
            time.sleep(0.05)
        assert path.is_socket() and not (home / ".gunicorn").exists()
    finally:
        server.stop()


def test_the_access_log_counts_the_bytes_of_files_and_answers(tmp_path):
    """``bytes`` in the JSON access log is the body sent, for a file (a docs asset) as for a JSON
    answer (gunicorn counts nothing that sendfile() sent, so files are written)."""
    server = start_gunicorn(tmp_path)
    try:
        with urllib.request.urlopen(server.base + "/docs/assets/swagger-ui.css", timeout=5) as answer:
            asset = answer.read()
        with urllib.request.urlopen(server.base + "/v1/games", timeout=5) as answer:
            games = answer.read()
        assert len(asset) > 10_000
        deadline = time.monotonic() + 5
        while True:
            lines = {record["path"]: record for record in map(json.loads, (
                text for text in (tmp_path / "gunicorn.log").read_text().splitlines() if text.startswith("{")))}
            if {"/docs/assets/swagger-ui.css", "/v1/games"} <= set(lines) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert lines["/docs/assets/swagger-ui.css"]["bytes"] == len(asset)
        assert lines["/v1/games"]["bytes"] == len(games)
    finally:
        server.stop()
