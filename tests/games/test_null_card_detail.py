"""A null where a card lies (a seen hand) is no card: the impossible-state detail says "null",
the JSON word the client sent, not Python's "None" (Setup: each player is dealt cards)."""

import pytest

from referee.engine.core import InvalidState
from referee.games import GAMES


@pytest.mark.parametrize("game_id", ["scratch-and-catch", "catatac"])  # (Call of Katulhu's schema refuses it first)
def test_a_null_where_a_card_lies_is_named_null_not_none(game_id):
    game = GAMES[game_id]
    state = game.setup(2, "s", {})
    state["players"][0]["hand"][0] = None
    with pytest.raises(InvalidState) as refused:
        game.check_state(state)
    assert ("/players/0/hand/0", "null is not a card id") in refused.value.errors
    assert "None" not in repr(refused.value.errors)


def test_a_catatac_play_of_a_null_card_is_refused_with_a_pointer(client):
    """1. Play a Paw Card: a play names the card played. A null card is not a card of the hand:
    the body is refused (422, /move/card), never judged "Card None is not in your hand"."""
    game = GAMES["catatac"]
    state = game.setup(4, "null-play", {})
    move = {**game.legal_moves(state)[0], "card": None}
    assert move["type"] == "play"
    answer = client.post("/v1/games/catatac/adjudicate", json={"state": state, "move": move})
    assert answer.status_code == 422
    assert [error["pointer"] for error in answer.get_json()["errors"]] == ["/move/card"]
    assert "None" not in answer.get_data(as_text=True)


def test_a_catatac_match_move_of_a_null_card_is_refused_with_a_pointer(client):
    created = client.post("/v1/matches", json={"game": "catatac", "players": 4, "seed": "null-play"})
    assert created.status_code == 201
    match = created.get_json()
    seat = match["state"]["turn"]["player"]
    secret = match["seats"][seat]["secret"]
    listed = client.get(f"/v1/matches/{match['id']}/legal-moves?seat={seat}",
                        headers={"Authorization": f"Bearer {secret}"}).get_json()["moves"]
    move = {**listed[0], "card": None}
    answer = client.post(f"/v1/matches/{match['id']}/moves", json={"move": move},
                         headers={"Authorization": f"Bearer {secret}", "If-Match": '"0"'})
    assert answer.status_code == 422
    assert [error["pointer"] for error in answer.get_json()["errors"]] == ["/move/card"]
    assert "None" not in answer.get_data(as_text=True)
    assert client.get(f"/v1/matches/{match['id']}").headers["ETag"] == '"0"'  # nothing changed
