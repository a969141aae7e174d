"""CATATAC card data: the board, the 58 paw cards, the 8 points cards (base game).

Card effects are data, not code. A card kind has activation ``conditions`` and an action
block made of ``rows`` read from top to bottom. A row holds one or more options; a row with
two options or more is a bar (choose one side). An option has its own extra ``conditions``
(empty in the base game; a booster card such as Schrodinger has a bar over conditions) and
a tuple of ``effects``. An effect is a tuple: ``("movement", distance)``, ``("stash", from)``,
``("steal",)``, ``("counter",)``, ``("coin_flip",)``, and with the boosters ``("skip",)``
(the next player's turn is skipped) and ``("replay",)`` (play another card at once).

Paw card ids: plain cards ``P<number>-<copy>`` (``P3-1`` .. ``P3-4``); named cards
``<name>-<number>`` (``charge-1``, ``stop-5``, ``miracle-6``); Jokers ``joker-1``, ``joker-2``.
Points card ids: ``green``, ``blue``, ``yellow``, ``red``, ``grey``, ``multicolour``,
``black-ball``, ``white-ball``. Source: shared/games/catatac-cards.md.

Boosters (same sources): Distraction and Momentum each bring 8 paw cards (ids in the same
``<name>-<number>`` form: ``brute-1``, ``duo-2``...), one points card (``purple``,
``yellow-momentum``) and two alpha cards (``bengal-white``/``bengal-black``,
``ragdoll-white``/``ragdoll-black``); Alpha brings 6 alpha cards (``angora-white``,
``maine-coon``, ``manx``, ``angora-black``, ``laperm``, ``lykoi``) and 2 points cards
(``pasta-left``, ``pasta-right``). Alpha cards are Kinds too (``alpha`` set, no number).
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
    alpha: str | None = None  # the clan colour of an alpha card, None for a paw card
    sardines: int = 0  # sardines printed on an alpha card (Manx, Lykoi)

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
SKIP: Effect = ("skip",)
REPLAY: Effect = ("replay",)


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


_KINDS_AND_ORDER = _build()
KINDS = _KINDS_AND_ORDER[0]
ALL_PAW_CARDS = _KINDS_AND_ORDER[1]


@lru_cache(maxsize=4)
def paw_cards(kittens: bool) -> tuple[str, ...]:
    """The paw deck in catalogue order: all 58 cards, or for the Kittens variant (Variants:
    "only the paw cards numbered 1 to 5") the 35 cards numbered 1 to 5, named ones included;
    a Joker shows a J, not a number, so it leaves too."""
    if not kittens:
        return ALL_PAW_CARDS
    return tuple(c for c in ALL_PAW_CARDS if KINDS[c].number in KITTEN_NUMBERS)


@lru_cache(maxsize=4)
def paw_set(kittens: bool) -> frozenset[str]:
    return frozenset(paw_cards(kittens))


# -- Boosters -----------------------------------------------------------------------------

DISTRACTION = "distraction"
ALPHA = "alpha"
MOMENTUM = "momentum"
BOOSTERS = (DISTRACTION, ALPHA, MOMENTUM)  # the rulebook's recommended order (A, B, C)
PAW_BOOSTERS = (DISTRACTION, MOMENTUM)  # the boosters that bring paw cards
REMOVED_PER_BOOSTER = 2  # paw cards blindly put back in the box at setup

# Booster paw cards: (booster, key, name, numbers, conditions, rows, cooperation icon).
BOOSTER_NAMED = (
    (DISTRACTION, "brute", "Brute", (1,), (POSSESSION,), (row(stash(3)),), False),
    (DISTRACTION, "bicycle", "Bicycle", (2,), (ENEMY_POSSESSION,), (row(COUNTER), row(SKIP)), False),
    (DISTRACTION, "dribble", "Dribble", (3, 4), (POSSESSION,), (row(movement(1)), row(SKIP)), False),
    (DISTRACTION, "rat", "Rat", (5,), (), (row(SKIP),), False),
    (DISTRACTION, "zzzz", "Zzzz", (6,), (), (row(SKIP),), False),
    (DISTRACTION, "surprise", "Surprise", (7,), (ENEMY_POSSESSION,), (row(STEAL), row(SKIP)), False),
    (DISTRACTION, "ninja", "Ninja", (8,), (POSSESSION,), (row(stash(1)),), True),
    (MOMENTUM, "challenge", "Challenge", (1,), (ENEMY_POSSESSION,), (row(COUNTER), row(REPLAY)), False),
    (MOMENTUM, "duo", "Duo", (2, 3), (), (row(REPLAY),), False),
    (MOMENTUM, "accident", "Accident", (4,), (ENEMY_POSSESSION,), (row(STEAL), row(stash(1))), False),
    (MOMENTUM, "reflexes", "Reflexes", (5,), (POSSESSION,), (bar((stash(1),), (stash(2),)),), False),
    (MOMENTUM, "mission", "Mission", (6,), (), (row(COIN_FLIP), row(movement(1))), False),
    (MOMENTUM, "schrodinger", "Schrodinger", (7,), (),
     ((Option((ENEMY_POSSESSION,), (COUNTER,)), Option((POSSESSION,), (stash(2),))),), False),
    (MOMENTUM, "agile", "Agile", (8,), (ENEMY_POSSESSION,), (row(STEAL), row(movement(1)), row(REPLAY)), False),
)

_STEAL_MOVE_STASH = (bar((STEAL,), (movement(1),), (stash(1),)),)
_MOVE_2_OR_1 = (bar((movement(2),), (movement(1),)),)

# Alpha cards: (id, name, clan, conditions, rows, sardines, booster that brings it).
ALPHA_CARDS = (
    ("angora-white", "Angora", "white", (ENEMY_POSSESSION,), (row(COUNTER), row(STEAL)), 0, ALPHA),
    ("maine-coon", "Maine Coon", "white", (), _STEAL_MOVE_STASH, 0, ALPHA),
    ("manx", "Manx", "white", (), _MOVE_2_OR_1, 1, ALPHA),
    ("angora-black", "Angora", "black", (ENEMY_POSSESSION,), (row(COUNTER), row(STEAL)), 0, ALPHA),
    ("laperm", "LaPerm", "black", (), _STEAL_MOVE_STASH, 0, ALPHA),
    ("lykoi", "Lykoi", "black", (), _MOVE_2_OR_1, 1, ALPHA),
    ("bengal-white", "Bengal", "white", (POSSESSION,), (row(movement(1)), row(SKIP)), 0, DISTRACTION),
    ("bengal-black", "Bengal", "black", (POSSESSION,), (row(movement(1)), row(SKIP)), 0, DISTRACTION),
    ("ragdoll-white", "Ragdoll", "white", (), (row(movement(1)), row(COIN_FLIP), row(REPLAY)), 0, MOMENTUM),
    ("ragdoll-black", "Ragdoll", "black", (), (row(movement(1)), row(COIN_FLIP), row(REPLAY)), 0, MOMENTUM),
)


def _build_boosters() -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    contents: dict[str, list[str]] = {b: [] for b in PAW_BOOSTERS}
    alpha_booster: dict[str, str] = {}
    for booster, key, name, numbers, conditions, rows, coop in BOOSTER_NAMED:
        for n in numbers:
            card = f"{key}-{n}"
            KINDS[card] = Kind(card, name, n, conditions, rows, coop)
            contents[booster].append(card)
    for card, name, clan, conditions, rows, fish, booster in ALPHA_CARDS:
        KINDS[card] = Kind(card, name, None, conditions, rows, alpha=clan, sardines=fish)
        alpha_booster[card] = booster
    return {b: tuple(c) for b, c in contents.items()}, alpha_booster


_BOOSTER_KINDS = _build_boosters()
BOOSTER_PAW_CARDS = _BOOSTER_KINDS[0]
ALPHA_BOOSTER = _BOOSTER_KINDS[1]
ALPHA_IDS = tuple(card for card, *_ in ALPHA_CARDS)

# A paw card's kind is what is printed on it: identical copies are one kind (``P3``: a plain 3,
# ``joker``: a Joker), a named card is its own kind (``charge-1``). Unseen hands name cards by
# kind; the plain kinds and the Joker are Kinds of their own name too.
KINDS.update({f"P{n}": KINDS[f"P{n}-1"] for n in NUMBERS})
KINDS["joker"] = JOKER


def kind_of(card: str) -> str:
    """The kind of a paw card id or kind (``"P3-2"`` -> ``"P3"``, ``"joker-1"`` -> ``"joker"``,
    ``"charge-1"`` -> ``"charge-1"``). KeyError for an unknown card."""
    return KINDS[card].key


@lru_cache(maxsize=32)
def kind_counts(kittens: bool, boosters: tuple[str, ...] = ()) -> dict[str, int]:
    """Copies of each paw card kind in the game's boxes, in catalogue order. Do not mutate."""
    counts: dict[str, int] = {}
    for card in game_paw_cards(kittens, boosters):
        key = KINDS[card].key
        counts[key] = counts.get(key, 0) + 1
    return counts


def canonical_boosters(boosters) -> tuple[str, ...]:
    """The boosters in play, in the rulebook's order (A Distraction, B Alpha, C Momentum)."""
    chosen = set(boosters or ())
    return tuple(b for b in BOOSTERS if b in chosen)


@lru_cache(maxsize=32)
def booster_paw_cards(booster: str, kittens: bool) -> tuple[str, ...]:
    """A paw booster's contents (Kittens: only those numbered 1 to 5)."""
    return tuple(c for c in BOOSTER_PAW_CARDS[booster] if not kittens or KINDS[c].number in KITTEN_NUMBERS)


@lru_cache(maxsize=32)
def game_paw_cards(kittens: bool, boosters: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Every paw card of the game's boxes: the base deck plus each paw booster's full
    contents (the 2 removed unseen included)."""
    cards = list(paw_cards(kittens))
    for booster in PAW_BOOSTERS:
        if booster in boosters:
            cards.extend(booster_paw_cards(booster, kittens))
    return tuple(cards)


def paw_deck_size(kittens: bool, boosters: tuple[str, ...] = ()) -> int:
    """How many paw cards are shuffled at setup: the game's paw cards less those each paw
    booster puts back in the box unseen."""
    removed = sum(min(REMOVED_PER_BOOSTER, len(booster_paw_cards(b, kittens))) for b in PAW_BOOSTERS if b in boosters)
    return len(game_paw_cards(kittens, boosters)) - removed


@lru_cache(maxsize=32)
def game_paw_set(kittens: bool, boosters: tuple[str, ...] = ()) -> frozenset[str]:
    return frozenset(game_paw_cards(kittens, boosters))


@lru_cache(maxsize=16)
def alpha_pile(clan: str, boosters: tuple[str, ...]) -> tuple[str, ...]:
    """A clan's alpha pile (empty without Booster B): its Angora, its two Alpha cats, and
    Bengal / Ragdoll when Distraction / Momentum is in play as well."""
    if ALPHA not in boosters:
        return ()
    return tuple(c for c in ALPHA_IDS if KINDS[c].alpha == clan and ALPHA_BOOSTER[c] in boosters)


@lru_cache(maxsize=16)
def alpha_set(boosters: tuple[str, ...]) -> frozenset[str]:
    return frozenset(alpha_pile("white", boosters) + alpha_pile("black", boosters))


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

# Booster points cards. Pasta: the left half is worth 3 instead of 1 when the same clan also
# holds the right half (see clan_points).
BOOSTER_POINTS = {
    DISTRACTION: {"purple": (2, 2, 0)},
    ALPHA: {"pasta-left": (1, 1, 1), "pasta-right": (1, 1, 0)},
    MOMENTUM: {"yellow-momentum": (1, 1, 1)},
}
PASTA_LEFT, PASTA_RIGHT, PASTA_BOTH = "pasta-left", "pasta-right", 3
for _cards in BOOSTER_POINTS.values():
    POINTS_CARDS.update(_cards)
ALL_POINTS_IDS = tuple(POINTS_CARDS)


@lru_cache(maxsize=16)
def points_ids(boosters: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The points cards in use: the 8 of the base game, then each booster's."""
    return POINTS_IDS + tuple(c for b in BOOSTERS if b in boosters for c in BOOSTER_POINTS[b])


@lru_cache(maxsize=16)
def points_set(boosters: tuple[str, ...] = ()) -> frozenset[str]:
    return frozenset(points_ids(boosters))


def points_value(card: str, clan: str) -> int:
    """Points of ``card`` for ``clan`` (a two-valued card gives the value of the clan's colour)."""
    white, black, _ = POINTS_CARDS[card]
    return white if clan == "white" else black


def sardines(card: str) -> int:
    return POINTS_CARDS[card][2]


def clan_points(cards, clan: str) -> int:
    """The points of a clan's points cards; Pasta's left half is worth 3 with the right half."""
    total = sum(points_value(card, clan) for card in cards)
    if PASTA_LEFT in cards and PASTA_RIGHT in cards:
        total += PASTA_BOTH - points_value(PASTA_LEFT, clan)
    return total


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


def alpha_json(card: str) -> dict:
    """An alpha card as JSON for the catalogue."""
    kind = KINDS[card]
    entry = kind_json(card)
    del entry["number"], entry["joker"]
    entry.update(clan=kind.alpha, sardines=kind.sardines, booster=ALPHA_BOOSTER[card])
    return entry
