"""What each player may do now (rulebook, Turn Summary): every play of 1. Play a Paw Card
(each pair action, action block side and direction, combo order; Cooperation; Countering a
Stash), the declines of a Stash Attempt, the draws of 3. Refilling Your Hand at a table, and,
with unseen hands, the alpha cards shown at the end (Crowning the Winning Clan)."""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import NamedTuple

from referee.engine.core import State, Violation
from referee.games.catatac import cards
from referee.games.catatac.boosters import alpha_playable
from referee.games.catatac.influence import influence, influence_before_flips
from referee.games.catatac.play import pairs, plan_play
from referee.games.catatac.state import ORDERS, TABLE_FILLS, is_unseen
from referee.games.catatac.unseen import face_down_alphas, unseen_alpha_kinds, unseen_kinds


def _move_key(move: dict) -> tuple:
    """A hashable key of a move (JSON values), to list each move once."""
    return tuple(sorted((k, repr(v)) for k, v in move.items()))


class Choice(NamedTuple):
    """One way to play a card: the pair's (action, direction), the block's (bars, directions)
    (None: not used), the combo's order, and the coin faces (table chance) or None."""

    pair: tuple[str, str | None] | None
    block: tuple[tuple[int, ...], tuple[str, ...]] | None
    order: str | None
    coins: tuple[str, ...] | None


def _pair_options(makes_pair: bool, deck_hockey: bool) -> list:
    if not makes_pair:
        return [None]
    options = [None, ("steal", None), ("movement", "black"), ("movement", "white"), ("stash", None)]
    if deck_hockey:
        options.append(("counter", None))
    return options


@lru_cache(maxsize=256)
def block_options(kind: cards.Kind) -> tuple:
    """Every (bars, directions) a block can be stated with (None: the block unused)."""
    if not kind.rows:
        return (None,)
    options: list = [None]
    bar_rows = [r for r in kind.rows if len(r) > 1]
    for sides in product(*(range(len(r)) for r in bar_rows)):
        it = iter(sides)
        chosen = [r[next(it)] if len(r) > 1 else r[0] for r in kind.rows]
        moves = sum(1 for opt in chosen for e in opt.effects if e[0] == "movement")
        for directions in product(("black", "white"), repeat=moves):
            options.append((tuple(sides), tuple(directions)))
    return tuple(options)


def _pair_json(pair: tuple | None) -> dict | None:
    return None if pair is None else {"action": pair[0], "direction": pair[1]}


def _block_json(block: tuple | None) -> dict | None:
    return None if block is None else {"bars": list(block[0]), "directions": list(block[1])}


# Cached: a position's choices recur across the moves of a game and across games.
@lru_cache(maxsize=1 << 16)
def choices(card: str, top_card: str, spot: int, colour: str, clan: str, deck_hockey: bool,
            answering: bool, cooperation: bool, coins: tuple | None, can_replay: bool = False) -> tuple[Choice, ...]:
    """Every legal Choice of playing ``card`` in this position.
    ``coins``: the generator's next faces (seeded), or None to enumerate faces (table)."""
    kind = cards.KINDS[card]
    found = []
    for pair in _pair_options(pairs(kind, cards.KINDS[top_card]), deck_hockey):
        for block in block_options(kind):
            for order in ((None,) if pair is None or block is None else ORDERS):
                plan = plan_play(kind, card, top_card, _pair_json(pair), _block_json(block), order, deck_hockey,
                                 cooperation)
                if isinstance(plan, Violation):
                    continue
                flips = plan.flips
                faces_list = [coins[:flips]] if coins is not None else list(product(cards.COIN_FACES, repeat=flips))
                for faces in faces_list:
                    outcome = influence(kind, card, plan.steps, spot, colour, clan, faces, answering, can_replay)
                    if not isinstance(outcome, Violation):
                        found.append(Choice(pair, block, order, faces if coins is None and flips else None))
    return tuple(found)


@lru_cache(maxsize=1 << 14)
def choices_before_flips(card: str, top_card: str, spot: int, colour: str, clan: str, deck_hockey: bool,
                         answering: bool, cooperation: bool, can_replay: bool = False) -> tuple[Choice, ...]:
    """Table chance with unseen hands: every legal Choice, the card judged before its flips as
    with the generator, so a face that makes the pair played after the block impossible is
    listed too (the pair is then forfeited)."""
    kind = cards.KINDS[card]
    found = []
    plans = dict.fromkeys((pair, block, order) for pair, block, order, _ in
                          choices(card, top_card, spot, colour, clan, deck_hockey, answering, cooperation, None,
                                  can_replay))
    for pair, block, order in plans:
        plan = plan_play(kind, card, top_card, _pair_json(pair), _block_json(block), order, deck_hockey, cooperation)
        assert not isinstance(plan, Violation)  # listed by choices, so the plan holds
        for faces in product(cards.COIN_FACES, repeat=plan.flips):
            outcome = influence(kind, card, plan.steps, spot, colour, clan, faces, answering, can_replay)
            if isinstance(outcome, Violation) and plan.flips:
                outcome = influence_before_flips(kind, card, plan.steps, (spot, colour, clan), faces, answering,
                                                 can_replay)
            if not isinstance(outcome, Violation):
                found.append(Choice(pair, block, order, faces or None))
    return tuple(found)


def legal_moves(state: State) -> list[dict]:
    """Every move the acting player(s) may make now. A play is listed once per card and
    choice (pair action and direction, block sides and directions, order). With seeded
    chance, coin faces and refill cards are left out (the generator decides); with table
    chance, moves list every possible coin face, points card and refill card. An alpha card
    is listed for its holder's own turn (and answer) while the paw deck is not empty; a
    replay phase lists the plays of the player replaying only."""
    if state["finished"]:
        return []
    turn = state["turn"]
    seat, phase = turn["player"], turn["phase"]
    table = state["options"]["chance"] == "table"
    if phase == "refill":
        return [{"type": "draw", "player": seat, "card": card} for card in sorted(set(state["paw_deck"]))]
    if phase == "show":
        return [{"type": "show", "player": holder, "card": card, TABLE_FILLS: ["card"]}
                for holder in face_down_alphas(state)
                for card in unseen_alpha_kinds(state, state["players"][holder]["clan"])]
    if phase == "replay":
        return plays(state, seat, False, False)
    moves: list[dict] = []
    if phase == "answer":
        stash = state["stash"]
        if len(stash["answer"]) > 1 or not table:
            moves.append({"type": "decline", "player": seat})
        else:
            fills = {TABLE_FILLS: ["points_card", "coins"]} if is_unseen(state) else {}
            for card in sorted(set(state["points_deck"])):
                for face in cards.COIN_FACES:
                    moves.append({"type": "decline", "player": seat, "points_card": card, "coins": [face], **fills})
        moves.extend(plays(state, seat, True, seat != stash["next"]))
        return moves
    moves.extend(plays(state, seat, False, False))
    clan = state["players"][seat]["clan"]
    for mate, player in enumerate(state["players"]):
        if mate != seat and player["clan"] == clan:
            moves.extend(plays(state, mate, False, True))
    return moves

def plays(state: State, seat: int, answering: bool, cooperation: bool) -> list[dict]:
    """Every play move of ``seat`` (``answering``: a counter to a pending stash;
    ``cooperation``: in place of a teammate)."""
    player = state["players"][seat]
    hand = player["hand"]
    alpha = not cooperation and alpha_playable(state, seat)
    playable = hand + [player["alpha"]] if alpha else hand
    by_kind = is_unseen(state)
    if by_kind:
        # Any kind still unseen may be in the hand (and any alpha card of the clan still
        # unseen face down): each is listed, the table names the one played.
        playable = unseen_kinds(state) if hand else []
        if alpha:
            playable = playable + unseen_alpha_kinds(state, player["clan"])
    # Replay needs a card left to play at once: another paw card, or the alpha card.
    replay_after_paw = not cooperation and (len(hand) > 1 or alpha)
    replay_after_alpha = bool(hand)
    table = state["options"]["chance"] == "table"
    top = state["discard"][-1]
    ball = state["ball"]
    spot, colour = cards.SPOT_INDEX[ball["spot"]], ball["colour"]
    clan = state["players"][seat]["clan"]
    hockey = state["options"]["deck_hockey"]
    out: list[dict] = []
    for card in playable:
        kind = cards.KINDS[card]
        if cooperation and not kind.cooperation:
            continue
        if answering and not (kind.counter_icon or hockey):
            continue
        can_replay = replay_after_alpha if kind.alpha else replay_after_paw
        if by_kind:   # unseen hands: a kind, judged before its flips
            found = choices_before_flips(card, top, spot, colour, clan, hockey, answering, cooperation, can_replay)
        else:
            found = choices(card, top, spot, colour, clan, hockey, answering, cooperation, None, can_replay)
        if not table:
            # Seeded: the choices the player makes before the flip, each listed once.
            found = tuple(dict.fromkeys(choice._replace(coins=None) for choice in found))
        for pair, block, order, faces in found:
            move = {"type": "play", "player": seat, "card": card, "pair": _pair_json(pair),
                    "block": _block_json(block), "order": order}
            if faces:
                move["coins"] = list(faces)
            if by_kind:
                move[TABLE_FILLS] = ["card", "coins"] if faces else ["card"]
            out.append(move)
    return out


def seat_moves(state: State, seat: int) -> list[dict]:
    """The moves of ``seat`` now, as it can know them: with table chance the refill card
    and the points card taken are null (the table names them), each move listed once, and
    ``table_fills`` names the fields the table fills in (a null pair, block or order is a
    choice: not used)."""
    moves = [move for move in legal_moves(state) if move["player"] == seat]
    if state["options"]["chance"] != "table":
        return moves
    shown: dict[tuple, dict] = {}
    for move in moves:
        if move["type"] == "draw":
            move = dict(move, card=None, **{TABLE_FILLS: ["card"]})
        elif "points_card" in move:
            move = dict(move, points_card=None, **{TABLE_FILLS: ["points_card", "coins"]})
        elif TABLE_FILLS not in move and "coins" in move:
            move = dict(move, **{TABLE_FILLS: ["coins"]})
        shown.setdefault(_move_key(move), move)
    return list(shown.values())
