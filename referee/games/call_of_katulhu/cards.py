"""Call of Katulhu card data (rulebook sections Components, Gameplay, Scoring): the catalogue and its check.

The rulebook (shared/rulebooks/call-of-katulhu.en.txt) fixes 2 decks of 6 toy cards and a deck
of 32 cat cards in 5 colours, but publishes neither the toys, nor which toy beats which (the
reference card), nor the cat cards. :data:`DEFAULT_CATALOGUE` is the provisional catalogue of
shared/games/call-of-katulhu.default-catalogue.json, copied here so that the service never reads
outside its package at run time.

A catalogue (JSON)::

    {"toys": [6 toy ids],
     "beats": {toy: [toys it beats]},           a toy beating nothing may be left out
     "cats": [{"id": str, "colour": "blue"|"red"|"yellow"|"white"|"black",
               "slots": [4 x (toy id | null)]}],  null: an open slot, any toy or none matches
     "cat_count": int}                            optional, 32 unless the caller says otherwise
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from typing import Any, NamedTuple

BASIC_COLOURS = ("blue", "red", "yellow")
ADVANCED_COLOURS = ("white", "black")
COLOURS = BASIC_COLOURS + ADVANCED_COLOURS

TOYS_PER_DECK = 6               # Components: (2) decks of 6 toy cards each
SLOTS = 4                       # Gameplay: 4 slots, filled left to right
TABLE_SIZE = 5                  # Setup: 5 cats face up
CAT_DECK_SIZE = 32              # Components: (1) deck of 32 cat cards
CATS_TO_END = 7                 # Gameplay: the first player to collect 7 cats ends the game
STALL_ROUNDS = 2                # Gameplay: 2 rounds without any cat removed
MAX_CATS = 128                  # a bound for a caller's catalogue: it is in every state (referee/limits.py)
MAX_ID_LENGTH = 40
# Toy and cat ids: a letter or digit, then letters, digits and . _ : - (at most 40 characters).
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,39}$"
_ID = re.compile(ID_PATTERN)

DECK_COLOURS = ("blue", "red")   # Setup: seat 0 takes the blue deck, seat 1 the red deck

PROVISIONAL_NOTE = ("provisional: the Call of Katulhu rulebook does not publish its reference card "
                    "(toys and which toy beats which) or its 32 cat cards; a caller may supply its own "
                    "catalogue as options.catalogue")

# Copied from shared/games/call-of-katulhu.default-catalogue.json (a test compares the two).
DEFAULT_CATALOGUE: dict = {
    "toys": ["yarn", "feather", "mouse", "laser", "catnip", "box"],
    "beats": {
        "yarn": ["feather", "mouse"],
        "feather": ["mouse", "laser"],
        "mouse": ["laser", "catnip"],
        "laser": ["catnip", "box"],
        "catnip": ["box", "yarn"],
        "box": ["yarn", "feather"],
    },
    "cats": [
        {"id": "blue-1", "colour": "blue", "slots": ["box", "mouse", "catnip", None]},
        {"id": "blue-2", "colour": "blue", "slots": [None, "laser", "yarn", "catnip"]},
        {"id": "blue-3", "colour": "blue", "slots": ["box", "yarn", None, "feather"]},
        {"id": "blue-4", "colour": "blue", "slots": ["yarn", "laser", None, "catnip"]},
        {"id": "blue-5", "colour": "blue", "slots": ["mouse", None, "feather", "yarn"]},
        {"id": "blue-6", "colour": "blue", "slots": ["laser", None, "yarn", "catnip"]},
        {"id": "blue-7", "colour": "blue", "slots": ["yarn", "laser", None, "box"]},
        {"id": "blue-8", "colour": "blue", "slots": ["laser", "catnip", None, "box"]},
        {"id": "red-1", "colour": "red", "slots": ["mouse", "laser", None, "box"]},
        {"id": "red-2", "colour": "red", "slots": ["yarn", None, "mouse", "feather"]},
        {"id": "red-3", "colour": "red", "slots": ["catnip", None, "feather", "laser"]},
        {"id": "red-4", "colour": "red", "slots": ["yarn", "box", "catnip", None]},
        {"id": "red-5", "colour": "red", "slots": ["catnip", "feather", None, "mouse"]},
        {"id": "red-6", "colour": "red", "slots": ["catnip", "box", "yarn", None]},
        {"id": "red-7", "colour": "red", "slots": ["catnip", None, "feather", "box"]},
        {"id": "red-8", "colour": "red", "slots": ["box", "mouse", None, "catnip"]},
        {"id": "yellow-1", "colour": "yellow", "slots": ["mouse", None, "feather", "laser"]},
        {"id": "yellow-2", "colour": "yellow", "slots": ["laser", "feather", "mouse", None]},
        {"id": "yellow-3", "colour": "yellow", "slots": ["mouse", "laser", None, "feather"]},
        {"id": "yellow-4", "colour": "yellow", "slots": [None, "catnip", "yarn", "laser"]},
        {"id": "yellow-5", "colour": "yellow", "slots": [None, "mouse", "box", "yarn"]},
        {"id": "yellow-6", "colour": "yellow", "slots": ["mouse", None, "laser", "catnip"]},
        {"id": "yellow-7", "colour": "yellow", "slots": ["mouse", None, "catnip", "box"]},
        {"id": "yellow-8", "colour": "yellow", "slots": [None, "feather", "laser", "box"]},
        {"id": "white-1", "colour": "white", "slots": ["laser", "feather", "yarn", "box"]},
        {"id": "white-2", "colour": "white", "slots": ["feather", "catnip", "yarn", "mouse"]},
        {"id": "white-3", "colour": "white", "slots": ["yarn", "box", "mouse", "laser"]},
        {"id": "white-4", "colour": "white", "slots": ["laser", "mouse", "feather", "catnip"]},
        {"id": "black-1", "colour": "black", "slots": ["catnip", "yarn", "box", "mouse"]},
        {"id": "black-2", "colour": "black", "slots": ["catnip", "feather", "box", "yarn"]},
        {"id": "black-3", "colour": "black", "slots": ["feather", "laser", "yarn", "mouse"]},
        {"id": "black-4", "colour": "black", "slots": ["yarn", "mouse", "catnip", "box"]},
    ],
    "cat_count": CAT_DECK_SIZE,
}


class CatCard(NamedTuple):
    """A cat card as printed: its colour, and the toy each of its 4 slots shows (None: an open slot)."""

    colour: str
    slots: tuple[str | None, ...]


class ShownToys(NamedTuple):
    """The toys a cat shows, for matching: ``pick`` takes the cat's shown slots from 4 slots
    (itemgetter: a single item for one shown slot, a tuple for several), ``toys`` is what the
    cat shows there, in the same shape."""

    pick: Callable[[Any], Any]
    toys: Any

    def attracted_by(self, kept: list) -> bool:
        """Whether toys ``kept`` (4 slots, None where a toy was removed) attract the cat:
        the toy in every slot it shows matches (rulebook, Gameplay)."""
        return self.pick(kept) == self.toys


@dataclass(frozen=True)
class Catalogue:
    """A checked catalogue, ready for the rules.

    ``toys``: the 6 toy ids in catalogue order; ``beats``: set of (winner, loser) pairs;
    ``cats``: id -> its :class:`CatCard`; ``cat_ids``: ids in catalogue order; ``data``: the
    canonical JSON form (the one kept in a state's options); ``shown``: id -> the
    :class:`ShownToys` that tell which toys attract it.
    """

    toys: tuple[str, ...]
    toy_set: frozenset[str]
    beats: frozenset[tuple[str, str]]
    cats: Mapping[str, CatCard]
    cat_ids: tuple[str, ...]
    cat_set: frozenset[str]
    data: dict
    shown: Mapping[str, ShownToys] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shown", {cat: _shown_slots(card.slots) for cat, card in self.cats.items()})

    def colour(self, cat: str) -> str:
        """The colour of cat ``cat``."""
        return self.cats[cat].colour


def _shown_slots(slots: tuple[str | None, ...]) -> ShownToys:
    """The shown slots of a cat (a cat shows at least one toy)."""
    places = [index for index, toy in enumerate(slots) if toy is not None]
    pick = itemgetter(*places)
    return ShownToys(pick, pick(slots))


class CatalogueError(ValueError):
    """A catalogue that makes no sense; ``errors`` is ``[(json_pointer, detail)]`` relative to
    the catalogue itself (prefix it with where the catalogue sits)."""

    def __init__(self, errors: list[tuple[str, str]]):
        self.errors = errors
        super().__init__("; ".join(f"{p or '/'}: {d}" for p, d in errors))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def check_catalogue(data: Any) -> Catalogue:
    """Check a caller's catalogue and return it compiled; raises CatalogueError with pointers.

    Refused: not an object or unknown fields; toys that are not 6 distinct ids; a beats entry
    naming an unknown toy, a toy beating itself, a toy listed twice, or two toys beating each
    other; cats that are not objects of id/colour/slots; duplicate or empty ids; an unknown
    colour; slots that are not 4 entries of known toy ids or null; a cat showing the same toy
    twice (4 different toys are placed, so it could never be attracted); a cat showing no toy
    at all; fewer than 5 cats (the table holds 5); a cat count other than ``cat_count`` (32
    unless given).
    """
    errors: list[tuple[str, str]] = []
    if not isinstance(data, dict):
        raise CatalogueError([("", "must be an object {toys, beats, cats[, cat_count]}")])
    for key in sorted(set(data) - {"toys", "beats", "cats", "cat_count"}):
        errors.append((f"/{key}", "unknown field"))
    toys = data.get("toys")
    if (not isinstance(toys, list) or len(toys) != TOYS_PER_DECK
            or not all(_is_id(t) for t in toys)):
        raise CatalogueError(errors + [("/toys", (f"must list {TOYS_PER_DECK} toy ids (letters, digits and . _ : -, "
                                                  f"at most {MAX_ID_LENGTH} characters)"))])
    if len(set(toys)) != len(toys):
        raise CatalogueError(errors + [("/toys", "each toy is listed once")])
    toy_set = frozenset(toys)

    beats_in = data.get("beats")
    pairs: set[tuple[str, str]] = set()
    if not isinstance(beats_in, dict):
        errors.append(("/beats", "must be an object: toy -> list of the toys it beats"))
        beats_in = {}
    for winner, losers in beats_in.items():
        where = f"/beats/{winner}"
        if winner not in toy_set:
            errors.append((where, f"unknown toy {winner!r}"))
            continue
        if not isinstance(losers, list):
            errors.append((where, "must be a list of toy ids"))
            continue
        for i, loser in enumerate(losers):
            if loser not in toy_set:
                errors.append((f"{where}/{i}", f"unknown toy {loser!r}"))
            elif loser == winner:
                errors.append((f"{where}/{i}", f"toy {winner} cannot beat itself"))
            elif (winner, loser) in pairs:
                errors.append((f"{where}/{i}", f"{loser} is listed twice"))
            else:
                pairs.add((winner, loser))
    for winner, loser in sorted(pairs):
        if (loser, winner) in pairs and winner < loser:
            errors.append((f"/beats/{winner}", f"{winner} and {loser} cannot beat each other"))

    cats_in = data.get("cats")
    cats: dict[str, CatCard] = {}
    cat_ids: list[str] = []
    canonical_cats: list[dict] = []
    if not isinstance(cats_in, list):
        errors.append(("/cats", "must be a list of cats {id, colour, slots}"))
        cats_in = []
    for i, cat in enumerate(cats_in):
        where = f"/cats/{i}"
        if not isinstance(cat, dict):
            errors.append((where, "must be an object {id, colour, slots}"))
            continue
        for key in sorted(set(cat) - {"id", "colour", "slots"}):
            errors.append((f"{where}/{key}", "unknown field"))
        cat_id = cat.get("id")
        colour = cat.get("colour")
        slots = cat.get("slots")
        good = True
        if not _is_id(cat_id):
            errors.append((f"{where}/id", f"must be letters, digits and . _ : -, at most {MAX_ID_LENGTH} characters"))
            good = False
        elif cat_id in cats:
            errors.append((f"{where}/id", f"cat id {cat_id} is used twice"))
            good = False
        if colour not in COLOURS:
            errors.append((f"{where}/colour", f"must be one of {', '.join(COLOURS)}"))
            good = False
        if not isinstance(slots, list) or len(slots) != SLOTS:
            errors.append((f"{where}/slots", f"must list {SLOTS} slots, each a toy id or null (open)"))
            good = False
        else:
            shown = []
            for s, toy in enumerate(slots):
                if toy is None:
                    continue
                if toy not in toy_set:
                    errors.append((f"{where}/slots/{s}", f"unknown toy {toy!r}"))
                    good = False
                elif toy in shown:
                    errors.append((f"{where}/slots/{s}", (f"toy {toy} is shown twice; a player places 4 different "
                                                          "toys, so no one could attract this cat")))
                    good = False
                shown.append(toy)
            if not shown:
                errors.append((f"{where}/slots", "a cat shows at least one toy"))
                good = False
        if good:
            cats[cat_id] = CatCard(colour, tuple(slots))
            cat_ids.append(cat_id)
            canonical_cats.append({"id": cat_id, "colour": colour, "slots": list(slots)})

    count = data.get("cat_count", CAT_DECK_SIZE)
    if not _is_int(count) or not TABLE_SIZE <= count <= MAX_CATS:
        errors.append(("/cat_count", (f"must be a whole number from {TABLE_SIZE} (the cats on the table) to "
                                      f"{MAX_CATS}")))
    elif isinstance(data.get("cats"), list) and len(data["cats"]) != count:
        errors.append(("/cats", (f"lists {len(data['cats'])} cats, but the catalogue has {count} (set cat_count "
                                 "to play with another number)")))
    if errors:
        raise CatalogueError(errors)
    canonical = {
        "toys": list(toys),
        "beats": {toy: [loser for loser in toys if (toy, loser) in pairs] for toy in toys},
        "cats": canonical_cats,
        "cat_count": count,
    }
    return Catalogue(tuple(toys), toy_set, frozenset(pairs), cats, tuple(cat_ids), frozenset(cat_ids), canonical)


@lru_cache(maxsize=64)
def _check_cached(key: str) -> Catalogue:
    return check_catalogue(json.loads(key))


# The same catalogue object travels from state to state (copies share it): remember the last
# few by identity, keeping a reference so that an id is never reused while it is remembered.
_BY_IDENTITY: dict[int, tuple[Any, Catalogue]] = {}


def load_catalogue(data: Any) -> Catalogue:
    """The compiled catalogue for ``data`` (None: the default). Cached; raises CatalogueError."""
    if data is None:
        return DEFAULT
    known = _BY_IDENTITY.get(id(data))
    if known is not None and known[0] is data:
        return known[1]
    try:
        key = json.dumps(data, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        raise CatalogueError([("", "must be JSON")]) from None
    compiled = _check_cached(key)
    if len(_BY_IDENTITY) >= 64:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[id(data)] = (data, compiled)
    return compiled


DEFAULT = check_catalogue(DEFAULT_CATALOGUE)


def set_points(colour: str, size: int) -> int:
    """Points of a set of ``size`` cats of ``colour`` (rulebook, Scoring).

    Blue, red, yellow: 2 per cat plus 1 bonus per earlier cat of the set (1: 2, 2: 5, 3: 9,
    4: 14). White, black: 4 per cat plus, from 2 cats on, size x size (1: 4, 2: 12, 3: 21, 4: 32).
    """
    if size <= 0:
        return 0
    if colour in ADVANCED_COLOURS:
        return 4 * size + (size * size if size >= 2 else 0)
    return 2 * size + size * (size - 1) // 2
