"""Scratch & Catch over HTTP: setup, legal and illegal moves, errors as problem+json."""

import json

import pytest

BASE = "/v1/games/scratch-and-catch"
PROBLEM = "application/problem+json"


def setup(client, players=3, seed="http-1", **options):
    response = client.post(f"{BASE}/setup", json={"players": players, "seed": seed, "options": options})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()["state"]


def test_games_list_and_detail(client):
    games = client.get("/v1/games").get_json()["games"]
    entry = next(g for g in games if g["id"] == "scratch-and-catch")
    assert entry["players"] == [2, 3, 4, 5, 6]
    assert entry["title"] == "Scratch & Catch"
    detail = client.get(BASE).get_json()
    assert len(detail["catalogue"]["cards"]) == 76
    assert detail["catalogue"]["provisional"] is True


def test_setup_then_a_legal_then_an_illegal_move(client):
    """The end-to-end path of a new user: setup, one legal move, one illegal move."""
    state = setup(client)
    card = state["players"][0]["hand"][0]
    legal = client.post(f"{BASE}/adjudicate",
                        json={"state": state, "move": {"type": "play", "player": 0, "source": "hand", "card": card}})
    assert legal.status_code == 200
    verdict = legal.get_json()
    assert verdict["legal"] is True and verdict["violations"] == []
    assert card not in verdict["state"]["players"][0]["hand"]
    assert verdict["events"][0] == {"type": "card_played", "player": 0, "card": card, "source": "hand",
                                    "position": "first"}
    assert verdict["outcome"] == {"finished": False, "winners": [], "tiebreak": None}
    # Player 1 tries to play out of turn.
    other = state["players"][1]["hand"][0]
    illegal = client.post(f"{BASE}/adjudicate", json={
        "state": verdict["state"], "move": {"type": "play", "player": 1, "source": "hand", "card": other}})
    assert illegal.status_code == 200
    answer = illegal.get_json()
    assert answer["legal"] is False and answer["state"] is None
    assert answer["violations"] == [{"code": "NOT_YOUR_TURN", "message": "It is player 0's turn, not player 1's.",
                                     "rule": "Game Progress"}]


def test_messages_in_japanese(client):
    state = setup(client)
    response = client.post(f"{BASE}/adjudicate", headers={"Accept-Language": "ja, en;q=0.5"},
                           json={"state": state, "move": {
                               "type": "play", "player": 0, "source": "hand",
                               "card": "C1-1" if "C1-1" not in state["players"][0]["hand"] else "C1-2"}})
    violation = response.get_json()["violations"][0]
    assert violation["code"] == "CARD_NOT_IN_HAND"
    assert violation["rule"] == "ゲームの進行"
    assert "手札にありません" in violation["message"]


def test_legal_moves_and_score(client):
    state = setup(client, players=2)
    moves = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()["moves"]
    assert len(moves) == 5   # 4 hand cards and the draw pile
    assert {"type": "play", "player": 0, "source": "pile"} in moves
    score = client.post(f"{BASE}/score", json={"state": state}).get_json()
    assert [row["total"] for row in score["scores"]["players"]] == [-8, -8]   # 0 cards, 22 fleas each
    assert score["outcome"]["finished"] is False


def test_replay_stops_at_the_first_illegal_move(client):
    state = setup(client, players=2)
    hand = state["players"][0]["hand"]
    moves = [{"type": "play", "player": 0, "source": "hand", "card": hand[0]},
             {"type": "play", "player": 0, "source": "hand", "card": hand[1]},
             {"type": "play", "player": 0, "source": "hand", "card": hand[2]}]
    answer = client.post(f"{BASE}/replay", json={"state": state, "moves": moves}).get_json()
    assert [step["legal"] for step in answer["steps"]] == [True, True, False]
    assert answer["first_illegal"]["index"] == 2
    assert answer["first_illegal"]["violations"][0]["code"] == "NOT_YOUR_TURN"
    assert answer["state"]["turn"]["player"] == 1


def test_schema_error_points_at_the_field(client):
    state = setup(client)
    state["players"][1]["fleas"] = "many"
    response = client.post(f"{BASE}/adjudicate", json={"state": state, "move": {"type": "play", "player": 0}})
    assert response.status_code == 422
    assert response.content_type == PROBLEM
    problem = response.get_json()
    pointers = {e["pointer"] for e in problem["errors"]}
    assert "/state/players/1/fleas" in pointers
    assert "/move/source" in pointers
    assert problem["status"] == 422 and problem["type"].endswith("unprocessable-content")


@pytest.mark.parametrize("mutate,pointer", [
    (lambda s: s["players"][0]["hand"].__setitem__(0, s["players"][1]["hand"][0]), "/state/players/1/hand/0"),
    (lambda s: s["players"][0]["hand"].__setitem__(0, "C10-9"), "/state/players/0/hand/0"),
    (lambda s: s["turn"].__setitem__("player", 4), "/state/turn/player"),
])
def test_impossible_state_is_422_with_a_pointer(client, mutate, pointer):
    state = setup(client)
    mutate(state)
    response = client.post(f"{BASE}/legal-moves", json={"state": state})
    assert response.status_code == 422
    problem = response.get_json()
    assert problem["title"] == "Impossible state"
    assert pointer in [e["pointer"] for e in problem["errors"]]


def test_negative_fleas_and_oversized_hand_are_refused(client):
    state = setup(client)
    state["players"][2]["fleas"] = -3
    response = client.post(f"{BASE}/score", json={"state": state})
    assert response.status_code == 422
    assert "/state/players/2/fleas" in [e["pointer"] for e in response.get_json()["errors"]]
    state = setup(client)
    state["players"][0]["hand"].append(state["draw_pile"].pop())
    response = client.post(f"{BASE}/score", json={"state": state})
    assert response.status_code == 422
    assert "/state/players/0/hand" in [e["pointer"] for e in response.get_json()["errors"]]


def test_wrong_player_count_is_refused(client):
    response = client.post(f"{BASE}/setup", json={"players": 7})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/players"


def test_unplayable_options_are_refused_with_pointer(client):
    response = client.post(f"{BASE}/setup",
                           json={"players": 6, "options": {"deck": {"cat": [1] * 10, "scratch": [0] * 10}}})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/options/deck"


def test_body_that_is_not_json_is_415(client):
    response = client.post(f"{BASE}/setup", data="players=3", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415 and response.content_type == PROBLEM


def test_malformed_json_is_400(client):
    response = client.post(f"{BASE}/setup", data="{\"players\": 3", content_type="application/json")
    assert response.status_code == 400 and response.content_type == PROBLEM


def test_body_over_the_limit_is_413(client):
    body = json.dumps({"players": 3, "seed": "x" * (1024 * 1024)})
    response = client.post(f"{BASE}/setup", data=body, content_type="application/json")
    assert response.status_code == 413 and response.content_type == PROBLEM
    # The limit is named, as for a chunked body over it.
    assert "(1048576 bytes, REFEREE_MAX_BODY_BYTES)" in response.get_json()["detail"]


def test_a_body_nested_too_deeply_is_400_with_a_pointer(client):
    """As a body that is not JSON: a 400 problem whose error points at the whole body."""
    response = client.post(f"{BASE}/setup", data="[" * 40_000, content_type="application/json")
    assert response.status_code == 400 and response.content_type == PROBLEM
    assert response.get_json()["errors"] == [{"pointer": "", "detail": "nested too deeply to parse"}]
    # Deeper still, more arrays than any request needs: refused before it is read.
    response = client.post(f"{BASE}/setup", data="[" * 100_000, content_type="application/json")
    assert response.status_code == 400 and response.content_type == PROBLEM
    assert response.get_json()["errors"] == [{"pointer": "", "detail": "more than 50,000 arrays and objects"}]
    malformed = client.post(f"{BASE}/setup", data="{\"players\": 3", content_type="application/json")
    assert [e["pointer"] for e in malformed.get_json()["errors"]] == [""]


def test_unknown_path_and_method(client):
    assert client.get("/v1/games/chess").status_code == 404
    response = client.delete(f"{BASE}/setup")
    assert response.status_code == 405 and response.content_type == PROBLEM
    assert "POST" in response.headers["Allow"]


def test_same_state_same_bytes(client):
    a = client.post(f"{BASE}/setup", json={"players": 4, "seed": "bytes"}).get_data()
    b = client.post(f"{BASE}/setup", json={"players": 4, "seed": "bytes"}).get_data()
    assert a == b
    assert a.startswith(b'{"state":{"draw_pile":')   # keys sorted


def test_health(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}
    assert client.get("/readyz").status_code == 200


def test_unknown_game_names_the_games(client):
    response = client.post("/v1/games/chess/setup", json={"players": 2})
    assert response.status_code == 404 and response.content_type == PROBLEM
    assert "scratch-and-catch" in response.get_json()["detail"]


def test_problem_types_are_described(client):
    problem = client.post(f"{BASE}/setup", json={"players": 9}).get_json()
    assert problem["type"] == "/problems/unprocessable-content"
    page = client.get(problem["type"])
    assert page.status_code == 200 and "schema" in page.get_json()["description"]


def test_answers_say_their_language(client):
    state = setup(client, players=2)
    move = {"type": "play", "player": 1, "source": "pile"}
    japanese = client.post(f"{BASE}/adjudicate", json={"state": state, "move": move},
                           headers={"Accept-Language": "ja-JP"})
    assert japanese.headers["Content-Language"] == "ja"
    assert "Accept-Language" in japanese.headers["Vary"]
    english = client.post(f"{BASE}/adjudicate", json={"state": state, "move": move})
    assert english.headers["Content-Language"] == "en"


def test_game_detail_lists_every_violation_code(client):
    detail = client.get(BASE, headers={"Accept-Language": "ja"}).get_json()
    codes = {v["code"]: v for v in detail["violations"]}
    assert {"NOT_YOUR_TURN", "CARD_NOT_IN_HAND", "DRAW_PILE_EMPTY", "GAME_OVER"} <= set(codes)
    assert codes["CARD_NOT_IN_HAND"]["rule"] == "ゲームの進行"


def test_null_card_from_the_hand_is_a_schema_error_and_from_the_pile_a_violation(client):
    state = setup(client, players=2, chance="table")
    hand = client.post(f"{BASE}/adjudicate",
                       json={"state": state, "move": {"type": "play", "player": 0, "source": "hand", "card": None}})
    assert hand.status_code == 422 and hand.get_json()["errors"][0]["pointer"] == "/move/card"
    pile = client.post(f"{BASE}/adjudicate",
                       json={"state": state, "move": {"type": "play", "player": 0, "source": "pile", "card": None}})
    assert pile.status_code == 200 and pile.get_json()["violations"][0]["code"] == "CARD_REQUIRED"


def test_card_id_error_says_the_numbers(client):
    state = setup(client, players=2)
    answer = client.post(f"{BASE}/adjudicate", json={
        "state": state, "move": {"type": "play", "player": 0, "source": "hand", "card": "C99-1"}})
    assert answer.status_code == 422 and "number 1 to 10" in answer.get_json()["errors"][0]["detail"]
