"""Every move and event of the three games, as the table page tells them (sentences.js), in
English and Japanese: random complete games of every option (tests/deploy/test_events_doc.py)
give the moves and events; each must read as a sentence in players' words (no identifier, card
id, JSON, stray null), and every event type docs/reference/events.md lists has its own sentence."""

from __future__ import annotations

import json
import random
import re
from contextlib import contextmanager
from pathlib import Path

from referee.games import GAMES
from tests.browser.players import FORBIDDEN, TIMEOUT_MS
from tests.deploy.test_events_doc import CONFIGS, documented

SENTENCES = Path(__file__).resolve().parents[2] / "referee" / "table" / "sentences.js"
# Joint seeding's events (docs/reference/events.md, "Joint seeding") come from a match, not a game.
JOINT = [{"type": "contributed", "player": 1, "digest": "ab" * 32}, {"type": "dealt"}]
# Events the sampled games happen not to produce, written from their rows in docs/reference/events.md.
RARE = {
    "catatac": [{"type": "alpha_cards_to_show", "players": [0, 2]},
                {"type": "alpha_shown", "player": 0, "card": "manx"},
                {"type": "cooperation", "player": 2, "skipped": 0},
                {"type": "pair_forfeited", "player": 0, "action": "steal"}, {"type": "replay_lost", "player": 1},
                {"type": "skip_cancelled", "player": 1}, {"type": "turn_passed", "player": 1, "reason": "no_cards"}],
    "call-of-katulhu": [],
    "scratch-and-catch": [{"type": "turn_passed", "player": 2, "reason": "no_cards"}],
}

TELL = """async ([game, language, events, moves]) => {
  const W = window.TableWords, S = window.TableSentences;
  const answer = await fetch(`/v1/games/${game}`, {headers: {"Accept-Language": language}});
  const info = await answer.json();
  const t = (k, p) => W.fill(W.TEXT[language][k] ?? W.TEXT.en[k] ?? k, p);
  const s = (k, p) => W.fill(W.SENTENCES[language][k] ?? W.SENTENCES.en[k] ?? k, p);
  const card = (id) => (info.cards && info.cards[id] && info.cards[id].name)
    || W.fallbackCardName(language, game, id, info.catalogue);
  const ctx = {t, s, seat: (n) => t("seat", {seat: n + 1}), card, game};
  return {events: events.map((e) => S.event(ctx, e)), moves: moves.map((m) => S.move(ctx, m, [])),
          other: s("ev.other"), unknown: t("unknown")};
}"""


@contextmanager
def _sentences_page(browser, service_url: str):
    """The table page, loaded with its words and sentences, in a context of its own."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(f"{service_url}/table")
        page.wait_for_function("window.TableSentences !== undefined")
        yield page
    finally:
        context.close()


def shape(item: dict) -> str:
    """What makes a sentence differ: the type, which fields are set, and the words among the
    values (a reason, a source, a pair's action, a card); not the numbers nor the lists."""
    return json.dumps({name: (value if isinstance(value, str) else
                              shape(value) if isinstance(value, dict) else value is None)
                       for name, value in item.items()}, sort_keys=True)


def sample(game_id: str, options: dict, seed: int) -> tuple[list[dict], list[dict]]:
    """The distinct moves and events of one random complete game."""
    game = GAMES[game_id]
    chooser = random.Random(seed)
    players = chooser.choice(game.player_counts)
    if options.get("first_player", 0) >= players:
        options = dict(options, first_player=0)
    state = game.setup(players, f"sentences-{seed}", options)
    moves: dict[str, dict] = {}
    events: dict[str, dict] = {}
    for _ in range(3000):
        legal = game.legal_moves(state)
        if not legal:
            break
        move = chooser.choice(legal)
        verdict = game.adjudicate(state, move, checked=True)
        moves.setdefault(shape(move), move)
        for event in verdict.events:
            events.setdefault(shape(event), event)
        state = verdict.state
    return list(moves.values()), list(events.values())


def test_every_event_type_in_the_doc_has_its_own_sentence():
    source = SENTENCES.read_text(encoding="utf-8")
    told = set(re.findall(r'case "([a-z_]+)":', source))
    for game_id, events in documented().items():
        assert set(events) <= told, game_id
    assert {"contributed", "dealt"} <= told


def test_every_move_and_event_reads_as_a_sentence_in_both_languages(service_url, browser):
    by_game: dict[str, tuple[list, list]] = {}
    for index, (game_id, options) in enumerate(CONFIGS):
        moves, events = sample(game_id, options, index)
        known_moves, known_events = by_game.setdefault(game_id, ([], []))
        known_moves.extend(moves)
        known_events.extend(events)
    with _sentences_page(browser, service_url) as page:
        for game_id, (moves, events) in by_game.items():
            events = [*events, *RARE[game_id], *JOINT]
            assert {event["type"] for event in events} >= set(documented()[game_id])
            told = {language: page.evaluate(TELL, [game_id, language, events, moves]) for language in ("en", "ja")}
            for language, answer in told.items():
                for original, text in [*zip(events, answer["events"]), *zip(moves, answer["moves"])]:
                    assert text and text != answer["other"], (language, original)
                    assert answer["unknown"] not in text, (language, original, text)
                    assert not re.match(r"^(ev|move|pair|block|order)\.", text), (language, text)
                    for name, pattern in FORBIDDEN.items():
                        assert not pattern.search(text), (language, name, original, text)
            # Japanese is its own text, not English left in place.
            for english, japanese in zip(told["en"]["events"], told["ja"]["events"]):
                assert english != japanese


LOGGED = TELL.replace("S.move(ctx, m, [])", "S.move(ctx, m, [], true)")


def test_the_log_tells_a_seats_move_without_your(service_url, browser):
    """The log heads each entry with the mover's name ("Ana: ..."), read by every seat: a move
    told there speaks of no "your" hand, card or share, as its button to the mover does."""
    moves = [{"type": "play", "player": 0, "source": "hand", "card": "C7-1"},
             {"type": "show", "player": 1, "card": "manx"},
             {"type": "contribute", "player": 1, "contribution": "ab" * 16}]
    games = ["scratch-and-catch", "catatac", "catatac"]
    with _sentences_page(browser, service_url) as page:
        buttons = [page.evaluate(TELL, [game, "en", [], [move]])["moves"][0] for game, move in zip(games, moves)]
        logged = [page.evaluate(LOGGED, [game, "en", [], [move]])["moves"][0] for game, move in zip(games, moves)]
        assert buttons == ["Play Cat 7 from your hand", "Show your alpha card Manx", "Add your share to the shuffle"]
        assert logged == ["Play Cat 7 from hand", "Show alpha card Manx", "Add a share to the shuffle"]


def test_a_scratch_on_one_player_says_takes_and_on_several_each_take(service_url, browser):
    """Scratch & Catch's scratch event (rulebook "Scratch!"): every player but the scratcher
    takes fleas, so with 2 players one player takes them, with 3 or more each of them does."""
    events = [{"type": "scratch", "player": 0, "players": [1], "fleas_each": 1},
              {"type": "scratch", "player": 0, "players": [1], "fleas_each": 2},
              {"type": "scratch", "player": 0, "players": [1, 2], "fleas_each": 1},
              {"type": "scratch", "player": 0, "players": [1, 2], "fleas_each": 2}]
    with _sentences_page(browser, service_url) as page:
        told = {language: page.evaluate(TELL, ["scratch-and-catch", language, events, []])["events"]
                for language in ("en", "ja")}
        assert told["en"] == ["Scratch! Seat 2 takes 1 flea.", "Scratch! Seat 2 takes 2 fleas.",
                              "Scratch! Seat 2 and Seat 3 each take 1 flea.",
                              "Scratch! Seat 2 and Seat 3 each take 2 fleas."]
        assert [("ずつ" in text) for text in told["ja"]] == [False, False, True, True]


def test_a_stack_reads_stacked_on_the_value(service_url, browser):
    """Scratch & Catch's stack event (Game Progress: a card placed on a card of the same value):
    "stacked on the 8", never "a 8"."""
    events = [{"type": "stack", "player": 0, "value": 8, "collected": ["C7-1", "C9-2"]},
              {"type": "stack", "player": 1, "value": 8, "collected": []}]
    with _sentences_page(browser, service_url) as page:
        told = page.evaluate(TELL, ["scratch-and-catch", "en", events, []])["events"]
        assert told == ["Seat 1 stacked on the 8 and collected Cat 7 and Cat 9.",
                        "Seat 2 stacked on the 8; there was nothing beside it to collect."]
