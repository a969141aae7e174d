"""Scratch & Catch: the referee accepts every state it produces itself."""

BASE = "/v1/games/scratch-and-catch"
LARGEST = {"cat": [99] * 10, "scratch": [99] * 10}


def test_the_largest_deck_setup_gives_a_state_the_referee_accepts(client):
    """options.deck allows up to 99 cards of each number and kind (1980 cards): the state
    dealt from it, and the states after it, fit the state schema."""
    setup = client.post(f"{BASE}/setup", json={"players": 2, "seed": "big", "options": {"deck": LARGEST}})
    assert setup.status_code == 200
    state = setup.get_json()["state"]
    assert len(state["draw_pile"]) == 1980 - 8 - 4
    moves = client.post(f"{BASE}/legal-moves", json={"state": state})
    assert moves.status_code == 200, moves.get_data(as_text=True)
    pile = {"type": "play", "player": 0, "source": "pile"}
    replay = client.post(f"{BASE}/replay", json={"state": state, "moves": [pile, pile]})
    assert replay.status_code == 200, replay.get_data(as_text=True)
    assert replay.get_json()["first_illegal"] is None


def test_a_line_pile_may_hold_every_card_of_its_number(client):
    """A pile on the line holds at most the 198 cards of its number."""
    state = client.post(f"{BASE}/setup",
                        json={"players": 2, "seed": "big", "options": {"deck": LARGEST}}).get_json()["state"]
    value = state["line"][0]["value"]
    same = [c for c in state["draw_pile"] if int(c[1:c.index("-")]) == value]
    state["draw_pile"] = [c for c in state["draw_pile"] if c not in set(same)]
    state["line"][0]["cards"] += same
    assert len(state["line"][0]["cards"]) > 190
    answer = client.post(f"{BASE}/score", json={"state": state})
    assert answer.status_code == 200, answer.get_data(as_text=True)
