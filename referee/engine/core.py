"""Engine core: the Game protocol and the verdict types.

Pure: no Flask, no Redis, no marshmallow, no I/O. A state and a move are plain JSON values
(dicts, lists, str, int, bool, None). A game never mutates the state it is given.

Three kinds of bad input stay distinct, as in python-chess:
- a body that does not parse or fit the schema is rejected before the engine (HTTP 422);
- a state that cannot exist raises :class:`InvalidState` (HTTP 422, with JSON pointers);
- a well-formed move that the rules forbid is a normal :class:`Verdict` with ``legal=False``.

Python callers that skip the schema get no :class:`InvalidState` guarantee for values the
schema refuses (a seat given as a string, a state that is no object).
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, NamedTuple, Sequence

from referee.engine.information import Disclosure

State = dict[str, Any]
Move = dict[str, Any]


@dataclass(frozen=True)
class Violation:
    """Why a move is illegal.

    ``code``: stable UPPER_SNAKE identifier. ``message``: English text with ``{name}`` fields
    filled from ``params`` (it is also the gettext msgid). ``rule``: the rulebook section, in
    English (also a msgid).
    """

    code: str
    message: str
    rule: str
    params: Mapping[str, Any] | None = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.params is None:   # (frozen: set through object)
            object.__setattr__(self, "params", {})

    def text(self) -> str:
        """The English message with its parameters filled in."""
        return self.message.format(**self.params)


def violation(messages: Mapping[str, tuple[str, str]], code: str, **params: Any) -> Violation:
    """The Violation ``code`` from a game's table ``{code: (message, rule)}``; KeyError if unknown."""
    message, rule = messages[code]
    return Violation(code, message, rule, params)


@dataclass(frozen=True)
class Outcome:
    """Whether the game is over, who won (seat numbers), and which tiebreak decided it."""

    finished: bool
    winners: tuple[int, ...] = ()
    tiebreak: str | None = None

    def to_json(self) -> dict:
        return {"finished": self.finished, "winners": list(self.winners), "tiebreak": self.tiebreak}


UNFINISHED = Outcome(False)  # frozen, so one instance serves every game in progress


@dataclass
class Verdict:
    """The answer to one proposed move.

    ``state`` is the next state when ``legal``, else None. ``events`` are JSON objects, each
    with a ``type``. ``scores`` is the game's score sheet for the resulting state (or the
    given state when illegal).
    """

    legal: bool
    violations: list[Violation]
    state: State | None
    events: list[dict]
    scores: dict
    outcome: Outcome


class InvalidState(ValueError):
    """A state that cannot exist. ``errors`` is a list of ``(json_pointer, detail)``."""

    def __init__(self, errors: Sequence[tuple[str, str]]):
        self.errors = list(errors)
        super().__init__("; ".join(f"{p or '/'}: {d}" for p, d in self.errors))


class InvalidOptions(ValueError):
    """Setup options or a player count the game cannot be played with.

    ``errors`` is a list of ``(json_pointer, detail)``, pointers relative to the setup body.
    """

    def __init__(self, errors: Sequence[tuple[str, str]]):
        self.errors = list(errors)
        super().__init__("; ".join(f"{p or '/'}: {d}" for p, d in self.errors))


class Illegal(Exception):
    """Raised inside a game's rules to reject a move; turned into a Verdict by :class:`Game`."""

    def __init__(self, *violations: Violation):
        self.violations = list(violations)
        super().__init__(", ".join(v.code for v in self.violations))


class Printed(NamedTuple):
    """A card as printed: its name as an English msgid template of the game's catalog
    (``"Cat {number}"``) with the template's ``params`` (a string parameter is a word the
    catalog translates too: ``{"name": "Capture", "number": 4}``), and the short ``facts`` a
    page draws the card with (``{"kind": "cat", "number": 7}``), the same in every language."""

    name: str
    params: Mapping[str, Any]
    facts: Mapping[str, Any]


class Game:
    """Base class of a game's rules. Subclasses fill the class attributes and the hooks.

    Hooks to implement: ``setup``, ``check_state``, ``legal_moves``, ``apply``, ``score``,
    ``catalogue``, ``view``. :meth:`adjudicate` and :meth:`replay` are shared.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    rules_version: ClassVar[str]
    schema_version: ClassVar[int] = 1
    # Violation code -> (English message template, rulebook section): every text the game's
    # verdicts can carry, so that the catalogs can be checked for a translation of each.
    messages: ClassVar[Mapping[str, tuple[str, str]]] = {}
    # What each reader sees of every move and event type (referee.engine.information).
    disclosure: ClassVar[Disclosure]
    # Violation parameters whose string values the game's catalog names in words (a spot, a
    # coin face); the others (card ids, toy and cat names, which a caller may choose) are shown
    # as they are, even when spelled like a msgid.
    word_params: ClassVar[frozenset[str]] = frozenset()
    # The move fields that name the card a move is about (referee.engine.suggestions ranks the
    # moves suggested for an illegal one by them).
    card_fields: ClassVar[tuple[str, ...]] = ("card",)

    # -- hooks ---------------------------------------------------------------------------

    def options_info(self) -> dict:
        """The options this game accepts at setup, with their defaults (JSON)."""
        raise NotImplementedError

    def catalogue(self, options: Mapping[str, Any] | None = None) -> dict:
        """The card catalogue in use for ``options`` (JSON). Raises InvalidOptions."""
        raise NotImplementedError

    def printed_cards(self) -> Mapping[str, Printed]:
        """Every card id the game can deal (with its default and every option), and every card
        kind unseen hands name, as printed. Do not mutate the answer."""
        return {}

    def setup(self, players: int, seed: str, options: Mapping[str, Any] | None = None) -> State:
        """A new game's first state. Raises InvalidOptions."""
        raise NotImplementedError

    def check_state(self, state: State) -> None:
        """Raise InvalidState unless ``state`` is consistent (every card in exactly one place...)."""
        raise NotImplementedError

    def legal_moves(self, state: State) -> list[Move]:
        """Every move the acting player(s) may make now; empty once the game is over."""
        raise NotImplementedError

    def apply(self, state: State, move: Move) -> tuple[State, list[dict]]:
        """The next state and events of a legal move. Raises Illegal; never mutates ``state``.
        The next state may share with ``state`` the parts the move left as they were: treat
        states as read-only (build a new one to change a copy)."""
        raise NotImplementedError

    def score(self, state: State) -> tuple[dict, Outcome]:
        """The score sheet (JSON) and the outcome of ``state``."""
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> State:
        """``state`` as seat ``seat`` may see it (None: a spectator). Hidden parts are removed."""
        raise NotImplementedError

    def seat_moves(self, state: State, seat: int) -> list[Move]:
        """Every move seat ``seat`` may make now, as that seat can know them: a chance outcome
        the table names (a card drawn, a cat turned up) is null, to be filled in with what the
        table shows; listed once. Depends only on what ``view(state, seat)`` shows."""
        raise NotImplementedError

    def visible_scores(self, state: State, seat: int | None, sheet: dict | None = None) -> dict:
        """The score sheet as ``seat`` (None: a spectator) may see it; ``sheet``: the whole sheet
        of ``state`` when the caller has it already (a verdict's ``scores``). Every game's sheet
        shows only public parts until the end (points cards lying face down are counted, not
        valued), so the whole sheet is shown to every reader."""
        return self.score(state)[0] if sheet is None else sheet

    # -- shared --------------------------------------------------------------------------

    def adjudicate(self, state: State, move: Move, *, checked: bool = False) -> Verdict:
        """Judge ``move`` in ``state``.

        Raises InvalidState when the state cannot exist (skipped when ``checked``). A rule
        violation is a Verdict with ``legal=False``, ``state=None`` and the violations.
        """
        if not checked:
            self.check_state(state)
        try:
            next_state, events = self.apply(state, move)
        except Illegal as illegal:
            scores, outcome = self.score(state)
            return Verdict(False, illegal.violations, None, [], scores, outcome)
        scores, outcome = self.score(next_state)
        return Verdict(True, [], next_state, events, scores, outcome)

    def replay(self, state: State, moves: Sequence[Move], *, checked: bool = False,
               after_step: Callable[[int], None] | None = None) -> tuple[State, list[Verdict], int | None]:
        """Apply ``moves`` in order from ``state``; stop at the first illegal one.

        Returns ``(final_state, verdicts, index_of_first_illegal_or_None)``; the final state is
        the one before the illegal move. ``after_step(index)``, when given, is called after each
        legal step (a server uses it to let other requests run during a long replay). Raises
        InvalidState for the starting state only (not checked again when ``checked``).
        """
        if not checked:
            self.check_state(state)
        verdicts: list[Verdict] = []
        # The verdicts kept hold every step's state: the cyclic collector would scan them again
        # and again (5,000 Call of Katulhu moves cost 1.9 times per move what 100 cost, 1.2 without it). Steps
        # make no reference cycles, so reference counting frees what they drop.
        collecting = gc.isenabled()
        gc.disable()
        try:
            for index, move in enumerate(moves):
                verdict = self.adjudicate(state, move, checked=True)
                verdicts.append(verdict)
                if not verdict.legal:
                    return state, verdicts, index
                state = verdict.state  # type: ignore[assignment]  # a legal verdict has its next state
                if after_step is not None:
                    after_step(index)
        finally:
            if collecting:
                gc.enable()
        return state, verdicts, None
