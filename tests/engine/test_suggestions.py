"""The ranking of suggestions (referee/engine/suggestions.py): tier, then the number of values
that differ, then the listing's order."""

from referee.engine.suggestions import closest


def _play(card, source="hand", **more):
    return {"type": "play", "player": 0, "source": source, "card": card, **more}


def test_the_same_card_with_other_choices_comes_first_then_the_same_choices_with_another_card():
    proposed = _play("C5-1", source="pile")
    listed = [
        {"type": "draw", "player": 0},                 # another type: tier 3
        _play("C7-1", source="hand"),                  # another card and another choice: tier 2
        _play("C6-1", source="pile"),                  # the same choices, another card: tier 1
        _play("C5-1", source="hand"),                  # the same card, another choice: tier 0
    ]
    assert closest(proposed, listed) == [listed[3], listed[2], listed[1]]
    assert closest(proposed, listed, limit=4)[3] == listed[0]


def test_ties_keep_the_listing_order_and_at_most_three_are_given():
    listed = [_play(f"C{value}-1") for value in (9, 3, 4, 8)]
    assert closest(_play("C1-1"), listed) == listed[:3]
    assert closest(_play("C1-1"), []) == []


def test_fewer_differing_values_rank_first_within_a_tier():
    # A Call of Katulhu placement: the one differing in one slot before the one differing in two.
    proposed = {"type": "place", "player": 0, "toys": ["yarn", "yarn", "mouse", "laser"]}
    two_slots = {"type": "place", "player": 0, "toys": ["box", "feather", "mouse", "laser"]}
    one_slot = {"type": "place", "player": 0, "toys": ["yarn", "feather", "mouse", "laser"]}
    assert closest(proposed, [two_slots, one_slot], card_fields=("cat",)) == [one_slot, two_slots]
    # A CATATAC pair: another direction alone before another action and direction.
    pair = {"type": "play", "player": 0, "card": "P4-1", "pair": {"action": "movement", "direction": "black"},
            "block": None, "order": None}
    far = dict(pair, pair={"action": "steal", "direction": None})
    near = dict(pair, pair={"action": "movement", "direction": "white"})
    assert closest(pair, [far, near]) == [near, far]


def test_a_value_the_table_fills_in_matches_any_value_proposed():
    listed = [_play("C2-1"), {"type": "play", "player": 0, "source": "pile", "card": None, "table_fills": ["card"]}]
    # A card named from the pile: the listed pile play (its card filled in by the table) is the closest.
    assert closest(_play("C5-1", source="pile"), listed)[0] is listed[1]
    # A null the table does not fill is a value like any other.
    unfilled = {"type": "play", "player": 0, "source": "pile", "card": None}
    assert closest(_play("C5-1", source="pile"), [_play("C2-1"), unfilled]) == [unfilled, _play("C2-1")]


def test_the_card_fields_are_the_games():
    proposed = {"type": "discard", "player": 1, "cat": "black-3"}
    listed = [{"type": "discard", "player": 1, "cat": "white-1"}, {"type": "reveal", "player": 1, "cat": "black-3"}]
    assert closest(proposed, listed, card_fields=("cat",)) == listed
    # A decline's points card is CATATAC's card: the same card with other coins first.
    decline = {"type": "decline", "player": 0, "points_card": "green-2", "coins": ["white"]}
    other_card = {"type": "decline", "player": 0, "points_card": "green-3", "coins": ["black"]}
    other_coins = {"type": "decline", "player": 0, "points_card": "green-2", "coins": ["black"]}
    assert closest(decline, [other_card, other_coins], card_fields=("card", "points_card")) == [other_coins,
                                                                                                  other_card]
