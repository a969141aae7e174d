"""Rulebook, 1. Play a Paw Card: Making a Pair, Activating the Action Block, The "Combo",
Cooperation (a teammate's play) and Countering a Stash by a play; the card's choices are
checked against the card (plan_play), then played on the yarn ball (influence.py)."""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.engine.core import Illegal, State, Violation
from referee.engine.rng import Rng
from referee.games.catatac import cards
from referee.games.catatac.boosters import alpha_playable
from referee.games.catatac.influence import ActionBlock, BasicAction, influence, influence_before_flips
from referee.games.catatac.messages import (
    BARS_FIELD,
    CHOICE_FIELDS,
    DIRECTIONS_FIELD,
    UNKNOWN_ACTION,
    illegal,
    rule_violation,
)
from referee.games.catatac.stash import pending_stash
from referee.games.catatac.state import ORDERS, PAIR_ACTIONS, copy_state, is_int, is_unseen
from referee.games.catatac.turns import after_turn, refill
from referee.games.catatac.unseen import unseen_card


class Plan(NamedTuple):
    """A play's pair and action block in the order played, and how many coins it flips."""

    steps: tuple[BasicAction | ActionBlock, ...]
    flips: int


def pairs(kind: cards.Kind, top: cards.Kind) -> bool:
    """Rulebook, Making a Pair and Icons (Joker): same number; a Joker copies the top card's
    number; only a Joker pairs a Joker. Booster B: an alpha card never makes or allows a pair."""
    if kind.alpha or top.alpha:
        return False
    if top.joker:
        return kind.joker
    return kind.joker or kind.number == top.number


def plan_play(kind: cards.Kind, card: str, top_card: str, pair: Any, block: Any, order: Any,
              deck_hockey: bool, cooperation: bool) -> Plan | Violation:
    """Check a play's stated choices against the card (``pair``: ``{"action", "direction"}``,
    ``block``: ``{"bars", "directions"}``, ``order``: a move's fields) and the top card of the
    discard pile, before the yarn ball is looked at: the Plan, or the first Violation."""
    pair_step = block_step = None
    if pair is not None:
        if kind.alpha:
            return rule_violation("ALPHA_MAKES_NO_PAIR", card=card)
        if cards.KINDS[top_card].alpha:
            return rule_violation("ALPHA_ALLOWS_NO_PAIR", top=top_card)
        if not pairs(kind, cards.KINDS[top_card]):
            return rule_violation("NO_PAIR", card=card, top=top_card)
        action, direction = pair.get("action"), pair.get("direction")
        if action not in PAIR_ACTIONS:
            return rule_violation("PAIR_ACTION_NOT_POSSIBLE", action=action, reason=UNKNOWN_ACTION)
        if action == "counter" and not deck_hockey:
            return rule_violation("COUNTER_NEEDS_DECK_HOCKEY")
        needed = 1 if action == "movement" else 0
        given = 0 if direction is None else 1
        if needed != given or (direction is not None and direction not in cards.DIRECTIONS):
            return rule_violation("DIRECTIONS_MISMATCH", given=given, needed=needed)
        pair_step = BasicAction(action, direction)
    flips = 0
    if block is not None:
        if not kind.rows:
            return rule_violation("NO_ACTION_BLOCK", card=card)
        bars, directions = block.get("bars"), block.get("directions")
        if bars is None:
            return rule_violation("CHOICE_MISSING", field=BARS_FIELD)
        if directions is None:
            return rule_violation("CHOICE_MISSING", field=DIRECTIONS_FIELD)
        if len(bars) != len(kind.bars):
            return rule_violation("BAR_CHOICES", card=card, needed=len(kind.bars), given=len(bars))
        chosen = []
        b = 0
        for row in kind.rows:
            if len(row) > 1:
                side = bars[b]
                if not is_int(side) or not 0 <= side < len(row):
                    return rule_violation("BAR_SIDE", card=card, bar=b, side=side)
                chosen.append(row[side])
                b += 1
            else:
                chosen.append(row[0])
        moves = sum(1 for opt in chosen for e in opt.effects if e[0] == "movement")
        if len(directions) != moves or any(d not in cards.DIRECTIONS for d in directions):
            return rule_violation("DIRECTIONS_MISMATCH", given=len(directions), needed=moves)
        flips = sum(1 for opt in chosen for e in opt.effects if e[0] == "coin_flip")
        block_step = ActionBlock(tuple(chosen), tuple(directions))
    if pair_step and block_step:
        if order not in ORDERS:
            return rule_violation("ORDER_REQUIRED")
        steps = (pair_step, block_step) if order == "pair_first" else (block_step, pair_step)
    else:
        if order is not None:
            return rule_violation("ORDER_UNEXPECTED")
        steps = tuple(s for s in (pair_step, block_step) if s)
    if cooperation and block_step is None:
        return rule_violation("COOPERATION_NEEDS_BLOCK")
    return Plan(steps, flips)


def play(state: State, move: dict, answering: bool, cooperation: bool) -> tuple[State, list[dict]]:
    """Rulebook, 1. Play a Paw Card / Making a Pair / Activating the Action Block / The
    "Combo" / Cooperation / 2. Influencing the Yarn Ball / Countering a Stash: a play
    move (``answering``: a counter to a pending stash; ``cooperation``: in place of a
    teammate), judged and applied. Returns the next state and the events; raises Illegal."""
    seat = move["player"]
    card = move.get("card")
    player = state["players"][seat]
    hand = player["hand"]
    unseen = is_unseen(state)
    if unseen:
        card = unseen_card(state, seat, card)
    from_hand = card not in cards.ALPHA_IDS if unseen else card in hand
    if not from_hand:
        if card not in cards.ALPHA_IDS:
            raise illegal("CARD_NOT_IN_HAND", card=card)
        if player.get("alpha") != card and not unseen:
            raise illegal("ALPHA_NOT_HELD", card=card)
    for field in CHOICE_FIELDS:
        if field not in move:
            raise illegal("CHOICE_MISSING", field=field)
    kind = cards.KINDS[card]
    if cooperation and not kind.cooperation:
        raise illegal("NOT_A_COOPERATION_CARD", card=card)
    if not from_hand and not state["paw_deck"]:
        raise illegal("ALPHA_DECK_EMPTY")
    left = len(hand) - 1 if from_hand else len(hand)
    can_replay = not cooperation and (left > 0 or (from_hand and alpha_playable(state, seat)))
    options = state["options"]
    table = options["chance"] == "table"
    top = state["discard"][-1]
    plan = plan_play(kind, card, top, move["pair"], move["block"], move["order"], options["deck_hockey"],
                     cooperation)
    if isinstance(plan, Violation):
        raise Illegal(plan)
    flips = plan.flips
    rng = Rng.from_state(state["rng"])
    if table:
        faces = tuple(move.get("coins") or ())
        if len(faces) != flips:
            raise illegal("COIN_COUNT", given=len(faces), needed=flips)
        if "draw" in move and move["draw"] is not None:
            raise illegal("DRAW_SEPARATE")
    else:
        faces = tuple(cards.COIN_FACES[rng.coin()] for _ in range(flips))
    ball = state["ball"]
    clan = state["players"][seat]["clan"]
    start = cards.SPOT_INDEX[ball["spot"]], ball["colour"], clan
    outcome = influence(kind, card, plan.steps, *start, faces, answering, can_replay)
    if isinstance(outcome, Violation) and (not table or unseen) and flips:
        # Unseen hands: the card is played before the flip, as with the generator (rules notes).
        outcome = influence_before_flips(kind, card, plan.steps, start, faces, answering, can_replay)
    if isinstance(outcome, Violation):
        raise Illegal(outcome)
    turn = state["turn"]
    if answering:
        owner = state["stash"]["next"]
    else:
        owner = turn["player"]
    own_turn = not cooperation

    new = copy_state(state)
    new["rng"] = rng.to_state()
    if unseen and from_hand:
        new["players"][seat]["hand"].pop()
    elif from_hand:
        new["players"][seat]["hand"].remove(card)
    elif unseen:
        new["players"][seat]["has_alpha"] = False
    else:
        new["players"][seat]["alpha"] = None
    new["discard"].append(card)
    new["ball"] = {"spot": cards.SPOTS[outcome.spot], "colour": outcome.colour}
    events: list[dict] = [{"type": "card_played", "player": seat, "card": card,
                           "pair": move["pair"] is not None, "block": move["block"] is not None}]
    if not from_hand:
        events[0]["alpha"] = True
    if cooperation:
        events.append({"type": "cooperation", "player": seat, "skipped": owner})
    for event in outcome.events:
        event["player"] = seat
    events.extend(outcome.events)
    if outcome.forfeited is not None:
        events.append({"type": "pair_forfeited", "player": seat, "action": outcome.forfeited})
    if answering:
        new["stash"] = None
    if outcome.stashed:
        new["stash"] = pending_stash(new, clan, seat, owner)
    if outcome.skip:
        new["skip"] = True
    if outcome.replay:
        new["turn"] = {"player": seat, "phase": "replay"}
        events.append({"type": "replay", "player": seat})
        return new, events
    if own_turn:
        if table and not unseen:
            if len(new["players"][seat]["hand"]) < cards.HAND_SIZE and new["paw_deck"]:
                new["turn"] = {"player": seat, "phase": "refill"}
                return new, events
        else:
            refill(new, seat, events)
    after_turn(new, events, owner)
    return new, events
