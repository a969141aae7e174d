"""Where each card of a state lies (pure): the detailed pass of a state check, and the copy a
table takes from a pile.

A game's state check first tests, with sets, that every card is in exactly one place; when
that fails, it walks the state card by card with :func:`claim_place` to say where each
problem is, as JSON pointers into the state.
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Sequence

from referee.engine.rng import Rng


def unknown_id(value: object, noun: str = "card") -> str:
    """The detail for a value that is no ``noun`` id of the game: the id quoted, or "null"
    (not Python's "None") for a JSON null."""
    return f"null is not a {noun} id" if value is None else f"unknown {noun} id {value!r}"


def claim_place(errors: list[tuple[str, str]], places: dict[str, str], universe: Collection[str], card: Any,
                pointer: str, noun: str = "card") -> None:
    """Record that ``card`` lies at ``pointer`` in ``places`` (card -> pointer of its first
    place), or append to ``errors`` why it cannot: ``universe`` (the game's cards of that kind)
    has no such card, or it was found at another place already. ``noun`` names the card in
    the detail ("cat" in Call of Katulhu). ``card`` is what the state holds there: an id, or
    any other JSON value (null, a number) that is no card."""
    if card not in universe:
        errors.append((pointer, unknown_id(card, noun)))
    elif card in places:
        errors.append((pointer, f"{noun} {card} is also at {places[card]}"))
    else:
        places[card] = pointer


def copy_of_kind(place: Sequence[str], card: str, kind_of: Callable[[str], str], state: dict) -> str | None:
    """The copy a table takes from ``place`` (a pile or deck of ``state``) when it names ``card``:
    ``card`` itself when ``place`` holds it, else one of the copies of its kind there, drawn with
    the state's generator (``state["rng"]`` advances); None when ``place`` holds no copy of it.
    Copies of a kind are the same printed card: the id only tells them apart, and a player
    cannot tell which one was drawn. A table's piles are kept sorted, so taking the first copy
    would tell a reader shown the id which lower copies lie elsewhere."""
    if card in place:
        return card
    kind = kind_of(card)
    copies = [other for other in place if kind_of(other) == kind]
    if not copies:
        return None
    rng = Rng.from_state(state["rng"])
    taken = copies[rng.below(len(copies))]
    state["rng"] = rng.to_state()
    return taken
