"""Stateless game endpoints: ``/v1/games`` and, per game, setup, legal-moves, adjudicate,
score and replay. One blueprint per registered game, so each game's schemas appear in the
contract under its own names."""

from __future__ import annotations

from importlib import import_module

from flask import Response, g

from referee.api.body.parsing import Blueprint, with_fast_body
from referee.api.contract import examples
from referee.api.contract.header_docs import named, problem
from referee.api.http.languages import language_of_request
from referee.api.ops.metrics import count_verdict
from referee.engine.core import Game
from referee.games import GAMES, PACKAGES
from referee.json_text import dumps_bytes
from referee.schemas.bodies import GameDetail, GameList, game_schemas
from referee.schemas.compiled import FastEnvelope
from referee.service import state_signing, stateless
from referee.service.state_signing import NO_KEYS, StateKeys

JSON = "application/json"


def request_language() -> str:
    """:func:`language_of_request`, which the answer then names (Content-Language, app.py)."""
    language = g.language = language_of_request()
    return language


def json_response(value, status: int = 200) -> Response:
    """A JSON answer in canonical form (sorted keys)."""
    return Response(dumps_bytes(value), status=status, content_type=JSON)


def catalogue_blueprint() -> Blueprint:
    """``GET /v1/games``."""
    blp = Blueprint("games", __name__, url_prefix="/v1/games", description="The games this referee judges")

    @blp.route("")
    @blp.response(200, GameList, examples=examples.game_list())
    def list_games():
        """Every game: id, title, allowed player counts, options with defaults, rules version."""
        return json_response({"games": [stateless.game_info(game) for game in GAMES.values()]})

    return blp


def described(text: str):
    """Set a view's docstring before flask-smorest reads it into the contract."""
    def decorate(view):
        view.__doc__ = text
        return view
    return decorate


# The problem example of a body the schema refuses, per operation, and whether the answer
# names its language (verdict messages: adjudicate, replay).
_UNFIT = {"setup": "SetupUnfit", "legal-moves": "StateMissing", "adjudicate": "AdjudicateUnfit",
          "score": "StateMissing", "view": "ViewUnfit", "replay": "ReplayUnfit"}
_JUDGED = {"adjudicate", "replay"}
LANGUAGE_HEADERS = named("Content-Language", "Vary")


def _post_operation(blp: Blueprint, path: str, request_schema, answer_schema, doc: str, answer,
                    game_id: str, state_keys: StateKeys) -> None:
    """Register ``POST <blp>/<path>``: the body loaded with ``request_schema`` (422 otherwise),
    its state's signature checked with ``state_keys`` (service/state_signing.py), answered
    with ``answer(body)`` as canonical JSON (states signed), documented with ``answer_schema``
    and examples from a real setup of ``game_id``."""
    def view(body):
        vouched = state_signing.check(state_keys, game_id, body)
        return json_response(state_signing.signed(state_keys, game_id, path, answer(body), vouched))

    view.__name__ = path.replace("-", "_")  # the endpoint name, unique within the blueprint
    view.__doc__ = doc
    request_examples, answer_examples = examples.game_operation(game_id, path)
    judged = path in _JUDGED
    if path == "setup":
        unfit = problem("The body does not fit the operation's schema (JSON pointers in `errors`)", _UNFIT[path])
    else:
        unfit = problem("The body does not fit the operation's schema, or holds a state that cannot exist in the "
                        "game (JSON pointers in `errors`); with `REFEREE_STATE_KEYS` set, a `state_signature` that "
                        "does not match the state (or none, with `REFEREE_REQUIRE_SIGNED_STATES=1`)", _UNFIT[path],
                        "UnsignedState")
    problems = {"422": unfit}
    if path == "replay":
        problems["413"] = problem("The body is larger than REFEREE_MAX_BODY_BYTES, or the replay asks for more work "
                                  "than the service's limits allow (`MAX_REPLAY_WORK`, `MAX_REPLAY_STATE_BYTES`: "
                                  "pointer `/moves` or `/include_states`)")
    documented = blp.arguments(request_schema, examples=request_examples)(
        blp.response(200, answer_schema, examples=answer_examples,
                     headers=LANGUAGE_HEADERS if judged else None)(
            blp.doc(responses=problems)(view)))
    if isinstance(request_schema, FastEnvelope):  # (state and move envelopes: the busiest operations)
        documented = with_fast_body(request_schema, documented, view)
    blp.route(f"/{path}", methods=["POST"])(documented)


def _counted(game: Game, verdict: dict) -> dict:
    count_verdict(game.id, verdict["legal"])
    return verdict


def game_blueprint(game: Game, state_keys: StateKeys = NO_KEYS) -> Blueprint:
    """The blueprint of ``game``'s stateless operations under ``/v1/games/<id>``; states are
    signed and checked with ``state_keys``."""
    schemas = game_schemas(game.id, import_module(f"referee.games.{PACKAGES[game.id]}.schema"), game.player_counts)
    blp = Blueprint(game.id, __name__, url_prefix=f"/v1/games/{game.id}",
                    description=f"{game.title}: stateless judging")
    name = game.title

    @blp.route("")
    @blp.response(200, GameDetail, examples=examples.game_detail(game.id), headers=LANGUAGE_HEADERS)
    @described(f"{name}: the game's entry and its default card catalogue.")
    def detail():
        return json_response(stateless.game_detail(game, request_language()))

    operations = (
        ("setup", schemas.setup_request, schemas.setup_answer,
         f"{name}: a new game's first state from a player count, a seed and options.",
         lambda body: stateless.setup(game, body)),
        ("legal-moves", schemas.state_request, schemas.moves_answer,
         f"{name}: every move the acting player(s) may make now.",
         lambda body: stateless.legal_moves(game, body)),
        ("adjudicate", schemas.adjudicate_request, schemas.verdict,
         f"{name}: judge one move\n\nA rule violation is a normal answer (`legal: false`, violations with code, "
         "message and rulebook section).",
         lambda body: _counted(game, stateless.adjudicate(game, body, request_language()))),
        ("score", schemas.state_request, schemas.score_answer,
         f"{name}: the score sheet and outcome of a state.",
         lambda body: stateless.score(game, body)),
        ("view", schemas.view_request, schemas.view_answer,
         f"{name}: what one seat may see of a state\n\nExactly as a match shows it to that seat (`seat: null`: a "
         "spectator): for apps that keep full states on their own server and show each player only their part.",
         lambda body: stateless.view(game, body)),
        ("replay", schemas.replay_request, schemas.replay_answer,
         f"{name}: apply moves in order\n\nStops at the first illegal move and reports it.",
         lambda body: stateless.replay(game, body, request_language())),
    )
    for path, request_schema, answer_schema, doc, answer in operations:
        _post_operation(blp, path, request_schema(), answer_schema, doc, answer, game.id, state_keys)
    return blp


def blueprints(state_keys: StateKeys = NO_KEYS) -> list[Blueprint]:
    """The catalogue blueprint and one blueprint per registered game (states signed and checked
    with ``state_keys``)."""
    return [catalogue_blueprint()] + [game_blueprint(game, state_keys) for game in GAMES.values()]
