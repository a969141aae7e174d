"""The `referee` command prints the same JSON as the HTTP answers."""

import json
import shutil
import subprocess
import sys

from click.testing import CliRunner

from referee.cli import main

BASE = "/v1/games/scratch-and-catch"


def _files(tmp_path, state, second, name):
    state_path, other_path = tmp_path / "state.json", tmp_path / name
    state_path.write_text(json.dumps(state))
    other_path.write_text(json.dumps(second))
    return str(state_path), str(other_path)


def test_adjudicate_prints_the_http_verdict(client, tmp_path):
    state = client.post(f"{BASE}/setup", json={"players": 2, "seed": "cli"}).get_json()["state"]
    move = {"type": "play", "player": 0, "source": "hand", "card": state["players"][0]["hand"][1]}
    http = client.post(f"{BASE}/adjudicate", json={"state": state, "move": move}).get_data(as_text=True)
    result = CliRunner().invoke(main, ["adjudicate", *_files(tmp_path, state, move, "move.json")])
    assert result.exit_code == 0
    assert result.output.strip() == http


def test_replay_prints_the_http_answer_in_japanese(client, tmp_path):
    state = client.post(f"{BASE}/setup", json={"players": 2, "seed": "cli"}).get_json()["state"]
    moves = [{"type": "play", "player": 1, "source": "pile"}]
    http = client.post(f"{BASE}/replay", json={"state": state, "moves": moves},
                       headers={"Accept-Language": "ja"}).get_data(as_text=True)
    result = CliRunner().invoke(main, ["replay", *_files(tmp_path, state, moves, "moves.json"), "--lang", "ja"])
    assert result.exit_code == 0
    assert result.output.strip() == http
    assert json.loads(result.output)["first_illegal"]["violations"][0]["code"] == "NOT_YOUR_TURN"


def test_replay_with_states_prints_the_http_answer(client, tmp_path):
    state = client.post(f"{BASE}/setup", json={"players": 2, "seed": "cli"}).get_json()["state"]
    moves = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()["moves"][:1]
    http = client.post(f"{BASE}/replay", json={"state": state, "moves": moves, "include_states": True})
    result = CliRunner().invoke(main, ["replay", *_files(tmp_path, state, moves, "moves.json"), "--include-states"])
    assert result.exit_code == 0 and result.output.strip() == http.get_data(as_text=True)
    step = json.loads(result.output)["steps"][0]
    assert step["legal"] is True and step["state"] == json.loads(result.output)["state"]


def test_bad_input_is_a_problem_on_stderr(client, tmp_path):
    state = client.post(f"{BASE}/setup", json={"players": 2, "seed": "cli"}).get_json()["state"]
    state["players"][0]["fleas"] = -1
    result = CliRunner().invoke(
        main, ["adjudicate", *_files(tmp_path, state, {"type": "play", "player": 0, "source": "pile"}, "m.json")])
    assert result.exit_code == 2
    problem = json.loads(result.stderr)
    assert problem["status"] == 422
    assert "/state/players/0/fleas" in [e["pointer"] for e in problem["errors"]]


def test_console_script_is_installed():
    script = shutil.which("referee") or str(__import__("pathlib").Path(sys.executable).with_name("referee"))
    result = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0
    for command in ("serve", "adjudicate", "replay", "openapi"):
        assert command in result.stdout


def test_setup_answer_and_wrapped_move_are_accepted(client, tmp_path):
    """STATE.json may be the answer of setup as it is; MOVE.json may be {"move": ...}."""
    answer = client.post(f"{BASE}/setup", json={"players": 2, "seed": "cli"}).get_json()
    move = {"type": "play", "player": 0, "source": "pile"}
    bare = CliRunner().invoke(main, ["adjudicate", *_files(tmp_path, answer["state"], move, "a.json")])
    wrapped = CliRunner().invoke(main, ["adjudicate", *_files(tmp_path, answer, {"move": move}, "b.json")])
    assert wrapped.exit_code == 0 and wrapped.output == bare.output
    assert json.loads(wrapped.output)["legal"] is True


def test_missing_file_is_a_400_problem(tmp_path):
    result = CliRunner().invoke(main, ["adjudicate", str(tmp_path / "nope.json"), str(tmp_path / "nope2.json")])
    assert result.exit_code == 2
    problem = json.loads(result.stderr)
    assert problem["status"] == 400 and problem["type"] == "/problems/unreadable-file"
    assert problem["title"] == "Cannot read an input file"  # not "The request body is not valid JSON"
    assert "nope.json" in problem["detail"] and "No such file" in problem["detail"]


def test_a_port_of_unicode_digits_is_left_to_gunicorn_to_refuse():
    """``_cannot_listen`` only probes HOST:PORT with an ASCII port ("\u00b2".isdigit() is true,
    int() refuses it: once a crash of ``referee serve``)."""
    from referee.cli import _cannot_listen

    assert _cannot_listen("127.0.0.1:\u00b2") is None and _cannot_listen("127.0.0.1:\u0661\u0662") is None


def test_a_file_that_is_not_json_is_told_by_line_column_and_byte_offset(tmp_path):
    """The state file's fourth line lacks the comma after line 3: line 1 "{" and its newline
    are 2 bytes, line 2 '  "game": "catatac",' and its newline 21, line 3 '  "seed": "x"' and
    its newline 14; then 2 spaces, and "players" at line 4, column 3, byte 2 + 21 + 14 + 2 = 39."""
    state_path, move_path = tmp_path / "state.json", tmp_path / "move.json"
    state_path.write_text('{\n  "game": "catatac",\n  "seed": "x"\n  "players": []\n}\n')
    move_path.write_text('{"type": "decline", "player": 0}')
    for lang, detail, error in (
            ("en", f"{state_path} is not valid JSON: a comma or a closing bracket was expected at line 4, column 3 "
                   "(byte offset 39). Correct the file there and run the command again.",
             "a comma or a closing bracket was expected at line 4, column 3"),
            ("ja", f"{state_path} が正しいJSONではありません。4行3列目（先頭から39バイト）："
                   "カンマか閉じかっこがありません。その箇所を直して、もう一度コマンドを実行してください。",
             "4行3列目：カンマか閉じかっこがありません")):
        result = CliRunner().invoke(main, ["adjudicate", str(state_path), str(move_path), "--lang", lang])
        assert result.exit_code == 2
        problem = json.loads(result.stderr)
        assert (problem["status"], problem["type"]) == (400, "/problems/bad-request")
        assert problem["detail"] == detail
        assert problem["errors"] == [{"pointer": "/state", "detail": error}]
