"""The shell examples of the README and the guides, copied as they are, run against the
service and answer what their comments say: the README's "Try it", the stateless guide's
"Try it", the table guide's worked example of unseen hands and the disputes guide's check of a
finished match (curl and jq, as they say)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from referee.app import create_app
from tests.support.serving import serving

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
STATELESS = ROOT / "docs" / "guides" / "stateless.md"
TABLE = ROOT / "docs" / "guides" / "table.md"
DISPUTES = ROOT / "docs" / "guides" / "disputes.md"

pytestmark = pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq") and shutil.which("bash")),
                                reason="the examples use curl and jq")


def _blocks(document: Path, section: str) -> str:
    """The ```sh blocks of a document's section (up to the next ## heading), in order."""
    text = document.read_text(encoding="utf-8")
    start = text.index(f"\n## {section}\n")
    end = text.find("\n## ", start + 1)
    return "\n".join(re.findall(r"```sh\n(.*?)```", text[start:end], flags=re.S))


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


def test_readme_try_it(base, tmp_path):
    played, refused = _run(_blocks(README, "Try it"), base, tmp_path)
    hand = json.loads((tmp_path / "setup.json").read_text())["state"]["players"][0]["hand"]
    assert played["legal"] and played["events"][0]["card"] == hand[0]
    # The README names the code and the section of the refusal.
    assert not refused["legal"] and [v["code"] for v in refused["violations"]] == ["NOT_YOUR_TURN"]
    assert refused["violations"][0]["rule"] == "ゲームの進行"
    text = README.read_text(encoding="utf-8")
    assert "`NOT_YOUR_TURN`" in text and "ゲームの進行" in text


def test_stateless_guide_try_it(base, tmp_path):
    games, listed, played, refused, suggesting = _run(_blocks(STATELESS, "Try it"), base, tmp_path)
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


def test_table_guide_unseen_hands(base, tmp_path):
    answers = _run(_blocks(TABLE, "Unseen hands"), base, tmp_path)
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


def _post(url: str, body: dict, headers: dict | None = None) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def _get(url: str, secret: str) -> dict:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {secret}"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def test_disputes_guide_checks_the_commitment_of_a_finished_match(base, tmp_path):
    """The disputes guide's two blocks of "Check that nobody chose the deal": the first while the
    match is played, the second once it is over; the record verifies and names the commitment
    the match showed from version 0. A record rewritten to creator mode fails the comparison."""
    text = DISPUTES.read_text(encoding="utf-8")
    start = text.index("\n## Check that nobody chose the deal\n")
    during, after = re.findall(r"```sh\n(.*?)```", text[start:], flags=re.S)
    referee = str(Path(sys.executable).parent / "referee")
    created = _post(f"http://{base}/v1/matches", {"game": "scratch-and-catch", "players": 2})
    match_id, secrets = created["id"], [seat["secret"] for seat in created["seats"]]
    assert _run(f"ID={match_id}\n{during}", base, tmp_path) == []
    assert json.loads((tmp_path / "seeding.json").read_text()) == {
        "mode": "referee", "commitment": created["seeding"]["commitment"]}
    url = f"http://{base}/v1/matches/{match_id}"
    for _ in range(1000):   # a 2-player game ends long before: its 60 cards are played two a turn
        if _get(url, secrets[0])["outcome"]["finished"]:
            break
        for seat, secret in enumerate(secrets):
            listed = _get(f"{url}/legal-moves?seat={seat}", secret)
            if listed["moves"]:
                _post(f"{url}/moves", {"move": listed["moves"][0]},
                      {"Authorization": f"Bearer {secret}", "If-Match": f'"{listed["version"]}"'})
    assert _get(url, secrets[0])["outcome"]["finished"]
    script = after.replace(".venv/bin/referee", referee)
    assert _run(f"ID={match_id}\n{script}", base, tmp_path) == [{"valid": True}]
    # A record of another seeding fails the last line, though it may verify on its own.
    record = json.loads((tmp_path / "record.json").read_text())
    record["seeding"] = {"mode": "creator", "seed": record["seeding"]["seed"]}
    (tmp_path / "record.json").write_text(json.dumps(record))
    last = script.strip().splitlines()[-1]
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", last], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 1 and '"creator"' in done.stdout
