"""Call of Katulhu: pure rules in rules.py, card data in cards.py, HTTP schemas in schema.py."""

from referee.games.call_of_katulhu.rules import CallOfKatulhu

GAME = CallOfKatulhu()
