"""Scratch & Catch, rulebook sections Game Progress and Scratch Cards: a turn's moves and their effects.

On your turn you play 2 cards, each from your hand or from the draw pile, onto the line. The 1st
card has no effect; the 2nd makes a Stack (take the adjacent piles) or a Sequence (discard as
many fleas as its length). A Scratch card played 2nd also gives each other player as many fleas
as its pile holds. At the end of your turn you draw until you hold 4 cards; then the turn passes
(end.py: unless the game ends).

With table chance the refill is a move per card (``draw``); with unseen hands it is automatic.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from referee.engine.core import Illegal, State, Violation
from referee.engine.places import copy_of_kind
from referee.games.scratch_and_catch.cards import HAND_SIZE, card_value, deck_set, is_scratch, kind_counts, kind_of
from referee.games.scratch_and_catch.deal import deck_of, hands_unseen
from referee.games.scratch_and_catch.end import end_turn
from referee.games.scratch_and_catch.line import pile_size, place_card, sequence_length, take_adjacent
from referee.games.scratch_and_catch.messages import DRAWN_FIELD, rule_violation

# legal-moves marks, in this field of a move, the fields a table fills in with what it sees.
TABLE_FILLS = "table_fills"

Move = dict
Events = list[dict]


# -- the moves listed ------------------------------------------------------------------------

def legal_moves(state: State) -> list[Move]:
    """Every move of the player to act. With seeded chance a pile play is listed once,
    without ``card`` (the generator decides); with table chance once per card in the pile;
    in a refill step, a ``draw`` per card the pile may hold."""
    if state["finished"]:
        return []
    seat = state["turn"]["player"]
    if hands_unseen(state):
        return _unseen_moves(state, seat)
    pile = state["draw_pile"]
    if state["turn"]["step"] == "refill":
        return [{"type": "draw", "player": seat, "card": card} for card in sorted(set(pile))]
    moves = [{"type": "play", "player": seat, "source": "hand", "card": card}
             for card in state["players"][seat]["hand"]]
    if pile:
        if state["options"]["chance"] == "table":
            moves.extend({"type": "play", "player": seat, "source": "pile", "card": card} for card in sorted(pile))
        else:
            moves.append({"type": "play", "player": seat, "source": "pile"})
    return moves


def seat_moves(state: State, seat: int) -> list[Move]:
    """The moves of ``seat`` (empty unless it is to act), as it can know them: with table
    chance the card taken from the pile is null (the table names it, ``table_fills`` says
    so), listed once."""
    if state["finished"] or state["turn"]["player"] != seat:
        return []
    if hands_unseen(state):
        return _unseen_moves(state, seat)
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


def _unseen_moves(state: State, seat: int) -> list[Move]:
    """Unseen hands: a play per kind a hidden card may still be, from the hand (when it holds
    a card) and from the draw pile (when it has one); ``table_fills`` marks ``card`` as the
    field the table fills in with what it sees."""
    kinds = _unseen_kinds(state)
    moves: list[Move] = []
    for source, cards in (("hand", state["players"][seat]["hand"]), ("pile", state["draw_pile"])):
        if cards:
            moves.extend({"type": "play", "player": seat, "source": source, "card": kind, TABLE_FILLS: ["card"]}
                         for kind in kinds)
    return moves


# -- unseen hands: what can still be hidden ---------------------------------------------------

class FaceUp(NamedTuple):
    """How many copies of a kind lie face up: on the line, and in the collected piles."""

    line: int
    collected: int


def _face_up(state: State) -> dict[str, FaceUp]:
    """Unseen hands: the face-up copies of each kind named in the state."""
    line = Counter(card for pile in state["line"] for card in pile["cards"])
    collected = Counter(card for player in state["players"] for card in player["collected"])
    return {kind: FaceUp(line[kind], collected[kind]) for kind in line | collected}


def _unseen_kinds(state: State) -> list[str]:
    """Unseen hands: the kinds a hidden card may still be, in catalogue order."""
    face_up = _face_up(state)
    return [kind for kind, count in kind_counts(*deck_of(state["options"])).items()
            if sum(face_up.get(kind, (0, 0))) < count]


def _unseen_card(state: State, move: Move) -> str:
    """Unseen hands: the kind a play names, once it is checked a copy of it can still be
    hidden in the hand or pile it comes from. Raises Illegal."""
    seat, source, card = move["player"], move.get("source"), move.get("card")
    if source == "hand" and not state["players"][seat]["hand"]:
        raise Illegal(rule_violation("HAND_EMPTY"))
    if source != "hand" and not state["draw_pile"]:
        raise Illegal(rule_violation("DRAW_PILE_EMPTY"))
    if card is None:
        raise Illegal(rule_violation("CARD_REQUIRED") if source != "hand"
                      else rule_violation("CARD_NOT_IN_HAND", card=card))
    kind = kind_of(card)
    count = kind_counts(*deck_of(state["options"])).get(kind, 0)
    if count == 0:
        raise Illegal(rule_violation("CARD_NOT_IN_DECK", kind=kind))
    line, collected = _face_up(state).get(kind, FaceUp(0, 0))
    if line + collected >= count:
        raise Illegal(rule_violation("CARD_ALREADY_SEEN", kind=kind, count=count, line=line, collected=collected))
    return kind


def _unknown_or_elsewhere(state: State, card: Any, absent: str = "CARD_NOT_IN_PILE") -> Violation:
    """A card named as taken from a place (the draw pile, the hand) that does not hold it:
    UNKNOWN_CARD when the deck has no such card (as the stateless check says "unknown card
    id"), else ``absent`` (CARD_NOT_IN_PILE or CARD_NOT_IN_HAND), which does not say where the
    card is."""
    if card is not None and card not in deck_set(*deck_of(state["options"])):
        return rule_violation("UNKNOWN_CARD", card=card)
    return rule_violation(absent, card=card)


# -- judging and applying a move ------------------------------------------------------------

def apply(state: State, move: Move) -> tuple[State, Events]:
    """Judge ``move`` in ``state`` (rulebook, Game Progress and Scratch Cards): the next state
    (a copy; ``state`` is not changed) and the events. Raises Illegal."""
    if state["finished"]:
        raise Illegal(rule_violation("GAME_OVER"))
    seat = move["player"]
    turn = state["turn"]
    if not 0 <= seat < len(state["players"]):
        raise Illegal(rule_violation("NO_SUCH_PLAYER", player=seat, last=len(state["players"]) - 1))
    if seat != turn["player"]:
        raise Illegal(rule_violation("NOT_YOUR_TURN", turn=turn["player"], player=seat))
    kind = move["type"]
    if hands_unseen(state):
        if kind != "play":
            raise Illegal(rule_violation("REFILL_UNSEEN"))
        return _play(state, move)
    if turn["step"] == "refill":
        if kind != "draw":
            raise Illegal(rule_violation("REFILL_PENDING"))
        return _draw(state, move)
    if kind != "play":
        if state["options"]["chance"] != "table":
            raise Illegal(rule_violation("REFILL_IS_AUTOMATIC"))
        raise Illegal(rule_violation("NOT_REFILLING"))
    if move.get("source") == "pile" and move.get("card") is not None and state["options"]["chance"] != "table":
        raise Illegal(rule_violation("SEEDED_CHANCE", field=DRAWN_FIELD))
    return _play(state, move)


def _copy_state(state: State) -> State:
    """A copy deep enough that applying a move never touches the caller's state: new objects
    for everything a move changes in place (the player to act's hand and collected cards, the
    draw pile, the line and its piles, the turn, the final turns, the generator). The lists a
    move never changes in place are shared: the other players' hands and collected cards (a
    move only sets their fleas) and each pile's cards (:func:`place_card` gives a pile a new
    list). Each player and pile dict is copied whole (a key the schema would refuse, which only
    a Python caller can pass, is kept)."""
    new = dict(state)
    acting = state["turn"]["player"]
    players = []
    for seat, player in enumerate(state["players"]):
        copied = dict(player)
        if seat == acting:
            copied["hand"] = list(player["hand"])
            copied["collected"] = list(player["collected"])
        players.append(copied)
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


def _take_from_pile(state: State, move: Move) -> str:
    """The card a pile play takes from ``state``'s draw pile (changed): the one the table names,
    or the top card with the generator. Raises Illegal."""
    pile = state["draw_pile"]
    if not pile:
        raise Illegal(rule_violation("DRAW_PILE_EMPTY"))
    seen = move.get("card")
    if state["options"]["chance"] == "table":
        if seen is None:
            raise Illegal(rule_violation("CARD_REQUIRED"))
        taken = _copy_in_pile(state, seen)
        pile.remove(taken)
        if taken == seen:
            return taken
        holder = next((seat for seat, player in enumerate(state["players"]) if seen in player["hand"]), None)
        if holder is None:   # (the named copy lies face up: every reader sees where it is)
            return taken
        # The named copy lies in a hand: the two copies swap ids, so the card played face up is
        # the one named and no reader learns where that id was.
        hand = state["players"][holder]["hand"] = list(state["players"][holder]["hand"])
        hand[hand.index(seen)] = taken
        return seen
    return pile.pop(0)


def _copy_in_pile(state: State, card: Any) -> str:
    """The copy a table takes from the draw pile when it names ``card`` (:func:`copy_of_kind`:
    copies of a number are the same printed card, Components; ``state`` is a copy the move
    changes, its generator advances). Raises Illegal: UNKNOWN_CARD, or CARD_NOT_IN_PILE when no
    copy is in the pile."""
    if isinstance(card, str) and card in deck_set(*deck_of(state["options"])):
        taken = copy_of_kind(state["draw_pile"], card, kind_of, state)
        if taken is not None:
            return taken
    raise Illegal(_unknown_or_elsewhere(state, card))


def _play(state: State, move: Move) -> tuple[State, Events]:
    """A card played onto the line, with the effects of a 2nd card (Stack or Sequence, and a
    Scratch card's fleas); after the 2nd card, the refill."""
    seat = move["player"]
    source = move.get("source")
    hand = state["players"][seat]["hand"]
    unseen = hands_unseen(state)
    if unseen:
        card = _unseen_card(state, move)
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
        card = _take_from_pile(new, move)
    line = new["line"]
    placed = place_card(line, card)
    step = new["turn"]["step"]
    events: Events = [{"type": "card_played", "player": seat, "card": card, "source": source, "position": step}]
    if step == "first":
        if player["hand"] or new["draw_pile"]:
            new["turn"]["step"] = "second"
            return new, events
        # A final turn with a single card left: the turn ends after it (rules notes).
        return end_turn(new, events)
    value = card_value(card)
    if placed.stacked:
        taken = take_adjacent(line, placed, value)
        player["collected"].extend(taken)
        events.append({"type": "stack", "player": seat, "value": value, "collected": taken})
    else:
        length = sequence_length(line, placed)
        if length > 1:
            discarded = min(length, player["fleas"])
            player["fleas"] -= discarded
            events.append({"type": "sequence", "player": seat, "length": length, "fleas_discarded": discarded})
    if is_scratch(card):
        # Scratch Cards: each other player takes a flea per card of the Scratch card's pile.
        fleas = pile_size(line, value)
        others = [other for other in range(len(new["players"])) if other != seat]
        for other in others:
            new["players"][other]["fleas"] += fleas
        events.append({"type": "scratch", "player": seat, "fleas_each": fleas, "players": others})
    return _refill(new, events)


def _refill(state: State, events: Events) -> tuple[State, Events]:
    """Rulebook, Game Progress: at the end of your turn, draw until you hold 4 cards (with
    table chance, a refill step of ``draw`` moves; otherwise at once)."""
    seat = state["turn"]["player"]
    hand = state["players"][seat]["hand"]
    pile = state["draw_pile"]
    if state["options"]["chance"] == "table" and not hands_unseen(state):
        if len(hand) < HAND_SIZE and pile:
            state["turn"]["step"] = "refill"
            return state, events
        return end_turn(state, events)
    count = min(HAND_SIZE - len(hand), len(pile))
    if count > 0:
        hand.extend(pile[:count])
        del pile[:count]
        events.append({"type": "cards_drawn", "player": seat, "count": count})
    return end_turn(state, events)


def _draw(state: State, move: Move) -> tuple[State, Events]:
    """Table chance: one card of the refill, named by the table. Raises Illegal."""
    card = move.get("card")
    if card is None:
        raise Illegal(rule_violation("CARD_REQUIRED"))
    new = _copy_state(state)
    card = _copy_in_pile(new, card)   # (the drawn card stays hidden: no other hand changes)
    seat = move["player"]
    new["draw_pile"].remove(card)
    new["players"][seat]["hand"].append(card)
    events: Events = [{"type": "cards_drawn", "player": seat, "count": 1}]
    if len(new["players"][seat]["hand"]) < HAND_SIZE and new["draw_pile"]:
        return new, events
    return end_turn(new, events)
