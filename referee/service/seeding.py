"""Where a match's seed comes from, and the commitment that binds the referee to it
(docs/rng.md, "Commitment"). Pure apart from drawing random values.

- ``referee``: the referee draws the seed and a salt; every reader sees the commitment from
  version 0, and the match's record reveals seed and salt once the game is over.
- ``creator``: the creation request named the seed; nothing is committed (the creator chose
  the deal, and says so by naming it).
- ``joint``: as ``referee``, and the game is set up only once every seat has sent a
  contribution, from a seed derived from the referee's and theirs (referee/engine/joint.py).

What a match keeps in its meta (never shown as it is): ``{"mode", "salt", "commitment"}``,
and with ``joint`` the referee's ``seed``; otherwise the seed lives in the state's generator
(``state["rng"]["seed"]``).
"""

from __future__ import annotations

import hashlib
import secrets

from referee.engine.joint import Seeded, is_pending
from referee.games import GAMES

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
    ``joint`` (never with a ``seed``) keeps the seed in ``kept`` for the deal to come."""
    if seed is not None:
        return seed, {"mode": "creator", "salt": None, "commitment": None}
    seed, salt = secrets.token_hex(16), secrets.token_hex(SALT_BYTES)
    kept = {"mode": "joint" if joint else "referee", "salt": salt, "commitment": commitment(seed, salt)}
    if joint:
        kept["seed"] = seed
    return seed, kept


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


def revealed_seed(kept: dict, start: dict | None) -> str | None:
    """The seed a complete record reveals: the referee's with joint seeding (the deal comes
    from the seed derived from it), else the first state's generator seed."""
    if kept.get("mode") == "joint":
        return kept.get("seed")
    return (start or {}).get("rng", {}).get("seed")


def public(kept: dict | None) -> dict:
    """What every reader sees of a match's seeding at any version: ``{"mode", "commitment"}``
    (``mode`` null for a match that kept no seeding)."""
    kept = kept or {}
    return {"mode": kept.get("mode"), "commitment": kept.get("commitment")}
