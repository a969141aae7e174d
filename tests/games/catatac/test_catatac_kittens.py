"""Variants, Kittens: "play only with the paw cards numbered 1 to 5"."""

import pytest

from referee.app import create_app
from referee.engine.core import InvalidOptions
from referee.games.catatac import GAME
from referee.games.catatac import cards as C


def test_kittens_deck_is_the_35_cards_numbered_1_to_5_without_jokers():
    """Variants, Kittens: plain and named cards numbered 1 to 5 (7 of each number, Turn Summary:
    "The numbers 1 through 8 each appear 7 times"): 5 x 7 = 35. A Joker shows a J, no number."""
    deck = C.paw_cards(True)
    assert len(deck) == 5 * 7 == 35
    assert not any(C.KINDS[card].joker for card in deck)
    assert sorted({C.KINDS[card].number for card in deck}) == [1, 2, 3, 4, 5]
    assert len(C.paw_cards(False)) == 8 * 7 + 2  # the full deck keeps its 2 Jokers


@pytest.mark.parametrize("players", [2, 4])
def test_kittens_setup_deals_only_cards_numbered_1_to_5(players):
    """Setup with Kittens: every paw card in play is numbered 1 to 5, 35 in all."""
    state = GAME.setup(players, "kittens", {"kittens": True})
    in_play = [c for p in state["players"] for c in p["hand"]] + state["paw_deck"] + state["discard"]
    assert len(in_play) == 35
    assert all(C.KINDS[card].number in range(1, 6) for card in in_play)
    assert all(len(p["hand"]) == 6 for p in state["players"])


def test_kittens_with_six_players_is_refused_saying_why():
    """Variants, Kittens with 6 players: 6 hands of 6 and the card turned need 37 cards; the
    Kittens deck has 35."""
    with pytest.raises(InvalidOptions) as error:
        GAME.setup(6, "kittens", {"kittens": True})
    [(pointer, detail)] = error.value.errors
    assert pointer == "/options/kittens"
    assert "35" in detail and "37" in detail


def test_kittens_with_six_players_over_http_is_a_422_problem():
    client = create_app({"TESTING": True}).test_client()
    answer = client.post("/v1/games/catatac/setup", json={"players": 6, "seed": "s", "options": {"kittens": True}})
    assert answer.status_code == 422
    problem = answer.get_json()
    assert problem["type"] == "/problems/unplayable-options"
    assert problem["errors"][0]["pointer"] == "/options/kittens"
    assert "35 paw cards" in problem["errors"][0]["detail"]
    match = client.post("/v1/matches", json={"game": "catatac", "players": 6, "options": {"kittens": True}})
    assert match.status_code == 422 and match.get_json()["errors"][0]["pointer"] == "/options/kittens"


def test_kittens_with_six_players_and_a_paw_booster_has_enough_cards():
    """The Boosters: Distraction adds its cards numbered 1 to 5 (less 2 removed unseen): 38 cards
    deal 6 hands of 6 and turn one."""
    state = GAME.setup(6, "kittens", {"kittens": True, "boosters": ["distraction"]})
    assert len(state["paw_deck"]) == 38 - 37
