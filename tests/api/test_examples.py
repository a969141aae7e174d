"""Examples in the contract: every operation has request (when it takes a body) and answer
examples; each fits its schema; and each is what the service really answers."""

from __future__ import annotations

import json

import jsonschema_rs
import pytest

from referee.app import create_app
from referee.store.memory import MemoryStore

APP = create_app({"TESTING": True, "REFEREE_STORE": MemoryStore()})
SPEC = APP.extensions["referee.api"].spec.to_dict()
METHODS = ("get", "post", "put", "patch", "delete")
OPERATIONS = [(path, method, operation) for path, item in SPEC["paths"].items()
              for method, operation in item.items() if method in METHODS]
# Values a real match makes at random or from the clock.
RANDOM = {"id", "secret", "created_at", "updated_at", "expires_at", "at"}


def _examples(media: dict) -> dict:
    return media.get("examples") or ({"example": {"value": media["example"]}} if "example" in media else {})


def _check(schema: dict, value) -> list[str]:
    validator = jsonschema_rs.validator_for({**schema, "components": SPEC["components"]})
    return [f"{error.instance_path}: {error.message}" for error in validator.iter_errors(value)]


def _ids(item):
    return f"{item[1].upper()} {item[0]}"


@pytest.mark.parametrize("path,method,operation", OPERATIONS, ids=[_ids(o) for o in OPERATIONS])
def test_every_operation_has_examples_that_fit_their_schemas(path, method, operation):
    body = operation.get("requestBody")
    if body is not None:
        media = body["content"]["application/json"]
        examples = _examples(media)
        assert examples, f"{method} {path}: no request example"
        for name, example in examples.items():
            assert _check(media["schema"], example["value"]) == [], (name, "request")
    answers = {status: answer for status, answer in operation["responses"].items() if str(status).startswith("2")}
    if "204" in answers:   # No Content (RFC 9110 section 15.3.5): nothing to show
        assert "content" not in answers.pop("204")
    assert answers
    for status, answer in answers.items():
        [(kind, media)] = answer["content"].items()
        examples = _examples(media)
        assert examples, f"{method} {path} {status}: no answer example"
        for name, example in examples.items():
            assert _check(media["schema"], example["value"]) == [], (name, status)
            if kind == "text/event-stream":  # each event's data is a log entry as the reader sees it
                events = [line[len("data: "):] for line in example["value"].splitlines() if line.startswith("data: ")]
                assert events and all(_check({"$ref": "#/components/schemas/LogEntry"}, json.loads(data)) == []
                                      for data in events), name


def test_a_wrong_example_would_not_fit():
    """The schema check can fail: an answer example without a required field does not fit."""
    media = SPEC["paths"]["/v1/matches/{match_id}"]["get"]["responses"]["200"]["content"]["application/json"]
    value = dict(next(iter(media["examples"].values()))["value"])
    del value["state"]
    assert _check(media["schema"], value) != []


STATELESS = [(path, operation) for path, method, operation in OPERATIONS
             if path.startswith("/v1/games/") and method == "post"]


@pytest.mark.parametrize("path,operation", STATELESS, ids=[p for p, _ in STATELESS])
def test_stateless_examples_are_the_service_answers(path, operation):
    """Posting a request example answers exactly its answer example (shortened lists aside)."""
    requests = operation["requestBody"]["content"]["application/json"]["examples"]
    answers = operation["responses"]["200"]["content"]["application/json"]["examples"]
    client = APP.test_client()
    for name, request in requests.items():
        answer = client.post(path, json=request["value"])
        assert answer.status_code == 200
        real, shown = answer.get_json(), answers.get(name, next(iter(answers.values())))["value"]
        if path.endswith("/legal-moves"):
            assert real["moves"][:len(shown["moves"])] == shown["moves"]
        else:
            assert real == shown, name


def _without_random(value):
    if isinstance(value, dict):
        return {k: ("*" if k in RANDOM else _without_random(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_random(v) for v in value]
    return value


def _answer_example(path, method, status="200"):
    media = SPEC["paths"][path][method]["responses"][status]["content"]["application/json"]
    return next(iter(media["examples"].values()))["value"]


def test_match_examples_are_what_a_real_match_answers():
    """Create the example match, read it, list seat 0's moves, make the example move, read the
    log and seat 0's view: each answer is its example, ids, secrets and times aside."""
    client = APP.test_client()
    create = SPEC["paths"]["/v1/matches"]["post"]["requestBody"]["content"]["application/json"]["examples"][
        "seeded"]["value"]
    created = client.post("/v1/matches", json=create)
    assert created.status_code == 201
    match = created.get_json()
    assert _without_random(match) == _without_random(_answer_example("/v1/matches", "post", "201"))
    auth = {"Authorization": f"Bearer {match['seats'][0]['secret']}"}
    base = f"/v1/matches/{match['id']}"
    moves = client.get(f"{base}/legal-moves?seat=0", headers=auth).get_json()
    assert _without_random(moves) == _without_random(_answer_example("/v1/matches/{match_id}/legal-moves", "get"))
    move = next(iter(SPEC["paths"]["/v1/matches/{match_id}/moves"]["post"]["requestBody"]["content"]
                     ["application/json"]["examples"].values()))["value"]
    verdict = client.post(f"{base}/moves", json=move, headers={"If-Match": '"0"', **auth}).get_json()
    assert _without_random(verdict) == _without_random(_answer_example("/v1/matches/{match_id}/moves", "post"))
    log = client.get(f"{base}/log").get_json()
    assert _without_random(log) == _without_random(_answer_example("/v1/matches/{match_id}/log", "get"))
    seat_view = client.get(f"{base}?seat=0", headers=auth).get_json()
    assert _without_random(seat_view) == _without_random(_answer_example("/v1/matches/{match_id}", "get"))
    record = client.get(f"{base}/record").get_json()
    assert _without_random(record) == _without_random(_answer_example("/v1/matches/{match_id}/record", "get"))


def test_record_examples_are_what_verification_answers():
    """Each request example of verifyRecord, posted, answers its answer example."""
    operation = SPEC["paths"]["/v1/records/verify"]["post"]
    requests = operation["requestBody"]["content"]["application/json"]["examples"]
    answers = operation["responses"]["200"]["content"]["application/json"]["examples"]
    expected = {"complete": "valid", "altered": "invalid"}
    assert set(requests) == set(expected)
    for name, request in requests.items():
        answer = APP.test_client().post("/v1/records/verify", json=request["value"])
        assert answer.status_code == 200 and answer.get_json() == answers[expected[name]]["value"], name


def test_a_match_is_created_without_a_seed_unless_the_example_says_why():
    """docs/guides/matches.md, "The seed is the whole deal": whoever knows a match's seed sees every
    card, so "Try it out" (the first example) lets the referee draw it; the seeded form is a
    second example that says so."""
    requests = SPEC["paths"]["/v1/matches"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    first, *others = requests.values()
    assert "seed" not in first["value"]
    assert [example["value"]["seed"] for example in others] == ["example"]
    assert "see every card" in others[0]["summary"]
    created = APP.test_client().post("/v1/matches", json=first["value"])
    assert created.status_code == 201 and "rng" not in created.get_json()["state"]
