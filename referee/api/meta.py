"""Service endpoints: liveness, readiness, the contract in YAML, and the docs page's assets."""

from __future__ import annotations

from flask import Blueprint as FlaskBlueprint, current_app, send_from_directory
from swagger_ui_bundle import swagger_ui_path

from referee.api.games import json_response
from referee.api.problems import PROBLEM_TYPES, problem_response
from referee.api.parsing import Blueprint
from referee.api.schemas import Health

health_blp = Blueprint("health", __name__, description="Liveness and readiness")


@health_blp.route("/healthz")
@health_blp.response(200, Health)
def healthz():
    """Liveness: the process answers. Never touches the match store."""
    return json_response({"status": "ok"})


@health_blp.route("/readyz")
@health_blp.response(200, Health)
@health_blp.alt_response(503, schema=Health, description="The match store does not answer")
def readyz():
    """Readiness: reports the match store (kind and whether it answers); 503 when it does not."""
    store = current_app.extensions.get("referee.store")
    if store is None:
        return json_response({"status": "ready", "store": {"kind": "none", "ok": True}})
    report = store.health()
    return json_response({"status": "ready" if report["ok"] else "unavailable", "store": report},
                         200 if report["ok"] else 503)


def contract_blueprint(yaml_text) -> FlaskBlueprint:
    """``GET /openapi.yaml`` and ``GET /docs/assets/<file>`` (Swagger UI, served locally)."""
    blp = FlaskBlueprint("contract", __name__)

    @blp.get("/openapi.yaml")
    def openapi_yaml():
        return current_app.response_class(yaml_text(), content_type="application/yaml")

    @blp.get("/problems/<slug>")
    def problem_type_page(slug):
        meaning = PROBLEM_TYPES.get(slug)
        if meaning is None:
            return problem_response(404, f"No problem type {slug!r}.")
        return json_response({"type": f"/problems/{slug}", "description": meaning})

    @blp.get("/docs/assets/<path:filename>")
    def docs_assets(filename):
        return send_from_directory(str(swagger_ui_path), filename)

    return blp
