"""CATATAC card data: the board, the 58 paw cards, the 8 points cards (base game).

Card effects are data, not code. A card kind has activation ``conditions`` and an action
block made of ``rows`` read from top to bottom. A row holds one or more options; a row with
two options or more is a bar (choose one side). An option has its own extra ``conditions``
(empty in the base game; a booster card such as Schrodinger has a bar over conditions) and
a tuple of ``effects``. An effect is a tuple: ``("movement", distance)``, ``("stash", from)``,
``("steal",)``, ``("counter",)``, ``("coin_flip",)``. Boosters add kinds (and effects such
as ``("skip",)`` or ``("replay",)``) here, without a new engine.

Paw card ids: plain cards ``P<number>-<copy>`` (``P3-1`` .. ``P3-4``); named cards
``<name>-<number>`` (``charge-1``, ``stop-5``, ``miracle-6``); Jokers ``joker-1``, ``joker-2``.
Points card ids: ``green``, ``blue``, ``yellow``, ``red``, ``grey``, ``multicolour``,
``black-ball``, ``white-ball``. Source: shared/games/catatac-cards.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

# The board in a line (rulebook, Setup: Prepare the Board). Indexes 0..4.
SPOTS = ("black_hideout", "black_alley", "neutral_alley", "white_alley", "white_hideout")
SPOT_INDEX = {spot: i for i, spot in enumerate(SPOTS)}
ALLEYS = (1, 2, 3)
NEUTRAL = 2
CLANS = ("white", "black")
ENEMY = {"white": "black", "black": "white"}
HIDEOUT = {"black": 0, "white": 4}
# Direction names of a movement: toward the black side (index down) or the white side (up).
DIRECTIONS = {"black": -1, "white": 1}
# The coin of the portable generator: Rng.coin() 0 shows white, 1 shows black.
COIN_FACES = ("white", "black")

HAND_SIZE = 6
NUMBERS = range(1, 9)
KITTEN_NUMBERS = range(1, 6)
PLAIN_COPIES = 4

POSSESSION = "possession"
ENEMY_POSSESSION = "enemy_possession"
CONDITIONS = (POSSESSION, ENEMY_POSSESSION)

Effect = tuple


@dataclass(frozen=True)
class Option:
    """One side of a bar (or the only content of a row): extra conditions, then effects."""

    conditions: tuple[str, ...]
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Kind:
    """What a paw card does. ``number`` is None for a Joker. ``rows``: the action block."""

    key: str
    name: str
    number: int | None
    conditions: tuple[str, ...] = ()
    rows: tuple[tuple[Option, ...], ...] = ()
    cooperation: bool = False
    joker: bool = False

    @property
    def counter_icon(self) -> bool:
        """Whether the card bears the counter icon (may answer a stash attempt)."""
        return any(effect[0] == "counter" for row in self.rows for opt in row for effect in opt.effects)

    @property
    def bars(self) -> tuple[int, ...]:
        """Indexes of the rows that are bars (two sides or more)."""
        return tuple(i for i, row in enumerate(self.rows) if len(row) > 1)


def movement(distance: int) -> Effect:
    return ("movement", distance)


def stash(start: int) -> Effect:
    return ("stash", start)


STEAL: Effect = ("steal",)
COUNTER: Effect = ("counter",)
COIN_FLIP: Effect = ("coin_flip",)


def row(*effects: Effect) -> tuple[Option, ...]:
    """A row without a bar."""
    return (Option((), tuple(effects)),)


def bar(*sides: tuple[Effect, ...]) -> tuple[Option, ...]:
    """A bar: each side is a group of effects."""
    return tuple(Option((), tuple(side)) for side in sides)


# Named cards of the base game: (name, numbers, conditions, rows, cooperation icon).
NAMED = (
    ("charge", "Charge", (1, 2, 3, 4), (POSSESSION,), (row(movement(1)),), False),
    ("sprint", "Sprint", (1, 2), (POSSESSION,), (bar((movement(2),), (movement(1),)),), False),
    ("stop", "!Stop!", (1, 5), (ENEMY_POSSESSION,), (row(COUNTER), row(COIN_FLIP)), False),
    ("capture", "Capture", (2, 3, 4, 5), (ENEMY_POSSESSION,), (row(STEAL),), False),
    ("smash", "Smash!", (3, 4, 5), (POSSESSION,), (row(stash(1)),), False),
    ("courage", "Courage", (6, 7, 8), (ENEMY_POSSESSION,), (row(movement(1)),), False),
    ("impact", "Impact", (6, 7), (POSSESSION,), (row(stash(2)),), False),
    ("miracle", "Miracle", (6, 7), (ENEMY_POSSESSION,), (row(COUNTER),), True),
    ("bingo", "Bingo", (8,), (POSSESSION,), (bar((movement(1),), (stash(1),)),), False),
    ("fido", "Fido", (8,), (ENEMY_POSSESSION,), (bar((movement(2),), (movement(1),)),), False),
)

JOKER = Kind("joker", "Joker", None, joker=True)


def _build() -> tuple[dict[str, Kind], tuple[str, ...]]:
    kinds: dict[str, Kind] = {}
    order: list[str] = []
    plain = {n: Kind(f"P{n}", str(n), n) for n in NUMBERS}
    for n in NUMBERS:
        for copy in range(1, PLAIN_COPIES + 1):
            card = f"P{n}-{copy}"
            kinds[card] = plain[n]
            order.append(card)
        for key, name, numbers, conditions, rows, coop in NAMED:
            if n in numbers:
                card = f"{key}-{n}"
                kinds[card] = Kind(card, name, n, conditions, rows, coop)
                order.append(card)
    for copy in (1, 2):
        card = f"joker-{copy}"
        kinds[card] = JOKER
        order.append(card)
    return kinds, tuple(order)


KINDS, ALL_PAW_CARDS = _build()


@lru_cache(maxsize=4)
def paw_cards(kittens: bool) -> tuple[str, ...]:
    """The paw deck in catalogue order: all 58 cards, or for the Kittens variant the 35 cards
    numbered 1 to 5 plus the 2 Jokers (rules notes)."""
    if not kittens:
        return ALL_PAW_CARDS
    return tuple(c for c in ALL_PAW_CARDS if KINDS[c].joker or KINDS[c].number in KITTEN_NUMBERS)


@lru_cache(maxsize=4)
def paw_set(kittens: bool) -> frozenset[str]:
    return frozenset(paw_cards(kittens))


# Points cards: id -> (points for the White clan, points for the Black clan, sardines).
POINTS_CARDS = {
    "green": (0, 0, 1),
    "blue": (1, 1, 1),
    "yellow": (1, 1, 1),
    "red": (1, 1, 1),
    "grey": (1, 1, 0),
    "multicolour": (2, 2, 0),
    "black-ball": (1, 2, 0),
    "white-ball": (2, 1, 0),
}
POINTS_IDS = tuple(POINTS_CARDS)
POINTS_SET = frozenset(POINTS_IDS)


def points_value(card: str, clan: str) -> int:
    """Points of ``card`` for ``clan`` (a two-valued card gives the value of the clan's colour)."""
    white, black, _ = POINTS_CARDS[card]
    return white if clan == "white" else black


def sardines(card: str) -> int:
    return POINTS_CARDS[card][2]


def effect_json(effect: Effect) -> dict:
    """An effect as JSON for the catalogue."""
    kind = effect[0]
    if kind == "movement":
        return {"effect": "movement", "distance": effect[1]}
    if kind == "stash":
        return {"effect": "stash_attempt", "from": effect[1]}
    return {"effect": kind}


def kind_json(card: str) -> dict:
    """A paw card as JSON for the catalogue."""
    kind = KINDS[card]
    return {
        "id": card,
        "name": kind.name,
        "number": kind.number,
        "joker": kind.joker,
        "conditions": list(kind.conditions),
        "block": [
            [{"conditions": list(opt.conditions), "effects": [effect_json(e) for e in opt.effects]} for opt in r]
            for r in kind.rows
        ],
        "counter_icon": kind.counter_icon,
        "cooperation": kind.cooperation,
    }
