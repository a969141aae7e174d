"""The edge tests share the match tests' Redis fixtures (a redis-server on a free port)."""

from tests.api.matches.conftest import redis_url  # noqa: F401
