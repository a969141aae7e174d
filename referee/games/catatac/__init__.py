"""CATATAC: pure rules in rules.py, card data in cards.py, HTTP schemas in schema.py."""

from referee.games.catatac.rules import Catatac

GAME = Catatac()
