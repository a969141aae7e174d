"""Setup, Turn Summary, 3. Refilling Your Hand, End of the Game, Crowning the Winning Clan,
the Kittens and Marathon variants, chance modes, views and state consistency."""

import pytest

from referee.engine.core import InvalidOptions, InvalidState
from referee.engine.rng import Rng
from referee.games.catatac import GAME
from referee.games.catatac import cards as C
from tests.games.catatac.catatac_helpers import bad, build, decline, ok, play

# -- Setup ------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 4, 6])
def test_setup_deals_six_turns_one_shuffles_points_flips_the_coin(n):
    """Setup: 6 cards each, one card turned to start the discard pile, the 8 points cards
    shuffled, a coin flip for possession, the ball on the neutral alley; clans alternate."""
    state = GAME.setup(n, "seed-x", {"first_player": n - 1})
    rng = Rng("seed-x")
    ids = rng.shuffle(list(C.ALL_PAW_CARDS))
    points = rng.shuffle(list(C.POINTS_IDS))
    coin = C.COIN_FACES[rng.coin()]
    for seat in range(n):
        assert state["players"][seat]["hand"] == ids[seat:6 * n:n]
        assert state["players"][seat]["clan"] == ("white" if seat % 2 == 0 else "black")
    assert state["discard"] == [ids[6 * n]]
    assert state["paw_deck"] == ids[6 * n + 1:] and len(state["paw_deck"]) == 58 - 6 * n - 1
    assert state["points_deck"] == points
    assert state["ball"] == {"spot": "neutral_alley", "colour": coin}
    assert state["turn"] == {"player": n - 1, "phase": "play"}
    assert state["options"] == {"chance": "seeded", "seat0_clan": "white", "first_player": n - 1,
                                "deck_hockey": False, "kittens": False, "marathon": False}
    assert state["rng"] == rng.to_state()
    GAME.check_state(state)


def test_setup_seat0_clan_black():
    """Setup, Form the Clans: seat 0's clan is an option; the clans alternate."""
    state = GAME.setup(4, "s", {"seat0_clan": "black"})
    assert [p["clan"] for p in state["players"]] == ["black", "white", "black", "white"]


@pytest.mark.parametrize("players,options,pointer", [
    (3, {}, "/players"), (8, {}, "/players"), (2, {"first_player": 2}, "/options/first_player"),
    (2, {"chance": "dice"}, "/options/chance"), (2, {"kittens": 1}, "/options/kittens"),
    (2, {"colour": "red"}, "/options/colour"),
    (2, {"deal": {"hands": [], "discard": "P1-1", "coin": "white"}}, "/options/deal"),
])
def test_setup_rejects_bad_options(players, options, pointer):
    """Setup: 2, 4 or 6 players in two alternating clans; options are checked."""
    with pytest.raises(InvalidOptions) as err:
        GAME.setup(players, "s", options)
    assert pointer in [p for p, _ in err.value.errors]


def test_setup_at_a_table_takes_the_deal_seen():
    """Setup, table chance: the hands, the turned card and the coin come from the table."""
    hands = [list(C.ALL_PAW_CARDS[0:6]), list(C.ALL_PAW_CARDS[6:12])]
    state = GAME.setup(2, "s", {"chance": "table", "deal": {"hands": hands, "discard": "joker-1", "coin": "black"}})
    assert [p["hand"] for p in state["players"]] == hands and state["discard"] == ["joker-1"]
    assert state["ball"] == {"spot": "neutral_alley", "colour": "black"}
    assert state["paw_deck"] == sorted(state["paw_deck"]) and len(state["paw_deck"]) == 45
    with pytest.raises(InvalidOptions):
        GAME.setup(2, "s", {"chance": "table",
                            "deal": {"hands": [hands[0], hands[0]], "discard": "joker-1", "coin": "black"}})


def test_kittens_uses_only_cards_numbered_1_to_5():
    """Variants, Kittens: paw cards numbered 1 to 5 only (named ones included); no Joker (a Joker
    shows a J, not a number). More in test_catatac_kittens.py."""
    cards = C.paw_cards(True)
    assert len(cards) == 35
    assert all(not C.KINDS[c].joker and C.KINDS[c].number <= 5 for c in cards)
    assert "miracle-6" not in cards and "joker-1" not in cards and "stop-5" in cards
    assert len(GAME.catalogue({"kittens": True})["paw_cards"]) == 35


# -- Turn Summary and refilling -----------------------------------------------------------------

def test_refill_to_six_at_the_end_of_the_turn():
    """3. Refilling Your Hand: draw up to 6 cards at the end of your turn (the top of the deck)."""
    hand = ["P1-1", "P1-2", "P1-3", "P1-4", "P2-1", "P2-2"]
    s = build([hand, ["P3-1"]], ["P8-4"], deck=["joker-2"])
    after = ok(s, play(0, "P1-1"))
    assert after["players"][0]["hand"] == hand[1:] + ["joker-2"]
    assert after["turn"] == {"player": 1, "phase": "play"}
    # Seeded chance belongs to the referee: naming the refill is refused whatever it names,
    # the right card included, so a refused move never tells the order of the paw deck.
    assert bad(s, play(0, "P1-1", draw=["joker-2"])) == ["SEEDED_CHANCE"]
    assert bad(s, play(0, "P1-1", draw=["joker-1"])) == ["SEEDED_CHANCE"]
    assert bad(s, play(0, "P1-1", draw=[])) == ["SEEDED_CHANCE"]


def test_a_table_draw_in_place_of_a_held_copy_tells_nothing_of_the_deck():
    """Chance at a table (rules notes): seat 0 draws a 3 naming P3-1, which seat 1 holds, so it
    receives another copy the deck holds (P3-2, P3-3, P3-4; the deck is kept sorted). Were it
    the deck's first copy, P3-3 would tell seat 0 that P3-2 lies out of the deck, in a hand it
    never saw. The copy is the generator's, any of the deck's 3s: over 40 seeds seat 0 receives
    each of them, and no other hand changes."""
    received = set()
    for seed in range(40):
        s = build([["P1-1", "P1-2"], ["P3-1"]], ["P8-4"], chance="table", seed=f"drawn-{seed}")
        after = ok(ok(s, play(0, "P1-1")), {"type": "draw", "player": 0, "card": "P3-1"})
        assert after["players"][1]["hand"] == ["P3-1"]
        received.add(after["players"][0]["hand"][1])
    assert received == {"P3-2", "P3-3", "P3-4"}


def test_refill_at_a_table_is_drawn_card_by_card():
    """3. Refilling Your Hand, table chance: each card drawn is a move naming it."""
    s = build([["P1-1", "P1-2"], ["P3-1"]], ["P8-4"], chance="table")
    after = ok(s, play(0, "P1-1"))
    assert after["turn"] == {"player": 0, "phase": "refill"}
    assert bad(after, play(0, "P1-2")) == ["REFILL_PENDING"]
    assert bad(after, {"type": "draw", "player": 1, "card": "P1-3"}) == ["NOT_YOUR_TURN"]
    # Copies of a kind are the same printed card: naming P1-1, face up in the discard pile, draws
    # a P1 that the deck holds (rules notes, Physical tables).
    after = ok(after, {"type": "draw", "player": 0, "card": "P1-1"})
    assert after["players"][0]["hand"][0] == "P1-2" and after["players"][0]["hand"][1] in ("P1-3", "P1-4")
    after = ok(after, {"type": "draw", "player": 0, "card": "P1-4"})
    assert sorted(after["players"][0]["hand"]) == ["P1-2", "P1-3", "P1-4"]
    # The 4 P1s are out of the deck now: the discard pile holds P1-1 and the hand the other 3.
    assert bad(after, {"type": "draw", "player": 0, "card": "P1-1"}) == ["CARD_NOT_IN_DECK"]
    for card in ["charge-1", "sprint-1", "stop-1"]:
        after = ok(after, {"type": "draw", "player": 0, "card": card})
    assert len(after["players"][0]["hand"]) == 6 and after["turn"] == {"player": 1, "phase": "play"}
    assert bad(s, play(0, "P1-1", draw=["P1-3"])) == ["DRAW_SEPARATE"]
    assert bad(build([["P1-1"], ["P3-1"]], ["P8-4"]),
               {"type": "draw", "player": 0, "card": "P1-3"}) == ["NO_REFILL_PENDING"]


def test_turn_order_clockwise_and_not_your_turn():
    """Turn Summary / Setup: play proceeds clockwise; only the player due plays (or a teammate
    with a cooperation card)."""
    s = build([["P1-1"], ["P2-1"], ["P3-1"], ["P4-1"]], ["P8-4"])
    assert bad(s, play(1, "P2-1")) == ["NOT_YOUR_TURN"]
    assert bad(s, play(2, "P3-1")) == ["NOT_A_COOPERATION_CARD"]
    assert ok(s, play(0, "P1-1"))["turn"] == {"player": 1, "phase": "play"}


def test_card_must_be_in_hand_and_every_choice_stated():
    """1. Play a Paw Card: a card from your hand; the move states pair, block and order."""
    s = build([["P1-1"], ["P2-1"]], ["P8-4"])
    assert bad(s, play(0, "P2-1")) == ["CARD_NOT_IN_HAND"]
    assert bad(s, {"type": "play", "player": 0, "card": "P1-1", "pair": None, "block": None}) == ["CHOICE_MISSING"]


def test_player_with_no_cards_is_passed_over():
    """End of the Game: a player with no cards left is passed over; two players of one clan may play in a row."""
    s = build([["P1-1"], [], ["P3-1"], ["P4-1"]], ["P8-4"], spare="discard")
    assert ok(s, play(0, "P1-1"))["turn"] == {"player": 2, "phase": "play"}


def test_game_ends_when_every_paw_card_is_drawn_and_played():
    """End of the Game: all paw cards drawn and played ends the game."""
    s = build([["P1-1"], []], ["P8-4"], spare="discard", points={"white": ["blue"], "black": ["green"]})
    after = ok(s, play(0, "P1-1"))
    assert after["finished"]
    scores, outcome = GAME.score(after)
    assert scores["clans"]["white"]["points"] == 1 and scores["clans"]["black"]["points"] == 0
    assert outcome.winners == (0,) and outcome.tiebreak is None


def test_seeded_coin_is_flipped_by_the_referee_and_never_named():
    """Icons, Coin Flip, seeded chance: the generator flips the coin; a move naming a face is
    refused the same way whichever face it names (the player cannot know the flip before it)."""
    s = build([["P1-1"], ["stop-1", "P2-1"]], ["P8-4"], ("white_hideout", "white"), turn=1, phase="answer",
              stash={"clan": "white", "by": 0, "next": 1, "answer": [1]})
    face = C.COIN_FACES[Rng("test", 0).coin()]
    other = C.COIN_FACES[1 - C.COIN_FACES.index(face)]
    assert bad(s, play(1, "stop-1", None, ((), ()), coins=[other])) == ["SEEDED_CHANCE"]
    assert bad(s, play(1, "stop-1", None, ((), ()), coins=[face])) == ["SEEDED_CHANCE"]
    assert bad(s, play(1, "stop-1", None, ((), ()), coins=[face, face])) == ["SEEDED_CHANCE"]
    assert ok(s, play(1, "stop-1", None, ((), ())))["ball"]["colour"] == face


# -- Crowning the Winning Clan ------------------------------------------------------------------

def test_two_valued_cards_give_the_clan_colour_value():
    """Crowning the Winning Clan: a two-valued card gives the points of your clan's colour."""
    state = build([["P1-1"], []], ["P8-4"], spare="discard", finished=True, phase="over",
                  points={"white": ["black-ball", "white-ball"],
                          "black": ["green", "blue", "yellow", "red", "grey", "multicolour"]},
                  points_deck=[])
    scores, outcome = GAME.score(state)
    assert scores["clans"]["white"] == {"seats": [0], "points_cards": 2, "points": 3, "sardines": 0}
    assert scores["clans"]["black"] == {"seats": [1], "points_cards": 6, "points": 6, "sardines": 4}
    assert outcome.winners == (1,)


def test_tie_goes_to_more_sardines():
    """Crowning the Winning Clan: in case of a tie, the clan with the most sardines wins."""
    state = build([["P1-1"], []], ["P8-4"], spare="discard", finished=True, phase="over",
                  points={"white": ["blue", "multicolour", "black-ball"],
                          "black": ["grey", "white-ball", "green", "yellow", "red"]},
                  points_deck=[])
    # White 1 + 2 + 1 = 4, 1 sardine; Black 1 + 1 + 0 + 1 + 1 = 4, 3 sardines
    _, outcome = GAME.score(state)
    assert outcome.winners == (1,) and outcome.tiebreak == "sardines"


def test_tie_that_persists_stays_a_tie():
    """Crowning the Winning Clan: if the tie persists, the game is tied (no winners)."""
    state = build([["P1-1"], []], ["P8-4"], spare="discard", finished=True, phase="over",
                  points={"white": ["blue", "yellow", "white-ball", "grey"],
                          "black": ["red", "green", "black-ball", "multicolour"]},
                  points_deck=[])
    # White 1 + 1 + 2 + 1 = 5, 2 sardines; Black 1 + 0 + 2 + 2 = 5, 2 sardines
    scores, outcome = GAME.score(state)
    assert (scores["clans"]["white"]["points"], scores["clans"]["white"]["sardines"]) == (5, 2)
    assert (scores["clans"]["black"]["points"], scores["clans"]["black"]["sardines"]) == (5, 2)
    assert outcome.finished and outcome.winners == () and outcome.tiebreak == "tie"


def test_points_stay_face_down_until_the_end():
    """Stash Attempt: points cards are taken unseen; scores show only counts during the game."""
    s = build([["P1-1"], ["P2-1"]], ["P8-4"], points={"white": ["red"], "black": []})
    scores, outcome = GAME.score(s)
    assert scores["clans"]["white"] == {"seats": [0], "points_cards": 1, "points": None, "sardines": None}
    assert not outcome.finished
    view = GAME.view(s, 0)
    assert view["points"] == {"white": {"count": 1}, "black": {"count": 0}}
    assert view["players"][1] == {"clan": "black", "hand_size": 1} and view["players"][0]["hand"] == ["P1-1"]
    assert "rng" not in view and view["paw_deck"] == {"size": len(s["paw_deck"])}
    assert "hand" not in GAME.view(s, None)["players"][0]


# -- Marathon -------------------------------------------------------------------------------------

def test_marathon_deals_the_next_game_and_adds_points():
    """Variants, Marathon: when a game ends the referee deals the next one; points are added."""
    s = build([["P1-1"], ["P2-1"]], ["P8-4"], ("white_hideout", "white"), turn=1, phase="answer",
              stash={"clan": "white", "by": 0, "next": 1, "answer": [1]}, marathon=True,
              points_deck=["grey"], points={"white": ["white-ball"],
                                            "black": ["green", "blue", "yellow", "red", "multicolour", "black-ball"]})
    after = ok(s, decline(1))
    # game 1: White 2 + 1 (grey) = 3, 0 sardines; Black 0 + 1 + 1 + 1 + 2 + 2 = 7, 4 sardines
    assert not after["finished"]
    assert after["marathon"] == {"game": 2, "completed": [{"white": {"points": 3, "sardines": 0},
                                                           "black": {"points": 7, "sardines": 4}}]}
    assert len(after["points_deck"]) == 8 and after["points"] == {"white": [], "black": []}
    assert all(len(p["hand"]) == 6 for p in after["players"]) and after["ball"]["spot"] == "neutral_alley"
    assert after["turn"] == {"player": 0, "phase": "play"} and after["stash"] is None
    scores, outcome = GAME.score(after)
    assert scores["marathon"]["totals"] == {"white": {"points": 3, "sardines": 0},
                                            "black": {"points": 7, "sardines": 4}}
    assert not outcome.finished


def test_marathon_third_game_ends_the_match_on_totals():
    """Variants, Marathon: after three complete games the clan with the most points in total wins."""
    done = [{"white": {"points": 6, "sardines": 2}, "black": {"points": 3, "sardines": 2}},
            {"white": {"points": 2, "sardines": 1}, "black": {"points": 7, "sardines": 3}}]
    s = build([["P1-1"], []], ["P8-4"], spare="discard", marathon={"game": 3, "completed": done},
              points={"white": ["multicolour", "white-ball"], "black": ["green", "blue"]})
    after = ok(s, play(0, "P1-1"))
    assert after["finished"]
    scores, outcome = GAME.score(after)
    # game 3: White 2 + 2 = 4 (0 sardines), Black 0 + 1 = 1 (2 sardines)
    assert scores["marathon"]["games"][2] == {"white": {"points": 4, "sardines": 0},
                                              "black": {"points": 1, "sardines": 2}}
    # totals: White 6 + 2 + 4 = 12, Black 3 + 7 + 1 = 11
    assert (scores["marathon"]["totals"]["white"]["points"] == 12
            and scores["marathon"]["totals"]["black"]["points"] == 11)
    assert outcome.winners == (0,)
    # Once the Marathon is over the clans show its totals (sardines: White 2 + 1 + 0, Black 2 + 3 + 2).
    assert scores["clans"]["white"]["points"] == 12 and scores["clans"]["black"]["points"] == 11
    assert scores["clans"]["white"]["sardines"] == 3 and scores["clans"]["black"]["sardines"] == 7


def test_marathon_carried_over_three_games_by_legal_moves():
    """Variants, Marathon: three complete games in a row, dealt by the referee, totals reported."""
    state = GAME.setup(2, "marathon-3", {"marathon": True})
    games_seen = {1}
    while not state["finished"]:
        moves = GAME.legal_moves(state)
        busy = [m for m in moves if m["type"] != "play" or m["pair"] or m["block"]]
        state = ok(state, (busy or moves)[0])
        games_seen.add(state["marathon"]["game"])
    assert games_seen == {1, 2, 3} and len(state["marathon"]["completed"]) == 3
    scores, _ = GAME.score(state)
    for clan in C.CLANS:
        assert scores["marathon"]["totals"][clan]["points"] == sum(g[clan]["points"]
                                                                   for g in state["marathon"]["completed"])


# -- state consistency ----------------------------------------------------------------------------

def test_check_state_rejects_impossible_states():
    """Referee contract: a card in two places, a missing card, a ball left in a hideout without
    a stash, clans not alternating, a hand over 6 cards."""
    s = build([["P1-1"], ["P2-1"]], ["P8-4"])
    broken = dict(s, players=[{"clan": "white", "hand": ["P1-1", "P2-1"]}, {"clan": "black", "hand": ["P2-1"]}])
    with pytest.raises(InvalidState):
        GAME.check_state(broken)
    for change in (dict(ball={"spot": "white_hideout", "colour": "white"}),
                   dict(players=[{"clan": "white", "hand": ["P1-1"]}, {"clan": "white", "hand": ["P2-1"]}]),
                   dict(discard=[]),
                   dict(points_deck=s["points_deck"][1:]),
                   dict(turn={"player": 0, "phase": "answer"}),
                   dict(turn={"player": 0, "phase": "refill"})):
        with pytest.raises(InvalidState):
            GAME.check_state(dict(s, **change))
    seven = build([["P1-1", "P1-2", "P1-3", "P1-4", "P2-1", "P2-2"], ["P3-1"]], ["P8-4"])
    seven["players"][0]["hand"].append(seven["paw_deck"].pop(0))
    with pytest.raises(InvalidState):
        GAME.check_state(seven)
