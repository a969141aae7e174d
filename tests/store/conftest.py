"""The store tests use the match tests' Redis server and apps (tests/api/matches/conftest.py)."""

from tests.api.matches.conftest import mclient, memory_app, redis_app, redis_store, redis_url, store_app  # noqa: F401
