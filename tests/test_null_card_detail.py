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
