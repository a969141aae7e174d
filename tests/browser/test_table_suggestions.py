"""/table in a real browser: an illegal move's verdict shows the referee's suggestions beside
the violation, and one tap on a suggestion plays it."""

from __future__ import annotations

import json
import urllib.request

from tests.browser.test_table_page import PHONE, join, open_table, post_custom, reached


def _get(url: str, secret: str) -> dict:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {secret}"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def _create(service_url: str) -> dict:
    body = json.dumps({"game": "scratch-and-catch", "players": 2, "seed": "suggestions"}).encode()
    request = urllib.request.Request(f"{service_url}/v1/matches", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def test_an_illegal_move_offers_the_closest_legal_moves_and_one_tap_plays_one(service_url, browser):
    created = _create(service_url)
    match_id, secret = created["id"], created["seats"][0]["secret"]
    base = f"{service_url}/v1/matches/{match_id}"
    hand = _get(f"{base}?seat=0", secret)["state"]["players"][0]["hand"]
    listed = _get(f"{base}/legal-moves?seat=0", secret)["moves"]
    context, page, watch = open_table(browser, service_url)
    try:
        join(page, match_id, secret)
        reached(page, 0)
        # A card seat 0 does not hold (CARD_NOT_IN_HAND): the suggestions are its plays from the
        # hand (the same type and source, another card), in the order legal-moves lists them.
        missing = next(f"C{value}-1" for value in range(1, 11) if f"C{value}-1" not in hand)
        post_custom(page, {"type": "play", "player": 0, "source": "hand", "card": missing})
        assert page.locator("#verdict li[data-code='CARD_NOT_IN_HAND']").count() == 1
        buttons = page.locator("#verdict #suggestions button.suggestion")
        shown = [json.loads(buttons.nth(index).get_attribute("data-move")) for index in range(buttons.count())]
        from_hand = [move for move in listed if move.get("source") == "hand"]
        assert shown == from_hand[:3]
        assert page.text_content("#suggestions-heading") == "Play instead (one tap):"
        heights = [box["height"] for box in (button.bounding_box() for button in buttons.all())]
        assert min(heights) >= 44   # large enough to touch

        buttons.first.click()
        reached(page, 1, verdict=True)
        log = _get(f"{base}/log?seat=0", secret)["entries"]
        assert [entry["move"] for entry in log] == [from_hand[0]]
        assert page.locator("#verdict #suggestions").count() == 0   # a legal verdict suggests nothing
        assert not watch.errors, watch.errors
    finally:
        context.close()


def test_at_a_table_game_a_suggestion_asks_for_what_the_table_shows(service_url, browser):
    deal = {"hands": [["S1-1", "C2-1", "C3-1", "C4-1"], ["C5-1", "C6-1", "C7-1", "C8-1"]],
            "line": ["C1-1", "C9-1", "C10-1", "C1-2"]}
    body = json.dumps({"game": "scratch-and-catch", "players": 2, "seed": "suggestions",
                       "options": {"chance": "table", "deal": deal}}).encode()
    request = urllib.request.Request(f"{service_url}/v1/matches", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        created = json.load(answer)
    match_id, secret = created["id"], created["seats"][0]["secret"]
    base = f"{service_url}/v1/matches/{match_id}"
    state = _get(f"{base}?seat=0", secret)["state"]
    hand = state["players"][0]["hand"]
    seen = set(hand) | {card for pile in state["line"] for card in pile["cards"]}
    catalogue = _get(f"{service_url}/v1/games/scratch-and-catch", secret)["catalogue"]["cards"]
    unseen = next(card["id"] for card in catalogue if card["id"] not in seen)
    context, page, watch = open_table(browser, service_url)
    try:
        join(page, match_id, secret)
        reached(page, 0)
        # The deck's one Scratch 1, in the player's own hand, named as taken from the draw pile
        # (CARD_NOT_IN_PILE: no copy of it can be there).
        assert hand[0] == "S1-1"
        post_custom(page, {"type": "play", "player": 0, "source": "pile", "card": hand[0]})
        assert page.locator("#verdict li[data-code='CARD_NOT_IN_PILE']").count() == 1
        buttons = page.locator("#verdict #suggestions button.suggestion")
        shown = [json.loads(buttons.nth(index).get_attribute("data-move")) for index in range(buttons.count())]
        # First the listed pile play, whose card the table names (nothing else differs); then
        # the same card played from the hand (one choice differs).
        assert shown[:2] == [{"type": "play", "player": 0, "source": "pile", "card": None, "table_fills": ["card"]},
                             {"type": "play", "player": 0, "source": "hand", "card": hand[0]}]
        buttons.first.click()
        page.select_option("#picker select[data-field='card']", unseen)
        page.click("#picker button.primary")
        reached(page, 1, verdict=True)
        line = _get(f"{base}?seat=0", secret)["state"]["line"]
        assert any(unseen in pile["cards"] for pile in line)
        assert not watch.errors, watch.errors
    finally:
        context.close()


def test_verdicts_show_no_stray_text_and_a_long_problem_fits_a_phone(service_url, browser):
    """A verdict leaves out the parts it has not (no literal "null" where a legal move has no
    suggestions, or an illegal one has none), and a refusal quoting a long URL wraps within a
    390-pixel screen instead of widening the page."""
    created = _create(service_url)
    match_id, secrets = created["id"], [seat["secret"] for seat in created["seats"]]
    base = f"{service_url}/v1/matches/{match_id}"
    listed = _get(f"{base}/legal-moves?seat=0", secrets[0])["moves"]
    context, page, watch = open_table(browser, service_url, viewport=PHONE)
    try:
        join(page, match_id, secrets[1], seat=1)
        reached(page, 0)
        # Seat 1 out of turn: illegal, and no move of its own to suggest.
        post_custom(page, {"type": "play", "player": 1, "source": "pile"})
        assert page.locator("#verdict #suggestions").count() == 0
        assert "null" not in page.text_content("#verdict")
        # A move that does not fit the schema: a 422 whose detail names a URL.
        page.fill("#custom-text", json.dumps({"move": listed[0]}))
        page.click("#custom-send")
        page.wait_for_selector("#verdict .problem")
        assert "/v1/" in page.text_content("#verdict .problem")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert [error for error in watch.errors if "status of 422" not in error] == [], watch.errors
    finally:
        context.close()
    context, page, watch = open_table(browser, service_url, viewport=PHONE)
    try:
        join(page, match_id, secrets[0])
        reached(page, 0)
        page.click("#advanced summary")
        page.fill("#custom-text", json.dumps(listed[0]))
        page.click("#custom-send")
        reached(page, 1, verdict=True)
        assert "null" not in page.text_content("#verdict")
        assert not watch.errors, watch.errors
    finally:
        context.close()


def test_a_jointly_seeded_match_is_dealt_from_what_each_seats_page_contributes(service_url, browser):
    """docs/rng.md, "Joint seeding": each seat's page sends a contribution of its own (128
    random bits of the device) when its listed contribute move is tapped; the last one deals."""
    body = json.dumps({"game": "scratch-and-catch", "players": 2, "seeding": "joint"}).encode()
    request = urllib.request.Request(f"{service_url}/v1/matches", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        created = json.load(answer)
    match_id, secrets = created["id"], [seat["secret"] for seat in created["seats"]]
    base = f"{service_url}/v1/matches/{match_id}"
    for seat in (0, 1):
        context, page, watch = open_table(browser, service_url, viewport=PHONE)
        try:
            join(page, match_id, secrets[seat], seat=seat if seat else None)
            page.wait_for_selector("#moves button.move")
            page.click("#moves button.move")
            page.wait_for_selector("#verdict[data-legal='true']")
            assert not watch.errors, watch.errors
        finally:
            context.close()
    log = _get(f"{base}/log?seat=1", secrets[1])["entries"]
    assert [entry["move"]["type"] for entry in log] == ["contribute", "contribute"]
    own = log[1]["move"]["contribution"]
    assert len(own) == 32 and int(own, 16) >= 0   # seat 1 sees its own contribution only
    assert log[0]["move"]["contribution"] is None
    assert _get(f"{base}?seat=0", secrets[0])["state"]["players"][0]["hand"]   # dealt
