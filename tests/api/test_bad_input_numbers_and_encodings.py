"""Hostile and careless input: an integer longer than Python converts, a seat in
the query string written other than in ASCII digits, a compressed body."""

import gzip
import json

import pytest
from click.testing import CliRunner

from referee.cli import main


def _problem(answer) -> dict:
    assert answer.content_type == "application/problem+json"
    return answer.get_json()


def test_an_integer_longer_than_python_converts_is_named_not_called_invalid_json(client):
    """4,300 digits is Python's bound on converting a decimal string (against quadratic work):
    one digit more is refused as what it is, 400 naming the bound, not as "not valid JSON"."""
    body = '{"game": "catatac", "players": %s}'
    longest = client.post("/v1/matches", data=body % ("9" * 4300), content_type="application/json")
    assert longest.status_code == 422 and [e["pointer"] for e in _problem(longest)["errors"]] == ["/players"]
    for number in ("9" * 4301, "-" + "9" * 4301):
        answer = client.post("/v1/matches", data=body % number, content_type="application/json")
        problem = _problem(answer)
        assert answer.status_code == 400
        assert problem["errors"] == [{"pointer": "", "detail": "an integer of more than 4300 digits"}]
        assert "4,300 digits" in problem["detail"] and "not valid JSON" not in problem["title"]


def test_the_command_line_names_an_integer_too_long_too(tmp_path):
    state_path, move_path = tmp_path / "state.json", tmp_path / "move.json"
    state_path.write_text('{"counter": %s}' % ("1" * 5000))
    move_path.write_text(json.dumps({"type": "play", "player": 0, "source": "pile"}))
    result = CliRunner().invoke(main, ["adjudicate", str(state_path), str(move_path)])
    assert result.exit_code == 2
    problem = json.loads(result.stderr)
    assert problem["errors"] == [{"pointer": "/state", "detail": "an integer of more than 4300 digits"}]


@pytest.mark.parametrize("seat", ["%D9%A0", "%EF%BC%90", "+0", "%200", "0%20", "0x0"])
def test_a_seat_is_ascii_digits_only(client, seat):
    """Arabic-Indic and full-width zeros, a sign or spaces are no seat number (int() takes them;
    the query string does not, as Last-Event-ID and Prefer: wait do not)."""
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2}).get_json()
    secret = {"Authorization": f"Bearer {match['seats'][0]['secret']}"}
    assert client.get(f"/v1/matches/{match['id']}?seat=0", headers=secret).status_code == 200
    for path in (f"/v1/matches/{match['id']}?seat={seat}", f"/v1/matches/{match['id']}/legal-moves?seat={seat}",
                 f"/v1/matches/{match['id']}/log?seat={seat}"):
        answer = client.get(path, headers=secret)
        assert answer.status_code == 422, path
        assert [e["pointer"] for e in _problem(answer)["errors"]] == ["/query/seat"]


def test_a_compressed_body_is_415_naming_the_content_encoding(client):
    """RFC 9110, 415 Unsupported Media Type: a content coding the service does not decode. The
    body is not read as JSON (before: 400 "not valid JSON"; a plain body with the header: 201)."""
    plain = b'{"game": "catatac", "players": 4}'
    for coding, data in (("gzip", gzip.compress(plain)), ("gzip", plain), ("br", plain)):
        answer = client.post("/v1/matches", data=data, headers={"Content-Type": "application/json",
                                                                 "Content-Encoding": coding})
        assert answer.status_code == 415
        assert _problem(answer)["errors"] == [{"pointer": "/headers/Content-Encoding",
                                               "detail": "only identity (no coding) is accepted"}]
        assert coding in _problem(answer)["detail"]
    same = client.post("/v1/matches", data=plain, headers={"Content-Type": "application/json",
                                                            "Content-Encoding": "identity"})
    assert same.status_code == 201


@pytest.mark.parametrize("path, fields", [("/v1/games/catatac/adjudicate", ["/state", "/move"]),
                                          ("/v1/matches", ["/game", "/players"])])
def test_an_empty_body_is_called_empty(client, path, fields):
    """An empty body declared as JSON reads as no fields at all (422 listing the required ones,
    as for {}), and the detail says the body is empty rather than that it "does not fit"."""
    empty = client.post(path, data=b"", headers={"Content-Type": "application/json"})
    braces = client.post(path, data=b"{}", headers={"Content-Type": "application/json"})
    assert empty.status_code == braces.status_code == 422
    assert [e["pointer"] for e in _problem(empty)["errors"]] == fields
    assert [e["pointer"] for e in _problem(braces)["errors"]] == fields
    assert _problem(empty)["detail"].startswith("The request body is empty")
    assert "empty" not in _problem(braces)["detail"]
