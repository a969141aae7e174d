"""Where a match's seed comes from, and the commitment that binds the referee to it
(docs/rng.md, "Commitment"). Pure apart from drawing random values.

- ``referee``: the referee draws the seed and a salt; every reader sees the commitment from
  version 0, and the match's record reveals seed and salt once the game is over.
- ``creator``: the creation request named the seed; nothing is committed (the creator chose
  the deal, and says so by naming it).

What a match keeps in its meta (never shown as it is): ``{"mode", "salt", "commitment"}``;
the seed itself lives in the state's generator (``state["rng"]["seed"]``).
"""

from __future__ import annotations

import hashlib
import secrets

SALT_BYTES = 16
MODES = ("referee", "creator")


def commitment(seed: str, salt_hex: str) -> str:
    """Lowercase hex SHA-256 of ``salt || 0x00 || UTF-8(seed)``, ``salt`` the 16 bytes that
    ``salt_hex`` (32 hex digits) spells. Raises ValueError for a salt that is not hex."""
    return hashlib.sha256(bytes.fromhex(salt_hex) + b"\x00" + seed.encode("utf-8")).hexdigest()


def draw(seed: str | None) -> tuple[str, dict]:
    """``(seed, kept)``: the seed to deal with and what the match keeps of its seeding. With no
    ``seed`` the referee draws one (32 hex digits, 128 bits) and a salt, and commits to both."""
    if seed is not None:
        return seed, {"mode": "creator", "salt": None, "commitment": None}
    seed, salt = secrets.token_hex(16), secrets.token_hex(SALT_BYTES)
    return seed, {"mode": "referee", "salt": salt, "commitment": commitment(seed, salt)}


def public(kept: dict | None) -> dict:
    """What every reader sees of a match's seeding at any version: ``{"mode", "commitment"}``
    (``mode`` null for a match that kept no seeding)."""
    kept = kept or {}
    return {"mode": kept.get("mode"), "commitment": kept.get("commitment")}
