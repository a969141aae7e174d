"""Rulebook, The Boosters: Booster B's alpha cards (one in front of each player, played
instead of a paw card while the paw deck is not empty) and the parts of a state the boosters
add (the box of paw cards removed unseen, the alpha cards set aside, a pending Skip), as
check_state checks them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.engine.core import State
from referee.games.catatac import cards

# check_state's claim of a card's place: (card, pointer, universe, places).
Claim = Callable[[Any, str, frozenset, dict], None]


def holds_alpha(player: Mapping[str, Any]) -> bool:
    """An alpha card lies in front of the player (unseen hands: ``has_alpha``, the card itself
    null while face down)."""
    return player.get("has_alpha", player.get("alpha") is not None)


def alpha_playable(state: State, seat: int) -> bool:
    """The seat still has its alpha card and the paw deck is not empty."""
    return bool(state["paw_deck"]) and holds_alpha(state["players"][seat])


def can_play(state: State, seat: int) -> bool:
    """Whether the seat has a card it may play on its own turn (a paw card or its alpha card)."""
    return bool(state["players"][seat]["hand"]) or alpha_playable(state, seat)


def check_boosters(state: State, full: dict, boosters: tuple, claim: Claim, where: dict, awhere: dict,
                    errors: list, placed: bool) -> None:
    """The booster parts of check_state: the box, the alpha cards, the skip flag (``placed``:
    every card is known to be in exactly one place, so cards are not claimed one by one)."""
    players = state["players"]
    for key in ("box", "alpha_aside", "skip"):
        if key not in state:
            errors.append((f"/{key}", "required when boosters are in play"))
    box = state.get("box", [])
    paw_boosters = [b for b in cards.PAW_BOOSTERS if b in boosters]
    known = cards.game_paw_set(full["kittens"], boosters)
    unseen = full.get("hands") == "unseen"   # the box holds nulls (checked with the hands)
    for i, card in enumerate(() if unseen or placed else box):
        claim(card, f"/box/{i}", known, where)
    for booster in () if unseen else paw_boosters:
        if sum(1 for c in box if c in cards.BOOSTER_PAW_CARDS[booster]) != cards.REMOVED_PER_BOOSTER:
            errors.append(("/box", f"the box holds {cards.REMOVED_PER_BOOSTER} paw cards of the {booster} booster"))
    if len(box) != cards.REMOVED_PER_BOOSTER * len(paw_boosters):
        errors.append(("/box", "only paw cards of the distraction and momentum boosters are removed"))
    alphas = cards.alpha_set(boosters)
    if unseen and cards.ALPHA in boosters:
        check_face_down_alphas(state, alphas, claim, awhere, errors)
        return
    held = 0
    for seat, player in enumerate(players):
        if "alpha" not in player:
            errors.append((f"/players/{seat}/alpha", "required when boosters are in play (null: none in front)"))
            continue
        card = player["alpha"]
        if card is not None:
            held += 1
            if not placed:
                claim(card, f"/players/{seat}/alpha", alphas, awhere)
            if card in alphas and cards.KINDS[card].alpha != player["clan"]:
                errors.append((f"/players/{seat}/alpha", "an alpha card of the player's clan colour"))
    if not placed:
        for i, card in enumerate(state.get("alpha_aside", [])):
            claim(card, f"/alpha_aside/{i}", alphas, awhere)
        missing = alphas.difference(awhere)
        if missing:
            errors.append(("", f"alpha cards missing from every place: {', '.join(sorted(missing))}"))
    played = sum(1 for c in state["discard"] if c in alphas)
    if alphas and held + played != len(players):
        errors.append(("/alpha_aside", "each player draws one alpha card: held and played ones make one per player"))


def check_face_down_alphas(state: State, alphas: frozenset, claim: Claim, awhere: dict, errors: list) -> None:
    """Unseen hands, Booster B: each seat holds its alpha card face down (``has_alpha``,
    ``alpha`` null) until it plays it or shows it at the end; the cards set aside are
    nulls; per clan, the alpha cards held and played make one per seat."""
    players = state["players"]
    showing = state["turn"]["phase"] in ("show", "over")
    per_clan = {clan: 0 for clan in cards.CLANS}
    for seat, player in enumerate(players):
        held = player.get("has_alpha")
        if not isinstance(held, bool):
            errors.append((f"/players/{seat}/has_alpha", ("required with unseen hands and the alpha booster: "
                                                         "whether an alpha card lies in front of the player")))
            continue
        per_clan[player["clan"]] += held
        if "alpha" not in player:
            errors.append((f"/players/{seat}/alpha", ("required when boosters are in play (null: face down, "
                                                     "or none in front)")))
            continue
        card = player["alpha"]
        if card is None:
            if held and state["turn"]["phase"] == "over":
                errors.append((f"/players/{seat}/alpha", "a face-down alpha card is shown before the game is over"))
            continue
        if not (held and showing):
            errors.append((f"/players/{seat}/alpha", ("with unseen hands an alpha card is named only when shown "
                                                     "at the end (null while face down)")))
        claim(card, f"/players/{seat}/alpha", alphas, awhere)
        if card in alphas and cards.KINDS[card].alpha != player["clan"]:
            errors.append((f"/players/{seat}/alpha", "an alpha card of the player's clan colour"))
    for i, card in enumerate(state["discard"]):
        if card in alphas:
            claim(card, f"/discard/{i}", alphas, awhere)
            per_clan[cards.KINDS[card].alpha] += 1  # type: ignore[index]  # an alpha card has its clan
    aside = state.get("alpha_aside", [])
    if any(card is not None for card in aside) or len(aside) != len(alphas) - len(players):
        errors.append(("/alpha_aside", (f"with unseen hands {len(alphas) - len(players)} nulls: the alpha cards "
                                       "set aside unseen")))
    for clan, count in per_clan.items():
        seats = sum(1 for p in players if p["clan"] == clan)
        if count != seats:
            errors.append(("/players", (f"each {clan} player draws one alpha card: {count} held or played, "
                                       f"{seats} players")))

