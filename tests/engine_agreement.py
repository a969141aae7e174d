"""Requests on which the compiled and the interpreted engine must answer alike, and the runner
that answers them through one tree's WSGI app (tests/test_compiled_engine.py).

mypyc checks annotations at run time: a parameter annotated ``str`` that is handed None raises
TypeError in the compiled engine where the interpreted one went on. The cases below are the
places where a JSON value can differ from what the code expects: positions of random games
under every option, their legal moves, and moves and states with one value changed (null, a
float, a negative number, a wrong id, a list emptied), most of which the schema refuses.

    python tests/engine_agreement.py TREE < cases.jsonl > answers.jsonl

imports ``referee`` from TREE and answers each case (``[path, body]``) with ``[status, body]``
(an exception in the app: ``[500, "TypeError: ..."]``).
"""

from __future__ import annotations

import copy
import json
import random
import sys
from typing import Any, Iterator

# Options drawn for each game's setups (every variant the games offer, at random).
OPTION_CHOICES: dict[str, dict[str, list]] = {
    "scratch-and-catch": {"chance": ["seeded", "table"], "hands": ["seen", "unseen"],
                          "scratch_cards_score": [False, True]},
    "call-of-katulhu": {"chance": ["seeded", "table"], "advanced": [False, True]},
    "catatac": {"chance": ["seeded", "table"], "deck_hockey": [False, True], "hands": ["seen", "unseen"],
                "boosters": [[], ["distraction"], ["alpha"], ["momentum"], ["distraction", "alpha", "momentum"]]},
}

ODD_VALUES: list[Any] = [None, 0.5, 1.0, -1, 10 ** 6, "", "Z9", [], {}, True]


def _leaves(value: Any, path: tuple = ()) -> Iterator[tuple]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, path + (index,))
        yield path  # the list itself
    else:
        yield path


def _changed(value: Any, path: tuple, new: Any) -> Any:
    changed = copy.deepcopy(value)
    if not path:
        return new
    target = changed
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = new
    return changed


def cases(seed: int, positions_per_game: int) -> list[tuple[str, dict]]:
    """``[(path, body)]``: requests of every stateless operation along random games."""
    from referee.games import GAMES

    rnd = random.Random(seed)
    found: list[tuple[str, dict]] = []
    for game_id, game in GAMES.items():
        base = f"/v1/games/{game_id}"
        taken = 0
        game_index = 0
        while taken < positions_per_game:
            options = {name: rnd.choice(values) for name, values in OPTION_CHOICES[game_id].items()}
            players = rnd.choice(game.player_counts)
            try:
                state = game.setup(players, f"agreement-{seed}-{game_index}", options)
            except Exception:  # noqa: BLE001 - an option set this game refuses (also a case)
                found.append((f"{base}/setup", {"players": players, "seed": "x", "options": options}))
                game_index += 1
                continue
            found.append((f"{base}/setup", {"players": players, "seed": f"agreement-{game_index}", "options": options}))
            game_index += 1
            for _ in range(10):  # short games: many setups, so many option sets
                if game.score(state)[1].finished or taken >= positions_per_game:
                    break
                moves = game.legal_moves(state)
                if not moves:
                    break
                taken += 1
                move = rnd.choice(moves)
                found.append((f"{base}/legal-moves", {"state": state}))
                found.append((f"{base}/adjudicate", {"state": state, "move": move}))
                found.append((f"{base}/view", {"state": state, "seat": rnd.choice([None, 0, players - 1])}))
                found.append((f"{base}/score", {"state": state}))
                # One value of the move changed, and one of the state (a few of each).
                for key in rnd.sample(sorted(move), min(2, len(move))):
                    found.append((f"{base}/adjudicate", {"state": state, "move": {**move, key: rnd.choice(ODD_VALUES)}}))
                leaves = list(_leaves(state))
                # Every tenth position: every value of the state changed, one at a time.
                for path in leaves if taken % 10 == 1 else rnd.sample(leaves, 4):
                    found.append((f"{base}/adjudicate",
                                  {"state": _changed(state, path, rnd.choice(ODD_VALUES)), "move": move}))
                # A card or value copied from one place to another (an impossible state).
                other = rnd.choice(list(_leaves(state)))
                source = state
                for part in other:
                    source = source[part]
                found.append((f"{base}/legal-moves", {"state": _changed(state, path, copy.deepcopy(source))}))
                verdict = game.adjudicate(state, move)
                if not verdict.legal:
                    break
                state = verdict.state
            found.append((f"{base}/replay", {"state": game.setup(players, f"replay-{game_index}", options),
                                             "moves": [rnd.choice(game.legal_moves(game.setup(players, "r", options)))]}))
    return found


def answer(cases_in: list[tuple[str, dict]]) -> list[tuple[int, Any]]:
    """Each case's status and JSON answer through this process's referee (store: none)."""
    from referee.app import create_app

    client = create_app({"REFEREE_STORE": None, "TESTING": True}).test_client()
    answers = []
    for path, body in cases_in:
        try:
            response = client.post(path, json=body)
        except Exception as error:  # noqa: BLE001 - TESTING lets the error through: a 500, named
            answers.append((500, f"{type(error).__name__}: {error}"))
        else:
            answers.append((response.status_code, response.get_json()))
    return answers


if __name__ == "__main__":
    sys.path.insert(0, sys.argv[1])
    import referee.engine

    print(json.dumps({"compiled": referee.engine.compiled()}))
    for status, body in answer([tuple(json.loads(line)) for line in sys.stdin]):
        print(json.dumps([status, body], sort_keys=True))
