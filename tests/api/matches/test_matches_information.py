"""Seven ways a seat once read hidden information from a match, over HTTP on a real Redis
server: each now answers only what the physical game shows that seat."""

from __future__ import annotations

import json

import pytest

from referee.games import GAMES
from referee.games.call_of_katulhu import cards as K
from tests.api.matches.test_matches_api import bearer, create, full_state, move


@pytest.fixture()
def rclient(redis_app):
    return redis_app.test_client()


def _log(client, match_id, seat=None, secret=None):
    query = "" if seat is None else f"?seat={seat}"
    answer = client.get(f"/v1/matches/{match_id}/log{query}", headers=bearer(secret) if secret else {})
    assert answer.status_code == 200
    return answer.get_json()["entries"]


def _seat_moves(client, match_id, seat, secret):
    answer = client.get(f"/v1/matches/{match_id}/legal-moves?seat={seat}", headers=bearer(secret))
    assert answer.status_code == 200
    return answer.get_json()["moves"], answer.headers["ETag"]


def _katulhu(client, **options):
    match = create(client, players=2, game="call-of-katulhu", seed="information", options=options).get_json()
    return match["id"], [s["secret"] for s in match["seats"]]


def test_katulhu_stall_choice_stays_hidden_until_both_chose(rclient):
    """Call of Katulhu, Gameplay (stall): the cat a player chooses to discard is face up on the
    table, but the choice is that player's until both have chosen."""
    match_id, secrets = _katulhu(rclient)
    for _ in range(60):
        if full_state(rclient, match_id)["phase"] == "stall":
            break
        for seat in (0, 1):
            moves, etag = _seat_moves(rclient, match_id, seat, secrets[seat])
            if moves:
                assert move(rclient, match_id, moves[0], secrets[seat], etag).get_json()["legal"]
    assert full_state(rclient, match_id)["phase"] == "stall"
    moves, etag = _seat_moves(rclient, match_id, 1, secrets[1])
    chosen = moves[-1]
    assert move(rclient, match_id, chosen, secrets[1], etag).get_json()["legal"]
    for reader, secret in ((0, secrets[0]), (None, None)):
        last = _log(rclient, match_id, reader, secret)[-1]
        assert last["move"] == {"type": "discard", "player": 1, "cat": None} and last["redacted"]
        assert last["events"] == [{"type": "discard_chosen", "player": 1}]
    assert _log(rclient, match_id, 1, secrets[1])[-1]["move"]["cat"] == chosen["cat"]
    moves, etag = _seat_moves(rclient, match_id, 0, secrets[0])
    assert move(rclient, match_id, moves[0], secrets[0], etag).get_json()["legal"]
    shown = _log(rclient, match_id)[-2]        # both chose: the choices are turned up
    assert shown["move"]["cat"] == chosen["cat"] and not shown["redacted"]


def test_katulhu_placement_with_an_explicit_catalogue_stays_hidden(rclient):
    """Call of Katulhu, Gameplay: toys are placed face down, even when the toy names appear in
    the options (a catalogue given at setup)."""
    match_id, secrets = _katulhu(rclient, catalogue=json.loads(json.dumps(K.DEFAULT_CATALOGUE)))
    moves, etag = _seat_moves(rclient, match_id, 0, secrets[0])
    placement = {"type": "place", "player": 0, "toys": ["box", "catnip", "laser", "mouse"]}
    assert placement in moves
    assert move(rclient, match_id, placement, secrets[0], etag).get_json()["legal"]
    for reader, secret in ((1, secrets[1]), (None, None)):
        assert _log(rclient, match_id, reader, secret)[0]["move"]["toys"] is None
    assert _log(rclient, match_id, 0, secrets[0])[0]["move"]["toys"] == placement["toys"]


def test_katulhu_advanced_rule_set_aside_toys_do_not_show_their_slots(rclient):
    """Optional Advanced Game Rule: the two set-aside toys are known to both players, but where
    they are placed in the next round is not, until the reveal."""
    match_id, secrets = _katulhu(rclient, advanced=True)
    for seat in (0, 1):
        moves, etag = _seat_moves(rclient, match_id, seat, secrets[seat])
        assert move(rclient, match_id, moves[0], secrets[seat], etag).get_json()["legal"]
    state = full_state(rclient, match_id)
    assert state["round"] == 2 and len(state["players"][0]["must_play"]) == 2
    moves, etag = _seat_moves(rclient, match_id, 0, secrets[0])
    assert move(rclient, match_id, moves[-1], secrets[0], etag).get_json()["legal"]
    other = _log(rclient, match_id, 1, secrets[1])[-1]
    assert other["move"]["toys"] is None
    seat1_view = rclient.get(f"/v1/matches/{match_id}?seat=1", headers=bearer(secrets[1])).get_json()
    assert seat1_view["state"]["players"][0]["placed"] and "placement" not in seat1_view["state"]["players"][0]


def _catatac(client, seed="information", **options):
    match = create(client, players=2, game="catatac", seed=seed, options=options).get_json()
    return match["id"], [s["secret"] for s in match["seats"]]


def test_catatac_refill_named_in_a_move_is_refused_whatever_it_names(rclient):
    """3. Refilling Your Hand, seeded chance: the referee draws; a move naming the refill is
    refused the same way whether it names nothing, wrong cards or the right ones."""
    match_id, secrets = _catatac(rclient)
    moves, etag = _seat_moves(rclient, match_id, 0, secrets[0])
    deck = full_state(rclient, match_id)["paw_deck"]
    answers = [move(rclient, match_id, dict(moves[0], draw=draw), secrets[0], etag)
               for draw in ([], deck[:1], deck[1:2], ["P8-4"])]
    bodies = {answer.get_data(as_text=True) for answer in answers}
    assert len(bodies) == 1
    verdict = answers[0].get_json()
    assert [v["code"] for v in verdict["violations"]] == ["SEEDED_CHANCE"]
    assert not any(card in verdict["violations"][0]["message"] for card in deck)


def _mission_match(client):
    """CATATAC with Booster C (Momentum), seed m309: seat 0 holds Mission (6), which makes a pair
    on the Impact (6) turned at setup; the ball is white, seat 0's clan, on the neutral alley."""
    match_id, secrets = _catatac(client, seed="m309", boosters=["momentum"])
    state = full_state(client, match_id)
    assert "mission-6" in state["players"][0]["hand"] and state["discard"] == ["impact-6"]
    assert state["ball"] == {"spot": "neutral_alley", "colour": "white"}
    return match_id, secrets


def test_catatac_coin_named_in_a_move_is_refused_whatever_face(rclient):
    """Icons, Coin Flip, seeded chance: the coin is flipped by the referee when the move lands;
    a move naming a face is refused the same way for either face."""
    match_id, secrets = _mission_match(rclient)
    moves, etag = _seat_moves(rclient, match_id, 0, secrets[0])
    flip = next(m for m in moves if m["card"] == "mission-6" and m["block"] is not None)
    answers = [move(rclient, match_id, dict(flip, coins=[face]), secrets[0], etag) for face in ("white", "black")]
    assert answers[0].get_data() == answers[1].get_data()
    assert [v["code"] for v in answers[0].get_json()["violations"]] == ["SEEDED_CHANCE"]


def test_scratch_pile_card_named_is_refused_whatever_card(rclient):
    """Game Progress, seeded chance: the top card of the pile cannot be found by elimination."""
    match = create(rclient, players=2, seed="information").get_json()
    match_id, secret = match["id"], match["seats"][0]["secret"]
    top = full_state(rclient, match_id)["draw_pile"][0]
    bodies = set()
    for card in ("C1-1", top, "S10-1"):
        answer = move(rclient, match_id, {"type": "play", "player": 0, "source": "pile", "card": card}, secret, '"0"')
        assert [v["code"] for v in answer.get_json()["violations"]] == ["SEEDED_CHANCE"]
        bodies.add(answer.get_data())
    assert len(bodies) == 1
    played = move(rclient, match_id, {"type": "play", "player": 0, "source": "pile"}, secret, '"0"').get_json()
    assert played["legal"] and played["events"][0]["card"] == top


def test_scratch_table_card_named_as_printed_tells_nothing_of_other_hands(rclient):
    """Chance at a table (rules notes, Physical tables): seat 1 takes a Cat 7 from the pile and
    names it C7-1. Whether seat 0 holds C7-1 or C7-2 (hidden from seat 1), the move is legal and
    seat 1 receives the same verdict, byte for byte: a refusal would tell it seat 0 holds a 7. A
    spectator then reads the same match and log in both cases."""
    answers, spectators = [], []
    for held in ("C7-1", "C7-2"):
        deal = {"hands": [[held, "C3-1", "C4-1", "C5-1"], ["C2-1", "C2-2", "C8-1", "C8-2"]],
                "line": ["C1-1", "C6-1", "C9-1", "C10-1"]}
        match = create(rclient, options={"chance": "table", "deal": deal}).get_json()
        match_id, secrets = match["id"], [seat["secret"] for seat in match["seats"]]
        for version, body in enumerate([
                {"type": "play", "player": 0, "source": "hand", "card": "C3-1"},
                {"type": "play", "player": 0, "source": "hand", "card": "C4-1"},
                {"type": "draw", "player": 0, "card": "C10-2"},
                {"type": "draw", "player": 0, "card": "C10-3"}]):
            assert move(rclient, match_id, body, secrets[0], f'"{version}"').get_json()["legal"]
        answer = move(rclient, match_id, {"type": "play", "player": 1, "source": "pile", "card": "C7-1"},
                      secrets[1], '"4"').get_json()
        assert answer["legal"] and answer["events"][0]["card"] == "C7-1"
        answers.append(json.dumps({**answer, "id": None}, sort_keys=True))
        view = rclient.get(f"/v1/matches/{match_id}").get_json()
        entries = [{name: value for name, value in entry.items() if name != "at"} for entry in _log(rclient, match_id)]
        spectators.append(json.dumps([{name: value for name, value in view.items()
                                       if name not in ("id", "created_at", "updated_at", "expires_at")}, entries],
                                     sort_keys=True))
        state = full_state(rclient, match_id)
        # Either way seat 0 holds a 7 other than C7-1 (the copies swapped ids when it held C7-1).
        hand = state["players"][0]["hand"]
        assert "C7-1" not in hand and [card for card in hand if card.startswith("C7-")] != []
    assert answers[0] == answers[1] and spectators[0] == spectators[1]


def test_catatac_mission_lists_the_choices_made_before_the_flip(rclient):
    """Momentum, Mission (coin flip, then movement 1): the pair is chosen before the coin is
    flipped, so the seat's moves list the pairs either face would allow: Steal after the block
    (the ball must then be black, the other clan's) and Movement or Stash after it (white)."""
    match_id, secrets = _mission_match(rclient)
    moves, etag = _seat_moves(rclient, match_id, 0, secrets[0])
    after_block = {(m["pair"]["action"]) for m in moves
                   if m["card"] == "mission-6" and m["order"] == "block_first"}
    assert after_block == {"steal", "movement", "stash"}
    steal = next(m for m in moves if m["card"] == "mission-6" and m["order"] == "block_first"
                 and m["pair"]["action"] == "steal")
    verdict = move(rclient, match_id, steal, secrets[0], etag).get_json()
    assert verdict["legal"]
    flipped = next(e for e in verdict["events"] if e["type"] == "coin_flipped")["colour"]
    kinds = [e["type"] for e in verdict["events"]]
    # The flip decides: black, and the steal takes the ball back; white, and it does nothing.
    assert ("ball_stolen" in kinds) == (flipped == "black")
    assert ("pair_forfeited" in kinds) == (flipped == "white")


def test_stateless_view_is_the_match_view(rclient):
    """POST /v1/games/{game}/view answers what a match shows the same seat."""
    match = create(rclient, players=3, seed="information").get_json()
    state = full_state(rclient, match["id"])
    for seat, headers in ((None, {}), (1, bearer(match["seats"][1]["secret"]))):
        query = "" if seat is None else f"?seat={seat}"
        shown = rclient.get(f"/v1/matches/{match['id']}{query}", headers=headers).get_json()
        viewed = rclient.post("/v1/games/scratch-and-catch/view", json={"state": state, "seat": seat}).get_json()
        assert viewed == {"seat": seat, "state": shown["state"], "scores": shown["scores"], "outcome": shown["outcome"]}
        assert "rng" not in viewed["state"] and viewed["state"]["draw_pile"] == {"size": len(state["draw_pile"])}
    bad = rclient.post("/v1/games/scratch-and-catch/view", json={"state": state, "seat": 3})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["pointer"] == "/seat"
    assert GAMES["scratch-and-catch"].view(state, 2)["players"][2]["hand"] == state["players"][2]["hand"]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_match_without_a_seed_keeps_its_random_seed_to_itself(rclient, game_id):
    """Whoever knows the seed deals the same game through /setup and sees every card
    (docs/guides/matches.md, "The seed is the whole deal"). Without one, each match draws its own,
    and no answer of the match (creation, every view, log, legal moves, a verdict) holds it."""
    game = GAMES[game_id]
    players = game.player_counts[0]
    answers, seeds = [], []
    for _ in range(2):
        created = rclient.post("/v1/matches", json={"game": game_id, "players": players})
        assert created.status_code == 201
        match = created.get_json()
        seeds.append(full_state(rclient, match["id"])["rng"]["seed"])
        answers.append(created.get_data(as_text=True))
    assert seeds[0] != seeds[1] and len(seeds[0]) >= 16
    match_id, secrets = match["id"], [seat["secret"] for seat in match["seats"]]
    state = full_state(rclient, match_id)
    mover = game.legal_moves(state)[0]["player"]
    readers = [(None, {})] + [(seat, bearer(secret)) for seat, secret in enumerate(secrets)]
    listed, etag = _seat_moves(rclient, match_id, mover, secrets[mover])
    verdict = move(rclient, match_id, game.legal_moves(state)[0], secrets[mover], etag)
    assert verdict.status_code == 200 and verdict.get_json()["legal"]
    answers.append(verdict.get_data(as_text=True))
    for seat, headers in readers:
        query = "" if seat is None else f"?seat={seat}"
        answers.append(rclient.get(f"/v1/matches/{match_id}{query}", headers=headers).get_data(as_text=True))
        answers.append(rclient.get(f"/v1/matches/{match_id}/log{query}", headers=headers).get_data(as_text=True))
        if seat is not None:
            answers.append(rclient.get(f"/v1/matches/{match_id}/legal-moves?seat={seat}",
                                       headers=headers).get_data(as_text=True))
    assert listed and all(seed not in text for text in answers for seed in seeds)
