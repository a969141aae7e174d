"""The README's shell examples, copied as they are, run against the service: "Try it" and the
worked example of "At a physical table" (curl and jq, as the README says), and answer what
their comments say."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.app import create_app
from tests.support.serving import serving

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")

pytestmark = pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq") and shutil.which("bash")),
                                reason="the README's examples use curl and jq")


def _blocks(section: str) -> str:
    """The ```sh blocks of a README section (up to the next ## heading), in order."""
    start = README.index(f"\n## {section}\n")
    end = README.find("\n## ", start + 1)
    return "\n".join(re.findall(r"```sh\n(.*?)```", README[start:end], flags=re.S))


def _answers(output: str) -> list:
    """The JSON documents curl printed one after another."""
    decoder, documents, index = json.JSONDecoder(), [], 0
    while index < len(output):
        if output[index].isspace():
            index += 1
            continue
        document, index = decoder.raw_decode(output, index)
        documents.append(document)
    return documents


@pytest.fixture(scope="module")
def base():
    """host:port of the service in a real HTTP server (in-process match store)."""
    with serving(create_app({"TESTING": True})) as port:
        yield f"127.0.0.1:{port}"


def _run(script: str, base: str, tmp_path) -> list:
    assert "localhost:8000" in script
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script.replace("localhost:8000", base)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return _answers(done.stdout)


def test_try_it(base, tmp_path):
    games, listed, played, refused, suggesting = _run(_blocks("Try it"), base, tmp_path)
    assert {game["id"] for game in games["games"]} == {"catatac", "call-of-katulhu", "scratch-and-catch"}
    hand = json.loads((tmp_path / "setup.json").read_text())["state"]["players"][0]["hand"]
    # Game Progress: a card from the hand (4 dealt) or from the draw pile.
    assert listed["moves"] == [{"type": "play", "player": 0, "source": "hand", "card": card} for card in hand] + [
        {"type": "play", "player": 0, "source": "pile"}]
    assert played["legal"] and played["events"][0]["card"] == hand[0]
    assert not refused["legal"] and [v["code"] for v in refused["violations"]] == ["NOT_YOUR_TURN"]
    assert refused["violations"][0]["rule"] == "ゲームの進行"
    assert refused["suggestions"] == []   # player 1 may not move: nothing of its own to suggest
    # A card not in the hand: the closest legal moves keep the type and the source and change
    # the card (engine/suggestions.py), in the order legal-moves lists them.
    assert "C5-1" not in hand and not suggesting["legal"]
    assert [v["code"] for v in suggesting["violations"]] == ["CARD_NOT_IN_HAND"]
    assert suggesting["suggestions"] == listed["moves"][:3]


def test_at_a_physical_table(base, tmp_path):
    answers = _run(_blocks("At a physical table"), base, tmp_path)
    *verdicts, listed = answers
    # The comments: the disputed Capture 4 refused, the pair and the capture legal, the second
    # Capture 4 refused, two pairs of 4s legal, the fifth plain 4 refused.
    assert [v["legal"] for v in verdicts] == [False, True, True, False, True, True, False]
    assert [v["violations"][0]["code"] for v in verdicts if not v["legal"]] == [
        "CONDITION_NOT_MET", "CARD_ALREADY_SEEN", "CARD_ALREADY_SEEN"]
    assert verdicts[2]["state"]["ball"] == {"spot": "black_alley", "colour": "black"}
    kinds = {move["card"] for move in listed["moves"]}
    assert "P4" not in kinds and "capture-4" not in kinds and len(kinds) == 8 + 24 + 1 - 2
    assert all(move["table_fills"] == ["card"] for move in listed["moves"])
