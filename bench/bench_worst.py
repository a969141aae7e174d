"""The most expensive request of each operation, within the service's limits
(docs/performance.md, "Worst requests"). A script, not a test.

    .venv/bin/python bench/bench_worst.py [--games 6] [--json out.json]

For every game it builds the heaviest setups the limits allow (most players, largest decks
or catalogues with the longest ids, every variant), plays random complete games from them
with the engine, and sends requests built from those games through the whole Flask
application in this process (parsing, schemas, rules, answer): setup; legal-moves,
adjudicate, score and view of states at every 16th move; replay of each whole game from its first
state, cut to the most moves the replay limits allow (referee/limits.py), without and with
states, and the whole game when that is over the limits (refused: what a refusal costs); and bodies of
about 1 MiB that the schemas refuse (``refused_bodies``). For each operation it keeps the
request that cost the most CPU (``time.process_time``, best of 3 runs of that request, so
that a pause of the machine does not count) and prints its CPU time, request size and answer
size as a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import servers  # noqa: E402

from referee.app import create_app  # noqa: E402
from referee.games import GAMES  # noqa: E402
from referee.games.call_of_katulhu.cards import DEFAULT_CATALOGUE, MAX_CATS, MAX_ID_LENGTH  # noqa: E402
from referee.games.scratch_and_catch.schema import MAX_COPIES  # noqa: E402
from referee.limits import MAX_REPLAY_MOVES, MAX_REPLAY_STATE_BYTES, MAX_REPLAY_WORK  # noqa: E402


def long_id(prefix: str, number: int) -> str:
    text = f"{prefix}{number}-"
    return (text + string.ascii_lowercase * 2)[:MAX_ID_LENGTH]


def big_katulhu_catalogue(rnd: random.Random) -> dict:
    """MAX_CATS cats with MAX_ID_LENGTH-character ids and toys: the heaviest catalogue."""
    toys = [long_id(f"toy{i}", i) for i in range(6)]
    beats = {toys[i]: [toys[(i + 1) % 6], toys[(i + 2) % 6]] for i in range(6)}
    colours = ["blue", "red", "yellow", "white", "black"]
    cats = []
    for number in range(MAX_CATS):
        slots = rnd.sample(toys, 4)
        slots[rnd.randrange(4)] = None
        cats.append({"id": long_id("cat", number), "colour": colours[number % 5], "slots": slots})
    return {"toys": toys, "beats": beats, "cats": cats, "cat_count": MAX_CATS}


def setups(rnd: random.Random) -> list[tuple[str, dict]]:
    """(game id, setup body) of the heaviest setups, and a default one of each game."""
    return [
        ("scratch-and-catch", {"players": 2, "seed": "w"}),
        ("scratch-and-catch", {"players": 6, "seed": "w", "options": {
            "deck": {"cat": [MAX_COPIES] * 10, "scratch": [MAX_COPIES] * 10}}}),
        ("call-of-katulhu", {"players": 2, "seed": "w"}),
        ("call-of-katulhu", {"players": 2, "seed": "w", "options": {"advanced": True,
                                                                    "catalogue": big_katulhu_catalogue(rnd)}}),
        ("catatac", {"players": 2, "seed": "w"}),
        ("catatac", {"players": 4, "seed": "w", "options": {
            "deck_hockey": True, "marathon": True, "boosters": ["distraction", "alpha", "momentum"]}}),
    ]


BODY_LIMIT = 1024 * 1024


_NESTED = [[[[[[[[1.5]]]]]]]]


def refused_bodies(game_id: str, state: dict) -> list[tuple[str, str, dict]]:
    """(what, operation path, body) of bodies within the body limit that the schemas refuse
    and that once cost seconds: an object of many unknown fields, a list far over its length
    of wrong items, a replay of a quarter of a million empty moves, floats everywhere, nested
    lists (up to the bound on arrays and objects, and far over it)."""
    base = f"/v1/games/{game_id}"
    items = BODY_LIMIT // 4   # "1," per item, with room for the rest of the body
    longest = max((key for key, value in state.items() if isinstance(value, list)),
                  key=lambda key: len(state[key]))
    bodies = [
        ("80,000 unknown fields in the state", base + "/legal-moves",
         {"state": {f"k{i}": 1 for i in range(80_000)}}),
        (f"{items:,} integers in {longest}", base + "/legal-moves", {"state": {**state, longest: [1] * items}}),
        (f"{items - 25_000:,} empty moves in a replay", base + "/replay",
         {"state": state, "moves": [{}] * (items - 25_000)}),
        (f"{items // 2:,} floats in the state", base + "/legal-moves",
         {"state": {**state, longest: [0.5] * (items // 2)}}),
        # Nested lists: each costs the worker an object and its collection (MAX_JSON_CONTAINERS)
        ("48,000 nested lists as a replay's moves, within the bound", base + "/replay",
         {"state": state, "moves": [_NESTED] * 6_000}),
        ("416,000 nested lists in a setup body, over the bound", base + "/setup",
         {"players": 2, "x": [_NESTED] * 52_000}),
    ]
    if game_id == "call-of-katulhu":
        catalogue = {**DEFAULT_CATALOGUE, "beats": {f"t{i}": 5 for i in range(80_000)}}
        bodies.append(("80,000 entries in a catalogue's beats", base + "/setup",
                       {"players": 2, "seed": "w", "options": {"catalogue": catalogue}}))
    return [(what, path, body) for what, path, body in bodies if len(json.dumps(body)) <= BODY_LIMIT]


def random_game(game, state: dict, rnd: random.Random, limit: int) -> tuple[list[dict], list[dict]]:
    """States (first included) and moves of a random game of at most ``limit`` moves."""
    states, moves = [state], []
    while not state.get("finished") and len(moves) < limit:
        options = game.legal_moves(state)
        if not options:
            break
        move = rnd.choice(options)
        verdict = game.adjudicate(state, move, checked=True)
        if not verdict.legal:
            break
        moves.append(move)
        state = verdict.state
        states.append(state)
    return states, moves


def measure(client, path: str, body: dict, runs: int = 3) -> tuple[float, int, int, int]:
    """(best CPU seconds, status, request bytes, answer bytes) of POST ``path``."""
    data = json.dumps(body).encode()
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        answer = client.post(path, data=data, content_type="application/json")
        size = len(answer.get_data())
        best = min(best, time.process_time() - started)
    return best, answer.status_code, len(data), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="random games per setup")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    client = create_app({"TESTING": True}).test_client()
    rnd = random.Random("worst")
    worst: dict[tuple[str, str], dict] = {}

    def keep(game_id: str, operation: str, path: str, body: dict, what: str) -> None:
        cpu, status, sent, size = measure(client, path, body)
        key = (game_id, operation)
        if key not in worst or cpu > worst[key]["cpu_ms"] / 1000:
            worst[key] = {"game": game_id, "operation": operation, "cpu_ms": round(cpu * 1000, 2),
                          "status": status, "request_bytes": sent, "answer_bytes": size, "what": what}

    for game_id, body in setups(rnd):
        game = GAMES[game_id]
        base = f"/v1/games/{game_id}"
        label = f"{body['players']} players, options {sorted((body.get('options') or {}))}"
        keep(game_id, "setup", base + "/setup", body, label)
        first = client.post(base + "/setup", json=body).get_json()["state"]
        for what, path, refused in refused_bodies(game_id, first):
            keep(game_id, "refused body", path, refused, what)
        for number in range(args.games):
            states, moves = random_game(game, first, random.Random(f"{game_id}-{number}"), MAX_REPLAY_MOVES)
            for index in range(0, len(states), 16):
                state = states[index]
                keep(game_id, "legal-moves", base + "/legal-moves", {"state": state}, f"{label}, move {index}")
                keep(game_id, "score", base + "/score", {"state": state}, f"{label}, move {index}")
                keep(game_id, "view", base + "/view", {"state": state, "seat": 0}, f"{label}, move {index}")
                if index < len(moves):
                    keep(game_id, "adjudicate", base + "/adjudicate", {"state": state, "move": moves[index]},
                         f"{label}, move {index}")
            size = len(json.dumps(first, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
            plain = moves[:MAX_REPLAY_WORK // size]
            full = moves[:MAX_REPLAY_STATE_BYTES // size]
            keep(game_id, "replay", base + "/replay", {"state": first, "moves": plain},
                 f"{label}, {len(plain)} moves (the most the limits allow: {len(moves)} played)")
            keep(game_id, "replay with states", base + "/replay",
                 {"state": first, "moves": full, "include_states": True},
                 f"{label}, {len(full)} moves (the most the limits allow: {len(moves)} played)")
            if len(plain) < len(moves):
                keep(game_id, "replay over the limit (refused)", base + "/replay", {"state": first, "moves": moves},
                     f"{label}, {len(moves)} moves")

    rows = sorted(worst.values(), key=lambda row: (row["game"], row["operation"]))
    print(servers.machine() + "\n")
    print("| game | operation | CPU ms | status | request bytes | answer bytes | heaviest request |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['game']} | {row['operation']} | {row['cpu_ms']} | {row['status']} | {row['request_bytes']:,} | "
              f"{row['answer_bytes']:,} | {row['what']} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
