"""/table as players use it: one phone (390 px) per seat and a desktop spectator, each joined by
scanning the QR code the creating phone shows, play a whole match of each game to its end.

On every screen: what a player reads (outside "Advanced") holds no identifier, card id, JSON
or HTTP status; nothing scrolls sideways; axe-core finds no serious or critical violation. After
each move its verdict is in the mover's viewport. The seat secrets never appear in a request
line or a Referer, nor stay in the address bar. A screenshot of each step is kept under
test-artifacts/table/.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser.players import DESKTOP, NARROW, PHONE, Device, check_screen, in_viewport, read_qr, words_problems

# Waits until the page shows ``version`` everywhere: the match, its moves, the log entry.
REACHED = """(version) => {
  const match = document.getElementById('match'), moves = document.getElementById('moves');
  const at = String(version);
  if (match.hidden || match.dataset.version !== at || moves.dataset.version !== at) return null;
  if (version > 0 && !document.querySelector(`#log li[data-version="${version}"]`)) return null;
  return {acting: document.querySelectorAll('#moves button.move').length > 0,
          finished: !document.getElementById('outcome').hidden};
}"""


def reached(device: Device, version: int) -> dict:
    return device.page.wait_for_function(REACHED, arg=version).json_value()


def server(service_url: str, path: str) -> dict:
    with urllib.request.urlopen(f"{service_url}{path}", timeout=5) as answer:
        return json.load(answer)


def create_on_phone(creator: Device, game: str, names: list[str], seed: str, axe: list, folder: str) -> dict:
    """The organiser creates the match on a phone and reads every invitation's QR code."""
    page = creator.page
    page.wait_for_selector(f"#create-game option[value='{game}']", state="attached")
    # On a phone the way in for players comes first; creating is the second path.
    join_box, create_box = page.locator("#join-panel").bounding_box(), page.locator("#create-panel").bounding_box()
    assert join_box["y"] < create_box["y"]
    page.select_option("#create-game", game)
    page.select_option("#create-players", str(len(names)))
    for seat, name in enumerate(names):
        page.fill(f"#create-name-{seat}", name)
    page.click("#create-advanced summary")
    page.fill("#create-seed", seed)
    creator.shot(folder, "create")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#created-seats li[data-seat='spectator'] img.qr")
    assert in_viewport(page, "#created-heading")
    page.click("#create-advanced summary")   # closed again: the developers' part
    check_screen(page, axe, f"{game}: invitations")
    creator.shot(folder, "invitations")
    links = {}
    for seat in [*range(len(names)), "spectator"]:
        item = page.locator(f"#created-seats li[data-seat='{seat}']")
        item.scroll_into_view_if_needed()
        text = read_qr(item.locator("img.qr"))
        assert text == item.locator("a.link").get_attribute("href")
        assert text == item.locator("button.copy").get_attribute("data-link")
        links[seat] = text
    return links


def open_link(device: Device, link: str) -> None:
    """Opens a scanned link: the page joins and the fragment leaves the address bar at once."""
    device.page.goto(link)
    device.page.wait_for_selector("#match:not([hidden])")
    assert "#" not in device.page.url and "secret" not in device.page.url
    device.page.wait_for_selector("#connection[data-state='live']")
    assert in_viewport(device.page, "#match-heading")


def katulhu_action(device: Device, seat: int) -> None:
    """Seat 0 aims for the first cat on the table, seat 1 for the last (a placement), or the
    first listed move (a stall discard)."""
    page = device.page
    if page.locator("#place").count():
        cats = page.locator("#cats li").count()
        aim = page.locator(f"button.aim[data-cat='{0 if seat == 0 else cats - 1}']")
        if aim.count():
            aim.click()
        page.click("#place")
    else:
        page.locator("#moves button.move").first.click()


def play_match(devices: list[Device], spectator: Device, game: str, folder: str, choose) -> list[int]:
    """Plays to the end: at each version the lowest seat with moves acts (``choose``); every
    device then shows the next version. Returns the seat of each move."""
    everyone = [*devices, spectator]
    version = 0
    movers: list[int] = []
    while True:
        assert version < 300, "the game does not end"
        shown = [reached(device, version) for device in devices]
        reached(spectator, version)
        if any(s["finished"] for s in shown):
            return movers
        seat = next(i for i, s in enumerate(shown) if s["acting"])
        mover = devices[seat]
        movers.append(seat)
        choose(mover, seat)
        mover.page.wait_for_selector(f"#verdict[data-version='{version + 1}'][data-legal='true']")
        assert in_viewport(mover.page, "#verdict"), f"{game} move {version + 1}: the verdict is out of sight"
        version += 1
        for device in everyone:
            reached(device, version)
        mover.shot(folder, f"move{version:03d}")


@pytest.mark.parametrize("game, seed, names", [
    ("scratch-and-catch", "players-sc", ["Delphine", "Fred"]),
    ("call-of-katulhu", "k0", ["Aiko", "Ben"]),
    ("catatac", "players-cat", ["Nicolas", "Marie"]),
])
def test_a_whole_match_from_phones_joined_by_qr_codes(service_url, browser, game, seed, names):
    folder = game
    axe: list = []
    creator = Device(browser, service_url, "seat1", PHONE)
    others = [Device(browser, service_url, f"seat{seat + 1}", PHONE) for seat in range(1, len(names))]
    spectator = Device(browser, service_url, "screen", DESKTOP)
    devices = [creator, *others]
    try:
        creator.page.goto(f"{service_url}/table")
        check_screen(creator.page, axe, f"{game}: start")
        links = create_on_phone(creator, game, names, seed, axe, folder)
        secrets = [server_secret(link) for link in (links[seat] for seat in range(len(names)))]
        # Names reach the other devices when the referee keeps them (its games name cards);
        # the creating phone knows them in any case.
        kept = "cards" in server(service_url, f"/v1/games/{game}")

        def shown_name(seat: int, device: Device) -> str:
            return names[seat] if kept or device is creator else f"Seat {seat + 1}"

        for seat, device in enumerate(devices):
            open_link(device, links[seat])
            assert device.page.text_content("#match-heading").endswith(shown_name(seat, device))
        open_link(spectator, links["spectator"])
        for device in everyone(devices, spectator):
            # (axe once per kind of screen: a seat's phone, the shared screen)
            if device is creator or device is spectator:
                check_screen(device.page, axe, f"{game}: {device.name} joined")
            else:
                assert words_problems(device.page) == []
            device.shot(folder, "joined")

        if game == "call-of-katulhu":
            choose = katulhu_action
        elif game == "catatac":
            def choose(device, seat):
                device.page.locator("#moves button.move").last.click()
        else:
            def choose(device, seat):
                device.page.locator("#moves button.move").first.click()
        movers = play_match(devices, spectator, game, folder, choose)
        moves = len(movers)

        final = server(service_url, f"/v1/matches/{links['spectator'].split('watch=')[1]}")
        assert final["outcome"]["finished"] and final["version"] == moves
        winners = ", ".join(str(w) for w in final["outcome"]["winners"])
        for device in everyone(devices, spectator):
            page = device.page
            page.wait_for_selector("#outcome:not([hidden])")
            assert page.get_attribute("#winners", "data-winners") == winners
            if final["outcome"]["winners"]:
                assert shown_name(final["outcome"]["winners"][0], device) in page.text_content("#winners")
            assert page.locator("#record-link").count() == 1
            # Every move is told in the log, and the scores fit in their card at 360 px.
            assert page.locator("#log li[data-version]").count() == moves
            if device is creator or device is spectator:
                check_screen(page, axe, f"{game}: {device.name} game over")
            else:
                assert words_problems(page) == []
            device.shot(folder, "over")
        record = creator.page.evaluate("fetch(document.getElementById('record-link').href).then(r => r.json())")
        assert record["complete"] is True and len(record["moves"]) == moves

        narrow = creator.page
        narrow.set_viewport_size(NARROW)
        assert narrow.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        box = narrow.locator("#scores .table-scroll").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"]

        # One request per move: a seat's phone posted each of its moves once; with the legal
        # moves carried by the stream, the move answers and the seat's view, it never asked
        # for them apart.
        live = serves_live_legal(service_url)
        for seat, device in enumerate(devices):
            posts = [line for line in device.sent if line.startswith("POST ") and "/moves" in line]
            assert len(posts) == movers.count(seat)
            if live:
                assert not [line for line in device.sent if "/legal-moves" in line]

        # The spectator's screen in Japanese: still players' words only.
        spectator.page.click("button[data-lang='ja']")
        spectator.page.wait_for_function("document.getElementById('winners').textContent.startsWith('勝者')")
        check_screen(spectator.page, axe, f"{game}: screen in Japanese")
        spectator.shot(folder, "over-ja")

        # The secrets never left in a request line or a Referer (only in Authorization).
        for device in everyone(devices, spectator):
            leaked = [line for line in device.sent if any(secret in line for secret in secrets)]
            assert leaked == [], leaked
            assert device.errors == []
    finally:
        for device in everyone(devices, spectator):
            device.close()


def serves_live_legal(service_url: str) -> bool:
    """Whether a move's answer carries the mover's next legal moves (include=legal_moves)."""
    created = http_json(f"{service_url}/v1/matches", {"game": "scratch-and-catch", "players": 2, "seed": "live"})
    auth = {"Authorization": f"Bearer {created['seats'][0]['secret']}"}
    base = f"{service_url}/v1/matches/{created['id']}"
    move = http_json(f"{base}/legal-moves?seat=0", headers=auth)["moves"][0]
    answer = http_json(f"{base}/moves?include=legal_moves", {"move": move}, {**auth, "If-Match": '"0"'})
    return "legal_moves" in answer


def http_json(url: str, body: dict | None = None, headers: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def everyone(devices, spectator):
    return [*devices, spectator]


def server_secret(link: str) -> str:
    return link.split("secret=")[1].split("&")[0]


def test_japanese_words_a_japanese_font_and_errors_beside_their_cause(service_url, browser):
    phone = Device(browser, service_url, "phone", NARROW, locale="ja-JP")
    try:
        page = phone.page
        page.goto(f"{service_url}/table")
        page.wait_for_selector("#create-game option[value='scratch-and-catch']", state="attached")
        assert page.get_attribute("html", "lang") == "ja"
        assert page.text_content("#join-heading") == "対戦に参加"
        fonts = page.evaluate("getComputedStyle(document.body).fontFamily")
        for font in ("Hiragino Sans", "Yu Gothic", "Meiryo", "Noto Sans CJK JP"):
            assert font in fonts
        # A join without a key: the error appears under the form, in view.
        page.click("#join-typed summary")
        page.fill("#join-match", "no-such-match")
        page.click("#join-form button[type=submit]")
        assert page.text_content("#join-error") == "対戦コードを入力してください（席に座るには席の番号と鍵も）。"
        assert in_viewport(page, "#join-error")
        # A link to a match that does not exist.
        page.fill("#join-secret", "x" * 32)
        page.click("#join-form button[type=submit]")
        page.wait_for_selector("#join-error:has-text('期限切れ')")
        assert in_viewport(page, "#join-error")
        check_screen(page, [], "Japanese start screen with an error")
        assert phone.errors == [] or all("404" in error for error in phone.errors)
    finally:
        phone.close()


def test_a_refused_move_is_explained_beside_it_with_the_rulebook_in_our_words(service_url, browser):
    """Game Progress: players take turns. Seat 2 proposes a move out of turn (under Advanced);
    the refusal names the seats, the section and what it says; then a card seat 1 does not hold
    (CARD_NOT_IN_HAND) brings the referee's suggestions, named as printed, one tap to play."""
    created = http_json(f"{service_url}/v1/matches", {"game": "scratch-and-catch", "players": 2, "seed": "refused"})
    link = f"{service_url}/table#join={created['id']}&seat=1&secret={created['seats'][1]['secret']}"
    axe: list = []
    phone = Device(browser, service_url, "seat2", PHONE)
    try:
        page = phone.page
        open_link(phone, link)
        page.click("#advanced summary")
        page.fill("#custom-text", json.dumps({"type": "play", "player": 1, "source": "pile"}))
        page.click("#custom-send")
        page.wait_for_selector("#verdict[data-legal='false']")
        assert in_viewport(page, "#verdict")
        violation = page.locator("#verdict li[data-code='NOT_YOUR_TURN']")
        assert violation.locator(".message").text_content() == "It is Seat 1's turn, not Seat 2's."
        assert violation.locator(".rule-name").text_content() == "Rulebook, Game Progress"
        assert "Turns go round the table" in violation.locator(".rule-text").text_content()
        page.click("#advanced summary")
        check_screen(page, axe, "refused move")
        phone.shot("refused", "refused")
        assert phone.errors == []
    finally:
        phone.close()

    seat1 = Device(browser, service_url, "seat1", PHONE)
    try:
        page = seat1.page
        open_link(seat1, f"{service_url}/table#join={created['id']}&seat=0&secret={created['seats'][0]['secret']}")
        hand = page.evaluate("JSON.parse(document.getElementById('raw-match').textContent).match.state.players[0].hand")
        held = {card.split("-")[0] for card in hand}
        missing = next(f"C{value}-1" for value in range(1, 11) if f"C{value}" not in held)
        page.click("#advanced summary")
        page.fill("#custom-text", json.dumps({"type": "play", "player": 0, "source": "hand", "card": missing}))
        page.click("#custom-send")
        page.wait_for_selector("#verdict li[data-code='CARD_NOT_IN_HAND']")
        message = page.text_content("#verdict li .message")
        assert f"Cat {missing[1:].split('-')[0]}" in message and missing not in message
        suggestions = page.locator("#suggestions button.suggestion")
        assert suggestions.count() > 0 and suggestions.first.inner_text().startswith("Play Cat ")
        page.click("#advanced summary")
        check_screen(page, axe, "suggestions")
        seat1.shot("refused", "suggestions")
        suggestions.first.click()
        page.wait_for_selector("#verdict[data-legal='true'][data-version='1']")
        assert in_viewport(page, "#verdict")
        assert seat1.errors == []
    finally:
        seat1.close()


HAND_NAMED = """(word) => {
  const cards = [...document.querySelectorAll('#hand .card')];
  return cards.length > 0 && cards.every((card) => card.textContent.startsWith(word));
}"""


def test_cards_are_named_as_the_game_description_names_them_in_the_current_language(service_url, browser):
    """When GET /v1/games/{game} carries ``cards`` (each id's printed name in the language asked
    for), the page names cards with it, and asks again when the language changes. Here the
    description is given those names on its way to the page."""
    created = http_json(f"{service_url}/v1/matches", {"game": "scratch-and-catch", "players": 2, "seed": "named"})
    asked: list[str] = []

    def named(route):
        language = route.request.headers.get("accept-language", "")
        asked.append(language)
        answer = route.fetch()
        body = answer.json()
        word = "ねこ" if language.startswith("ja") else "Kitty "
        body["cards"] = {card["id"]: {"name": f"{word}{card['number']}", "kind": card["kind"], "value": card["number"]}
                         for card in body["catalogue"]["cards"]}
        route.fulfill(response=answer, json=body)

    phone = Device(browser, service_url, "seat1", PHONE)
    try:
        page = phone.page
        page.route("**/v1/games/scratch-and-catch", named)
        open_link(phone, f"{service_url}/table#join={created['id']}&seat=0&secret={created['seats'][0]['secret']}")
        page.wait_for_function(HAND_NAMED, arg="Kitty ")
        page.click("button[data-lang='ja']")
        page.wait_for_function(HAND_NAMED, arg="ねこ")
        assert "ja" in asked and "en" in asked
        assert phone.errors == []
    finally:
        phone.close()
