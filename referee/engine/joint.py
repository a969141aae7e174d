"""Joint seeding: a deal nobody chose (docs/rng.md, "Joint seeding"). Pure: no I/O.

The referee draws a seed and commits to it (referee/service/seeding.py); before the first
move each seat sends a contribution of its own, as a move ``{"type": "contribute",
"player", "contribution"}``; once every seat has contributed, the game is set up from the
derived seed::

    derived = hex SHA-256( for s in (seed, contribution of seat 0, seat 1, ...):
                               uint32_big_endian(len(UTF-8(s))) || UTF-8(s) )

Until then the match's state is pending, ``{"game", "pending": {"contributions": [str or
null per seat]}}``, which no reader sees (a view of it is null). :class:`Seeded` wraps a game
so that a match judges, shows and scores both its pending state and the game's own states.
"""

from __future__ import annotations

import hashlib
from typing import Any, Mapping, Sequence

from referee.engine.core import UNFINISHED, Game, Illegal, Move, Outcome, State, violation
from referee.engine.information import MOVER, PUBLIC, Disclosure, Hidden

CONTRIBUTE = "contribute"
RULE = "Joint seeding (docs/rng.md)"
MESSAGES = {
    "NOT_JOINT": ("This match was not created with joint seeding: it takes no contribution.", RULE),
    "NO_SUCH_SEAT": ("This match has no seat {player}.", RULE),
    "ALREADY_CONTRIBUTED": ("Seat {player} has already sent its contribution.", RULE),
    "DEAL_DONE": ("Every seat has contributed and the cards are dealt: contributions come before the first move.",
                  RULE),
    "DEAL_PENDING": ("The cards are dealt once every seat has sent its contribution; still to contribute: seats "
                     "{seats}.", RULE),
}


def derive(seed: str, contributions: Sequence[str]) -> str:
    """The derived seed (64 lowercase hex digits) of the referee's ``seed`` and the seats'
    ``contributions`` in seat order: SHA-256 over each string as its UTF-8 length (4 bytes,
    big-endian) and bytes."""
    digest = hashlib.sha256()
    for part in (seed, *contributions):
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(4, "big") + data)
    return digest.hexdigest()


def digest(contribution: str) -> str:
    """The hex SHA-256 of a contribution's UTF-8 bytes, shown to every reader when it lands."""
    return hashlib.sha256(contribution.encode("utf-8")).hexdigest()


def pending_state(game_id: str, players: int) -> State:
    """The state of a jointly seeded match before every seat has contributed."""
    return {"game": game_id, "pending": {"contributions": [None] * players}}


def is_pending(state: State) -> bool:
    """Whether ``state`` waits for contributions (no game's own state has ``pending``)."""
    return "pending" in state


class Seeded(Game):
    """``game`` as a match plays it: a contribution move and the pending state of joint
    seeding (``seed``: the referee's seed, ``options``: the options as given, when ``joint``),
    then the game itself. On a match that is not jointly seeded a contribution is illegal."""

    def __init__(self, game: Game, joint: bool = False, seed: str | None = None,
                 options: Mapping[str, Any] | None = None):
        self.game, self.joint, self.seed, self.options = game, joint, seed, options
        self.id, self.title, self.rules_version = game.id, game.title, game.rules_version
        self.player_counts, self.schema_version = game.player_counts, game.schema_version
        self.messages = {**game.messages, **MESSAGES}
        self.word_params = game.word_params
        self.disclosure = Disclosure(moves={**game.disclosure.moves, CONTRIBUTE: Hidden(("contribution",), MOVER)},
                                     events={**game.disclosure.events, "contributed": PUBLIC, "dealt": PUBLIC})

    def options_info(self) -> dict:
        return self.game.options_info()

    def catalogue(self, options: Mapping[str, Any] | None = None) -> dict:
        return self.game.catalogue(options)

    def setup(self, players: int, seed: str, options: Mapping[str, Any] | None = None) -> State:
        return pending_state(self.id, players) if self.joint else self.game.setup(players, seed, options)

    def check_state(self, state: State) -> None:
        if not is_pending(state):
            self.game.check_state(state)

    def legal_moves(self, state: State) -> list[Move]:
        if is_pending(state):
            return [_template(seat) for seat in _missing(state)]
        return self.game.legal_moves(state)

    def seat_moves(self, state: State, seat: int) -> list[Move]:
        """A seat still to contribute may send its contribution (null: a value of its own)."""
        if is_pending(state):
            return [_template(seat)] if seat in _missing(state) else []
        return self.game.seat_moves(state, seat)

    def apply(self, state: State, move: Move) -> tuple[State, list[dict]]:
        if move["type"] == CONTRIBUTE:
            return self._contribute(state, move)
        if is_pending(state):
            raise Illegal(violation(MESSAGES, "DEAL_PENDING", seats=", ".join(map(str, _missing(state)))))
        return self.game.apply(state, move)

    def _contribute(self, state: State, move: Move) -> tuple[State, list[dict]]:
        if not self.joint:
            raise Illegal(violation(MESSAGES, "NOT_JOINT"))
        if not is_pending(state):
            raise Illegal(violation(MESSAGES, "DEAL_DONE"))
        seat, contribution = move["player"], move["contribution"]
        contributions = list(state["pending"]["contributions"])
        if not 0 <= seat < len(contributions):
            raise Illegal(violation(MESSAGES, "NO_SUCH_SEAT", player=seat))
        if contributions[seat] is not None:
            raise Illegal(violation(MESSAGES, "ALREADY_CONTRIBUTED", player=seat))
        contributions[seat] = contribution
        events = [{"type": "contributed", "player": seat, "digest": digest(contribution)}]
        if None in contributions:
            return {"game": self.id, "pending": {"contributions": contributions}}, events
        dealt = self.game.setup(len(contributions), derive(self.seed or "", contributions), self.options)
        return dealt, [*events, {"type": "dealt"}]

    def score(self, state: State) -> tuple[dict, Outcome]:
        return ({}, UNFINISHED) if is_pending(state) else self.game.score(state)

    def visible_scores(self, state: State, seat: int | None, sheet: dict | None = None) -> dict | None:
        return None if is_pending(state) else self.game.visible_scores(state, seat, sheet)

    def view(self, state: State, seat: int | None) -> State:
        """Nothing of a pending state (null), else the game's view."""
        return None if is_pending(state) else self.game.view(state, seat)   # type: ignore[return-value]


def _missing(state: State) -> list[int]:
    return [seat for seat, given in enumerate(state["pending"]["contributions"]) if given is None]


def _template(seat: int) -> Move:
    return {"type": CONTRIBUTE, "player": seat, "contribution": None}
