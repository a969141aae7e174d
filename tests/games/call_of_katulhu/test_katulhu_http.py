"""Call of Katulhu over HTTP: catalogue, setup, a round, illegal moves, custom catalogues (422)."""

import copy

from tests.games.call_of_katulhu.katulhu_helpers import MECH

BASE = "/v1/games/call-of-katulhu"
PROBLEM = "application/problem+json"


def setup(client, seed="http-1", **options):
    response = client.post(f"{BASE}/setup", json={"players": 2, "seed": seed, "options": options})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()["state"]


def test_game_entry_and_provisional_catalogue(client):
    """GET /v1/games/call-of-katulhu: the entry and the catalogue in use, marked provisional."""
    games = client.get("/v1/games").get_json()["games"]
    entry = next(g for g in games if g["id"] == "call-of-katulhu")
    assert entry["players"] == [2] and entry["title"] == "Call of Katulhu"
    assert set(entry["options"]) == {"chance", "advanced", "catalogue"}
    detail = client.get(BASE).get_json()
    assert detail["catalogue"]["provisional"] is True
    assert len(detail["catalogue"]["cats"]) == 32 and len(detail["catalogue"]["toys"]) == 6


def test_a_round_over_http(client):
    """Setup, both placements (720 listed moves, then 360), the reveal in the verdict."""
    state = setup(client)
    moves = client.post(f"{BASE}/legal-moves", json={"state": state}).get_json()["moves"]
    assert len(moves) == 720
    first = client.post(f"{BASE}/adjudicate", json={"state": state, "move": moves[0]}).get_json()
    assert first["legal"] is True and first["events"] == [{"type": "toys_placed", "player": 0}]
    moves = client.post(f"{BASE}/legal-moves", json={"state": first["state"]}).get_json()["moves"]
    assert len(moves) == 360 and {m["player"] for m in moves} == {1}
    second = client.post(f"{BASE}/adjudicate", json={"state": first["state"], "move": moves[-1]}).get_json()
    assert second["legal"] is True
    assert any(e["type"] == "toys_revealed" for e in second["events"])
    assert second["state"]["round"] == 2
    score = client.post(f"{BASE}/score", json={"state": second["state"]}).get_json()
    assert score["outcome"] == {"finished": False, "winners": [], "tiebreak": None}


def test_illegal_placement_cites_the_rulebook(client):
    """A toy placed twice is a normal answer (200, legal false) citing Gameplay."""
    state = setup(client)
    move = {"type": "place", "player": 0, "toys": ["yarn", "yarn", "mouse", "box"]}
    answer = client.post(f"{BASE}/adjudicate", json={"state": state, "move": move}).get_json()
    assert answer["legal"] is False and answer["state"] is None
    assert answer["violations"] == [{"code": "TOY_PLACED_TWICE", "rule": "Gameplay",
                                     "message": "Toy yarn is placed twice; each slot holds a different toy card."}]


def test_messages_in_japanese(client):
    """Accept-Language: ja gives the message and the rulebook section in Japanese."""
    state = setup(client, advanced=True)
    first = client.post(f"{BASE}/adjudicate", json={"state": state, "move": {
        "type": "place", "player": 0, "toys": ["yarn", "feather", "mouse", "laser"]}}).get_json()["state"]
    after = client.post(f"{BASE}/adjudicate", json={"state": first, "move": {
        "type": "place", "player": 1, "toys": ["yarn", "feather", "mouse", "laser"]}}).get_json()["state"]
    answer = client.post(f"{BASE}/adjudicate", headers={"Accept-Language": "ja"}, json={"state": after, "move": {
        "type": "place", "player": 0, "toys": ["yarn", "feather", "mouse", "laser"]}}).get_json()
    violation = answer["violations"][0]
    assert violation["code"] == "SET_ASIDE_NOT_PLAYED"
    assert violation["rule"] == "上級ルール（オプション）"
    assert "catnip" in violation["message"] and "置いたおもちゃ" in violation["message"]


def test_custom_catalogue_accepted_over_http(client):
    """A caller's catalogue is used and kept inside the state's options."""
    state = setup(client, catalogue=MECH)
    assert state["options"]["catalogue"]["cat_count"] == 12
    assert len(state["table"]) + len(state["cat_deck"]) == 12
    detail_moves = client.post(f"{BASE}/legal-moves", json={"state": state})
    assert detail_moves.status_code == 200


def test_nonsensical_catalogue_is_refused_with_422(client):
    """A toy beating itself and a cat showing an unknown toy: 422 problem+json with pointers."""
    bad = copy.deepcopy(MECH)
    bad["beats"]["yarn"].append("yarn")
    bad["cats"][0]["slots"][0] = "ball"
    response = client.post(f"{BASE}/setup", json={"players": 2, "seed": "s", "options": {"catalogue": bad}})
    assert response.status_code == 422 and response.content_type.startswith(PROBLEM)
    pointers = {e["pointer"] for e in response.get_json()["errors"]}
    assert {"/options/catalogue/beats/yarn/2", "/options/catalogue/cats/0/slots/0"} <= pointers
    short = copy.deepcopy(MECH)
    del short["cat_count"]
    response = client.post(f"{BASE}/setup", json={"players": 2, "seed": "s", "options": {"catalogue": short}})
    assert response.status_code == 422
    assert [e["pointer"] for e in response.get_json()["errors"]] == ["/options/catalogue/cats"]


def test_impossible_state_is_422(client):
    """A cat in two places cannot exist: 422 with the pointer into the body."""
    state = setup(client)
    state["discard_pile"] = [state["table"][0]]
    response = client.post(f"{BASE}/legal-moves", json={"state": state})
    assert response.status_code == 422 and response.content_type.startswith(PROBLEM)
    assert "/state/discard_pile/0" in {e["pointer"] for e in response.get_json()["errors"]}


def test_move_of_the_wrong_shape_is_422(client):
    """The move schema: a placement names 4 toys; a discard names a cat."""
    state = setup(client)
    response = client.post(f"{BASE}/adjudicate",
                           json={"state": state, "move": {"type": "place", "player": 0, "cat": "blue-1"}})
    assert response.status_code == 422
