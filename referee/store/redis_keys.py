"""The keys of a match in Redis and the Lua scripts that read and write them together
(referee/store/redis.py describes the keys and runs the scripts)."""

from __future__ import annotations

from typing import Any

from referee.store import IdempotencyKey

VERSIONS_KEPT = 16          # entries of a match's versions stream (only the newest one matters)


def announcement(entry_id: str, fields: Any) -> tuple[str, int]:
    """A versions stream entry as ``(id, version)``: its fields are ``v`` and the version
    (a flat list or a mapping, as the reply gives them)."""
    version = fields["v"] if isinstance(fields, dict) else fields[fields.index("v") + 1]
    return entry_id, int(version)


def versions_key(match_id: str) -> str:
    """The stream announcing a match's committed versions (same hash tag as its other keys)."""
    return "match:{" + match_id + "}:versions"


def key_order_key(match_id: str) -> str:
    """The list of a match's idempotency keys, oldest first (same hash tag as its other keys)."""
    return "match:{" + match_id + "}:keyorder"


def key_field(key: IdempotencyKey) -> str:
    """The field of a seat's idempotency key in the match's hash of keys: ``<seat>:<name>``.
    A seat number holds no colon, so each field names one (seat, name) pair."""
    return f"{key.seat}:{key.name}"


def keys_of(match_id: str) -> tuple[str, str, str, str]:
    """The snapshot, log, idempotency and commit token keys of a match (one hash tag)."""
    tag = "match:{" + match_id + "}:"
    return tag + "snap", tag + "log", tag + "keys", tag + "commits"


def _keep_key(keys: str, order: str, key: str, stored: str, bound: str) -> str:
    """Lua: store idempotency key ``key`` -> ``stored`` in hash ``keys``, append it to list
    ``order``; past ``bound`` keys of the key's seat (the fields that share its ``<seat>:``
    prefix), forget that seat's oldest (MAX_IDEMPOTENCY_KEYS). The list holds at most
    ``bound`` keys a seat, so the scan is short."""
    return f"""redis.call('HSET', {keys}, {key}, {stored})
redis.call('RPUSH', {order}, {key})
local prefix = string.match({key}, '^[^:]*:')
local own = {{}}
for _, kept in ipairs(redis.call('LRANGE', {order}, 0, -1)) do
  if string.sub(kept, 1, #prefix) == prefix then own[#own + 1] = kept end
end
if #own > tonumber({bound}) then
  redis.call('LREM', {order}, 1, own[1])
  redis.call('HDEL', {keys}, own[1])
end
"""


# ARGV[6], ARGV[7]: the field of the seat's idempotency key (key_field; '' for none) and the
# answer it keeps. ARGV[8]: this commit's token, the head of the version it writes. Found already: a retry of
# a commit that did land (whose run also announced the version). KEYS[5], ARGV[9]: the
# versions stream and how many it keeps. ARGV[10]: the expected head, '-' for any. KEYS[6],
# ARGV[11]: the order of the idempotency keys and how many are kept.
COMMIT = """
local done = redis.call('HGET', KEYS[4], ARGV[8])
if done then return {'ok', done} end
if ARGV[6] ~= '' then
  local old = redis.call('HGET', KEYS[3], ARGV[6])
  if old then
    return {'replay', redis.call('HGET', KEYS[1], 'version') or '0', old}
  end
end
local at = redis.call('HMGET', KEYS[1], 'version', 'head')
local v = at[1]
if not v then return {'missing'} end
if v ~= ARGV[1] then return {'stale', v} end
if ARGV[10] ~= '-' and (at[2] or '') ~= ARGV[10] then return {'changed', v} end
local nv = tonumber(v) + 1
redis.call('HSET', KEYS[1], 'version', nv, 'state', ARGV[2], 'updated', ARGV[4], 'head', ARGV[8])
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('HSET', KEYS[4], ARGV[8], nv)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[4], ARGV[5])
if ARGV[6] ~= '' then
""" + _keep_key("KEYS[3]", "KEYS[6]", "ARGV[6]", "ARGV[7]", "ARGV[11]") + """end
redis.call('PEXPIRE', KEYS[3], ARGV[5])
redis.call('PEXPIRE', KEYS[6], ARGV[5])
redis.call('XADD', KEYS[5], 'MAXLEN', '~', ARGV[9], '*', 'v', tostring(nv))
redis.call('PEXPIRE', KEYS[5], ARGV[5])
return {'ok', tostring(nv)}
"""

CREATE = """
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
redis.call('HSET', KEYS[1], 'meta', ARGV[1], 'version', 0, 'state', ARGV[2], 'updated', ARGV[3], 'head', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""

LOG = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return {'ok', redis.call('LRANGE', KEYS[2], ARGV[1], -1)}
"""

REMEMBER = """
local t = redis.call('PTTL', KEYS[1])
if t <= 0 then return false end
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then return old end
""" + _keep_key("KEYS[2]", "KEYS[3]", "ARGV[1]", "ARGV[2]", "ARGV[3]") + """redis.call('PEXPIRE', KEYS[2], t)
redis.call('PEXPIRE', KEYS[3], t)
return false
"""

# The log entries from ARGV[1] on, the snapshot's fields and the newest announcement (its
# stream entry, or none), read at one moment; false when the match is absent.
FOLLOW = """
local snap = redis.call('HMGET', KEYS[1], 'meta', 'version', 'state', 'updated', 'head')
if not snap[1] or not snap[2] or not snap[3] then return false end
return {redis.call('LRANGE', KEYS[2], ARGV[1], -1), snap, redis.call('XREVRANGE', KEYS[3], '+', '-', 'COUNT', 1)}
"""
