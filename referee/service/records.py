"""A match's record: one portable JSON document of the whole match as a reader may see it
(docs/records.md). No Flask.

During the game a reader's record holds exactly what its view and log show: the first state
and the last through ``Game.view``, the moves through the game's declaration
(referee/engine/information.py, as the log renders them). Once the game is over the record
is complete: every reader gets the full first and last states, every move and event as they
were, the options as given and the seed (and salt) the deal came from, which
referee/service/verify.py checks.
"""

from __future__ import annotations

import json

from referee.engine import information
from referee.service import seeding
from referee.service.errors import NoRecord
from referee.service.matches import not_found, render, seat_names, timestamp, with_player_name
from referee.service.texts import Text
from referee.store import Snapshot, Store

FORMAT = "referee-record/1"


def record(store: Store, match_id: str, snap: Snapshot, meta: dict, seat: int | None) -> dict:
    """The record of the match read as ``snap`` for ``seat`` (None: a spectator):
    ``{"format", "id", "game", "rules_version", "players", "names", "seat", "version",
    "complete", "options", "seeding", "start", "moves", "final"}`` (docs/records.md). Raises MatchNotFound
    when the match expired since ``snap`` was read, NoRecord for a match that kept no seed."""
    if "seed" not in (meta.get("seeding") or {}):
        raise NoRecord(Text("This match kept no record: the version of the service that created it kept none. "
                            "Read its log instead (GET /v1/matches/{id}/log)."))
    entries = store.log(match_id)
    if entries is None:
        raise not_found(match_id)
    # Entries a move added after ``snap`` was read belong to a later version: left out.
    logged = [entry for entry in map(json.loads, entries) if entry["version"] <= snap.version]
    return build(match_id, meta, json.loads(snap.state), snap.version, logged, seat)


def build(match_id: str, meta: dict, state: dict, version: int, logged: list[dict], seat: int | None) -> dict:
    """The record of a match at ``version`` (``state``, its stored ``logged`` entries in order)
    as ``seat`` may read it; see :func:`record`."""
    game = seeding.game_of(meta)
    sheet, outcome = game.score(state)
    start = seeding.first_state(meta, logged)
    kept = meta.get("seeding") or {}
    shown = seeding.public(kept)
    if outcome.finished:
        shown.update(salt=kept.get("salt"), seed=kept.get("seed"))
        options, first, last = meta["options"], start, state
        moves = [{"version": entry["version"], "player": entry["player"], "at": timestamp(entry["at"]),
                  "move": entry["move"], "events": entry["events"], "redacted": False} for entry in logged]
    else:
        shown.update(salt=None, seed=None)
        first = None if start is None else game.view(start, seat)
        last = game.view(state, seat)
        # The options as a view of the first state shows them (nothing before the deal).
        options = None if first is None else first["options"]
        revealed = information.revealed_keys(logged)
        moves = [render(entry, seat, revealed) for entry in logged]
    names = seat_names(meta)
    moves = [with_player_name(entry, names) for entry in moves]
    return {"format": FORMAT, "id": match_id, "game": game.id, "rules_version": game.rules_version,
            "players": meta["players"], "names": names, "seat": seat, "version": version,
            "complete": outcome.finished,
            "options": options, "seeding": shown, "start": first, "moves": moves,
            "final": {"state": last, "scores": game.visible_scores(state, seat, sheet),
                      "outcome": outcome.to_json()}}
