"""Unseen hands (``options.hands: "unseen"``; docs/rules-notes.md): the table sees only what
lies face up, so a play names the kind of the card played (rulebook, 1. Play a Paw Card) and,
with Booster B (The Boosters), an alpha card is named when played or shown at the end
(Crowning the Winning Clan). What a hidden card can still be, and the checks of a card named."""

from __future__ import annotations

from typing import Any

from referee.engine.core import State
from referee.games.catatac import cards
from referee.games.catatac.messages import illegal
from referee.games.catatac.state import boosters_of


def unseen_kinds(state: State) -> list[str]:
    """The paw card kinds a hidden card may still be, in catalogue order."""
    counts = cards.kind_counts(state["options"]["kittens"], boosters_of(state["options"]))
    played: dict[str, int] = {}
    for card in state["discard"]:
        played[card] = played.get(card, 0) + 1
    return [kind for kind, count in counts.items() if played.get(kind, 0) < count]


def face_down_alphas(state: State) -> list[int]:
    """Booster B: the seats whose alpha card still lies face down, unnamed."""
    return [seat for seat, p in enumerate(state["players"]) if p.get("has_alpha") and p["alpha"] is None]


def alpha_seen_at(state: State, card: str) -> int | str | None:
    """Where alpha card ``card`` lies face up: ``"discard"`` (played), the seat that showed it
    at the end, or None while it can still be face down."""
    if card in state["discard"]:
        return "discard"
    for seat, player in enumerate(state["players"]):
        if player.get("alpha") == card:
            return seat
    return None


def unseen_alpha_kinds(state: State, clan: str) -> list[str]:
    """The alpha cards of the clan's pile a face-down alpha card may still be."""
    return [card for card in cards.alpha_pile(clan, boosters_of(state["options"]))
            if alpha_seen_at(state, card) is None]


def face_down_deal(state: State, boosters: tuple[str, ...], box: list) -> None:
    """The booster parts of a deal as the table sees them: the box of cards removed unseen,
    and (Booster B) each seat's alpha card face down (``has_alpha``), the rest set aside
    unseen."""
    state["box"] = box
    alpha = cards.ALPHA in boosters
    for player in state["players"]:
        player["alpha"] = None
        if alpha:
            player["has_alpha"] = True
    state["alpha_aside"] = [None] * (len(cards.alpha_set(boosters)) - len(state["players"])) if alpha else []
    state["skip"] = False


def unseen_card(state: State, seat: int, card: Any) -> str:
    """The kind a play names, once it is checked the seat holds a card and a copy of that kind
    can still be unseen; an alpha card (Booster B), once it is checked the seat's face-down
    alpha card can be that one. Raises Illegal."""
    if card in cards.ALPHA_IDS and cards.ALPHA in boosters_of(state["options"]):
        return unseen_alpha(state, seat, card)
    if not state["players"][seat]["hand"]:
        raise illegal("HAND_EMPTY", player=seat)
    if not isinstance(card, str) or card not in cards.KINDS:
        raise illegal("CARD_NOT_IN_HAND", card=card)
    kind = cards.kind_of(card)
    count = cards.kind_counts(state["options"]["kittens"], boosters_of(state["options"])).get(kind, 0)
    if count == 0:
        raise illegal("CARD_NOT_IN_GAME", card=kind)
    if state["discard"].count(kind) >= count:
        raise illegal("CARD_ALREADY_SEEN", kind=kind, count=count)
    return kind


def unseen_alpha(state: State, seat: int, card: str) -> str:
    """Booster B: ``card`` can be the alpha card face down in front of ``seat``: the seat holds
    one, drawn from its clan's pile, and no copy of it is face up. Raises Illegal."""
    player = state["players"][seat]
    if not player.get("has_alpha") or player["alpha"] is not None or cards.KINDS[card].alpha != player["clan"]:
        raise illegal("ALPHA_NOT_HELD", card=card)
    where = alpha_seen_at(state, card)
    if where == "discard":
        raise illegal("ALPHA_ALREADY_SEEN", card=card)
    if where is not None:
        raise illegal("ALPHA_ALREADY_SHOWN", card=card, player=where)
    return card
