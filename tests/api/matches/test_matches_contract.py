"""Schemathesis over the match operations of the live contract (the app's own OpenAPI
document), on a real Redis: each operation alone, then stateful sequences chained by the
OpenAPI links of POST /v1/matches (get, log, move with the ETag as If-Match)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from referee.app import create_app

ROOT = Path(__file__).resolve().parents[3]
SETTINGS = tomllib.loads((ROOT / "schemathesis.toml").read_text(encoding="utf-8"))
# The stateful phase signs moves with a real seat secret taken from the create answer (link
# PostMove); the ignored_auth check takes any Authorization it did not make for invalid.
SETTINGS.setdefault("checks", {})["ignored_auth"] = {"enabled": False}
CONFIG = schemathesis.config.SchemathesisConfig.from_dict(SETTINGS)

app = create_app({"TESTING": True})
schema = schemathesis.openapi.from_dict(app.extensions["referee.api"].spec.to_dict(), config=CONFIG).include(
    path_regex=r"^/v1/matches")
schema.app = app


@pytest.fixture(autouse=True, scope="module")
def on_redis(redis_store):
    """Serve the contract's app from the real Redis store for these tests."""
    memory = app.extensions["referee.store"]
    app.extensions["referee.store"] = redis_store
    yield
    app.extensions["referee.store"] = memory


@schema.parametrize()
@settings(deadline=None, max_examples=25, suppress_health_check=list(HealthCheck))
def test_match_operations_conform(case):
    """Each match operation alone: no 5xx, every answer as documented."""
    case.call_and_validate()


def test_links_chain_create_to_get_log_and_move():
    """The stateful phase follows the links of POST /v1/matches."""
    links = schema.raw_schema["paths"]["/v1/matches"]["post"]["responses"]["201"]["links"]
    assert {link["operationId"] for link in links.values()} == {"getMatch", "getMatchLog", "postMove"}
    class Machine(schema.as_state_machine()):
        def before_call(self, case):
            """Mostly playable bodies, so that sequences reach the moves."""
            if case.operation.path == "/v1/matches" and case.method == "POST" and isinstance(case.body, dict):
                seed = case.body.get("seed")
                case.body = {"game": "scratch-and-catch", "players": 2, **({"seed": seed} if seed else {})}
            if case.operation.path.endswith("/moves") and isinstance(case.body, dict) and not case.body.get("move"):
                case.body = {"move": {"type": "play", "player": 0, "source": "pile"}}

    Machine.run(settings=settings(max_examples=15, stateful_step_count=6, deadline=None,
                                  suppress_health_check=list(HealthCheck)))
