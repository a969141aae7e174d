"""The table as the state holds it (rulebook, Setup: two clans alternating around the table,
the paw deck, the discard pile, the points cards, the yarn ball): the state's fixed words and
the helpers every part of the rules reads it with. The state's shape: rules.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import State
from referee.engine.options import HANDS_MODES  # noqa: F401 - part of the state's vocabulary here
from referee.games.catatac import cards

GAME_ID = "catatac"
CHANCE_MODES = ("seeded", "table")
# legal-moves marks, in this field of a move, the fields a table fills in with what it sees.
TABLE_FILLS = "table_fills"
PHASES = ("play", "answer", "refill", "replay", "show", "over")
PAIR_ACTIONS = ("steal", "movement", "stash", "counter")
ORDERS = ("pair_first", "block_first")
MARATHON_GAMES = 3
OPTION_NAMES = ("chance", "seat0_clan", "first_player", "deck_hockey", "kittens", "marathon")
BOOSTERS_OPTION = "boosters"  # written only when at least one booster is in play


def copy_state(state: State) -> State:
    """A copy deep enough that applying a move never touches the caller's state."""
    new = dict(state)
    new["players"] = [dict(p, hand=list(p["hand"])) for p in state["players"]]
    new["ball"] = dict(state["ball"])
    new["paw_deck"] = list(state["paw_deck"])
    new["discard"] = list(state["discard"])
    new["points_deck"] = list(state["points_deck"])
    new["points"] = {"white": list(state["points"]["white"]), "black": list(state["points"]["black"])}
    new["turn"] = dict(state["turn"])
    if state["stash"] is not None:
        new["stash"] = dict(state["stash"], answer=list(state["stash"]["answer"]))
    if state["marathon"] is not None:
        new["marathon"] = {"game": state["marathon"]["game"], "completed": list(state["marathon"]["completed"])}
    new["rng"] = dict(state["rng"])
    return new


def is_int(value: Any) -> bool:
    """Whether a JSON value is an integer (true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def boosters_of(options: Mapping[str, Any]) -> tuple[str, ...]:
    """The boosters in play (a state lists them in the rulebook's order; absent: none)."""
    return tuple(options.get(BOOSTERS_OPTION) or ())


def clan_of(seat: int, seat0_clan: str) -> str:
    """Rulebook, Setup: the clans alternate around the table from seat 0's."""
    return seat0_clan if seat % 2 == 0 else cards.ENEMY[seat0_clan]


def is_unseen(state: State) -> bool:
    """Whether the table does not see the hands (paw cards named by kind, hidden cards null)."""
    return state["options"].get("hands") == "unseen"
