"""CATATAC rules, base game and variants (rulebook: shared/rulebooks/catatac.en.txt). Pure.

The game class: its hooks judge a move by the rulebook's Turn Summary and hand each part to the
module of its section (deal: Setup and the options; play and influence: 1. Play a Paw Card and
2. Influencing the Yarn Ball; stash: Stash Attempt and Countering a Stash; turns: 3. Refilling
Your Hand; end: End of the Game and Crowning the Winning Clan; boosters: The Boosters; unseen:
unseen hands; legal: the moves of each player; state_check; view: what each reader sees).

State (JSON, seats numbered from 0, clockwise)::

    {"game": "catatac", "schema_version": 1,
     "options": {"chance": "seeded"|"table", "seat0_clan": "white"|"black", "first_player": seat,
                 "deck_hockey": bool, "kittens": bool, "marathon": bool},
     "players": [{"clan": "white"|"black", "hand": [paw ids]}, ...]   clans alternate
     "ball": {"spot": one of SPOTS, "colour": "white"|"black"}          colour = clan in possession
     "paw_deck": [paw ids, top first]        (table chance: order unknown, kept sorted)
     "discard": [paw ids, bottom first]      the last one is the top card
     "points_deck": [points ids, top first]  (table chance: order unknown, kept sorted)
     "points": {"white": [points ids], "black": [points ids]}   face down until the end
     "turn": {"player": seat to act, "phase": "play"|"answer"|"refill"|"over"},
     "stash": null | {"clan": stashing clan, "by": seat, "next": the next opposing player,
                      "answer": [seats that may still answer, the first acts now]},
     "marathon": null | {"game": 1..3, "completed": [{"white": {"points", "sardines"},
                                                      "black": {...}}, ...]},
     "finished": bool,
     "rng": {"seed": str, "counter": int}}

With boosters (``options.boosters``: "distraction", "alpha", "momentum", in that order; the
key is absent in a base game), the state also carries::

     "players": [{"clan", "hand", "alpha": alpha card id face down in front of the seat | null}]
     "box": [paw ids removed unseen at setup, 2 per booster distraction / momentum, sorted]
     "alpha_aside": [alpha ids not drawn, sorted]
     "skip": bool    a Skip pending while its player refills at a table
     "turn": {"phase": "replay"}   the player plays another card at once (Replay)

SPOTS: black_hideout, black_alley, neutral_alley, white_alley, white_hideout.

Moves::

    {"type": "play", "player": seat, "card": id,
     "pair": null | {"action": "steal"|"movement"|"stash"|"counter", "direction": "black"|"white"|null},
     "block": null | {"bars": [side index per bar, top first],
                      "directions": ["black"|"white" per movement effect played, top first]},
     "order": null | "pair_first" | "block_first",       (stated exactly when both are used)
     "coins": [faces of the coin flips of this move]}    (table chance only: required when a
                                                          flip happens)
    {"type": "decline", "player": seat[, "points_card": id, "coins": [face]]}
        decline to counter a stash attempt; the last decline makes the stash succeed (table
        chance: it carries the points card taken and the coin face)
    {"type": "draw", "player": seat, "card": id}          table chance: one refill card

With the seeded generator chance belongs to the referee: a move naming a coin face, refill
cards or a points card is refused (SEEDED_CHANCE, whatever it names), and a play is judged
before its coin flips: it is legal when some face of the coming flips allows it. When the flip
then makes the pair played after the action block impossible, the pair does nothing (event
``pair_forfeited``; docs/rules-notes.md).

Unseen hands (``options.hands: "unseen"``, table chance, variants and boosters): the state
holds only what lies face up. Hands and the paw deck are lists of ``null``; the discard pile
names paw cards by kind (``P3``: a plain 3; ``joker``; a named card is its own kind,
``capture-2``). A play names the kind of the card played; the referee checks a copy of it can
still be unseen (CARD_ALREADY_SEEN otherwise) and takes one unseen card from the hand. Refills
are automatic and change only sizes; coin faces and the points card taken are named as with
table chance. With Booster B each seat's alpha card lies face down (``has_alpha``, ``alpha``
null): a play names it when it is played; when a game ends with some still face down, phase
``show`` asks each of their players to name theirs (move ``{"type": "show", "player", "card"}``)
before the game is scored. The option is left out of a state's options when hands are seen.

A player other than the one due to play, of the same clan, plays "in place of a teammate"
(Cooperation) simply by sending a play with their own seat. A play's ``card`` may be the
player's own alpha card (Booster B), played instead of a paw card from the hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Game, Outcome, Printed, State
from referee.games.catatac import deal, end, legal, play, printed, stash, state_check, turns
from referee.games.catatac import view as views
from referee.games.catatac.messages import MESSAGES, illegal
from referee.games.catatac.state import CHANCE_MODES, GAME_ID, HANDS_MODES, ORDERS, PAIR_ACTIONS, PHASES, is_unseen
from referee.games.catatac.unseen import face_down_alphas

# CHANCE_MODES to PHASES: re-exported for the HTTP schemas (schema.py), which describe states and moves with them.
__all__ = ["CHANCE_MODES", "HANDS_MODES", "ORDERS", "PAIR_ACTIONS", "PHASES", "Catatac"]


class Catatac(Game):
    """CATATAC, 2, 4 or 6 players in two alternating clans, with the Deck Hockey, Kittens and
    Marathon variants and the Boosters. See the module docstring for the state and move shapes."""

    id = GAME_ID
    title = "CATATAC"
    player_counts = (2, 4, 6)
    rules_version = "catatac/en-1"
    messages = MESSAGES
    disclosure = views.DISCLOSURE
    card_fields = ("card", "points_card")
    word_params = frozenset({"action", "bar", "condition", "direction", "effect", "expected", "field", "given",
                             "reason", "side", "spot"})

    def options_info(self) -> dict:
        """The options a game accepts (Setup, Variants, The Boosters); see deal.options_info."""
        return deal.options_info()

    def catalogue(self, options: Mapping[str, Any] | None = None) -> dict:
        """The cards in use for ``options``; see deal.catalogue."""
        return deal.catalogue(options)

    def printed_cards(self) -> Mapping[str, Printed]:
        """Every card the game can deal, as printed (printed.py)."""
        return printed.printed_cards()

    def setup(self, players: int, seed: str, options: Mapping[str, Any] | None = None) -> State:
        """Rulebook, Setup: the first state; see deal.setup. Raises InvalidOptions."""
        return deal.setup(players, seed, options, self.schema_version)

    def check_state(self, state: State) -> None:
        """Raise InvalidState unless ``state`` can exist; see state_check.check_state."""
        state_check.check_state(state, self.schema_version)

    def legal_moves(self, state: State) -> list[dict]:
        """Every move the acting player(s) may make now; see legal.legal_moves."""
        return legal.legal_moves(state)

    def seat_moves(self, state: State, seat: int) -> list[dict]:
        """The moves of ``seat`` as it can know them; see legal.seat_moves."""
        return legal.seat_moves(state, seat)

    def apply(self, state: State, move: dict) -> tuple[State, list[dict]]:
        """Rulebook, Turn Summary: judge and apply one move, by the phase of the turn. Raises
        Illegal (see MESSAGES for the codes and sections)."""
        if state["finished"]:
            raise illegal("GAME_OVER")
        if state["options"]["chance"] != "table":
            for field in ("coins", "draw", "points_card"):
                if move.get(field) is not None:
                    raise illegal("SEEDED_CHANCE", field=field)
        turn = state["turn"]
        seat, kind = move["player"], move["type"]
        if not 0 <= seat < len(state["players"]):
            raise illegal("NO_SUCH_PLAYER", player=seat, last=len(state["players"]) - 1)
        phase = turn["phase"]
        if phase == "refill":
            if seat != turn["player"]:
                raise illegal("NOT_YOUR_TURN", turn=turn["player"], player=seat)
            if kind != "draw":
                raise illegal("REFILL_PENDING", turn=turn["player"])
            return turns.draw(state, move)
        if phase == "show":
            if kind != "show":
                raise illegal("SHOW_PENDING", players=", ".join(map(str, face_down_alphas(state))))
            return end.show(state, move)
        if kind == "show":
            raise illegal("NOTHING_TO_SHOW")
        if kind == "draw":
            raise illegal("REFILL_UNSEEN" if is_unseen(state) else "NO_REFILL_PENDING")
        if phase == "replay":
            if seat != turn["player"] or kind != "play":
                raise illegal("REPLAY_PENDING", turn=turn["player"])
            return play.play(state, move, answering=False, cooperation=False)
        if phase == "answer":
            if seat != turn["player"]:
                raise illegal("STASH_PENDING", turn=turn["player"])
            if kind == "decline":
                return stash.decline(state, move)
            return play.play(state, move, answering=True, cooperation=seat != state["stash"]["next"])
        if kind == "decline":
            raise illegal("NO_STASH_TO_ANSWER")
        players = state["players"]
        if seat != turn["player"]:
            if not (0 <= seat < len(players)) or players[seat]["clan"] != players[turn["player"]]["clan"]:
                raise illegal("NOT_YOUR_TURN", turn=turn["player"], player=seat)
            return play.play(state, move, answering=False, cooperation=True)
        return play.play(state, move, answering=False, cooperation=False)

    def score(self, state: State) -> tuple[dict, Outcome]:
        """Rulebook, Crowning the Winning Clan: the score sheet and outcome; see end.score."""
        return end.score(state)

    def view(self, state: State, seat: int | None) -> State:
        """What seat ``seat`` sees (None: a spectator); see view.view."""
        return views.view(state, seat)
