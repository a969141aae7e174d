"""/docs in a real browser: Debian's headless Chromium, driven by Playwright for Python.

The service runs in a real HTTP server on a free port; the page must render every operation
of the OpenAPI 3.1 contract from the locally served Swagger UI, with no console error and no
request leaving the service.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from referee.app import create_app
from tests.support.documents import load_yaml

HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


def test_docs_page_renders_every_operation_without_console_errors(service_url, browser):
    contract = load_yaml(create_app({"TESTING": True}).test_client().get("/openapi.yaml").get_data(as_text=True))
    operations = {(method.upper(), path) for path, item in contract["paths"].items()
                  for method in item if method in HTTP_METHODS}
    console_errors: list[str] = []
    page_errors: list[str] = []
    foreign: list[str] = []
    context = browser.new_context()   # (nothing cached from another test's pages)
    try:
        page = context.new_page()
        page.on("console", lambda message: console_errors.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: page_errors.append(str(error)))
        page.on("request", lambda request: foreign.append(request.url)
                if urlsplit(request.url).netloc != urlsplit(service_url).netloc
                and not request.url.startswith("data:") else None)
        page.goto(f"{service_url}/docs", wait_until="networkidle")
        page.wait_for_selector(".opblock-summary", timeout=30_000)
        rendered = page.eval_on_selector_all(
            ".opblock-summary",
            """blocks => blocks.map(b => [
                b.querySelector('.opblock-summary-method').textContent.trim(),
                b.querySelector('.opblock-summary-path').getAttribute('data-path')])""")
        version = page.text_content(".info .version-stamp") or ""
        body = page.text_content("body") or ""
    finally:
        context.close()
    assert {(method, path) for method, path in rendered} == operations
    assert "OAS 3.1" in version
    assert "Unable to render this definition" not in body
    assert console_errors == []
    assert page_errors == []
    assert foreign == []


def test_docs_page_shows_markdown_and_real_problem_examples(service_url, browser):
    """No rendered text holds a double backtick (descriptions are CommonMark, as OpenAPI says;
    the match operations, whose descriptions hold the most code, are opened); a move's 412 shows
    the problem the service answers, not Swagger UI's "string" placeholders; a match is created
    without a seed unless asked."""
    contract = load_yaml(create_app({"TESTING": True}).test_client().get("/openapi.yaml").get_data(as_text=True))
    match_operations = sum(method in HTTP_METHODS for path, item in contract["paths"].items()
                           if path.startswith("/v1/matches") for method in item)
    page = browser.new_page()
    try:
        page.goto(f"{service_url}/docs", wait_until="networkidle")
        page.wait_for_selector(".opblock-summary", timeout=30_000)
        summaries = page.locator(".opblock:has([data-path^='/v1/matches']) .opblock-summary")
        opened = summaries.count()
        for index in range(opened):
            summaries.nth(index).click()
        page.wait_for_function("n => document.querySelectorAll('.opblock.is-open .responses-table').length === n",
                               arg=opened, timeout=60_000)
        text = page.inner_text("body")
        move = page.locator(".opblock-post:has([data-path='/v1/matches/{match_id}/moves'])")
        stale = move.locator("tr.response[data-code='412']").inner_text()
        create = page.locator(".opblock-post:has([data-path='/v1/matches'])")
        create_body = create.locator(".opblock-section-request-body").inner_text()
    finally:
        page.close()
    assert opened == match_operations >= 7   # (create, read, move, legal moves, log, events, record)
    assert "Polling: with If-None-Match" in text   # (a description, rendered: code without its backticks)
    assert "``" not in text
    assert '"type": "/problems/precondition-failed"' in stale
    assert '"status": 412' in stale and '"string"' not in stale
    assert '"players": 2' in create_body and '"seed"' not in create_body
