"""The documents say what the service and CI do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.app import create_app

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
# A sentence of the form: `GET /v1/...` says `field.path: value`
CLAIM = re.compile(r"`GET (/v1/[^`]+)` says `([A-Za-z_.]+): ([^`]+)`")


def _claims():
    for path in DOCS:
        text = " ".join(path.read_text(encoding="utf-8").split())
        for url, field, value in CLAIM.findall(text):
            yield str(path.relative_to(ROOT)), url, field, value


def test_documents_make_such_claims():
    assert {(url, field) for _, url, field, _ in _claims()} >= {
        ("/v1/games/scratch-and-catch", "catalogue.provisional"),
        ("/v1/games/call-of-katulhu", "catalogue.provisional")}


@pytest.mark.parametrize("document,url,field,value", list(_claims()))
def test_what_a_document_says_an_answer_holds_it_holds(document, url, field, value):
    answer = create_app({"TESTING": True}).test_client().get(url).get_json()
    for key in field.split("."):
        assert isinstance(answer, dict) and key in answer, f"{document}: {url} has no {field}"
        answer = answer[key]
    assert answer == __import__("json").loads(value), f"{document}: {url} {field}"


def test_readme_test_command_is_what_ci_runs_and_what_ci_installs_is_said():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = re.search(r"```sh\n(python3 -m venv .venv && .venv/bin/pip install -q -e '\.\[test\]'[^\n]*)\n```",
                        readme).group(1)
    assert command in ci.splitlines()
    assert "chromium-headless-shell" in readme and "apt-get install -y -q chromium-headless-shell" in ci
    # The README says the tests do not use the Redis on the default port (they start their own).
    assert "the tests do not use it" in readme
    port = "63" + "79"  # spelled apart so that this file does not count itself
    assert not [p for p in (ROOT / "tests").rglob("*.py") if port in p.read_text(encoding="utf-8")]


def test_the_errors_reference_lists_every_problem_type_as_the_service_describes_it():
    from referee.api.http.problems import PROBLEM_TYPES

    text = (ROOT / "docs" / "reference" / "errors.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `/problems/([a-z-]+)` \| (.*) \|$", text, flags=re.M))
    assert rows == {slug: meaning.replace("|", "/") for slug, meaning in PROBLEM_TYPES.items()}
