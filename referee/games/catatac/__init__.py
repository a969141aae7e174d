"""CATATAC: the game class in rules.py, its rules in one module per rulebook section (named in
each module's docstring), card data in cards.py, HTTP schemas in schema.py."""

from referee.games.catatac.rules import Catatac

GAME = Catatac()
