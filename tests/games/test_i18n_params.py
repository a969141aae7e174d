"""CATATAC violation messages in Japanese name the game's identifiers in words.

String parameters of a violation (spots, clans and directions, activation conditions, basic
actions, effects) are translated through the catalog; card ids stay as they are. The moves
are found by varying legal moves of random games (seeded, so always the same), then judged
over HTTP with ``Accept-Language: ja``.
"""

import random
import re

from referee.games import GAMES
from referee.games.catatac import cards as C
from referee.i18n import translate

GAME = GAMES["catatac"]
WANTED = ("CONDITION_NOT_MET", "MOVE_OFF_ALLEYS", "PAIR_ACTION_NOT_POSSIBLE", "EFFECT_NOT_APPLICABLE")
IDENTIFIERS = (set(C.SPOTS) | set(C.CLANS) | set(C.CONDITIONS)
               | {"steal", "movement", "stash", "counter", "coin_flip", "skip", "replay", "nothing"})
# An identifier as a word of its own: not part of a card id such as angora-white or stop-5.
RAW = re.compile(r"(?<![\w-])(" + "|".join(sorted(IDENTIFIERS, key=len, reverse=True)) + r")(?![\w-])|[a-z]+_[a-z]+")


def _variants(move: dict) -> list[dict]:
    """Moves near a legal play: other pair actions and directions, other block directions,
    wrong coin faces, a wrong refill."""
    out = []
    for action, direction in (("steal", None), ("movement", "black"), ("movement", "white"), ("stash", None)):
        pair = {"action": action, "direction": direction}
        out.append(dict(move, pair=pair, block=None, order=None))
        if move["block"] is not None:
            out.append(dict(move, pair=pair, order="pair_first"))
    block = move["block"]
    if block is not None:
        if block["directions"]:
            for direction in ("black", "white"):
                out.append(dict(move, block=dict(block, directions=[direction] * len(block["directions"]))))
        out.append(dict(move, coins=["white", "white"]))
        out.append(dict(move, coins=["black", "black"]))
        out.append(dict(move, coins=["white"]))
        out.append(dict(move, coins=["black"]))
    out.append(dict(move, draw=[]))
    return out


def _find_violations() -> dict[str, tuple[dict, dict]]:
    """``{code: (state, move)}`` for each code of WANTED, from random seeded games."""
    found: dict[str, tuple[dict, dict]] = {}
    for seed in range(6):
        chooser = random.Random(seed)
        options = {"boosters": ["distraction", "alpha", "momentum"]} if seed % 2 else {}
        state = GAME.setup(chooser.choice((2, 4)), f"i18n-params-{seed}", options)
        for _ in range(400):
            moves = GAME.legal_moves(state)
            if not moves or len(found) == len(WANTED):
                break
            for move in moves:
                if move["type"] != "play":
                    continue
                for variant in _variants(move):
                    verdict = GAME.adjudicate(state, variant, checked=True)
                    for violation in verdict.violations:
                        if violation.code in WANTED and violation.code not in found:
                            found[violation.code] = (state, variant)
            state = GAME.adjudicate(state, chooser.choice(moves), checked=True).state
    return found


def test_identifiers_have_japanese_entries():
    for identifier in sorted(IDENTIFIERS) + ["movement 1", "movement 2", "stash 1", "stash 2", "stash 3"]:
        assert translate(identifier, "ja") != identifier, identifier


def test_japanese_violation_messages_hold_no_raw_identifier(client):
    found = _find_violations()
    assert sorted(found) == sorted(WANTED)
    for code, (state, move) in sorted(found.items()):
        answer = client.post("/v1/games/catatac/adjudicate", json={"state": state, "move": move},
                             headers={"Accept-Language": "ja"})
        assert answer.status_code == 200
        verdict = answer.get_json()
        assert verdict["legal"] is False
        messages = [v["message"] for v in verdict["violations"] if v["code"] == code]
        assert messages, (code, verdict["violations"])
        for message in messages:
            assert RAW.search(message) is None, (code, message)
            assert not re.search(r"[A-Za-z]{4,}", re.sub(r"[A-Za-z]+-[\w-]+|P\d-\d", "", message)), (code, message)


def test_english_messages_use_the_rulebooks_words(client):
    """English names a condition as the rulebook prints it ("Possession", "Enemy Possession",
    Activating the Action Block), not by its identifier."""
    found = _find_violations()
    state, move = found["CONDITION_NOT_MET"]
    verdict = client.post("/v1/games/catatac/adjudicate", json={"state": state, "move": move}).get_json()
    message = next(v["message"] for v in verdict["violations"] if v["code"] == "CONDITION_NOT_MET")
    assert re.search(r"condition (Enemy Possession|Possession) of card", message), message
    assert "_" not in message.replace(move["card"], "")
