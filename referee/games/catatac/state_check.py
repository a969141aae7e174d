"""check_state: whether a state can exist under the rulebook. Setup's counts (every paw card,
points card and alpha card in exactly one place, clans alternating, hands of at most 6), the
yarn ball in a hideout exactly while a Stash Attempt is pending, and the turn, stash and
Marathon (Variants) fields agreeing; the boosters' parts are checked in boosters.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from referee.engine.core import InvalidOptions, InvalidState, State
from referee.engine.memo import options_memo
from referee.engine.places import claim_place
from referee.games.catatac import cards
from referee.games.catatac.boosters import can_play, check_boosters
from referee.games.catatac.deal import normalise_options
from referee.games.catatac.state import (
    BOOSTERS_OPTION,
    GAME_ID,
    MARATHON_GAMES,
    OPTION_NAMES,
    PHASES,
    boosters_of,
    clan_of,
)
from referee.games.catatac.unseen import face_down_alphas


class TableFacts(NamedTuple):
    """What check_state derives from a state's options alone (the same for every state of a table)."""

    full: dict                  # the options, normalised
    option_errors: tuple        # ((pointer, detail), ...) about how the options are written
    boosters: tuple[str, ...]   # the boosters in play, in the rulebook's order
    unseen: bool                # hands unseen
    known: frozenset[str]       # the paw cards of the game
    alphas: frozenset[str]      # the alpha cards of the game
    points: frozenset[str]      # the points cards of the game
    clans: tuple[str, ...]      # each seat's clan (they alternate from seat0_clan)


def table_facts(players: int, options: Mapping[str, Any]) -> TableFacts:
    """The facts of a state's ``options`` with ``players`` seats. Raises InvalidOptions."""
    full = normalise_options(players, options)
    boosters = boosters_of(full)
    unseen = full.get("hands") == "unseen"
    errors = []
    given = set(options) - {BOOSTERS_OPTION} - ({"hands"} if unseen or options.get("hands") == "seen" else set())
    if given != set(OPTION_NAMES):
        errors.append(("/options", "a state carries every option explicitly (and no deal)"))
    if list(options.get(BOOSTERS_OPTION) or ()) != list(boosters):
        errors.append(("/options/boosters", "boosters are listed in the order distraction, alpha, momentum"))
    return TableFacts(full, tuple(errors), boosters, unseen, cards.game_paw_set(full["kittens"], boosters),
                       cards.alpha_set(boosters), cards.points_set(boosters),
                       tuple(clan_of(seat, full["seat0_clan"]) for seat in range(players)))


# check_state reads a state's options on every move; states of one table share them.
_state_facts = options_memo(table_facts)


def _exactly(placed: list, universe: frozenset) -> bool:
    """Whether ``placed`` holds every card of ``universe`` exactly once, and nothing else."""
    # As many cards as the universe, and none of the universe missing: so each card once.
    return len(placed) == len(universe) and not universe.difference(placed)


def _cards_placed(state: State, boosters: tuple, known: frozenset, alphas: frozenset, points: frozenset) -> bool:
    """Whether every paw card, alpha card and points card is in exactly one place and no other
    card is anywhere: exactly when check_state's per-card pass would find nothing to report."""
    players, discard = state["players"], state["discard"]
    paw = list(state["paw_deck"])
    for player in players:
        paw += player["hand"]
    alpha = [card for card in discard if card in alphas] if alphas else []
    paw += [card for card in discard if card not in alphas] if alpha else discard
    if boosters:
        paw += state.get("box", [])
        alpha += [player["alpha"] for player in players if player.get("alpha") is not None]
        alpha += state.get("alpha_aside", [])
    points_cards = state["points_deck"] + state["points"]["white"] + state["points"]["black"]
    return _exactly(paw, known) and _exactly(alpha, alphas) and _exactly(points_cards, points)


def check_state(state: State, schema_version: int) -> None:
    """Raise InvalidState unless every paw card and points card is in exactly one place,
    clans alternate, hands hold at most 6 cards, the ball is in a hideout exactly while a
    stash attempt is pending, and the turn, stash and marathon fields agree. With boosters:
    the box holds 2 paw cards of each paw booster in play, every alpha card of the piles is
    in front of a player of its clan, on the discard pile or set aside, each player drew
    one, and ``skip`` is pending only while its player refills at a table."""
    if state.get("game") != GAME_ID:
        raise InvalidState([("/game", f"this endpoint judges {GAME_ID} states")])
    if state.get("schema_version") != schema_version:
        raise InvalidState([("/schema_version", f"supported schema version is {schema_version}")])
    players = state["players"]
    n = len(players)
    try:
        facts = _state_facts(n, state["options"])
    except InvalidOptions as bad:
        raise InvalidState(bad.errors) from None
    full, boosters, unseen = facts.full, facts.boosters, facts.unseen
    known, alphas, points_set = facts.known, facts.alphas, facts.points
    errors: list[tuple[str, str]] = list(facts.option_errors)
    # The common case (every card in exactly one place) is checked with sets; the per-card
    # pass below, which finds the pointers, runs only when that check fails.
    placed = not unseen and _cards_placed(state, boosters, known, alphas, points_set)
    where: dict[str, str] = {}

    def claim(card: Any, pointer: str, universe: frozenset, places: dict) -> None:
        claim_place(errors, places, universe, card, pointer)

    clans = facts.clans
    for seat, player in enumerate(players):
        if player["clan"] != clans[seat]:
            errors.append((f"/players/{seat}/clan", "clans alternate around the table from options.seat0_clan"))
        if len(player["hand"]) > cards.HAND_SIZE:
            errors.append((f"/players/{seat}/hand", f"a hand holds at most {cards.HAND_SIZE} cards"))
        if "has_alpha" in player and not (unseen and cards.ALPHA in boosters):
            errors.append((f"/players/{seat}/has_alpha", "present only with unseen hands and the alpha booster"))
        if not unseen and not placed:
            for i, card in enumerate(player["hand"]):
                claim(card, f"/players/{seat}/hand/{i}", known, where)
    if not state["discard"]:
        errors.append(("/discard", "the discard pile holds at least the card turned at setup"))
    if unseen:
        errors.extend(unseen_places(state, full))
    for i, card in enumerate(() if unseen or placed else state["paw_deck"]):
        claim(card, f"/paw_deck/{i}", known, where)
    awhere: dict[str, str] = {}
    for i, card in enumerate(() if unseen or placed else state["discard"]):
        if card in alphas:
            claim(card, f"/discard/{i}", alphas, awhere)
        else:
            claim(card, f"/discard/{i}", known, where)
    if boosters:
        check_boosters(state, full, boosters, claim, where, awhere, errors, placed)
    else:
        for key in ("box", "alpha_aside", "skip"):
            if key in state:
                errors.append((f"/{key}", "present only when boosters are in play"))
        for seat, player in enumerate(players):
            if "alpha" in player:
                errors.append((f"/players/{seat}/alpha", "present only when boosters are in play"))
    if not placed:
        missing = () if unseen else known.difference(where)
        if missing:
            errors.append(("", f"paw cards missing from every place: {', '.join(sorted(missing))}"))
        pwhere: dict[str, str] = {}
        for i, card in enumerate(state["points_deck"]):
            claim(card, f"/points_deck/{i}", points_set, pwhere)
        for clan in cards.CLANS:
            for i, card in enumerate(state["points"][clan]):
                claim(card, f"/points/{clan}/{i}", points_set, pwhere)
        pmissing = points_set.difference(pwhere)
        if pmissing:
            errors.append(("", f"points cards missing from every place: {', '.join(sorted(pmissing))}"))

    turn, stash, finished = state["turn"], state["stash"], state["finished"]
    spot = cards.SPOT_INDEX.get(state["ball"]["spot"])
    if spot is None:
        errors.append(("/ball/spot", f"must be one of {', '.join(cards.SPOTS)}"))
    if state["ball"]["colour"] not in cards.CLANS:
        errors.append(("/ball/colour", "must be white or black"))
    if not 0 <= turn["player"] < n:
        errors.append(("/turn/player", f"must be a seat from 0 to {n - 1}"))
    phase = turn["phase"]
    if phase not in PHASES:
        errors.append(("/turn/phase", f"must be one of {', '.join(PHASES)}"))
    if (phase == "over") != bool(finished):
        errors.append(("/turn/phase", "the phase is 'over' exactly when the game is finished"))
    if phase == "refill" and (full["chance"] != "table" or unseen):
        errors.append(("/turn/phase", "a refill phase exists only with chance 'table' and seen hands"))
    if phase == "answer" and stash is None:
        errors.append(("/stash", "an answer phase needs a pending stash attempt"))
    if phase == "show" and (not unseen or not face_down_alphas(state)
                            or (state["paw_deck"] or any(p["hand"] for p in players)) and state["points_deck"]):
        errors.append(("/turn/phase", ("a show phase exists only with unseen hands, once the game has ended with "
                                      "alpha cards still face down")))
    elif phase == "show" and turn["player"] not in face_down_alphas(state):
        errors.append(("/turn/player", "in the show phase, a seat whose alpha card is still face down"))
    if phase == "replay":
        if cards.MOMENTUM not in boosters:
            errors.append(("/turn/phase", "a replay phase needs a Replay card (the momentum booster)"))
        if 0 <= turn["player"] < n and not can_play(state, turn["player"]):
            errors.append(("/turn/player", "a replay is granted only to a player with a card left to play"))
    if state.get("skip") and phase != "refill":
        errors.append(("/skip", "a Skip is pending only while the player who played it refills at a table"))
    if stash is not None:
        if phase not in ("answer", "refill"):
            errors.append(("/turn/phase", "a pending stash attempt is answered (or the stasher refills first)"))
        if stash["clan"] not in cards.CLANS:
            errors.append(("/stash/clan", "must be white or black"))
        else:
            if spot != cards.HIDEOUT[stash["clan"]]:
                errors.append(("/ball/spot", "during a stash attempt the ball is in the stashing clan's hideout"))
            for key in ("by", "next"):
                if not 0 <= stash[key] < n:
                    errors.append((f"/stash/{key}", f"must be a seat from 0 to {n - 1}"))
            if 0 <= stash["by"] < n and players[stash["by"]]["clan"] != stash["clan"]:
                errors.append(("/stash/by", "the stasher belongs to the stashing clan"))
            answer = stash["answer"]
            if (not answer or len(set(answer)) != len(answer)
                    or any(not 0 <= s < n or players[s]["clan"] == stash["clan"] for s in answer)):
                errors.append(("/stash/answer", "distinct seats of the other clan, at least one"))
            if phase == "answer" and answer and answer[0] != turn["player"]:
                errors.append(("/turn/player", "the first seat of stash.answer acts"))
    elif spot is not None and spot not in cards.ALLEYS:
        errors.append(("/ball/spot", "the ball is in a hideout only while a stash attempt is pending"))
    if phase == "play" and 0 <= turn["player"] < n and not players[turn["player"]]["hand"]:
        errors.append(("/turn/player", "a player with no cards left is passed over"))
    marathon = state["marathon"]
    if (marathon is not None) != full["marathon"]:
        errors.append(("/marathon", "present exactly with the marathon option"))
    elif marathon is not None:
        done = len(marathon["completed"])
        if not 1 <= marathon["game"] <= MARATHON_GAMES or done != marathon["game"] - (0 if finished else 1):
            errors.append(("/marathon", "game 1 to 3, with every earlier game completed"))
    if errors:
        raise InvalidState(errors)


def unseen_places(state: State, full: dict) -> list[tuple[str, str]]:
    """Unseen hands: hands and the paw deck hold only nulls, the discard pile names kinds of
    the game, no kind more often than the game has it, and the discard pile and the unseen
    cards together are the whole paw deck."""
    errors: list[tuple[str, str]] = []
    counts = cards.kind_counts(full["kittens"], boosters_of(full))
    for i, card in enumerate(state.get("box", ())):
        if card is not None:
            errors.append((f"/box/{i}", "with unseen hands a card removed unseen is null"))
    for seat, player in enumerate(state["players"]):
        for i, card in enumerate(player["hand"]):
            if card is not None:
                errors.append((f"/players/{seat}/hand/{i}", "with unseen hands a card in hand is null"))
    for i, card in enumerate(state["paw_deck"]):
        if card is not None:
            errors.append((f"/paw_deck/{i}", "with unseen hands a card of the paw deck is null"))
    named: dict[str, int] = {}
    alphas = cards.alpha_set(boosters_of(full))
    for i, card in enumerate(state["discard"]):
        if card is None:
            errors.append((f"/discard/{i}", "a face-up card is named by its kind (e.g. P3), never null"))
        elif card in alphas:
            continue   # played alpha cards: checked with the boosters
        elif card not in counts:
            detail = (f"with unseen hands cards are named by kind ({cards.kind_of(card)}), not id"
                      if card in cards.KINDS and cards.kind_of(card) in counts
                      else f"not a paw card of this game: {card!r}")
            errors.append((f"/discard/{i}", detail))
        else:
            named[card] = named.get(card, 0) + 1
    for kind, number in named.items():
        if number > counts[kind]:
            errors.append(("/discard", f"{number} cards {kind} are face up; the game has {counts[kind]}"))
    unseen = sum(len(p["hand"]) for p in state["players"]) + len(state["paw_deck"]) + len(state.get("box", ()))
    total = sum(counts.values())
    face_up = len(state["discard"]) - sum(1 for card in state["discard"] if card in alphas)
    if not errors and face_up + unseen != total:
        errors.append(("", f"{face_up} face-up and {unseen} unseen paw cards; the game has {total}"))
    return errors
