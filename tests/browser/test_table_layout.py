"""/table on a phone: the tables of players and scores keep each word of their headings and
cells whole (a heading broken into "Collecte" and "d" reads as nothing), at 360 and 390 pixels
wide; a table wider than the phone scrolls sideways in its own region instead."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser.test_table_page import join, open_table, reached

# For every word of every cell of the two tables: the number of line boxes it is laid out on.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll("#players th, #players td, #score-table th, #score-table td")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("width", [360, 390])
def test_table_headings_and_cells_keep_their_words_whole_on_a_phone(service_url, browser, width):
    body = json.dumps({"game": "scratch-and-catch", "players": 3, "seed": "layout",
                       "names": ["Ana", "Delphine", "健太"]}).encode()
    request = urllib.request.Request(f"{service_url}/v1/matches", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        created = json.load(answer)
    context, page, watch = open_table(browser, service_url, viewport={"width": width, "height": 800})
    try:
        join(page, created["id"], created["seats"][0]["secret"])
        reached(page, 0)
        page.wait_for_selector("#players th")
        page.wait_for_selector("#score-table th")
        headings = page.locator("#players thead th, #score-table thead th").all_text_contents()
        assert "Collected" in headings and "Flea points" in headings
        assert page.evaluate(BROKEN_WORDS) == []
        # the page itself never scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert not watch.errors, watch.errors
    finally:
        context.close()
