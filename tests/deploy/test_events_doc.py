"""docs/reference/events.md lists every event type and field the verdicts carry (it cannot drift).

Random complete games of every game, once with each option and booster, driven by
legal_moves; every event produced must have its type documented under its game, and every
field (and every key of objects inside a list field, such as ``toys_revealed.slots``) must be
a row of that event's table.
"""

import random
import re
from pathlib import Path

import pytest

from referee.engine import information
from referee.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "reference" / "events.md"

# (game id, setup options): each variant, booster and chance mode once; seeds and player counts vary.
CONFIGS = [
    ("catatac", {}),
    ("catatac", {"deck_hockey": True}),
    ("catatac", {"kittens": True}),
    ("catatac", {"marathon": True}),
    ("catatac", {"seat0_clan": "black", "first_player": 1}),
    ("catatac", {"boosters": ["distraction"]}),
    ("catatac", {"boosters": ["alpha"]}),
    ("catatac", {"boosters": ["momentum"]}),
    ("catatac", {"boosters": ["distraction", "alpha", "momentum"], "deck_hockey": True}),
    ("catatac", {"chance": "table"}),
    ("call-of-katulhu", {}),
    ("call-of-katulhu", {"advanced": True}),
    ("call-of-katulhu", {"chance": "table"}),
    ("scratch-and-catch", {}),
    ("scratch-and-catch", {"scratch_cards_score": False}),
    ("scratch-and-catch", {"chance": "table"}),
]
GAMES_PER_CONFIG = 2
MAX_MOVES = 3000


def documented() -> dict[str, dict[str, set[str]]]:
    """``{game id: {event type: {field names}}}`` from the doc's headings and tables: a game is
    a ``## Title (`id`)`` heading, an event a ``### `type` `` heading, a field a table row whose
    first cell is a backticked name."""
    games: dict[str, dict[str, set[str]]] = {}
    game = event = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^## .*\(`([a-z-]+)`\)\s*$", line)
        if heading:
            game, event = heading.group(1), None
            games[game] = {}
            continue
        if line.startswith("## "):
            game = event = None
            continue
        heading = re.match(r"^### `([a-z_]+)`\s*$", line)
        if heading and game is not None:
            event = heading.group(1)
            games[game][event] = set()
            continue
        row = re.match(r"^\| `([a-z_]+)` \|", line)
        if row and game is not None and event is not None:
            games[game][event].add(row.group(1))
    return games


def play_random_game(game_id: str, options: dict, seed: int) -> list[dict]:
    """Every event of one random complete game."""
    game = GAMES[game_id]
    chooser = random.Random(seed)
    players = chooser.choice(game.player_counts)
    if options.get("first_player", 0) >= players:
        options = dict(options, first_player=0)
    state = game.setup(players, f"events-doc-{seed}", options)
    events: list[dict] = []
    for _ in range(MAX_MOVES):
        moves = game.legal_moves(state)
        if not moves:
            break
        move = chooser.choice(moves)
        verdict = game.adjudicate(state, move, checked=True)
        assert verdict.legal, verdict.violations
        information.disclose(game.disclosure, state, move, verdict.events)   # KeyError: undeclared
        events.extend(verdict.events)
        state = verdict.state
    assert state["finished"]
    return events


def fields_of(event: dict) -> set[str]:
    """The event's keys, and the keys of objects inside its list fields."""
    names = set(event)
    for value in event.values():
        if isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    names.update(item)
    return names


def test_doc_parses_into_every_registered_game():
    doc = documented()
    assert set(doc) == set(GAMES)
    for game_id, events in doc.items():
        assert events, game_id
        for event, names in events.items():
            assert "type" in names, f"{game_id} {event}: the table lists no type row"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_documented_event_type_is_declared_for_its_readers(game_id):
    """Each game declares what readers see of exactly the event types documented here."""
    assert set(GAMES[game_id].disclosure.events) == set(documented()[game_id])


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_documented_event_type_is_built_by_the_rules(game_id):
    """The reverse direction, by reading the source of the game's rules (every module of its
    package but the schema): no documented event type is stale."""
    package = ROOT / Path(*GAMES[game_id].__class__.__module__.split(".")[:-1])
    source = "".join(path.read_text(encoding="utf-8") for path in sorted(package.glob("*.py"))
                     if path.name != "schema.py")
    for event in documented()[game_id]:
        assert f'"type": "{event}"' in source, f"{game_id}: {event} is documented but never built"


@pytest.mark.parametrize("game_id,options", CONFIGS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(CONFIGS)])
def test_every_event_produced_is_documented(game_id, options):
    doc = documented()[game_id]
    for index in range(GAMES_PER_CONFIG):
        seed = CONFIGS.index((game_id, options)) * 100 + index
        for event in play_random_game(game_id, options, seed):
            kind = event["type"]
            assert kind in doc, f"{game_id}: event type {kind} is not in docs/reference/events.md"
            missing = fields_of(event) - doc[kind]
            assert not missing, f"{game_id} {kind}: fields {sorted(missing)} are not in docs/reference/events.md"
