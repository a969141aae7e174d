"""Call of Katulhu rules (rulebook: shared/rulebooks/call-of-katulhu.en.txt). Pure.

The game as the engine sees it (:class:`CallOfKatulhu`); each rulebook section has its module:
Setup in deal.py, Gameplay and the Optional Advanced Game Rule in gameplay.py, Scoring and Cat
Cards in scoring.py, the state check in state_check.py, what each reader sees in view.py, the
violations and their sections in messages.py, the catalogue (Components) in cards.py.

Two players: seat 0 holds the blue toy deck, seat 1 the red one (6 toys each). Each round both
place 4 different toys of their 6 face down in slots 1 to 4 at the same time; the reveal removes
every toy beaten by the other's toy in the same slot; then each player attracts every cat on the
table whose shown toys all match their remaining toys slot by slot. See docs/rules-notes.md.

State (JSON)::

    {"game": "call-of-katulhu", "schema_version": 1,
     "options": {"chance": "seeded"|"table", "advanced": bool,
                 "catalogue": null (the default) | {toys, beats, cats, cat_count}},
     "players": [{"deck": "blue"|"red",            seat 0 blue, seat 1 red
                  "hand": [toy ids not placed],     catalogue order
                  "placement": null | [4 toy ids],  slot 1 first; hidden from the other player
                  "must_play": [toy ids],           advanced rule: set aside last round
                  "discard": null | cat id,         stall rule: the chosen cat, hidden
                  "cats": [cat ids attracted, in order]}, x2],
     "table": [cat ids face up, at most 5],
     "cat_deck": [cat ids, top first]   (table chance: the order is unknown, kept sorted),
     "discard_pile": [cat ids, oldest first],
     "phase": "place" | "stall" | "reveal" | "over",
     "round": int (1 for the first round, counts rounds played + 1),
     "quiet_rounds": int (rounds in a row in which no cat left the table),
     "end": null | "seven_cats" | "no_cats_left",
     "finished": bool,
     "rng": {"seed": str, "counter": int}}

Phases: "place": both players place toys (either order; the second placement reveals and
resolves the round); "stall": after 2 quiet rounds each player names a cat of the table to
discard (either order; the second choice discards); "reveal" (table chance only): cats are
turned up one move at a time until 5 are on the table; "over".

Moves::

    {"type": "place", "player": seat, "toys": [4 toy ids, slot 1 first]}
    {"type": "discard", "player": seat, "cat": cat id}          stall rule
    {"type": "reveal", "player": seat, "cat": cat id}           table chance only: a cat turned up
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Game, Move, Outcome, Printed, State
from referee.games.call_of_katulhu import deal, gameplay, printed, scoring, state_check, view
from referee.games.call_of_katulhu.deal import CHANCE_MODES, GAME_ID, SCHEMA_VERSION
from referee.games.call_of_katulhu.gameplay import PHASES
from referee.games.call_of_katulhu.messages import MESSAGES

__all__ = ["CHANCE_MODES", "GAME_ID", "PHASES", "CallOfKatulhu"]


class CallOfKatulhu(Game):
    """Call of Katulhu, 2 players (rulebook sections Setup, Gameplay, Optional Advanced Game
    Rule, Cat Cards, Scoring). See the module docstring for the state and move shapes."""

    id = GAME_ID
    title = "Call of Katulhu"
    player_counts = (2,)
    rules_version = "call-of-katulhu/en-1"
    schema_version = SCHEMA_VERSION
    messages = MESSAGES
    disclosure = view.DISCLOSURE
    card_fields = ("cat",)

    def options_info(self) -> dict:
        """The setup options with their defaults: chance, advanced, catalogue (deal.py)."""
        return deal.options_info()

    def catalogue(self, options: Mapping[str, Any] | None = None) -> dict:
        """The catalogue in use for ``options`` (deal.py). Raises InvalidOptions."""
        return deal.describe_catalogue(options)

    def printed_cards(self) -> Mapping[str, Printed]:
        """Every card the game can deal, as printed (printed.py)."""
        return printed.printed_cards()

    def setup(self, players: int, seed: str, options: Mapping[str, Any] | None = None) -> State:
        """Rulebook, Setup: the first state of a game (deal.py). Raises InvalidOptions."""
        return deal.new_game(players, seed, options)

    def check_state(self, state: State) -> None:
        """Raise InvalidState unless ``state`` can exist (state_check.py)."""
        state_check.check_state(state)

    def legal_moves(self, state: State) -> list[Move]:
        """Every move of every player who may act now (rulebook, Gameplay; gameplay.py)."""
        return gameplay.legal_moves(state)

    def seat_moves(self, state: State, seat: int) -> list[Move]:
        """The moves of ``seat`` now, as it can know them (gameplay.py)."""
        return gameplay.seat_moves(state, seat)

    def apply(self, state: State, move: Move) -> tuple[State, list[dict]]:
        """Judge and apply one move (rulebook, Gameplay and Optional Advanced Game Rule;
        gameplay.py). Raises Illegal."""
        return gameplay.apply(state, move)

    def score(self, state: State) -> tuple[dict, Outcome]:
        """The score sheet and outcome (rulebook, Scoring and Cat Cards; scoring.py)."""
        return scoring.score(state)

    def view(self, state: State, seat: int | None) -> State:
        """``state`` as ``seat`` sees it (None: a spectator; view.py)."""
        return view.view(state, seat)
