"""Random positions with cards moved out of place, for the tests of the games' state checks."""

from __future__ import annotations

import copy
from typing import Callable

from referee.engine.core import Game, InvalidState


def corrupted_position(game: Game, state: dict, steps: int, changes: int, rnd,
                       corrupt: Callable[[dict, object], object],
                       stop: Callable[[dict], bool] = lambda _state: False) -> dict:
    """Play up to ``steps`` random legal moves from ``state`` (until ``stop(state)`` or the end),
    then apply ``corrupt(state, rnd)`` ``changes`` times to a copy."""
    for _ in range(steps):
        moves = game.legal_moves(state)
        if not moves or stop(state):
            break
        state = game.adjudicate(state, rnd.choice(moves), checked=True).state
    state = copy.deepcopy(state)
    for _ in range(changes):
        corrupt(state, rnd)
    return state


def refusal(game: Game, state: dict) -> list[tuple[str, str]] | None:
    """The errors ``game.check_state`` gives for ``state``; None when it accepts the state."""
    try:
        game.check_state(state)
    except InvalidState as refused:
        return refused.errors
    return None
