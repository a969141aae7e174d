"""Problem answers are written as every other answer is: canonical JSON, sorted keys and no
spaces, so a client that compares or hashes answer bytes sees one form (gunicorn's own
answers: tests/edge/test_transport.py)."""

from __future__ import annotations

import json
import re

import pytest

from referee.app import create_app
from referee.games import GAMES
from referee.store.memory import MemoryStore


def _canonical(body: bytes) -> bytes:
    return json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True, "REFEREE_STORE": MemoryStore()}).test_client()


def _requests():
    state = GAMES["catatac"].setup(2, "bytes", {})
    impossible = json.loads(json.dumps(state))
    impossible["players"][0]["hand"] = impossible["players"][0]["hand"][:-1]   # a card gone from the game
    return [
        ("get", "/nowhere", {}, 404),
        ("get", "/v1/games/chess", {}, 404),
        ("delete", "/v1/games", {}, 405),
        ("post", "/v1/games/catatac/adjudicate", {"data": "{", "content_type": "application/json"}, 400),
        ("post", "/v1/games/catatac/adjudicate", {"data": "{}", "content_type": "text/plain"}, 415),
        ("post", "/v1/games/catatac/adjudicate", {"json": {"state": 1}}, 422),
        ("post", "/v1/games/catatac/legal-moves", {"json": {"state": impossible}}, 422),
        ("get", "/v1/matches/none", {}, 404),
        ("post", "/v1/games/catatac/legal-moves", {"json": {"state": state}}, 200),
    ]


@pytest.mark.parametrize("method, path, options, status", _requests())
def test_answers_are_canonical_json(client, method, path, options, status):
    answer = getattr(client, method)(path, **options)
    assert answer.status_code == status
    assert answer.data == _canonical(answer.data)
    if status >= 400:
        assert answer.content_type == "application/problem+json"
        between_strings = re.sub(rb'"(?:[^"\\]|\\.)*"', b'""', answer.data)   # (a detail may quote '": ')
        assert b", " not in between_strings and b": " not in between_strings
