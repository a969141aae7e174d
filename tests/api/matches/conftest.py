"""Fixtures of the match tests: a real Redis server (REDIS_URL, or a redis-server started on
a free port in a temporary directory and stopped after the run), and apps on either store."""

from __future__ import annotations

import os

import pytest

from referee.app import create_app
from referee.store.memory import MemoryStore
from referee.store.redis import RedisStore
from tests.support.matches_support import RedisServer, have


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    if not have("redis-server"):
        pytest.fail("redis-server is not installed and REDIS_URL is not set")
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_store(redis_url):
    store = RedisStore(redis_url, ttl=3600)
    yield store
    store.close()


@pytest.fixture(scope="session")
def redis_app(redis_store):
    return create_app({"TESTING": True, "REFEREE_STORE": redis_store})


@pytest.fixture(scope="session")
def memory_app():
    return create_app({"TESTING": True, "REFEREE_STORE": MemoryStore(ttl=3600)})


@pytest.fixture(params=["memory", "redis"])
def store_app(request):
    """The app on each store in turn."""
    return request.getfixturevalue(f"{request.param}_app")


@pytest.fixture()
def mclient(store_app):
    return store_app.test_client()
