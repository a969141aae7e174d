"""What each reader sees of the moves and events a game produces. Pure: no Flask, no I/O.

A game declares, next to where each move and event type is made, one of:

- :data:`PUBLIC`: every reader sees every field (a card played face up, a count of cards drawn);
- :class:`Hidden`: the named fields are seen only by some seats (the mover, or nobody) until
  an event declared with :class:`Reveals` shows them (Call of Katulhu's reveal, the end of a
  CATATAC game when the clans show their points cards), or never;
- :class:`Reveals`: the event is public and makes the secrets with the given keys public.

The match layer stores, with each log entry, the secrets of that entry (a JSON pointer, the
seats that see it, the key that reveals it) and the keys it reveals (:func:`disclose`); it
renders an entry for a reader at read time (:func:`render`), given every key revealed so far,
so that an earlier entry shows a value once the game has revealed it. Readers are seats
(``0, 1, ...``) or ``None`` for a spectator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

State = dict[str, Any]

MOVER = "mover"      # the seat that made the move
NOBODY = "nobody"    # no reader at all (a points card taken without looking at it)


@dataclass(frozen=True)
class Public:
    """Every reader sees every field."""


PUBLIC = Public()


@dataclass(frozen=True)
class Hidden:
    """``fields`` of the move or event are seen by ``seen_by`` (:data:`MOVER` or
    :data:`NOBODY`) only, until an event reveals the key ``until(state_before, item)``
    (None: never revealed). ``when(item)``: the fields are hidden only when it holds."""

    fields: tuple[str, ...]
    seen_by: str = MOVER
    until: Callable[[State, dict], str] | None = None
    when: Callable[[dict], bool] | None = None


@dataclass(frozen=True)
class Reveals:
    """A public event that makes public the secrets with keys ``keys(state_before, event)``."""

    keys: Callable[[State, dict], Sequence[str]]


Declaration = Public | Hidden | Reveals


@dataclass(frozen=True)
class Disclosure:
    """A game's declaration: what readers see of each move type and each event type."""

    moves: Mapping[str, Public | Hidden]
    events: Mapping[str, Declaration]

    def of_move(self, move_type: str) -> Public | Hidden:
        """The declaration of a move type; KeyError for a type the game never declared."""
        return self.moves[move_type]

    def of_event(self, event_type: str) -> Declaration:
        """The declaration of an event type; KeyError for a type the game never declared."""
        return self.events[event_type]


def disclose(disclosure: Disclosure, before: State, move: dict, events: Sequence[dict]) -> dict:
    """The information record of one applied move: ``{"secrets": [{"at": JSON pointer into
    {"move", "events"}, "seen_by": [seats], "until": key or None}], "reveals": [keys]}``,
    empty lists left out. ``before`` is the state the move was applied to. Raises KeyError
    for a move or event type the game did not declare (so nothing is shown by omission)."""
    secrets: list[dict] = []
    reveals: list[str] = []
    mover = move.get("player")
    items: list[tuple[str, dict, Any]] = [("/move", move, disclosure.of_move(move["type"]))]
    items += [(f"/events/{i}", event, disclosure.of_event(event["type"])) for i, event in enumerate(events)]
    for base, item, declared in items:
        if isinstance(declared, Reveals):
            reveals.extend(declared.keys(before, item))
        elif isinstance(declared, Hidden) and (declared.when is None or declared.when(item)):
            seen_by = [mover] if declared.seen_by == MOVER and mover is not None else []
            until = declared.until(before, item) if declared.until else None
            secrets.extend({"at": f"{base}/{name}", "seen_by": seen_by, "until": until}
                           for name in declared.fields if name in item)
    record: dict = {}
    if secrets:
        record["secrets"] = secrets
    if reveals:
        record["reveals"] = reveals
    return record


def revealed_keys(records: Iterable[Mapping[str, Any]]) -> frozenset[str]:
    """Every key revealed by the given information records (log entries)."""
    return frozenset(key for record in records for key in record.get("reveals", ()))


def render(record: Mapping[str, Any], reader: int | None, revealed: frozenset[str]) -> tuple[dict, list, bool]:
    """``(move, events, redacted)`` of a log entry (``record``: its ``move``, ``events`` and
    information record) as ``reader`` may see it: every secret the reader does not see and
    that no key of ``revealed`` has shown is null. ``redacted`` tells whether any value was
    nulled. The record is not changed."""
    move, events = record["move"], record["events"]
    hidden = [secret["at"] for secret in record.get("secrets", ())
              if reader not in secret["seen_by"] and secret["until"] not in revealed]
    if not hidden:
        return move, events, False
    document: dict[str, Any] = {"move": dict(move), "events": [dict(event) for event in events]}
    for pointer in hidden:
        _, top, *rest = pointer.split("/")
        target: Any = document[top]
        for part in rest[:-1]:
            target = target[int(part)] if isinstance(target, list) else target[part]
        target[rest[-1]] = None
    return document["move"], document["events"], True
