"""Seats' display names on the table page at its narrowest: a name is 1 to 32 characters of
any script (docs/matches.md), so the longest names with no place to break a line (32 wide
Latin letters) must wrap, not widen the page, wherever the page shows them: the
invitations, the heading, the turn line, the players' table, the log."""

from __future__ import annotations

from tests.browser.players import NARROW, TIMEOUT_MS

# The widest names a match accepts: 32 letters with no break opportunity between them.
NAMES = ["W" * 32, "M" * 32]

FITS = "document.documentElement.scrollWidth <= window.innerWidth"


def test_the_longest_names_fit_a_phone_of_360_px(service_url, browser):
    context = browser.new_context(viewport=NARROW, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{service_url}/table")
        page.wait_for_selector("#create-game option[value='scratch-and-catch']", state="attached")
        page.select_option("#create-game", "scratch-and-catch")
        page.select_option("#create-players", "2")
        for seat, name in enumerate(NAMES):
            page.fill(f"#create-name-{seat}", name)
        page.click("#create-form button[type=submit]")
        page.wait_for_selector("#created-seats li[data-seat='spectator'] img.qr")
        assert page.text_content("#created-seats li[data-seat='0'] .who") == NAMES[0]
        assert page.evaluate(FITS), "invitations"
        # Seat 2 sits at this phone: its heading, the turn line (seat 1 plays first) and the
        # players' table name them.
        page.click("#created-seats li[data-seat='1'] button.sit")
        page.wait_for_selector("#match:not([hidden])")
        page.wait_for_function("(name) => document.getElementById('turn').textContent.includes(name)", arg=NAMES[0])
        assert page.text_content("#match-heading").endswith(NAMES[1])
        assert NAMES[0] in page.text_content("#table-view")
        assert page.evaluate(FITS), "match"
    finally:
        context.close()
