"""The seats' display names: given once at creation (``names``, one per seat), shown to every
reader in the match, its log (top level, and ``player_name`` per entry), its event stream and
its record; refused with a pointer when not one per seat or not a name."""

from __future__ import annotations

import json

import pytest

from referee.service import verify

GAME = "scratch-and-catch"
NAMES = ["Ana", "健太", "さくら"]


def _create(client, **body):
    return client.post("/v1/matches", json={"game": GAME, "players": 3, "seed": "names", **body})


def _auth(match: dict, seat: int) -> dict:
    return {"Authorization": f"Bearer {match['seats'][seat]['secret']}"}


def _play_first(client, match: dict) -> dict:
    """Seat 0 plays its first listed move (Scratch & Catch: seat 0 starts)."""
    moves = client.get(f"/v1/matches/{match['id']}/legal-moves?seat=0", headers=_auth(match, 0)).get_json()
    answer = client.post(f"/v1/matches/{match['id']}/moves", json={"move": moves["moves"][0]},
                         headers={**_auth(match, 0), "If-Match": '"0"'})
    assert answer.status_code == 200 and answer.get_json()["legal"]
    return moves["moves"][0]


def test_every_reader_sees_the_names_given_in_the_match_log_stream_and_record(mclient):
    created = _create(mclient, names=NAMES)
    assert created.status_code == 201
    match = created.get_json()
    assert match["names"] == NAMES
    _play_first(mclient, match)
    for reader in (None, 0, 1, 2):
        query = "" if reader is None else f"?seat={reader}"
        auth = {} if reader is None else _auth(match, reader)
        base = f"/v1/matches/{match['id']}"
        assert mclient.get(base + query, headers=auth).get_json()["names"] == NAMES
        log = mclient.get(f"{base}/log{query}", headers=auth).get_json()
        assert log["names"] == NAMES
        assert [(e["player"], e["player_name"]) for e in log["entries"]] == [(0, "Ana")]
        assert mclient.get(f"{base}/record{query}", headers=auth).get_json()["names"] == NAMES
        stream = mclient.get(f"{base}/events{query}", headers={**auth, "Last-Event-ID": "0"})
        chunks = iter(stream.response)
        next(chunks)   # retry
        data = [line for line in next(chunks).decode().splitlines() if line.startswith("data: ")]
        stream.close()
        assert json.loads(data[0][len("data: "):])["player_name"] == "Ana"


def test_a_match_without_names_shows_null_for_every_seat(mclient):
    match = _create(mclient).get_json()
    assert match["names"] == [None, None, None]
    _play_first(mclient, match)
    log = mclient.get(f"/v1/matches/{match['id']}/log").get_json()
    assert log["names"] == [None, None, None]
    assert log["entries"][0]["player_name"] is None


def test_names_of_32_characters_in_any_script_are_kept_as_given(mclient):
    names = ["猫" * 32, " Zoë ", "\u05d3\u05e0\u05d4 \u200f"]   # (Hebrew, with a right-to-left mark)
    created = _create(mclient, names=names)
    assert created.status_code == 201
    assert created.get_json()["names"] == names


@pytest.mark.parametrize(("names", "pointer"), [
    (["Ana", "Ken"], "/names"),                      # 2 names for 3 seats
    (["Ana", "Ken", "Bo", "Cy"], "/names"),
    ("Ana", "/names"),
    (["Ana", "", "Bo"], "/names/1"),
    (["Ana", "Ken", "猫" * 33], "/names/2"),
    (["Ana", " \u3000\t", "Bo"], "/names/1"),       # only whitespace (an ideographic space too)
    (["Ana", "\u200b", "Bo"], "/names/1"),          # nothing to see: a zero-width space,
    (["\ufeff\u200d \u200e", "Ken", "Bo"], "/names/0"),  # or invisible format characters and a space
    (["A\u0007na", "Ken", "Bo"], "/names/0"),        # a control character
    (["Ana", "Ken\nBo", "Cy"], "/names/1"),          # a line break
    (["Ana", "Ken\u2028", "Cy"], "/names/1"),        # a line separator
    (["Ana", "\u202egnirts tuo", "Cy"], "/names/1"),  # a right-to-left override: it would turn the
    (["\u2067Ana", "Ken", "Cy"], "/names/0"),          # text after the name round; an isolate opened
    (["Ana", "Ken\u202a", "Cy"], "/names/1"),          # and an embedding likewise
    (["Ana", None, "Bo"], "/names/1"),
    (["Ana", 7, "Bo"], "/names/1"),
])
def test_names_not_one_per_seat_or_not_a_name_are_refused_with_a_pointer(mclient, names, pointer):
    answer = _create(mclient, names=names)
    assert answer.status_code == 422
    assert [error["pointer"] for error in answer.get_json()["errors"]] == [pointer]


def test_the_refusals_of_names_are_said_in_japanese(memory_app):
    client = memory_app.test_client()
    ja = {"Accept-Language": "ja"}
    count = client.post("/v1/matches", json={"game": GAME, "players": 3, "names": ["Ana"]}, headers=ja).get_json()
    assert count["detail"].startswith("`names` に名前が 1 個ありますが、プレイヤーは 3 人です")
    assert count["errors"] == [{"pointer": "/names", "detail": "席ごとに 1 つ、3 個の名前が必要です"}]
    blank = client.post("/v1/matches", json={"game": GAME, "players": 2, "names": ["Ana", " "]}, headers=ja)
    assert blank.get_json()["errors"] == [{"pointer": "/names/1", "detail": "名前を空白だけにはできません"}]
    control = client.post("/v1/matches", json={"game": GAME, "players": 2, "names": ["Ana", "\u001b"]}, headers=ja)
    assert control.get_json()["errors"] == [{"pointer": "/names/1", "detail": "名前に制御文字や改行は使えません"}]
    override = client.post("/v1/matches", json={"game": GAME, "players": 2, "names": ["\u202eAna", "Ken"]},
                           headers=ja)
    assert override.get_json()["errors"] == [{"pointer": "/names/0",
                                               "detail": "名前に文字の向きを変える制御文字は使えません"}]


def test_a_finished_record_with_names_verifies(memory_app):
    """The names ride in the record beside what verification checks: a whole match verifies."""
    client = memory_app.test_client()
    short = {"deck": {"cat": [2, 2, 1, 1, 1, 1, 1, 1, 1, 1], "scratch": [1, 0, 0, 0, 0, 0, 0, 0, 0, 1]}}
    match = client.post("/v1/matches", json={"game": GAME, "players": 2, "seed": "v", "options": short,
                                             "names": ["Ana", "健太"]}).get_json()
    for version in range(500):
        state = client.get(f"/v1/matches/{match['id']}").get_json()
        if state["outcome"]["finished"]:
            break
        for seat in (0, 1):
            moves = client.get(f"/v1/matches/{match['id']}/legal-moves?seat={seat}",
                               headers=_auth(match, seat)).get_json()["moves"]
            if moves:
                client.post(f"/v1/matches/{match['id']}/moves", json={"move": moves[0]},
                            headers={**_auth(match, seat), "If-Match": f'"{version}"'})
                break
    record = client.get(f"/v1/matches/{match['id']}/record").get_json()
    assert record["complete"] and record["names"] == ["Ana", "健太"]
    assert verify.verify(record).valid
    assert client.post("/v1/records/verify", json=record).get_json() == {"valid": True}
