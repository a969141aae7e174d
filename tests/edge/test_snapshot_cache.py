"""Failure 4: the snapshot cache. An expired match is 404 for every move even with the
worker's cache warm; the cache is bounded in bytes and drops entries by age on write."""

from __future__ import annotations

import json
import time

import pytest
import redis

from referee.app import create_app
from referee.games import GAMES
from referee.store.memory import MemoryStore
from referee.store.redis import RedisStore
from referee.store.snapshot_cache import DEFAULT_MAX_BYTES, RecentSnapshots, max_bytes_from_env
from tests.support.matches_support import RedisServer

GAME = GAMES["scratch-and-catch"]


def _illegal_move(state: dict) -> dict:
    """A move by the seat whose turn it is not (Scratch & Catch: one player acts at a time)."""
    move = dict(GAME.legal_moves(state)[0])
    move["player"] = 1 - move["player"]
    return move


def _post(client, match, move, version):
    return client.post(f"/v1/matches/{match['id']}/moves", json={"move": move},
                       headers={"If-Match": f'"{version}"',
                                "Authorization": f"Bearer {match['seats'][move['player']]['secret']}"})


@pytest.fixture(params=["memory", "redis"])
def expiring(request, redis_url):
    """(test client, store, wait for expiry) on each store, matches living about 1 second."""
    if request.param == "memory":
        now = [time.time()]
        store = MemoryStore(ttl=1, clock=lambda: now[0])

        def expire():
            now[0] += 2
    else:
        store = RedisStore(redis_url, ttl=1)

        def expire():
            time.sleep(1.3)
    yield create_app({"TESTING": True, "REFEREE_STORE": store}).test_client(), store, expire
    if request.param == "redis":
        store.close()


def test_expired_match_is_404_with_the_cache_warm(expiring):
    client, store, expire = expiring
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "ttl"}).get_json()
    assert client.get(f"/v1/matches/{match['id']}").status_code == 200  # warms this process's cache
    state = json.loads(store.get(match["id"]).state)
    illegal = _illegal_move(state)
    judged = _post(client, match, illegal, 0)
    assert judged.status_code == 200 and judged.get_json()["legal"] is False
    expire()
    assert client.get(f"/v1/matches/{match['id']}").status_code == 404
    # Before: 200 {"legal": false} from the cache although the store had forgotten the match.
    answer = _post(client, match, illegal, 0)
    assert answer.status_code == 404 and answer.content_type == "application/problem+json"
    assert _post(client, match, GAME.legal_moves(state)[0], 0).status_code == 404


def test_illegal_move_on_a_cached_version_another_worker_moved_on_is_412(memory_app_pair):
    first, second, store = memory_app_pair
    match = first.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "two"}).get_json()
    assert first.get(f"/v1/matches/{match['id']}").status_code == 200
    state = json.loads(store.get(match["id"]).state)
    assert _post(second, match, GAME.legal_moves(state)[0], 0).status_code == 200  # the other process moves
    answer = _post(first, match, _illegal_move(state), 0)  # judged on the first process's cached version 0
    assert answer.status_code == 412 and answer.headers["ETag"] == '"1"'


@pytest.fixture()
def memory_app_pair():
    """Two apps (two worker processes' worth of caches) on one store."""
    store = MemoryStore(ttl=600)
    return (create_app({"TESTING": True, "REFEREE_STORE": store}).test_client(),
            create_app({"TESTING": True, "REFEREE_STORE": store}).test_client(), store)


def _entry(cache, match_id, text_size, version=0):
    meta = {"game": "scratch-and-catch"}
    cache.put(match_id, version, "head", meta, {"t": "x"}, "x" * text_size)
    return RecentSnapshots.cost(meta, "x" * text_size)


def test_cache_is_bounded_in_bytes_oldest_first():
    cost = RecentSnapshots.cost({"game": "scratch-and-catch"}, "x" * 1000)
    cache = RecentSnapshots(max_bytes=cost * 3)
    for number in range(5):
        _entry(cache, f"m{number}", 1000)
    assert len(cache) == 3 and cache.bytes == 3 * cost <= cache.max_bytes
    assert cache.get("m0", frozenset({0})) is None and cache.get("m1", frozenset({0})) is None
    assert cache.get("m4", frozenset({0}))[0] == 0
    _entry(cache, "huge", 10_000)  # alone over the bound: not kept, and it evicts nothing
    assert cache.get("huge", frozenset({0})) is None and len(cache) == 3


def test_cache_drops_entries_by_age_on_write():
    now = [100.0]
    cache = RecentSnapshots(max_bytes=10**9, max_age=60, clock=lambda: now[0])
    _entry(cache, "old", 10)
    now[0] += 30
    _entry(cache, "middle", 10)
    now[0] += 31  # "old" is 61 s old, "middle" 31 s
    assert cache.get("old", frozenset({0})) is None
    _entry(cache, "old2", 10)
    now[0] += 20
    _entry(cache, "new", 10)  # "middle" is now 51 s old: kept
    assert len(cache) == 3
    now[0] += 10  # "middle" 61 s old: dropped by the next write
    _entry(cache, "newer", 10)
    assert set(cache._items) == {"old2", "new", "newer"}
    assert cache.bytes == sum(item[5] for item in cache._items.values())


def test_cache_bound_setting():
    assert max_bytes_from_env({}) == DEFAULT_MAX_BYTES == 16 * 1024 * 1024
    assert max_bytes_from_env({"REFEREE_SNAPSHOT_CACHE_BYTES": "1000"}) == 1000
    with pytest.raises(ValueError):
        max_bytes_from_env({"REFEREE_SNAPSHOT_CACHE_BYTES": "-1"})


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_cache_estimate_covers_the_memory_it_holds(game_id):
    """The bound is in estimated bytes; what the entries really hold (measured by tracemalloc
    as what clearing the cache frees) stays within the estimate, and within a third of it, so
    the bound is neither broken nor far too cautious (docs/guides/operating.md, "The snapshot cache")."""
    import tracemalloc

    game = GAMES[game_id]
    app = create_app({"TESTING": True, "REFEREE_STORE": MemoryStore()})
    client = app.test_client()
    players = game.player_counts[0]
    tracemalloc.start()
    try:
        for number in range(60):
            match = client.post("/v1/matches", json={"game": game_id, "players": players,
                                                     "seed": f"cache-{number}"}).get_json()
            assert client.get(f"/v1/matches/{match['id']}").status_code == 200  # cached by the read
        cache = app.extensions["referee.recent_snapshots"]
        assert len(cache) == 60
        estimated = cache.bytes
        held = tracemalloc.get_traced_memory()[0]
        cache._items.clear()
        freed = held - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert estimated / 3 <= freed <= estimated, (freed, estimated)


def _rolled_back(tmp_path):
    """A match whose store lost a confirmed move: a redis-server restarted from a dump saved at
    version 0, after the first app (one worker's cache) moved to version 1 with ``lost``; the
    second app then reaches version 1 another way, with ``kept``. Yields (first app, its store,
    match, state at 1 in the first app's cache, state at 1 in Redis) once (used as a loop)."""
    server = RedisServer(tmp_path / "redis").start()
    stores = [RedisStore(server.url), RedisStore(server.url)]
    first, second = (create_app({"TESTING": True, "REFEREE_STORE": store}).test_client() for store in stores)
    try:
        match = first.post("/v1/matches",
                           json={"game": "scratch-and-catch", "players": 2, "seed": "rollback"}).get_json()
        start = GAME.setup(2, "rollback", {})
        assert json.loads(stores[0].get(match["id"]).state) == start
        redis.Redis.from_url(server.url).save()
        lost, kept = GAME.legal_moves(start)[:2]
        assert _post(first, match, lost, 0).get_json()["legal"] is True
        server.process.kill()  # SIGKILL: what Redis confirmed after the dump is gone
        server.process.wait(5)
        server.start()
        assert stores[1].version_and_head(match["id"])[0] == 0
        assert _post(second, match, kept, 0).get_json()["legal"] is True
        yield first, stores[0], match, GAME.adjudicate(start, lost).state, GAME.adjudicate(start, kept).state
    finally:
        for store in stores:
            store.close()
        server.stop()


@pytest.mark.parametrize("legal_in", ["lost history", "stored history"])
def test_a_move_after_a_lost_history_is_judged_on_the_stored_state(tmp_path, legal_in):
    """A move legal only in the lost history (before: judged on the cached version 1, it
    landed as version 2 and the stored state no longer followed from the log, a card played
    twice), and one legal only in the stored history (before: refused from the cache), are
    both judged on the state Redis holds."""
    for first, store, match, cached, stored in _rolled_back(tmp_path):
        legal = legal_in == "stored history"
        where, not_where = (stored, cached) if legal else (cached, stored)
        move = next(m for m in GAME.legal_moves(where) if not GAME.adjudicate(not_where, m).legal)
        answer = _post(first, match, move, 1)
        version = 2 if legal else 1
        assert answer.status_code == 200 and answer.get_json()["legal"] is legal
        assert answer.headers["ETag"] == f'"{version}"'
        snap = store.get(match["id"])
        assert snap.version == version
        assert json.loads(snap.state) == (GAME.adjudicate(stored, move).state if legal else stored)


def _post_keyed(client, match, move, if_match: str, key: str):
    return client.post(f"/v1/matches/{match['id']}/moves", json={"move": move},
                       headers={"If-Match": if_match, "Idempotency-Key": key,
                                "Authorization": f"Bearer {match['seats'][move['player']]['secret']}"})


def test_a_keyed_retry_on_a_worker_with_an_old_cache_gets_its_stored_answer(memory_app_pair):
    """Idempotency keys: a retry gets the stored answer whichever worker takes it. Before: a
    worker whose cache still held the version the retry names judged it again there, found the
    match moved on and answered 412, while the other worker replayed the answer."""
    first, second, store = memory_app_pair
    match = first.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "retry"}).get_json()
    start = json.loads(store.get(match["id"]).state)
    assert _post(first, match, GAME.legal_moves(start)[0], 0).status_code == 200   # first caches version 1
    at_one = json.loads(store.get(match["id"]).state)
    illegal = _illegal_move(at_one)
    answer = _post_keyed(first, match, illegal, '"1"', "retry-key")
    assert answer.status_code == 200 and answer.get_json()["legal"] is False
    assert _post(second, match, GAME.legal_moves(at_one)[0], 1).status_code == 200  # the other worker: version 2
    for client in (second, first):
        again = _post_keyed(client, match, illegal, '"1"', "retry-key")
        assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
        assert again.get_data() == answer.get_data()


def test_an_if_match_list_naming_the_stored_version_is_judged_on_it_whatever_the_cache(memory_app_pair):
    """If-Match "1", "2" with the match at 2: a worker whose cache holds version 1 judges the
    move on the stored version 2 (before: judged on its cached 1, then 412 from the commit)."""
    first, second, store = memory_app_pair
    match = first.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "list"}).get_json()
    start = json.loads(store.get(match["id"]).state)
    assert _post(first, match, GAME.legal_moves(start)[0], 0).status_code == 200   # first caches version 1
    at_one = json.loads(store.get(match["id"]).state)
    assert _post(second, match, GAME.legal_moves(at_one)[0], 1).status_code == 200  # version 2
    at_two = json.loads(store.get(match["id"]).state)
    move = GAME.legal_moves(at_two)[0]
    answer = first.post(f"/v1/matches/{match['id']}/moves", json={"move": move},
                        headers={"If-Match": '"1", "2"',
                                 "Authorization": f"Bearer {match['seats'][move['player']]['secret']}"})
    assert answer.status_code == 200 and answer.get_json()["legal"] is True and answer.headers["ETag"] == '"3"'
    assert json.loads(store.get(match["id"]).state) == GAME.adjudicate(at_two, move).state


class _CountingStore(MemoryStore):
    """A memory store that counts snapshot reads."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.reads = 0

    def get(self, match_id):
        self.reads += 1
        return super().get(match_id)


def test_the_first_move_on_the_worker_that_created_the_match_reads_no_snapshot():
    store = _CountingStore(ttl=600)
    client = create_app({"TESTING": True, "REFEREE_STORE": store}).test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "first"}).get_json()
    state = json.loads(MemoryStore.get(store, match["id"]).state)
    assert store.reads == 0
    legal = GAME.legal_moves(state)[0]
    answer = _post(client, match, legal, 0)
    assert answer.status_code == 200 and answer.get_json()["legal"] is True and answer.headers["ETag"] == '"1"'
    assert store.reads == 0  # judged on the snapshot the creation cached
    # The cached snapshot is the stored one: the move landed on it, so the log holds it.
    assert client.get(f"/v1/matches/{match['id']}/log").get_json()["entries"][0]["version"] == 1


def test_a_match_created_here_and_moved_elsewhere_is_412_for_a_move_judged_on_the_creation(memory_app_pair):
    first, second, store = memory_app_pair
    match = first.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "moved"}).get_json()
    state = json.loads(store.get(match["id"]).state)
    assert _post(second, match, GAME.legal_moves(state)[0], 0).status_code == 200
    # The first process cached version 0 when it created the match; the store is at 1.
    assert _post(first, match, _illegal_move(state), 0).status_code == 412
    assert _post(first, match, GAME.legal_moves(state)[0], 0).status_code == 412


def _bad_requests(match, state):
    """(move, headers) pairs each wrong against the match itself: 422, 401, 403 and 422."""
    legal = GAME.legal_moves(state)[0]
    auth = {"If-Match": '"0"', "Authorization": f"Bearer {match['seats'][legal['player']]['secret']}"}
    other = {"If-Match": '"0"', "Authorization": f"Bearer {match['seats'][1 - legal['player']]['secret']}"}
    return [({"type": "nope", "player": legal["player"]}, auth),                   # not a move of the game
            (legal, {"If-Match": '"0"', "Authorization": "Bearer not-a-secret"}),   # no seat's secret
            (legal, other),                                                       # another seat's secret
            (dict(legal, player=7), auth)]                                        # no such seat


def test_a_match_the_store_lost_is_404_before_anything_else_on_the_worker_that_cached_it(expiring):
    """Every worker answers 404 for a match that expired, including the one whose cache still
    holds it (it cached the match when creating it): not 422, 401 or 403 found against the
    cached snapshot."""
    client, store, expire = expiring
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "lost"}).get_json()
    state = json.loads(store.get(match["id"]).state)
    before = [client.post(f"/v1/matches/{match['id']}/moves", json={"move": move}, headers=headers).status_code
              for move, headers in _bad_requests(match, state)]
    assert before == [422, 401, 403, 422]
    expire()
    after = [client.post(f"/v1/matches/{match['id']}/moves", json={"move": move}, headers=headers)
             for move, headers in _bad_requests(match, state)]
    assert [answer.status_code for answer in after] == [404] * 4
    assert all(answer.content_type == "application/problem+json" for answer in after)
