"""Matches on a real 3-node Redis Cluster started by the test run: the same Lua scripts and
keys (one hash tag per match) work unchanged, for matches spread over every node."""

from __future__ import annotations

import json
import threading
import time

import pytest
import redis

from referee.app import create_app
from referee.games import GAMES
from referee.store.redis import RedisStore, keys_of
from tests.support.matches_support import RedisCluster3, have

pytestmark = pytest.mark.skipif(not (have("redis-cli") and have("redis-server")),
                                reason="redis-cli/redis-server not installed: cannot create a Redis Cluster")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    nodes = RedisCluster3(tmp_path_factory.mktemp("cluster")).start()
    yield nodes
    nodes.stop()


def test_matches_on_a_three_node_cluster(cluster):
    store = RedisStore(cluster.url, cluster=True, ttl=600)
    app = create_app({"TESTING": True, "REFEREE_STORE": store})
    client = app.test_client()
    assert client.get("/readyz").get_json()["store"] == {"kind": "redis-cluster", "ok": True}
    game = GAMES["scratch-and-catch"]
    raw = redis.RedisCluster.from_url(cluster.url)
    owners = set()
    index = 0
    while len(owners) < 3 or index < 6:
        assert index < 60, "matches should land on every node"
        index += 1
        match = client.post("/v1/matches",
                            json={"game": "scratch-and-catch", "players": 2, "seed": f"c{index}"}).get_json()
        match_id = match["id"]
        owners.add(raw.get_node_from_key(keys_of(match_id)[0]).port)
        for version in range(3):
            state = json.loads(store.get(match_id).state)
            legal = game.legal_moves(state)[0]
            headers = {"If-Match": f'"{version}"',
                       "Authorization": f"Bearer {match['seats'][legal['player']]['secret']}",
                       "Idempotency-Key": f"k{version}"}
            answer = client.post(f"/v1/matches/{match_id}/moves", json={"move": legal}, headers=headers)
            assert answer.status_code == 200 and answer.headers["ETag"] == f'"{version + 1}"'
            replay = client.post(f"/v1/matches/{match_id}/moves", json={"move": legal}, headers=headers)
            assert replay.get_json() == answer.get_json()
            stale = client.post(f"/v1/matches/{match_id}/moves", json={"move": legal},
                                headers={**headers, "Idempotency-Key": f"other{version}"})
            assert stale.status_code == 412
        log = client.get(f"/v1/matches/{match_id}/log").get_json()
        assert [e["version"] for e in log["entries"]] == [1, 2, 3]
        assert all(raw.pttl(key) > 590_000 for key in keys_of(match_id))
    raw.close()
    store.close()


def test_a_stream_follows_and_waits_on_every_node(cluster):
    """Store.follow's script (snapshot, log and versions stream: one slot) and a wait after
    the announcement it read (XREAD on the node owning the match) work on each node: a commit
    made while waiting wakes the wait with its version, and the next follow reads its entry."""
    store = RedisStore(cluster.url, cluster=True, ttl=600)
    raw = redis.RedisCluster.from_url(cluster.url)
    owners = set()
    index = 0
    while len(owners) < 3:
        assert index < 60, "matches should land on every node"
        index += 1
        match_id = f"follow-{index}"
        owners.add(raw.get_node_from_key(keys_of(match_id)[0]).port)
        store.create(match_id, '{"game":"x"}', '{"v":0}', time.time())
        store.commit(match_id, 0, '{"v":1}', '{"e":1}', time.time())
        texts, snap = store.follow(match_id, 0)
        assert (texts, snap.version, snap.state) == (['{"e":1}'], 1, '{"v":1}')
        assert store._announced[match_id][1] == 1
        committer = threading.Timer(0.2, lambda m=match_id: store.commit(m, 1, '{"v":2}', '{"e":2}', time.time()))
        committer.start()
        started = time.monotonic()
        assert store.wait(match_id, 1, 5) == 2 and time.monotonic() - started < 2
        committer.join()
        assert store.follow(match_id, 1)[0] == ['{"e":2}']
    raw.close()
    store.close()
