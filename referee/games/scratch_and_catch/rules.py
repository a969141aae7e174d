"""Scratch & Catch rules (rulebook: shared/rulebooks/scratch-and-catch.en.txt). Pure.

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

from functools import partial
from typing import Any, Callable, Mapping

from referee.engine.core import (UNFINISHED, Game, Illegal, InvalidOptions, InvalidState, Outcome, State, Violation,
                                 violation)
from referee.engine.information import PUBLIC, Disclosure, Hidden
from referee.engine.memo import options_memo
from referee.engine.places import claim_place, unknown_id
from referee.engine.rng import Rng
from referee.games.scratch_and_catch import cards as C

GAME_ID = "scratch-and-catch"

# Rulebook sections, as headed in the English rulebook (also msgids for translation).
SETUP = "Setup"
PROGRESS = "Game Progress"
SCRATCH = "Scratch Cards"
END = "End of the Game"

CHANCE_MODES = ("seeded", "table")
HANDS_MODES = ("seen", "unseen")
# legal-moves marks, in this field of a move, the fields a table fills in with what it sees.
TABLE_FILLS = "table_fills"


# A state's fleas are judged up to this many per player (a move may then add a few: the answer's
# states are not bounded by it).
MAX_FLEAS = 10_000

# Violation code -> (English message, rulebook section). Both are msgids of the Japanese catalog.
MESSAGES = {
    "GAME_OVER": ("The game is over.", END),
    "NOT_YOUR_TURN": ("It is player {turn}'s turn, not player {player}'s.", PROGRESS),
    "NO_SUCH_PLAYER": ("There is no player {player}: the seats are 0 to {last}.", SETUP),
    "REFILL_PENDING": ("Draw cards until you have 4 cards in hand before the turn passes.", PROGRESS),
    "NOT_REFILLING": ("Cards are drawn only at the end of your turn, after your 2 cards.", PROGRESS),
    "REFILL_IS_AUTOMATIC": ("With the seeded generator the refill is drawn for you; draw moves are for table games.", PROGRESS),
    "DRAW_PILE_EMPTY": ("The draw pile is empty.", PROGRESS),
    "CARD_REQUIRED": ("At a table game, name the card taken from the draw pile.", PROGRESS),
    "CARD_NOT_IN_PILE": ("Card {card} cannot be in the draw pile.", PROGRESS),
    "SEEDED_CHANCE": ("With the seeded generator the referee turns the cards of the draw pile: a move does not "
                      "name the {field} drawn.", PROGRESS),
    "UNKNOWN_CARD": ("Unknown card id {card}: this game's deck has no such card.", PROGRESS),
    "CARD_NOT_IN_HAND": ("Card {card} is not in your hand.", PROGRESS),
    "HAND_EMPTY": ("Your hand is empty: play from the draw pile.", PROGRESS),
    "CARD_NOT_IN_DECK": ("The deck has no {kind} card.", SETUP),
    "CARD_ALREADY_SEEN": ("No {kind} can still be unseen: the deck has {count}, all face up ({line} on the "
                          "line, {collected} collected).", PROGRESS),
    "REFILL_UNSEEN": ("With unseen hands the refill only changes the hand sizes: there is no draw move.", PROGRESS),
}


def _violation(code: str, **params: Any) -> Violation:
    return violation(MESSAGES, code, **params)


def _copy_state(state: State) -> State:
    """A copy deep enough that applying a move never touches the caller's state: new objects
    for everything a move changes in place (the player to act's hand and collected cards, the
    draw pile, the line and its piles, the turn, the final turns, the generator). The lists a
    move never changes in place are shared: the other players' hands and collected cards (a
    move only sets their fleas) and each pile's cards (:func:`_place` gives a pile a new list).
    Each player and pile dict is copied whole (a key the schema would refuse, which only a
    Python caller can pass, is kept)."""
    new = dict(state)
    acting = state["turn"]["player"]
    # Copies of the dicts, then stores (cheaper in the compiled engine than building each anew).
    players = []
    for seat, p in enumerate(state["players"]):
        player = dict(p)
        if seat == acting:
            player["hand"] = list(p["hand"])
            player["collected"] = list(p["collected"])
        players.append(player)
    new["players"] = players
    new["line"] = [dict(pile) for pile in state["line"]]
    new["draw_pile"] = list(state["draw_pile"])
    new["turn"] = dict(state["turn"])
    if state["final_turns"] is not None:
        final = dict(state["final_turns"])
        final["remaining"] = list(final["remaining"])
        new["final_turns"] = final
    new["rng"] = dict(state["rng"])
    return new


def _normalise_options(players: Any, options: Mapping[str, Any] | None, for_setup: bool = True) -> dict:
    """Full options from what the caller gave; raises InvalidOptions with pointers. The deck
    must be large enough to deal only at setup (hand-recorded positions may use a small deck)."""
    options = dict(options or {})
    errors: list[tuple[str, str]] = []
    if not isinstance(players, int) or isinstance(players, bool) or players not in C.STARTING_FLEAS:
        errors.append(("/players", "Scratch & Catch is played by 2 to 6 players"))
    chance = options.get("chance", "seeded")
    if chance not in CHANCE_MODES:
        errors.append(("/options/chance", "must be 'seeded' or 'table'"))
    deck = options.get("deck") or {}
    if not isinstance(deck, dict):
        errors.append(("/options/deck", "must be an object of counts (cat, scratch)"))
        deck = {}
    cat = deck.get("cat", list(C.DEFAULT_CAT_COUNTS))
    scratch = deck.get("scratch", list(C.DEFAULT_SCRATCH_COUNTS))
    for name, counts in (("cat", cat), ("scratch", scratch)):
        if (not isinstance(counts, list) or len(counts) != 10
                or any(not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 99 for n in counts)):
            errors.append((f"/options/deck/{name}", "must list 10 counts (numbers 1 to 10), each 0 to 99"))
    if for_setup and not errors and isinstance(players, int):
        total = sum(cat) + sum(scratch)
        needed = C.HAND_SIZE * players + C.LINE_AT_SETUP
        if total < needed:
            errors.append(("/options/deck", f"a deck of {total} cards cannot deal {players} hands and the line ({needed} cards)"))
    score_scratch = options.get("scratch_cards_score", False)
    if not isinstance(score_scratch, bool):
        errors.append(("/options/scratch_cards_score", "must be true or false"))
    unknown = set(options) - {"chance", "deck", "scratch_cards_score", "deal", "hands"}
    errors.extend((f"/options/{name}", "unknown option") for name in sorted(unknown))
    hands = options.get("hands", "seen")
    if hands not in HANDS_MODES:
        errors.append(("/options/hands", "must be 'seen' or 'unseen'"))
    elif hands == "unseen" and chance != "table":
        errors.append(("/options/hands", "unseen hands need chance 'table': with the seeded generator the "
                                         "referee deals and knows every card"))
    if errors:
        raise InvalidOptions(errors)
    full = {"chance": chance, "deck": {"cat": list(cat), "scratch": list(scratch)},
            "scratch_cards_score": score_scratch}
    if hands == "unseen":
        full["hands"] = "unseen"
    return full


def _unseen(state: State) -> bool:
    """Whether the table does not see the hands (cards named by kind, hidden cards null)."""
    return state["options"].get("hands") == "unseen"


def _named_kinds(state: State) -> dict[str, list[int]]:
    """Unseen hands: ``{kind: [copies on the line, copies collected]}`` of the face-up cards."""
    named: dict[str, list[int]] = {}
    for pile in state["line"]:
        for card in pile["cards"]:
            named.setdefault(card, [0, 0])[0] += 1
    for player in state["players"]:
        for card in player["collected"]:
            named.setdefault(card, [0, 0])[1] += 1
    return named


def _unseen_kinds(state: State) -> list[str]:
    """Unseen hands: the kinds a hidden card may still be, in catalogue order."""
    named = _named_kinds(state)
    return [kind for kind, count in C.kind_counts(*_deck_of(state["options"])).items()
            if sum(named.get(kind, (0, 0))) < count]


def _unknown_or_elsewhere(state: State, card: str | None, absent: str = "CARD_NOT_IN_PILE") -> Violation:
    """A card named as taken from a place (the draw pile, the hand) that does not hold it:
    UNKNOWN_CARD when the deck has no such card (as the stateless check says "unknown card
    id"), else ``absent`` (CARD_NOT_IN_PILE or CARD_NOT_IN_HAND), which does not say where the
    card is."""
    if card is not None and card not in C.deck_set(*_deck_of(state["options"])):
        return _violation("UNKNOWN_CARD", card=card)
    return _violation(absent, card=card)


class _TableFacts:
    """What check_state derives from a state's options alone (the same for every state of a table).
    (A class of its own, not a NamedTuple: compiled, its fields are read directly.)"""

    def __init__(self, full: dict, option_errors: tuple, known: frozenset[str], position: dict[str, int],
                 values: tuple[int, ...], kind_counts: Mapping[str, int]):
        self.full = full                  # the options, normalised
        self.option_errors = option_errors  # ((pointer, detail), ...) about how the options are written
        self.known = known                # the deck's card ids (seen hands)
        self.position = position          # each of those ids -> its index in catalogue order
        self.values = values              # the number printed on each card, by that index
        self.kind_counts = kind_counts    # copies of each kind (unseen hands)


def _table_facts(players: int, options: Mapping[str, Any]) -> _TableFacts:
    """The facts of a state's ``options`` with ``players`` seats. Raises InvalidOptions."""
    full = _normalise_options(players, options, False)
    errors = []
    if "deal" in options:
        errors.append(("/options/deal", "belongs in a setup request, not in a state"))
    given = set(options) - ({"hands"} if options.get("hands") == "seen" else set())
    if full["chance"] != options.get("chance") or given != set(full):
        errors.append(("/options", "a state carries every option explicitly"))
    deck = _deck_of(full)
    ids = C.deck_ids(*deck)
    return _TableFacts(full, tuple(errors), C.deck_set(*deck), {card: at for at, card in enumerate(ids)},
                       tuple(C.card_value(card) for card in ids), C.kind_counts(*deck))


# check_state reads a state's options on every move; states of one table share them.
_state_facts = options_memo(_table_facts)


def _deck_of(options: Mapping[str, Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    deck = options["deck"]
    return tuple(deck["cat"]), tuple(deck["scratch"])


def _place(line: list[dict], card: str) -> tuple[int, bool]:
    """Put ``card`` on the line in value order; return (index of its pile, pile existed before)."""
    value = C.card_value(card)
    for index, pile in enumerate(line):
        if pile["value"] == value:
            pile["cards"] = [*pile["cards"], card]   # a new list: copies of a state share the old one
            return index, True
        if pile["value"] > value:
            line.insert(index, {"value": value, "cards": [card]})
            return index, False
    line.append({"value": value, "cards": [card]})
    return len(line) - 1, False


# What each reader sees (referee.engine.information). Every card played, taken or put on the
# line lies face up; only a card drawn into a hand (a table's refill move) is its holder's.
DISCLOSURE = Disclosure(
    moves={
        "play": PUBLIC,                                # the card is played face up
        "draw": Hidden(("card",)),                     # table chance: the refill card, seen by its holder
    },
    events={
        "card_played": PUBLIC, "stack": PUBLIC, "sequence": PUBLIC, "scratch": PUBLIC,
        "cards_drawn": PUBLIC,                         # how many, never which
        "game_end_triggered": PUBLIC, "turn_passed": PUBLIC, "game_over": PUBLIC,
    },
)



_PILE_VALUES = frozenset(C.NUMBERS)  # the numbers a pile of the line may have


def _take(cards: object, position: dict[str, int], seen: list[bool]) -> bool:
    """Mark each of ``cards`` in ``seen`` by its ``position``; False at a card that is not of
    the deck or was marked before (and for anything but a list: the detailed pass says why)."""
    if not isinstance(cards, list):
        return False
    for card in cards:
        at = position.get(card, -1)
        if at < 0 or seen[at]:
            return False
        seen[at] = True
    return True


def _cards_in_place(players: list, line: list, draw_pile: list, position: dict[str, int],
                    values: tuple[int, ...]) -> bool:
    """The common case of the state check, with plain loops (no pointers): every card of the
    deck in exactly one place, the line's piles in ascending values 1 to 10 each holding cards
    of its value, hands within their size, fleas from 0 to MAX_FLEAS."""
    # One mark per card of the deck, by index: a dict lookup and a list store per card found
    # (set methods such as difference_update are generic calls in the compiled engine, about
    # 1,000 instructions each).
    seen = [False] * len(values)
    if not _take(draw_pile, position, seen):
        return False
    size = len(draw_pile)
    for player in players:
        hand, collected = player["hand"], player["collected"]
        if len(hand) > C.HAND_SIZE or not 0 <= player["fleas"] <= MAX_FLEAS:
            return False
        if not (_take(hand, position, seen) and _take(collected, position, seen)):
            return False
        size += len(hand) + len(collected)
    previous = 0
    for pile in line:
        value, cards = pile["value"], pile["cards"]
        if value not in _PILE_VALUES or not previous < value or not cards or not _take(cards, position, seen):
            return False
        for card in cards:
            if values[position[card]] != value:
                return False
        previous = value
        size += len(cards)
    # No card marked twice: as many cards as the deck means every card of the deck, once.
    return size == len(values)


def _card_place_errors(state: State, known: frozenset[str]) -> list[tuple[str, str]]:
    """The detailed pass of what :func:`_cards_in_place` checks, with a pointer for each error
    (empty exactly when that check passes)."""
    players = state["players"]
    errors: list[tuple[str, str]] = []
    where: dict[str, str] = {}
    claim = partial(claim_place, errors, where, known)
    errors.extend(_seat_errors(players))
    for seat, player in enumerate(players):
        for i, card in enumerate(player["hand"]):
            claim(card, f"/players/{seat}/hand/{i}")
        for i, card in enumerate(player["collected"]):
            claim(card, f"/players/{seat}/collected/{i}")
    errors.extend(_line_errors(state["line"], claim, known))
    for i, card in enumerate(state["draw_pile"]):
        claim(card, f"/draw_pile/{i}")
    missing = known.difference(where)
    if missing:
        errors.append(("", f"cards missing from every place: {', '.join(sorted(missing))}"))
    return errors


def _seat_errors(players: list) -> list[tuple[str, str]]:
    """Hands within their size, fleas from 0 to MAX_FLEAS (the state check, both hand modes)."""
    errors: list[tuple[str, str]] = []
    for seat, player in enumerate(players):
        if len(player["hand"]) > C.HAND_SIZE:
            errors.append((f"/players/{seat}/hand", f"a hand holds at most {C.HAND_SIZE} cards"))
        if player["fleas"] < 0:
            errors.append((f"/players/{seat}/fleas", "fleas cannot be negative"))
        elif player["fleas"] > MAX_FLEAS:
            errors.append((f"/players/{seat}/fleas", f"at most {MAX_FLEAS} fleas are judged"))
    return errors


def _line_errors(line: list, claim: Callable[[Any, str], None], names: Any) -> list[tuple[str, str]]:
    """The line: distinct values 1 to 10 in ascending order, each pile holding cards of its
    value; every card is passed to ``claim`` with its pointer (``names``: the card names the
    state may hold, ids or kinds, whose value is checked)."""
    errors: list[tuple[str, str]] = []
    previous: Any = 0   # a value as the state gives it (the schema admits any number)
    for p, pile in enumerate(line):
        value = pile["value"]
        if not 1 <= value <= 10 or value <= previous:
            errors.append((f"/line/{p}/value", "line piles must have distinct values 1 to 10 in ascending order"))
        previous = value
        if not pile["cards"]:
            errors.append((f"/line/{p}/cards", "a pile on the line holds at least one card"))
        for i, card in enumerate(pile["cards"]):
            claim(card, f"/line/{p}/cards/{i}")
            if card in names and C.card_value(card) != value:
                errors.append((f"/line/{p}/cards/{i}", f"card {card} does not have value {value}"))
    return errors

class ScratchAndCatch(Game):
    """Scratch & Catch, 2 to 6 players (rulebook sections Setup, Game Progress, Scratch Cards,
    End of the Game). See the module docstring for the state and move shapes."""

    id = GAME_ID
    title = "Scratch & Catch"
    player_counts = (2, 3, 4, 5, 6)
    rules_version = "scratch-and-catch/en-1"
    messages = MESSAGES
    disclosure = DISCLOSURE
    word_params = frozenset({"field"})

    # -- description ---------------------------------------------------------------------

    def options_info(self) -> dict:
        return {
            "chance": {"default": "seeded", "enum": list(CHANCE_MODES),
                       "description": "seeded: the generator deals and draws; table: moves name the cards seen at a physical table"},
            "deck": {"default": {"cat": list(C.DEFAULT_CAT_COUNTS), "scratch": list(C.DEFAULT_SCRATCH_COUNTS)},
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

    def catalogue(self, options: Mapping[str, Any] | None = None) -> dict:
        """The deck in use: ``{"provisional", "cards": [{"id", "number", "kind"}], "counts",
        "kinds": [{"kind", "number", "type", "count"}]}``; a kind is a card as printed (``C5``: a
        Cat 5), the name unseen hands use."""
        full = _normalise_options(2, options)
        cat, scratch = _deck_of(full)
        return {
            "provisional": cat == C.DEFAULT_CAT_COUNTS and scratch == C.DEFAULT_SCRATCH_COUNTS,
            "note": "the rulebook fixes 76 cards (64 Cat, 12 Scratch) numbered 1 to 10, not how many of each number",
            "counts": full["deck"],
            "cards": [{"id": card, "number": C.card_value(card), "kind": "scratch" if C.is_scratch(card) else "cat"}
                      for card in C.deck_ids(cat, scratch)],
            "kinds": [{"kind": kind, "number": C.card_value(kind), "type": "scratch" if C.is_scratch(kind) else "cat",
                       "count": count} for kind, count in C.kind_counts(cat, scratch).items()],
            "starting_fleas": {str(k): v for k, v in C.STARTING_FLEAS.items()},
        }

    # -- setup ---------------------------------------------------------------------------

    def setup(self, players: int, seed: str, options: Mapping[str, Any] | None = None) -> State:
        """Rulebook, Setup: deal 4 cards each (round robin from seat 0), give the fleas of the
        table, put the next 4 cards on the line in ascending order; the rest is the draw pile.
        With ``chance: table``, ``options.deal`` gives the hands and line seen at the table.
        Raises InvalidOptions."""
        full = _normalise_options(players, options)
        cat, scratch = _deck_of(full)
        ids = list(C.deck_ids(cat, scratch))
        rng = Rng(seed)
        deal = (options or {}).get("deal")
        if full.get("hands") == "unseen":
            hands, line_cards, pile = self._unseen_deal(players, full, ids, deal, rng)
        elif deal is not None:
            hands, line_cards, pile = self._table_deal(players, full, ids, deal)
        else:
            rng.shuffle(ids)
            dealt = C.HAND_SIZE * players
            hands = [ids[seat:dealt:players] for seat in range(players)]
            line_cards = ids[dealt:dealt + C.LINE_AT_SETUP]
            pile = ids[dealt + C.LINE_AT_SETUP:]
            if full["chance"] == "table":
                pile.sort()
        line: list[dict] = []
        for card in line_cards:
            _place(line, card)
        return {
            "game": GAME_ID,
            "schema_version": self.schema_version,
            "options": full,
            "players": [{"hand": hand, "fleas": C.STARTING_FLEAS[players], "collected": []} for hand in hands],
            "line": line,
            "draw_pile": pile,
            "turn": {"player": 0, "step": "first"},
            "final_turns": None,
            "finished": False,
            "rng": rng.to_state(),
        }

    @staticmethod
    def _unseen_deal(players: int, full: dict, ids: list[str], deal: Any, rng: Rng):
        """Unseen hands: 4 unseen cards per hand, the line named by kind (from ``deal.line``, or
        the generator's), the rest of the deck unseen in the draw pile."""
        if deal is None:
            rng.shuffle(ids)
            line = [C.kind_of(card) for card in ids[C.HAND_SIZE * players:C.HAND_SIZE * players + C.LINE_AT_SETUP]]
        else:
            if not isinstance(deal, dict) or "hands" in deal or not isinstance(deal.get("line"), list):
                raise InvalidOptions([("/options/deal", "with unseen hands the deal names only the line: "
                                                        "{line: [4 card kinds]}")])
            line = deal["line"]
            counts = C.kind_counts(*_deck_of(full))
            errors: list[tuple[str, str]] = []
            if len(line) != C.LINE_AT_SETUP:
                errors.append(("/options/deal/line", f"must hold {C.LINE_AT_SETUP} cards"))
            used: dict[str, int] = {}
            for i, card in enumerate(line):
                kind = C.kind_of(card) if isinstance(card, str) else None
                if kind not in counts:
                    errors.append((f"/options/deal/line/{i}", f"the deck has no card {card!r}"))
                    continue
                used[kind] = used.get(kind, 0) + 1
                if used[kind] > counts[kind]:
                    errors.append((f"/options/deal/line/{i}", f"the deck has {counts[kind]} {kind} only"))
            if errors:
                raise InvalidOptions(errors)
            line = [C.kind_of(card) for card in line]
        rest = len(ids) - C.HAND_SIZE * players - C.LINE_AT_SETUP
        return [[None] * C.HAND_SIZE for _ in range(players)], line, [None] * rest

    @staticmethod
    def _table_deal(players: int, full: dict, ids: list[str], deal: Any):
        errors: list[tuple[str, str]] = []
        if full["chance"] != "table":
            raise InvalidOptions([("/options/deal", "a dealt table is only accepted with chance 'table'")])
        if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list) or not isinstance(deal.get("line"), list):
            raise InvalidOptions([("/options/deal", "must be {hands: [[card ids] per seat], line: [4 card ids]}")])
        hands, line = deal["hands"], deal["line"]
        if len(hands) != players:
            errors.append(("/options/deal/hands", f"needs one hand per player ({players})"))
        known, seen = set(ids), set()
        for where, cards in [(f"/options/deal/hands/{i}", h) for i, h in enumerate(hands)] + [("/options/deal/line", line)]:
            size = C.LINE_AT_SETUP if where.endswith("line") else C.HAND_SIZE
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
        pile = sorted(known - seen)
        return [list(h) for h in hands], list(line), pile

    # -- consistency ---------------------------------------------------------------------

    def check_state(self, state: State) -> None:
        """Raise InvalidState unless every card of the deck is in exactly one place, the line
        is ordered and sorted, hands hold at most 4 cards, fleas are not negative, the turn
        and end-of-game fields agree, and a game in progress has a move (a refill step has a
        card to draw and a hand short of 4; otherwise the player to act holds a card or can
        take one from the pile) and keeps one (before the final turns, every other player
        holds 4 cards). Pointers are JSON pointers into the state."""
        errors: list[tuple[str, str]] = []
        if state.get("game") != GAME_ID:
            raise InvalidState([("/game", f"this endpoint judges {GAME_ID} states")])
        if state.get("schema_version") != self.schema_version:
            raise InvalidState([("/schema_version", f"supported schema version is {self.schema_version}")])
        players = state["players"]
        try:
            facts: _TableFacts = _state_facts(len(players), state["options"])
        except InvalidOptions as bad:
            raise InvalidState(bad.errors) from None
        full = facts.full
        errors.extend(facts.option_errors)
        if full.get("hands") == "unseen":
            errors.extend(self._unseen_places(state, facts.kind_counts))
        # The common case is checked with plain loops; the pointers of a bad state come from the detailed pass.
        elif not _cards_in_place(state["players"], state["line"], state["draw_pile"], facts.position, facts.values):
            errors.extend(_card_place_errors(state, facts.known))
        turn, final = state["turn"], state["final_turns"]
        n = len(players)
        if not 0 <= turn["player"] < n:
            errors.append(("/turn/player", f"must be a seat from 0 to {n - 1}"))
        if turn["step"] == "refill" and (full["chance"] != "table" or full.get("hands") == "unseen"):
            errors.append(("/turn/step", "a refill step exists only with chance 'table' and seen hands"))
        acting = turn["player"]
        if not state["finished"] and 0 <= acting < n:
            # Every state of a game in progress has a move: a refill lasts while a card can be
            # drawn and the hand is short, and a turn never starts (nor goes on) with no card in
            # hand and none in the pile (the turn ends, or passes, instead).
            hand, pile = players[acting]["hand"], state["draw_pile"]
            if turn["step"] == "refill":
                if not pile or len(hand) >= C.HAND_SIZE:
                    errors.append(("/turn/step", f"a refill step lasts while the draw pile has cards and the hand "
                                                 f"holds fewer than {C.HAND_SIZE}"))
            elif not hand and not pile:
                errors.append(("/turn/player", "the player to act has no card in hand and the draw pile is empty: "
                                               "that turn ends or passes (End of the Game)"))
            if final is None:
                # Each turn ends with the refill to 4 cards, and a player who cannot refill ends
                # the game: until then, every player but the one to act holds 4 cards.
                four = C.HAND_SIZE
                for seat, player in enumerate(players):
                    if len(player["hand"]) != four and seat != acting:
                        errors.append((f"/players/{seat}/hand", f"before the final turns, every player but the one "
                                                                f"to act holds {four} cards (each turn ends with the "
                                                                f"refill)"))
        if final is not None:
            if not 0 <= final["ended_by"] < n:
                errors.append(("/final_turns/ended_by", f"must be a seat from 0 to {n - 1}"))
            remaining = final["remaining"]
            if (len(set(remaining)) != len(remaining) or final["ended_by"] in remaining
                    or any(not 0 <= s < n for s in remaining)):
                errors.append(("/final_turns/remaining", "seats still to play, each once, never the one who ended the game"))
            if not state["finished"] and remaining and remaining[0] != turn["player"]:
                errors.append(("/turn/player", "during the final turns the player to act is the first of final_turns.remaining"))
            if not state["finished"] and not remaining:
                errors.append(("/final_turns/remaining", "no final turn left but the game is not finished"))
            if state["finished"] and remaining:
                errors.append(("/finished", "the game cannot be finished while final turns remain"))
        elif state["finished"]:
            errors.append(("/finished", "a finished game has final_turns"))
        if errors:
            raise InvalidState(errors)

    @staticmethod
    def _unseen_places(state: State, counts: Mapping[str, int]) -> list[tuple[str, str]]:
        """Unseen hands: hands and draw pile hold only nulls, the line and the collected piles
        name kinds of the deck, no kind is named more often than the deck has it, and the
        named and unseen cards together are the whole deck."""
        errors: list[tuple[str, str]] = []
        named: dict[str, int] = {}
        unseen = 0

        def claim(card: Any, pointer: str) -> None:
            if card is None:
                errors.append((pointer, "a face-up card is named by its kind (e.g. C5), never null"))
            elif card not in counts:
                detail = (f"with unseen hands cards are named by kind ({C.kind_of(card)}), not id"
                          if C.kind_of(card) in counts else f"the deck has no card {card!r}")
                errors.append((pointer, detail))
            else:
                named[card] = named.get(card, 0) + 1

        errors.extend(_seat_errors(state["players"]))
        for seat, player in enumerate(state["players"]):
            for i, card in enumerate(player["hand"]):
                if card is not None:
                    errors.append((f"/players/{seat}/hand/{i}", "with unseen hands a card in hand is null"))
            unseen += len(player["hand"])
            for i, card in enumerate(player["collected"]):
                claim(card, f"/players/{seat}/collected/{i}")
        errors.extend(_line_errors(state["line"], claim, counts))
        for i, card in enumerate(state["draw_pile"]):
            if card is not None:
                errors.append((f"/draw_pile/{i}", "with unseen hands a card of the draw pile is null"))
        unseen += len(state["draw_pile"])
        for kind, number in named.items():
            if number > counts[kind]:
                errors.append(("", f"{number} cards {kind} are face up; the deck has {counts[kind]}"))
        total = sum(counts.values())
        if not errors and sum(named.values()) + unseen != total:
            errors.append(("", f"{sum(named.values())} face-up and {unseen} unseen cards; the deck has {total}"))
        return errors

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[dict]:
        """Every move of the player to act. With seeded chance a pile play is listed once,
        without ``card`` (the generator decides); with table chance once per card in the pile."""
        if state["finished"]:
            return []
        seat = state["turn"]["player"]
        if _unseen(state):
            return self._unseen_moves(state, seat)
        table = state["options"]["chance"] == "table"
        pile = state["draw_pile"]
        if state["turn"]["step"] == "refill":
            return [{"type": "draw", "player": seat, "card": card} for card in sorted(set(pile))]
        moves = [{"type": "play", "player": seat, "source": "hand", "card": card}
                 for card in state["players"][seat]["hand"]]
        if pile:
            if table:
                moves.extend({"type": "play", "player": seat, "source": "pile", "card": card} for card in sorted(pile))
            else:
                moves.append({"type": "play", "player": seat, "source": "pile"})
        return moves

    def seat_moves(self, state: State, seat: int) -> list[dict]:
        """The moves of ``seat`` (empty unless it is to act), as it can know them: with table
        chance the card taken from the pile is null (the table names it, ``table_fills``
        says so), listed once."""
        if state["finished"] or state["turn"]["player"] != seat:
            return []
        if _unseen(state):
            return self._unseen_moves(state, seat)
        if state["turn"]["step"] == "refill":
            return [{"type": "draw", "player": seat, "card": None, TABLE_FILLS: ["card"]}]
        moves = [{"type": "play", "player": seat, "source": "hand", "card": card}
                 for card in state["players"][seat]["hand"]]
        if state["draw_pile"]:
            pile_play = {"type": "play", "player": seat, "source": "pile"}
            if state["options"]["chance"] == "table":
                pile_play.update({"card": None, TABLE_FILLS: ["card"]})
            moves.append(pile_play)
        return moves

    @staticmethod
    def _unseen_moves(state: State, seat: int) -> list[dict]:
        """Unseen hands: a play per kind a hidden card may still be, from the hand (when it holds
        a card) and from the draw pile (when it has one); ``table_fills`` marks ``card`` as the
        field the table fills in with what it sees."""
        kinds = _unseen_kinds(state)
        moves: list[dict] = []
        for source, cards in (("hand", state["players"][seat]["hand"]), ("pile", state["draw_pile"])):
            if cards:
                moves.extend({"type": "play", "player": seat, "source": source, "card": kind, TABLE_FILLS: ["card"]}
                             for kind in kinds)
        return moves

    def apply(self, state: State, move: dict) -> tuple[State, list[dict]]:
        """Judge and apply one move (rulebook, Game Progress and Scratch Cards). Raises Illegal."""
        if state["finished"]:
            raise Illegal(_violation("GAME_OVER"))
        seat = move["player"]
        turn = state["turn"]
        if not 0 <= seat < len(state["players"]):
            raise Illegal(_violation("NO_SUCH_PLAYER", player=seat, last=len(state["players"]) - 1))
        if seat != turn["player"]:
            raise Illegal(_violation("NOT_YOUR_TURN", turn=turn["player"], player=seat))
        kind = move["type"]
        if _unseen(state):
            if kind != "play":
                raise Illegal(_violation("REFILL_UNSEEN"))
            return self._play(state, move)
        if turn["step"] == "refill":
            if kind != "draw":
                raise Illegal(_violation("REFILL_PENDING"))
            return self._draw(state, move)
        if kind != "play":
            if state["options"]["chance"] != "table":
                raise Illegal(_violation("REFILL_IS_AUTOMATIC"))
            raise Illegal(_violation("NOT_REFILLING"))
        if move.get("source") == "pile" and move.get("card") is not None and state["options"]["chance"] != "table":
            raise Illegal(_violation("SEEDED_CHANCE", field="card"))
        return self._play(state, move)

    def _take_from_pile(self, state: State, move: dict) -> str:
        pile = state["draw_pile"]
        if not pile:
            raise Illegal(_violation("DRAW_PILE_EMPTY"))
        seen = move.get("card")
        if state["options"]["chance"] == "table":
            if seen is None:
                raise Illegal(_violation("CARD_REQUIRED"))
            if seen not in pile:
                raise Illegal(_unknown_or_elsewhere(state, seen))
            pile.remove(seen)
            return seen
        return pile.pop(0)

    @staticmethod
    def _unseen_card(state: State, move: dict) -> str:
        """Unseen hands: the kind a play names, once it is checked a copy of it can still be
        hidden in the hand or pile it comes from. Raises Illegal."""
        seat, source = move["player"], move.get("source")
        card: Any = move.get("card")
        if source == "hand" and not state["players"][seat]["hand"]:
            raise Illegal(_violation("HAND_EMPTY"))
        if source != "hand" and not state["draw_pile"]:
            raise Illegal(_violation("DRAW_PILE_EMPTY"))
        if card is None:
            raise Illegal(_violation("CARD_REQUIRED") if source != "hand" else _violation("CARD_NOT_IN_HAND", card=card))
        kind = C.kind_of(card)
        count = C.kind_counts(*_deck_of(state["options"])).get(kind, 0)
        if count == 0:
            raise Illegal(_violation("CARD_NOT_IN_DECK", kind=kind))
        line, collected = _named_kinds(state).get(kind, (0, 0))
        if line + collected >= count:
            raise Illegal(_violation("CARD_ALREADY_SEEN", kind=kind, count=count, line=line, collected=collected))
        return kind

    def _play(self, state: State, move: dict) -> tuple[State, list[dict]]:
        seat = move["player"]
        source = move.get("source")
        hand = state["players"][seat]["hand"]
        unseen = _unseen(state)
        card: Any
        if unseen:
            card = self._unseen_card(state, move)
        elif source == "hand":
            card = move.get("card")
            if card not in hand:
                raise Illegal(_unknown_or_elsewhere(state, card, "CARD_NOT_IN_HAND"))
        new = _copy_state(state)
        player = new["players"][seat]
        if unseen:
            (player["hand"] if source == "hand" else new["draw_pile"]).pop()
        elif source == "hand":
            player["hand"].remove(card)
        else:
            card = self._take_from_pile(new, move)
        line = new["line"]
        index, stacked = _place(line, card)
        step = new["turn"]["step"]
        events: list[dict] = [{"type": "card_played", "player": seat, "card": card, "source": source,
                               "position": step}]
        if step == "first":
            if player["hand"] or new["draw_pile"]:
                new["turn"]["step"] = "second"
                return new, events
            # A final turn with a single card left: the turn ends after it (rules notes).
            return self._end_turn(new, events)
        value = C.card_value(card)
        if stacked:
            taken: list[str] = []
            for neighbour in (index + 1, index - 1):
                if 0 <= neighbour < len(line) and abs(line[neighbour]["value"] - value) == 1:
                    taken.extend(line[neighbour]["cards"])
            line[:] = [pile for pile in line if abs(pile["value"] - value) != 1]
            player["collected"].extend(taken)
            events.append({"type": "stack", "player": seat, "value": value, "collected": taken})
        else:
            low = high = index
            while low > 0 and line[low - 1]["value"] == line[low]["value"] - 1:
                low -= 1
            while high < len(line) - 1 and line[high + 1]["value"] == line[high]["value"] + 1:
                high += 1
            length = high - low + 1
            if length > 1:
                discarded = min(length, player["fleas"])
                player["fleas"] -= discarded
                events.append({"type": "sequence", "player": seat, "length": length, "fleas_discarded": discarded})
        if C.is_scratch(card):
            pile_size = len(next(p for p in line if p["value"] == value)["cards"])
            others = [other for other in range(len(new["players"])) if other != seat]
            for other in others:
                new["players"][other]["fleas"] += pile_size
            events.append({"type": "scratch", "player": seat, "fleas_each": pile_size, "players": others})
        return self._refill(new, events)

    def _refill(self, state: State, events: list[dict]) -> tuple[State, list[dict]]:
        """Rulebook, Game Progress: at the end of your turn, draw until you hold 4 cards."""
        seat = state["turn"]["player"]
        hand = state["players"][seat]["hand"]
        pile = state["draw_pile"]
        if state["options"]["chance"] == "table" and not _unseen(state):
            if len(hand) < C.HAND_SIZE and pile:
                state["turn"]["step"] = "refill"
                return state, events
            return self._end_turn(state, events)
        count = min(C.HAND_SIZE - len(hand), len(pile))
        if count > 0:
            hand.extend(pile[:count])
            del pile[:count]
            events.append({"type": "cards_drawn", "player": seat, "count": count})
        return self._end_turn(state, events)

    def _draw(self, state: State, move: dict) -> tuple[State, list[dict]]:
        card = move.get("card")
        if card is None:
            raise Illegal(_violation("CARD_REQUIRED"))
        if card not in state["draw_pile"]:
            raise Illegal(_unknown_or_elsewhere(state, card))
        new = _copy_state(state)
        seat = move["player"]
        new["draw_pile"].remove(card)
        new["players"][seat]["hand"].append(card)
        events = [{"type": "cards_drawn", "player": seat, "count": 1}]
        if len(new["players"][seat]["hand"]) < C.HAND_SIZE and new["draw_pile"]:
            return new, events
        return self._end_turn(new, events)

    def _end_turn(self, state: State, events: list[dict]) -> tuple[State, list[dict]]:
        """Rulebook, End of the Game: a player with no fleas, or who cannot refill to 4, ends
        the game; every other player then takes one final turn, clockwise."""
        seat = state["turn"]["player"]
        players = state["players"]
        n = len(players)
        final = state["final_turns"]
        if final is None:
            reason = None
            if players[seat]["fleas"] == 0:
                reason = "no_fleas"
            elif len(players[seat]["hand"]) < C.HAND_SIZE:
                reason = "cannot_refill"
            if reason is not None:
                final = {"ended_by": seat, "reason": reason,
                         "remaining": [(seat + k) % n for k in range(1, n)]}
                state["final_turns"] = final
                events.append({"type": "game_end_triggered", "player": seat, "reason": reason})
            else:
                state["turn"] = {"player": (seat + 1) % n, "step": "first"}
                return state, events
        else:
            final["remaining"].remove(seat)
        # Final turns: a player with no card in hand and an empty pile cannot play (rules notes).
        remaining = final["remaining"]
        while remaining and not players[remaining[0]]["hand"] and not state["draw_pile"]:
            events.append({"type": "turn_passed", "player": remaining.pop(0), "reason": "no_cards"})
        if remaining:
            state["turn"] = {"player": remaining[0], "step": "first"}
        else:
            state["finished"] = True
            state["turn"] = {"player": seat, "step": "first"}
            _, outcome = self.score(state)
            events.append({"type": "game_over", "winners": list(outcome.winners)})
        return state, events

    # -- scoring -------------------------------------------------------------------------

    def score(self, state: State) -> tuple[dict, Outcome]:
        """Rulebook, End of the Game: 1 point per collected Cat card ("each Cat card in front of
        you"; Scratch cards only with the option ``scratch_cards_score``), plus the flea table; most points wins, a tie goes to the fewest
        fleas (tiebreak "fewest_fleas"), and a tie on both is shared (tiebreak "shared", as in
        Call of Katulhu). Scores are provisional until ``finished``."""
        count_scratch = state["options"]["scratch_cards_score"]
        sheet = []
        for seat, player in enumerate(state["players"]):
            collected = player["collected"]
            # Scratch cards are those whose id or kind starts with "S" (C.is_scratch); no other
            # letter of an id or kind is an "S", so one count over the joined ids finds them.
            cards = len(collected) if count_scratch else len(collected) - "".join(collected).count("S")
            fleas = player["fleas"]
            points = C.flea_points(fleas)
            sheet.append({"player": seat, "cards": cards, "fleas": fleas, "flea_points": points,
                          "total": cards + points})
        scores = {"players": sheet}
        if not state["finished"]:
            return scores, UNFINISHED
        best = max(row["total"] for row in sheet)
        leaders = [row for row in sheet if row["total"] == best]
        if len(leaders) == 1:
            return scores, Outcome(True, (leaders[0]["player"],))
        fewest = min(row["fleas"] for row in leaders)
        winners = tuple(row["player"] for row in leaders if row["fleas"] == fewest)
        return scores, Outcome(True, winners, "fewest_fleas" if len(winners) == 1 else "shared")

    # -- views ---------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> State:
        """What seat ``seat`` sees (None: a spectator): other hands become counts, the draw pile
        a count, the generator is removed."""
        seen = dict(state)
        seen["players"] = [
            dict(p) if s == seat else {"hand_size": len(p["hand"]), "fleas": p["fleas"], "collected": list(p["collected"])}
            for s, p in enumerate(state["players"])
        ]
        seen["draw_pile"] = {"size": len(state["draw_pile"])}
        seen.pop("rng", None)
        return seen
