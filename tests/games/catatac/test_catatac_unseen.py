"""CATATAC with unseen hands (``options.hands: "unseen"``, table chance; base game, Deck Hockey,
Kittens, Marathon and the three boosters).

Shadow games: a random complete game is played with the seeded generator (full information),
and beside it the same game in the unseen mode, told only what a table sees: the kind of each
card played, the coin faces, and the points card taken when a stash succeeds. At every step
both verdicts are legal, and the public parts of the two states, the events, the scores and
the outcome agree, card ids read as their kinds. In a Marathon the referee deals each next
game from its generator in both modes, from different positions (the seeded game has used it
for its coins): there the deal-independent parts are compared, and the table then lays out the
card turned and the coin of the seeded game's deal (docs/rules-notes.md). With the Alpha
booster each alpha card lies face down: the table names one when it is played, and those still
face down when a game ends are shown (phase ``show``) before it is scored; the seeded game's
``game_over`` then follows the last one shown.
"""

from __future__ import annotations

import os
import random

import pytest

from referee.engine.core import InvalidOptions, InvalidState
from referee.games.catatac import GAME
from referee.games.catatac.cards import alpha_pile, kind_counts, kind_of
from tests.support.pointers import replace

SHADOW_GAMES = int(os.environ.get("REFEREE_SHADOW_GAMES", "100"))
SLOW_SHADOW_GAMES = 300   # -m slow
UNSEEN = {"chance": "table", "hands": "unseen"}


def _alpha(player: dict, finished: bool) -> dict:
    """What a table sees of a seat's alpha card: whether one lies in front of it, and which once
    the game is over (shown)."""
    if "alpha" not in player:
        return {}
    held = player.get("has_alpha", player["alpha"] is not None)
    return {"has_alpha": held, "alpha": player["alpha"] if finished else None}


def public(state: dict) -> dict:
    """What a table sees of a state, paw cards named by kind."""
    return {
        "players": [{"clan": p["clan"], "hand_size": len(p["hand"]), **_alpha(p, state["finished"])}
                    for p in state["players"]],
        "ball": state["ball"], "discard": [kind_of(card) for card in state["discard"]],
        "paw_deck": len(state["paw_deck"]), "points_deck": len(state["points_deck"]), "points": state["points"],
        "box": len(state.get("box", ())), "alpha_aside": len(state.get("alpha_aside", ())),
        "skip": state.get("skip"),
        "turn": state["turn"], "stash": state["stash"], "marathon": state["marathon"], "finished": state["finished"],
    }


def _kinds(events: list[dict]) -> list[dict]:
    return [dict(e, card=kind_of(e["card"])) if e["type"] == "card_played" else e for e in events]


def _show_alphas(seeded: dict, unseen, events: list[dict]):
    """The game has ended with alpha cards face down: the table shows each (the seeded game's
    card, held until the end), in seat order from the last. Returns the final verdict and
    every event, the showing ones left out."""
    to_show = [e for e in unseen.events if e["type"] == "alpha_cards_to_show"]
    holders = [s for s, p in enumerate(seeded["players"]) if p["alpha"] is not None]
    assert to_show == [{"type": "alpha_cards_to_show", "players": holders}]
    assert unseen.state["turn"] == {"player": holders[0], "phase": "show"} and not unseen.outcome.finished
    assert GAME.legal_moves(unseen.state) == [
        {"type": "show", "player": s, "card": card, "table_fills": ["card"]} for s in holders
        for card in _face_down_kinds(unseen.state, s)]
    verdict = unseen
    for seat in reversed(holders):
        shown = seeded["players"][seat]["alpha"]
        verdict = GAME.adjudicate(verdict.state, {"type": "show", "player": seat, "card": shown}, checked=True)
        assert verdict.legal, verdict.violations
        assert verdict.events[0] == {"type": "alpha_shown", "player": seat, "card": shown}
        events += verdict.events[1:]
    return verdict, events


def _face_down_kinds(state: dict, seat: int) -> list[str]:
    """The alpha cards of the seat's clan pile not face up (on the discard pile or shown)."""
    boosters = tuple(state["options"].get("boosters", ()))
    seen = set(state["discard"]) | {p["alpha"] for p in state["players"]}
    return [c for c in alpha_pile(state["players"][seat]["clan"], boosters) if c not in seen]


def _table_move(before: dict, move: dict, verdict) -> dict:
    """The seeded move as a table names it: the card by kind, the coin faces seen, the points
    card taken."""
    faces = [e["colour"] for e in verdict.events if e["type"] == "coin_flipped"]
    if move["type"] == "play":
        table = {key: move[key] for key in ("type", "player", "pair", "block", "order")}
        table["card"] = kind_of(move["card"])
    else:
        table = {"type": "decline", "player": move["player"]}
        if any(e["type"] == "stash_succeeded" for e in verdict.events):
            # The card that left the points deck (a Marathon may deal a new game after it).
            taken = [card for card in before["points_deck"] if card not in verdict.state["points_deck"]]
            table["points_card"] = taken[0] if len(taken) == 1 else before["points_deck"][0]
    if faces:
        table["coins"] = faces
    return table


def _listed(table_move: dict, listed: list[dict]) -> bool:
    """Whether the unseen legal moves list ``table_move``, with every field the table named
    (card, coins, points card) marked in ``table_fills``."""
    named = {"card", "coins", "points_card"} & set(table_move)
    for move in listed:
        fills = set(move.get("table_fills", ()))
        if {k: v for k, v in move.items() if k != "table_fills"} == table_move and named <= fills:
            return True
    return False


def _lay_out(unseen: dict, seeded: dict) -> dict:
    """A Marathon's next game: the same deal-independent parts, then the seeded game's turned
    card and coin laid out at the table."""
    for key in ("paw_deck", "points_deck", "turn", "stash", "marathon", "points"):
        assert public(unseen)[key] == public(seeded)[key], key
    laid = dict(unseen, discard=[kind_of(card) for card in seeded["discard"]], ball=dict(seeded["ball"]))
    GAME.check_state(laid)
    return laid


def shadow_game(number: int) -> int:
    """Play shadow game ``number``; returns its number of moves. Asserts agreement at every step."""
    rnd = random.Random(number)
    players = (2, 4, 6)[number % 3]
    options = {"deck_hockey": rnd.random() < 0.4, "kittens": players < 6 and rnd.random() < 0.4,
               "marathon": number % 10 == 3,
               "seat0_clan": rnd.choice(("white", "black")), "first_player": rnd.randrange(players)}
    boosters = [b for b in ("distraction", "alpha", "momentum") if rnd.random() < 0.4]
    if boosters:
        options["boosters"] = boosters
    seed = f"shadow-{number}"
    seeded = GAME.setup(players, seed, {**options, "chance": "seeded"})
    unseen = GAME.setup(players, seed, {**options, **UNSEEN})
    assert public(unseen) == public(seeded)
    steps = 0
    while not seeded["finished"]:
        GAME.check_state(unseen)
        move = rnd.choice(GAME.legal_moves(seeded))
        verdict = GAME.adjudicate(seeded, move, checked=True)
        assert verdict.legal, (move, verdict.violations)
        table_move = _table_move(seeded, move, verdict)
        if steps % 4 == 0:   # the listing (every kind, choice and face) is the slow part: one step in 4
            assert _listed(table_move, GAME.legal_moves(unseen)), (number, steps, table_move)
        shadow = GAME.adjudicate(unseen, table_move, checked=True)
        assert shadow.legal, (number, steps, table_move, shadow.violations)
        events = list(shadow.events)
        if shadow.state["turn"]["phase"] == "show":
            events = [e for e in events if e["type"] != "alpha_cards_to_show"]
            shadow, events = _show_alphas(seeded, shadow, events)
        after = shadow.state
        if any(e["type"] == "new_game" for e in verdict.events):
            after = _lay_out(after, verdict.state)
        expected = public(verdict.state)
        if verdict.state["finished"] and any(e["type"] == "alpha_shown" for e in shadow.events):
            # After the showing, the game is over with the last seat that showed in turn.player.
            expected["turn"] = dict(expected["turn"], player=shadow.events[0]["player"])
        assert public(after) == expected, (number, steps, move)
        assert events == _kinds(verdict.events), (number, steps, move)
        assert shadow.scores == verdict.scores and shadow.outcome == verdict.outcome
        seeded, unseen = verdict.state, after
        steps += 1
    assert GAME.legal_moves(unseen) == []
    return steps


def test_shadow_games_agree_at_every_step():
    """SHADOW_GAMES complete games (100; REFEREE_SHADOW_GAMES sets another count) of 2, 4
    and 6 players, with Deck Hockey, Kittens, Marathon and the three boosters; 300 under slow."""
    moves = sum(shadow_game(number) for number in range(SHADOW_GAMES))
    assert moves > 20 * SHADOW_GAMES


@pytest.mark.slow
def test_shadow_games_agree_at_every_step_long():
    moves = sum(shadow_game(number) for number in range(SLOW_SHADOW_GAMES))
    assert moves > 20 * SLOW_SHADOW_GAMES


# -- the mode itself: the worked example of docs/guides/table.md ("Unseen hands") ----------------

NO_BLOCK = {"pair": None, "block": None, "order": None}
BLOCK = {"bars": [], "directions": []}


def _table(coin="white", discard="P4", **options):
    return GAME.setup(4, "table-1", {**UNSEEN, **options, "deal": {"discard": discard, "coin": coin}})


def _play(state, player, card, **choices):
    return GAME.adjudicate(state, {"type": "play", "player": player, "card": card, **NO_BLOCK, **choices})


def _codes(verdict):
    return [(v.code, v.rule) for v in verdict.violations]


def test_the_catalogue_lists_kinds_and_counts():
    """Setup: 58 paw cards; plain cards are 4 copies of each number, 2 identical Jokers."""
    kinds = {k["kind"]: k["count"] for k in GAME.catalogue()["kinds"]}
    assert sum(kinds.values()) == 58
    assert kinds["P3"] == 4 and kinds["joker"] == 2 and kinds["capture-2"] == 1
    assert {k: n for k, n in kinds.items() if n > 1} == {**{f"P{n}": 4 for n in range(1, 9)}, "joker": 2}


def test_setup_deals_unseen_hands_and_names_the_turned_card():
    """Setup: 6 cards per player, unseen; one card turned; the coin gives possession."""
    state = _table(coin="black", discard="P4-3")
    assert [p["hand"] for p in state["players"]] == [[None] * 6] * 4
    assert state["discard"] == ["P4"] and state["paw_deck"] == [None] * (58 - 24 - 1)
    assert state["ball"] == {"spot": "neutral_alley", "colour": "black"}
    with pytest.raises(InvalidOptions):
        GAME.setup(4, "s", {**UNSEEN, "deal": {"hands": [[]] * 4, "discard": "P4", "coin": "white"}})
    # Booster B: each player draws an alpha card of their clan's colour and keeps it face down;
    # with Alpha alone each clan's pile holds 3 (Angora and two cats), so 1 per clan is set aside.
    alpha = GAME.setup(4, "s", {**UNSEEN, "boosters": ["alpha"], "deal": {"discard": "P1", "coin": "white"}})
    assert [(p["alpha"], p["has_alpha"]) for p in alpha["players"]] == [(None, True)] * 4
    assert alpha["alpha_aside"] == [None, None] and alpha["box"] == []
    boxed = GAME.setup(4, "s", {**UNSEEN, "boosters": ["momentum"], "deal": {"discard": "P1", "coin": "white"}})
    assert boxed["box"] == [None, None] and len(boxed["paw_deck"]) == 58 + 8 - 2 - 24 - 1
    with pytest.raises(InvalidOptions):
        GAME.setup(4, "s", {"hands": "unseen"})   # seeded chance


def test_a_disputed_capture():
    """White holds the ball: a White player may not activate Capture (its condition is enemy
    possession, Activating the Action Block); once Black has played the only Capture 4, nobody
    can play it again; a fifth plain 4 cannot exist (1. Play a Paw Card)."""
    state = _table(coin="white")
    assert _codes(_play(state, 0, "capture-4", block=BLOCK)) == [("CONDITION_NOT_MET", "Activating the Action Block")]
    moved = _play(state, 0, "P4", pair={"action": "movement", "direction": "black"})
    assert moved.legal and moved.state["ball"] == {"spot": "black_alley", "colour": "white"}
    assert [p["hand"] for p in moved.state["players"]][0] == [None] * 6     # refilled, unseen
    captured = _play(moved.state, 1, "capture-4", block=BLOCK)
    assert captured.legal and captured.state["ball"] == {"spot": "black_alley", "colour": "black"}
    again = _play(captured.state, 2, "capture-4", block=BLOCK)
    assert _codes(again) == [("CARD_ALREADY_SEEN", "1. Play a Paw Card")]
    assert again.violations[0].text() == ("No capture-4 can still be unseen: the game has 1, all face up on the "
                                          "discard pile.")
    state = _play(captured.state, 2, "P4", pair={"action": "steal", "direction": None}).state
    state = _play(state, 3, "P4", pair={"action": "steal", "direction": None}).state
    assert state["discard"] == ["P4", "P4", "capture-4", "P4", "P4"]
    fifth = _play(state, 0, "P4", pair={"action": "steal", "direction": None})
    assert _codes(fifth) == [("CARD_ALREADY_SEEN", "1. Play a Paw Card")]
    assert fifth.violations[0].params == {"kind": "P4", "count": 4}
    listed = {m["card"] for m in GAME.seat_moves(state, 0)}
    assert "P4" not in listed and "capture-4" not in listed and "P3" in listed


def test_a_card_from_an_empty_hand_and_a_kind_the_variant_lacks():
    """Kittens: only cards numbered 1 to 5 (rules notes); a seat with no card cannot play."""
    state = _table(kittens=True, discard="P2")
    assert _codes(_play(state, 0, "P7")) == [("CARD_NOT_IN_GAME", "Setup")]
    state["players"][1]["hand"] = []
    state["paw_deck"].extend([None] * 6)
    GAME.check_state(state)
    cooperation = _play(state, 2, "P3")   # a teammate's card: cooperation is checked after the hand
    assert cooperation.violations
    assert _codes(GAME.adjudicate(state, {"type": "draw", "player": 0, "card": "P3"})) \
        == [("REFILL_UNSEEN", "3. Refilling Your Hand")]


def test_a_decline_is_always_possible_and_the_last_names_the_points_card():
    """Countering a Stash: whether the answering player holds a counter card is unknown to the
    table, so declining is always listed; the last decline names the points card and the coin."""
    state = _table(coin="white", discard="P3")
    # Charge moves the ball to the White alley, then the pair of 3s stashes from there.
    state = _play(state, 0, "charge-3", block={"bars": [], "directions": ["white"]},
                  pair={"action": "stash", "direction": None}, order="block_first").state
    assert state["turn"]["phase"] == "answer"
    assert state["stash"]["answer"] == [1, 3]
    moves = GAME.seat_moves(state, 1)
    assert {"type": "decline", "player": 1} in moves
    assert any(m["type"] == "play" and m["card"] == "stop-1" for m in moves)   # a counter card may be held
    state = GAME.adjudicate(state, {"type": "decline", "player": 1}).state
    moves = GAME.seat_moves(state, 3)
    assert {"type": "decline", "player": 3, "points_card": None, "coins": ["white"],
            "table_fills": ["points_card", "coins"]} in moves
    done = GAME.adjudicate(state, {"type": "decline", "player": 3, "points_card": "green", "coins": ["black"]})
    assert done.legal and done.state["points"]["white"] == ["green"]
    assert done.state["ball"] == {"spot": "neutral_alley", "colour": "black"}


@pytest.mark.parametrize("where, value, detail", [
    ("/players/0/hand/0", "P3-1", "with unseen hands a card in hand is null"),
    ("/paw_deck/0", "P3", "with unseen hands a card of the paw deck is null"),
    ("/discard/0", "P4-1", "with unseen hands cards are named by kind (P4), not id"),
])
def test_unseen_states_hold_only_face_up_cards(where, value, detail):
    state = _table()
    replace(state, where, value)
    with pytest.raises(InvalidState) as bad:
        GAME.check_state(state)
    assert (where, detail) in bad.value.errors


def test_more_copies_face_up_than_the_game_has_is_not_a_state():
    state = _table()
    state["discard"] = ["joker"] * 3
    state["paw_deck"] = state["paw_deck"][:-2]
    with pytest.raises(InvalidState) as bad:
        GAME.check_state(state)
    assert ("/discard", "3 cards joker are face up; the game has 2") in bad.value.errors


# -- Booster B: alpha cards face down ---------------------------------------------------------

def test_a_seat_without_its_alpha_field_is_not_a_state():
    """Booster B: each player has an alpha card lying in front of them, face down with unseen
    hands (``alpha`` null) until played or shown; a seat that omits the field says nothing of
    it, so the state is refused at that pointer (before, it was accepted, and the views, the
    legal moves and an alpha play of that state failed with an error of the service)."""
    state = GAME.setup(2, "x", {**UNSEEN, "boosters": ["alpha"], "deal": {"discard": "P1", "coin": "white"}})
    del state["players"][0]["alpha"]
    with pytest.raises(InvalidState) as bad:
        GAME.check_state(state)
    assert bad.value.errors == [("/players/0/alpha", "required when boosters are in play (null: face down, "
                                                     "or none in front)")]


def _last_card_state() -> dict:
    """2 players with Booster B, unseen hands: every paw card is face up but one plain 1 in
    White's hand; both alpha cards still face down; each clan has taken a 1-point, 1-sardine
    points card (blue, red)."""
    state = GAME.setup(2, "alpha-end", {**UNSEEN, "boosters": ["alpha"], "deal": {"discard": "P1", "coin": "white"}})
    discard = [kind for kind, count in kind_counts(False, ("alpha",)).items() for _ in range(count)]
    discard.remove("P1")
    discard.append(discard.pop(discard.index("P5")))   # a plain 5 on top: the 1 makes no pair
    state.update(discard=discard, paw_deck=[])
    state["players"][0]["hand"], state["players"][1]["hand"] = [None], []
    state["points"] = {"white": ["blue"], "black": ["red"]}
    state["points_deck"] = [c for c in state["points_deck"] if c not in ("blue", "red")]
    GAME.check_state(state)
    return state


def test_alpha_cards_still_face_down_are_shown_before_the_game_is_scored():
    """Crowning the Winning Clan: points tie 1-1 and sardines 1-1 on the points cards; an alpha
    card still in front of its player adds its sardines (Manx: 1; rules notes), so the game is
    scored only once both face-down alpha cards are named."""
    last = _play(_last_card_state(), 0, "P1")
    assert last.legal
    assert last.events[-1] == {"type": "alpha_cards_to_show", "players": [0, 1]}
    assert last.state["turn"] == {"player": 0, "phase": "show"} and not last.outcome.finished
    assert GAME.legal_moves(last.state) == [
        {"type": "show", "player": 0, "card": card, "table_fills": ["card"]}
        for card in ("angora-white", "maine-coon", "manx")
    ] + [{"type": "show", "player": 1, "card": card, "table_fills": ["card"]}
         for card in ("angora-black", "laperm", "lykoi")]
    assert _codes(_play(last.state, 0, "P2")) == [("SHOW_PENDING", "Crowning the Winning Clan")]
    show = {"type": "show", "player": 0}
    assert _codes(GAME.adjudicate(last.state, {**show, "card": "laperm"})) == [("ALPHA_NOT_HELD", "The Boosters")]
    assert _codes(GAME.adjudicate(last.state, {**show, "card": None})) \
        == [("ALPHA_CARD_REQUIRED", "Crowning the Winning Clan")]
    manx = GAME.adjudicate(last.state, {**show, "card": "manx"})
    assert manx.legal and manx.events == [{"type": "alpha_shown", "player": 0, "card": "manx"}]
    assert not manx.outcome.finished
    assert _codes(GAME.adjudicate(manx.state, {**show, "card": "manx"})) \
        == [("NOTHING_TO_SHOW", "Crowning the Winning Clan")]
    angora = GAME.adjudicate(manx.state, {"type": "show", "player": 1, "card": "angora-black"})
    assert angora.legal and angora.state["finished"]
    assert angora.events[-1] == {"type": "game_over", "game": 1, "points": {
        "white": {"points": 1, "sardines": 2}, "black": {"points": 1, "sardines": 1}}}
    assert angora.outcome.winners == (0,) and angora.outcome.tiebreak == "sardines"
    lykoi = GAME.adjudicate(manx.state, {"type": "show", "player": 1, "card": "lykoi"})
    assert lykoi.outcome.finished and lykoi.outcome.winners == () and lykoi.outcome.tiebreak == "tie"


def test_an_alpha_card_is_played_once_and_only_from_its_clan_pile():
    """Booster B: each player draws an alpha card of their clan's colour and plays it once; a
    teammate cannot hold the one already face up on the discard pile."""
    state = _table(boosters=["alpha"], discard="P2")
    moves = [m for m in GAME.seat_moves(state, 0) if m["player"] == 0]
    listed = {m["card"] for m in moves}
    assert {"angora-white", "maine-coon", "manx"} <= listed and not {"angora-black", "laperm", "lykoi"} & listed
    # White holds the ball: Angora's block needs enemy possession, so it is played for no effect only.
    assert [m["block"] for m in moves if m["card"] == "angora-white"] == [None]
    assert _codes(_play(state, 0, "lykoi", block=BLOCK | {"directions": ["black"]})) \
        == [("ALPHA_NOT_HELD", "The Boosters")]
    # Manx: one bar, movement 2 / movement 1; side 1 moves the ball from the neutral alley to the
    # black alley.
    played = _play(state, 0, "manx", block={"bars": [1], "directions": ["black"]})
    assert played.legal, played.violations
    assert played.state["players"][0]["has_alpha"] is False and played.state["discard"][-1] == "manx"
    assert played.state["players"][0]["hand"] == [None] * 6    # the hand does not shrink
    state = _play(played.state, 1, "P3").state   # nothing pairs on an alpha card: played for no effect
    again = _play(state, 2, "manx", block={"bars": [1], "directions": ["black"]})
    assert _codes(again) == [("ALPHA_ALREADY_SEEN", "The Boosters")]
    assert again.violations[0].params == {"card": "manx"}
    assert "manx" not in {m["card"] for m in GAME.seat_moves(state, 2)}


def test_a_seat_the_table_does_not_have():
    """Setup: a 4-player table has seats 0 to 3; a move by seat 5 is not a turn question."""
    verdict = _play(_table(), 5, "P3")
    assert _codes(verdict) == [("NO_SUCH_PLAYER", "Setup")]
    assert verdict.violations[0].text() == "There is no player 5: the seats are 0 to 3."
