"""create_app(): wiring only. Layers: docs/architecture.md."""

from __future__ import annotations

import http
import os
from typing import Any, Mapping

import yaml
from flask import Flask, Request, g, request
from flask.sessions import NullSession, SessionInterface
from flask_smorest import Api
from flask_smorest.utils import prepare_response

from referee import settings
from referee.api.body.transport import (
    DEFAULT_MAX_BODY_BYTES,
    answer_before_body,
    body_timeout_from_env,
    bound_answer,
    forget_body,
    read_body,
    unsupported_media,
)
from referee.api.contract import header_docs
from referee.api.http import problems
from referee.api.http.cors import enable_cors
from referee.api.http.headers import ANSWER_HEADERS_KEY, RequestHeaders
from referee.api.http.request_head import refuse_head
from referee.api.http.request_ids import take_request_id
from referee.api.ops import metrics
from referee.api.routes.games import blueprints
from referee.api.routes.matches import register_matches
from referee.api.routes.meta import contract_blueprint, health_blp
from referee.api.routes.records import blp as records_blp
from referee.api.routes.table_page import table_blueprint
from referee.games import GAMES
from referee.schemas.bodies import Problem, one_of_schemas
from referee.schemas.compiled import dict_key_names
from referee.service.state_signing import KEYS_VARIABLE, REQUIRED_VARIABLE, StateKeys
from referee.service.texts import Text, echo
from referee.store.deadline import close_budget, open_budget

API_DESCRIPTION = """Referee judges moves of three cat card games: CATATAC, Call of Katulhu and
Scratch & Catch. Send a state and a move; the answer says whether the move is legal (and if
not, why, citing the rulebook), the next state, what happened, and the scores. Errors are
RFC 9457 problem details (application/problem+json) with JSON pointers to the bad fields.
Request bodies are limited to REFEREE_MAX_BODY_BYTES (default 1 MiB)."""


class RefereeFlask(Flask):
    """Flask for views that are all plain functions.

    Flask's ``ensure_sync``, which its documentation names for overriding, asks
    ``inspect.iscoroutinefunction`` of every hook and view on every request (about a dozen
    times); Referee has no ``async def`` view or hook, so each function is returned as it is
    (tests/api/test_sync_views.py checks that none is a coroutine function)."""

    def ensure_sync(self, func):
        return func


class NoSessions(SessionInterface):
    """Referee keeps no cookie session: every request gets the one shared, empty, read-only
    null session (Flask's default builds a new one per request, after asking for a signing
    key the service does not have)."""

    _session = NullSession()

    def open_session(self, app: Flask, request: Request) -> NullSession:
        return self._session

    def save_session(self, app: Flask, session, response) -> None:  # never called: a null session
        pass


class RefereeApi(Api):
    """flask-smorest's Api with problem+json errors."""

    ERROR_SCHEMA = Problem

    def _register_responses(self):
        """Like flask-smorest's, but error responses are application/problem+json.

        The one override of a library's private method: flask-smorest has no public way to set
        the media type of its error response components, and without it the contract would
        promise application/json for every error the service answers as a problem."""
        for status in http.HTTPStatus:
            response = {"description": status.phrase, "headers": header_docs.named("X-Request-ID")}
            content_type = self.DEFAULT_RESPONSE_CONTENT_TYPE
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
                response["headers"] = header_docs.named("X-Request-ID", *header_docs.PROBLEM_HEADERS)
                content_type = problems.PROBLEM_CONTENT_TYPE
            prepare_response(response, self.spec, content_type)
            self.spec.components.response(status.name, response, lazy=True)
        default = {"description": "Any other problem: a failure of the service is a bug",
                   "schema": self.ERROR_SCHEMA,
                   "headers": header_docs.named("X-Request-ID", *header_docs.PROBLEM_HEADERS),
                   "examples": {"InternalError": "InternalError"}}
        prepare_response(default, self.spec, problems.PROBLEM_CONTENT_TYPE)
        self.spec.components.response("DEFAULT_ERROR", default, lazy=True)

    def handle_http_exception(self, error):
        if error.code == 404 and request.path.startswith("/v1/games/"):
            game_id = request.path.split("/")[3]
            if game_id not in GAMES:
                return problems.problem_response(404, Text(
                    'No game "{game}" here: the games are {games}. Use one of these ids (GET /v1/games lists them).',
                    game=echo(game_id), games=", ".join(sorted(GAMES))))
        return problems.from_http_exception(error)


def _state_keys(config: Mapping[str, Any]) -> StateKeys:
    """The keys of signed states from the environment, each variable overridden by the config's
    value of the same name (tests)."""
    environ = {**os.environ, **{name: str(config[name]) for name in (KEYS_VARIABLE, REQUIRED_VARIABLE)
                                if config.get(name) is not None}}
    return StateKeys.from_environ(environ)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The WSGI application. ``config`` overrides Flask settings (tests)."""
    app = RefereeFlask(__name__)
    app.session_interface = NoSessions()
    app.json.sort_keys = True
    app.config.update(
        API_TITLE="Referee",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION}},
        MAX_CONTENT_LENGTH=settings.number("REFEREE_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES, integer=True,
                                           positive=True),
    )
    app.config.update(config or {})
    # Read now, not at the first request with a body: a bad value stops the start.
    app.config["REFEREE_BODY_TIMEOUT_SECONDS"] = settings.configured(app.config, "REFEREE_BODY_TIMEOUT_SECONDS",
                                                                     body_timeout_from_env)
    # Each request's own bookkeeping, one hook before and one after. Order matters: every
    # answer, even one a later hook gives, has a request id and is counted. The hooks hand on
    # the objects behind Flask's proxies (_get_current_object, as Flask's "Notes On Proxies"
    # advise): each attribute read through a proxy costs a look-up of the context, about a
    # tenth of a request's time in the body of these hooks (docs/performance.md).
    def open_request():
        req, request_globals = request._get_current_object(), g._get_current_object()
        take_request_id(req.environ, request_globals)
        open_budget()  # one store deadline per request (referee/store/deadline.py)
        metrics.start_timer(request_globals)
        # the head the server leaves to the application (Host, method, OPTIONS *)
        refused = refuse_head(req.environ)
        if refused is not None:
            return answer_before_body(req.environ, refused)
        # the whole body, within its deadline and the limit; then its media type
        return read_body(app, req) or unsupported_media(req)

    def close_request(response):
        req, request_globals = request._get_current_object(), g._get_current_object()
        # The answer's X-Request-ID, and its Content-Language and Vary when verdict messages
        # follow Accept-Language: written by the RequestHeaders middleware (api/http/headers.py).
        req.environ[ANSWER_HEADERS_KEY] = (request_globals.get("request_id"), request_globals.get("language"))
        bound_answer(req.environ, response, app.config["REFEREE_BODY_TIMEOUT_SECONDS"])
        return metrics.record(response, req, request_globals)

    def end_request(_error):
        close_budget()
        forget_body()

    app.before_request(open_request)
    app.teardown_request(end_request)
    app.after_request(close_request)
    enable_cors(app)
    api = RefereeApi(app, spec_kwargs={"extra_plugins": [header_docs.AnswerDocs()]})
    api.ma_plugin.converter.add_attribute_function(dict_key_names)
    api.ma_plugin.converter.add_attribute_function(one_of_schemas)
    api.register_blueprint(health_blp)
    api.register_blueprint(metrics.metrics_blp)
    for blueprint in blueprints(_state_keys(app.config)):
        api.register_blueprint(blueprint)
    register_matches(app, api)
    api.register_blueprint(records_blp)

    cached: dict[str, str] = {}

    def yaml_text() -> str:
        if "yaml" not in cached:
            cached["yaml"] = yaml.safe_dump(api.spec.to_dict(), sort_keys=False, allow_unicode=True)
        return cached["yaml"]

    app.register_blueprint(contract_blueprint(yaml_text))
    app.register_blueprint(table_blueprint())
    app.extensions["referee.api"] = api

    problems.register_error_handlers(app)
    app.wsgi_app = RequestHeaders(app.wsgi_app)   # X-Request-ID, Content-Language, Vary
    return app
