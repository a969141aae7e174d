"""The headers each answer carries for its request (referee/api/http/headers.py): X-Request-ID on
every answer, Content-Language and Vary: Accept-Language where verdict messages follow
Accept-Language (RFC 9110 sections 8.5 and 12.5.5), each once, merged with the Vary that CORS
writes."""

from __future__ import annotations

import re

import pytest

from referee.api.http.headers import answer_headers
from referee.app import create_app
from referee.games import GAMES


def test_nothing_to_add_leaves_the_headers_alone():
    headers = [("Content-Type", "application/json"), ("Vary", "Origin")]
    assert answer_headers(headers, None, None) is headers


def test_request_id_and_language_are_added_once_and_vary_is_merged():
    headers = [("Content-Type", "application/json"), ("vary", "Origin"), ("X-Request-ID", "stale"),
               ("Content-Language", "xx")]
    assert answer_headers(headers, "r1", "ja") == [("Content-Type", "application/json"), ("Content-Language", "ja"),
                                                   ("Vary", "Origin, Accept-Language"), ("X-Request-ID", "r1")]


@pytest.mark.parametrize("vary, expected", [("accept-language", "accept-language"), ("*", "*"),
                                             ("Origin, Accept-Language", "Origin, Accept-Language"),
                                             ("Origin, *", "*")])
def test_a_vary_naming_accept_language_or_everything_gains_nothing(vary, expected):
    got = dict(answer_headers([("Vary", vary)], None, "en"))
    assert got["Vary"] == expected
    assert got["Content-Language"] == "en"


def test_several_vary_lines_become_one_with_each_name_once():
    """flask-cors writes its own Vary: Origin beside the application's when several origins
    are configured."""
    headers = [("Vary", "Origin"), ("Content-Type", "application/json"), ("Vary", "origin")]
    assert answer_headers(headers, "r3", "ja") == [("Content-Type", "application/json"), ("Content-Language", "ja"),
                                                   ("Vary", "Origin, Accept-Language"), ("X-Request-ID", "r3")]
    assert answer_headers(headers, "r3", None) == [("Content-Type", "application/json"), ("Vary", "Origin"),
                                                   ("X-Request-ID", "r3")]


def test_without_a_language_content_language_and_vary_are_untouched():
    headers = [("Vary", "Origin"), ("Content-Language", "en")]
    assert sorted(answer_headers(headers, "r2", None)) == sorted(headers + [("X-Request-ID", "r2")])


def _adjudicate_body():
    game = GAMES["scratch-and-catch"]
    state = game.setup(2, "headers", {})
    return {"state": state, "move": game.legal_moves(state)[0]}


@pytest.mark.parametrize("origins", ["https://table.example", "https://table.example, https://other.example"])
def test_an_answer_from_an_allowed_origin_varies_on_origin_and_accept_language_once_each(origins):
    client = create_app({"TESTING": True, "REFEREE_CORS_ORIGINS": origins}).test_client()
    answer = client.post("/v1/games/scratch-and-catch/adjudicate", json=_adjudicate_body(),
                         headers={"Origin": "https://table.example", "Accept-Language": "ja", "X-Request-ID": "t-1"})
    assert answer.status_code == 200
    names = [name.strip().lower() for value in answer.headers.getlist("Vary") for name in value.split(",")]
    assert sorted(names) == ["accept-language", "origin"]
    assert answer.headers.getlist("Content-Language") == ["ja"]
    assert answer.headers.getlist("X-Request-ID") == ["t-1"]
    assert "X-Request-ID" in answer.headers["Access-Control-Expose-Headers"]
    english = client.get("/healthz", headers={"Origin": "https://table.example"})
    assert [name.strip().lower()
            for value in english.headers.getlist("Vary") for name in value.split(",")] == ["origin"]


@pytest.mark.parametrize("method, path, body, headers, status", [
    ("GET", "/healthz", None, {}, 200),
    ("GET", "/v1/games/nope", None, {}, 404),
    ("POST", "/v1/games/scratch-and-catch/adjudicate", "{}", {"Content-Type": "text/plain"}, 415),
    ("POST", "/v1/games/scratch-and-catch/adjudicate", "{", {"Content-Type": "application/json"}, 400),
    ("DELETE", "/v1/games/scratch-and-catch/adjudicate", None, {}, 405),
])
def test_every_answer_has_one_request_id_and_only_those_in_words_a_language(method, path, body, headers, status):
    """A problem's title and details follow Accept-Language, as verdict messages do: the answer
    names its language and varies on Accept-Language; a health report has no words to say."""
    client = create_app({"TESTING": True}).test_client()
    answer = client.open(path, method=method, data=body, headers=headers)
    assert answer.status_code == status
    assert len(answer.headers.getlist("X-Request-ID")) == 1
    assert re.fullmatch(r"[0-9a-f]{32}", answer.headers["X-Request-ID"])
    if status < 400:
        assert "Content-Language" not in answer.headers and "Vary" not in answer.headers
    else:
        assert answer.headers.getlist("Content-Language") == ["en"]
        assert answer.headers.getlist("Vary") == ["Accept-Language"]


def test_a_request_id_with_a_final_newline_is_replaced():
    """A WSGI server may hand the header on as sent: a value is a token only as a whole."""
    from referee.api.http.request_ids import take_request_id

    class Globals:
        pass

    for given, kept in (("abc\n", False), ("abc", True), ("a" * 128, True), ("a" * 129, False)):
        request_globals = Globals()
        take_request_id({"HTTP_X_REQUEST_ID": given}, request_globals)
        assert (request_globals.request_id == given) is kept, given
