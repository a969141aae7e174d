"""Scratch & Catch rules (rulebook: shared/rulebooks/scratch-and-catch.en.txt). Pure.

The game as the engine sees it (:class:`ScratchAndCatch`); each rulebook section has its module:
Setup in deal.py, Game Progress and Scratch Cards in turn.py (the line in line.py), End of the
Game in end.py, the state check in state_check.py, what each reader sees in view.py, the
violations and their sections in messages.py, the cards (Components) in cards.py.

State (JSON, seats numbered from 0, clockwise)::

    {"game": "scratch-and-catch", "schema_version": 1,
     "options": {"chance": "seeded"|"table", "deck": {"cat": [10 ints], "scratch": [10 ints]},
                 "scratch_cards_score": bool[, "hands": "unseen"]},
     "players": [{"hand": [ids], "fleas": int, "collected": [ids]}, ...],
     "line": [{"value": 1..10, "cards": [ids, bottom first]}, ...]   ascending values
     "draw_pile": [ids, top first]       (table chance: the order is unknown, kept sorted)
     "turn": {"player": seat, "step": "first"|"second"|"refill"},
     "final_turns": null | {"ended_by": seat, "reason": "no_fleas"|"cannot_refill",
                            "remaining": [seats still to take their final turn, in order]},
     "finished": bool,
     "rng": {"seed": str, "counter": int}}

Moves::

    {"type": "play", "player": seat, "source": "hand", "card": id}
    {"type": "play", "player": seat, "source": "pile"[, "card": id seen at the table]}
    {"type": "draw", "player": seat, "card": id}        table chance only: one refill card

With the seeded generator the referee turns the top card of the pile: a pile play names no
card (SEEDED_CHANCE whatever the card named), so no answer depends on the pile's order.

Unseen hands (``"hands": "unseen"``, table chance only): the state holds only what lies face
up. Hands and the draw pile are lists of ``null``; the line and the collected piles name cards
by kind (``"C5"``, ``"S6"``: copies are identical). A play names the kind of the card played
(from the hand or turned from the pile); the referee checks a copy of that kind can still be
unseen and takes one unseen card from that hand or pile. The refill is automatic and changes
only sizes (no draw move). The option is left out of a state's options when hands are seen,
so states written before it stay valid.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Game, Move, Outcome, Printed, State
from referee.games.scratch_and_catch import deal, end, printed, state_check, turn, view
from referee.games.scratch_and_catch.deal import CHANCE_MODES, GAME_ID, HANDS_MODES, SCHEMA_VERSION
from referee.games.scratch_and_catch.messages import MESSAGES

__all__ = ["CHANCE_MODES", "GAME_ID", "HANDS_MODES", "ScratchAndCatch"]


class ScratchAndCatch(Game):
    """Scratch & Catch, 2 to 6 players (rulebook sections Setup, Game Progress, Scratch Cards,
    End of the Game). See the module docstring for the state and move shapes."""

    id = GAME_ID
    title = "Scratch & Catch"
    player_counts = (2, 3, 4, 5, 6)
    rules_version = "scratch-and-catch/en-1"
    schema_version = SCHEMA_VERSION
    messages = MESSAGES
    disclosure = view.DISCLOSURE
    word_params = frozenset({"field"})

    def options_info(self) -> dict:
        """The setup options with their defaults (deal.py)."""
        return deal.options_info()

    def catalogue(self, options: Mapping[str, Any] | None = None) -> dict:
        """The deck in use for ``options`` (deal.py: Components and Setup). Raises InvalidOptions."""
        return deal.describe_catalogue(options)

    def printed_cards(self) -> Mapping[str, Printed]:
        """Every card the game can deal, as printed (printed.py)."""
        return printed.printed_cards()

    def setup(self, players: int, seed: str, options: Mapping[str, Any] | None = None) -> State:
        """Rulebook, Setup: the first state of a game of ``players`` (deal.py). Raises InvalidOptions."""
        return deal.new_game(players, seed, options)

    def check_state(self, state: State) -> None:
        """Raise InvalidState unless ``state`` can exist (state_check.py)."""
        state_check.check_state(state)

    def legal_moves(self, state: State) -> list[Move]:
        """Every move of the player to act (rulebook, Game Progress; turn.py)."""
        return turn.legal_moves(state)

    def seat_moves(self, state: State, seat: int) -> list[Move]:
        """The moves of ``seat`` as it can know them (turn.py)."""
        return turn.seat_moves(state, seat)

    def apply(self, state: State, move: Move) -> tuple[State, list[dict]]:
        """Judge and apply one move (rulebook, Game Progress and Scratch Cards; turn.py). Raises Illegal."""
        return turn.apply(state, move)

    def score(self, state: State) -> tuple[dict, Outcome]:
        """The score sheet and outcome (rulebook, End of the Game; end.py)."""
        return end.score(state)

    def view(self, state: State, seat: int | None) -> State:
        """``state`` as ``seat`` sees it (None: a spectator; view.py)."""
        return view.view(state, seat)
