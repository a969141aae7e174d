"""Examples of the contract: the request and answer bodies of every operation, computed from
real setups (2 players, seed "example") by the code that serves them, so that they always fit
the schemas (tests/api/test_examples.py checks them against the contract and, for matches,
against the answers of a real match). A match is created without a seed in the first
example: a seed someone knows shows every card.

Each function answers OpenAPI ``examples`` maps: ``{name: {"summary", "value"}}``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from referee.engine import information
from referee.games import GAMES
from referee.service import records, stateless, verify
from referee.service.matches import match_json, timestamp, with_player_name

SEED = "example"
PLAYERS = 2
NAMES = ("Ana", "健太")   # the seats' display names of the example match
LANGUAGE = "en"
SHOWN_MOVES = 3  # a legal-moves example lists the first moves only
# Values a real match makes at random or from the clock, in their real shapes.
MATCH_ID = "q3YV0Rj9mP2bX7wKc4LtAw"
SEAT_SECRETS = ["c0Vn3kq8Z1xJmR5tY2bW9hLsQe4uA6dF", "Hp7rT2mX9vK4nB1cZ8wQ3yL6jE5sG0aU"]
CREATED = 1767268800.0  # 2026-01-01T12:00:00Z
MOVED = CREATED + 42.5
TTL = 604800


def _copy(value: Any) -> Any:
    """A fresh copy (YAML output would otherwise share repeated objects as anchors)."""
    return json.loads(json.dumps(value))


def named(name: str, summary: str, value: Any) -> dict:
    return {name: {"summary": summary, "value": _copy(value)}}


@lru_cache(maxsize=None)
def _game_run(game_id: str) -> dict:
    """A real setup of ``game_id`` and its first moves."""
    game = GAMES[game_id]
    setup_body = {"players": PLAYERS, "seed": SEED}
    state = stateless.setup(game, dict(setup_body))["state"]
    moves = game.legal_moves(state)
    move = moves[0]
    verdict = stateless.adjudicate(game, {"state": state, "move": move}, LANGUAGE)
    illegal_move = {**move, "player": (move["player"] + 1) % PLAYERS}
    illegal = stateless.adjudicate(game, {"state": state, "move": illegal_move}, LANGUAGE)
    # A card the mover does not hold (the other seat's): illegal, with the mover's closest moves.
    other_hand = state["players"][(move["player"] + 1) % PLAYERS].get("hand") or [None]
    wrong_card = {**move, "card": other_hand[0]} if "card" in move and other_hand[0] is not None else None
    wrong = stateless.adjudicate(game, {"state": state, "move": wrong_card}, LANGUAGE) if wrong_card else None
    second = game.legal_moves(verdict["state"])[0]
    replay_body = {"state": state, "moves": [move, second]}
    return {"setup": setup_body, "state": state, "moves": moves, "move": move, "verdict": verdict,
            "illegal_move": illegal_move if not illegal["legal"] else None, "illegal": illegal,
            "wrong_card": wrong_card if wrong and not wrong["legal"] else None, "wrong": wrong,
            "score": stateless.score(game, {"state": state}),
            "replay": replay_body, "replayed": stateless.replay(game, _copy(replay_body), LANGUAGE)}


def _first_moves(moves: list) -> tuple[str, list]:
    if len(moves) <= SHOWN_MOVES:
        return "every move", moves
    return f"the first {SHOWN_MOVES} of the {len(moves)} moves (the answer lists them all)", moves[:SHOWN_MOVES]


def game_operation(game_id: str, operation: str) -> tuple[dict, dict]:
    """``(request examples, answer examples)`` of a stateless operation of ``game_id``
    (setup, legal-moves, adjudicate, score, replay)."""
    run = _game_run(game_id)
    title = GAMES[game_id].title
    start = f"{title}, {PLAYERS} players, seed {SEED!r}"
    state_body = {"state": run["state"]}
    if operation == "setup":
        return named("setup", start, run["setup"]), named("first_state", f"the first state of {start}", state_body)
    if operation == "legal-moves":
        what, shown = _first_moves(run["moves"])
        return (named("first_state", f"the first state of {start}", state_body),
                named("moves", f"{what} of that state", {"moves": shown}))
    if operation == "adjudicate":
        requests = named("legal", f"the first listed move in the first state of {start}",
                         {"state": run["state"], "move": run["move"]})
        answers = named("legal", "a legal move: the next state, events and scores", run["verdict"])
        if run["illegal_move"] is not None:
            requests.update(named("illegal", "the same move by the other seat",
                                  {"state": run["state"], "move": run["illegal_move"]}))
            answers.update(named("illegal", "an illegal move: violations with code, message and rulebook "
                                            "section; no next state", run["illegal"]))
        if run["wrong_card"] is not None:
            requests.update(named("wrong_card", "the first seat plays a card the other seat holds",
                                  {"state": run["state"], "move": run["wrong_card"]}))
            answers.update(named("wrong_card", "an illegal move with the mover's closest legal moves as "
                                               "suggestions", run["wrong"]))
        return requests, answers
    if operation == "score":
        return (named("first_state", f"the first state of {start}", state_body),
                named("scores", "the score sheet and outcome (provisional: the game goes on)", run["score"]))
    if operation == "view":
        body = {"state": run["state"], "seat": 0}
        return (named("seat_0", f"seat 0 asks for its view of the first state of {start}", body),
                named("seat_0", "what seat 0 sees: its own hand, the other hands and the pile as sizes",
                      stateless.view(GAMES[game_id], _copy(body))))
    if operation == "replay":
        return (named("two_moves", f"two listed moves from the first state of {start}", run["replay"]),
                named("replayed", "the final state and one verdict per move", run["replayed"]))
    raise KeyError(operation)


def game_list() -> dict:
    return named("games", "the games", {"games": [stateless.game_info(game) for game in GAMES.values()]})


def game_detail(game_id: str) -> dict:
    return named("detail", f"{GAMES[game_id].title} in English",
                 stateless.game_detail(GAMES[game_id], LANGUAGE))


def health() -> dict:
    return named("alive", "the process answers", {"status": "ok"})


def readiness() -> dict:
    from referee.store.memory import MemoryStore
    return named("ready", "the in-process match store (no REDIS_URL)",
                 {"status": "ready", "store": MemoryStore().health()})


# -- matches ----------------------------------------------------------------------------------

MATCH_GAME = "scratch-and-catch"


@lru_cache(maxsize=None)
def _match_run() -> dict:
    game = GAMES[MATCH_GAME]
    run = _game_run(MATCH_GAME)
    meta = {"game": MATCH_GAME, "players": PLAYERS, "created": CREATED,
            "seeding": {"mode": "creator", "salt": None, "commitment": None, "seed": SEED}, "options": {},
            "names": list(NAMES)}
    created = match_json(MATCH_ID, meta, 0, run["state"], CREATED, CREATED + TTL, None)
    created["seats"] = [{"seat": seat, "secret": secret} for seat, secret in enumerate(SEAT_SECRETS)]
    after = run["verdict"]["state"]
    seat_view = match_json(MATCH_ID, meta, 1, after, MOVED, MOVED + TTL, 0)
    moves = [move for move in run["moves"] if move.get("player") == 0]
    verdict = dict(run["verdict"], id=MATCH_ID, version=1, state=game.view(after, 0),
                   scores=game.visible_scores(after, 0))
    entry = {"version": 1, "player": run["move"]["player"], "at": timestamp(MOVED), "move": run["move"],
             "events": run["verdict"]["events"], "redacted": False}
    stored = {**entry, "at": MOVED, **information.disclose(game.disclosure, run["state"], run["move"],
                                                             run["verdict"]["events"])}
    return {"create": {"game": MATCH_GAME, "players": PLAYERS},
            "seeded": {"game": MATCH_GAME, "players": PLAYERS, "seed": SEED, "names": list(NAMES)}, "created": created,
            "meta": meta, "after": after, "stored": stored,
            "seat_view": seat_view, "moves": moves, "move": run["move"], "verdict": verdict,
            "log": {"id": MATCH_ID, "game": MATCH_GAME, "version": 1, "seat": None, "names": list(NAMES),
                    "entries": [with_player_name(dict(entry), list(NAMES))]}}


def match_operation(operation: str) -> tuple[dict | None, dict]:
    """``(request examples or None, answer examples)`` of a match operation (createMatch,
    getMatch, getMatchLegalMoves, postMove, getMatchLog, getMatchEvents), built as the service
    builds its answers."""
    run = _match_run()
    title = GAMES[MATCH_GAME].title
    if operation == "createMatch":
        requests = named("create", f"{title}, {PLAYERS} players: the referee draws the seed and never shows it",
                         run["create"])
        requests.update(named("seeded", f"the same with a chosen seed ({SEED!r}): whoever knows it can deal the "
                                        "same game and see every card, so only for one who deals and does not play; "
                                        "with the seats' names",
                              run["seeded"]))
        return requests, named("created", f"version 0, the spectator's view and one secret per seat (the deal of "
                                          f"seed {SEED!r})", run["created"])
    if operation == "getMatch":
        return None, named("seat_0", "seat 0's view (?seat=0 with its secret) after its first move", run["seat_view"])
    if operation == "getMatchLegalMoves":
        return None, named("moves", "seat 0's moves at version 0",
                           {"id": MATCH_ID, "game": MATCH_GAME, "version": 0, "seat": 0, "moves": run["moves"]})
    if operation == "postMove":
        return (named("move", "seat 0's first move, with If-Match: \"0\"", {"move": run["move"]}),
                named("legal", "legal: the match is at version 1; the state as seat 0 sees it", run["verdict"]))
    if operation == "getMatchLog":
        return None, named("log", "a spectator's log after one move", run["log"])
    if operation == "getMatchEvents":
        from referee.api.ops import live
        stream = f"retry: {live.RECONNECT_MILLISECONDS}\nid: 0\n\n" + live.sse("move", run["log"]["entries"][0], 1)
        return None, named("first_move", "a spectator following the match from version 0: the first move", stream)
    raise KeyError(operation)


# A deck of 14 cards: a whole game, and so its record, stays short.
SHORT_DECK = {"deck": {"cat": [2, 2, 1, 1, 1, 1, 1, 1, 1, 1], "scratch": [1, 0, 0, 0, 0, 0, 0, 0, 0, 1]}}


def _finished_record() -> dict:
    """The complete record of a match of Scratch & Catch with a short deck, played to its end,
    each seat taking the first of its legal moves."""
    game = GAMES[MATCH_GAME]
    meta = {"game": MATCH_GAME, "players": PLAYERS, "created": CREATED, "options": SHORT_DECK,
            "seeding": {"mode": "creator", "salt": None, "commitment": None, "seed": SEED}}
    state, logged = game.setup(PLAYERS, SEED, SHORT_DECK), []
    while not game.score(state)[1].finished:
        move = game.legal_moves(state)[0]
        verdict = game.adjudicate(state, move, checked=True)
        logged.append({"version": len(logged) + 1, "player": move["player"], "move": move,
                       "events": verdict.events, "at": MOVED + len(logged)})
        state = verdict.state
    return records.build(MATCH_ID, meta, state, len(logged), logged, None)


def record_operation(operation: str) -> tuple[dict | None, dict]:
    """``(request examples or None, answer examples)`` of getMatchRecord and verifyRecord."""
    run = _match_run()
    if operation == "getMatchRecord":
        during = records.build(MATCH_ID, run["meta"], run["after"], 1, [run["stored"]], None)
        return None, named("spectator", "a spectator's record after the first move: what its view and log show",
                           during)
    if operation == "verifyRecord":
        complete = _finished_record()
        altered = _copy(complete)
        hand = altered["start"]["players"][0]["hand"]
        hand[0], altered["start"]["draw_pile"][0] = altered["start"]["draw_pile"][0], hand[0]
        return (named("complete", "the complete record of a short game (14 cards), seed 'example'", complete)
                | named("altered", "the same record with a card of seat 0's hand swapped with the top of the "
                                   "draw pile", altered),
                named("valid", "every check passes", verify.verify(_copy(complete)).to_json())
                | named("invalid", "the first discrepancy: the deal the seed gives differs there",
                        verify.verify(altered).to_json()))
    raise KeyError(operation)
