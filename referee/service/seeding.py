"""Where a match's seed comes from, and the commitment that binds the referee to it
(docs/rng.md, "Commitment"). Pure apart from drawing random values.

- ``referee``: the referee draws the seed and a salt; every reader sees the commitment from
  version 0, and the match's record reveals seed and salt once the game is over.
- ``creator``: the creation request named the seed; nothing is committed (the creator chose
  the deal, and says so by naming it).
- ``joint``: as ``referee``, and the game is set up only once every seat has sent a
  contribution, from a seed derived from the referee's and theirs (referee/engine/joint.py).

What a match keeps in its meta (never shown as it is): ``{"mode", "salt", "commitment",
"seed"}``; with ``joint`` the seed is the referee's, from which the deal's seed is derived.
"""

from __future__ import annotations

import hashlib
import secrets

from referee.engine.joint import Seeded, is_pending
from referee.games import GAMES
from referee.service.errors import InvalidRequest
from referee.service.texts import Text

SALT_BYTES = 16
MODES = ("referee", "creator", "joint")
_PLAIN = {game_id: Seeded(game) for game_id, game in GAMES.items()}


def commitment(seed: str, salt_hex: str) -> str:
    """Lowercase hex SHA-256 of ``salt || 0x00 || UTF-8(seed)``, ``salt`` the 16 bytes that
    ``salt_hex`` (32 hex digits) spells. Raises ValueError for a salt that is not hex."""
    return hashlib.sha256(bytes.fromhex(salt_hex) + b"\x00" + seed.encode("utf-8")).hexdigest()


def draw(seed: str | None, joint: bool = False) -> tuple[str, dict]:
    """``(seed, kept)``: the seed to deal with and what the match keeps of its seeding. With no
    ``seed`` the referee draws one (32 hex digits, 128 bits) and a salt, and commits to both;
    ``joint`` is never given with a ``seed``."""
    if seed is not None:
        return seed, {"mode": "creator", "salt": None, "commitment": None, "seed": seed}
    seed, salt = secrets.token_hex(16), secrets.token_hex(SALT_BYTES)
    return seed, {"mode": "joint" if joint else "referee", "salt": salt, "commitment": commitment(seed, salt),
                  "seed": seed}


def check_request(seed: str | None, seeding: str | None) -> None:
    """Raise InvalidRequest (422, pointer ``/seeding``) for a creation request naming both a
    seed and a seeding: the referee commits to a seed only when it draws it."""
    if seed is not None and seeding is not None:
        raise InvalidRequest(Text("A seed named by the creation request is the creator's choice: the referee draws "
                                  "and commits to the seed only without one. Send seeding without seed."),
                             [("/seeding", Text("not with seed"))])


def game_of(meta: dict) -> Seeded:
    """The game a match plays (referee/engine/joint.py): its pending state and contributions
    with joint seeding, else the game alone (contributions are then illegal)."""
    kept = meta.get("seeding") or {}
    if kept.get("mode") != "joint":
        return _PLAIN[meta["game"]]
    return Seeded(GAMES[meta["game"]], True, kept["seed"], meta["options"])


def dealt(before: dict, after: dict) -> dict:
    """What the log entry of a move keeps beyond the log: ``{"start": after}`` for the
    contribution that dealt the cards (a jointly seeded match's first state), else nothing."""
    return {"start": after} if is_pending(before) and not is_pending(after) else {}


def first_state(meta: dict, logged: list[dict]) -> dict | None:
    """The game's first state: dealt again from the kept seed and options (``Game.setup`` is
    pure), or with joint seeding the one kept with the contribution that dealt it (None
    before). None for a match that kept no seed."""
    kept = meta.get("seeding") or {}
    if kept.get("mode") == "joint":
        return next((entry["start"] for entry in logged if "start" in entry), None)
    if "seed" not in kept:
        return None
    return GAMES[meta["game"]].setup(meta["players"], kept["seed"], meta["options"])


def public(kept: dict | None) -> dict:
    """What every reader sees of a match's seeding at any version: ``{"mode", "commitment"}``
    (``mode`` null for a match that kept no seeding)."""
    kept = kept or {}
    return {"mode": kept.get("mode"), "commitment": kept.get("commitment")}
