"""A seat's legal moves on the channels it already uses (``?include=legal_moves``): the verdict
of its move, its view (long-poll too) and its event stream carry what ``GET .../legal-moves``
lists at the same version, so a seat that follows a match sends one request per move.

Whole matches of each game are played by seats that send nothing but their event stream
(opened once) and their moves, choosing from what those two channels carry; a checker compares
every channel with the legal-moves listing at each version.
"""

from __future__ import annotations

import json
import random
import threading

import pytest

from referee.app import create_app
from referee.store.memory import MemoryStore
from tests.support.matches_support import wait_for

HEARTBEAT = 0.2   # seconds: a stream that sends nothing more shows up as heartbeats
GIVE_UP = 25      # heartbeats in a row before a stream counts as stuck


def _app(store=None):
    store = store or MemoryStore(ttl=3600)
    app = create_app({"TESTING": True, "REFEREE_STORE": store, "REFEREE_EVENTS_HEARTBEAT_SECONDS": HEARTBEAT})
    return app, store


def parse(chunk: bytes) -> list[dict]:
    """The server-sent events of a chunk (a wake's events come in one chunk), in order, each
    ``{"event", "id", "data"}``; comments and the opening ``retry`` are skipped. An event's
    ``id`` is its own ``id:`` line (None without one)."""
    events = []
    for block in chunk.decode("utf-8").split("\n\n"):
        fields: dict = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(": ")
            fields[name] = value
        if "event" in fields:
            events.append({"event": fields["event"], "id": fields.get("id"), "data": json.loads(fields["data"])})
    return events


class Follower:
    """A seat following a match: its event stream with ``include=legal_moves`` (one request,
    opened once) and its moves posted with ``include=legal_moves``; every request it sends is
    counted in ``requests``."""

    def __init__(self, client, match: dict, seat: int, after: int = 0):
        self.client, self.match_id, self.seat = client, match["id"], seat
        self.auth = {"Authorization": f"Bearer {match['seats'][seat]['secret']}"}
        self.requests: list[str] = []
        self.events: list[dict] = []
        self.moves: list[dict] | None = None   # its legal moves at ``self.at``
        self.at = -1
        self.stream = self._get(f"/v1/matches/{self.match_id}/events?seat={seat}&include=legal_moves",
                                headers={**self.auth, "Last-Event-ID": str(after)})
        assert self.stream.status_code == 200
        self.chunks = iter(self.stream.response)

    def _get(self, path: str, **kwargs):
        self.requests.append("GET " + path.split("?")[0])
        return self.client.get(path, **kwargs)

    def read_until(self, version: int) -> dict:
        """Read the stream up to its ``legal_moves`` event at ``version`` or its ``end``; the
        last event read."""
        idle = 0
        for chunk in self.chunks:
            events = parse(chunk)
            if not events:
                idle += 1
                assert idle < GIVE_UP, f"seat {self.seat}: no legal_moves at version {version}"
                continue
            idle = 0
            for number, event in enumerate(events):
                self.events.append(event)
                last = number == len(events) - 1
                if event["event"] == "legal_moves":
                    assert event["id"] is None   # (no id: a reconnection resumes after the last move)
                    self.moves, self.at = event["data"]["moves"], event["data"]["version"]
                    if self.at == version:
                        assert last   # (the listing ends its batch)
                        return event
                    assert self.at < version
                elif event["event"] == "end":
                    assert last
                    return event
        raise AssertionError(f"seat {self.seat}: the stream closed")

    def post(self, move: dict, version: int) -> dict:
        self.requests.append("POST moves")
        answer = self.client.post(f"/v1/matches/{self.match_id}/moves?include=legal_moves", json={"move": move},
                                  headers={**self.auth, "If-Match": f'"{version}"'})
        assert answer.status_code == 200, answer.get_json()
        body = answer.get_json()
        self.moves, self.at = body["legal_moves"], body["version"]
        return body

    def close(self) -> None:
        self.stream.close()


class Checker:
    """What the legal-moves listing says at a version, and the long-poll view beside it."""

    def __init__(self, client, match: dict):
        self.client, self.match = client, match

    def _auth(self, seat: int) -> dict:
        return {"Authorization": f"Bearer {self.match['seats'][seat]['secret']}"}

    def listing(self, seat: int, version: int) -> list[dict]:
        answer = self.client.get(f"/v1/matches/{self.match['id']}/legal-moves?seat={seat}", headers=self._auth(seat))
        assert answer.status_code == 200 and answer.get_json()["version"] == version
        return answer.get_json()["moves"]

    def view(self, seat: int, version: int) -> list[dict]:
        """The long-poll's view (If-None-Match names the version before: answered at once)."""
        answer = self.client.get(f"/v1/matches/{self.match['id']}?seat={seat}&include=legal_moves",
                                 headers={**self._auth(seat), "If-None-Match": f'"{version - 1}"',
                                          "Prefer": "wait=5"})
        assert answer.status_code == 200 and answer.get_json()["version"] == version
        return answer.get_json()["legal_moves"]


def play(client, match: dict, rnd: random.Random, checked: int = 0,
         until: int | None = None) -> tuple[int, list[Follower]]:
    """Play ``match`` to its end (or to version ``until``) with one Follower per seat, each
    choosing at random among the moves its channels carry; at the first ``checked`` versions
    the checker compares every channel with the legal-moves listing. Returns (the version
    reached, the followers)."""
    seats = [Follower(client, match, seat["seat"]) for seat in match["seats"]]
    checker = Checker(client, match)
    version = 0
    for follower in seats:
        assert follower.read_until(0)["event"] == "legal_moves"
    while True:
        if version < checked:
            for follower in seats:
                listed = checker.listing(follower.seat, version)
                assert follower.moves == listed, (version, follower.seat)
                if version:
                    assert checker.view(follower.seat, version) == listed, (version, follower.seat)
        acting = [follower for follower in seats if follower.moves]
        if not acting or version == until:
            break
        mover = acting[0]
        verdict = mover.post(rnd.choice(mover.moves), version)
        assert verdict["legal"] and verdict["version"] == version + 1, verdict
        version += 1
        for follower in seats:
            last = follower.read_until(version)
            if last["event"] == "end":
                assert last["id"] == str(version)
                follower.moves = []
            elif follower is mover:
                assert last["data"]["moves"] == verdict["legal_moves"]
    for follower in seats:
        follower.close()
    return version, seats


@pytest.mark.parametrize("game_id, seed", [("scratch-and-catch", 0), ("catatac", 1), ("call-of-katulhu", 0)])
def test_a_whole_match_takes_one_request_per_move_per_seat(game_id, seed):
    """Each seat opens its stream once and posts its moves; nobody asks for legal moves. The
    match ends (the game's outcome), every stream's last event is ``end`` and no ``legal_moves``
    follows it."""
    app, store = _app()
    client = app.test_client()
    match = client.post("/v1/matches", json={"game": game_id, "players": 2, "seed": f"one-{seed}"}).get_json()
    final, seats = play(client, match, random.Random(seed))
    assert json.loads(store.get(match["id"]).state)["finished"]
    posts = sum(follower.requests.count("POST moves") for follower in seats)
    assert posts == final
    for follower in seats:
        assert follower.requests[0] == f"GET /v1/matches/{match['id']}/events"
        assert set(follower.requests[1:]) <= {"POST moves"}
        assert follower.events[-1]["event"] == "end"
        assert [event["event"] for event in follower.events].count("end") == 1


@pytest.mark.parametrize("game_id", ["scratch-and-catch", "catatac", "call-of-katulhu"])
def test_every_channel_carries_the_listing_at_its_version(game_id):
    """The first 60 versions of a match (or all, when it ends before), each seat's stream,
    verdicts and long-poll views against GET .../legal-moves."""
    app, store = _app()
    client = app.test_client()
    match = client.post("/v1/matches", json={"game": game_id, "players": 2, "seed": "check"}).get_json()
    reached = play(client, match, random.Random(7), checked=60, until=60)[0]
    assert reached == 60 or json.loads(store.get(match["id"]).state)["finished"]


def _scratch_match(client, seed: str = "second card") -> dict:
    return client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": seed}).get_json()


def test_the_scratch_and_catch_mover_learns_its_second_card_in_its_first_cards_answer():
    """Rulebook: "On your turn, you must play 2 cards, one after the other"; "Your 1st and/or
    2nd card can always be played from your hand or from the draw pile". With 4 cards dealt,
    the answer to the 1st card lists the 3 cards left in hand and the pile; the answer to the
    2nd card lists nothing (the turn passes), and seat 1's stream then lists its 4 cards and
    the pile at version 2."""
    app, _ = _app()
    client = app.test_client()
    match = _scratch_match(client)
    seat0, seat1 = Follower(client, match, 0), Follower(client, match, 1)
    seat0.read_until(0)
    seat1.read_until(0)
    assert seat1.moves == []
    hand = client.get(f"/v1/matches/{match['id']}?seat=0", headers=seat0.auth).get_json()["state"]["players"][0]["hand"]
    assert len(hand) == 4
    assert seat0.moves == [{"type": "play", "player": 0, "source": "hand", "card": card} for card in hand] + \
        [{"type": "play", "player": 0, "source": "pile"}]
    first = seat0.post({"type": "play", "player": 0, "source": "hand", "card": hand[0]}, 0)
    assert first["legal_moves"] == [{"type": "play", "player": 0, "source": "hand", "card": card}
                                    for card in hand[1:]] + [{"type": "play", "player": 0, "source": "pile"}]
    assert seat1.read_until(1)["data"] == {"version": 1, "moves": []}
    second = seat0.post({"type": "play", "player": 0, "source": "hand", "card": hand[1]}, 1)
    assert second["version"] == 2 and second["legal_moves"] == []
    event = seat1.read_until(2)
    other = client.get(f"/v1/matches/{match['id']}?seat=1", headers=seat1.auth).get_json()["state"]
    assert other["turn"]["player"] == 1
    cards = other["players"][1]["hand"]
    assert event["data"] == {"version": 2, "moves": [{"type": "play", "player": 1, "source": "hand", "card": card}
                                                     for card in cards] + [{"type": "play", "player": 1,
                                                                            "source": "pile"}]}
    assert len(event["data"]["moves"]) == 5
    seat0.close()
    seat1.close()


def test_an_illegal_verdict_carries_the_movers_moves_at_the_unchanged_version():
    app, _ = _app()
    client = app.test_client()
    match = _scratch_match(client)
    seat1 = Follower(client, match, 1)
    seat1.close()
    verdict = seat1.post({"type": "play", "player": 1, "source": "pile"}, 0)   # not seat 1's turn
    assert verdict["legal"] is False and verdict["version"] == 0 and verdict["legal_moves"] == []
    seat0 = Follower(client, match, 0)
    seat0.close()
    wrong = seat0.post({"type": "play", "player": 0, "source": "hand", "card": "C1-99"}, 0)
    assert wrong["legal"] is False and wrong["legal_moves"] == Checker(client, match).listing(0, 0)


def test_a_keyed_move_replays_its_first_answer_and_the_include_choice_is_part_of_the_request():
    """A replay answers the first answer byte for byte, with the moves listed at its version
    even once the match moved on; the same key with the other include choice is another
    request (422, KeyReused), as is the same key with another move."""
    app, _ = _app()
    client = app.test_client()
    match = _scratch_match(client)
    auth = {"Authorization": f"Bearer {match['seats'][0]['secret']}"}
    moves = Checker(client, match).listing(0, 0)
    base = f"/v1/matches/{match['id']}/moves"
    first = client.post(base + "?include=legal_moves", json={"move": moves[0]},
                        headers={**auth, "If-Match": '"0"', "Idempotency-Key": "k1"})
    after_first = Checker(client, match).listing(0, 1)
    assert len(after_first) == 4   # 3 cards left in hand and the pile: the turn's second play
    assert first.get_json()["legal_moves"] == after_first
    second = client.post(base, json={"move": after_first[0]},
                         headers={**auth, "If-Match": '"1"', "Idempotency-Key": "k2"})
    assert "legal_moves" not in second.get_json()
    # The match is at version 2: each replay is its first answer as it was.
    again = client.post(base + "?include=legal_moves", json={"move": moves[0]},
                        headers={**auth, "If-Match": '"0"', "Idempotency-Key": "k1"})
    assert again.headers["Idempotent-Replayed"] == "true" and again.data == first.data
    assert client.post(base, json={"move": after_first[0]},
                       headers={**auth, "If-Match": '"1"', "Idempotency-Key": "k2"}).data == second.data
    for query, key, move in (("", "k1", moves[0]), ("?include=legal_moves", "k2", after_first[0])):
        other = client.post(base + query, json={"move": move},
                            headers={**auth, "If-Match": '"0"' if key == "k1" else '"1"', "Idempotency-Key": key})
        assert other.status_code == 422
        assert other.get_json()["errors"][0]["pointer"] == "/headers/Idempotency-Key"
    assert client.get(f"/v1/matches/{match['id']}").get_json()["version"] == 2


def test_a_long_poll_woken_by_a_move_carries_the_moves_at_the_new_version():
    app, _ = _app()
    client = app.test_client()
    match = _scratch_match(client)
    seat1 = {"Authorization": f"Bearer {match['seats'][1]['secret']}"}
    woken: dict = {}

    def poll():
        woken["answer"] = app.test_client().get(f"/v1/matches/{match['id']}?seat=1&include=legal_moves",
                                                headers={**seat1, "If-None-Match": '"1"', "Prefer": "wait=10"})

    mover = Follower(client, match, 0)
    mover.close()
    first = Checker(client, match).listing(0, 0)[0]
    second = mover.post(first, 0)["legal_moves"][0]
    waiting = threading.Thread(target=poll)
    waiting.start()
    wait_for(lambda: app.extensions["referee.waiting"].waiting == 1, what="the long-poll to wait")
    mover.post(second, 1)
    waiting.join(15)
    answer = woken["answer"]
    assert answer.status_code == 200 and answer.headers["Preference-Applied"] == "wait=10"
    body = answer.get_json()
    assert body["version"] == 2 and body["legal_moves"] == Checker(client, match).listing(1, 2)
    assert len(body["legal_moves"]) == 5   # 4 cards in hand and the pile


def test_a_stream_sends_no_legal_moves_for_a_finished_match():
    app, store = _app()
    client = app.test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "end"}).get_json()
    final, _ = play(client, match, random.Random(3))
    auth = {"Authorization": f"Bearer {match['seats'][0]['secret']}"}
    stream = client.get(f"/v1/matches/{match['id']}/events?seat=0&include=legal_moves",
                        headers={**auth, "Last-Event-ID": str(final - 1)})
    events = [event for chunk in stream.response for event in parse(chunk)]
    assert [event["event"] for event in events] == ["move", "end"]
    done = client.get(f"/v1/matches/{match['id']}/events?seat=0&include=legal_moves",
                      headers={**auth, "Last-Event-ID": str(final)})
    assert done.status_code == 204 and done.data == b""
    view = client.get(f"/v1/matches/{match['id']}?seat=0&include=legal_moves", headers=auth).get_json()
    assert view["legal_moves"] == [] and view["outcome"]["finished"]


# -- refusals and unchanged answers ----------------------------------------------------------------

def test_include_is_refused_with_a_pointer_unless_legal_moves_once_for_a_seat():
    app, store = _app()
    client = app.test_client()
    match = _scratch_match(client)
    auth = {"Authorization": f"Bearer {match['seats'][0]['secret']}"}
    base = f"/v1/matches/{match['id']}"
    move = Checker(client, match).listing(0, 0)[0]
    for query in ("include=everything", "include=", "include=legal_moves&include=legal_moves",
                  "include=legal-moves", "include=LEGAL_MOVES"):
        for path in (f"{base}?seat=0&{query}", f"{base}/events?seat=0&{query}"):
            answer = client.get(path, headers=auth)
            assert answer.status_code == 422 and answer.mimetype == "application/problem+json", path
            assert [error["pointer"] for error in answer.get_json()["errors"]] == ["/query/include"], path
        answer = client.post(f"{base}/moves?{query}", json={"move": move}, headers={**auth, "If-Match": '"0"'})
        assert answer.status_code == 422, query
        assert [error["pointer"] for error in answer.get_json()["errors"]] == ["/query/include"], query
    assert store.get(match["id"]).version == 0   # no refused move landed
    for path in (f"{base}?include=legal_moves", f"{base}/events?include=legal_moves"):
        answer = client.get(path)
        problem = answer.get_json()
        assert answer.status_code == 422 and problem["errors"] == [
            {"pointer": "/query/include", "detail": "legal moves are a seat's: add seat=N with its secret"}]
        assert "seat=N" in problem["detail"]
        japanese = client.get(path, headers={"Accept-Language": "ja"}).get_json()
        assert japanese["errors"][0]["detail"] == "合法手は席のものです。seat=N とその席の秘密を加えてください"


def test_without_include_no_answer_carries_legal_moves():
    app, _ = _app()
    client = app.test_client()
    match = _scratch_match(client)
    auth = {"Authorization": f"Bearer {match['seats'][0]['secret']}"}
    base = f"/v1/matches/{match['id']}"
    assert "legal_moves" not in client.get(f"{base}?seat=0", headers=auth).get_json()
    assert "legal_moves" not in client.get(base).get_json()
    move = Checker(client, match).listing(0, 0)[0]
    assert "legal_moves" not in client.post(f"{base}/moves", json={"move": move},
                                            headers={**auth, "If-Match": '"0"'}).get_json()
    stream = client.get(f"{base}/events?seat=0", headers={**auth, "Last-Event-ID": "0"})
    chunks = iter(stream.response)
    assert next(chunks) == b"retry: 1000\nid: 0\n\n"
    assert next(chunks).startswith(b"id: 1\nevent: move\n")
    assert next(chunks) == b": heartbeat\n\n"   # (with include, legal_moves came here)
    stream.close()
    assert "legal_moves" not in client.post("/v1/matches", json={"game": "scratch-and-catch",
                                                                "players": 2}).get_json()


def test_a_table_games_moves_carry_the_listings_table_fills():
    """With table chance a card taken from the face-down pile is null in the listing and
    ``table_fills`` names it; every channel carries the listing as it is, that field too."""
    app, _ = _app()
    client = app.test_client()
    match = client.post("/v1/matches", json={"game": "scratch-and-catch", "players": 2, "seed": "table",
                                             "options": {"chance": "table"}}).get_json()
    seat0 = Follower(client, match, 0)
    pile = {"type": "play", "player": 0, "source": "pile", "card": None, "table_fills": ["card"]}
    assert seat0.read_until(0)["data"]["moves"][-1] == pile
    checker = Checker(client, match)
    verdict = seat0.post(seat0.moves[0], 0)
    assert verdict["legal_moves"][-1] == pile and verdict["legal_moves"] == checker.listing(0, 1)
    assert seat0.read_until(1)["data"]["moves"] == verdict["legal_moves"] == checker.view(0, 1)
    seat0.close()
