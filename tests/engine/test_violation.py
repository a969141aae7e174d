"""A Violation is a value: read-only, equal when its fields are, with its parameters filled
into its English message."""

import dataclasses

import pytest

from referee.engine.core import Violation
from referee.games.catatac.messages import MESSAGES, rule_violation


def test_fields_equality_and_text():
    violation = Violation("CARD_NOT_IN_HAND", "{card} is not in your hand", "1. Play a Paw Card", {"card": "P1"})
    assert (violation.code, violation.rule, violation.params) == ("CARD_NOT_IN_HAND", "1. Play a Paw Card",
                                                                  {"card": "P1"})
    assert violation.text() == "P1 is not in your hand"
    assert violation == Violation("CARD_NOT_IN_HAND", "{card} is not in your hand", "1. Play a Paw Card",
                                  {"card": "P1"})
    assert violation != Violation("CARD_NOT_IN_HAND", "{card} is not in your hand", "1. Play a Paw Card",
                                  {"card": "P2"})
    assert Violation("X", "m", "r").params == {} == Violation("X", "m", "r", None).params
    assert repr(Violation("X", "m", "r")) == "Violation(code='X', message='m', rule='r', params={})"


def test_read_only():
    violation = Violation("X", "m", "r")
    with pytest.raises(dataclasses.FrozenInstanceError):
        violation.code = "Y"  # type: ignore[misc]
    assert [f.name for f in dataclasses.fields(violation)] == ["code", "message", "rule", "params"]


def test_a_game_builds_them_from_its_table():
    message, rule = MESSAGES["STASH_ENDS_TURN"]
    assert rule_violation("STASH_ENDS_TURN") == Violation("STASH_ENDS_TURN", message, rule, {})
