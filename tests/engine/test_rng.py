"""The seeded generator follows docs/rng.md exactly (checked against an independent implementation)."""

import hashlib
import struct

import pytest

from referee.engine.rng import Rng
from referee.games.scratch_and_catch import GAME as SCRATCH_AND_CATCH
from referee.games.scratch_and_catch.cards import deck_ids


def reference_blocks(seed):
    """docs/rng.md written again from the text, the way a client in another language would."""
    counter = 0
    while True:
        digest = hashlib.sha256(seed.encode() + b"\x00" + struct.pack(">Q", counter)).digest()
        counter += 1
        yield int.from_bytes(digest[:8], "big")


def reference_shuffle(seed, items):
    blocks = reference_blocks(seed)
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = 2**64 - (2**64 % n)
        x = next(blocks)
        while x >= limit:
            x = next(blocks)
        j = x % n
        items[i], items[j] = items[j], items[i]
    return items


def test_first_block_of_the_documented_example():
    assert Rng("referee").next_u64() == 0x5A0A1F438E00BE8E == 6488032588186304142


def test_documented_shuffle_example():
    rng = Rng("referee")
    assert rng.shuffle(list(range(10))) == [1, 8, 5, 0, 7, 4, 3, 9, 6, 2]
    assert rng.counter == 9


@pytest.mark.parametrize("seed", ["referee", "", "日本語", "x" * 150])
def test_blocks_match_the_reference(seed):
    blocks = reference_blocks(seed)
    rng = Rng(seed)
    assert [rng.next_u64() for _ in range(20)] == [next(blocks) for _ in range(20)]


def test_below_is_in_range_and_state_resumes():
    rng = Rng("s")
    values = [rng.below(6) for _ in range(200)]
    assert set(values) == set(range(6))
    resumed = Rng.from_state(Rng("s").to_state())
    assert [resumed.below(6) for _ in range(200)] == values
    with pytest.raises(ValueError):
        rng.below(0)


def test_scratch_and_catch_deal_is_reproducible_from_the_seed():
    """A known deal for a known seed: docs/rng.md, 'How each game uses it'."""
    deck = reference_shuffle("table-7", deck_ids((5, 6, 7, 7, 7, 7, 7, 7, 6, 5), (1, 1, 1, 1, 2, 2, 1, 1, 1, 1)))
    state = SCRATCH_AND_CATCH.setup(3, "table-7")
    assert [p["hand"] for p in state["players"]] == [deck[0:12:3], deck[1:12:3], deck[2:12:3]]
    assert sorted(c for pile in state["line"] for c in pile["cards"]) == sorted(deck[12:16])
    assert state["draw_pile"] == deck[16:]
    # Pinned: if this changes, every client's deals change with it.
    assert state["players"][0]["hand"] == PINNED_SEAT_0


# Seat 0's hand for seed "table-7", 3 players, default deck (from the reference shuffle above).
PINNED_SEAT_0 = ["C7-6", "C5-5", "C1-2", "C8-6"]
