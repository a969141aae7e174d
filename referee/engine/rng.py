"""The portable seeded generator (documented in docs/rng.md).

Every chance event of every game (shuffles, draws, coin flips) comes from this generator, so
that a client in any language reproduces a deal from its seed. Its whole state is two JSON
values, ``{"seed": str, "counter": int}``, kept inside the game state.

Algorithm, block ``i`` (``i`` = counter, starting at 0):

    digest_i = SHA-256( UTF-8(seed) || 0x00 || uint64_big_endian(i) )
    u64_i    = first 8 bytes of digest_i, read big-endian

``below(n)`` draws u64 values until one is ``< 2**64 - (2**64 % n)`` and returns it ``% n``
(rejection sampling, no modulo bias). ``shuffle`` is Fisher-Yates from the last index down to
1 with ``j = below(i + 1)``. ``coin()`` is ``below(2)``.
"""

from __future__ import annotations

import hashlib
import struct

_TWO_64 = 1 << 64


class Rng:
    """A position in the seeded stream: ``seed`` (any string) and ``counter`` (blocks used, >= 0)."""

    __slots__ = ("seed", "counter", "_prefix")

    def __init__(self, seed: str, counter: int = 0) -> None:
        self.seed = seed
        self.counter = counter
        self._prefix = seed.encode("utf-8") + b"\x00"

    @classmethod
    def from_state(cls, data: dict) -> "Rng":
        """Build from ``{"seed": str, "counter": int}`` as stored in a game state."""
        return cls(data["seed"], data["counter"])

    def to_state(self) -> dict:
        """The JSON form stored in a game state: ``{"seed": str, "counter": int}``."""
        return {"seed": self.seed, "counter": self.counter}

    def next_u64(self) -> int:
        """The next 64-bit unsigned value of the stream; advances the counter by one."""
        digest = hashlib.sha256(self._prefix + struct.pack(">Q", self.counter)).digest()
        self.counter += 1
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; ``n`` must be >= 1 (ValueError otherwise)."""
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        limit = _TWO_64 - (_TWO_64 % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def shuffle(self, items: list) -> list:
        """Shuffle ``items`` in place (Fisher-Yates, last index first) and return it."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def coin(self) -> int:
        """A fair coin: 0 or 1 (each game says which face each value means)."""
        return self.below(2)
