"""/table in a real browser: two pages, the two seats of a seeded Scratch & Catch match, play it
to the end by clicking the moves each page lists, each page seeing the other's moves live
through the event stream; an illegal move shows its reason and rulebook section; one turn is
played in Japanese.

The service runs in a real HTTP server on a free port (conftest.py); the pages never poll:
after joining, a page learns of a move only from its event stream.
"""

from __future__ import annotations

import json
import urllib.request
from urllib.parse import urlsplit

from tests.browser.players import check_screen

PHONE = {"width": 390, "height": 844}
SEED = "table-page"
TIMEOUT_MS = 10_000

# Scratch & Catch rulebook, End of the Game: points for the Fleas a player holds.
FLEA_POINTS = ((0, 0, 15), (1, 5, 12), (6, 10, 6), (11, 15, 0), (16, 20, -4), (21, 25, -8))


def flea_points(fleas: int) -> int:
    for low, high, points in FLEA_POINTS:
        if low <= fleas <= high:
            return points
    return -12   # 26 and more


class Watch:
    """What a page did wrong: uncaught errors, console errors, requests leaving the service,
    and every URL it asked for (secrets must never be in one)."""

    def __init__(self, page, service_url: str):
        self.errors: list[str] = []
        self.urls: list[str] = []
        host = urlsplit(service_url).netloc
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on("console", lambda message: self.errors.append(f"console: {message.text}")
                if message.type == "error" else None)

        def request(req):
            self.urls.append(req.url)
            if urlsplit(req.url).netloc != host and not req.url.startswith("data:"):
                self.errors.append(f"foreign request: {req.url}")

        page.on("request", request)


def open_table(browser, service_url: str, viewport=None):
    context = browser.new_context(viewport=viewport or {"width": 1024, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    watch = Watch(page, service_url)
    page.goto(f"{service_url}/table")
    page.wait_for_selector("#create-game option[value='scratch-and-catch']", state="attached")
    return context, page, watch


# Waits in the page until it shows ``version`` everywhere (the match, its legal moves, the log
# entry of that version) and, with ``verdict``, the verdict of the move that made it; then
# answers what the page shows. One round trip per wait keeps the test fast.
REACHED = """([version, verdict]) => {
  const match = document.getElementById('match'), moves = document.getElementById('moves');
  const entry = document.querySelector(`#log li[data-version="${version}"]`);
  const box = document.getElementById('verdict');
  if (match.dataset.version !== String(version) || moves.dataset.version !== String(version)) return null;
  if (version > 0 && !entry) return null;
  if (verdict && (box.dataset.version !== String(version) || box.dataset.legal !== 'true')) return null;
  return {moves: moves.querySelectorAll('button.move').length, source: entry ? entry.dataset.source : null,
          finished: !document.getElementById('outcome').hidden};
}"""


def join(page, match_id: str, secret: str, seat: int | None = None) -> None:
    """Join a match on the page with its id and a seat's secret (and the seat, when not 0),
    typed in as a player without a QR code does (seats are numbered from 1 on the page)."""
    if page.get_attribute("#join-typed", "open") is None:
        page.click("#join-typed summary")
    page.fill("#join-match", match_id)
    if seat is not None:
        page.fill("#join-seat", str(seat + 1))
    page.fill("#join-secret", secret)
    page.click("#join-form button[type=submit]")


def reached(page, version: int, verdict: bool = False) -> dict:
    return page.wait_for_function(REACHED, arg=[version, verdict]).json_value()


def acting(pages, version: int):
    """The page that lists moves at ``version`` (exactly one does in a two-seat game)."""
    movers = [page for page in pages if reached(page, version)["moves"] > 0]
    assert len(movers) == 1, f"{len(movers)} pages list moves at version {version}"
    return movers[0]


def play_listed(pages, version: int, keyboard: bool = False):
    """The acting page plays its first listed move; it shows the verdict (legal), and both
    pages then show the next version, the other one through its event stream. Returns the
    acting page and whether the game is over."""
    page = acting(pages, version)
    if keyboard:
        # From the heading, Tab reaches the move buttons; Enter plays the focused one.
        page.focus("#match-heading")
        for _ in range(20):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('move')"):
                break
        else:
            raise AssertionError("Tab never reached a move button")
        page.keyboard.press("Enter")
    else:
        page.locator("#moves button.move").first.click()
    finished = []
    for other in pages:
        shown = reached(other, version + 1, verdict=other is page)
        if other is not page:
            assert shown["source"] == "stream"
        finished.append(shown["finished"])
    assert finished[0] == finished[1]
    return page, finished[0]


def post_custom(page, move: dict) -> None:
    if page.get_attribute("#advanced", "open") is None:
        page.click("#advanced summary")
    page.fill("#custom-text", json.dumps(move))
    page.click("#custom-send")
    page.wait_for_selector("#verdict[data-legal='false']")


def printed(card: str) -> str:
    """A Scratch & Catch card id as the card is printed: C7-4 is "Cat 7", S3-1 "Scratch 3"."""
    kind, number = card[0], card[1:].split("-")[0]
    return f"{'Cat' if kind == 'C' else 'Scratch'} {number}"


def server_match(service_url: str, match_id: str) -> dict:
    with urllib.request.urlopen(f"{service_url}/v1/matches/{match_id}", timeout=5) as answer:
        return json.load(answer)


def test_two_pages_play_a_seeded_scratch_and_catch_match_to_the_end(service_url, browser):
    context_a, a, watch_a = open_table(browser, service_url, PHONE)
    context_b, b, watch_b = open_table(browser, service_url)
    try:
        # Seat 0 creates the match on a phone.
        a.select_option("#create-game", "scratch-and-catch")
        a.select_option("#create-players", "2")
        # Secret hands need real cards: the choice is offered only at a table.
        a.check("#option-chance-table")
        a.check("#option-hands-unseen")
        a.check("#option-chance-seeded")
        assert a.is_disabled("#option-hands-unseen") and a.is_checked("#option-hands-seen")
        a.click("#create-advanced summary")
        a.fill("#create-seed", SEED)
        a.click("#create-form button[type=submit]")
        a.wait_for_selector("#created-seats li[data-seat='1']")
        match_id = a.text_content("#created-id")
        secrets = [a.text_content(f"#created-secrets li:nth-child({seat + 1}) code") for seat in (0, 1)]
        a.click("button.sit[data-seat='0']")

        # Seat 1 joins on another device with the match id and its secret.
        join(b, match_id, secrets[1], seat=1)
        for page in (a, b):
            page.wait_for_selector("#connection[data-state='live']")
        pages = (a, b)
        assert acting(pages, 0) is a   # Game Progress: seat 0 plays first

        # Readable on a phone: nothing wider than the screen, move buttons large enough to touch.
        assert a.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        heights = [box["height"] for box in (button.bounding_box() for button in a.locator("#moves button.move").all())]
        assert heights and min(heights) >= 44

        # A move out of turn (Game Progress: players take turns) is refused with its reason.
        post_custom(b, {"type": "play", "player": 1, "source": "pile"})
        violation = b.locator("#verdict li[data-code='NOT_YOUR_TURN']")
        assert violation.locator(".message").text_content() == "It is Seat 1's turn, not Seat 2's."
        assert violation.locator(".rule-name").text_content() == "Rulebook, Game Progress"
        assert b.get_attribute("#match", "data-version") == "0"
        assert a.locator("#log li[data-version]").count() == 0

        # Seat 0's turn (2 cards, Game Progress), the first card played from the keyboard.
        version = 0
        assert play_listed(pages, version, keyboard=True)[0] is a
        version += 1
        assert play_listed(pages, version)[0] is a
        version += 1

        # One turn in Japanese: labels, an illegal move's reason and section, the moves seen live.
        for page in pages:
            page.click("button[data-lang='ja']")
            assert page.get_attribute("html", "lang") == "ja"
        assert b.text_content("#moves-heading") == "あなたが選べる手"
        assert b.text_content("#hand-heading") == "あなたの手札"
        assert acting(pages, version) is b
        post_custom(a, {"type": "play", "player": 0, "source": "pile"})
        violation = a.locator("#verdict li[data-code='NOT_YOUR_TURN']")
        assert violation.locator(".message").text_content() == "今は席2の手番です。席1の手番ではありません。"
        assert violation.locator(".rule-name").text_content() == "ルールブック「ゲームの進行」"
        for _ in range(2):
            mover, _ = play_listed(pages, version)
            assert mover is b
            assert mover.text_content("#verdict h2") == "完了"
            version += 1
        assert a.text_content(f"#log li[data-version='{version}'] .entry").startswith("席2：")
        for page in pages:
            page.click("button[data-lang='en']")
            assert page.text_content("#moves-heading") == "Your moves"

        # Play on to the end.
        finished = False
        while not finished:
            assert version < 400, "the game does not end"
            finished = play_listed(pages, version)[1]
            version += 1

        final = server_match(service_url, match_id)
        assert final["outcome"]["finished"] and final["version"] == version
        for page in pages:
            page.wait_for_selector("#outcome:not([hidden])")
            page.wait_for_selector("#connection[data-state='ended']")
            assert page.locator("#moves button.move").count() == 0
            assert page.locator("dl.facts dt", has_text="Last turns").count() == 0   # the game is over
            # Every move reached both pages live, in order, with no gap.
            shown = sorted(int(v) for v in page.eval_on_selector_all("#log li[data-version]",
                                                                    "items => items.map(i => i.dataset.version)"))
            assert shown == list(range(1, version + 1))
            assert page.locator("#log li[data-source='log']").count() == 0

            # The score sheet shown adds up by the rulebook (End of the Game), and names the winner.
            rows = page.eval_on_selector_all("#score-table tbody tr", """rows => rows.map(row => Object.fromEntries(
                [...row.querySelectorAll('td')].map(td => [td.dataset.key, Number(td.textContent)])))""")
            assert len(rows) == 2
            for row in rows:
                assert row["flea_points"] == flea_points(row["fleas"])
                assert row["total"] == row["cards"] + row["flea_points"]
            best = max((row["total"], -row["fleas"]) for row in rows)
            winners = [seat for seat, row in enumerate(rows) if (row["total"], -row["fleas"]) == best]
            assert page.get_attribute("#winners", "data-winners") == ",".join(map(str, winners))
            assert winners == final["outcome"]["winners"]

        # Secrets never appear in a URL.
        for watch in (watch_a, watch_b):
            assert not [url for url in watch.urls if any(secret in url for secret in secrets)]
            assert watch.errors == []
    finally:
        context_a.close()
        context_b.close()


def http_json(url: str, body: dict | None = None, headers: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def test_a_dropped_event_stream_resumes_after_the_last_event_it_saw(service_url, browser):
    created = http_json(f"{service_url}/v1/matches", {"game": "scratch-and-catch", "players": 2, "seed": SEED})
    match_id, secrets = created["id"], [seat["secret"] for seat in created["seats"]]
    seat0 = {"Authorization": f"Bearer {secrets[0]}"}
    first = http_json(f"{service_url}/v1/matches/{match_id}/legal-moves?seat=0", headers=seat0)["moves"][0]
    streams: list[dict] = []

    def drop_first_stream(route):
        streams.append(route.request.headers)
        if len(streams) > 1:
            route.continue_()
            return
        # While the page is not listening, seat 0 moves elsewhere; then the stream drops.
        http_json(f"{service_url}/v1/matches/{match_id}/moves", {"move": first}, {**seat0, "If-Match": '"0"'})
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body="retry: 100\n\n")

    context, page, watch = open_table(browser, service_url)
    try:
        page.route("**/events*", drop_first_stream)
        join(page, match_id, secrets[1], seat=1)
        page.wait_for_selector("#log li[data-version='1'][data-source='stream']")
        page.wait_for_selector("#connection[data-state='live']")
        assert reached(page, 1)["moves"] == 0   # seat 0 still has its second card to play
        assert len(streams) == 2
        assert [headers.get("last-event-id") for headers in streams] == ["0", "0"]
        assert all(headers.get("authorization") == f"Bearer {secrets[1]}" for headers in streams)
        assert watch.errors == []
    finally:
        context.close()


def test_at_a_table_game_the_page_asks_for_the_card_taken_from_the_draw_pile(service_url, browser):
    # Game Progress: a card may be played from the draw pile; at a table game the table names it.
    deal = {"hands": [["S1-1", "C2-1", "C3-1", "C4-1"], ["C5-1", "C6-1", "C7-1", "C8-1"]],
            "line": ["C1-1", "C9-1", "C10-1", "C1-2"]}
    created = http_json(f"{service_url}/v1/matches", {"game": "scratch-and-catch", "players": 2, "seed": SEED,
                                                     "options": {"chance": "table", "deal": deal}})
    match_id, secret = created["id"], created["seats"][0]["secret"]
    view = http_json(f"{service_url}/v1/matches/{match_id}?seat=0", headers={"Authorization": f"Bearer {secret}"})
    hand = view["state"]["players"][0]["hand"]
    seen = set(hand) | {card for pile in view["state"]["line"] for card in pile["cards"]}
    catalogue = http_json(f"{service_url}/v1/games/scratch-and-catch")["catalogue"]["cards"]
    unseen = next(card["id"] for card in catalogue if card["id"] not in seen)

    context, page, watch = open_table(browser, service_url, PHONE)
    try:
        join(page, match_id, secret)
        reached(page, 0)
        pile_move = page.locator("#moves button.move", has_text="draw pile")

        def play_from_pile(card: str) -> None:
            pile_move.click()
            page.select_option("#picker select[data-field='card']", card)
            page.click("#picker button.primary")

        play_from_pile("")
        page.wait_for_selector("#verdict li[data-code='CARD_REQUIRED']")
        # The deck's one Scratch 1 is in the player's own hand, so no copy of it can be in the
        # draw pile; the refusal names the card as printed (Scratch 1), not by its id.
        assert hand[0] == "S1-1"
        post_custom(page, {"type": "play", "player": 0, "source": "pile", "card": hand[0]})
        message = page.text_content("#verdict li[data-code='CARD_NOT_IN_PILE'] .message")
        assert message == f"Card {printed(hand[0])} cannot be in the draw pile."   # "Scratch 1", not "Scratch 1-1"
        assert page.get_attribute("#match", "data-version") == "0"
        # The choices are one per printed name, each a card not yet seen face up.
        assert page.locator("#picker").count() == 0
        pile_move.click()
        labels = page.locator("#picker select option").all_inner_texts()
        assert len(labels) == len(set(labels)) and printed(unseen) in labels
        check_screen(page, [], "which card was taken from the draw pile")
        page.click("#picker button:not(.primary)")
        play_from_pile(unseen)
        reached(page, 1, verdict=True)
        line = server_match(service_url, match_id)["state"]["line"]
        assert any(unseen in pile["cards"] for pile in line)
        assert watch.errors == []
    finally:
        context.close()


def test_with_unseen_hands_a_listed_kind_is_played_at_once_and_nothing_unused_is_asked(service_url, browser):
    # docs/guides/table.md, "Unseen hands": legal-moves lists one move per kind still unseen and names
    # in table_fills what the table fills in; the listed kind is already that, and a null pair,
    # block or order means "not used", so the page neither asks for them nor shows table_fills.
    created = http_json(f"{service_url}/v1/matches", {
        "game": "catatac", "players": 2,
        "options": {"chance": "table", "hands": "unseen", "deal": {"discard": "P4", "coin": "white"}}})
    match_id, secret = created["id"], created["seats"][0]["secret"]

    context, page, watch = open_table(browser, service_url, PHONE)
    try:
        join(page, match_id, secret)
        reached(page, 0)
        texts = page.locator("#moves button.move").all_inner_texts()
        assert texts and not [text for text in texts if "?" in text or "table fills" in text], texts
        listed = page.eval_on_selector_all("#moves button.move",
                                           "buttons => buttons.map(b => JSON.parse(b.dataset.move))")
        # Making a Pair: a 4 on the discarded 4; White holds the ball on the neutral alley and
        # moves it to the adjacent Black alley (Movement).
        index = next(i for i, move in enumerate(listed)
                     if move["card"] == "P4" and move["pair"] == {"action": "movement", "direction": "black"}
                     and move["block"] is None)
        page.locator(f"#moves button.move[data-index='{index}']").click()
        reached(page, 1, verdict=True)
        assert page.locator("#picker").count() == 0
        state = server_match(service_url, match_id)["state"]
        assert state["discard"] == ["P4", "P4"]
        assert state["ball"] == {"colour": "white", "spot": "black_alley"}
        assert watch.errors == []
    finally:
        context.close()


def test_at_a_catatac_table_a_play_is_sent_at_once_and_the_refill_card_is_asked(service_url, browser):
    # CATATAC at a table: a listed play names its card, pair, block and order (null: not used),
    # so it is sent as it is; the refill then asks which card was drawn (3. Refilling Your Hand).
    created = http_json(f"{service_url}/v1/matches", {"game": "catatac", "players": 2, "seed": SEED,
                                                     "options": {"chance": "table"}})
    match_id, secret = created["id"], created["seats"][0]["secret"]

    context, page, watch = open_table(browser, service_url, PHONE)
    try:
        join(page, match_id, secret)
        reached(page, 0)
        texts = page.locator("#moves button.move").all_inner_texts()
        assert texts and not [text for text in texts if "?" in text], texts
        listed = page.eval_on_selector_all("#moves button.move",
                                           "buttons => buttons.map(b => JSON.parse(b.dataset.move))")
        index = next(i for i, move in enumerate(listed) if move["pair"] is None and move["block"] is None)
        page.locator(f"#moves button.move[data-index='{index}']").click()
        reached(page, 1, verdict=True)
        assert page.locator("#picker").count() == 0
        draw = page.locator("#moves button.move")
        assert draw.count() == 1 and "(waiting for the table)" in draw.inner_text()
        draw.click()
        assert page.locator("#picker [data-field]").evaluate_all(
            "inputs => inputs.map(i => i.dataset.field)") == ["card"]
        # The choices for a drawn card are paw cards as printed, never points cards.
        offered = set(page.locator("#picker select option").all_inner_texts())
        assert {"Paw 1", "Capture 4", "Joker"} <= offered
        assert not [label for label in offered if "points card" in label]
        assert watch.errors == []
    finally:
        context.close()
