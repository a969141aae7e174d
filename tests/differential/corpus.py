"""A recorded corpus of HTTP requests and the answers one revision gave them.

A refactor must keep every answer: this module drives a revision's WSGI app (in process, the
in-memory match store) through random matches of every game and mode, bad bodies and bad
headers, and records each request with the answer. ``test_differential.py`` sends the same
requests to the current tree and compares.

Record from a revision's tree::

    git worktree add --detach /tmp/base REV
    PYTHONPATH=/tmp/base python tests/differential/corpus.py tests/differential/corpus.jsonl.gz

What changes between runs of one revision is normalised on both sides: match ids and seat
secrets (``secrets`` is seeded per run), timestamps, request ids.
"""

from __future__ import annotations

import contextlib
import gzip
import itertools
import json
import random
import re
import secrets
import sys
from pathlib import Path
from typing import Any, Iterator

CORPUS = Path(__file__).with_name("corpus.jsonl.gz")
GAMES = ("scratch-and-catch", "call-of-katulhu", "catatac")
# Answer headers compared (the rest carry no meaning a client reads: Date, Server, X-Request-ID).
HEADERS = ("Allow", "Cache-Control", "Content-Language", "Content-Type", "ETag", "Idempotent-Replayed", "Location",
           "Preference-Applied", "Retry-After", "Vary", "WWW-Authenticate")
_TIME = re.compile(r'"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\d\dZ"')
# game -> option sets played (each with seeded and table chance where the game allows)
MODES: dict[str, list[dict]] = {
    "scratch-and-catch": [{}, {"scratch_cards_score": True}, {"chance": "table"},
                          {"chance": "table", "hands": "unseen"}],
    "call-of-katulhu": [{}, {"advanced": True}, {"chance": "table"}],
    "catatac": [{}, {"deck_hockey": True, "kittens": True}, {"marathon": True},
                {"boosters": ["distraction", "alpha", "momentum"]}, {"chance": "table"},
                {"chance": "table", "hands": "unseen"}, {"chance": "table", "boosters": ["alpha"], "hands": "unseen"}],
}


@contextlib.contextmanager
def seeded_secrets(seed: int = 7) -> Iterator[None]:
    """``secrets`` made deterministic while the block runs (match ids and seat secrets come from it)."""
    rng = random.Random(seed)
    saved = secrets.token_urlsafe, secrets.token_hex
    secrets.token_urlsafe = lambda n=32: "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(n))
    secrets.token_hex = lambda n=32: "".join(rng.choice("0123456789abcdef") for _ in range(2 * n))
    try:
        yield
    finally:
        secrets.token_urlsafe, secrets.token_hex = saved


def normalise(body: bytes) -> str:
    return _TIME.sub('"<time>"', body.decode("utf-8", "replace"))


def answer_of(response) -> dict:
    headers = {name: response.headers.get(name) for name in HEADERS if name in response.headers}
    if "Allow" in headers:   # (werkzeug lists the methods of a set, in no fixed order)
        headers["Allow"] = ", ".join(sorted(headers["Allow"].split(", ")))
    return {"status": response.status_code, "headers": headers, "body": normalise(response.get_data())}


def send(client, request: dict):
    headers = dict(request.get("headers") or {})
    data = request.get("data")
    if data is not None and "Content-Type" not in headers:
        headers["Content-Type"] = "application/json"
    return client.open(request["path"], method=request["method"], headers=headers,
                       data=None if data is None else data.encode("utf-8"))


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Recorder:
    """Sends requests to ``client`` and keeps each with its answer."""

    def __init__(self, client):
        self.client = client
        self.records: list[dict] = []

    def __call__(self, method: str, path: str, body: Any = None, raw: str | None = None,
                 headers: dict | None = None):
        request = {"method": method, "path": path, "headers": headers or {},
                   "data": raw if raw is not None else (None if body is None else _json(body))}
        response = send(self.client, request)
        self.records.append({"request": request, "answer": answer_of(response)})
        return response


def _mutations(move: dict, players: int, rng: random.Random) -> Iterator[dict]:
    """Moves near a listed one that the rules (or the schema) refuse."""
    yield {**move, "player": (move.get("player", 0) + 1) % players}
    for key, value in move.items():
        if key in ("type", "player"):
            continue
        if isinstance(value, str):
            yield {**move, key: value + "x"}
        elif isinstance(value, int) and not isinstance(value, bool):
            yield {**move, key: value + 7}
        elif isinstance(value, list):
            yield {**move, key: list(reversed(value)) + value[:1]}
    yield {key: value for key, value in move.items() if key != rng.choice(sorted(move))}


def play_stateless(rec: Recorder, game: str, players: int, options: dict, seed: str, rng: random.Random,
                   steps: int) -> None:
    """setup, then per step legal-moves, adjudicate (a listed move, sometimes a refused one
    first), score and view; a replay of the whole game at the end."""
    base = f"/v1/games/{game}"
    answer = rec("POST", f"{base}/setup", {"players": players, "seed": seed, "options": options})
    if answer.status_code != 200:
        return
    start = state = answer.get_json()["state"]
    played: list[dict] = []
    for step in range(steps):
        moves = rec("POST", f"{base}/legal-moves", {"state": state}).get_json().get("moves") or []
        if not moves:
            break
        move = rng.choice(moves)
        if rng.random() < 0.3:
            wrong = rng.choice(list(_mutations(move, players, rng)))
            rec("POST", f"{base}/adjudicate", {"state": state, "move": wrong},
                headers={"Accept-Language": "ja"} if step % 2 else None)
        verdict = rec("POST", f"{base}/adjudicate", {"state": state, "move": move}).get_json()
        if not verdict.get("legal"):
            break
        played.append(move)
        state = verdict["state"]
        if step % 5 == 0:
            rec("POST", f"{base}/score", {"state": state})
            rec("POST", f"{base}/view", {"state": state, "seat": rng.choice([None, *range(players)])})
    rec("POST", f"{base}/replay", {"state": start, "moves": played, "include_states": rng.random() < 0.5})


def play_match(rec: Recorder, game: str, players: int, options: dict, seed: str, rng: random.Random,
               steps: int) -> None:
    """A stored match: create, read as each reader, then moves with If-Match and seat secrets
    (some stale, some by the wrong seat, some retried with an Idempotency-Key), the log."""
    created = rec("POST", "/v1/matches", {"game": game, "players": players, "seed": seed, "options": options})
    if created.status_code != 201:
        return
    match = created.get_json()
    path = f"/v1/matches/{match['id']}"
    secret = {seat["seat"]: seat["secret"] for seat in match["seats"]}
    version = 0
    for step in range(steps):
        seat = rng.randrange(players)
        auth = {"Authorization": f"Bearer {secret[seat]}"}
        listed = rec("GET", f"{path}/legal-moves?seat={seat}", headers=auth).get_json().get("moves")
        if not listed:
            listed = rec("GET", f"{path}/legal-moves?seat={(seat + 1) % players}",
                         headers={"Authorization": f"Bearer {secret[(seat + 1) % players]}"}).get_json().get("moves")
            seat = (seat + 1) % players
            auth = {"Authorization": f"Bearer {secret[seat]}"}
        if not listed:
            break
        move = rng.choice(listed)
        roll = rng.random()
        if roll < 0.1:
            rec("POST", f"{path}/moves", {"move": move}, headers={**auth, "If-Match": f'"{version + 5}"'})
        elif roll < 0.2:
            other = (seat + 1) % players
            rec("POST", f"{path}/moves", {"move": move},
                headers={"Authorization": f"Bearer {secret[other]}", "If-Match": f'"{version}"'})
        elif roll < 0.3:
            rec("POST", f"{path}/moves", {"move": rng.choice(list(_mutations(move, players, rng)))},
                headers={**auth, "If-Match": f'"{version}"', "Accept-Language": "ja"})
        key = {"Idempotency-Key": f"k-{step}"} if rng.random() < 0.3 else {}
        answer = rec("POST", f"{path}/moves", {"move": move}, headers={**auth, **key, "If-Match": f'"{version}"'})
        if key:
            rec("POST", f"{path}/moves", {"move": move}, headers={**auth, **key, "If-Match": f'"{version}"'})
        if answer.status_code == 200 and answer.get_json().get("legal"):
            version += 1
        if step % 4 == 0:
            rec("GET", path)
            rec("GET", f"{path}?seat={seat}", headers=auth)
            rec("GET", path, headers={"If-None-Match": f'"{version}"'})
    rec("GET", f"{path}/log")
    rec("GET", f"{path}/log?seat=0", headers={"Authorization": f"Bearer {secret[0]}"})


BAD_BODIES = [
    ("not json", "{"), ("empty", ""), ("array", "[]"), ("nan", '{"players": NaN}'),
    ("float", '{"players": 2.0}'), ("big int", '{"players": 1' + "0" * 30 + "}"),
    ("string players", '{"players": "2"}'), ("bool players", '{"players": true}'),
    ("extra field", '{"players": 2, "colour": "red"}'), ("bad seed", '{"players": 2, "seed": 7}'),
    ("deep", "[" * 2000 + "]" * 2000), ("surrogate", '{"players": 2, "seed": "\\ud800"}'),
    ("bad option", '{"players": 2, "options": {"chance": "dice"}}'),
    ("unknown option", '{"players": 2, "options": {"colour": 1}}'),
    ("null options", '{"players": 2, "options": null}'), ("many players", '{"players": 99}'),
]


def bad_requests(rec: Recorder, rng: random.Random) -> None:
    """Bodies and headers the contract refuses, on every operation."""
    for game in GAMES:
        base = f"/v1/games/{game}"
        for _name, raw in BAD_BODIES:
            rec("POST", f"{base}/setup", raw=raw)
        state = rec("POST", f"{base}/setup", {"players": 2, "seed": "bad"}).get_json()["state"]
        moves = rec("POST", f"{base}/legal-moves", {"state": state}).get_json()["moves"]
        move = moves[0]
        broken_states = [
            {**state, "game": "other"}, {**state, "schema_version": 9}, {**state, "players": []},
            {**state, "rng": None}, {**state, "turn": {"player": 5}},
            {k: v for k, v in state.items() if k != "options"},
            {**state, "extra": 1}, json.loads(json.dumps(state).replace('"hand"', '"hands"')),
        ]
        for broken in broken_states:
            rec("POST", f"{base}/adjudicate", {"state": broken, "move": move})
            rec("POST", f"{base}/legal-moves", {"state": broken})
        # a card in two places: the first hand's first card copied into the second hand
        players = state["players"]
        if players and players[0].get("hand") and "hand" in players[1]:
            twice = json.loads(json.dumps(state))
            twice["players"][1]["hand"][0] = twice["players"][0]["hand"][0]
            rec("POST", f"{base}/adjudicate", {"state": twice, "move": move})
        for bad_move in [{}, {"type": "fly", "player": 0}, {**move, "player": -1}, {**move, "player": "0"},
                         {**move, "surplus": True}, None, [move]]:
            rec("POST", f"{base}/adjudicate", {"state": state, "move": bad_move})
        rec("POST", f"{base}/adjudicate", raw=_json({"state": state, "move": move}),
            headers={"Content-Type": "text/plain"})
        rec("POST", f"{base}/adjudicate", raw=_json({"state": state, "move": move}),
            headers={"Content-Encoding": "gzip"})
        rec("POST", f"{base}/replay", {"state": state, "moves": [move] * 3})
        rec("POST", f"{base}/replay", {"state": state, "moves": "all"})
        rec("POST", f"{base}/view", {"state": state, "seat": 7})
        rec("POST", f"{base}/score", {"state": state, "extra": 1})
    rec("POST", "/v1/games/chess/setup", {"players": 2})
    rec("GET", "/v1/games/chess")
    rec("DELETE", "/v1/games")
    for body in [{"game": "chess", "players": 2}, {"game": "catatac"}, {"game": "catatac", "players": 3},
                 {"game": "catatac", "players": 2, "options": {"chance": "dice"}}]:
        rec("POST", "/v1/matches", body)
    created = rec("POST", "/v1/matches", {"game": "scratch-and-catch", "players": 2, "seed": "headers"}).get_json()
    path = f"/v1/matches/{created['id']}"
    secret = created["seats"][0]["secret"]
    move = rec("GET", f"{path}/legal-moves?seat=0",
               headers={"Authorization": f"Bearer {secret}"}).get_json()["moves"][0]
    for headers in [{}, {"If-Match": "*"}, {"If-Match": "3"}, {"If-Match": 'W/"0"'}, {"If-Match": '"0", "1"'},
                    {"If-Match": '"0'}, {"Authorization": "Basic abc", "If-Match": '"0"'},
                    {"Authorization": "Bearer nope", "If-Match": '"0"'},
                    {"Authorization": f"Bearer {secret}", "If-Match": '"0"', "Idempotency-Key": "\u00e9"},
                    {"Authorization": f"Bearer {secret}", "If-Match": '"0"', "Idempotency-Key": "x" * 300}]:
        rec("POST", f"{path}/moves", {"move": move}, headers=headers)
    for query in ["?seat=9", "?seat=-1", "?seat=a", "?seat=1"]:
        rec("GET", f"{path}{query}", headers={"Authorization": f"Bearer {secret}"})
    rec("GET", "/v1/matches/nope")
    rec("GET", "/v1/matches/no%20such/log")
    rec("POST", "/v1/matches/nope/moves", {"move": move}, headers={"If-Match": '"0"'})
    rec("POST", f"{path}/moves", {"move": move, "extra": 1},
        headers={"Authorization": f"Bearer {secret}", "If-Match": '"0"'})
    rec("POST", f"{path}/moves", raw='{"move": {"type": "play", "player": 0, "card": 1.5}}',
        headers={"Authorization": f"Bearer {secret}", "If-Match": '"0"'})


def record(client, seed: int = 20261204) -> list[dict]:
    """The corpus: every request the recorder sends ``client``, with its answer."""
    rng = random.Random(seed)
    rec = Recorder(client)
    for path in ["/v1/games", *(f"/v1/games/{game}" for game in GAMES), "/healthz"]:
        rec("GET", path)
        rec("GET", path, headers={"Accept-Language": "ja"})
    counter = itertools.count()
    player_counts = {"scratch-and-catch": (2, 3, 5), "call-of-katulhu": (2,), "catatac": (2, 4)}
    for game in GAMES:
        for options in MODES[game]:
            for players in player_counts[game]:
                seed_text = f"corpus-{next(counter)}"
                play_stateless(rec, game, players, options, seed_text, rng, steps=25)
                play_match(rec, game, players, options, seed_text + "-m", rng, steps=14)
    bad_requests(rec, rng)
    return rec.records


def app_client():
    from referee.app import create_app
    return create_app({"TESTING": True}).test_client()


def load(path: Path = CORPUS) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as file:
        return [json.loads(line) for line in file]


def main(out: str) -> None:
    client = app_client()   # outside: building the app's contract draws secrets of its own, as in the test
    with seeded_secrets():
        records = record(client)
    text = "".join(json.dumps(item, sort_keys=True) + "\n" for item in records)
    with open(out, "wb") as file, gzip.GzipFile(filename="", fileobj=file, mode="wb", mtime=0) as packed:
        packed.write(text.encode("utf-8"))
    print(f"{len(records)} requests recorded in {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(CORPUS))
