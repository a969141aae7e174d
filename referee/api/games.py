"""Stateless game endpoints: ``/v1/games`` and, per game, setup, legal-moves, adjudicate,
score and replay. One blueprint per registered game, so each game's schemas appear in the
contract under its own names."""

from __future__ import annotations

from importlib import import_module

from flask import Response, g, request

from referee.api import adjudication
from referee.api.parsing import Blueprint
from referee.api.schemas import GameDetail, GameList, game_schemas
from referee.engine.core import Game
from referee.games import GAMES, PACKAGES
from referee.i18n import DEFAULT_LANGUAGE, LANGUAGES, translate

JSON = "application/json"


def request_language() -> str:
    """The language of messages: ``ja`` when Accept-Language prefers it, else ``en``.

    The caller's languages are taken in order of preference, each by its primary subtag
    (``ja-JP`` is Japanese, ``en-US`` English); the first we have wins, ``*`` means English.
    (werkzeug's ``best_match`` matches ``en`` exactly before it tries primary subtags, so
    ``ja-JP,en;q=0.9`` came out English and ``en-US,ja;q=0.5`` Japanese.)"""
    g.language = _negotiate()  # the answer then carries Content-Language and Vary (app.py)
    return g.language


def _negotiate() -> str:
    # werkzeug sorts "*" last whatever its quality: order by quality alone (stable).
    for value, quality in sorted(request.accept_languages, key=lambda item: -item[1]):
        if quality <= 0:
            continue
        primary = value.replace("_", "-").split("-", 1)[0].lower()
        if primary in LANGUAGES:
            return primary
        if primary == "*":
            return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def json_response(value, status: int = 200) -> Response:
    """A JSON answer in canonical form (sorted keys)."""
    return Response(adjudication.dumps(value), status=status, content_type=JSON)


def catalogue_blueprint() -> Blueprint:
    """``GET /v1/games``."""
    blp = Blueprint("games", __name__, url_prefix="/v1/games", description="The games this referee judges")

    @blp.route("")
    @blp.response(200, GameList)
    def list_games():
        """Every game: id, title, allowed player counts, options with defaults, rules version."""
        return json_response({"games": [adjudication.game_info(game) for game in GAMES.values()]})

    return blp


def described(text: str):
    """Set a view's docstring before flask-smorest reads it into the contract."""
    def decorate(view):
        view.__doc__ = text
        return view
    return decorate


def game_blueprint(game: Game) -> Blueprint:
    """The blueprint of ``game``'s stateless operations under ``/v1/games/<id>``."""
    schemas = game_schemas(game.id, import_module(f"referee.games.{PACKAGES[game.id]}.schema"), game.player_counts)
    blp = Blueprint(game.id, __name__, url_prefix=f"/v1/games/{game.id}",
                    description=f"{game.title}: stateless judging")
    name = game.title

    @blp.route("")
    @blp.response(200, GameDetail)
    @described(f"{name}: the game's entry and its default card catalogue.")
    def detail():
        info = adjudication.game_info(game)
        info["catalogue"] = game.catalogue()
        language = request_language()
        info["violations"] = [{"code": code, "message": translate(message, language, game.id),
                               "rule": translate(rule, language, game.id)}
                              for code, (message, rule) in sorted(game.messages.items())]
        return json_response(info)

    @blp.route("/setup", methods=["POST"])
    @blp.arguments(schemas.setup_request())
    @blp.response(200, schemas.setup_answer)
    @described(f"{name}: a new game's first state from a player count, a seed and options.")
    def setup(body):
        return json_response(adjudication.setup(game, body))

    @blp.route("/legal-moves", methods=["POST"])
    @blp.arguments(schemas.state_request())
    @blp.response(200, schemas.moves_answer)
    @described(f"{name}: every move the acting player(s) may make now.")
    def legal_moves(body):
        return json_response(adjudication.legal_moves(game, body))

    @blp.route("/adjudicate", methods=["POST"])
    @blp.arguments(schemas.adjudicate_request())
    @blp.response(200, schemas.verdict)
    @described((f"{name}: judge one move. A rule violation is a normal answer (legal: false, "
                          "violations with code, message and rulebook section)."))
    def adjudicate(body):
        return json_response(adjudication.adjudicate(game, body, request_language()))

    @blp.route("/score", methods=["POST"])
    @blp.arguments(schemas.state_request())
    @blp.response(200, schemas.score_answer)
    @described(f"{name}: the score sheet and outcome of a state.")
    def score(body):
        return json_response(adjudication.score(game, body))

    @blp.route("/replay", methods=["POST"])
    @blp.arguments(schemas.replay_request())
    @blp.response(200, schemas.replay_answer)
    @described(f"{name}: apply moves in order; stops at the first illegal move and reports it.")
    def replay(body):
        return json_response(adjudication.replay(game, body, request_language()))

    return blp


def blueprints() -> list[Blueprint]:
    """The catalogue blueprint and one blueprint per registered game."""
    return [catalogue_blueprint()] + [game_blueprint(game) for game in GAMES.values()]
