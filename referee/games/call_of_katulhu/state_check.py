"""Call of Katulhu: the state check, what every state must keep of the rulebook.

Setup: valid options and catalogue, 2 players with the blue and red decks, each player's 6 toys
exactly once between hand and placement, every cat of the catalogue in exactly one place.
Gameplay: 5 cats on the table while toys are placed or cats discarded, at most 5 otherwise;
face-down choices only in their phase and never both made (the second resolves); a quiet-round
count that agrees with the stall; the end when a player holds 7 cats or none is left. Optional
Advanced Game Rule: the 2 toys set aside last round are named, and played.
"""

from __future__ import annotations

from functools import partial

from referee.engine.core import InvalidOptions, InvalidState, State
from referee.engine.places import claim_place
from referee.games.call_of_katulhu.cards import (
    CATS_TO_END,
    DECK_COLOURS,
    SLOTS,
    STALL_ROUNDS,
    TABLE_SIZE,
    TOYS_PER_DECK,
    Catalogue,
)
from referee.games.call_of_katulhu.deal import GAME_ID, OPTION_NAMES, SCHEMA_VERSION, state_options

# A state is judged up to this round (a move may then start the next: answers are not bounded by it).
MAX_ROUND = 1_000_000

Errors = list[tuple[str, str]]   # (JSON pointer into the state, detail)


def check_state(state: State) -> None:
    """Raise InvalidState unless the state can exist: valid options and catalogue, 2 players
    with the blue and red decks, each player's 6 toys exactly once between hand and
    placement, every cat of the catalogue in exactly one place, at most 5 cats on the table
    (exactly 5 while toys are placed or cats discarded), hidden choices only in their phase
    and never both made, a quiet-round count that agrees with the phase, and end fields
    that agree with the cats held. Errors are ``(JSON pointer into the state, detail)``."""
    if state.get("game") != GAME_ID:
        raise InvalidState([("/game", f"this endpoint judges {GAME_ID} states")])
    if state.get("schema_version") != SCHEMA_VERSION:
        raise InvalidState([("/schema_version", f"supported schema version is {SCHEMA_VERSION}")])
    players = state["players"]
    options = state["options"]
    try:
        full, catalogue = state_options(len(players), options)
    except InvalidOptions as bad:
        raise InvalidState(bad.errors) from None
    errors: Errors = []
    if set(options) != set(OPTION_NAMES):
        errors.append(("/options", "a state carries every option explicitly"))
    phase = state["phase"]
    errors.extend(_player_errors(state, full, catalogue, phase))
    errors.extend(_cat_place_errors(state, catalogue))
    errors.extend(_table_errors(state, full, phase))
    errors.extend(_end_errors(state, phase))
    if errors:
        raise InvalidState(errors)


def _player_errors(state: State, full: dict, catalogue: Catalogue, phase: str) -> Errors:
    """Each player's deck, toys (hand and placement), set-aside toys (advanced rule) and
    stall choice; the face-down choices of a round, never both made."""
    errors: Errors = []
    players = state["players"]
    advanced = full["advanced"]
    for seat, player in enumerate(players):
        base = f"/players/{seat}"
        if player["deck"] != DECK_COLOURS[seat]:
            errors.append((f"{base}/deck", f"seat {seat} holds the {DECK_COLOURS[seat]} deck"))
        placement = player["placement"]
        hand = player["hand"]
        held = hand + placement if placement else hand
        # As many toys as the deck, and the deck's set of toys: so each toy once.
        if len(held) != len(catalogue.toy_set) or set(held) != catalogue.toy_set:
            errors.extend(_toy_place_errors(base, hand, placement, catalogue.toy_set))
        elif list(hand) != [toy for toy in catalogue.toys if toy in hand]:  # (only once the toys are right)
            errors.append((f"{base}/hand", "the hand is kept in catalogue order"))
        if placement is not None:
            if len(placement) != SLOTS:
                errors.append((f"{base}/placement", "a placement fills the 4 slots"))
            if phase != "place":
                errors.append((f"{base}/placement", "toys are placed only in phase 'place'"))
        must = player["must_play"]
        if must:
            if not advanced:
                errors.append((f"{base}/must_play", "only the advanced rule makes set-aside toys compulsory"))
            elif (len(must) != TOYS_PER_DECK - SLOTS or len(set(must)) != len(must)
                  or not set(must) <= catalogue.toy_set):
                errors.append((f"{base}/must_play", "the 2 different toys set aside last round"))
            elif placement is not None and not set(must) <= set(placement):
                errors.append((f"{base}/placement", "a placement plays the toys set aside last round"))
        elif advanced and state["round"] > 1:
            errors.append((f"{base}/must_play", ("with the advanced rule, the 2 toys set aside last round must "
                                                "be named")))
        if player["discard"] is not None:
            if phase != "stall":
                errors.append((f"{base}/discard", "a cat is chosen for discard only in phase 'stall'"))
            elif player["discard"] not in state["table"]:
                errors.append((f"{base}/discard", "the chosen cat must be on the table"))
    if len(players) == 2:
        if players[0]["placement"] is not None and players[1]["placement"] is not None:
            errors.append(("/players/1/placement", "once both players have placed, the round is resolved"))
        if players[0]["discard"] is not None and players[1]["discard"] is not None:
            errors.append(("/players/1/discard", "once both players have chosen, the cats are discarded"))
    return errors


def _toy_place_errors(base: str, hand: list, placement: list | None, toys: frozenset[str]) -> Errors:
    """Why a player's hand and placement (``base``: the player's pointer) do not hold each toy
    of ``toys`` exactly once: each unknown or repeated toy at its own pointer, then the toys
    missing from both (rulebook, Setup: each player takes the 6 toys of their deck)."""
    errors: Errors = []
    where: dict[str, str] = {}
    for field, toys_there in (("hand", hand), ("placement", placement or ())):
        for i, toy in enumerate(toys_there):
            claim_place(errors, where, toys, toy, f"{base}/{field}/{i}", noun="toy")
    missing = toys.difference(where)
    if missing:
        errors.append((f"{base}/hand", "the hand and the placement hold each of the 6 toys exactly once; missing: "
                                       + ", ".join(sorted(missing))))
    return errors


def _cat_place_errors(state: State, catalogue: Catalogue) -> Errors:
    """Every cat of the catalogue in exactly one place: won, on the table, in the deck or on
    the discard pile. Checked with sets first; the per-cat pass that finds the pointers runs
    only when that check fails."""
    players = state["players"]
    cats = [card for player in players for card in player["cats"]]
    cats += state["table"] + state["cat_deck"] + state["discard_pile"]
    # As many cats as the catalogue, and the catalogue's set of cats: so each cat once.
    if len(cats) == len(catalogue.cat_set) and set(cats) == catalogue.cat_set:
        return []
    errors: Errors = []
    where: dict[str, str] = {}
    claim = partial(claim_place, errors, where, catalogue.cat_set, noun="cat")
    for seat, player in enumerate(players):
        for i, card in enumerate(player["cats"]):
            claim(card, f"/players/{seat}/cats/{i}")
    for field in ("table", "cat_deck", "discard_pile"):
        for i, card in enumerate(state[field]):
            claim(card, f"/{field}/{i}")
    missing = catalogue.cat_set.difference(where)
    if missing:
        errors.append(("", f"cats missing from every place: {', '.join(sorted(missing))}"))
    return errors


def _table_errors(state: State, full: dict, phase: str) -> Errors:
    """The table (5 cats while toys are placed or cats discarded), the reveal phase (table
    chance), the round counter and the quiet rounds of the stall rule."""
    errors: Errors = []
    table = state["table"]
    quiet = state["quiet_rounds"]
    if len(table) > TABLE_SIZE:
        errors.append(("/table", f"at most {TABLE_SIZE} cats are on the table"))
    if phase in ("place", "stall") and len(table) != TABLE_SIZE:
        errors.append(("/table", f"toys are placed and cats discarded with {TABLE_SIZE} cats on the table"))
    if phase == "reveal":
        if full["chance"] != "table":
            errors.append(("/phase", "phase 'reveal' exists only with chance 'table'"))
        if len(table) >= TABLE_SIZE or not state["cat_deck"]:
            errors.append(("/phase", "phase 'reveal' needs a cat to turn up and a place for it"))
    if state["round"] < 1:
        errors.append(("/round", "rounds are counted from 1"))
    elif state["round"] > MAX_ROUND:
        errors.append(("/round", f"at most {MAX_ROUND} rounds are judged"))
    if phase == "stall" and quiet != STALL_ROUNDS:
        errors.append(("/quiet_rounds", f"phase 'stall' follows {STALL_ROUNDS} rounds without any cat removed"))
    if phase != "stall" and not 0 <= quiet < STALL_ROUNDS:
        errors.append(("/quiet_rounds", f"must be 0 to {STALL_ROUNDS - 1} outside phase 'stall'"))
    return errors


def _end_errors(state: State, phase: str) -> Errors:
    """Gameplay, the end: finished exactly in phase "over", with the reason (7 cats held, or
    no cat left in the deck and the discard pile)."""
    errors: Errors = []
    players = state["players"]
    most = max(len(players[0]["cats"]), len(players[1]["cats"]))   # 2 players (the options check)
    finished, end = state["finished"], state["end"]
    if finished != (phase == "over"):
        errors.append(("/finished", "the game is finished exactly in phase 'over'"))
    if finished != (end is not None):
        errors.append(("/end", "a finished game says why it ended, an unfinished one does not"))
    if end == "seven_cats" and most < CATS_TO_END:
        errors.append(("/end", f"no player holds {CATS_TO_END} cats"))
    if not finished and most >= CATS_TO_END:
        errors.append(("/finished", f"a player holding {CATS_TO_END} cats has ended the game"))
    if end == "no_cats_left" and (state["cat_deck"] or state["discard_pile"]):
        errors.append(("/end", "the game ends for lack of cats only when the deck and the discard pile are empty"))
    return errors
