"""Match endpoints through the Flask test client, on the in-process store and on a real
Redis server: creation, views and seat secrets, If-Match (428/412), illegal moves,
idempotency keys, the log and its hidden values, and 422/404 problems."""

from __future__ import annotations

import json

import pytest

from referee.games import GAMES

GAME = "scratch-and-catch"


def create(client, players=2, seed="matches-test", options=None, game=GAME):
    body = {"game": game, "players": players, "seed": seed}
    if options is not None:
        body["options"] = options
    answer = client.post("/v1/matches", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer


def full_state(client, match_id):
    """The stored full state (what no HTTP reader may see)."""
    return json.loads(client.application.extensions["referee.store"].get(match_id).state)


def bearer(secret):
    return {"Authorization": f"Bearer {secret}"}


def move(client, match_id, body, secret, etag, **headers):
    sent = {**bearer(secret), **headers}
    if etag is not None:
        sent["If-Match"] = etag
    return client.post(f"/v1/matches/{match_id}/moves", json={"move": body}, headers=sent)


def first_legal(client, match_id):
    return GAMES[GAME].legal_moves(full_state(client, match_id))[0]


class TestCreate:
    def test_created_with_location_etag_and_one_secret_per_seat(self, mclient):
        answer = create(mclient, players=3)
        match = answer.get_json()
        assert answer.headers["Location"] == f"/v1/matches/{match['id']}"
        assert answer.headers["ETag"] == '"0"'
        assert match["version"] == 0 and match["players"] == 3 and match["seat"] is None
        assert [s["seat"] for s in match["seats"]] == [0, 1, 2]
        assert len({s["secret"] for s in match["seats"]}) == 3
        assert match["outcome"] == {"finished": False, "winners": [], "tiebreak": None}
        # Scratch & Catch scores are public (collected cards and fleas lie in sight): with
        # 3 players each starts with 20 fleas (Setup), worth -4 points (End of the Game).
        assert match["scores"] == {"players": [
            {"player": seat, "cards": 0, "fleas": 20, "flea_points": -4, "total": -4} for seat in range(3)]}

    def test_ids_are_random_and_url_safe(self, mclient):
        ids = {create(mclient).get_json()["id"] for _ in range(5)}
        assert len(ids) == 5
        assert all(len(i) >= 20 and all(c.isalnum() or c in "-_" for c in i) for i in ids)

    def test_same_seed_same_first_state(self, mclient):
        one, two = create(mclient).get_json()["id"], create(mclient).get_json()["id"]
        assert full_state(mclient, one) == full_state(mclient, two)

    def test_secrets_are_stored_only_as_hashes(self, mclient):
        match = create(mclient).get_json()
        snap = mclient.application.extensions["referee.store"].get(match["id"])
        stored = snap.meta + snap.state
        for seat in match["seats"]:
            assert seat["secret"] not in stored

    def test_unknown_game_is_422_at_game(self, mclient):
        answer = mclient.post("/v1/matches", json={"game": "chess", "players": 2})
        assert answer.status_code == 422
        assert answer.content_type == "application/problem+json"
        assert [e["pointer"] for e in answer.get_json()["errors"]] == ["/game"]

    def test_player_count_outside_the_game_is_422_at_players(self, mclient):
        answer = mclient.post("/v1/matches", json={"game": GAME, "players": 9})
        assert answer.status_code == 422
        assert [e["pointer"] for e in answer.get_json()["errors"]] == ["/players"]

    def test_options_are_loaded_with_the_games_schema(self, mclient):
        answer = mclient.post("/v1/matches", json={"game": GAME, "players": 2, "options": {"chance": "dice"}})
        assert answer.status_code == 422
        assert [e["pointer"] for e in answer.get_json()["errors"]] == ["/options/chance"]

    def test_every_registered_game_can_be_created_and_read(self, mclient):
        for game_id, game in GAMES.items():
            match = create(mclient, players=game.player_counts[0], game=game_id).get_json()
            again = mclient.get(f"/v1/matches/{match['id']}")
            assert again.status_code == 200 and again.get_json()["game"] == game_id
            assert "rng" not in again.get_json()["state"]


class TestViews:
    def test_spectator_sees_no_hand_no_deck_order_no_generator(self, mclient):
        match = create(mclient).get_json()
        state = mclient.get(f"/v1/matches/{match['id']}").get_json()["state"]
        assert "rng" not in state
        assert all("hand" not in p and p["hand_size"] == 4 for p in state["players"])
        assert state["draw_pile"] == {"size": len(full_state(mclient, match["id"])["draw_pile"])}
        text = json.dumps(state)
        for p in full_state(mclient, match["id"])["players"]:
            assert all(f'"{card}"' not in text for card in p["hand"])

    def test_a_seat_sees_its_own_hand_only(self, mclient):
        match = create(mclient, players=3).get_json()
        full = full_state(mclient, match["id"])
        answer = mclient.get(f"/v1/matches/{match['id']}?seat=1", headers=bearer(match["seats"][1]["secret"]))
        assert answer.status_code == 200 and answer.headers["ETag"] == '"0"'
        seen = answer.get_json()
        assert seen["seat"] == 1
        assert seen["state"]["players"][1]["hand"] == full["players"][1]["hand"]
        assert "hand" not in seen["state"]["players"][0] and "hand" not in seen["state"]["players"][2]

    def test_seat_view_without_secret_is_401(self, mclient):
        match = create(mclient).get_json()
        answer = mclient.get(f"/v1/matches/{match['id']}?seat=0")
        assert answer.status_code == 401 and answer.content_type == "application/problem+json"
        assert answer.headers["WWW-Authenticate"].startswith("Bearer")

    def test_seat_view_with_another_seats_secret_is_403(self, mclient):
        match = create(mclient).get_json()
        answer = mclient.get(f"/v1/matches/{match['id']}?seat=0", headers=bearer(match["seats"][1]["secret"]))
        assert answer.status_code == 403

    def test_seat_view_with_a_wrong_secret_is_401(self, mclient):
        match = create(mclient).get_json()
        answer = mclient.get(f"/v1/matches/{match['id']}?seat=0", headers=bearer("not-a-secret"))
        assert answer.status_code == 401

    def test_unknown_match_is_404(self, mclient):
        for path in ("/v1/matches/nope", "/v1/matches/nope/log"):
            answer = mclient.get(path)
            assert answer.status_code == 404 and answer.content_type == "application/problem+json"
        assert move(mclient, "nope", {"type": "play", "player": 0, "source": "pile"}, "x", '"0"').status_code == 404


class TestMoves:
    def test_legal_move_advances_one_version(self, mclient):
        match = create(mclient).get_json()
        legal = first_legal(mclient, match["id"])
        answer = move(mclient, match["id"], legal, match["seats"][0]["secret"], '"0"')
        verdict = answer.get_json()
        assert answer.status_code == 200 and answer.headers["ETag"] == '"1"'
        assert verdict["legal"] is True and verdict["version"] == 1
        assert verdict["state"]["players"][0]["hand"] == full_state(mclient, match["id"])["players"][0]["hand"]
        assert "rng" not in verdict["state"] and "hand" not in verdict["state"]["players"][1]
        assert mclient.get(f"/v1/matches/{match['id']}").headers["ETag"] == '"1"'

    def test_move_without_if_match_is_428(self, mclient):
        match = create(mclient).get_json()
        answer = move(mclient, match["id"], first_legal(mclient, match["id"]), match["seats"][0]["secret"], None)
        assert answer.status_code == 428 and answer.content_type == "application/problem+json"

    def test_if_match_star_is_428(self, mclient):
        match = create(mclient).get_json()
        answer = move(mclient, match["id"], first_legal(mclient, match["id"]), match["seats"][0]["secret"], "*")
        assert answer.status_code == 428

    def test_stale_if_match_is_412_with_the_current_etag(self, mclient):
        match = create(mclient).get_json()
        secret = match["seats"][0]["secret"]
        assert move(mclient, match["id"], first_legal(mclient, match["id"]), secret, '"0"').status_code == 200
        answer = move(mclient, match["id"], first_legal(mclient, match["id"]), secret, '"0"')
        assert answer.status_code == 412 and answer.headers["ETag"] == '"1"'
        assert answer.content_type == "application/problem+json"
        weak = move(mclient, match["id"], first_legal(mclient, match["id"]), secret, 'W/"1"')
        assert weak.status_code == 412

    def test_move_without_secret_401_wrong_secret_401_other_seat_403(self, mclient):
        match = create(mclient).get_json()
        legal = first_legal(mclient, match["id"])
        url = f"/v1/matches/{match['id']}/moves"
        assert mclient.post(url, json={"move": legal}, headers={"If-Match": '"0"'}).status_code == 401
        assert move(mclient, match["id"], legal, "wrong", '"0"').status_code == 401
        assert mclient.post(url, json={"move": legal}, headers={"If-Match": '"0"', "Authorization": "Basic x"}
                            ).status_code == 401
        assert move(mclient, match["id"], legal, match["seats"][1]["secret"], '"0"').status_code == 403
        assert mclient.get(f"/v1/matches/{match['id']}").get_json()["version"] == 0

    def test_illegal_move_is_200_and_changes_nothing(self, mclient):
        """Rulebook, Game Progress: only the player whose turn it is plays (NOT_YOUR_TURN)."""
        match = create(mclient).get_json()
        hand = full_state(mclient, match["id"])["players"][1]["hand"]
        answer = move(mclient, match["id"], {"type": "play", "player": 1, "source": "hand", "card": hand[0]},
                      match["seats"][1]["secret"], '"0"')
        verdict = answer.get_json()
        assert answer.status_code == 200 and answer.headers["ETag"] == '"0"'
        assert verdict["legal"] is False and verdict["state"] is None and verdict["version"] == 0
        assert verdict["violations"][0]["code"] == "NOT_YOUR_TURN"
        assert mclient.get(f"/v1/matches/{match['id']}/log").get_json()["entries"] == []
        assert mclient.get(f"/v1/matches/{match['id']}").get_json()["version"] == 0

    def test_move_body_is_checked_by_the_games_move_schema(self, mclient):
        match = create(mclient).get_json()
        answer = move(mclient, match["id"], {"type": "jump", "player": 0}, match["seats"][0]["secret"], '"0"')
        assert answer.status_code == 422
        assert "/move/type" in [e["pointer"] for e in answer.get_json()["errors"]]
        missing = mclient.post(f"/v1/matches/{match['id']}/moves", json={}, headers={"If-Match": '"0"'})
        assert missing.status_code == 422

    def test_violations_follow_accept_language(self, mclient):
        match = create(mclient).get_json()
        hand = full_state(mclient, match["id"])["players"][1]["hand"]
        answer = move(mclient, match["id"], {"type": "play", "player": 1, "source": "hand", "card": hand[0]},
                      match["seats"][1]["secret"], '"0"', **{"Accept-Language": "ja"})
        assert answer.get_json()["violations"][0]["code"] == "NOT_YOUR_TURN"


class TestIdempotency:
    def test_retry_with_the_same_key_gets_the_stored_answer(self, mclient):
        match = create(mclient).get_json()
        legal = first_legal(mclient, match["id"])
        secret = match["seats"][0]["secret"]
        first = move(mclient, match["id"], legal, secret, '"0"', **{"Idempotency-Key": "k-1"})
        again = move(mclient, match["id"], legal, secret, '"0"', **{"Idempotency-Key": "k-1"})
        assert first.status_code == again.status_code == 200
        assert first.get_json() == again.get_json()
        assert again.headers["Idempotent-Replayed"] == "true" and again.headers["ETag"] == '"1"'
        log = mclient.get(f"/v1/matches/{match['id']}/log").get_json()
        assert [e["version"] for e in log["entries"]] == [1]

    def test_same_key_with_another_body_is_422(self, mclient):
        match = create(mclient).get_json()
        legal = GAMES[GAME].legal_moves(full_state(mclient, match["id"]))
        secret = match["seats"][0]["secret"]
        assert move(mclient, match["id"], legal[0], secret, '"0"', **{"Idempotency-Key": "k-2"}).status_code == 200
        answer = move(mclient, match["id"], legal[1], secret, '"1"', **{"Idempotency-Key": "k-2"})
        assert answer.status_code == 422
        assert answer.get_json()["errors"][0]["pointer"] == "/headers/Idempotency-Key"

    def test_key_of_an_illegal_move_replays_its_verdict(self, mclient):
        match = create(mclient).get_json()
        hand = full_state(mclient, match["id"])["players"][1]["hand"]
        body = {"type": "play", "player": 1, "source": "hand", "card": hand[0]}
        secret = match["seats"][1]["secret"]
        first = move(mclient, match["id"], body, secret, '"0"', **{"Idempotency-Key": "k-3"})
        again = move(mclient, match["id"], body, secret, '"0"', **{"Idempotency-Key": "k-3"})
        assert first.get_json() == again.get_json() and again.get_json()["legal"] is False

    def test_a_replay_is_in_the_stored_answers_language_and_says_so(self, mclient):
        """A retry with another Accept-Language gets the stored body, whose messages are in the
        first request's language: Content-Language names that one (and Vary names the header)."""
        match = create(mclient).get_json()
        hand = full_state(mclient, match["id"])["players"][1]["hand"]
        body = {"type": "play", "player": 1, "source": "hand", "card": hand[0]}  # seat 0 is to play
        secret = match["seats"][1]["secret"]
        first = move(mclient, match["id"], body, secret, '"0"', **{"Idempotency-Key": "k-5", "Accept-Language": "ja"})
        again = move(mclient, match["id"], body, secret, '"0"', **{"Idempotency-Key": "k-5", "Accept-Language": "en"})
        assert again.headers["Idempotent-Replayed"] == "true" and again.get_json() == first.get_json()
        assert first.headers["Content-Language"] == again.headers["Content-Language"] == "ja"
        assert "Accept-Language" in again.headers.get("Vary", "")
        legal = first_legal(mclient, match["id"])
        seat_secret = match["seats"][legal["player"]]["secret"]
        done = move(mclient, match["id"], legal, seat_secret, '"0"',
                    **{"Idempotency-Key": "k-6", "Accept-Language": "ja"})
        stale = move(mclient, match["id"], legal, seat_secret, '"0"', **{"Idempotency-Key": "k-6"})
        assert done.status_code == stale.status_code == 200 and stale.headers["Idempotent-Replayed"] == "true"
        assert stale.headers["Content-Language"] == "ja"

    def test_a_key_is_the_seats_own(self, mclient):
        """The key's identity is (match, seat, key): seat 1 using ``move-7`` first, on a move out
        of turn, leaves seat 0's legal move with ``move-7`` to be judged and committed. Each
        seat's retry then gets its own stored answer, and each seat's other body is 422."""
        match = create(mclient).get_json()
        state = full_state(mclient, match["id"])
        assert state["turn"]["player"] == 0   # Scratch & Catch: the first player starts (seat 0 here)
        out_of_turn = {"type": "play", "player": 1, "source": "hand", "card": state["players"][1]["hand"][0]}
        legal = first_legal(mclient, match["id"])
        assert legal["player"] == 0
        s0, s1 = match["seats"][0]["secret"], match["seats"][1]["secret"]
        key = {"Idempotency-Key": "move-7"}
        refused = move(mclient, match["id"], out_of_turn, s1, '"0"', **key)
        assert refused.status_code == 200 and refused.get_json()["legal"] is False
        assert [v["code"] for v in refused.get_json()["violations"]] == ["NOT_YOUR_TURN"]
        done = move(mclient, match["id"], legal, s0, '"0"', **key)
        assert done.status_code == 200, done.get_json()
        assert done.get_json()["legal"] is True and done.headers["ETag"] == '"1"'
        assert "Idempotent-Replayed" not in done.headers
        assert [e["player"] for e in mclient.get(f"/v1/matches/{match['id']}/log").get_json()["entries"]] == [0]
        for body, secret, first in ((out_of_turn, s1, refused), (legal, s0, done)):
            again = move(mclient, match["id"], body, secret, '"0"', **key)
            assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
            assert again.get_json() == first.get_json() and again.headers["ETag"] == first.headers["ETag"]
        other_card = {**out_of_turn, "card": state["players"][1]["hand"][1]}
        for body, secret in ((other_card, s1), (GAMES[GAME].legal_moves(state)[1], s0)):
            reused = move(mclient, match["id"], body, secret, '"1"', **key)
            assert reused.status_code == 422
            assert reused.get_json()["errors"][0]["pointer"] == "/headers/Idempotency-Key"

    def test_no_seat_is_answered_with_another_seats_stored_answer(self, mclient):
        """Seat 0's answer under ``k`` shows seat 0's hand. Seat 1 sending ``k`` gets a judgement
        of its own move, as it would had seat 0 never used the key: on a version If-Match does
        not name, 412 (not seat 0's answer, not 422); on the current one, its own verdict, whose
        state is seat 1's view of the match."""
        match = create(mclient).get_json()
        s0, s1 = match["seats"][0]["secret"], match["seats"][1]["secret"]
        key = {"Idempotency-Key": "k"}
        first = move(mclient, match["id"], first_legal(mclient, match["id"]), s0, '"0"', **key)
        assert first.status_code == 200 and first.get_json()["legal"] is True
        version = 1
        while (seat1 := first_legal(mclient, match["id"]))["player"] == 0:   # the rest of seat 0's turn
            assert move(mclient, match["id"], seat1, s0, f'"{version}"').get_json()["legal"] is True
            version += 1
        stale = move(mclient, match["id"], seat1, s1, '"0"', **key)
        assert stale.status_code == 412 and stale.headers["ETag"] == f'"{version}"'
        assert "Idempotent-Replayed" not in stale.headers
        own = move(mclient, match["id"], seat1, s1, f'"{version}"', **key)
        assert own.status_code == 200 and "Idempotent-Replayed" not in own.headers
        assert own.headers["ETag"] == f'"{version + 1}"' and own.get_json()["legal"] is True
        view = mclient.get(f"/v1/matches/{match['id']}?seat=1", headers=bearer(s1)).get_json()
        assert view["version"] == version + 1 and own.get_json()["state"] == view["state"]
        hand0 = full_state(mclient, match["id"])["players"][0]["hand"]
        assert hand0 and not set(hand0) & set(json.dumps(own.get_json()).split('"'))
        again = move(mclient, match["id"], seat1, s1, f'"{version}"', **key)
        assert again.headers["Idempotent-Replayed"] == "true" and again.get_json() == own.get_json()

    def test_keys_are_per_match(self, mclient):
        one, two = create(mclient).get_json(), create(mclient).get_json()
        for match in (one, two):
            answer = move(mclient, match["id"], first_legal(mclient, match["id"]), match["seats"][0]["secret"],
                          '"0"', **{"Idempotency-Key": "shared"})
            assert answer.status_code == 200 and "Idempotent-Replayed" not in answer.headers

    def test_bad_key_is_422(self, mclient):
        match = create(mclient).get_json()
        answer = move(mclient, match["id"], first_legal(mclient, match["id"]), match["seats"][0]["secret"], '"0"',
                      **{"Idempotency-Key": "x" * 300})
        assert answer.status_code == 422


class TestLog:
    def test_log_lists_legal_moves_in_order(self, mclient):
        match = create(mclient).get_json()
        played = []
        for version in range(4):
            legal = first_legal(mclient, match["id"])
            played.append(legal)
            secret = match["seats"][legal["player"]]["secret"]
            assert move(mclient, match["id"], legal, secret, f'"{version}"').status_code == 200
        log = mclient.get(f"/v1/matches/{match['id']}/log")
        assert log.headers["ETag"] == '"4"'
        entries = log.get_json()["entries"]
        assert [e["version"] for e in entries] == [1, 2, 3, 4]
        assert [e["move"] for e in entries] == played
        assert all(e["events"] and not e["redacted"] for e in entries)

    def test_cards_drawn_at_a_table_are_hidden_from_others(self, mclient):
        """Table chance: a draw names the card drawn; only the drawer may read it in the log."""
        match = create(mclient, options={"chance": "table"}).get_json()
        game = GAMES[GAME]
        version = 0
        while True:
            full = full_state(mclient, match["id"])
            legal = game.legal_moves(full)[0]
            answer = move(mclient, match["id"], legal, match["seats"][legal["player"]]["secret"], f'"{version}"')
            assert answer.get_json()["legal"], answer.get_json()
            version += 1
            if legal["type"] == "draw":
                break
        drawn, drawer = legal["card"], legal["player"]
        mine = mclient.get(f"/v1/matches/{match['id']}/log?seat={drawer}",
                           headers=bearer(match["seats"][drawer]["secret"])).get_json()["entries"][-1]
        assert mine["move"]["card"] == drawn and mine["redacted"] is False
        other = 1 - drawer
        theirs = mclient.get(f"/v1/matches/{match['id']}/log?seat={other}",
                             headers=bearer(match["seats"][other]["secret"])).get_json()["entries"][-1]
        spectator = mclient.get(f"/v1/matches/{match['id']}/log").get_json()["entries"][-1]
        for entry in (theirs, spectator):
            assert entry["redacted"] is True and entry["move"]["card"] is None
            assert drawn not in json.dumps(entry)
            assert entry["move"]["type"] == "draw" and entry["move"]["player"] == drawer

    def test_log_of_a_seat_needs_its_secret(self, mclient):
        match = create(mclient).get_json()
        assert mclient.get(f"/v1/matches/{match['id']}/log?seat=0").status_code == 401
        assert mclient.get(f"/v1/matches/{match['id']}/log?seat=0",
                           headers=bearer(match["seats"][1]["secret"])).status_code == 403


def test_a_whole_game_to_the_end(mclient):
    """Drive a match to the end with legal moves; the final answer has scores and winners."""
    match = create(mclient, seed="whole").get_json()
    game = GAMES[GAME]
    version = 0
    while True:
        full = full_state(mclient, match["id"])
        legal = game.legal_moves(full)
        if not legal:
            break
        answer = move(mclient, match["id"], legal[0], match["seats"][legal[0]["player"]]["secret"], f'"{version}"')
        assert answer.status_code == 200 and answer.get_json()["legal"]
        version += 1
    final = mclient.get(f"/v1/matches/{match['id']}").get_json()
    assert final["outcome"]["finished"] is True and final["scores"] is not None
    assert final["version"] == version
    assert len(mclient.get(f"/v1/matches/{match['id']}/log").get_json()["entries"]) == version


def test_face_down_placements_stay_hidden_from_the_other_seat():
    """Call of Katulhu, Gameplay: toys are placed face down; toy names repeat across decks,
    so the other seat (who holds the same toy names) must not read a placement in the log."""
    from referee.app import create_app
    from referee.store.memory import MemoryStore

    if "call-of-katulhu" not in GAMES:
        pytest.skip("Call of Katulhu is not registered")
    game = GAMES["call-of-katulhu"]
    client = create_app({"TESTING": True, "REFEREE_STORE": MemoryStore()}).test_client()
    match = client.post("/v1/matches", json={"game": "call-of-katulhu", "players": 2, "seed": "k"}).get_json()
    state = full_state(client, match["id"])
    placement = game.legal_moves(state)[0]
    mover = placement["player"]
    answer = move(client, match["id"], placement, match["seats"][mover]["secret"], '"0"')
    assert answer.status_code == 200 and answer.get_json()["legal"]
    other = 1 - mover
    theirs = client.get(f"/v1/matches/{match['id']}/log?seat={other}",
                        headers=bearer(match["seats"][other]["secret"])).get_json()["entries"][0]
    spectator = client.get(f"/v1/matches/{match['id']}/log").get_json()["entries"][0]
    mine = client.get(f"/v1/matches/{match['id']}/log?seat={mover}",
                      headers=bearer(match["seats"][mover]["secret"])).get_json()["entries"][0]
    assert theirs == spectator and theirs["redacted"] is True
    assert mine["move"] == placement and mine["redacted"] is False
    for key in set(placement) - {"type", "player"}:
        assert '"' not in json.dumps(theirs["move"][key]), (key, theirs["move"][key])
