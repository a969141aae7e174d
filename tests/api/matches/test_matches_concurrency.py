"""Concurrent moves on one match through two gunicorn servers (two workers each) sharing one
Redis: exactly one move wins each version, and the log has no gap and no duplicate. Also:
gunicorn refuses several workers without REDIS_URL."""

from __future__ import annotations

import json
import os
import random
import subprocess
import threading
from collections import defaultdict

import pytest
import redis

from referee.games import GAMES
from referee.store.redis import keys_of
from tests.support.matches_support import ROOT, VENV_BIN, Gunicorn, http

THREADS = 16
TARGET_VERSION = 40
GAME = GAMES["scratch-and-catch"]


@pytest.fixture(scope="module")
def servers(redis_url, tmp_path_factory):
    log = tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"
    env = {"REDIS_URL": redis_url, "WEB_CONCURRENCY": "2", "GUNICORN_LOG_LEVEL": "warning"}
    started = []
    try:
        for _ in range(2):
            started.append(Gunicorn(env, log).start())
        yield started
    finally:
        for server in started:
            server.stop()


def test_one_winner_per_version_and_a_log_without_gaps(servers, redis_url):
    status, headers, match = http("POST", servers[0].base + "/v1/matches",
                                  {"game": "scratch-and-catch", "players": 4, "seed": "race"})
    assert status == 201
    match_id = match["id"]
    raw = redis.Redis.from_url(redis_url, decode_responses=True)
    snap_key = keys_of(match_id)[0]
    results: list[tuple[int, int, bool | None, dict]] = []  # (expected version, status, legal, move)
    lock = threading.Lock()
    errors: list[BaseException] = []

    def player(index: int) -> None:
        chooser = random.Random(index)
        try:
            while True:
                version, state = raw.hmget(snap_key, ("version", "state"))
                version = int(version)
                state = json.loads(state)
                legal = GAME.legal_moves(state)
                if version >= TARGET_VERSION or not legal:
                    return
                move = chooser.choice(legal)
                server = servers[(index + version) % 2]
                secret = match["seats"][move["player"]]["secret"]
                code, _, body = http("POST", f"{server.base}/v1/matches/{match_id}/moves", {"move": move},
                                     {"If-Match": f'"{version}"', "Authorization": f"Bearer {secret}"})
                with lock:
                    results.append((version, code, body.get("legal"), move))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=player, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    winners: dict[int, list[dict]] = defaultdict(list)
    for version, code, legal, move in results:
        assert code in (200, 412), (code, version)
        if code == 200:
            assert legal is True
            winners[version].append(move)
    final = int(raw.hget(snap_key, "version"))
    assert final >= TARGET_VERSION or not GAME.legal_moves(json.loads(raw.hget(snap_key, "state")))
    assert sorted(winners) == list(range(final)), "every version has a winner"
    assert all(len(moves) == 1 for moves in winners.values()), "one winner per version"
    assert sum(1 for r in results if r[1] == 412) > 0, "the threads did race"
    status, _, log = http("GET", f"{servers[1].base}/v1/matches/{match_id}/log")
    assert [entry["version"] for entry in log["entries"]] == list(range(1, final + 1))
    assert [entry["move"] for entry in log["entries"]] == [winners[v][0] for v in range(final)]
    raw.close()


def test_several_workers_without_redis_refuse_to_start(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(WEB_CONCURRENCY="3", BIND="127.0.0.1:0")
    done = subprocess.run([str(VENV_BIN / "gunicorn"), "-c", "gunicorn.conf.py"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode != 0
    assert "3 workers need a shared match store: set REDIS_URL" in done.stderr
    # It points at the page that tells how to set REDIS_URL, and that page does.
    assert "(see docs/guides/operating.md, the match store)" in done.stderr
    assert "REDIS_URL=redis://" in (ROOT / "docs" / "guides" / "operating.md").read_text(encoding="utf-8")
    # Both ways to ask for one worker are named: the environment and the serve command's option.
    assert "WEB_CONCURRENCY=1, or referee serve --workers 1" in done.stderr
