"""/table's "What happened" once the game reveals what it hid: a Call of Katulhu seat in the
browser, the other seat posting over HTTP. Rulebook, Gameplay: toys are placed face down and
turned up together when the round is resolved, so the other seat's placement is hidden in the
log until the second placement of its round reveals it (docs/guides/matches.md, "Reading the
log"); the page then shows the toys placed, and reads the log again only while it holds a
hidden entry.
"""

from __future__ import annotations

from tests.browser.test_table_page import TIMEOUT_MS, Watch, http_json, join, reached

SEED = "table-reveals"

# Counts the page's reads of a match's log, in the page itself: a read is counted when the
# page asks for it, before the page renders the entry that made it ask.
COUNT_LOG_READS = """(() => {
  const send = window.fetch.bind(window);
  window.logReads = 0;
  window.fetch = (resource, options) => {
    if (new URL(String(resource), location.href).pathname.endsWith('/log')) window.logReads += 1;
    return send(resource, options);
  };
})();"""

# The text of the log entry of ``version`` once it is ``text`` (null until then).
ENTRY_IS = """([version, text]) => {
  const entry = document.querySelector(`#log li[data-version="${version}"] .entry`);
  return entry && entry.textContent === text ? entry.closest('li').dataset.source : null;
}"""


def entry_text(page, version: int) -> str:
    return page.text_content(f"#log li[data-version='{version}'] .entry")


def test_the_other_seats_placement_shows_in_what_happened_once_the_round_reveals_it(service_url, browser):
    created = http_json(f"{service_url}/v1/matches", {"game": "call-of-katulhu", "players": 2, "seed": SEED})
    match_id, secrets = created["id"], [seat["secret"] for seat in created["seats"]]
    seat0 = {"Authorization": f"Bearer {secrets[0]}"}
    seat1 = {"Authorization": f"Bearer {secrets[1]}"}
    cards = http_json(f"{service_url}/v1/games/call-of-katulhu")["cards"]
    toy_names = {card: info["name"] for card, info in cards.items() if info["kind"] == "toy"}

    def place_over_http(version: int) -> list[str]:
        """Seat 0 places 4 of its toys (Gameplay: one per slot, each a different toy of its
        hand), the last four of its hand in reverse order: not the placement listed first."""
        hand = http_json(f"{service_url}/v1/matches/{match_id}?seat=0", headers=seat0)["state"]["players"][0]["hand"]
        toys = hand[::-1][:4]
        move = {"type": "place", "player": 0, "toys": toys}
        answer = http_json(f"{service_url}/v1/matches/{match_id}/moves", {"move": move},
                           {**seat0, "If-Match": f'"{version}"'})
        assert answer["legal"] is True and answer["version"] == version + 1
        return toys

    def place_in_browser(page, version: int) -> list[str]:
        """Seat 1 fills its four slots with the toys of the last placement the referee lists for
        it (the page preselects the first), and places them."""
        toys = http_json(f"{service_url}/v1/matches/{match_id}/legal-moves?seat=1", headers=seat1)["moves"][-1]["toys"]
        for slot, toy in enumerate(toys):
            page.select_option(f"#slot-{slot}", toy)
        page.click("#place")
        reached(page, version + 1, verdict=True)
        return toys

    def placed(toys: list[str]) -> str:
        return "Place " + " · ".join(toy_names[toy] for toy in toys)

    context = browser.new_context(viewport={"width": 1024, "height": 800}, locale="en-GB")
    context.add_init_script(COUNT_LOG_READS)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    watch = Watch(page, service_url)
    try:
        page.goto(f"{service_url}/table")
        page.wait_for_selector("#create-game option[value='call-of-katulhu']", state="attached")
        join(page, match_id, secrets[1], seat=1)
        reached(page, 0)
        page.wait_for_selector("#connection[data-state='live']")
        assert page.evaluate("window.logReads") == 1   # joining reads the log once

        # Round 1: seat 0 places first; its toys are face down for seat 1.
        first = place_over_http(0)
        reached(page, 1)
        hidden = http_json(f"{service_url}/v1/matches/{match_id}/log?seat=1", headers=seat1)["entries"][0]
        assert hidden["redacted"] is True and hidden["move"]["toys"] is None
        assert entry_text(page, 1) == "Seat 1: Place 4 toys face down"
        assert page.evaluate("window.logReads") == 1   # nothing earlier was hidden: no read

        # Seat 1's placement resolves the round and reveals both; the page shows seat 0's toys.
        mine = place_in_browser(page, 1)
        assert page.wait_for_function(ENTRY_IS, arg=[1, f"Seat 1: {placed(first)}"]).json_value() == "log"
        assert entry_text(page, 2) == f"Seat 2: {placed(mine)}"
        shown = http_json(f"{service_url}/v1/matches/{match_id}/log?seat=1", headers=seat1)["entries"][0]
        assert shown["redacted"] is False and shown["move"]["toys"] == first
        assert page.evaluate("window.logReads") == 2

        # Round 2: seat 1 places first, so seat 0's placement comes revealed by its own entry:
        # with nothing hidden in the list, the page reads no log.
        mine = place_in_browser(page, 2)
        theirs = place_over_http(3)
        assert page.wait_for_function(ENTRY_IS, arg=[4, f"Seat 1: {placed(theirs)}"]).json_value() == "stream"
        assert entry_text(page, 3) == f"Seat 2: {placed(mine)}"
        assert entry_text(page, 1) == f"Seat 1: {placed(first)}"
        assert page.evaluate("window.logReads") == 2

        assert not [url for url in watch.urls if any(secret in url for secret in secrets)]
        assert watch.errors == []
    finally:
        context.close()
