"""Scratch & Catch: pure rules in rules.py, HTTP schemas in schema.py."""

from referee.games.scratch_and_catch.rules import ScratchAndCatch

GAME = ScratchAndCatch()
