"""A body of more arrays and objects than any request needs is refused before it is read
(referee/limits.py, MAX_JSON_CONTAINERS; docs/reference/limits.md): read, 400,000 nested
lists within the body limit cost a worker about 0.6 s of CPU."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.games import GAMES
from referee.limits import MAX_JSON_CONTAINERS, MAX_REPLAY_MOVES


@pytest.mark.parametrize("path", ["/v1/games/catatac/setup", "/v1/games/scratch-and-catch/replay",
                                  "/v1/games/catatac/adjudicate", "/v1/matches"])
@pytest.mark.parametrize("item", ["[[[[[[[[1.5]]]]]]]]", "[[]]", "{}"])
def test_a_body_of_too_many_arrays_and_objects_is_refused_before_it_is_read(client, path, item):
    body = '{"players": 2, "x": [' + ",".join([item] * 52000) + "]}"
    assert len(body) < 1024 * 1024
    started = time.process_time()
    answer = client.post(path, data=body, content_type="application/json")
    spent = time.process_time() - started
    assert answer.status_code == 400
    problem = answer.get_json()
    assert problem["errors"] == [{"pointer": "", "detail": f"more than {MAX_JSON_CONTAINERS:,} arrays and objects"}]
    assert "not valid JSON" not in problem["title"]
    assert spent < 0.1, spent   # (read, such a body cost 0.3 to 0.75 s)


def test_the_longest_replay_holds_far_fewer():
    """A replay of the most moves a request may hold, of CATATAC's 4 players (moves with a
    pair and an action block hold the most arrays and objects), is well within the bound."""
    game = GAMES["catatac"]
    state = game.setup(4, "containers", {})
    moves, current = [], state
    while len(moves) < MAX_REPLAY_MOVES and not game.score(current)[1].finished:
        move = max(game.legal_moves(current), key=lambda m: json.dumps(m).count("[") + json.dumps(m).count("{"))
        moves.append(move)
        current = game.adjudicate(current, move).state
    text = json.dumps({"state": state, "moves": moves * (MAX_REPLAY_MOVES // len(moves) + 1)})
    assert text.count("[") + text.count("{") < MAX_JSON_CONTAINERS / 3


def test_the_command_line_names_the_bound_too(tmp_path):
    state_path, move_path = tmp_path / "state.json", tmp_path / "move.json"
    state_path.write_text("[" + ",".join(["[]"] * 60000) + "]")
    move_path.write_text(json.dumps({"type": "play", "player": 0, "source": "pile"}))
    result = CliRunner().invoke(main, ["adjudicate", str(state_path), str(move_path)])
    assert result.exit_code == 2
    problem = json.loads(result.stderr)
    assert problem["errors"] == [{"pointer": "/state",
                                  "detail": f"more than {MAX_JSON_CONTAINERS:,} arrays and objects"}]
