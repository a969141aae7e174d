"""Scratch & Catch, rulebook section Setup: the options a table plays with, and the deal.

Each player is dealt 4 cards and receives the fleas of the table (by player count, cards.py);
the next 4 cards go on the line in ascending order; the rest form the draw pile. With chance
"table" a deal seen at a physical table may be sent (``options.deal``); with unseen hands it
names only the line, by kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from referee.engine.core import InvalidOptions, State
from referee.engine.options import HANDS_MODES, hands_errors
from referee.engine.places import unknown_id
from referee.engine.rng import Rng
from referee.games.scratch_and_catch.cards import (
    DEFAULT_CAT_COUNTS,
    DEFAULT_SCRATCH_COUNTS,
    HAND_SIZE,
    LINE_AT_SETUP,
    STARTING_FLEAS,
    card_value,
    deck_ids,
    is_scratch,
    kind_counts,
    kind_of,
)
from referee.games.scratch_and_catch.line import place_card

GAME_ID = "scratch-and-catch"
SCHEMA_VERSION = 1

CHANCE_MODES = ("seeded", "table")


class Deck(NamedTuple):
    """How many cards of each number 1 to 10 the deck holds, Cat and Scratch."""

    cat: tuple[int, ...]
    scratch: tuple[int, ...]


def deck_of(options: Mapping[str, Any]) -> Deck:
    """The deck of a state's (or normalised) options."""
    deck = options["deck"]
    return Deck(tuple(deck["cat"]), tuple(deck["scratch"]))


def hands_unseen(state: State) -> bool:
    """Whether the table does not see the hands (cards named by kind, hidden cards null)."""
    return state["options"].get("hands") == "unseen"


def normalise_options(players: Any, options: Mapping[str, Any] | None, for_setup: bool = True) -> dict:
    """Full options from what the caller gave; raises InvalidOptions with pointers. The deck
    must be large enough to deal only at setup (hand-recorded positions may use a small deck)."""
    options = dict(options or {})
    errors: list[tuple[str, str]] = []
    if not isinstance(players, int) or isinstance(players, bool) or players not in STARTING_FLEAS:
        errors.append(("/players", "Scratch & Catch is played by 2 to 6 players"))
    chance = options.get("chance", "seeded")
    if chance not in CHANCE_MODES:
        errors.append(("/options/chance", "must be 'seeded' or 'table'"))
    deck = options.get("deck") or {}
    if not isinstance(deck, dict):
        errors.append(("/options/deck", "must be an object of counts (cat, scratch)"))
        deck = {}
    cat = deck.get("cat", list(DEFAULT_CAT_COUNTS))
    scratch = deck.get("scratch", list(DEFAULT_SCRATCH_COUNTS))
    for name, counts in (("cat", cat), ("scratch", scratch)):
        if (not isinstance(counts, list) or len(counts) != 10
                or any(not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 99 for n in counts)):
            errors.append((f"/options/deck/{name}", "must list 10 counts (numbers 1 to 10), each 0 to 99"))
    if for_setup and not errors and isinstance(players, int):
        total = sum(cat) + sum(scratch)
        needed = HAND_SIZE * players + LINE_AT_SETUP
        if total < needed:
            errors.append(("/options/deck",
                           f"a deck of {total} cards cannot deal {players} hands and the line ({needed} cards)"))
    score_scratch = options.get("scratch_cards_score", False)
    if not isinstance(score_scratch, bool):
        errors.append(("/options/scratch_cards_score", "must be true or false"))
    unknown = set(options) - {"chance", "deck", "scratch_cards_score", "deal", "hands"}
    errors.extend((f"/options/{name}", "unknown option") for name in sorted(unknown))
    errors.extend(hands_errors(options, chance))
    if errors:
        raise InvalidOptions(errors)
    full = {"chance": chance, "deck": {"cat": list(cat), "scratch": list(scratch)},
            "scratch_cards_score": score_scratch}
    if options.get("hands") == "unseen":
        full["hands"] = "unseen"
    return full


def options_info() -> dict:
    """The setup options with their defaults and descriptions (JSON): chance, deck,
    scratch_cards_score, hands, deal."""
    return {
        "chance": {"default": "seeded", "enum": list(CHANCE_MODES),
                   "description": "seeded: the generator deals and draws; table: moves name the cards seen at a "
                                  "physical table"},
        "deck": {"default": {"cat": list(DEFAULT_CAT_COUNTS), "scratch": list(DEFAULT_SCRATCH_COUNTS)},
                 "description": "cards of each number 1 to 10 (provisional default: 64 Cat, 12 Scratch)"},
        "scratch_cards_score": {"default": False,
                                "description": "collected Scratch cards score 1 point like Cat cards (a house "
                                               "reading; the rulebook counts Cat cards only)"},
        "hands": {"default": "seen", "enum": list(HANDS_MODES),
                  "description": "unseen (with chance table): the table sees only face-up cards; hands and the "
                                 "draw pile are null, cards are named by kind (C5, S6), the refill is automatic"},
        "deal": {"default": None,
                 "description": "table chance only: {hands: [[ids]...], line: [ids]} as dealt at the table "
                                "(unseen hands: {line: [4 kinds]} only). "
                                "Without it the referee deals from the seed (the table then deals those "
                                "cards); a table that shuffled its own cards sends what it dealt"},
    }


def describe_catalogue(options: Mapping[str, Any] | None = None) -> dict:
    """The deck in use (rulebook, Components and Setup): ``{"provisional", "note", "counts",
    "cards": [{"id", "number", "kind"}], "kinds": [{"kind", "number", "type", "count"}],
    "starting_fleas"}``; a kind is a card as printed (``C5``: a Cat 5), the name unseen hands
    use. Raises InvalidOptions."""
    full = normalise_options(2, options)
    cat, scratch = deck_of(full)
    return {
        "provisional": cat == DEFAULT_CAT_COUNTS and scratch == DEFAULT_SCRATCH_COUNTS,
        "note": "the rulebook fixes 76 cards (64 Cat, 12 Scratch) numbered 1 to 10, not how many of each number",
        "counts": full["deck"],
        "cards": [{"id": card, "number": card_value(card), "kind": "scratch" if is_scratch(card) else "cat"}
                  for card in deck_ids(cat, scratch)],
        "kinds": [{"kind": kind, "number": card_value(kind), "type": "scratch" if is_scratch(kind) else "cat",
                   "count": count} for kind, count in kind_counts(cat, scratch).items()],
        "starting_fleas": {str(k): v for k, v in STARTING_FLEAS.items()},
    }


class Deal(NamedTuple):
    """What setup lays out: each seat's hand, the line's cards (in the order dealt), the draw pile."""

    hands: list[list]
    line: list
    draw_pile: list


def new_game(players: int, seed: str, options: Mapping[str, Any] | None = None) -> State:
    """Rulebook, Setup: deal 4 cards each (round robin from seat 0), give the fleas of the
    table, put the next 4 cards on the line in ascending order; the rest is the draw pile.
    With ``chance: table``, ``options.deal`` gives the hands and line seen at the table.
    Returns the first state (shape: rules.py). Raises InvalidOptions."""
    full = normalise_options(players, options)
    ids = list(deck_ids(*deck_of(full)))
    rng = Rng(seed)
    deal = (options or {}).get("deal")
    if full.get("hands") == "unseen":
        dealt = _unseen_deal(players, full, ids, deal, rng)
    elif deal is not None:
        dealt = _table_deal(players, full, ids, deal)
    else:
        dealt = _seeded_deal(players, full, ids, rng)
    line: list[dict] = []
    for card in dealt.line:
        place_card(line, card)
    return {
        "game": GAME_ID,
        "schema_version": SCHEMA_VERSION,
        "options": full,
        "players": [{"hand": hand, "fleas": STARTING_FLEAS[players], "collected": []} for hand in dealt.hands],
        "line": line,
        "draw_pile": dealt.draw_pile,
        "turn": {"player": 0, "step": "first"},
        "final_turns": None,
        "finished": False,
        "rng": rng.to_state(),
    }


def _seeded_deal(players: int, full: dict, ids: list[str], rng: Rng) -> Deal:
    """The generator's deal: hands round robin from seat 0, then the line, then the pile
    (kept sorted with table chance, whose pile order is unknown)."""
    rng.shuffle(ids)
    dealt = HAND_SIZE * players
    hands = [ids[seat:dealt:players] for seat in range(players)]
    line = ids[dealt:dealt + LINE_AT_SETUP]
    pile = ids[dealt + LINE_AT_SETUP:]
    if full["chance"] == "table":
        pile.sort()
    return Deal(hands, line, pile)


def _unseen_deal(players: int, full: dict, ids: list[str], deal: Any, rng: Rng) -> Deal:
    """Unseen hands: 4 unseen cards per hand, the line named by kind (from ``deal.line``, or
    the generator's), the rest of the deck unseen in the draw pile. Raises InvalidOptions."""
    if deal is None:
        rng.shuffle(ids)
        dealt = HAND_SIZE * players
        line = [kind_of(card) for card in ids[dealt:dealt + LINE_AT_SETUP]]
    else:
        if not isinstance(deal, dict) or "hands" in deal or not isinstance(deal.get("line"), list):
            raise InvalidOptions([("/options/deal", ("with unseen hands the deal names only the line: "
                                                    "{line: [4 card kinds]}"))])
        line = deal["line"]
        counts = kind_counts(*deck_of(full))
        errors: list[tuple[str, str]] = []
        if len(line) != LINE_AT_SETUP:
            errors.append(("/options/deal/line", f"must hold {LINE_AT_SETUP} cards"))
        used: dict[str, int] = {}
        for i, card in enumerate(line):
            kind = kind_of(card) if isinstance(card, str) else None
            if kind not in counts:
                errors.append((f"/options/deal/line/{i}", f"the deck has no card {card!r}"))
                continue
            used[kind] = used.get(kind, 0) + 1
            if used[kind] > counts[kind]:
                errors.append((f"/options/deal/line/{i}", f"the deck has {counts[kind]} {kind} only"))
        if errors:
            raise InvalidOptions(errors)
        line = [kind_of(card) for card in line]
    rest = len(ids) - HAND_SIZE * players - LINE_AT_SETUP
    return Deal([[None] * HAND_SIZE for _ in range(players)], line, [None] * rest)


def _table_deal(players: int, full: dict, ids: list[str], deal: Any) -> Deal:
    """The deal sent by a table (chance "table"): a hand of 4 card ids per seat and 4 for the
    line, each card once; the rest of the deck is the pile, sorted. Raises InvalidOptions."""
    errors: list[tuple[str, str]] = []
    if full["chance"] != "table":
        raise InvalidOptions([("/options/deal", "a dealt table is only accepted with chance 'table'")])
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list) or not isinstance(deal.get("line"), list):
        raise InvalidOptions([("/options/deal", "must be {hands: [[card ids] per seat], line: [4 card ids]}")])
    hands, line = deal["hands"], deal["line"]
    if len(hands) != players:
        errors.append(("/options/deal/hands", f"needs one hand per player ({players})"))
    known, seen = set(ids), set()
    places = [(f"/options/deal/hands/{i}", hand, HAND_SIZE) for i, hand in enumerate(hands)]
    places.append(("/options/deal/line", line, LINE_AT_SETUP))
    for where, cards, size in places:
        if not isinstance(cards, list) or len(cards) != size:
            errors.append((where, f"must hold {size} card ids"))
            continue
        for i, card in enumerate(cards):
            if card not in known:
                errors.append((f"{where}/{i}", unknown_id(card)))
            elif card in seen:
                errors.append((f"{where}/{i}", f"card {card} is dealt twice"))
            seen.add(card)
    if errors:
        raise InvalidOptions(errors)
    return Deal([list(hand) for hand in hands], list(line), sorted(known - seen))
