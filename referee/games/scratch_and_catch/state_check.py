"""Scratch & Catch: the state check, what every state must keep of the rulebook.

Setup: every card of the deck in exactly one place (hands of at most 4, the line, the draw pile,
the collected piles), the fleas of a table. Game Progress: the line in ascending order of
distinct values, each pile holding cards of its value; a turn in progress has a move and, until
the final turns, every player but the one to act holds 4 cards. End of the Game: the final turns
and the finished flag agree.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from functools import partial
from typing import Any, NamedTuple

from referee.engine.core import InvalidOptions, InvalidState, State
from referee.engine.memo import options_memo
from referee.engine.places import claim_place
from referee.games.scratch_and_catch.cards import (
    HAND_SIZE,
    NUMBERS,
    card_value,
    deck_ids,
    deck_set,
    kind_counts,
    kind_of,
)
from referee.games.scratch_and_catch.deal import GAME_ID, SCHEMA_VERSION, deck_of, normalise_options

# A state's fleas are judged up to this many per player (a move may then add a few: the answer's
# states are not bounded by it).
MAX_FLEAS = 10_000

_PILE_VALUES = frozenset(NUMBERS)  # the numbers a pile of the line may have

Errors = list[tuple[str, str]]   # (JSON pointer into the state, detail)


class TableFacts(NamedTuple):
    """What the state check derives from a state's options alone (the same for every state of a table)."""

    full: dict                    # the options, normalised
    option_errors: tuple          # ((pointer, detail), ...) about how the options are written
    known: frozenset[str]         # the deck's card ids (seen hands)
    position: dict[str, int]      # each of those ids -> its index in catalogue order
    values: tuple[int, ...]       # the number printed on each card, by that index
    kind_counts: Mapping[str, int]  # copies of each kind (unseen hands)


def table_facts(players: int, options: Mapping[str, Any]) -> TableFacts:
    """The facts of a state's ``options`` with ``players`` seats. Raises InvalidOptions."""
    full = normalise_options(players, options, False)
    errors = []
    if "deal" in options:
        errors.append(("/options/deal", "belongs in a setup request, not in a state"))
    given = set(options) - ({"hands"} if options.get("hands") == "seen" else set())
    if full["chance"] != options.get("chance") or given != set(full):
        errors.append(("/options", "a state carries every option explicitly"))
    deck = deck_of(full)
    ids = deck_ids(*deck)
    return TableFacts(full, tuple(errors), deck_set(*deck), {card: at for at, card in enumerate(ids)},
                      tuple(card_value(card) for card in ids), kind_counts(*deck))


# The state check reads a state's options on every move; states of one table share them.
_state_facts = options_memo(table_facts)


def check_state(state: State) -> None:
    """Raise InvalidState unless every card of the deck is in exactly one place, the line
    is ordered and sorted, hands hold at most 4 cards, fleas are not negative, the turn
    and end-of-game fields agree, and a game in progress has a move (a refill step has a
    card to draw and a hand short of 4; otherwise the player to act holds a card or can
    take one from the pile) and keeps one (before the final turns, every other player
    holds 4 cards). Errors are ``(JSON pointer into the state, detail)``."""
    if state.get("game") != GAME_ID:
        raise InvalidState([("/game", f"this endpoint judges {GAME_ID} states")])
    if state.get("schema_version") != SCHEMA_VERSION:
        raise InvalidState([("/schema_version", f"supported schema version is {SCHEMA_VERSION}")])
    players = state["players"]
    try:
        facts: TableFacts = _state_facts(len(players), state["options"])
    except InvalidOptions as bad:
        raise InvalidState(bad.errors) from None
    errors: Errors = list(facts.option_errors)
    full = facts.full
    if full.get("hands") == "unseen":
        errors.extend(_unseen_places(state, facts.kind_counts))
    # The common case is checked with plain loops; the pointers of a bad state come from the detailed pass.
    elif not cards_in_place(players, state["line"], state["draw_pile"], facts.position, facts.values):
        errors.extend(card_place_errors(state, facts.known))
    turn, final = state["turn"], state["final_turns"]
    errors.extend(_turn_errors(state, full, turn, final))
    errors.extend(_end_errors(state, turn, final))
    if errors:
        raise InvalidState(errors)


def _turn_errors(state: State, full: dict, turn: dict, final: dict | None) -> Errors:
    """Game Progress: the player to act is a seat with a move; a refill step lasts while a card
    can be drawn into a short hand; before the final turns the other players hold 4 cards."""
    errors: Errors = []
    players = state["players"]
    n = len(players)
    if not 0 <= turn["player"] < n:
        errors.append(("/turn/player", f"must be a seat from 0 to {n - 1}"))
    if turn["step"] == "refill" and (full["chance"] != "table" or full.get("hands") == "unseen"):
        errors.append(("/turn/step", "a refill step exists only with chance 'table' and seen hands"))
    acting = turn["player"]
    if state["finished"] or not 0 <= acting < n:
        return errors
    # Every state of a game in progress has a move: a refill lasts while a card can be drawn and
    # the hand is short, and a turn never starts (nor goes on) with no card in hand and none in
    # the pile (the turn ends, or passes, instead).
    hand, pile = players[acting]["hand"], state["draw_pile"]
    if turn["step"] == "refill":
        if not pile or len(hand) >= HAND_SIZE:
            errors.append(("/turn/step", (f"a refill step lasts while the draw pile has cards and the hand "
                                         f"holds fewer than {HAND_SIZE}")))
    elif not hand and not pile:
        errors.append(("/turn/player", ("the player to act has no card in hand and the draw pile is empty: "
                                       "that turn ends or passes (End of the Game)")))
    if final is None:
        # Each turn ends with the refill to 4 cards, and a player who cannot refill ends the
        # game: until then, every player but the one to act holds 4 cards.
        for seat, player in enumerate(players):
            if len(player["hand"]) != HAND_SIZE and seat != acting:
                errors.append((f"/players/{seat}/hand", (f"before the final turns, every player but the one "
                                                        f"to act holds {HAND_SIZE} cards (each turn ends with "
                                                        f"the refill)")))
    return errors


def _end_errors(state: State, turn: dict, final: dict | None) -> Errors:
    """End of the Game: the final turns name seats still to play, never the one who ended the
    game, the first of them to act; the game is finished exactly when none remains."""
    errors: Errors = []
    finished = state["finished"]
    n = len(state["players"])
    if final is None:
        if finished:
            errors.append(("/finished", "a finished game has final_turns"))
        return errors
    if not 0 <= final["ended_by"] < n:
        errors.append(("/final_turns/ended_by", f"must be a seat from 0 to {n - 1}"))
    remaining = final["remaining"]
    if (len(set(remaining)) != len(remaining) or final["ended_by"] in remaining
            or any(not 0 <= s < n for s in remaining)):
        errors.append(("/final_turns/remaining", "seats still to play, each once, never the one who ended the game"))
    if not finished and remaining and remaining[0] != turn["player"]:
        errors.append(("/turn/player", ("during the final turns the player to act is the first of "
                                       "final_turns.remaining")))
    if not finished and not remaining:
        errors.append(("/final_turns/remaining", "no final turn left but the game is not finished"))
    if finished and remaining:
        errors.append(("/finished", "the game cannot be finished while final turns remain"))
    return errors


# -- every card in exactly one place (seen hands) -------------------------------------------

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


def cards_in_place(players: list, line: list, draw_pile: list, position: dict[str, int],
                   values: tuple[int, ...]) -> bool:
    """The common case of the state check, without pointers: every card of the deck in
    exactly one place, the line's piles in ascending values 1 to 10 each holding cards of its
    value, hands within their size, fleas from 0 to MAX_FLEAS. ``position`` and ``values``:
    the deck's cards by catalogue index (:class:`TableFacts`)."""
    seen = [False] * len(values)   # one mark per card of the deck, by its index
    if not _take(draw_pile, position, seen):
        return False
    size = len(draw_pile)
    for player in players:
        hand, collected = player["hand"], player["collected"]
        if len(hand) > HAND_SIZE or not 0 <= player["fleas"] <= MAX_FLEAS:
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


def card_place_errors(state: State, known: frozenset[str]) -> Errors:
    """The detailed pass of what :func:`cards_in_place` checks, with a pointer for each error
    (empty exactly when that check passes)."""
    players = state["players"]
    errors: Errors = []
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


def _seat_errors(players: list) -> Errors:
    """Hands within their size, fleas from 0 to MAX_FLEAS (the state check, both hand modes)."""
    errors: Errors = []
    for seat, player in enumerate(players):
        if len(player["hand"]) > HAND_SIZE:
            errors.append((f"/players/{seat}/hand", f"a hand holds at most {HAND_SIZE} cards"))
        if player["fleas"] < 0:
            errors.append((f"/players/{seat}/fleas", "fleas cannot be negative"))
        elif player["fleas"] > MAX_FLEAS:
            errors.append((f"/players/{seat}/fleas", f"at most {MAX_FLEAS} fleas are judged"))
    return errors


def _line_errors(line: list, claim: Callable[[Any, str], None], names: Collection[str]) -> Errors:
    """The line: distinct values 1 to 10 in ascending order, each pile holding cards of its
    value; every card is passed to ``claim`` with its pointer (``names``: the card names the
    state may hold, ids or kinds, whose value is checked)."""
    errors: Errors = []
    previous = 0   # a value as the state gives it (the schema admits any number)
    for p, pile in enumerate(line):
        value = pile["value"]
        if not 1 <= value <= 10 or value <= previous:
            errors.append((f"/line/{p}/value", "line piles must have distinct values 1 to 10 in ascending order"))
        previous = value
        if not pile["cards"]:
            errors.append((f"/line/{p}/cards", "a pile on the line holds at least one card"))
        for i, card in enumerate(pile["cards"]):
            claim(card, f"/line/{p}/cards/{i}")
            if card in names and card_value(card) != value:
                errors.append((f"/line/{p}/cards/{i}", f"card {card} does not have value {value}"))
    return errors


# -- unseen hands -----------------------------------------------------------------------------

def _unseen_places(state: State, counts: Mapping[str, int]) -> Errors:
    """Unseen hands: hands and draw pile hold only nulls, the line and the collected piles
    name kinds of the deck, no kind is named more often than the deck has it, and the
    named and unseen cards together are the whole deck."""
    errors: Errors = []
    named: dict[str, int] = {}
    unseen = 0

    def claim(card: Any, pointer: str) -> None:
        if card is None:
            errors.append((pointer, "a face-up card is named by its kind (e.g. C5), never null"))
        elif card not in counts:
            detail = (f"with unseen hands cards are named by kind ({kind_of(card)}), not id"
                      if kind_of(card) in counts else f"the deck has no card {card!r}")
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
