"""Rulebook, Stash Attempt and Countering a Stash: after a stash attempt each player of the
other clan in turn may counter it (a play, see play.py) or decline; when the last declines,
the stash succeeds."""

from __future__ import annotations

from referee.engine.core import State
from referee.engine.rng import Rng
from referee.games.catatac import cards
from referee.games.catatac.end import game_end
from referee.games.catatac.messages import illegal
from referee.games.catatac.state import copy_state
from referee.games.catatac.turns import advance


def decline(state: State, move: dict) -> tuple[State, list[dict]]:
    """Rulebook, Stash Attempt and Countering a Stash: a seat declines to counter; when no
    one is left to answer, the stash succeeds: the stashing clan takes the top points card
    unseen, the ball is flipped and put on the neutral alley, and the player who could not
    counter plays a normal turn."""
    seat = move["player"]
    stash = state["stash"]
    table = state["options"]["chance"] == "table"
    given_card = move.get("points_card")
    given_coins = move.get("coins")
    if len(stash["answer"]) > 1:
        if given_card is not None:
            raise illegal("POINTS_CARD_NOT_TAKEN")
        if given_coins:
            raise illegal("COIN_COUNT", given=len(given_coins), needed=0)
        new = copy_state(state)
        new["stash"]["answer"].pop(0)
        new["turn"] = {"player": new["stash"]["answer"][0], "phase": "answer"}
        return new, [{"type": "declined", "player": seat}]
    deck = state["points_deck"]
    rng = Rng.from_state(state["rng"])
    if table:
        if given_card is None:
            raise illegal("POINTS_CARD_REQUIRED")
        if given_card not in deck:
            raise illegal("POINTS_CARD_NOT_IN_DECK", card=given_card)
        if given_coins is None or len(given_coins) != 1:
            raise illegal("COIN_COUNT", given=len(given_coins or ()), needed=1)
        taken, face = given_card, given_coins[0]
    else:
        taken = deck[0]
        face = cards.COIN_FACES[rng.coin()]
    new = copy_state(state)
    new["rng"] = rng.to_state()
    new["points_deck"].remove(taken)
    new["points"][stash["clan"]].append(taken)
    new["ball"] = {"spot": cards.SPOTS[cards.NEUTRAL], "colour": face}
    new["stash"] = None
    events = [{"type": "declined", "player": seat},
              {"type": "stash_succeeded", "clan": stash["clan"], "player": stash["by"]},
              {"type": "coin_flipped", "colour": face, "spot": cards.SPOTS[cards.NEUTRAL]}]
    if not new["points_deck"]:
        game_end(new, events)
        return new, events
    n = len(new["players"])
    advance(new, events, (stash["next"] - 1) % n)
    return new, events


def pending_stash(state: State, clan: str, by: int, owner: int) -> dict:
    """The stash attempt ``by`` played for ``clan`` on ``owner``'s turn, as the state holds it:
    the players of the other clan answer in turn, clockwise from the next player."""
    n = len(state["players"])
    nxt = (owner + 1) % n
    answer = [s for s in ((nxt + k) % n for k in range(n)) if state["players"][s]["clan"] != clan]
    return {"clan": clan, "by": by, "next": nxt, "answer": answer}
