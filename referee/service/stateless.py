"""The stateless operations, shared by the HTTP views, the matches and the command line.

Each function takes a request body already loaded by the game's schemas and answers a JSON
value. Impossible states, unplayable options and work over the limits raise the domain errors
of referee/service/errors.py, with JSON pointers into the request body. Messages are
translated here, never in the engine.
"""

from __future__ import annotations

import re
import secrets
import time

from referee.engine.core import Game, InvalidOptions, InvalidState, Move, State, Verdict, Violation
from referee.engine.suggestions import closest
from referee.i18n import translate
from referee.json_text import dumps
from referee.limits import MAX_REPLAY_STATE_BYTES, MAX_REPLAY_WORK
from referee.service.errors import ImpossibleState, InvalidRequest, TooMuchWork, UnplayableOptions
from referee.service.texts import Text, echo

# A detail may name another place of the state as a JSON pointer ("card C1-1 is also at
# /players/0/hand/0"): it gets the same prefix as the error's own pointer.
_PLACE = re.compile(r"(?<=\bat )/")


def _impossible_state(error: InvalidState, base: str) -> ImpossibleState:
    return ImpossibleState(Text("The state cannot exist in this game: correct the places the errors point at, or "
                                "send a state the referee gave (by setup, or in an answer)."),
                           [(base + p, _PLACE.sub(base + "/", d)) for p, d in error.errors])


def violation_json(violation: Violation, language: str, game: Game) -> dict:
    """``{"code", "message", "rule"}`` with message and rule in ``language``, from ``game``'s
    catalog (its gettext domain is its id)."""
    # The game's word parameters are translated too: a catalog may name an identifier in words
    # ("enemy_possession"). Other values pass unchanged: a Call of Katulhu cat may be named "Setup".
    domain = game.id
    params = {name: translate(value, language, domain) if name in game.word_params and isinstance(value, str) else value
              for name, value in violation.params.items()}
    return {
        "code": violation.code,
        "message": translate(violation.message, language, domain).format(**params),
        "rule": translate(violation.rule, language, domain),
    }


def verdict_json(verdict: Verdict, language: str, game: Game, suggestions: list[Move] | None = None) -> dict:
    """The HTTP form of a verdict (DESIGN section 1), its texts in ``language``;
    ``suggestions``: the moves offered instead of an illegal one (none for a legal one)."""
    return {
        "legal": verdict.legal,
        "violations": [violation_json(v, language, game) for v in verdict.violations],
        "state": verdict.state,
        "events": verdict.events,
        "scores": verdict.scores,
        "outcome": verdict.outcome.to_json(),
        "suggestions": suggestions or [],
    }


def suggestions(game: Game, move: Move, own_moves: list[Move]) -> list[Move]:
    """Up to three of ``own_moves`` (the moves of the seat that proposed ``move``, as that seat
    may know them) closest to ``move`` (referee/engine/suggestions.py)."""
    return closest(move, own_moves, game.card_fields)


def _stateless_suggestions(game: Game, state: State, move: Move, verdict: Verdict) -> list[Move]:
    """The suggestions for an illegal ``move`` in a whole state: the closest legal moves of the
    player the move names (none when that player may not move now)."""
    if verdict.legal:
        return []
    return suggestions(game, move, [m for m in game.legal_moves(state) if m["player"] == move["player"]])


def setup(game: Game, body: dict) -> dict:
    """``{"players", "seed"?, "options"?}`` -> ``{"state"}``. Raises UnplayableOptions."""
    seed = body.get("seed") or secrets.token_hex(16)
    try:
        return {"state": game.setup(body["players"], seed, body.get("options") or {})}
    except InvalidOptions as error:
        raise UnplayableOptions(Text("These options cannot be played: change those the errors point at (GET "
                                     "/v1/games/{game} lists the options and their defaults).", game=game.id),
                                error.errors) from None


def check(game: Game, state: dict, base: str = "/state") -> None:
    """Raise ImpossibleState (pointers under ``base``) unless ``state`` can exist."""
    try:
        game.check_state(state)
    except InvalidState as error:
        raise _impossible_state(error, base) from None


def legal_moves(game: Game, body: dict) -> dict:
    """``{"state"}`` -> ``{"moves": [...]}``."""
    check(game, body["state"])
    return {"moves": game.legal_moves(body["state"])}


def adjudicate(game: Game, body: dict, language: str) -> dict:
    """``{"state", "move"}`` -> verdict JSON (an illegal one with its suggestions)."""
    state, move = body["state"], body["move"]
    check(game, state)
    verdict = game.adjudicate(state, move, checked=True)
    return verdict_json(verdict, language, game, _stateless_suggestions(game, state, move, verdict))


def score(game: Game, body: dict) -> dict:
    """``{"state"}`` -> ``{"scores", "outcome"}``."""
    check(game, body["state"])
    scores, outcome = game.score(body["state"])
    return {"scores": scores, "outcome": outcome.to_json()}


YIELD_EVERY = 4  # replay steps between two chances for the worker's other requests to run


def _share_the_worker(index: int) -> None:
    """Called after each replay step: every ``YIELD_EVERY`` steps, ``time.sleep(0)``; under
    gevent (monkey-patched) it lets the worker's other greenlets run, so a long replay delays a
    health probe by a few steps, not by the whole replay."""
    if index % YIELD_EVERY == YIELD_EVERY - 1:
        time.sleep(0)


def _too_much(detail: Text, pointer: str, why: Text) -> TooMuchWork:
    return TooMuchWork(detail, [(pointer, why)])


def replay(game: Game, body: dict, language: str) -> dict:
    """``{"state", "moves", "include_states"?}`` -> ``{"state", "steps", "first_illegal"}``.

    Each step is a verdict whose ``state`` is null unless ``include_states`` (the final state
    is given once). 413 (pointer /moves or /include_states) over the limits of
    referee/limits.py: ``moves x starting state size`` over ``MAX_REPLAY_WORK``, or over
    ``MAX_REPLAY_STATE_BYTES`` with ``include_states``."""
    include_states = bool(body.get("include_states"))
    work = len(dumps(body["state"])) * len(body["moves"])
    if work > MAX_REPLAY_WORK:
        raise _too_much(Text("This replay is too much work for one request: {moves} moves from a state of {size:,} "
                             "bytes; moves x state size may be at most {limit:,} (MAX_REPLAY_WORK). Replay it in "
                             "parts, each from the last state.", moves=len(body["moves"]),
                             size=work // max(len(body["moves"]), 1), limit=MAX_REPLAY_WORK),
                        "/moves", Text("too many moves for a state of this size"))
    if include_states and work > MAX_REPLAY_STATE_BYTES:
        raise _too_much(Text("A replay with the state of every step would answer about {size:,} bytes; the limit is "
                             "{limit:,} (MAX_REPLAY_STATE_BYTES, moves x state size). Send fewer moves, or leave "
                             "include_states false.", size=work, limit=MAX_REPLAY_STATE_BYTES),
                        "/include_states", Text("too many moves to include every state"))
    check(game, body["state"])
    final, verdicts, illegal_at = game.replay(body["state"], body["moves"], checked=True, after_step=_share_the_worker)
    steps = [verdict_json(v, language, game) for v in verdicts]
    if illegal_at is not None:
        steps[illegal_at]["suggestions"] = _stateless_suggestions(game, final, body["moves"][illegal_at],
                                                                  verdicts[illegal_at])
    if not include_states:
        for step in steps:
            step["state"] = None
    first_illegal = None
    if illegal_at is not None:
        first_illegal = {"index": illegal_at, "violations": steps[illegal_at]["violations"]}
    return {"state": final, "steps": steps, "first_illegal": first_illegal}


def view(game: Game, body: dict) -> dict:
    """``{"state", "seat"}`` -> ``{"seat", "state", "scores", "outcome"}``: what seat ``seat``
    (null: a spectator) may see of the state, exactly as a match shows it. InvalidRequest
    (pointer ``/seat``) for a seat the state does not have."""
    state, seat = body["state"], body["seat"]
    check(game, state)
    if seat is not None and seat >= len(state["players"]):
        last = len(state["players"]) - 1
        raise InvalidRequest(Text("The state has no seat {seat}: send a seat from 0 to {last}, or null for a "
                                  "spectator's view.", seat=echo(seat), last=last),
                             [("/seat", Text("must be a seat from 0 to {last}, or null", last=last))])
    sheet, outcome = game.score(state)
    return {"seat": seat, "state": game.view(state, seat), "scores": game.visible_scores(state, seat, sheet),
            "outcome": outcome.to_json()}


def game_detail(game: Game, language: str) -> dict:
    """The ``GET /v1/games/{game}`` answer: the entry, the default catalogue, every card as
    printed (:func:`printed_cards`) and every violation code with its message template and
    rulebook section, in ``language``."""
    info = game_info(game)
    info["catalogue"] = game.catalogue()
    info["cards"] = printed_cards(game, language)
    info["violations"] = [{"code": code, "message": translate(message, language, game.id),
                           "rule": translate(rule, language, game.id)}
                          for code, (message, rule) in sorted(game.messages.items())]
    return info


def card_name(game: Game, card: str, language: str) -> str:
    """The name printed on ``card`` (a card id or kind of ``game``'s ``printed_cards``) in
    ``language``, from the game's catalog: ``"Capture 4"``, ``"キャプチャー 4"``. KeyError for a
    card the game does not list."""
    printed = game.printed_cards()[card]
    params = {name: translate(value, language, game.id) if isinstance(value, str) else value
              for name, value in printed.params.items()}
    return translate(printed.name, language, game.id).format(**params)


def printed_cards(game: Game, language: str) -> dict:
    """``{card: {"name", ...facts}}``: every card ``game`` can deal, and every kind unseen
    hands name, as printed (``Game.printed_cards``), its name in ``language``."""
    return {card: {"name": card_name(game, card, language), **printed.facts}
            for card, printed in game.printed_cards().items()}


def game_info(game: Game) -> dict:
    """The ``GET /v1/games`` entry of ``game``."""
    return {"id": game.id, "title": game.title, "players": list(game.player_counts),
            "options": game.options_info(), "rules_version": game.rules_version}
