"""A client generated from openapi.yaml by openapi-python-client plays a complete match of
each game against the service over real HTTP, using nothing but the generated code: create,
seat views, legal moves, moves with If-Match, the log and the final scores.

The client is generated once per test process into a temporary directory (a few seconds).
"""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
from pathlib import Path

import pytest
from werkzeug.serving import WSGIRequestHandler

from referee.app import create_app
from referee.store.memory import MemoryStore
from tests.support.serving import serving

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = "referee_client"
MAX_MOVES = 3000


@pytest.fixture(scope="module")
def client_package(tmp_path_factory):
    """The generated package, imported (a module named ``referee_client``)."""
    where = tmp_path_factory.mktemp("generated")
    config = where / "config.yaml"
    config.write_text(f"project_name_override: {PACKAGE}\npackage_name_override: {PACKAGE}\npost_hooks: []\n")
    generator = Path(sys.executable).with_name("openapi-python-client")
    result = subprocess.run([str(generator), "generate", "--path", str(ROOT / "openapi.yaml"), "--meta", "none",
                             "--config", str(config), "--output-path", str(where / PACKAGE)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Warning" not in result.stdout + result.stderr, result.stdout + result.stderr
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


class QuietHandler(WSGIRequestHandler):
    def log_request(self, *args, **kwargs):
        pass  # hundreds of requests per match


@pytest.fixture(scope="module")
def base_url():
    app = create_app({"TESTING": True, "REFEREE_STORE": MemoryStore()})
    with serving(app, request_handler=QuietHandler) as port:
        yield f"http://127.0.0.1:{port}"


def _any_move(moves, view, rnd):
    return rnd.choice(moves)


def _katulhu_policy(package, client):
    """Call of Katulhu games between random players last about 2000 moves (cats are rarely
    attracted): place toys that match as many cats of the table as possible (Gameplay), which
    ends a game in about 80 moves. Uses the catalogue the generated client reads."""
    detail = importlib.import_module(f"{PACKAGE}.api.call_of_katulhu.get_v1_games_call_of_katulhu")
    catalogue = detail.sync(client=client).catalogue.to_dict()
    slots = {cat["id"]: cat["slots"] for cat in catalogue["cats"]}

    def matched(move, table):
        toys = move.toys if isinstance(move.toys, list) else []
        return sum(all(w is None or w == t for w, t in zip(slots[cat], toys)) for cat in table) if toys else 0

    def choose(moves, view, rnd):
        best = max(matched(move, view.table) for move in moves)
        return rnd.choice([move for move in moves if matched(move, view.table) == best])
    return choose


def _api(package, name):
    return importlib.import_module(f"{PACKAGE}.api.matches.{name}")


@pytest.mark.parametrize("game_id,players", [("scratch-and-catch", 3), ("call-of-katulhu", 2), ("catatac", 2)])
def test_generated_client_plays_a_complete_match(client_package, base_url, game_id, players):
    models = importlib.import_module(f"{PACKAGE}.models")
    create, get_match, legal_moves, post_move, get_log = (
        _api(client_package, name) for name in ("create_match", "get_match", "get_match_legal_moves", "post_move",
                                                 "get_match_log"))
    anonymous = client_package.Client(base_url=base_url, raise_on_unexpected_status=True)

    created = create.sync_detailed(client=anonymous, body=models.MatchCreateRequest(
        game=models.MatchCreateRequestGame(game_id), players=players, seed=f"generated-{game_id}"))
    assert created.status_code == 201
    match = created.parsed
    assert isinstance(match, models.MatchCreated) and match.version == 0
    etag = created.headers["ETag"]
    seats = {seat.seat: client_package.AuthenticatedClient(base_url=base_url, token=seat.secret,
                                                           raise_on_unexpected_status=True)
             for seat in match.seats}
    view_type = {"scratch-and-catch": models.ScratchAndCatchView, "call-of-katulhu": models.CallOfKatulhuView,
                 "catatac": models.CatatacView}[game_id]
    moves_type = {"scratch-and-catch": models.ScratchAndCatchMatchLegalMoves,
                  "call-of-katulhu": models.CallOfKatulhuMatchLegalMoves,
                  "catatac": models.CatatacMatchLegalMoves}[game_id]
    rnd = random.Random(game_id)
    choose = _katulhu_policy(client_package, anonymous) if game_id == "call-of-katulhu" else _any_move
    made = 0
    while True:
        # Polling: nothing new since our last move.
        unchanged = get_match.sync_detailed(match.id, client=anonymous, if_none_match=etag)
        assert unchanged.status_code == 304 and unchanged.headers["ETag"] == etag
        current = get_match.sync(match.id, client=anonymous)
        if current.outcome.finished:
            break
        mover = None
        for seat, authorised in seats.items():
            view = get_match.sync(match.id, client=authorised, seat=seat)
            assert isinstance(view.state, view_type) and view.seat == seat
            listed = legal_moves.sync_detailed(match.id, client=authorised, seat=seat)
            assert isinstance(listed.parsed, moves_type)
            assert listed.headers["ETag"] == etag
            if listed.parsed.moves:
                mover, moves = seat, listed.parsed.moves
                break
        assert mover is not None, "no seat has a move in a match that is not finished"
        move = choose(moves, view.state, rnd)
        answer = post_move.sync_detailed(match.id, client=seats[mover], body=models.MoveRequest(move=move),
                                         if_match=etag)
        assert answer.status_code == 200
        verdict = answer.parsed
        assert verdict.legal is True, verdict.violations
        assert isinstance(verdict.state, view_type)
        assert answer.headers["ETag"] == f'"{verdict.version}"' != etag
        etag = answer.headers["ETag"]
        made += 1
        assert made < MAX_MOVES

    # A stale version is refused: 412 with the current ETag.
    stale = post_move.sync_detailed(match.id, client=seats[mover], body=models.MoveRequest(move=move), if_match='"0"')
    assert stale.status_code == 412 and stale.headers["ETag"] == etag
    log = get_log.sync(match.id, client=anonymous)
    assert [entry.version for entry in log.entries] == list(range(1, made + 1))
    final = get_match.sync(match.id, client=anonymous)
    assert final.outcome.finished and final.version == made
    scores = final.scores.to_dict()
    assert len(scores.get("players") or scores.get("clans")) >= 2
    assert set(final.outcome.winners) <= set(range(players))
