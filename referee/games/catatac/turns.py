"""Rulebook, 3. Refilling Your Hand, and the turn passing clockwise (Turn Summary): a hand is
refilled to 6 cards (at a table, one draw move per card), a player with no card left is
passed over, and a pending Skip (The Boosters) skips the next turn."""

from __future__ import annotations

from referee.engine.core import State
from referee.engine.places import copy_of_kind
from referee.games.catatac import cards
from referee.games.catatac.end import game_end
from referee.games.catatac.messages import illegal
from referee.games.catatac.state import boosters_of, copy_state, is_unseen


def refill(state: State, seat: int, events: list[dict]) -> None:
    """Rulebook, 3. Refilling Your Hand: draw up to 6 cards (seeded chance: the top cards)."""
    hand = state["players"][seat]["hand"]
    deck = state["paw_deck"]
    count = min(cards.HAND_SIZE - len(hand), len(deck))
    if count > 0:
        hand.extend(deck[:count])
        del deck[:count]
        events.append({"type": "cards_drawn", "player": seat, "count": count})


def after_turn(state: State, events: list[dict], owner: int) -> None:
    """After a turn of ``owner`` (refill done): a pending stash is answered, else play goes on."""
    stash = state["stash"]
    if stash is not None:
        state["turn"] = {"player": stash["answer"][0], "phase": "answer"}
        return
    advance(state, events, owner)


def advance(state: State, events: list[dict], base: int) -> None:
    """Give the turn to the first seat clockwise after ``base`` holding cards; a player with
    no cards left is passed over. A seat with an empty hand while the paw deck still has
    cards (a deferred refill) has a turn with nothing to play and refills (rules notes).
    When the paw deck is empty and no hand holds a card, the game ends."""
    players = state["players"]
    n = len(players)
    table = state["options"]["chance"] == "table" and not is_unseen(state)
    if not state["paw_deck"] and not any(p["hand"] for p in players):
        game_end(state, events)
        return
    skip = state.get("skip", False)
    if skip:
        state["skip"] = False
    seat = base
    for _ in range(2 * n + 2):
        seat = (seat + 1) % n
        if skip and (players[seat]["hand"] or state["paw_deck"]):
            # Booster Skip: the next turn (a refill-only turn too) is skipped, without drawing.
            skip = False
            events.append({"type": "turn_skipped", "player": seat})
            continue
        if players[seat]["hand"]:
            state["turn"] = {"player": seat, "phase": "play"}
            return
        events.append({"type": "turn_passed", "player": seat, "reason": "no_cards"})
        if state["paw_deck"]:
            if table:
                state["turn"] = {"player": seat, "phase": "refill"}
                return
            refill(state, seat, events)
    raise AssertionError("no seat can play")  # pragma: no cover - excluded by the check above


def draw(state: State, move: dict) -> tuple[State, list[dict]]:
    """Table chance, 3. Refilling Your Hand: one card drawn, as seen at the table."""
    card = move.get("card")
    if card is None:  # as a match's legal-moves lists it: the card is unknown until drawn
        raise illegal("CARD_REQUIRED")
    options = state["options"]
    if card not in state["paw_deck"] and card not in cards.game_paw_set(options["kittens"], boosters_of(options)):
        raise illegal("UNKNOWN_CARD", card=card)  # as the stateless check: "unknown card id"
    new = copy_state(state)
    # Copies of a kind are the same printed card: the table's draw takes a copy of the kind named.
    taken = copy_of_kind(new["paw_deck"], card, cards.kind_of, new)
    if taken is None:
        raise illegal("CARD_NOT_IN_DECK", card=card)
    card = taken
    seat = move["player"]
    new["paw_deck"].remove(card)
    new["players"][seat]["hand"].append(card)
    events = [{"type": "cards_drawn", "player": seat, "count": 1}]
    if len(new["players"][seat]["hand"]) < cards.HAND_SIZE and new["paw_deck"]:
        return new, events
    after_turn(new, events, seat)
    return new, events
