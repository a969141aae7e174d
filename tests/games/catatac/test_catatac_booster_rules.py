"""The Boosters: setup of each booster and combination, the Skip and Replay icons, the alpha
cards, Pasta scoring, views and state consistency (rulebook: The Boosters; booster rows of
shared/games/catatac-cards.md; choices in docs/rules-notes.md, CATATAC boosters)."""

from itertools import combinations

import pytest

from referee.engine.core import InvalidOptions, InvalidState
from referee.games.catatac import GAME
from referee.games.catatac import cards as C
from tests.games.catatac.catatac_booster_helpers import bbuild, stash_by
from tests.games.catatac.catatac_helpers import bad, ball, decline, ok, play

COMBOS = [list(c) for r in (1, 2, 3) for c in combinations(["distraction", "alpha", "momentum"], r)]
BLOCK = ((), ())


def events_of(state, move):
    verdict = GAME.adjudicate(state, move)
    assert verdict.legal, [v.code for v in verdict.violations]
    return [e["type"] for e in verdict.events], verdict.state


# -- Setup per booster ----------------------------------------------------------------------------

# paw cards in play, points cards, alpha pile size per clan
EXPECTED = {
    ("distraction",): (64, 9, 0), ("alpha",): (58, 10, 3), ("momentum",): (64, 9, 0),
    ("distraction", "alpha"): (64, 11, 4), ("distraction", "momentum"): (70, 10, 0),
    ("alpha", "momentum"): (64, 11, 4), ("distraction", "alpha", "momentum"): (70, 12, 5),
}


@pytest.mark.parametrize("boosters", COMBOS)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_setup_of_each_booster_and_combination(boosters, players):
    """The Boosters: Distraction and Momentum add 8 paw cards less 2 removed unseen, and their
    points card; Alpha adds 2 points cards and one alpha card per player, of the clan's colour,
    from the clan's pile; Bengal and Ragdoll join the piles only with Alpha."""
    state = GAME.setup(players, f"boost-{players}", {"boosters": list(reversed(boosters))})
    paw, points, pile = EXPECTED[tuple(boosters)]
    assert state["options"]["boosters"] == boosters  # stored in the rulebook's order
    in_play = [c for p in state["players"] for c in p["hand"]] + state["paw_deck"] + state["discard"]
    assert len(in_play) == paw and all(len(p["hand"]) == 6 for p in state["players"])
    assert len(state["points_deck"]) == points and len(set(state["points_deck"])) == points
    paw_boosters = [b for b in ("distraction", "momentum") if b in boosters]
    assert len(state["box"]) == 2 * len(paw_boosters)
    for booster in paw_boosters:
        mine = set(C.BOOSTER_PAW_CARDS[booster])
        assert len(mine & set(state["box"])) == 2 and len(mine & set(in_play)) == 6
    assert not set(state["box"]) & set(in_play)
    held = [p["alpha"] for p in state["players"]]
    if "alpha" in boosters:
        for seat, player in enumerate(state["players"]):
            assert C.KINDS[player["alpha"]].alpha == player["clan"]
        assert len(set(held)) == players and len(state["alpha_aside"]) == 2 * pile - players
        assert len(C.alpha_pile("white", tuple(boosters))) == pile
        assert ("bengal-white" in C.alpha_set(tuple(boosters))) == ("distraction" in boosters)
        assert ("ragdoll-black" in C.alpha_set(tuple(boosters))) == ("momentum" in boosters)
    else:
        assert held == [None] * players and state["alpha_aside"] == []
    assert state["skip"] is False
    GAME.check_state(state)


def test_removed_cards_come_from_the_generator_and_stay_unseen():
    """The Boosters: 2 paw cards removed blindly: the seed decides them; views show only a count."""
    boxes = {tuple(GAME.setup(2, f"seed-{i}", {"boosters": ["distraction", "momentum"]})["box"]) for i in range(12)}
    assert len(boxes) > 1
    state = GAME.setup(2, "same", {"boosters": ["distraction"]})
    assert state["box"] == GAME.setup(2, "same", {"boosters": ["distraction"]})["box"]
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        assert view["box"] == {"size": 2} and view["alpha_aside"] == {"size": 0}


def test_base_game_state_is_unchanged_without_boosters():
    """Without boosters the state has no booster field (rules notes)."""
    state = GAME.setup(2, "plain", {})
    assert "boosters" not in state["options"] and "box" not in state and "alpha" not in state["players"][0]
    assert GAME.setup(2, "plain", {"boosters": []}) == state


def test_setup_at_a_table_names_the_removed_cards_and_the_alpha_cards():
    """Table chance: the table names the paw cards removed unseen and each seat's alpha card."""
    hands = [list(C.ALL_PAW_CARDS[0:6]), list(C.ALL_PAW_CARDS[6:12])]
    deal = {"hands": hands, "discard": "brute-1", "coin": "white", "removed": ["rat-5", "duo-2", "zzzz-6", "agile-8"],
            "alpha": ["manx", "ragdoll-black"]}
    state = GAME.setup(2, "t", {"chance": "table", "boosters": ["distraction", "alpha", "momentum"], "deal": deal})
    assert state["box"] == ["agile-8", "duo-2", "rat-5", "zzzz-6"]
    assert [p["alpha"] for p in state["players"]] == ["manx", "ragdoll-black"]
    assert len(state["paw_deck"]) == 70 - 12 - 1 - 0 and "rat-5" not in state["paw_deck"]
    assert len(state["alpha_aside"]) == 8
    GAME.check_state(state)


@pytest.mark.parametrize("change,pointer", [
    ({"removed": ["rat-5", "zzzz-6", "brute-1", "agile-8"]}, "/options/deal/removed"),
    ({"removed": ["rat-5"]}, "/options/deal/removed"),
    ({"removed": ["rat-5", "zzzz-6", "duo-2", "P1-1"]}, "/options/deal/removed"),
    ({"alpha": ["lykoi", "manx"]}, "/options/deal/alpha/0"),
    ({"alpha": ["manx"]}, "/options/deal/alpha"),
])
def test_table_deal_with_boosters_is_checked(change, pointer):
    hands = [list(C.ALL_PAW_CARDS[0:6]), list(C.ALL_PAW_CARDS[6:12])]
    deal = {"hands": hands, "discard": "brute-1", "coin": "white", "removed": ["rat-5", "duo-2", "zzzz-6", "agile-8"],
            "alpha": ["manx", "lykoi"], **change}
    with pytest.raises(InvalidOptions) as err:
        GAME.setup(2, "t", {"chance": "table", "boosters": ["distraction", "alpha", "momentum"], "deal": deal})
    assert pointer in [p for p, _ in err.value.errors]


@pytest.mark.parametrize("boosters", [["beta"], ["alpha", "alpha"], "alpha"])
def test_setup_rejects_bad_boosters(boosters):
    with pytest.raises(InvalidOptions) as err:
        GAME.setup(2, "s", {"boosters": boosters})
    assert [p for p, _ in err.value.errors] == ["/options/boosters"]


def test_kittens_with_boosters_keeps_booster_cards_1_to_5():
    """Kittens with boosters (rules notes): the boosters' paw cards numbered 1 to 5 take part;
    2 of them are removed unseen."""
    state = GAME.setup(2, "k", {"kittens": True, "boosters": ["distraction"]})
    in_play = [c for p in state["players"] for c in p["hand"]] + state["paw_deck"] + state["discard"]
    assert len(in_play) == 35 + 3 and all(not C.KINDS[c].joker and C.KINDS[c].number <= 5 for c in in_play)


def test_catalogue_and_options_list_the_boosters():
    info = GAME.options_info()
    assert info["boosters"]["items"] == ["distraction", "alpha", "momentum"] and info["boosters"]["default"] == []
    catalogue = GAME.catalogue({"boosters": ["alpha", "momentum"]})
    assert len(catalogue["paw_cards"]) == 66 and len(catalogue["points_cards"]) == 11
    assert len(catalogue["alpha_cards"]) == 8 and catalogue["boosters"]["distraction"]["in_play"] is False
    assert len(GAME.catalogue()["boosters"]["distraction"]["paw_cards"]) == 8


# -- Skip ----------------------------------------------------------------------------------------

def test_skip_two_players_plays_again():
    """Skip: in a 2-player game the opponent's turn is skipped: the same player plays again."""
    s = bbuild([["rat-5", "P1-1"], ["P2-1"]], ["P8-4"])
    kinds, new = events_of(s, play(0, "rat-5", None, BLOCK))
    assert "turn_skipped" in kinds and new["turn"] == {"player": 0, "phase": "play"}
    assert new["players"][1]["hand"] == ["P2-1"]  # the skipped player did not draw


def test_a_stash_attempt_cancels_a_pending_skip():
    """Skip: Dribble's block first (movement, Skip), then its pair as a stash attempt: the stash
    cancels the Skip; the next opponent answers."""
    s = bbuild([["dribble-3", "P1-1"], ["P2-1"], ["P2-2"], ["P2-3"]], ["P3-1"], ("neutral_alley", "white"))
    kinds, new = events_of(s, play(0, "dribble-3", ("stash", None), ((), ("white",)), "block_first"))
    assert "skip_cancelled" in kinds and "turn_skipped" not in kinds
    assert ball(new) == ("white_hideout", "white") and new["turn"] == {"player": 1, "phase": "answer"}
    assert new["stash"] == {"clan": "white", "by": 0, "next": 1, "answer": [1, 3]} and new["skip"] is False
    assert bad(s, play(0, "dribble-3", ("stash", None), ((), ("white",)), "pair_first")) == ["PAIR_ACTION_NOT_POSSIBLE"]


def test_skip_after_a_pair_stash_is_not_played():
    """A stash attempt ends the turn at once: a Skip block cannot follow it."""
    s = bbuild([["rat-5", "P1-1"], ["P2-1"]], ["P5-1"], ("white_alley", "white"))
    assert bad(s, play(0, "rat-5", ("stash", None), BLOCK, "pair_first")) == ["STASH_ENDS_TURN"]


def test_skip_stays_pending_while_a_table_refills():
    """Skip at a table: the player refills card by card, then the next turn is skipped."""
    s = bbuild([["rat-5", "P1-1"], ["P2-1"], ["P2-2"], ["P2-3"]], ["P8-4"], chance="table")
    new = ok(s, play(0, "rat-5", None, BLOCK))
    assert new["turn"] == {"player": 0, "phase": "refill"} and new["skip"] is True
    for _ in range(5):
        new = ok(new, {"type": "draw", "player": 0, "card": new["paw_deck"][0]})
    assert new["turn"] == {"player": 2, "phase": "play"} and new["skip"] is False


def test_skip_as_the_last_card_of_the_game():
    """A Skip played as the last paw card: the game ends (rules notes)."""
    s = bbuild([["rat-5"], []], ["P8-4"], spare="discard", turn=0)
    new = ok(s, play(0, "rat-5", None, BLOCK))
    assert new["finished"] is True and new["skip"] is False


def test_skip_when_the_deck_is_empty_skips_the_next_seat_holding_cards():
    """Skip with the paw deck empty: the next seat holding cards is skipped; a seat without
    cards is passed over; play comes back to the skipped seat."""
    s = bbuild([["rat-5"], ["P2-1"]], ["P8-4"], spare="discard")
    kinds, new = events_of(s, play(0, "rat-5", None, BLOCK))
    assert kinds.count("turn_skipped") == 1 and new["turn"] == {"player": 1, "phase": "play"}


def test_skipped_turn_cannot_be_taken_by_cooperation():
    """Skip and cooperation (rules notes): the skipped player's teammate may not play in their
    place; after the Skip only seat 2 and its teammate seat 0 may play."""
    s = bbuild([["rat-5", "miracle-6", "ninja-8"], ["P2-1"], ["P2-2"], ["P2-3"]], ["P8-4"],
               ("white_alley", "white"))
    new = ok(s, play(0, "rat-5", None, BLOCK))
    assert new["turn"]["player"] == 2
    assert {m["player"] for m in GAME.legal_moves(new)} <= {0, 2}


# -- Replay --------------------------------------------------------------------------------------

def test_replay_plays_another_card_before_refilling():
    """Replay: Duo, then Duo again, then a plain card; the hand is refilled once, at the end."""
    s = bbuild([["duo-2", "duo-3", "P1-1"], ["P2-1"]], ["P8-4"], boosters=["momentum"])
    new = ok(s, play(0, "duo-2", None, BLOCK))
    assert new["turn"] == {"player": 0, "phase": "replay"} and len(new["players"][0]["hand"]) == 2
    new = ok(new, play(0, "duo-3", None, BLOCK))
    assert new["turn"] == {"player": 0, "phase": "replay"} and new["players"][0]["hand"] == ["P1-1"]
    new = ok(new, play(0, "P1-1"))
    assert new["turn"] == {"player": 1, "phase": "play"} and len(new["players"][0]["hand"]) == 6


def test_replayed_card_may_pair_on_the_first():
    """Replay: the card played at once is a normal play: it may pair with the card just played."""
    s = bbuild([["duo-2", "P2-2"], ["P2-1"]], ["P8-4"], ("neutral_alley", "black"), boosters=["momentum"])
    new = ok(ok(s, play(0, "duo-2", None, BLOCK)), play(0, "P2-2", ("steal", None)))
    assert ball(new) == ("neutral_alley", "white")


def test_replay_with_an_empty_hand_cannot_be_activated():
    """Replay with an empty hand (rules notes): not applicable, so the block cannot be used;
    the card can still be played without it."""
    s = bbuild([["duo-2"], ["P2-1"]], ["P8-4"], boosters=["momentum"])
    assert bad(s, play(0, "duo-2", None, BLOCK)) == ["REPLAY_NOTHING_TO_PLAY"]
    assert ok(s, play(0, "duo-2"))["turn"] == {"player": 1, "phase": "play"}


def test_replay_with_only_the_alpha_card_left_plays_the_alpha_card():
    """Replay: the alpha card is played instead of a paw card, also as the card played at once."""
    s = bbuild([["duo-2"], ["P2-1"]], ["P8-4"], ("neutral_alley", "black"), alpha=["maine-coon", "lykoi"])
    new = ok(s, play(0, "duo-2", None, BLOCK))
    assert {m["card"] for m in GAME.legal_moves(new)} == {"maine-coon"}
    new = ok(new, play(0, "maine-coon", None, ((0,), ())))
    assert ball(new) == ("neutral_alley", "white") and len(new["players"][0]["hand"]) == 6


def test_replay_pending_only_the_replaying_player_plays():
    s = bbuild([["duo-2", "P1-1", "miracle-6"], ["P2-1"], ["P3-3"], ["P2-2"]], ["P8-4"], boosters=["momentum"])
    new = ok(s, play(0, "duo-2", None, BLOCK))
    assert bad(new, play(1, "P2-1")) == ["REPLAY_PENDING"]
    assert bad(new, play(2, "P3-3")) == ["REPLAY_PENDING"]
    assert bad(new, decline(0)) == ["REPLAY_PENDING"]
    assert bad(new, {"type": "draw", "player": 0, "card": new["paw_deck"][0]}) == ["NO_REFILL_PENDING"]
    assert {m["player"] for m in GAME.legal_moves(new)} == {0}


def test_replay_after_a_stash_attempt_is_lost():
    """Replay after a stash attempt (rules notes): Duo's block (Replay), then its pair as a stash
    attempt: the stash ends the turn, the replay is lost; the other order is illegal."""
    s = bbuild([["duo-2", "P1-1"], ["P2-1"]], ["P2-3"], ("white_alley", "white"), boosters=["momentum"])
    kinds, new = events_of(s, play(0, "duo-2", ("stash", None), BLOCK, "block_first"))
    assert "replay_lost" in kinds and new["turn"] == {"player": 1, "phase": "answer"}
    assert bad(s, play(0, "duo-2", ("stash", None), BLOCK, "pair_first")) == ["STASH_ENDS_TURN"]


def test_replay_then_a_skip_card_ends_the_turn():
    """Skip ends your turn: a card played at once with Skip skips the next player."""
    s = bbuild([["duo-2", "rat-5", "P1-1"], ["P2-1"], ["P2-2"], ["P2-3"]], ["P8-4"])
    new = ok(ok(s, play(0, "duo-2", None, BLOCK)), play(0, "rat-5", None, BLOCK))
    assert new["turn"] == {"player": 2, "phase": "play"} and len(new["players"][0]["hand"]) == 6


# -- Alpha cards ---------------------------------------------------------------------------------

def test_alpha_card_is_played_instead_of_a_hand_card_and_not_counted():
    """Booster B: the alpha card is not counted in the hand: a player with 6 cards and the
    alpha card plays it and keeps 6 cards without drawing."""
    hand = ["P1-1", "P1-2", "P1-3", "P1-4", "P2-1", "P2-2"]
    s = bbuild([hand, ["P3-1"]], ["P8-4"], ("neutral_alley", "black"), alpha=["maine-coon", "laperm"])
    kinds, new = events_of(s, play(0, "maine-coon", None, ((0,), ())))
    assert new["players"][0]["hand"] == hand and new["players"][0]["alpha"] is None
    assert "cards_drawn" not in kinds and new["discard"][-1] == "maine-coon"


def test_alpha_card_never_makes_a_pair():
    s = bbuild([["P1-1"], ["P3-1"]], ["P8-4"], ("neutral_alley", "black"), alpha=["maine-coon", "laperm"])
    assert bad(s, play(0, "maine-coon", ("steal", None), ((1,), ("white",)), "pair_first")) == ["ALPHA_MAKES_NO_PAIR"]


@pytest.mark.parametrize("card", ["P1-1", "joker-1"])
def test_alpha_card_never_allows_a_pair(card):
    """No card, not even a Joker, pairs on an alpha card on top of the discard pile."""
    s = bbuild([[card], ["P3-1"]], ["P1-2", "laperm"], ("neutral_alley", "black"), alpha=["maine-coon", None])
    assert bad(s, play(0, card, ("steal", None))) == ["ALPHA_ALLOWS_NO_PAIR"]
    assert not any(m["pair"] for m in GAME.legal_moves(s) if m["type"] == "play")


def test_alpha_card_is_played_once():
    s = bbuild([["P1-1"], ["P3-1"]], ["P8-4"], ("neutral_alley", "black"), alpha=[None, "laperm"])
    assert bad(s, play(0, "maine-coon", None, ((0,), ()))) == ["ALPHA_NOT_HELD"]
    assert bad(s, play(0, "laperm", None, ((0,), ()))) == ["ALPHA_NOT_HELD"]


def test_alpha_card_only_while_the_paw_deck_is_not_empty():
    s = bbuild([["P1-1"], ["P3-1"]], ["P8-4"], ("neutral_alley", "black"), alpha=["maine-coon", "laperm"],
               spare="discard")
    assert bad(s, play(0, "maine-coon", None, ((0,), ()))) == ["ALPHA_DECK_EMPTY"]
    assert all(m["card"] != "maine-coon" for m in GAME.legal_moves(s))


def test_alpha_card_is_not_played_in_a_teammates_place():
    """Alpha cards bear no cooperation icon: neither for a teammate's turn nor a teammate's answer."""
    s = bbuild([["P1-1"], ["P3-1"], ["P1-2"], ["P3-2"]], ["P8-4"], ("neutral_alley", "black"), turn=2)
    alpha0 = s["players"][0]["alpha"]
    assert bad(s, play(0, alpha0, None, ((0,), ()))) == ["NOT_A_COOPERATION_CARD"]
    s = bbuild([["P1-1"], ["P3-1"], ["P1-2"], ["P3-2"]], ["P8-4"], ("black_hideout", "black"),
               alpha=["maine-coon", "laperm", "angora-white", "lykoi"], phase="answer", turn=2,
               stash=stash_by("black", 3, 0, [2]))
    assert bad(s, play(2, "angora-white", None, BLOCK)) == ["NOT_A_COOPERATION_CARD"]
    s = bbuild([["P1-1"], ["P3-1"], ["P1-2"], ["P3-2"]], ["P8-4"], ("black_hideout", "black"),
               alpha=["maine-coon", "laperm", "angora-white", "lykoi"], phase="answer", turn=2,
               stash=stash_by("black", 1, 2, [2, 0]))
    new = ok(s, play(2, "angora-white", None, BLOCK))  # seat 2 is the next opponent: its own turn
    assert ball(new) == ("black_alley", "white")


def test_alpha_card_is_hidden_from_the_other_seats_until_played():
    s = bbuild([["P1-1"], ["P3-1"]], ["P8-4"], ("neutral_alley", "black"), alpha=["maine-coon", "laperm"])
    assert GAME.view(s, 0)["players"][0]["alpha"] == "maine-coon"
    assert GAME.view(s, 1)["players"][0] == {"clan": "white", "hand_size": 1, "has_alpha": True}
    assert "alpha" not in GAME.view(s, None)["players"][1] and GAME.view(s, None)["players"][1]["has_alpha"]
    new = ok(s, play(0, "maine-coon", None, ((0,), ())))
    assert GAME.view(new, 1)["players"][0]["has_alpha"] is False and new["discard"][-1] == "maine-coon"


# -- Scoring: Pasta, alpha sardines ------------------------------------------------------------------

@pytest.mark.parametrize("white,black,expected", [
    (["pasta-left", "pasta-right"], [], (4, 0)),
    (["pasta-left"], ["pasta-right"], (1, 1)),
    (["pasta-right", "purple"], ["pasta-left", "yellow-momentum"], (3, 2)),
    (["pasta-left", "green", "pasta-right", "black-ball"], ["white-ball"], (5, 1)),
])
def test_pasta_scoring(white, black, expected):
    """Pasta: left half 1 point, 3 when the same clan also holds the right half; right half 1."""
    s = bbuild([[], []], ["P8-4"], points={"white": white, "black": black}, spare="discard", finished=True,
               phase="over")
    scores, _ = GAME.score(s)
    assert (scores["clans"]["white"]["points"], scores["clans"]["black"]["points"]) == expected


def test_unplayed_manx_sardine_breaks_a_tie():
    """Manx / Lykoi (rules notes): an alpha card still in front of its holder at the end adds
    its sardine to the clan's tiebreak; a played one does not."""
    points = {"white": ["grey"], "black": ["red"]}  # 1 point each; black has 1 sardine
    s = bbuild([[], []], ["P8-4"], alpha=["manx", "lykoi"], points=points, spare="discard", finished=True, phase="over")
    scores, outcome = GAME.score(s)
    assert scores["clans"]["white"]["sardines"] == 1 and scores["clans"]["black"]["sardines"] == 2
    assert outcome.winners == (1,) and outcome.tiebreak == "sardines"
    s = bbuild([[], []], ["P8-4"], alpha=["manx", None], points=points, spare="discard", finished=True, phase="over")
    scores, outcome = GAME.score(s)
    assert scores["clans"]["white"]["sardines"] == 1 and scores["clans"]["black"]["sardines"] == 1
    assert outcome.winners == () and outcome.tiebreak == "tie"
    assert GAME.view(s, 1)["players"][0]["alpha"] == "manx"  # revealed at the end


# -- State consistency -----------------------------------------------------------------------------

def test_check_state_rejects_impossible_booster_states():
    s = bbuild([["P1-1"], ["P3-1"]], ["P8-4"])
    cases = []
    x = dict(s, box=s["box"][:3])
    cases.append((x, "/box"))
    x = dict(s, players=[dict(s["players"][0], alpha="lykoi"), s["players"][1]])
    cases.append((x, "/players/0/alpha"))
    x = dict(s, skip=True)
    cases.append((x, "/skip"))
    x = {k: v for k, v in s.items() if k != "alpha_aside"}
    cases.append((x, "/alpha_aside"))
    x = dict(s, options=dict(s["options"], boosters=["momentum", "distraction", "alpha"]))
    cases.append((x, "/options/boosters"))
    d = bbuild([["P1-1"], ["P3-1"]], ["P8-4"], boosters=["distraction"])
    cases.append((dict(d, turn={"player": 0, "phase": "replay"}), "/turn/phase"))
    cases.append((dict(d, players=[{"clan": "white", "hand": ["P1-1"]}, d["players"][1]]), "/players/0/alpha"))
    plain = {k: v for k, v in d.items() if k not in ("box", "alpha_aside", "skip")}
    cases.append((plain, "/box"))
    for state, pointer in cases:
        with pytest.raises(InvalidState) as err:
            GAME.check_state(state)
        assert pointer in [p for p, _ in err.value.errors], (pointer, err.value.errors)
