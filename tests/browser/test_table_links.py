"""/table's join links: a fragment that does not hold a match id (URL-safe base64) and a whole
seat number joins nothing. A crafted link cannot make the page send its secret to another path
of the server (``join=..``) or sit at a seat it never named (an empty ``seat`` read as 0)."""

from __future__ import annotations

import pytest

from tests.browser.test_table_page import TIMEOUT_MS


@pytest.mark.parametrize("fragment", [
    "join=..&seat=0&secret=s3cret",
    "join=..%2F..%2Fhealthz&seat=0&secret=s3cret",
    "join=AAAAAAAAAAAAAAAAAAAAAA&seat=&secret=s3cret",
    "join=AAAAAAAAAAAAAAAAAAAAAA&seat=1e0&secret=s3cret",
    "watch=..",
])
def test_a_link_without_a_match_id_and_a_seat_number_joins_nothing(service_url, browser, fragment):
    context = browser.new_context(viewport={"width": 390, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url))
    try:
        page.goto(f"{service_url}/table#{fragment}")
        page.wait_for_selector("#create-game option[value='scratch-and-catch']", state="attached")
        page.wait_for_timeout(300)
        assert page.evaluate("window.location.hash") == ""
        assert [url for url in sent if "/v1/matches" in url] == []
        assert page.is_visible("#join-form") or page.is_visible("#join-typed")
    finally:
        context.close()
