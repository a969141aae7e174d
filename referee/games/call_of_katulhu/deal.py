"""Call of Katulhu, rulebook section Setup: the options a table plays with, and the first state.

One player takes the blue toy deck, the other the red one (their hands); the cat deck is
shuffled and 5 cats are put face up. The catalogue (toys, which toy beats which, the cats) is
the provisional default of cards.py unless the options bring one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from referee.engine.core import InvalidOptions, State
from referee.engine.memo import options_memo
from referee.engine.rng import Rng
from referee.games.call_of_katulhu.cards import (
    COLOURS,
    DECK_COLOURS,
    DEFAULT,
    PROVISIONAL_NOTE,
    TABLE_SIZE,
    Catalogue,
    CatalogueError,
    load_catalogue,
    set_points,
)

GAME_ID = "call-of-katulhu"
SCHEMA_VERSION = 1

CHANCE_MODES = ("seeded", "table")
OPTION_NAMES = ("chance", "advanced", "catalogue")


class Options(NamedTuple):
    """A table's options, normalised (as a state carries them), and the catalogue they name."""

    full: dict
    catalogue: Catalogue


def normalise_options(players: Any, options: Mapping[str, Any] | None) -> Options:
    """Full options from what the caller gave, and the catalogue in use; raises InvalidOptions
    with pointers into the setup body."""
    options = options or {}
    errors: list[tuple[str, str]] = []
    if not isinstance(options, Mapping):
        raise InvalidOptions([("/options", "must be an object")])
    if not isinstance(players, int) or isinstance(players, bool) or players != 2:
        errors.append(("/players", "Call of Katulhu is played by 2 players"))
    chance = options.get("chance", "seeded")
    if chance not in CHANCE_MODES:
        errors.append(("/options/chance", "must be 'seeded' or 'table'"))
    advanced = options.get("advanced", False)
    if not isinstance(advanced, bool):
        errors.append(("/options/advanced", "must be true or false"))
    data = options.get("catalogue")
    catalogue = DEFAULT
    try:
        catalogue = load_catalogue(data)
    except CatalogueError as bad:
        errors.extend((f"/options/catalogue{pointer}", detail) for pointer, detail in bad.errors)
    if "hands" in options:
        # Asked for by the unseen-card mode of the other games: refused with the reason.
        errors.append(("/options/hands", ("Call of Katulhu has no hands to leave unseen: every toy a player "
                                         "holds is known from their deck and what they placed, and every cat "
                                         "is turned face up; leave out hands (chance 'table' alone follows a "
                                         "physical table)")))
    errors.extend((f"/options/{name}", "unknown option")
                  for name in sorted(set(options) - set(OPTION_NAMES) - {"hands"}))
    if errors:
        raise InvalidOptions(errors)
    return Options({"chance": chance, "advanced": advanced, "catalogue": None if data is None else catalogue.data},
                   catalogue)


# ``normalise_options`` of a state's options, remembered (callers must not mutate what it
# returns): the state check reads them on every move, and states of one table share them.
state_options = options_memo(normalise_options)


def catalogue_of(state: State) -> Catalogue:
    """The compiled catalogue of a (checked) state."""
    return load_catalogue(state["options"]["catalogue"])


def options_info() -> dict:
    """The setup options with their defaults: chance, advanced, catalogue (JSON)."""
    return {
        "chance": {"default": "seeded", "enum": list(CHANCE_MODES),
                   "description": "seeded: the generator shuffles and turns up cats; table: 'reveal' moves name "
                                  "each cat turned up at a physical table (the first 5 too)"},
        "advanced": {"default": False,
                     "description": "Optional Advanced Game Rule: the 2 toys set aside in a round must be played "
                                    "the next round (a placement that breaks it is illegal)"},
        "catalogue": {"default": None,
                      "description": "null: the provisional default catalogue; or {toys: [6 ids], beats: {toy: "
                                     "[toys it beats]}, cats: [{id, colour, slots: [4 x toy|null]}], cat_count "
                                     "(default 32)}"},
    }


def describe_catalogue(options: Mapping[str, Any] | None = None) -> dict:
    """The catalogue in use for ``options`` (rulebook, Components, Setup and Scoring):
    ``{"provisional", "note", "toys", "beats", "cats", "cat_count", "open_slot", "decks",
    "set_points"}``. Raises InvalidOptions."""
    full, catalogue = normalise_options(2, options)
    provisional = full["catalogue"] is None
    data = catalogue.data
    return {
        "provisional": provisional,
        "note": PROVISIONAL_NOTE if provisional else "catalogue supplied by the caller",
        "toys": list(data["toys"]),
        "beats": {toy: list(losers) for toy, losers in data["beats"].items()},
        "cats": [dict(cat, slots=list(cat["slots"])) for cat in data["cats"]],
        "cat_count": data["cat_count"],
        "open_slot": "null in slots: that slot may hold any toy or be empty",
        "decks": list(DECK_COLOURS),
        "set_points": {colour: [set_points(colour, n) for n in range(1, 7)] for colour in COLOURS},
    }


def new_game(players: int, seed: str, options: Mapping[str, Any] | None = None) -> State:
    """Rulebook, Setup: seat 0 takes the blue toy deck, seat 1 the red one; the cat deck is
    shuffled (seeded generator) and 5 cats are put face up. With ``chance: table`` the table
    starts empty in phase "reveal" and the first 5 moves name the cats turned up. Returns the
    first state (shape: rules.py). Raises InvalidOptions."""
    full, catalogue = normalise_options(players, options)
    rng = Rng(seed)
    ids = list(catalogue.cat_ids)
    if full["chance"] == "seeded":
        rng.shuffle(ids)
        table, deck, phase = ids[:TABLE_SIZE], ids[TABLE_SIZE:], "place"
    else:
        table, deck, phase = [], sorted(ids), "reveal"
    return {
        "game": GAME_ID,
        "schema_version": SCHEMA_VERSION,
        "options": full,
        "players": [{"deck": colour, "hand": list(catalogue.toys), "placement": None, "must_play": [],
                     "discard": None, "cats": []} for colour in DECK_COLOURS],
        "table": table,
        "cat_deck": deck,
        "discard_pile": [],
        "phase": phase,
        "round": 1,
        "quiet_rounds": 0,
        "end": None,
        "finished": False,
        "rng": rng.to_state(),
    }
