"""Hand-built Scratch & Catch states for rule tests.

``build`` makes a consistent state from the cards named in hands, line, collected and pile;
the deck option is derived from them (every copy up to the highest named one exists), and
copies not named anywhere go to the bottom of the draw pile.
"""

from __future__ import annotations

from referee.games.scratch_and_catch import GAME
from referee.games.scratch_and_catch.cards import card_value, deck_ids


def _deck_for(named: list[str]) -> dict:
    cat = [0] * 10
    scratch = [0] * 10
    for card in named:
        counts = scratch if card[0] == "S" else cat
        number = card_value(card)
        copy = int(card.split("-")[1])
        counts[number - 1] = max(counts[number - 1], copy)
    return {"cat": cat, "scratch": scratch}


def build(hands, line, pile=(), fleas=None, collected=None, turn=0, step="first", chance="seeded",
          final_turns=None, finished=False, scratch_cards_score=True, extra_pile=True):
    """A consistent state. ``line`` is a list of piles (lists of card ids, bottom first)."""
    n = len(hands)
    collected = collected or [[] for _ in range(n)]
    fleas = fleas if fleas is not None else [10] * n
    named = ([c for h in hands for c in h] + [c for p in line for c in p] + list(pile)
             + [c for h in collected for c in h])
    deck = _deck_for(named)
    rest = [c for c in deck_ids(tuple(deck["cat"]), tuple(deck["scratch"])) if c not in set(named)]
    state = {
        "game": "scratch-and-catch",
        "schema_version": 1,
        "options": {"chance": chance, "deck": deck, "scratch_cards_score": scratch_cards_score},
        "players": [{"hand": list(h), "fleas": f, "collected": list(c)} for h, f, c in zip(hands, fleas, collected)],
        "line": [{"value": card_value(p[0]), "cards": list(p)} for p in line],
        "draw_pile": list(pile) + (rest if extra_pile else []),
        "turn": {"player": turn, "step": step},
        "final_turns": final_turns,
        "finished": finished,
        "rng": {"seed": "test", "counter": 0},
    }
    GAME.check_state(state)
    return state


def play(state, player, card=None, source="hand"):
    move = {"type": "play", "player": player, "source": source}
    if card is not None:
        move["card"] = card
    return GAME.adjudicate(state, move)


def line_of(state):
    """The line as {value: [cards]}."""
    return {pile["value"]: pile["cards"] for pile in state["line"]}
