"""Cards as printed (each game's printed.py, ``GET /v1/games/{game}`` ``cards``): every card a
deal can produce, with every option, has a name in English and in Japanese; the names and
numbers are those of the card data (shared/games/) and the rulebooks."""

from __future__ import annotations

import itertools

import pytest

from referee.app import create_app
from referee.engine.core import InvalidOptions
from referee.games import GAMES
from referee.games.catatac import cards as catatac_cards
from referee.games.scratch_and_catch import cards as sc_cards
from referee.service.stateless import card_name, printed_cards
from referee.store.memory import MemoryStore

LANGUAGES = ("en", "ja")


def _catatac_dealt(state: dict) -> set[str]:
    """Every card of a CATATAC state: hands, alpha cards, piles, the box, points cards."""
    found = {card for player in state["players"] for card in player["hand"]}
    found |= {player["alpha"] for player in state["players"] if player.get("alpha")}
    for pile in ("discard", "box", "alpha_aside", "paw_deck", "points_deck"):
        found |= set(state.get(pile) or ())
    found |= {card for clan in state["points"].values() for card in clan}
    return found


def _scratch_dealt(state: dict) -> set[str]:
    found = {card for player in state["players"] for card in player["hand"] + player["collected"]}
    found |= {card for stack in state["line"] for card in stack["cards"]}
    return found | set(state["draw_pile"])


def _katulhu_dealt(state: dict) -> set[str]:
    found = {card for player in state["players"] for card in player["hand"]}
    return found | set(state["table"]) | set(state["cat_deck"]) | set(state["discard_pile"])


def _deals(game_id: str):
    """The first state of every player count and option that changes which cards are dealt
    (the seeded generator deals every card of the game's boxes: hands, piles, the box)."""
    if game_id == "catatac":
        boosters = [list(c) for n in range(4) for c in itertools.combinations(catatac_cards.BOOSTERS, n)]
        for players, kittens, chosen in itertools.product((2, 4, 6), (False, True), boosters):
            yield players, {"kittens": kittens, "boosters": chosen}
    elif game_id == "scratch-and-catch":
        for players, scoring in itertools.product((2, 3, 4, 5, 6), (False, True)):
            yield players, {"scratch_cards_score": scoring}
    else:
        for advanced in (False, True):
            yield 2, {"advanced": advanced}


DEALT = {"catatac": _catatac_dealt, "scratch-and-catch": _scratch_dealt, "call-of-katulhu": _katulhu_dealt}


def _every_dealt_card(game_id: str) -> set[str]:
    game, found, deals = GAMES[game_id], set(), 0
    for players, options in _deals(game_id):
        try:
            state = game.setup(players, f"printed-{players}", options)
        except InvalidOptions:   # (a combination the game cannot deal: Kittens with boosters, say)
            continue
        deals += 1
        found |= DEALT[game_id](state)
    assert deals >= 2 and None not in found
    return found


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_card_any_deal_produces_has_a_name_in_english_and_japanese(game_id):
    game = GAMES[game_id]
    dealt = _every_dealt_card(game_id)
    listed = {language: printed_cards(game, language) for language in LANGUAGES}
    assert dealt <= set(listed["en"]), sorted(dealt - set(listed["en"]))
    for card in dealt:
        english, japanese = listed["en"][card]["name"], listed["ja"][card]["name"]
        assert english and japanese and "{" not in english + japanese
        assert english != japanese, card   # every name is said in Japanese
        assert {k: v for k, v in listed["en"][card].items() if k != "name"} == \
               {k: v for k, v in listed["ja"][card].items() if k != "name"}


@pytest.mark.parametrize(("game_id", "kind_of"), [("catatac", catatac_cards.kind_of),
                                                  ("scratch-and-catch", sc_cards.kind_of)])
def test_every_kind_unseen_hands_name_is_listed_as_its_cards_are_printed(game_id, kind_of):
    listed = printed_cards(GAMES[game_id], "en")
    for card in _every_dealt_card(game_id):
        if card in catatac_cards.POINTS_CARDS or card in catatac_cards.ALPHA_IDS:
            continue
        assert listed[kind_of(card)] == listed[card]


def test_catatac_cards_are_named_and_numbered_as_the_card_data_prints_them():
    """shared/games/catatac-cards.md: !Stop! is numbered 1 and 5, Capture 2 to 5; 2 Jokers without
    a number; the Black ball points card gives the Black clan 2 and the White clan 1; Green gives
    0 points and 1 sardine; Manx (white) and Lykoi (black) show 1 sardine; Schrodinger is a 7."""
    game = GAMES["catatac"]
    listed = printed_cards(game, "en")
    assert listed["stop-5"] == {"name": "!Stop! 5", "kind": "paw", "number": 5}
    assert listed["capture-4"] == {"name": "Capture 4", "kind": "paw", "number": 4}
    assert listed["P3-2"] == {"name": "Paw 3", "kind": "paw", "number": 3}
    assert listed["joker-2"] == {"name": "Joker", "kind": "joker", "number": None}
    assert listed["black-ball"] == {"name": "Black ball points card", "kind": "points",
                                    "points": {"white": 1, "black": 2}, "sardines": 0}
    assert listed["green"]["points"] == {"white": 0, "black": 0} and listed["green"]["sardines"] == 1
    assert listed["manx"] == {"name": "Manx", "kind": "alpha", "clan": "white", "sardines": 1}
    assert listed["lykoi"] == {"name": "Lykoi", "kind": "alpha", "clan": "black", "sardines": 1}
    assert listed["schrodinger-7"]["name"] == "Schrodinger 7"
    # The Japanese rulebook's words: 肉球カード (paw cards), 得点カード (points cards).
    assert card_name(game, "P3-2", "ja") == "肉球 3"
    assert card_name(game, "green", "ja") == "緑の得点カード"
    assert card_name(game, "capture-4", "ja") == "捕獲 4"
    assert card_name(game, "joker-1", "ja") == "ジョーカー"
    # Rulebook, Setup: 58 paw cards in the base game, numbers 1 to 8 seven times each, 2 Jokers.
    base = [listed[card] for card in catatac_cards.paw_cards(False)]
    assert len(base) == 58 and sum(card["kind"] == "joker" for card in base) == 2
    assert all(sum(card.get("number") == n for card in base) == 7 for n in range(1, 9))


def test_scratch_and_catch_cards_are_the_rulebooks_cat_and_scratch_cards():
    """Rulebook, Components: 76 cards numbered 1 to 10, 64 Cat cards and 12 Scratch cards."""
    game = GAMES["scratch-and-catch"]
    listed = printed_cards(game, "en")
    deck = [card for card in _every_dealt_card("scratch-and-catch")]
    assert len(deck) == 76
    assert sum(listed[card]["kind"] == "cat" for card in deck) == 64
    assert sum(listed[card]["kind"] == "scratch" for card in deck) == 12
    assert listed["C7-2"] == {"name": "Cat 7", "kind": "cat", "number": 7}
    assert listed["S10-1"] == {"name": "Scratch 10", "kind": "scratch", "number": 10}
    assert card_name(game, "C7-2", "ja") == "ネコ 7"
    assert card_name(game, "S3", "ja") == "引っかき 3"


def test_call_of_katulhu_cards_show_the_default_catalogues_toys_and_slots():
    """shared/games/call-of-katulhu.default-catalogue.json: blue-1 shows box, mouse, catnip and an
    open slot; each player's deck holds the 6 toys (Components)."""
    game = GAMES["call-of-katulhu"]
    listed = printed_cards(game, "en")
    assert listed["blue-1"] == {"name": "Blue cat 1", "kind": "cat", "colour": "blue", "number": 1,
                                "slots": ["box", "mouse", "catnip", None]}
    assert listed["yarn"] == {"name": "Yarn", "kind": "toy"}
    assert sum(card["kind"] == "toy" for card in listed.values()) == 6
    assert sum(card["kind"] == "cat" for card in listed.values()) == 32
    assert card_name(game, "white-4", "ja") == "白の猫 4"
    assert card_name(game, "catnip", "ja") == "マタタビ"


def test_the_game_detail_lists_the_cards_in_the_language_asked():
    client = create_app({"TESTING": True, "REFEREE_STORE": MemoryStore()}).test_client()
    english = client.get("/v1/games/catatac")
    japanese = client.get("/v1/games/catatac", headers={"Accept-Language": "ja"})
    assert english.headers["Content-Language"] == "en" and japanese.headers["Content-Language"] == "ja"
    assert english.get_json()["cards"]["capture-4"]["name"] == "Capture 4"
    assert japanese.get_json()["cards"]["capture-4"] == {"name": "捕獲 4", "kind": "paw", "number": 4}
    assert set(english.get_json()["cards"]) == set(japanese.get_json()["cards"])
