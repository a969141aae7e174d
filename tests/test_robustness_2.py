"""Hostile and careless input, second pass: the command line reads JSON as strictly as the
HTTP service, violation parameters translate without surprises, and the fast state check."""

import json

import pytest
from click.testing import CliRunner

from referee.cli import main

BASE = "/v1/games/scratch-and-catch"


@pytest.mark.parametrize("replace, literal", [
    ('"seed": "cli"', '"seed": "\\ud800"'),     # a lone surrogate: no Unicode character
    ('"counter": 75', '"counter": NaN'),        # NaN is not JSON
    ('"counter": 75', '"counter": Infinity'),
])
def test_command_line_reads_strict_json_like_http(client, tmp_path, replace, literal):
    """`referee adjudicate` refuses what the HTTP service refuses as bad JSON (400, exit 2 with
    a problem on stderr) instead of crashing while printing a lone surrogate back."""
    state = client.post(f"{BASE}/setup", json={"players": 2, "seed": "cli"}).get_json()["state"]
    text = json.dumps({"state": state})
    assert replace in text
    state_path, move_path = tmp_path / "state.json", tmp_path / "move.json"
    state_path.write_text(text.replace(replace, literal))
    move_path.write_text(json.dumps({"type": "play", "player": 0, "source": "pile"}))
    result = CliRunner().invoke(main, ["adjudicate", str(state_path), str(move_path)])
    assert result.exit_code == 2, result.output
    problem = json.loads(result.stderr)
    assert problem["status"] == 400 and problem["errors"][0]["pointer"] == "/state"
