"""The store packs its script calls with hiredis itself: the bytes on the wire are the ones
redis-py's own packer writes for the same arguments (a commit's keys, a state and a log entry
with text in Japanese and emoji, integers, the time as ``repr``), so Redis stores every value
as it was given."""

from __future__ import annotations

import json
import time

import pytest
import redis

from referee.store import IdempotencyKey
from referee.store.redis import RedisStore, _pack, key_order_key, keys_of, versions_key
from tests.support.matches_support import have


def test_the_bytes_are_redis_pys():
    match_id = "m-é"
    state = json.dumps({"note": "猫の手 🐾", "n": 1}, ensure_ascii=False)
    args = ("EVALSHA", "0" * 40, 6, *keys_of(match_id), versions_key(match_id), key_order_key(match_id),
            7, state, "{}", repr(1764633600.25), 600_000, "clé-1", "答え", "ab" * 12, 16, "-", 64)
    assert _pack(args) == redis.Connection().pack_command(*args)
    for odd in (None, True, [1]):   # refused as redis-py's packer refuses them (the store answers 503)
        with pytest.raises(redis.DataError):
            _pack(("EVALSHA", odd))
        with pytest.raises(redis.DataError):
            redis.Connection().pack_command("EVALSHA", odd)


@pytest.mark.skipif(not have("redis-server"), reason="needs redis-server")
def test_a_commit_stores_its_text_as_given(redis_url):
    store = RedisStore(redis_url, ttl=60)
    match_id = f"packing-{time.time_ns()}"
    store.create(match_id, "{}", "{}", time.time())
    state, entry = json.dumps({"note": "猫の手 🐾"}, ensure_ascii=False), json.dumps({"move": "é"}, ensure_ascii=False)
    key = IdempotencyKey(0, "clé")
    assert store.commit(match_id, 0, state, entry, time.time(), key=key, stored="答え").kind == "ok"
    assert store.get(match_id).state == state
    assert store.log(match_id) == [entry]
    assert store.idempotent(match_id, key) == "答え"
