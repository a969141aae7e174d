"""No verdict message shows an identifier of the API. Every message of every game (and of joint
seeding), in English and in Japanese, is filled with every value each of its parameters can
take, read from the games' own enumerations (spots, conditions, reasons, actions, effects, the
fields a violation names, the cards of the catalogue); the text must name things in words: no
snake_case or dotted name, no camelCase, no JSON literal, no placeholder left unfilled, and no
Latin-script word inside a Japanese sentence but for the names of cards."""

from __future__ import annotations

import itertools
import re
import string

import pytest

from referee.engine import joint
from referee.engine.core import Violation
from referee.games import GAMES
from referee.games.catatac import cards as catatac_cards
from referee.games.catatac import messages as catatac_messages
from referee.games.catatac.influence import _effect_name
from referee.games.catatac.state import PAIR_ACTIONS
from referee.games.scratch_and_catch import messages as sc_messages
from referee.service.stateless import violation_json

NUMBERS = (0, 1, 3)
IDENTIFIER = re.compile(r"[A-Za-z0-9]+_[A-Za-z0-9_]*|[a-z]+\.[a-z]+|[a-z]+[A-Z][a-z]+|\b(?:null|true|false)\b|[{}]")
LATIN_WORD = re.compile(r"[a-z]{2,}")


def _catatac_values() -> dict[str, tuple]:
    catalogue = GAMES["catatac"].catalogue({"boosters": list(catatac_cards.BOOSTERS), "kittens": False})
    card_ids = tuple(card["id"] for group in ("paw_cards", "points_cards", "alpha_cards") for card in catalogue[group])
    effects = {_effect_name(effect) for kind in catatac_cards.KINDS.values()
               for row in kind.rows for option in row for effect in option.effects}
    return {"card": card_ids, "top": card_ids, "kind": tuple(k["kind"] for k in catalogue["kinds"]),
            "condition": catatac_cards.CONDITIONS, "reason": catatac_messages.REASONS, "action": PAIR_ACTIONS,
            "effect": tuple(sorted(effects)), "spot": catatac_cards.SPOTS, "direction": tuple(catatac_cards.DIRECTIONS),
            "field": catatac_messages.FIELDS}


def _values(game_id: str) -> dict[str, tuple]:
    """Every value each parameter of the game's messages can take."""
    common = {name: NUMBERS for name in ("player", "turn", "last", "count", "given", "needed", "distance", "bar",
                                          "side", "line", "collected")}
    common.update(players=("1", "1, 3"), seats=("0", "0, 2"))
    if game_id == "catatac":
        return {**common, **_catatac_values()}
    catalogue = GAMES[game_id].catalogue({})
    if game_id == "scratch-and-catch":
        ids = tuple(card["id"] for card in catalogue["cards"])
        return {**common, "card": ids, "kind": tuple(k["kind"] for k in catalogue["kinds"]),
                "field": (sc_messages.DRAWN_FIELD,)}
    toys = tuple(catalogue["toys"])
    return {**common, "toy": toys, "toys": (", ".join(toys[:2]),), "cat": tuple(c["id"] for c in catalogue["cats"])}


def _messages(game_id: str):
    game = GAMES[game_id]
    values = _values(game_id)
    for code, (template, rule) in {**game.messages, **joint.MESSAGES}.items():
        names = sorted({name for _, name, _, _ in string.Formatter().parse(template) if name})
        for combination in itertools.product(*(values[name] for name in names)):
            yield code, Violation(code, template, rule, dict(zip(names, combination)))


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("language", ["en", "ja"])
def test_no_message_shows_an_identifier(game_id, language):
    game, bad, seen = GAMES[game_id], [], 0
    for code, violation in _messages(game_id):
        message = violation_json(violation, language, game)["message"]
        seen += 1
        found = IDENTIFIER.findall(message)
        if language == "ja":
            names = {str(value) for value in violation.params.values()}
            words = LATIN_WORD.findall(message)
            found += [word for word in words if not any(word in name for name in names)]
        if found:
            bad.append((code, message, found))
    assert seen > len(game.messages)
    assert not bad, bad[:10]


def test_the_check_finds_what_it_looks_for():
    assert IDENTIFIER.findall("a move does not name points_card") == ["points_card"]
    assert IDENTIFIER.findall("state block.bars (null when unused) {field}") == ["block.bars", "null", "{", "}"]
    assert not IDENTIFIER.findall("No capture-4 can still be unseen: the game has 1, all face up.")
    assert LATIN_WORD.findall("draw の手はありません") == ["draw"]
