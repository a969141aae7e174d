"""Hostile and careless input: the command line reads JSON as strictly as the
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


# -- violation parameters in Japanese ---------------------------------------------------------

KATULHU = "/v1/games/call-of-katulhu"


@pytest.mark.parametrize("name", ["Setup", "Gameplay", "Scoring"])
def test_an_id_spelled_like_a_rule_heading_is_not_translated(client, name):
    """Call of Katulhu ids are free (a custom catalogue may name a cat "Setup"): a cat or toy
    named in a violation keeps its id in Japanese; only the rule section is translated."""
    table = client.post(f"{KATULHU}/setup", json={"players": 2, "seed": "ids", "options": {"chance": "table"}})
    reveal = {"type": "reveal", "player": 0, "cat": name}
    seeded = client.post(f"{KATULHU}/setup", json={"players": 2, "seed": "ids"})
    place = {"type": "place", "player": 0, "toys": [name, "yarn", "box", "mouse"]}
    for state, move, code in ((table.get_json()["state"], reveal, "CAT_NOT_IN_DECK"),
                              (seeded.get_json()["state"], place, "TOY_NOT_IN_DECK")):
        for language in ("en", "ja"):
            verdict = client.post(f"{KATULHU}/adjudicate", json={"state": state, "move": move},
                                  headers={"Accept-Language": language}).get_json()
            violation = verdict["violations"][0]
            assert violation["code"] == code
            assert f" {name} " in violation["message"], violation["message"]
