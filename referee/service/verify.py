"""Offline verification of a complete match record (docs/records.md, "Verifying a record").
Pure: no Flask, no store; the command line (``referee verify``) and
``POST /v1/records/verify`` both use :func:`verify`.

The checks, in order, each answering the first discrepancy with a JSON pointer into the
record: the record is complete; the game and its rules version are this referee's; the
revealed seed and salt match the commitment; the options and the seed deal the first state
again; every move is legal in turn through the game's rules (``Game.adjudicate``) and gives
the logged events; the last state, the scores and the outcome are the replay's.
"""

from __future__ import annotations

import time
from functools import lru_cache
from importlib import import_module
from typing import Any, Callable, NamedTuple

from marshmallow import ValidationError

from referee.engine.core import InvalidOptions
from referee.engine.joint import CONTRIBUTE, Seeded, is_pending, pending_state
from referee.games import GAMES, PACKAGES
from referee.json_text import dumps, repeated_name
from referee.limits import MAX_MATCH_MOVES, MAX_REPLAY_WORK
from referee.schemas.compiled import fast_load
from referee.schemas.matches import Contribution
from referee.schemas.pointers import escape_token, pointer_errors
from referee.service import seeding
from referee.service.errors import InvalidRequest, TooMuchWork
from referee.service.texts import Text

YIELD_EVERY = 4   # moves replayed between two chances for a server's other requests to run


class Discrepancy(Exception):
    """Where a record departs from the rules: ``pointer`` (JSON pointer into the record), ``detail``."""

    def __init__(self, pointer: str, detail: str):
        super().__init__(f"{pointer}: {detail}")
        self.pointer = pointer
        self.detail = detail


class Verdict(NamedTuple):
    """``valid``, and for an invalid record the first discrepancy found."""

    valid: bool
    pointer: str | None = None
    detail: str | None = None

    def to_json(self) -> dict:
        """``{"valid": true}`` or ``{"valid": false, "pointer", "detail"}``."""
        return {"valid": True} if self.valid else {"valid": False, "pointer": self.pointer, "detail": self.detail}


def refuse_repeated_names(text: bytes | str) -> None:
    """Raise InvalidRequest (422, a pointer to the repeated member) when an object of the record
    ``text`` names a member twice: which value counts differs from one JSON reader to another,
    so such a text could verify here and read otherwise elsewhere."""
    pointer = repeated_name(text)
    if pointer is not None:
        raise InvalidRequest(Text("The record names a member twice in one object: JSON readers differ on which value "
                                  "counts, so no verdict is given on it. Send the record as the referee wrote it."),
                             [(pointer, Text("a name its object already has"))])


def check_work(record: dict) -> None:
    """Raise TooMuchWork (413, pointer /moves) when replaying ``record`` (shape already
    checked) is over a request's limits: more moves than a match takes (MAX_MATCH_MOVES, so the
    record of any match this referee kept can be verified: a Call of Katulhu game often runs to
    1,800 moves), or moves x size of the first state over MAX_REPLAY_WORK, as for a replay."""
    moves = len(record["moves"])
    if moves > MAX_MATCH_MOVES or moves * len(dumps(record["start"])) > MAX_REPLAY_WORK:
        raise TooMuchWork(Text("This record is too much work to verify in one request ({moves} moves; at most "
                               "{most} (MAX_MATCH_MOVES) and moves x state size at most {work:,} "
                               "(MAX_REPLAY_WORK)). Verify it with the command line: referee verify RECORD.json.",
                               moves=moves, most=MAX_MATCH_MOVES, work=MAX_REPLAY_WORK),
                          [("/moves", Text("too many moves to verify in one request"))])


def verify(record: dict, after_step: Callable[[int], None] | None = None) -> Verdict:
    """The verdict on a record whose shape the Record schema (referee/schemas/records.py) took.
    ``after_step(index)`` is called after each move replayed (a server lets its other requests
    run). Never raises for a record of the right shape."""
    try:
        _verify(record, after_step)
    except Discrepancy as found:
        return Verdict(False, found.pointer, found.detail)
    return Verdict(True)


def share_the_worker(index: int) -> None:
    """An ``after_step`` for servers: every YIELD_EVERY moves, ``time.sleep(0)`` (under gevent,
    the worker's other greenlets run)."""
    if index % YIELD_EVERY == YIELD_EVERY - 1:
        time.sleep(0)


def _verify(record: dict, after_step: Callable[[int], None] | None) -> None:
    if not record["complete"]:
        raise Discrepancy("/complete", "the record is not complete (the game was not over when it was read): "
                                       "it reveals neither the seed nor what was hidden")
    game = GAMES.get(record["game"])
    if game is None:
        raise Discrepancy("/game", f"not a game of this referee: {sorted(GAMES)}")
    if record["rules_version"] != game.rules_version:
        raise Discrepancy("/rules_version", f"this referee judges {game.id} by rules version {game.rules_version}")
    if record["players"] not in game.player_counts:
        raise Discrepancy("/players", f"{game.title} is played by {list(game.player_counts)} players")
    seed = _check_seeding(record["seeding"])
    if record["options"] is None:
        raise Discrepancy("/options", "a complete record gives the options")
    options = _load(game.id, "OPTIONS", record["options"], "/options")
    if record["start"] is None:
        raise Discrepancy("/start", "a complete record gives the first state")
    seats = record["start"].get("players")
    if isinstance(seats, list) and len(seats) != record["players"]:
        raise Discrepancy("/players", f"the first state has {len(seats)} players")
    if record["seeding"]["mode"] == "joint":
        game = Seeded(game, True, seed, options)
        state = pending_state(game.id, record["players"])
    else:
        game = Seeded(game)
        state = _check_start(game.game, record, seed, options)
    moves = record["moves"]
    for index, entry in enumerate(moves):
        state = _replay(game, state, entry, f"/moves/{index}", index, record["start"])
        if after_step is not None:
            after_step(index)
    if is_pending(state):
        raise Discrepancy("/moves", "the contributions of joint seeding never dealt the cards")
    if record["version"] != len(moves):
        raise Discrepancy("/version", f"the record holds {len(moves)} moves")
    final = record["final"]
    _compare(state, final["state"], "/final/state")
    sheet, outcome = game.score(state)
    _compare(sheet, final["scores"], "/final/scores")
    _compare(outcome.to_json(), final["outcome"], "/final/outcome")
    if not outcome.finished:
        raise Discrepancy("/complete", "the game the moves play is not over")


def _replay(game: Seeded, state: dict, entry: dict, base: str, index: int, start: dict) -> dict:
    """The state after the record's move ``index`` (``entry``, at ``base``), once it is found
    legal and giving the logged events; the contribution that deals must deal ``start``."""
    if entry["version"] != index + 1:
        raise Discrepancy(f"{base}/version", f"move {index} makes version {index + 1}")
    if entry["redacted"]:
        raise Discrepancy(f"{base}/redacted", "a complete record hides nothing")
    kind = "CONTRIBUTION" if isinstance(entry["move"], dict) and entry["move"].get("type") == CONTRIBUTE else "MOVE"
    move = _load(game.id, kind, entry["move"], f"{base}/move")
    if entry["player"] != move.get("player"):
        raise Discrepancy(f"{base}/player", "the seat that moved is the move's player")
    verdict = game.adjudicate(state, move, checked=True)
    if not verdict.legal:
        codes = ", ".join(violation.code for violation in verdict.violations)
        raise Discrepancy(f"{base}/move", f"this move is illegal in the state before it ({codes})")
    _compare(verdict.events, entry["events"], f"{base}/events")
    if is_pending(state) and not is_pending(verdict.state):
        _compare_first_state(verdict.state, start)
    return verdict.state


def _check_seeding(shown: dict) -> str:
    """The revealed seed, once checked against the commitment of a referee-drawn seed."""
    seed = shown["seed"]
    if shown["mode"] not in seeding.MODES:
        raise Discrepancy("/seeding/mode", f"a complete record names where its seed came from: one of "
                                           f"{list(seeding.MODES)}")
    if seed is None:
        raise Discrepancy("/seeding/seed", "a complete record reveals the seed")
    if shown["mode"] in ("referee", "joint"):
        salt, committed = shown["salt"], shown["commitment"]
        if salt is None or len(salt) != 2 * seeding.SALT_BYTES or not _is_hex(salt):
            raise Discrepancy("/seeding/salt", f"the salt is {2 * seeding.SALT_BYTES} hex digits")
        if committed is None:
            raise Discrepancy("/seeding/commitment", "a seed the referee drew is committed")
        if seeding.commitment(seed, salt) != committed:
            raise Discrepancy("/seeding/seed", "SHA-256(salt || 0x00 || seed) is not the commitment "
                                               "(docs/rng.md, Commitment)")
    elif shown["commitment"] is not None or shown["salt"] is not None:
        pointer = "/seeding/commitment" if shown["commitment"] is not None else "/seeding/salt"
        raise Discrepancy(pointer, f"a {shown['mode']} seed has no commitment")
    return seed


def _check_start(game, record: dict, seed: str, options: dict) -> dict:
    """The first state, once the seed and options deal it again."""
    try:
        dealt = game.setup(record["players"], seed, options)
    except InvalidOptions as error:
        pointer, detail = error.errors[0]
        raise Discrepancy(pointer, f"the game cannot be set up so: {detail}") from None
    start = record["start"]
    if dealt != start or _kinds(dealt) != _kinds(start):
        own = start.get("rng", {}).get("seed") if isinstance(start.get("rng"), dict) else None
        if isinstance(own, str) and own != seed and game.setup(record["players"], own, options) == start:
            raise Discrepancy("/seeding/seed", "the first state was dealt from another seed")
        _compare_first_state(dealt, start)
    return start


def _compare_first_state(dealt: dict, start: dict) -> None:
    """The first state the seed and options deal, against the record's: the options first
    (other options deal other cards, and the discrepancy is theirs), then the rest."""
    _compare(dealt.get("options"), start.get("options"), "/start/options")
    _compare(dealt, start, "/start")


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


@lru_cache(maxsize=None)
@lru_cache(maxsize=None)
def _schema(game_id: str, name: str):
    if name == "CONTRIBUTION":
        return Contribution()
    return getattr(import_module(f"referee.games.{PACKAGES[game_id]}.schema"), name)()


def _load(game_id: str, name: str, value: Any, base: str) -> dict:
    """``value`` loaded with the game's schema ``name`` (through the compiled check first, as a
    match's move is); a Discrepancy at its first error."""
    try:
        return fast_load(_schema(game_id, name), value)
    except ValidationError as error:
        pointer, detail = pointer_errors(error.messages, base)[0]
        raise Discrepancy(pointer, detail) from None


def _kinds(value: Any) -> Any:
    """``value`` with each scalar replaced by its JSON kind (so true and 1 differ)."""
    if isinstance(value, dict):
        return {key: _kinds(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_kinds(item) for item in value]
    return type(value).__name__


def _compare(expected: Any, found: Any, base: str) -> None:
    """Raise a Discrepancy at the first place where ``found`` is not the JSON value ``expected``
    (objects key by key in sorted order, arrays item by item; a missing or extra member is
    pointed at by its own key or index)."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in sorted(set(expected) | set(found)):
            pointer = f"{base}/{escape_token(key)}"
            if key not in found:
                raise Discrepancy(pointer, f"missing: the replay has {dumps(expected[key])}")
            if key not in expected:
                raise Discrepancy(pointer, "not in the replay")
            _compare(expected[key], found[key], pointer)
        return
    if isinstance(expected, list) and isinstance(found, list):
        for index in range(max(len(expected), len(found))):
            pointer = f"{base}/{index}"
            if index >= len(found):
                raise Discrepancy(pointer, f"missing: the replay has {dumps(expected[index])}")
            if index >= len(expected):
                raise Discrepancy(pointer, f"not in the replay (it has {len(expected)} items)")
            _compare(expected[index], found[index], pointer)
        return
    if type(expected) is not type(found) or expected != found:
        raise Discrepancy(base, f"the replay has {dumps(expected)}")
