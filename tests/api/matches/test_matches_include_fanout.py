"""What many event streams of one seat cost with ``?include=legal_moves``: a Call of Katulhu
listing is about 25 KB and 1.6 ms of CPU, and one client may hold a worker's every waiting
slot (REFEREE_MAX_WAITING, 750 by default) on one match. The streams of a seat at one
version of a match send the same listing, worked out once in the worker, not once per
stream; each stream still sends it whole."""

from __future__ import annotations

import json

from referee.games import GAMES
from tests.api.matches.test_matches_include import Follower, _app

STREAMS = 20


def test_the_streams_of_a_seat_share_one_listing_per_version(monkeypatch):
    app, _ = _app()
    client = app.test_client()
    match = client.post("/v1/matches", json={"game": "call-of-katulhu", "players": 2, "seed": "fanout"}).get_json()
    game = GAMES["call-of-katulhu"]
    listed: list[int] = []
    original = type(game).seat_moves

    def counted(self, state, seat):
        listed.append(seat)
        return original(self, state, seat)

    monkeypatch.setattr(type(game), "seat_moves", counted)
    followers = [Follower(client, match, 0) for _ in range(STREAMS)]
    try:
        first = [follower.read_until(0)["data"] for follower in followers]
        # The rulebook's Gameplay: each player first places 4 of the toys in hand, in any order,
        # so the seat's listing at version 0 is long (hundreds of placements).
        assert all(data == first[0] for data in first) and len(first[0]["moves"]) > 100
        assert len(json.dumps(first[0])) > 10_000
        assert listed == [0]
        move = first[0]["moves"][0]
        auth = {"Authorization": f"Bearer {match['seats'][0]['secret']}"}
        answer = client.post(f"/v1/matches/{match['id']}/moves", json={"move": move},
                             headers={**auth, "If-Match": '"0"'})
        assert answer.status_code == 200 and answer.get_json()["legal"]
        after = [follower.read_until(1)["data"] for follower in followers]
        # Seat 0 has placed: it waits for seat 1 and has nothing to do.
        assert all(data == {"version": 1, "moves": []} for data in after)
        assert listed == [0, 0]
    finally:
        for follower in followers:
            follower.close()
