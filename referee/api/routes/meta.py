"""Service endpoints: liveness, readiness, the contract in YAML, and the docs page's assets."""

from __future__ import annotations

from pathlib import Path

import flask_swagger_ui
from flask import Blueprint as FlaskBlueprint
from flask import current_app, redirect

from referee.api.body.parsing import Blueprint
from referee.api.contract import examples
from referee.api.http.problems import PROBLEM_TYPES, problem_response
from referee.api.http.static_files import send_static
from referee.api.routes.games import json_response
from referee.schemas.bodies import Health
from referee.service.texts import Text, echo

# Swagger UI 5 (reads OpenAPI 3.1), as flask-swagger-ui ships its distribution files.
SWAGGER_UI_DIR = Path(flask_swagger_ui.__file__).resolve().parent / "dist"

health_blp = Blueprint("health", __name__, description="Liveness and readiness")


@health_blp.route("/healthz")
@health_blp.response(200, Health, examples=examples.health())
def healthz():
    """Liveness: the process answers. Never touches the match store."""
    return json_response({"status": "ok"})


@health_blp.route("/readyz")
@health_blp.response(200, Health, examples=examples.readiness())
@health_blp.alt_response(503, schema=Health, description="The match store does not answer")
def readyz():
    """Readiness: reports the match store (kind and whether it answers); 503 when it does not."""
    store = current_app.extensions.get("referee.store")
    if store is None:
        return json_response({"status": "ready", "store": {"kind": "none", "ok": True}})
    report = store.health()
    detail = report.pop("detail", None)   # (the store's own words, which may name its address)
    if detail is not None:
        current_app.logger.warning("match store not ready: %s", detail)
    return json_response({"status": "ready" if report["ok"] else "unavailable", "store": report},
                         200 if report["ok"] else 503)


def contract_blueprint(yaml_text) -> FlaskBlueprint:
    """``GET /openapi.yaml``, ``GET /docs/assets/<file>`` (Swagger UI 5, served locally) and the
    page's icon."""
    blp = FlaskBlueprint("contract", __name__)

    @blp.get("/openapi.yaml")
    def openapi_yaml():
        return current_app.response_class(yaml_text(), content_type="application/yaml")

    @blp.get("/problems/<slug>")
    def problem_type_page(slug):
        meaning = PROBLEM_TYPES.get(slug)
        if meaning is None:
            return problem_response(404, Text('No problem type "{slug}": ask for the type a problem answer names, '
                                              'such as /problems/not-found.', slug=echo(slug)))
        return json_response({"type": f"/problems/{slug}", "description": meaning})

    @blp.get("/docs/")
    def docs_with_slash():
        # The page lives at /docs; a typed or linked /docs/ finds it too.
        return redirect("/docs", 308)

    @blp.get("/docs/assets/<path:filename>")
    def docs_assets(filename):
        return send_static(SWAGGER_UI_DIR, filename)

    @blp.get("/favicon.ico")
    def favicon():
        # Browsers ask for it on every page; without it /docs logs a 404 in the console.
        return send_static(SWAGGER_UI_DIR, "favicon-32x32.png", mimetype="image/png")

    return blp
