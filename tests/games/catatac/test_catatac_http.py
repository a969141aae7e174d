"""CATATAC over HTTP: catalogue, setup, legal moves, a legal and an illegal move (Japanese),
an impossible state (422), and a stash answered through the service."""

from tests.games.catatac.catatac_helpers import build, decline, play

BASE = "/v1/games/catatac"


def test_catatac_listed_with_its_catalogue(client):
    entry = next(g for g in client.get("/v1/games").get_json()["games"] if g["id"] == "catatac")
    assert entry["players"] == [2, 4, 6] and entry["options"]["first_player"]["default"] == 0
    detail = client.get(BASE).get_json()
    assert len(detail["catalogue"]["paw_cards"]) == 58 and len(detail["catalogue"]["points_cards"]) == 8


def test_setup_legal_moves_and_a_legal_move(client):
    """Setup and Turn Summary through the service: every listed move is accepted."""
    response = client.post(f"{BASE}/setup", json={"players": 4, "seed": "http-cat", "options": {"deck_hockey": True}})
    assert response.status_code == 200, response.get_data(as_text=True)
    state = response.get_json()["state"]
    moves = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()["moves"]
    assert moves and all(m["player"] == 0
                         for m in moves if m["type"] == "play" and m["card"] in state["players"][0]["hand"])
    verdict = client.post(f"{BASE}/adjudicate", json={"state": state, "move": moves[-1]}).get_json()
    assert verdict["legal"] is True and verdict["state"]["turn"]["phase"] in ("play", "answer")


def test_illegal_move_cites_the_rulebook_in_japanese(client):
    """Making a Pair: the violation cites the section, in Japanese with Accept-Language: ja."""
    state = build([["P4-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "black"))
    answer = client.post(f"{BASE}/adjudicate", json={"state": state, "move": play(0, "P4-2", ("steal", None))},
                         headers={"Accept-Language": "ja"}).get_json()
    assert answer["legal"] is False
    assert answer["violations"] == [{"code": "NO_PAIR", "message": "カードP4-2はP3-1とペアになりません。",
                                     "rule": "ペアを作る"}]
    english = client.post(f"{BASE}/adjudicate",
                          json={"state": state, "move": play(0, "P4-2", ("steal", None))}).get_json()
    assert english["violations"][0]["rule"] == "Making a Pair"


def test_impossible_state_is_a_422_problem(client):
    state = build([["P4-2"], ["P1-1"]], ["P3-1"])
    state["players"][1]["hand"].append("P4-2")
    response = client.post(f"{BASE}/adjudicate", json={"state": state, "move": play(0, "P4-2")})
    assert response.status_code == 422 and response.content_type.startswith("application/problem+json")


def test_play_without_its_choices_is_rejected_by_the_schema(client):
    state = build([["P4-2"], ["P1-1"]], ["P3-1"])
    response = client.post(f"{BASE}/adjudicate",
                           json={"state": state, "move": {"type": "play", "player": 0, "card": "P4-2"}})
    assert response.status_code == 422


def test_stash_succeeds_through_replay(client):
    """Stash Attempt through /replay: smash, decline; White holds one face-down points card."""
    state = build([["smash-3", "P1-1"], ["P2-1"]], ["P8-4"], ("white_alley", "white"))
    answer = client.post(f"{BASE}/replay", json={
        "state": state, "moves": [play(0, "smash-3", None, ((), ())), decline(1)]}).get_json()
    assert answer["first_illegal"] is None
    assert answer["state"]["points"]["white"] == ["green"]
    assert answer["steps"][-1]["scores"]["clans"]["white"]["points_cards"] == 1


def test_boosters_listed_in_the_options_and_played_through_the_service(client):
    """The Boosters over HTTP: the options info lists them; a setup with all three is accepted,
    its legal moves are judged legal, an alpha card with a pair is refused in Japanese."""
    options = client.get(BASE).get_json()["options"]
    assert options["boosters"]["items"] == ["distraction", "alpha", "momentum"]
    response = client.post(f"{BASE}/setup", json={"players": 2, "seed": "http-boost",
                                                  "options": {"boosters": ["momentum", "distraction", "alpha"]}})
    assert response.status_code == 200, response.get_data(as_text=True)
    state = response.get_json()["state"]
    assert state["options"]["boosters"] == ["distraction", "alpha", "momentum"] and len(state["box"]) == 4
    moves = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()["moves"]
    alpha = state["players"][0]["alpha"]
    assert any(m.get("card") == alpha for m in moves)
    for move in moves[:5] + [m for m in moves if m.get("card") == alpha][:2]:
        verdict = client.post(f"{BASE}/adjudicate", json={"state": state, "move": move}).get_json()
        assert verdict["legal"] is True, verdict
    wrong = play(0, alpha, ("steal", None), None)
    answer = client.post(f"{BASE}/adjudicate", json={"state": state, "move": wrong},
                         headers={"Accept-Language": "ja"}).get_json()
    assert answer["violations"] == [{"code": "ALPHA_MAKES_NO_PAIR", "rule": "ブースター",
                                     "message": f"アルファカード{alpha}でペアを作ることはできません。"}]


def test_booster_setup_rejects_an_unknown_booster(client):
    response = client.post(f"{BASE}/setup", json={"players": 2, "seed": "s", "options": {"boosters": ["beta"]}})
    assert response.status_code == 422


def test_a_card_id_with_a_trailing_newline_is_refused(client):
    """Card ids match the whole string (a JSON Schema pattern), booster and alpha ids too."""
    state = build([["P4-2"], ["P1-1"]], ["P3-1"])
    response = client.post(f"{BASE}/adjudicate", json={"state": state, "move": play(0, "P4-2\n")})
    assert response.status_code == 422
    response = client.post(f"{BASE}/adjudicate", json={"state": state, "move": play(0, "manx\n")})
    assert response.status_code == 422


def test_a_play_missing_several_fields_names_each_of_them(client):
    """Turn Summary: a play states its card, pair, block and order; each one missing is an
    error with its own pointer, not only the first."""
    state = build([["P4-2"], ["P1-1"]], ["P3-1"], ("neutral_alley", "black"))
    answer = client.post(f"{BASE}/adjudicate", json={"state": state, "move": {"type": "play", "player": 0,
                                                                              "card": "P4-2"}})
    assert answer.status_code == 422
    pointers = sorted(error["pointer"] for error in answer.get_json()["errors"])
    assert pointers == ["/move/block", "/move/order", "/move/pair"]
