"""The registry of games: adding a game is one package here and one line below."""

from __future__ import annotations

from importlib import import_module

from referee.engine.core import Game

# game id -> package under referee.games (the package exports GAME and has a schema module)
PACKAGES: dict[str, str] = {
    "scratch-and-catch": "scratch_and_catch",
    "call-of-katulhu": "call_of_katulhu",
    "catatac": "catatac",
}

GAMES: dict[str, Game] = {
    game_id: import_module(f"referee.games.{package}").GAME for game_id, package in PACKAGES.items()
}


def get_game(game_id: str) -> Game | None:
    """The game registered under ``game_id``, or None."""
    return GAMES.get(game_id)
