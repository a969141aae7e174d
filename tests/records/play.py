"""Random matches played to their end over HTTP, and their records."""

from __future__ import annotations

import json
import random

from referee.app import create_app
from referee.service import seeding
from referee.service.matches import IfMatch, Matches
from referee.store.memory import MemoryStore
from referee.store.snapshot_cache import RecentSnapshots

# (game, players, options, creation extras): every mode of every game.
MODES = [
    ("scratch-and-catch", 2, {}, {"seed": "rec-1"}),
    ("scratch-and-catch", 3, {"scratch_cards_score": True}, {}),
    ("scratch-and-catch", 4, {"chance": "table"}, {"seeding": "joint"}),
    ("scratch-and-catch", 2, {"chance": "table", "hands": "unseen"}, {}),
    ("catatac", 2, {}, {"seed": "rec-2"}),
    ("catatac", 4, {"chance": "table"}, {"seeding": "joint"}),
    ("catatac", 2, {"chance": "table", "hands": "unseen", "boosters": ["distraction", "alpha"]}, {}),
    ("catatac", 2, {"boosters": ["momentum", "alpha"], "deck_hockey": True}, {}),
    ("catatac", 2, {"kittens": True, "marathon": True}, {"seeding": "joint"}),
    ("call-of-katulhu", 2, {"advanced": True}, {"seeding": "joint"}),
    ("call-of-katulhu", 2, {"chance": "table"}, {"seed": "rec-3"}),
]


class Table:
    """One app on an in-process store."""

    def __init__(self, http: bool = True):
        self.store = MemoryStore(ttl=3600)
        app = create_app({"TESTING": True, "REFEREE_STORE": self.store})
        self.client, self.http = app.test_client(), http
        self.matches = Matches(self.store, RecentSnapshots(1 << 20))   # the service, outside a request

    def create(self, game_id: str, players: int, options: dict, extras: dict) -> dict:
        answer = self.client.post("/v1/matches", json={"game": game_id, "players": players, "options": options,
                                                       **extras})
        assert answer.status_code == 201, answer.get_json()
        return answer.get_json()

    def play(self, match: dict, rnd: random.Random, moves: int | None = None) -> None:
        """Random legal moves (contributions of random hex) until the game is over, or ``moves`` of them."""
        match_id, secrets = match["id"], [seat["secret"] for seat in match["seats"]]
        game = seeding.game_of(json.loads(self.store.get(match_id).meta))
        while moves is None or moves > 0:
            snap = self.store.get(match_id)
            state = json.loads(snap.state)
            if game.score(state)[1].finished:
                return
            move = rnd.choice(game.legal_moves(state))
            if move["type"] == "contribute":
                move = dict(move, contribution=f"{rnd.getrandbits(128):032x}")
            if self.http:
                answer = self.client.post(f"/v1/matches/{match_id}/moves", json={"move": move}, headers={
                    "Authorization": f"Bearer {secrets[move['player']]}", "If-Match": f'"{snap.version}"'})
                assert answer.status_code == 200 and answer.get_json()["legal"], (move, answer.get_json())
            else:   # the match operation the endpoint runs, without the HTTP round trip (long games)
                held, cached = self.matches.held(match_id, frozenset({snap.version}))
                answer = self.matches.move(match_id, held, cached, move, move["player"],
                                           IfMatch(frozenset({snap.version})), None, "en")
                assert json.loads(answer.body)["legal"], (move, answer.body)
            moves = None if moves is None else moves - 1

    def record(self, match_id: str, seat: int | None = None, secret: str | None = None):
        query = "" if seat is None else f"?seat={seat}"
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        return self.client.get(f"/v1/matches/{match_id}/record{query}", headers=headers)


def finished_record(game_id: str, players: int, options: dict, extras: dict, seed: int) -> dict:
    """The complete record (a spectator's) of a random match of this mode played to its end."""
    table = Table(http=False)
    match = table.create(game_id, players, options, extras)
    table.play(match, random.Random(seed))
    record = table.record(match["id"]).get_json()
    assert record["complete"], record["final"]["outcome"]
    return record
