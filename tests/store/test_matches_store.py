"""The stores themselves: compare-and-set, TTL set on every key and renewed on each legal
move, idempotency keys expiring with the match, one hash tag per match, lazy Redis client."""

from __future__ import annotations

import threading
import time

import pytest
import redis
from redis.crc import key_slot

from referee.app import create_app
from referee.games import GAMES
from referee.limits import MAX_IDEMPOTENCY_KEYS
from referee.store import IdempotencyKey, StoreUnavailable, store_from_env, ttl_from_env
from referee.store.memory import MemoryStore
from referee.store.redis import VERSIONS_KEPT, RedisStore, key_field, key_order_key, keys_of
from tests.support.matches_support import free_port, wait_for

GAME = GAMES["scratch-and-catch"]


@pytest.fixture(params=["memory", "redis"])
def store(request, redis_url):
    if request.param == "memory":
        yield MemoryStore(ttl=100)
        return
    store = RedisStore(redis_url, ttl=100)
    yield store
    store.close()


def seat_key(name, seat=0):
    return IdempotencyKey(seat, name)


def new_match(store, match_id=None):
    match_id = match_id or f"t{time.monotonic_ns()}"
    store.create(match_id, '{"game":"x"}', '{"v":0}', time.time())
    return match_id


class TestCompareAndSet:
    def test_one_commit_per_version(self, store):
        match = new_match(store)
        assert store.commit(match, 0, '{"v":1}', '{"e":1}', time.time()).kind == "ok"
        stale = store.commit(match, 0, '{"v":"other"}', '{"e":"other"}', time.time())
        assert (stale.kind, stale.version) == ("stale", 1)
        snap = store.get(match)
        assert (snap.version, snap.state) == (1, '{"v":1}')
        assert store.log(match) == ['{"e":1}']

    def test_the_head_tells_histories_with_one_version_number_apart(self, store):
        """Each write makes a new head; a commit that expects another head than the stored
        one, at the right version number, is refused as "changed" and writes nothing."""
        match = new_match(store)
        created = store.get(match).head
        assert created and store.version_and_head(match) == (0, created)
        assert store.commit(match, 0, '{"v":1}', '{"e":1}', time.time(), head="another").kind == "changed"
        assert store.version_and_head(match) == (0, created) and store.log(match) == []
        done = store.commit(match, 0, '{"v":1}', '{"e":1}', time.time(), head=created)
        assert done.kind == "ok" and done.head not in ("", created)
        assert store.version_and_head(match) == (1, done.head) and store.get(match).head == done.head

    def test_a_seat_remembers_its_newest_idempotency_keys_only(self, store):
        """limits.MAX_IDEMPOTENCY_KEYS: storing one key more than a seat's bound, by an illegal
        move's answer or a commit, forgets that seat's oldest key; the other seat's keys, however
        old and however many, stay (no seat's keys push out another's)."""
        match = new_match(store)
        for number in range(MAX_IDEMPOTENCY_KEYS):
            assert store.remember(match, seat_key(f"a{number}", 1), f"answer-a{number}") is None
        for number in range(MAX_IDEMPOTENCY_KEYS):
            assert store.remember(match, seat_key(f"k{number}"), f"answer-{number}") is None
        assert store.idempotent(match, seat_key("k0")) == "answer-0"
        assert store.commit(match, 0, '{"v":1}', '{"e":1}', time.time(), seat_key("new"), "answer-new").kind == "ok"
        assert store.idempotent(match, seat_key("k0")) is None
        assert store.idempotent(match, seat_key("a0", 1)) == "answer-a0"
        assert store.remember(match, seat_key("newer"), "answer-newer") is None
        assert store.idempotent(match, seat_key("k1")) is None
        assert store.idempotent(match, seat_key("a0", 1)) == "answer-a0"
        assert store.remember(match, seat_key("a-new", 1), "answer-a-new") is None
        assert store.idempotent(match, seat_key("a0", 1)) is None
        assert store.remember(match, seat_key("k2"), "another") == "answer-2"  # a kept key is not stored again
        seat_1 = [seat_key(f"a{number}", 1) for number in range(1, MAX_IDEMPOTENCY_KEYS)] + [seat_key("a-new", 1)]
        seat_0 = [seat_key(f"k{number}") for number in range(2, MAX_IDEMPOTENCY_KEYS)] + [
            seat_key("new"), seat_key("newer")]
        assert all(store.idempotent(match, key) is not None for key in seat_1 + seat_0)
        if isinstance(store, RedisStore):
            client = redis.Redis.from_url(store.url, decode_responses=True)
            assert client.hlen(keys_of(match)[2]) == 2 * MAX_IDEMPOTENCY_KEYS
            assert sorted(client.lrange(key_order_key(match), 0, -1)) == sorted(
                key_field(key) for key in seat_1 + seat_0)
            assert 0 < client.pttl(key_order_key(match)) <= 100_000

    def test_missing_match(self, store):
        assert store.get("absent") is None and store.log("absent") is None
        assert store.commit("absent", 0, "{}", "{}", time.time()).kind == "missing"

    def test_key_replays_before_the_version_check(self, store):
        match = new_match(store)
        assert store.commit(match, 0, '{"v":1}', '{"e":1}', time.time(), seat_key("k"), "answer-1").kind == "ok"
        again = store.commit(match, 0, '{"v":1}', '{"e":1}', time.time(), seat_key("k"), "answer-1")
        assert (again.kind, again.stored) == ("replay", "answer-1")
        assert store.idempotent(match, seat_key("k")) == "answer-1"
        assert store.log(match) == ['{"e":1}']

    def test_remember_keeps_the_first_answer(self, store):
        match = new_match(store)
        assert store.remember(match, seat_key("k"), "first") is None
        assert store.remember(match, seat_key("k"), "second") == "first"
        assert store.idempotent(match, seat_key("k")) == "first"

    def test_a_key_is_one_seats_own(self, store):
        """(match, seat, name) is a key: seat 1's ``k`` (an illegal move's answer) is not seat
        0's ``k``, which a commit stores beside it rather than replaying seat 1's answer; each
        seat's ``k`` keeps its own answer, and a seat that used no ``k`` finds none."""
        match = new_match(store)
        assert store.remember(match, seat_key("k", 1), "seat-1") is None
        assert store.idempotent(match, seat_key("k", 0)) is None
        done = store.commit(match, 0, '{"v":1}', '{"e":1}', time.time(), seat_key("k", 0), "seat-0")
        assert (done.kind, done.version) == ("ok", 1)
        assert store.remember(match, seat_key("k", 2), "seat-2") is None
        assert [store.idempotent(match, seat_key("k", seat)) for seat in (0, 1, 2, 3)] == [
            "seat-0", "seat-1", "seat-2", None]
        again = store.commit(match, 1, '{"v":2}', '{"e":2}', time.time(), seat_key("k", 1), "seat-1 again")
        assert (again.kind, again.stored) == ("replay", "seat-1")
        assert store.remember(match, seat_key("k", 0), "seat-0 again") == "seat-0"
        # A name that looks like another seat's field is still the sending seat's own.
        assert store.remember(match, seat_key("1:k", 0), "seat-0 colon") is None
        assert store.idempotent(match, seat_key("k", 1)) == "seat-1"
        assert store.idempotent(match, seat_key("1:k", 0)) == "seat-0 colon"
        assert store.log(match) == ['{"e":1}']


class TestCommitRetried:
    """A commit's script may run twice (its first reply lost): the second run finds the first's
    token and answers its version, not "stale" nor a replay, however many moves landed
    between the two runs (a bot moves fast: more than the versions stream keeps)."""

    @pytest.fixture
    def retried(self, redis_url, monkeypatch):
        import referee.store.redis as redis_store

        monkeypatch.setattr(redis_store.secrets, "token_hex", lambda _n: "same-commit")
        store = RedisStore(redis_url, ttl=100)
        yield store
        store.close()

    @pytest.mark.parametrize("key", [None, "k"])
    def test_second_run_answers_the_version_it_created(self, retried, key):
        match = new_match(retried)
        key = key and seat_key(key)
        first = retried.commit(match, 0, '{"v":1}', '{"e":1}', time.time(), key, "answer-1" if key else None)
        again = retried.commit(match, 0, '{"v":1}', '{"e":1}', time.time(), key, "answer-1" if key else None)
        assert (first.kind, first.version) == (again.kind, again.version) == ("ok", 1)
        assert retried.log(match) == ['{"e":1}'] and retried.get(match).version == 1

    def test_found_after_later_moves_landed(self, retried, monkeypatch):
        import referee.store.redis as redis_store

        match = new_match(retried)
        assert retried.commit(match, 0, '{"v":1}', '{"e":1}', time.time()).kind == "ok"
        later = VERSIONS_KEPT + 4
        for version in range(1, 1 + later):
            monkeypatch.setattr(redis_store.secrets, "token_hex", lambda _n, v=version: f"other-{v}")
            assert retried.commit(match, version, "{}", "{}", time.time()).kind == "ok"
        monkeypatch.setattr(redis_store.secrets, "token_hex", lambda _n: "same-commit")
        again = retried.commit(match, 0, '{"v":1}', '{"e":1}', time.time())
        assert (again.kind, again.version) == ("ok", 1)
        monkeypatch.setattr(redis_store.secrets, "token_hex", lambda _n: "another-commit")
        stale = retried.commit(match, 0, '{"v":1}', '{"e":1}', time.time())
        assert (stale.kind, stale.version) == ("stale", 1 + later)
        assert len(retried.log(match)) == 1 + later


class TestFollowing:
    """What an event stream reads when it wakes (Store.follow) and how it waits (Store.wait)."""

    def test_follow_reads_the_log_from_an_index_and_the_snapshot_of_its_last_entry(self, store):
        match = new_match(store)
        head = None
        for version in (1, 2):
            head = store.commit(match, version - 1, f'{{"v":{version}}}', f'{{"e":{version}}}', time.time()).head
        texts, snap = store.follow(match, 1)
        assert texts == ['{"e":2}']
        assert (snap.version, snap.state, snap.meta, snap.head) == (2, '{"v":2}', '{"game":"x"}', head)
        assert store.follow(match, 0)[0] == ['{"e":1}', '{"e":2}'] and store.follow(match, 2)[0] == []
        assert store.follow("no-such-match") is None

    def test_a_wait_at_the_version_a_follow_read_is_one_blocking_read(self, redis_url):
        """The follow reads the newest announcement with the snapshot, so the wait that comes
        next is XREAD alone: no XREVRANGE, no HGET, and the version comes in the announcement."""
        store = RedisStore(redis_url, ttl=100)
        raw = redis.Redis.from_url(redis_url, decode_responses=True)
        match = new_match(store)
        store.commit(match, 0, '{"v":1}', '{"e":1}', time.time())
        assert store.follow(match)[1].version == 1

        def calls() -> dict:
            stats = raw.info("commandstats")
            return {name: stats.get(f"cmdstat_{name}", {}).get("calls", 0) for name in ("xread", "xrevrange", "hget")}

        def delta(since: dict) -> dict:
            now = calls()
            return {name: now[name] - since[name] for name in now}

        before = calls()   # (a commit script's own calls, counted on another match)
        store.commit(new_match(store), 0, '{"v":1}', '{"e":1}', time.time())
        commit = delta(before)
        before = calls()
        committer = threading.Timer(0.2, lambda: store.commit(match, 1, '{"v":2}', '{"e":2}', time.time()))
        committer.start()
        assert store.wait(match, 1, 5) == 2
        committer.join()
        assert delta(before) == {name: commit[name] + (name == "xread") for name in commit}
        after = calls()
        # The announcement that woke it is kept too: the next wait reads after it, and ends
        # at its time limit with one HGET (an expired match answers None).
        assert store.wait(match, 2, 0.1) == 2
        assert delta(after) == {"xread": 1, "xrevrange": 0, "hget": 1}
        # A wait at another version than the one announced reads the newest first, and ends at once.
        assert store.wait(match, 0, 5) == 2
        store.close()


class TestRedisKeysAndTTL:
    def test_every_key_of_a_match_is_in_one_slot(self):
        assert len({key_slot(k.encode()) for k in keys_of("abc-DEF_123")}) == 1
        assert all(k.startswith("match:{abc-DEF_123}:") for k in keys_of("abc-DEF_123"))

    def test_ttl_on_every_key_and_renewed_by_a_move(self, redis_url):
        store = RedisStore(redis_url, ttl=100)
        raw = redis.Redis.from_url(redis_url)
        match = new_match(store)
        snap, log, keys, commits = keys_of(match)
        assert 99_000 < raw.pttl(snap) <= 100_000
        raw.pexpire(snap, 5_000)
        assert store.commit(match, 0, '{"v":1}', '{"e":1}', time.time(), seat_key("k"), "a").kind == "ok"
        for key in (snap, log, keys, commits):
            assert 99_000 < raw.pttl(key) <= 100_000, key
        store.remember(match, seat_key("k2", 1), "b")
        assert 99_000 < raw.pttl(keys) <= 100_000

    def test_expired_match_is_gone_with_its_log_and_keys(self, redis_url):
        store = RedisStore(redis_url, ttl=100)
        raw = redis.Redis.from_url(redis_url)
        match = new_match(store)
        store.commit(match, 0, '{"v":1}', '{"e":1}', time.time(), seat_key("k"), "a")
        for key in keys_of(match):
            raw.pexpire(key, 1)
        wait_for(lambda: raw.exists(*keys_of(match)) == 0, timeout=2, what="expiry")
        assert store.get(match) is None and store.log(match) is None and store.idempotent(match, seat_key("k")) is None

    def test_api_snapshot_ttl_from_the_store(self, redis_url):
        app = create_app({"TESTING": True, "REFEREE_STORE": RedisStore(redis_url, ttl=120)})
        client = app.test_client()
        match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}).get_json()
        raw = redis.Redis.from_url(redis_url)
        assert 119_000 < raw.pttl(keys_of(match["id"])[0]) <= 120_000


class TestMemoryTTL:
    def test_match_expires_after_ttl_and_a_move_renews_it(self):
        now = [1000.0]
        store = MemoryStore(ttl=10, clock=lambda: now[0])
        match = new_match(store)
        now[0] += 9
        assert store.commit(match, 0, "{}", "{}", now[0]).kind == "ok"
        now[0] += 9
        assert store.get(match) is not None
        now[0] += 2
        assert store.get(match) is None and store.log(match) is None

    def test_expired_match_answers_404(self):
        now = [1000.0]
        store = MemoryStore(ttl=10, clock=lambda: now[0])
        client = create_app({"TESTING": True, "REFEREE_STORE": store}).test_client()
        match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}).get_json()
        assert client.get(f"/v1/matches/{match['id']}").status_code == 200
        now[0] += 11
        assert client.get(f"/v1/matches/{match['id']}").status_code == 404


class TestConfiguration:
    def test_ttl_default_is_seven_days(self):
        assert ttl_from_env({}) == 7 * 24 * 3600
        assert ttl_from_env({"REFEREE_MATCH_TTL_SECONDS": "60"}) == 60
        with pytest.raises(ValueError):
            ttl_from_env({"REFEREE_MATCH_TTL_SECONDS": "0"})

    def test_store_from_env(self):
        assert store_from_env({}).kind == "memory"
        single = store_from_env({"REDIS_URL": "redis://127.0.0.1:1/0"})
        assert (single.kind, single.cluster, single.socket_timeout, single.deadline) == ("redis", False, 0.25, 0.3)
        cluster = store_from_env({"REDIS_URL": "redis://127.0.0.1:1", "REDIS_CLUSTER": "1",
                                  "REDIS_SOCKET_TIMEOUT_SECONDS": "0.2", "REFEREE_STORE_DEADLINE_SECONDS": "1.5"})
        assert (cluster.kind, cluster.socket_timeout, cluster.deadline) == ("redis-cluster", 0.2, 1.5)
        with pytest.raises(ValueError):
            store_from_env({"REDIS_URL": "redis://127.0.0.1:1", "REFEREE_STORE_DEADLINE_SECONDS": "0"})

    @pytest.mark.parametrize("cluster", [False, True])
    def test_client_is_lazy_and_failures_are_fast(self, cluster):
        """Created without a server; the first use fails fast with StoreUnavailable."""
        store = RedisStore(f"redis://127.0.0.1:{free_port()}/0", cluster=cluster, ttl=100)
        started = time.monotonic()
        with pytest.raises(StoreUnavailable):
            store.get("m")
        assert store.health()["ok"] is False
        assert time.monotonic() - started < 2
