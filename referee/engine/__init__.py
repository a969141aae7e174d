"""Pure rules engine: game protocol, verdict types, the seeded generator."""

from referee.engine.core import (
    Game,
    Illegal,
    InvalidOptions,
    InvalidState,
    Move,
    Outcome,
    State,
    Verdict,
    Violation,
)
from referee.engine.rng import Rng

__all__ = [
    "Game", "Illegal", "InvalidOptions", "InvalidState", "Move", "Outcome", "Rng", "State",
    "Verdict", "Violation",
]
