"""The contract: openapi.yaml is generated from the code, valid, and the service conforms to it.

Schemathesis runs over every operation of the committed openapi.yaml against the WSGI app,
with its default checks (no 5xx, status codes, content types and bodies as documented).
"""

from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from markdown_it import MarkdownIt
from openapi_spec_validator import validate

from referee.app import create_app
from tests.support.documents import load_yaml

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "openapi.yaml"

app = create_app({"TESTING": True})
schema = schemathesis.openapi.from_path(
    CONTRACT, config=schemathesis.config.SchemathesisConfig.from_path(ROOT / "schemathesis.toml"))
schema.app = app


def test_committed_contract_matches_the_code():
    """openapi.yaml is what the code generates (regenerate with `referee openapi -o openapi.yaml`)."""
    served = load_yaml(app.test_client().get("/openapi.yaml").get_data(as_text=True))
    committed = load_yaml(CONTRACT.read_text(encoding="utf-8"))
    assert committed == served, "openapi.yaml is stale: run `referee openapi -o openapi.yaml`"


def test_contract_is_valid_openapi_3_1():
    document = load_yaml(CONTRACT.read_text(encoding="utf-8"))
    assert document["openapi"].startswith("3.1")
    validate(document)


def _texts(node, where=""):
    """``(where, key, text)`` of every summary and description of the contract (examples aside)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("summary", "description") and isinstance(value, str):
                yield where, key, value
            elif key not in ("example", "examples"):
                yield from _texts(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _texts(value, f"{where}/{index}")


def test_descriptions_are_commonmark_and_summaries_plain_text():
    """OpenAPI 3.1 reads ``description`` as CommonMark, and Swagger UI renders it so: code in
    single backticks (a reStructuredText double backtick shows as it is), no raw HTML (a
    ``<Game>View`` outside backticks is an unknown tag, dropped). A ``summary`` is shown as plain
    text: one short line without Markdown."""
    markdown = MarkdownIt("commonmark")
    document = load_yaml(CONTRACT.read_text(encoding="utf-8"))
    faults = []
    texts = list(_texts(document))
    for where, key, text in texts:
        tokens = [token for block in markdown.parse(text) for token in [block, *(block.children or [])]]
        if "``" in text or any(token.type.startswith("html") for token in tokens):
            faults.append(f"{where}/{key}: {text}")
        if key == "summary" and ("`" in text or "\n" in text or len(text) > 100):
            faults.append(f"{where}/{key} is not one plain line: {text}")
    assert len(texts) > 300 and faults == []


def test_docs_page_uses_only_local_assets():
    client = app.test_client()
    page = client.get("/docs").get_data(as_text=True)
    assert "/docs/assets/swagger-ui-bundle.js" in page
    assert "//cdn" not in page and "https://" not in page
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
    assert client.get("/docs/assets/swagger-ui.css").status_code == 200
    # Swagger UI 5 reads OpenAPI 3.1 (4.x showed "Unable to render this definition"); the page
    # itself is rendered in a real browser by tests/browser/test_docs_page.py.
    bundle = client.get("/docs/assets/swagger-ui-bundle.js").get_data(as_text=True)
    assert "3.1" in bundle and client.get("/favicon.ico").status_code == 200
    slash = client.get("/docs/")
    assert slash.status_code == 308 and slash.headers["Location"].endswith("/docs")


@schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms(case):
    """Schemathesis over every operation: no 5xx, every answer conforms to the contract."""
    case.call_and_validate()
