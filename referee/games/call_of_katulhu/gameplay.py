"""Call of Katulhu, rulebook sections Gameplay and Optional Advanced Game Rule: a round's moves and effects.

Each round both players place 4 different toys of their 6 face down in slots 1 to 4, at the same
time (either order; the second placement reveals). Slot by slot, a toy beaten by the other's toy
is removed; then each player attracts every cat on the table whose shown toys all match their
remaining toys, slot by slot; a cat attracted by both is discarded. The table is refilled to 5
cats, the discard pile reshuffled into the deck when it is empty; with no cat left the game ends,
as it does when a player holds 7 cats. After 2 rounds without any cat removed each player names
a cat of the table to discard (the stall). Advanced rule: the 2 toys set aside in a round must be
played the next.

Phases: "place", "stall", "reveal" (table chance: cats are turned up one move at a time until 5
are on the table), "over".
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from referee.engine.core import State
from referee.engine.rng import Rng
from referee.games.call_of_katulhu.cards import CATS_TO_END, SLOTS, STALL_ROUNDS, TABLE_SIZE
from referee.games.call_of_katulhu.deal import catalogue_of
from referee.games.call_of_katulhu.messages import illegal
from referee.games.call_of_katulhu.scoring import score

PHASES = ("place", "stall", "reveal", "over")
TABLE_FILLS = "table_fills"   # a match's legal-moves at a table: the fields the table names

Move = dict
Events = list[dict]


# -- the moves listed ------------------------------------------------------------------------

@lru_cache(maxsize=256)
def placements(hand: tuple[str, ...], must_play: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every placement (4 different toys of ``hand``, slot 1 first) that plays every toy of
    ``must_play`` (the advanced rule's set-aside toys)."""
    required = set(must_play)
    return tuple(p for p in permutations(hand, SLOTS) if required.issubset(p))


def legal_moves(state: State) -> list[Move]:
    """Every move of every player who may act now (both players act in the same phase).

    Phase "place": for each player who has not placed, every ordered choice of 4 different
    toys of their 6 (360 each; 144 under the advanced rule, which keeps the 2 set-aside
    toys). Phase "stall": for each player who has not chosen, each cat on the table.
    Phase "reveal" (table chance): for each seat, each cat that may be in the deck
    (either seat may report the cat turned up)."""
    phase = state["phase"]
    moves: list[Move] = []
    if phase == "place":
        for seat, player in enumerate(state["players"]):
            if player["placement"] is None:
                moves.extend({"type": "place", "player": seat, "toys": list(p)}
                             for p in placements(tuple(player["hand"]), tuple(player["must_play"])))
    elif phase == "stall":
        for seat, player in enumerate(state["players"]):
            if player["discard"] is None:
                moves.extend({"type": "discard", "player": seat, "cat": cat} for cat in state["table"])
    elif phase == "reveal":
        deck = sorted(set(state["cat_deck"]))
        for seat in range(len(state["players"])):
            moves.extend({"type": "reveal", "player": seat, "cat": cat} for cat in deck)
    return moves


def seat_moves(state: State, seat: int) -> list[Move]:
    """The moves of ``seat`` now, as it can know them: with table chance the cat turned up
    is null (the table names it, ``table_fills`` says so), listed once."""
    moves = [move for move in legal_moves(state) if move["player"] == seat]
    if state["phase"] == "reveal":
        return [{"type": "reveal", "player": seat, "cat": None, TABLE_FILLS: ["cat"]}] if moves else []
    return moves


# -- judging and applying a move ------------------------------------------------------------

def apply(state: State, move: Move) -> tuple[State, Events]:
    """Judge ``move`` in ``state`` (rulebook, Gameplay and Optional Advanced Game Rule): the
    next state (a copy; ``state`` is not changed) and the events. Raises Illegal."""
    phase = state["phase"]
    if phase == "over":
        raise illegal("GAME_OVER")
    seat = move["player"]
    if not 0 <= seat < len(state["players"]):
        raise illegal("NO_SUCH_PLAYER", player=seat)
    kind = move["type"]
    if kind == "reveal" and state["options"]["chance"] != "table":
        raise illegal("REVEAL_NOT_ACCEPTED")
    if phase == "place":
        if kind != "place":
            raise illegal("PLACEMENT_PENDING")
        return _place(state, move)
    if phase == "stall":
        if kind != "discard":
            raise illegal("STALL_DISCARD_PENDING")
        return _choose_discard(state, move)
    if kind != "reveal":
        raise illegal("REVEAL_PENDING")
    return _reveal(state, move)


def _copy_state(state: State) -> State:
    """A copy deep enough that applying a move never touches the caller's state."""
    new = dict(state)
    new["players"] = [
        {"deck": p["deck"], "hand": list(p["hand"]),
         "placement": None if p["placement"] is None else list(p["placement"]),
         "must_play": list(p["must_play"]), "discard": p["discard"], "cats": list(p["cats"])}
        for p in state["players"]
    ]
    new["table"] = list(state["table"])
    new["cat_deck"] = list(state["cat_deck"])
    new["discard_pile"] = list(state["discard_pile"])
    new["rng"] = dict(state["rng"])
    return new


def _place(state: State, move: Move) -> tuple[State, Events]:
    """Gameplay: a player's 4 toys placed face down (the advanced rule: with the toys set aside
    last round); the second placement of a round resolves it. Raises Illegal."""
    seat = move["player"]
    player = state["players"][seat]
    if player["placement"] is not None:
        raise illegal("ALREADY_PLACED", player=seat)
    toys = move.get("toys")
    if not isinstance(toys, list) or len(toys) != SLOTS:
        raise illegal("WRONG_TOY_COUNT")
    hand = player["hand"]
    seen = set()
    for toy in toys:
        if toy not in hand:
            raise illegal("TOY_NOT_IN_DECK", toy=toy)
        if toy in seen:
            raise illegal("TOY_PLACED_TWICE", toy=toy)
        seen.add(toy)
    missing = [toy for toy in player["must_play"] if toy not in seen]
    if missing:
        raise illegal("SET_ASIDE_NOT_PLAYED", toys=", ".join(missing))
    new = _copy_state(state)
    mine = new["players"][seat]
    mine["placement"] = list(toys)
    mine["hand"] = [t for t in hand if t not in seen]
    events: Events = [{"type": "toys_placed", "player": seat}]
    if new["players"][1 - seat]["placement"] is None:   # the other player has not placed yet
        return new, events
    return _resolve_round(new, events)


def _resolve_round(new: State, events: Events) -> tuple[State, Events]:
    """Rulebook, Gameplay: reveal slot by slot (a toy beaten by the other's toy in the same
    slot is removed, its slot stays empty); each player attracts every cat whose shown toys
    all match; a cat attracted by both is discarded; then the game may end (7 cats), the
    table is refilled, and the stall rule is checked."""
    catalogue = catalogue_of(new)
    players = new["players"]
    blue, red = players[0]["placement"], players[1]["placement"]
    kept_blue, kept_red = list(blue), list(red)
    slots_event = []
    for k in range(SLOTS):
        a, b = blue[k], red[k]
        removed = []
        if (a, b) in catalogue.beats:
            kept_red[k] = None
            removed.append(1)
        elif (b, a) in catalogue.beats:
            kept_blue[k] = None
            removed.append(0)
        slots_event.append({"slot": k + 1, "toys": [a, b], "removed": removed})
    events.append({"type": "toys_revealed", "slots": slots_event})
    won: list[list[str]] = [[], []]
    both: list[str] = []
    for card in new["table"]:
        # A cat is attracted by the toys kept in every slot it shows (open slots: anything).
        shown = catalogue.shown[card]
        if shown.attracted_by(kept_blue):
            (both if shown.attracted_by(kept_red) else won[0]).append(card)
        elif shown.attracted_by(kept_red):
            won[1].append(card)
    for seat in (0, 1):
        for card in won[seat]:
            players[seat]["cats"].append(card)
            events.append({"type": "cat_attracted", "player": seat, "cat": card})
    for card in both:
        new["discard_pile"].append(card)
        events.append({"type": "cat_discarded", "cat": card, "reason": "attracted_by_both"})
    gone = set(won[0]) | set(won[1]) | set(both)
    if gone:
        new["table"] = [card for card in new["table"] if card not in gone]
    advanced = new["options"]["advanced"]
    for player in players:
        player["must_play"] = list(player["hand"]) if advanced else []
        player["hand"] = list(catalogue.toys)
        player["placement"] = None
    new["round"] += 1
    new["quiet_rounds"] = 0 if gone else new["quiet_rounds"] + 1
    if any(len(p["cats"]) >= CATS_TO_END for p in players):
        return _finish(new, events, "seven_cats")
    if new["quiet_rounds"] >= STALL_ROUNDS:
        new["phase"] = "stall"
        events.append({"type": "stall", "quiet_rounds": new["quiet_rounds"]})
        return new, events
    return _refill(new, events)


def _choose_discard(state: State, move: Move) -> tuple[State, Events]:
    """Gameplay, the stall rule: a player names a cat of the table to discard; once both have,
    the cats named are discarded and the table refilled. Raises Illegal."""
    seat = move["player"]
    if state["players"][seat]["discard"] is not None:
        raise illegal("ALREADY_CHOSE_DISCARD", player=seat)
    card = move.get("cat")
    if card is None:
        raise illegal("CAT_REQUIRED")
    if card not in state["table"]:
        raise illegal("CAT_NOT_ON_TABLE", cat=card)
    new = _copy_state(state)
    new["players"][seat]["discard"] = card
    events: Events = [{"type": "discard_chosen", "player": seat}]
    choices = [p["discard"] for p in new["players"]]
    if None in choices:
        return new, events
    for player in new["players"]:
        player["discard"] = None
    chosen = list(dict.fromkeys(choices))   # both chose the same cat: it is discarded once
    new["table"] = [c for c in new["table"] if c not in chosen]
    for card in chosen:
        new["discard_pile"].append(card)
        events.append({"type": "cat_discarded", "cat": card, "reason": "stall",
                       "players": [s for s, c in enumerate(choices) if c == card]})
    new["quiet_rounds"] = 0
    return _refill(new, events)


def _refill(new: State, events: Events) -> tuple[State, Events]:
    """Gameplay: refill the table to 5 cats, reshuffling the discard pile into the deck when
    the deck is empty; with no cat left anywhere the game ends. Table chance: a phase "reveal"
    in which moves name the cats turned up."""
    table, deck = new["table"], new["cat_deck"]
    seeded = new["options"]["chance"] == "seeded"
    turned: list[str] = []
    while len(table) < TABLE_SIZE:
        if not deck:
            if not new["discard_pile"]:
                if turned:
                    events.append({"type": "cats_turned_up", "cats": turned})
                return _finish(new, events, "no_cats_left")
            pile = new["discard_pile"]
            if seeded:
                rng = Rng.from_state(new["rng"])
                deck.extend(rng.shuffle(list(pile)))
                new["rng"] = rng.to_state()
            else:
                deck.extend(sorted(pile))
            new["discard_pile"] = []
            events.append({"type": "discard_pile_reshuffled", "cats": len(deck)})
        if not seeded:
            new["phase"] = "reveal"
            return new, events
        card = deck.pop(0)
        table.append(card)
        turned.append(card)
    if turned:
        events.append({"type": "cats_turned_up", "cats": turned})
    new["phase"] = "place"
    return new, events


def _reveal(state: State, move: Move) -> tuple[State, Events]:
    """Table chance: one cat turned up at the table, named by the move. Raises Illegal."""
    card = move.get("cat")
    if card is None:
        raise illegal("CAT_REQUIRED")
    if card not in state["cat_deck"]:
        raise illegal("CAT_NOT_IN_DECK", cat=card)
    new = _copy_state(state)
    new["cat_deck"].remove(card)
    new["table"].append(card)
    events: Events = [{"type": "cats_turned_up", "cats": [card]}]
    return _refill(new, events)


def _finish(new: State, events: Events, reason: str) -> tuple[State, Events]:
    """Gameplay: the game ends (``reason``: "seven_cats" or "no_cats_left"); scoring.py names the winners."""
    new["phase"] = "over"
    new["finished"] = True
    new["end"] = reason
    _, outcome = score(new)
    events.append({"type": "game_over", "reason": reason, "winners": list(outcome.winners),
                   "tiebreak": outcome.tiebreak})
    return new, events
