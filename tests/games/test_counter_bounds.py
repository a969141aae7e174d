"""Counters that moves increase (Call of Katulhu's round, Scratch & Catch fleas): a state past
the bound is refused with a pointer, and a state at the bound is judged, its next state fitting
the contract (which does not bound what a move adds)."""

from __future__ import annotations

import jsonschema_rs

from referee.app import create_app

APP = create_app({"TESTING": True})
SPEC = APP.extensions["referee.api"].spec.to_dict()


def _fits(component, value):
    return jsonschema_rs.validator_for({"$ref": f"#/components/schemas/{component}",
                                        "components": SPEC["components"]}).is_valid(value)


def test_call_of_katulhu_round_bound():
    client = APP.test_client()
    state = client.post("/v1/games/call-of-katulhu/setup", json={"players": 2, "seed": "long"}).get_json()["state"]
    state["round"] = 1_000_001
    problem = client.post("/v1/games/call-of-katulhu/legal-moves", json={"state": state}).get_json()
    assert problem["status"] == 422 and problem["errors"][0]["pointer"] == "/state/round"
    state["round"] = 1_000_000
    moves = client.post("/v1/games/call-of-katulhu/legal-moves", json={"state": state}).get_json()["moves"]
    first = next(m for m in moves if m["player"] == 0)
    second = next(m for m in moves if m["player"] == 1)
    replayed = client.post("/v1/games/call-of-katulhu/replay", json={"state": state, "moves": [first, second]})
    assert replayed.status_code == 200
    final = replayed.get_json()["state"]
    assert final["round"] == 1_000_001 and _fits("CallOfKatulhuState", final)


def test_scratch_and_catch_fleas_bound():
    client = APP.test_client()
    state = client.post("/v1/games/scratch-and-catch/setup", json={"players": 2, "seed": "fleas"}).get_json()["state"]
    state["players"][1]["fleas"] = 10_001
    problem = client.post("/v1/games/scratch-and-catch/score", json={"state": state}).get_json()
    assert problem["status"] == 422 and problem["errors"][0]["pointer"] == "/state/players/1/fleas"
    state["players"][1]["fleas"] = 10_000
    assert client.post("/v1/games/scratch-and-catch/score", json={"state": state}).status_code == 200
    assert _fits("ScratchAndCatchState", dict(state, players=[dict(p, fleas=10_003) for p in state["players"]]))
