"""Every recorded request answered as the recorded revision answered it (corpus.py).

Valid requests: status, the headers a client reads and the body, byte for byte. Refused
ones (application/problem+json): status, headers, problem type and the JSON pointers of its
errors; the words of ``detail`` may change.
"""

from __future__ import annotations

import json

import pytest

from tests.differential import corpus

RECORDS = corpus.load()


def _comparable(answer: dict) -> dict:
    if answer["headers"].get("Content-Type") != "application/problem+json":
        return answer
    problem = json.loads(answer["body"])
    pointers = [error.get("pointer") for error in problem.get("errors", [])]
    return {**answer, "body": {"type": problem["type"], "status": problem["status"], "pointers": pointers}}


@pytest.fixture(scope="module")
def client():
    return corpus.app_client()


def test_the_corpus_covers_every_game_and_refusal():
    paths = {record["request"]["path"].split("?")[0] for record in RECORDS}
    for game in corpus.GAMES:
        for operation in ("setup", "legal-moves", "adjudicate", "score", "view", "replay"):
            assert f"/v1/games/{game}/{operation}" in paths
    statuses = {record["answer"]["status"] for record in RECORDS}
    assert {200, 201, 304, 400, 401, 403, 404, 405, 412, 415, 422, 428} <= statuses


def test_every_recorded_request_gets_the_recorded_answer(client):
    differences = []
    with corpus.seeded_secrets():
        for index, record in enumerate(RECORDS):
            answer = corpus.answer_of(corpus.send(client, record["request"]))
            if _comparable(answer) != _comparable(record["answer"]):
                differences.append((index, record["request"]["method"], record["request"]["path"]))
    assert not differences, f"{len(differences)} of {len(RECORDS)} answers differ; first: {differences[:5]}"
