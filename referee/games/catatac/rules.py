"""CATATAC rules, base game and variants (rulebook: shared/rulebooks/catatac.en.txt). Pure.

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

from functools import lru_cache
from itertools import product
from typing import Any, Mapping

from referee.engine.core import (UNFINISHED, Game, Illegal, InvalidOptions, InvalidState, Outcome, State, Violation,
                                 violation)
from referee.engine.information import PUBLIC, Disclosure, Hidden, Reveals
from referee.engine.memo import options_memo
from referee.engine.places import claim_place, unknown_id
from referee.engine.rng import Rng
from referee.games.catatac import cards as C

GAME_ID = "catatac"

# Rulebook sections, as headed in the English rulebook (also msgids for translation).
SETUP = "Setup"
TURN = "Turn Summary"
PLAY = "1. Play a Paw Card"
PAIR = "Making a Pair"
BLOCK = "Activating the Action Block"
COMBO = 'The "Combo"'
ICONS = "Icons"
COOPERATION = "Cooperation (2x)"
INFLUENCE = "2. Influencing the Yarn Ball"
STASH = "Stash Attempt"
COUNTER = "Countering a Stash"
REFILL = "3. Refilling Your Hand"
END = "End of the Game"
WINNER = "Crowning the Winning Clan"
VARIANTS = "Variants"
BOOSTERS = "The Boosters"

SECTIONS = (SETUP, TURN, PLAY, PAIR, BLOCK, COMBO, ICONS, COOPERATION, INFLUENCE, STASH, COUNTER,
            REFILL, END, WINNER, VARIANTS, BOOSTERS)

CHANCE_MODES = ("seeded", "table")
HANDS_MODES = ("seen", "unseen")
# legal-moves marks, in this field of a move, the fields a table fills in with what it sees.
TABLE_FILLS = "table_fills"
PHASES = ("play", "answer", "refill", "replay", "show", "over")
PAIR_ACTIONS = ("steal", "movement", "stash", "counter")
ORDERS = ("pair_first", "block_first")
MARATHON_GAMES = 3
OPTION_NAMES = ("chance", "seat0_clan", "first_player", "deck_hockey", "kittens", "marathon")
BOOSTERS_OPTION = "boosters"  # written only when at least one booster is in play

# Violation message templates (msgids): code -> (message, rule).
MESSAGES: dict[str, tuple[str, str]] = {
    "GAME_OVER": ("The game is over.", END),
    "NOT_YOUR_TURN": ("It is player {turn}'s turn, not player {player}'s.", TURN),
    "NO_SUCH_PLAYER": ("There is no player {player}: the seats are 0 to {last}.", SETUP),
    "STASH_PENDING": ("A stash attempt is pending: player {turn} must counter it or decline.", COUNTER),
    "NO_STASH_TO_ANSWER": ("There is no stash attempt to answer.", COUNTER),
    "REFILL_PENDING": ("Player {turn} must first refill their hand to 6 cards.", REFILL),
    "NO_REFILL_PENDING": ("Cards are drawn one by one only to refill a hand at a table game.", REFILL),
    "CARD_NOT_IN_HAND": ("Card {card} is not in your hand.", PLAY),
    "CHOICE_MISSING": ("The move must state {field} (null when unused).", TURN),
    "NO_PAIR": ("Card {card} does not make a pair with {top}.", PAIR),
    "PAIR_ACTION_NOT_POSSIBLE": ("The basic action {action} is not possible now: {reason}.", PAIR),
    "COUNTER_NEEDS_DECK_HOCKEY": ("Only with the Deck Hockey variant can a pair counter a stash.", VARIANTS),
    "DIRECTIONS_MISMATCH": ("The move states {given} movement direction(s) but the movements need {needed}.", INFLUENCE),
    "MOVE_OFF_ALLEYS": ("The yarn ball cannot move {distance} toward {direction} from {spot}: it stays on the alley cards.", INFLUENCE),
    "NO_ACTION_BLOCK": ("Card {card} has no action block.", BLOCK),
    "CONDITION_NOT_MET": ("The activation condition {condition} of card {card} is not met: {reason}.", BLOCK),
    "BAR_CHOICES": ("Card {card} has {needed} bar(s): choose one side of each ({given} given).", ICONS),
    "BAR_SIDE": ("Bar {bar} of card {card} has no side {side}.", ICONS),
    "EFFECT_NOT_APPLICABLE": ("The effect {effect} of card {card} cannot be applied now ({reason}); an action block is played in full or not at all.", BLOCK),
    "ORDER_REQUIRED": ("A combo states its order: pair_first or block_first.", COMBO),
    "ORDER_UNEXPECTED": ("An order is stated only for a combo (the pair and the action block).", COMBO),
    "STASH_ENDS_TURN": ("A stash attempt ends the turn at once: nothing can follow it.", STASH),
    "MUST_COUNTER": ("A stash attempt can only be answered by a counter.", COUNTER),
    "NOT_A_COOPERATION_CARD": ("Card {card} has no cooperation icon: only the player due can play now.", COOPERATION),
    "COOPERATION_NEEDS_BLOCK": ("Playing for a teammate, use the action block alone or the combo, never the pair alone.", COOPERATION),
    "COIN_COUNT": ("The move carries {given} coin face(s) but {needed} coin flip(s) happen.", ICONS),
    "POINTS_CARD_REQUIRED": ("At a table game, name the points card taken.", STASH),
    "POINTS_CARD_NOT_IN_DECK": ("Points card {card} cannot be in the points deck.", STASH),
    "POINTS_CARD_NOT_TAKEN": ("No points card is taken by this move.", STASH),
    "SEEDED_CHANCE": ("With the seeded generator the referee flips the coins and draws the cards: a move does "
                      "not name {field}.", TURN),
    "DRAW_SEPARATE": ("At a table game, each refill card is a draw move of its own.", REFILL),
    "CARD_NOT_IN_DECK": ("Card {card} cannot be in the paw deck.", REFILL),
    "CARD_REQUIRED": ("At a table game, name the card drawn.", REFILL),
    "UNKNOWN_CARD": ("Unknown card id {card}: this game's paw deck has no such card.", REFILL),
    "ALPHA_NOT_HELD": ("Alpha card {card} is not in front of you.", BOOSTERS),
    "ALPHA_MAKES_NO_PAIR": ("Alpha card {card} never makes a pair.", BOOSTERS),
    "ALPHA_ALLOWS_NO_PAIR": ("No card makes a pair on alpha card {top}.", BOOSTERS),
    "ALPHA_DECK_EMPTY": ("An alpha card is played only while the paw deck is not empty.", BOOSTERS),
    "REPLAY_PENDING": ("Player {turn} must first play another card (Replay).", BOOSTERS),
    "REPLAY_NOTHING_TO_PLAY": ("Replay of card {card} needs another card to play at once, and none would be left.", BOOSTERS),
    "HAND_EMPTY": ("Player {player} has no card in hand.", PLAY),
    "CARD_NOT_IN_GAME": ("This game has no card {card}: the variant and boosters in play decide its paw cards.", SETUP),
    "CARD_ALREADY_SEEN": ("No {kind} can still be unseen: the game has {count}, all face up on the discard pile.", PLAY),
    "REFILL_UNSEEN": ("With unseen hands the refill only changes the hand sizes: there is no draw move.", REFILL),
    "ALPHA_ALREADY_SEEN": ("Alpha card {card} cannot still be face down: it is face up on the discard pile.", BOOSTERS),
    "ALPHA_ALREADY_SHOWN": ("Alpha card {card} cannot still be face down: player {player} has shown it.", WINNER),
    "SHOW_PENDING": ("The game has ended: the alpha cards still face down are shown first (players {players}).", WINNER),
    "ALPHA_CARD_REQUIRED": ("Name the alpha card shown.", WINNER),
    "NOTHING_TO_SHOW": ("Only an alpha card still face down in front of its player is shown, once the game has "
                        "ended.", WINNER),
}


# Why an action or effect on the yarn ball cannot be applied, or a condition is not met (the
# ``reason`` word parameter; rulebook, Making a Pair and Icons). All of it is on the table.
NOT_ON_ALLEY = "ball_not_on_alley"
HELD_BY_YOUR_CLAN = "ball_held_by_your_clan"
HELD_BY_ENEMY = "ball_held_by_enemy"
NOT_ADJACENT_TO_HIDEOUT = "ball_not_adjacent_to_hideout"
NOT_AT_STASH_DISTANCE = "ball_not_at_stash_distance"
NO_STASH_TO_COUNTER = "no_stash_to_counter"
UNKNOWN_ACTION = "unknown_action"
UNKNOWN_EFFECT = "unknown_effect"


def _violation(code: str, **params: Any) -> Violation:
    return violation(MESSAGES, code, **params)


def _illegal(code: str, **params: Any) -> Illegal:
    return Illegal(_violation(code, **params))


def _copy_state(state: State) -> State:
    """A copy deep enough that applying a move never touches the caller's state."""
    new = dict(state)
    players = []
    for p in state["players"]:
        player = dict(p)  # (a copy, then a store: dict() with a keyword is a generic call, compiled)
        player["hand"] = list(p["hand"])
        players.append(player)
    new["players"] = players
    new["ball"] = dict(state["ball"])
    new["paw_deck"] = list(state["paw_deck"])
    new["discard"] = list(state["discard"])
    new["points_deck"] = list(state["points_deck"])
    new["points"] = {"white": list(state["points"]["white"]), "black": list(state["points"]["black"])}
    new["turn"] = dict(state["turn"])
    if state["stash"] is not None:
        stash = dict(state["stash"])
        stash["answer"] = list(stash["answer"])
        new["stash"] = stash
    if state["marathon"] is not None:
        new["marathon"] = {"game": state["marathon"]["game"], "completed": list(state["marathon"]["completed"])}
    new["rng"] = dict(state["rng"])
    return new


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _normalise_options(players: Any, options: Mapping[str, Any] | None) -> dict:
    """Full options from what the caller gave; raises InvalidOptions with pointers."""
    options = dict(options or {})
    errors: list[tuple[str, str]] = []
    if not _is_int(players) or players not in (2, 4, 6):
        errors.append(("/players", "CATATAC is played by 2, 4 or 6 players (two clans, alternating)"))
    chance = options.get("chance", "seeded")
    if chance not in CHANCE_MODES:
        errors.append(("/options/chance", "must be 'seeded' or 'table'"))
    clan = options.get("seat0_clan", "white")
    if clan not in C.CLANS:
        errors.append(("/options/seat0_clan", "must be 'white' or 'black'"))
    first = options.get("first_player", 0)
    if not _is_int(first) or not (0 <= first < (players if _is_int(players) else 0)):
        errors.append(("/options/first_player", "must be a seat of the table (the youngest kitten plays first)"))
    flags = {}
    for name in ("deck_hockey", "kittens", "marathon"):
        flags[name] = options.get(name, False)
        if not isinstance(flags[name], bool):
            errors.append((f"/options/{name}", "must be true or false"))
    boosters = options.get(BOOSTERS_OPTION, [])
    if (not isinstance(boosters, list) or any(b not in C.BOOSTERS for b in boosters)
            or len(set(boosters)) != len(boosters)):
        errors.append((f"/options/{BOOSTERS_OPTION}", "a list of distinct boosters among distraction, alpha, momentum"))
    hands = options.get("hands", "seen")
    if hands not in HANDS_MODES:
        errors.append(("/options/hands", "must be 'seen' or 'unseen'"))
    elif hands == "unseen" and chance != "table":
        errors.append(("/options/hands", "unseen hands need chance 'table': with the seeded generator the "
                                         "referee deals and knows every card"))
    unknown = set(options) - set(OPTION_NAMES) - {"deal", BOOSTERS_OPTION, "hands"}
    errors.extend((f"/options/{name}", "unknown option") for name in sorted(unknown))
    if not errors and _is_int(players):
        # Setup: 6 cards per hand, then one card turned onto the discard pile.
        deck = C.paw_deck_size(flags["kittens"], C.canonical_boosters(boosters))
        needed = C.HAND_SIZE * players + 1
        if deck < needed:
            errors.append(("/options/kittens", f"the Kittens deck has {deck} paw cards (numbered 1 to 5): "
                                                f"{players} hands of {C.HAND_SIZE} and the card turned need {needed}"))
    if errors:
        raise InvalidOptions(errors)
    full = {"chance": chance, "seat0_clan": clan, "first_player": first, **flags}
    if boosters:
        full[BOOSTERS_OPTION] = list(C.canonical_boosters(boosters))
    if hands == "unseen":
        full["hands"] = "unseen"
    return full


class _TableFacts:
    """What check_state derives from a state's options alone (the same for every state of a table).
    (A class of its own, not a NamedTuple: compiled, its fields are read directly.)"""

    def __init__(self, full: dict, option_errors: tuple, boosters: tuple[str, ...], unseen: bool,
                 known: frozenset[str], alphas: frozenset[str], points: frozenset[str], clans: tuple[str, ...]):
        self.full = full                    # the options, normalised
        self.option_errors = option_errors  # ((pointer, detail), ...) about how the options are written
        self.boosters = boosters            # the boosters in play, in the rulebook's order
        self.unseen = unseen                # hands unseen
        self.known = known                  # the paw cards of the game
        self.alphas = alphas                # the alpha cards of the game
        self.points = points                # the points cards of the game
        self.clans = clans                  # each seat's clan (they alternate from seat0_clan)


def _table_facts(players: int, options: Mapping[str, Any]) -> _TableFacts:
    """The facts of a state's ``options`` with ``players`` seats. Raises InvalidOptions."""
    full = _normalise_options(players, options)
    boosters = _boosters(full)
    unseen = full.get("hands") == "unseen"
    errors = []
    given = set(options) - {BOOSTERS_OPTION} - ({"hands"} if unseen or options.get("hands") == "seen" else set())
    if given != set(OPTION_NAMES):
        errors.append(("/options", "a state carries every option explicitly (and no deal)"))
    if list(options.get(BOOSTERS_OPTION) or ()) != list(boosters):
        errors.append(("/options/boosters", "boosters are listed in the order distraction, alpha, momentum"))
    return _TableFacts(full, tuple(errors), boosters, unseen, C.game_paw_set(full["kittens"], boosters),
                       C.alpha_set(boosters), C.points_set(boosters),
                       tuple(_clan_of(seat, full["seat0_clan"]) for seat in range(players)))


# check_state reads a state's options on every move; states of one table share them.
_state_facts = options_memo(_table_facts)


def _unseen(state: State) -> bool:
    """Whether the table does not see the hands (paw cards named by kind, hidden cards null)."""
    return state["options"].get("hands") == "unseen"


def _unseen_kinds(state: State) -> list[str]:
    """Unseen hands: the paw card kinds a hidden card may still be, in catalogue order."""
    counts = C.kind_counts(state["options"]["kittens"], _boosters(state["options"]))
    played: dict[str, int] = {}
    for card in state["discard"]:
        played[card] = played.get(card, 0) + 1
    return [kind for kind, count in counts.items() if played.get(kind, 0) < count]


def _holds_alpha(player: Mapping[str, Any]) -> bool:
    """Booster B: an alpha card lies in front of the player (unseen hands: ``has_alpha``, the
    card itself null while face down)."""
    return player.get("has_alpha", player.get("alpha") is not None)


def _face_down_alphas(state: State) -> list[int]:
    """Unseen hands with Booster B: the seats whose alpha card still lies face down, unnamed."""
    return [seat for seat, p in enumerate(state["players"]) if p.get("has_alpha") and p["alpha"] is None]


def _alpha_seen_at(state: State, card: str) -> int | str | None:
    """Unseen hands: where alpha card ``card`` lies face up: ``"discard"`` (played), the seat
    that showed it at the end, or None while it can still be face down."""
    if card in state["discard"]:
        return "discard"
    for seat, player in enumerate(state["players"]):
        if player.get("alpha") == card:
            return seat
    return None


def _unseen_alpha_kinds(state: State, clan: str) -> list[str]:
    """Unseen hands: the alpha cards of the clan's pile a face-down alpha card may still be."""
    return [card for card in C.alpha_pile(clan, _boosters(state["options"])) if _alpha_seen_at(state, card) is None]


def _face_down_deal(state: State, boosters: tuple[str, ...], box: list) -> None:
    """Unseen hands: the booster parts of a deal as the table sees them: the box of cards
    removed unseen, and (Booster B) each seat's alpha card face down (``has_alpha``), the rest
    set aside unseen."""
    state["box"] = box
    alpha = C.ALPHA in boosters
    for player in state["players"]:
        player["alpha"] = None
        if alpha:
            player["has_alpha"] = True
    state["alpha_aside"] = [None] * (len(C.alpha_set(boosters)) - len(state["players"])) if alpha else []
    state["skip"] = False


def _boosters(options: Mapping[str, Any]) -> tuple[str, ...]:
    """The boosters in play (a state lists them in the rulebook's order; absent: none)."""
    return tuple(options.get(BOOSTERS_OPTION) or ())


def _clan_of(seat: int, seat0_clan: str) -> str:
    return seat0_clan if seat % 2 == 0 else C.ENEMY[seat0_clan]


def _pairs(kind: C.Kind, top: C.Kind) -> bool:
    """Rulebook, Making a Pair and Icons (Joker): same number; a Joker copies the top card's
    number; only a Joker pairs a Joker. Booster B: an alpha card never makes or allows a pair."""
    if kind.alpha or top.alpha:
        return False
    if top.joker:
        return kind.joker
    return kind.joker or kind.number == top.number


def _adjacent_alley(hideout: int) -> int:
    return 1 if hideout == 0 else 3


def _stash_start(clan: str, distance: int) -> int:
    """The spot a stash attempt 'from distance' starts on (1: the clan's own alley)."""
    return C.HIDEOUT[clan] + distance if clan == "black" else C.HIDEOUT[clan] - distance


def _effect_name(effect: C.Effect) -> str:
    return effect[0] if len(effect) == 1 else f"{effect[0]} {effect[1]}"


def _exactly(cards: list, universe: frozenset) -> bool:
    """Whether ``cards`` holds every card of ``universe`` exactly once, and nothing else."""
    # As many cards as the universe, and none of the universe missing: so each card once.
    # (Taking the cards out of a copy of the universe is cheaper than building their set.)
    return len(cards) == len(universe) and not universe.difference(cards)


def _cards_placed(state: State, boosters: tuple, known: frozenset, alphas: frozenset, points: frozenset) -> bool:
    """Whether every paw card, alpha card and points card is in exactly one place and no other
    card is anywhere: exactly when check_state's per-card pass would find nothing to report."""
    players, discard = state["players"], state["discard"]
    paw = list(state["paw_deck"])
    for player in players:
        paw += player["hand"]
    alpha = [card for card in discard if card in alphas] if alphas else []
    paw += [card for card in discard if card not in alphas] if alpha else discard
    if boosters:
        paw += state.get("box", [])
        alpha += [player["alpha"] for player in players if player.get("alpha") is not None]
        alpha += state.get("alpha_aside", [])
    points_cards = state["points_deck"] + state["points"]["white"] + state["points"]["black"]
    return _exactly(paw, known) and _exactly(alpha, alphas) and _exactly(points_cards, points)


# -- the judge of one play: plan (choices against the card) then run (against the ball) -----

def _plan(kind: C.Kind, card: str, top_card: str, pair: Any, block: Any, order: Any,
          deck_hockey: bool, cooperation: bool):
    """Check the stated choices against the card; return (violation, steps, flips)."""
    steps: list[tuple] = []
    pair_step = block_step = None
    if pair is not None:
        if kind.alpha:
            return _violation("ALPHA_MAKES_NO_PAIR", card=card), None, 0
        if C.KINDS[top_card].alpha:
            return _violation("ALPHA_ALLOWS_NO_PAIR", top=top_card), None, 0
        if not _pairs(kind, C.KINDS[top_card]):
            return _violation("NO_PAIR", card=card, top=top_card), None, 0
        action, direction = pair.get("action"), pair.get("direction")
        if action not in PAIR_ACTIONS:
            return _violation("PAIR_ACTION_NOT_POSSIBLE", action=action, reason=UNKNOWN_ACTION), None, 0
        if action == "counter" and not deck_hockey:
            return _violation("COUNTER_NEEDS_DECK_HOCKEY"), None, 0
        needed = 1 if action == "movement" else 0
        given = 0 if direction is None else 1
        if needed != given or (direction is not None and direction not in C.DIRECTIONS):
            return _violation("DIRECTIONS_MISMATCH", given=given, needed=needed), None, 0
        pair_step = ("pair", action, direction)
    flips = 0
    if block is not None:
        if not kind.rows:
            return _violation("NO_ACTION_BLOCK", card=card), None, 0
        bars, directions = block.get("bars"), block.get("directions")
        if bars is None:
            return _violation("CHOICE_MISSING", field="block.bars"), None, 0
        if directions is None:
            return _violation("CHOICE_MISSING", field="block.directions"), None, 0
        bar_rows = kind.bars
        if len(bars) != len(bar_rows):
            return _violation("BAR_CHOICES", card=card, needed=len(bar_rows), given=len(bars)), None, 0
        chosen = []
        b = 0
        for r in kind.rows:
            if len(r) > 1:
                side = bars[b]
                if not _is_int(side) or not 0 <= side < len(r):
                    return _violation("BAR_SIDE", card=card, bar=b, side=side), None, 0
                chosen.append(r[side])
                b += 1
            else:
                chosen.append(r[0])
        moves = sum(1 for opt in chosen for e in opt.effects if e[0] == "movement")
        if len(directions) != moves or any(d not in C.DIRECTIONS for d in directions):
            return _violation("DIRECTIONS_MISMATCH", given=len(directions), needed=moves), None, 0
        flips = sum(1 for opt in chosen for e in opt.effects if e[0] == "coin_flip")
        block_step = ("block", tuple(chosen), tuple(directions))
    if pair_step and block_step:
        if order not in ORDERS:
            return _violation("ORDER_REQUIRED"), None, 0
        steps = [pair_step, block_step] if order == "pair_first" else [block_step, pair_step]
    else:
        if order is not None:
            return _violation("ORDER_UNEXPECTED"), None, 0
        steps = [s for s in (pair_step, block_step) if s]
    if cooperation and block_step is None:
        return _violation("COOPERATION_NEEDS_BLOCK"), None, 0
    return None, steps, flips


class _Ball:
    """The yarn ball while a play is judged: its spot (index), colour, and what happened."""

    __slots__ = ("spot", "colour", "stashed", "countered", "skip", "events")

    def __init__(self, spot: int, colour: str):
        self.spot, self.colour = spot, colour
        self.stashed = self.countered = self.skip = False
        self.events: list[dict] = []


def _ball_effect(ball: _Ball, name: str, amount: int, direction: str | None, clan: str, by: str) -> str | None:
    """Apply steal, movement, stash or counter to ``ball`` for ``clan``, by ``"pair"`` (a basic
    action) or ``"block"`` (an action block): the same rules (2. Influencing the Yarn Ball).
    Returns None when applied, ``"off_alleys"`` when a movement would leave the alley cards,
    otherwise why it does not apply (a reason above; the ball is left as it was)."""
    spot = ball.spot
    if name == "steal":
        if spot not in C.ALLEYS:
            return NOT_ON_ALLEY
        if ball.colour == clan:
            return HELD_BY_YOUR_CLAN
        ball.colour = clan
        ball.events.append({"type": "ball_stolen", "by": by, "clan": clan, "spot": C.SPOTS[spot]})
    elif name == "movement":
        if spot not in C.ALLEYS:
            return NOT_ON_ALLEY
        target = spot + amount * C.DIRECTIONS[direction]  # type: ignore[index]  # a movement has one
        if target not in C.ALLEYS:
            return "off_alleys"
        ball.events.append({"type": "ball_moved", "by": by, "from": C.SPOTS[spot], "to": C.SPOTS[target]})
        ball.spot = target
    elif name == "stash":
        if ball.colour != clan:
            return HELD_BY_ENEMY
        if spot != _stash_start(clan, amount):
            return NOT_ADJACENT_TO_HIDEOUT if amount == 1 else NOT_AT_STASH_DISTANCE
        ball.spot = C.HIDEOUT[clan]
        ball.stashed = True
        ball.events.append({"type": "stash_attempt", "by": by, "clan": clan})
        if ball.skip:  # a stash attempt cancels a pending Skip
            ball.skip = False
            ball.events.append({"type": "skip_cancelled"})
    else:  # counter
        if spot != C.HIDEOUT[C.ENEMY[clan]]:
            return NO_STASH_TO_COUNTER
        ball.spot = _adjacent_alley(spot)
        ball.countered = True
        ball.events.append({"type": "countered", "by": by, "clan": clan, "to": C.SPOTS[ball.spot]})
    return None


def _run(kind: C.Kind, card: str, steps, spot: int, colour: str, clan: str, coins, answering: bool,
         can_replay: bool = False):
    """Play the steps on the ball; return (violation, (spot, colour, stashed, events, skip, replay)).

    Boosters: a Skip makes the next player's turn skipped (``skip``), cancelled by a stash
    attempt later in the same play; a Replay (applicable only when ``can_replay``: a card is
    left to play at once) lets the player play another card (``replay``), lost when the play
    ends in a stash attempt or a Skip (both end the turn)."""
    ball = _Ball(spot, colour)
    replay = False
    coin_index = 0
    for step in steps:
        if ball.stashed:
            return _violation("STASH_ENDS_TURN"), None
        if step[0] == "pair":
            action, direction = step[1], step[2]
            # The basic Movement needs possession; the other basic actions check it themselves.
            failure = HELD_BY_ENEMY if action == "movement" and ball.colour != clan else \
                _ball_effect(ball, action, 1, direction, clan, "pair")
            if failure == "off_alleys":
                return _violation("MOVE_OFF_ALLEYS", distance=1, direction=direction, spot=C.SPOTS[ball.spot]), None
            if failure:
                return _violation("PAIR_ACTION_NOT_POSSIBLE", action=action, reason=failure), None
            continue
        chosen, directions = step[1], step[2]
        for condition in kind.conditions + tuple(c for opt in chosen for c in opt.conditions):
            holds = (ball.colour == clan) if condition == C.POSSESSION else (ball.colour != clan)
            if not holds:
                return _violation("CONDITION_NOT_MET", condition=condition, card=card,
                                  reason=HELD_BY_ENEMY if condition == C.POSSESSION else HELD_BY_YOUR_CLAN), None
        d = 0
        for opt in chosen:
            for effect in opt.effects:
                if ball.stashed:
                    return _violation("STASH_ENDS_TURN"), None
                name = effect[0]
                if name in ("steal", "movement", "stash", "counter"):
                    direction = None
                    if name == "movement":
                        direction = directions[d]
                        d += 1
                    amount = effect[1] if len(effect) > 1 else 1
                    failure = _ball_effect(ball, name, amount, direction, clan, "block")
                    if failure == "off_alleys":
                        return _violation("MOVE_OFF_ALLEYS", distance=amount, direction=direction,
                                          spot=C.SPOTS[ball.spot]), None
                    if failure:
                        return _violation("EFFECT_NOT_APPLICABLE", effect=_effect_name(effect), card=card,
                                          reason=failure), None
                elif name == "coin_flip":
                    if ball.spot not in C.ALLEYS:
                        return _violation("EFFECT_NOT_APPLICABLE", effect=_effect_name(effect), card=card,
                                          reason=NOT_ON_ALLEY), None
                    ball.colour = coins[coin_index]
                    coin_index += 1
                    ball.events.append({"type": "coin_flipped", "colour": ball.colour, "spot": C.SPOTS[ball.spot]})
                elif name == "skip":
                    ball.skip = True
                    ball.events.append({"type": "skip_played"})
                elif name == "replay":
                    if not can_replay:
                        return _violation("REPLAY_NOTHING_TO_PLAY", card=card), None
                    replay = True
                else:  # pragma: no cover - every effect of the catalogue is handled above
                    return _violation("EFFECT_NOT_APPLICABLE", effect=_effect_name(effect), card=card,
                                      reason=UNKNOWN_EFFECT), None
    if answering and not ball.countered:
        return _violation("MUST_COUNTER"), None
    if replay and (ball.stashed or ball.skip):
        replay = False
        ball.events.append({"type": "replay_lost"})
    return None, (ball.spot, ball.colour, ball.stashed, ball.events, ball.skip, replay)


def _judge_before_flips(kind: C.Kind, card: str, steps, start: tuple[Any, Any, Any], faces: tuple, answering: bool,
                        can_replay: bool):
    """Seeded chance, a play whose flips came out against it: ``(violation, result, forfeited)``.

    The player chooses before the coin is flipped, so the play is legal when some faces of its
    flips allow it, and its violation (when none does) is the one of the first faces in
    ``COIN_FACES`` order: neither depends on the coming flip. A legal play whose flip made the
    pair played after the action block impossible is applied without that pair (``forfeited``:
    its action); rules notes, coin flips judged before the flip."""
    first_bad = None
    for trial in product(C.COIN_FACES, repeat=len(faces)):
        bad, _ = _run(kind, card, steps, *start, trial, answering, can_replay)
        if bad is None:
            break
        first_bad = first_bad or bad
    else:
        return first_bad, None, None
    pair = next(step for step in steps if step[0] == "pair")
    bad, result = _run(kind, card, [step for step in steps if step is not pair], *start, faces, answering,
                       can_replay)
    return (first_bad, None, None) if bad else (None, result, pair[1])


def _move_key(move: dict) -> tuple:
    """A hashable key of a move (JSON values), to list each move once."""
    return tuple(sorted((k, repr(v)) for k, v in move.items()))


# What each reader sees (referee.engine.information). Cards are played face up and coins
# flipped in sight of all; a refill card is seen by its holder only; a points card is taken
# "without looking at it" (Stash Attempt) and shown when the clans reveal their points at the
# end of the game (Crowning the Winning Clan).
def _game_number(state: State, _item: dict | None = None) -> str:
    return f"game:{state['marathon']['game'] if state['marathon'] else 1}"


DISCLOSURE = Disclosure(
    moves={
        "play": PUBLIC,
        "draw": Hidden(("card",)),                                 # table chance: a refill card
        "decline": Hidden(("points_card",), seen_by="nobody", until=_game_number),
        "show": PUBLIC,                                            # unseen hands: an alpha card shown at the end
    },
    events={
        "card_played": PUBLIC, "cooperation": PUBLIC, "ball_stolen": PUBLIC, "ball_moved": PUBLIC,
        "stash_attempt": PUBLIC, "countered": PUBLIC, "coin_flipped": PUBLIC, "skip_played": PUBLIC,
        "skip_cancelled": PUBLIC, "replay": PUBLIC, "replay_lost": PUBLIC, "pair_forfeited": PUBLIC,
        "cards_drawn": PUBLIC,                                     # how many, never which
        "turn_skipped": PUBLIC, "turn_passed": PUBLIC, "declined": PUBLIC, "stash_succeeded": PUBLIC,
        "game_over": Reveals(lambda _state, event: [f"game:{event['game']}"]),   # the points cards
        "new_game": PUBLIC,
        "alpha_cards_to_show": PUBLIC, "alpha_shown": PUBLIC,     # unseen hands, Booster B
    },
)


def _pair_options(pairs: bool, deck_hockey: bool) -> list:
    if not pairs:
        return [None]
    options = [None, ("steal", None), ("movement", "black"), ("movement", "white"), ("stash", None)]
    if deck_hockey:
        options.append(("counter", None))
    return options


@lru_cache(maxsize=256)
def _block_options(kind: C.Kind) -> tuple:
    """Every (bars, directions) a block can be stated with (None: the block unused)."""
    if not kind.rows:
        return (None,)
    options: list = [None]
    bar_rows = [r for r in kind.rows if len(r) > 1]
    for sides in product(*(range(len(r)) for r in bar_rows)):
        it = iter(sides)
        chosen = [r[next(it)] if len(r) > 1 else r[0] for r in kind.rows]
        moves = sum(1 for opt in chosen for e in opt.effects if e[0] == "movement")
        for directions in product(("black", "white"), repeat=moves):
            options.append((tuple(sides), tuple(directions)))
    return tuple(options)


@lru_cache(maxsize=1 << 16)
def _choices(card: str, top_card: str, spot: int, colour: str, clan: str, deck_hockey: bool,
             answering: bool, cooperation: bool, coins: tuple | None, can_replay: bool = False) -> tuple:
    """Every legal (pair, block, order, coins) of playing ``card`` in this position.
    ``coins``: the generator's next faces (seeded), or None to enumerate faces (table)."""
    kind = C.KINDS[card]
    found = []
    for pair in _pair_options(_pairs(kind, C.KINDS[top_card]), deck_hockey):
        pair_json = None if pair is None else {"action": pair[0], "direction": pair[1]}
        for block in _block_options(kind):
            block_json = None if block is None else {"bars": list(block[0]), "directions": list(block[1])}
            for order in ((None,) if pair is None or block is None else ORDERS):
                bad, steps, flips = _plan(kind, card, top_card, pair_json, block_json, order, deck_hockey, cooperation)
                if bad:
                    continue
                faces_list = [coins[:flips]] if coins is not None else list(product(C.COIN_FACES, repeat=flips))
                for faces in faces_list:
                    bad, _ = _run(kind, card, steps, spot, colour, clan, faces, answering, can_replay)
                    if not bad:
                        found.append((pair, block, order, faces if coins is None and flips else None))
    return tuple(found)


@lru_cache(maxsize=1 << 14)
def _choices_before_flips(card: str, top_card: str, spot: int, colour: str, clan: str, deck_hockey: bool,
                          answering: bool, cooperation: bool, can_replay: bool = False) -> tuple:
    """Table chance with unseen hands: every legal (pair, block, order, faces), the card judged
    before its flips as with the generator, so a face that makes the pair played after the
    block impossible is listed too (the pair is then forfeited)."""
    kind = C.KINDS[card]
    found = []
    plans = dict.fromkeys((pair, block, order) for pair, block, order, _ in
                          _choices(card, top_card, spot, colour, clan, deck_hockey, answering, cooperation, None,
                                   can_replay))
    for pair, block, order in plans:
        pair_json = None if pair is None else {"action": pair[0], "direction": pair[1]}
        block_json = None if block is None else {"bars": list(block[0]), "directions": list(block[1])}
        _, steps, flips = _plan(kind, card, top_card, pair_json, block_json, order, deck_hockey, cooperation)
        for faces in product(C.COIN_FACES, repeat=flips):
            bad, _ = _run(kind, card, steps, spot, colour, clan, faces, answering, can_replay)
            if bad and flips:
                bad, _, _ = _judge_before_flips(kind, card, steps, (spot, colour, clan), faces, answering, can_replay)
            if not bad:
                found.append((pair, block, order, faces or None))
    return tuple(found)


def _alpha_playable(state: State, seat: int) -> bool:
    """Booster B: the seat still has its alpha card and the paw deck is not empty."""
    return bool(state["paw_deck"]) and _holds_alpha(state["players"][seat])


def _can_play(state: State, seat: int) -> bool:
    """Whether the seat has a card it may play on its own turn (a paw card or its alpha card)."""
    return bool(state["players"][seat]["hand"]) or _alpha_playable(state, seat)


def _clan_totals(points: Mapping[str, list], players: list | None = None) -> dict:
    """Rulebook, Crowning the Winning Clan: each clan's points and sardines. Boosters: Pasta's
    left half is worth 3 with the right half; an alpha card still in front of a player at the
    end adds its sardines (Manx, Lykoi) to that player's clan (rules notes)."""
    totals = {clan: {"points": C.clan_points(points[clan], clan),
                     "sardines": sum(C.sardines(card) for card in points[clan])}
              for clan in C.CLANS}
    for player in players or ():
        alpha = player.get("alpha")
        if alpha is not None:
            totals[player["clan"]]["sardines"] += C.KINDS[alpha].sardines
    return totals


class Catatac(Game):
    """CATATAC, 2, 4 or 6 players in two alternating clans, with the Deck Hockey, Kittens and
    Marathon variants. See the module docstring for the state and move shapes."""

    id = GAME_ID
    title = "CATATAC"
    player_counts = (2, 4, 6)
    rules_version = "catatac/en-1"
    messages = MESSAGES
    disclosure = DISCLOSURE
    word_params = frozenset({"action", "bar", "condition", "direction", "effect", "expected", "field", "given",
                             "reason", "side", "spot"})

    # -- description ---------------------------------------------------------------------

    def options_info(self) -> dict:
        return {
            "chance": {"default": "seeded", "enum": list(CHANCE_MODES),
                       "description": "seeded: the generator shuffles, deals and flips the coin; table: moves carry "
                                      "the coin faces, refill cards and points cards seen at a physical table"},
            "seat0_clan": {"default": "white", "enum": list(C.CLANS),
                           "description": "clan of seat 0; the clans alternate around the table"},
            "first_player": {"default": 0, "description": "seat that plays first (the rulebook's youngest kitten)"},
            "deck_hockey": {"default": False, "description": "Deck Hockey variant: a pair can also counter a stash attempt"},
            "kittens": {"default": False,
                        "description": "Kittens variant: only paw cards numbered 1 to 5 (named ones included; no Jokers): "
                                       "35 cards, so 2 or 4 players (6 with boosters adding enough cards)"},
            "marathon": {"default": False,
                         "description": "Marathon variant: 3 complete games in a row, points added; the referee deals each next game"},
            "boosters": {"default": [], "items": list(C.BOOSTERS),
                         "description": "boosters in play, any combination: distraction (Booster A: 8 paw cards, 2 of "
                                        "them removed unseen, the purple points card, Skip icon), alpha (Booster B: "
                                        "one face-down alpha card per player from their clan's pile, the 2 Pasta "
                                        "points cards), momentum (Booster C: 8 paw cards, 2 of them removed unseen, "
                                        "the Momentum yellow points card, Replay icon); Bengal (A) and Ragdoll (C) "
                                        "join the alpha piles only with alpha"},
            "hands": {"default": "seen", "enum": list(HANDS_MODES),
                      "description": "unseen (with chance table): the table sees only face-up cards; hands and the "
                                     "paw deck are null, paw cards are named by kind (P3, joker, capture-2), refills "
                                     "are automatic; alpha cards lie face down until played or shown at the end"},
            "deal": {"default": None,
                     "description": "setup with table chance only (unseen hands: {discard: kind, coin} only): "
                                    "{hands: [[6 ids] per seat], discard: id, coin: "
                                    "white|black, removed: [2 paw ids per booster distraction/momentum], alpha: "
                                    "[alpha id per seat] (with alpha)}. Without it the referee deals from the "
                                    "seed (the table then deals those cards); a table that shuffled its own cards "
                                    "sends what it dealt"},
        }

    def catalogue(self, options: Mapping[str, Any] | None = None) -> dict:
        """The cards in use: ``{"spots", "paw_cards": [...], "points_cards": [...], "alpha_cards":
        [...], "boosters": {name: {"in_play", "paw_cards", "removed_unseen", "points_cards",
        "alpha_cards"}}}``: the paw, points and alpha cards of the boosters in play are included
        (the paw cards removed unseen at setup among them); ``boosters`` describes all three.
        ``kinds``: ``[{"kind", "count"}]``, each paw card kind (a card as printed: ``P3``,
        ``joker``, ``capture-2``) with its copies, the names unseen hands use."""
        full = _normalise_options(2, {k: v for k, v in (options or {}).items() if k != "first_player"})
        boosters = _boosters(full)
        points = C.POINTS_CARDS
        return {
            "spots": list(C.SPOTS),
            "hand_size": C.HAND_SIZE,
            "paw_cards": [C.kind_json(card) for card in C.game_paw_cards(full["kittens"], boosters)],
            "points_cards": [{"id": card, "points": {"white": points[card][0], "black": points[card][1]},
                              "sardines": points[card][2]} for card in C.points_ids(boosters)],
            "alpha_cards": [C.alpha_json(card) for clan in C.CLANS for card in C.alpha_pile(clan, boosters)],
            "boosters": {b: {"in_play": b in boosters,
                             "paw_cards": ([C.kind_json(c) for c in C.booster_paw_cards(b, full["kittens"])]
                                           if b in C.PAW_BOOSTERS else []),
                             "removed_unseen": C.REMOVED_PER_BOOSTER if b in C.PAW_BOOSTERS else 0,
                             "points_cards": [{"id": c, "points": {"white": w, "black": k}, "sardines": f}
                                              for c, (w, k, f) in C.BOOSTER_POINTS[b].items()],
                             "alpha_cards": [C.alpha_json(c) for c in C.ALPHA_IDS if C.ALPHA_BOOSTER[c] == b]}
                         for b in C.BOOSTERS},
            "coin": {"0": C.COIN_FACES[0], "1": C.COIN_FACES[1]},
            "kinds": [{"kind": kind, "count": count}
                      for kind, count in C.kind_counts(full["kittens"], boosters).items()],
        }

    # -- setup ---------------------------------------------------------------------------

    def setup(self, players: int, seed: str, options: Mapping[str, Any] | None = None) -> State:
        """Rulebook, Setup: clans alternate (seat 0's clan is ``seat0_clan``); the paw deck is
        shuffled, 6 cards dealt to each seat (round robin from seat 0), the next card turned to
        start the discard pile; the 8 points cards are shuffled; a coin flip gives possession;
        the ball goes on the neutral alley; ``first_player`` plays first. The generator is used
        in that order: paw shuffle, points shuffle, coin. With ``chance: table`` and
        ``options.deal``, the hands, the turned card and the coin come from the table.

        The Boosters (``options.boosters``): Distraction and Momentum each put 2 of their paw
        cards back in the box unseen (``box``) and add the others and their points card;
        Alpha adds its 2 points cards and gives each player an alpha card of their clan's
        colour (``players[s].alpha``), the rest set aside (``alpha_aside``); Bengal and Ragdoll
        join the clans' alpha piles only with Alpha. The generator is then used in the order:
        each paw booster's shuffle (its first 2 cards go to the box; Distraction first), paw
        shuffle, points shuffle, each clan's alpha pile shuffle (White first; the clan's seats
        in seat order take the top cards), coin. A state with boosters also carries ``skip``
        (a Skip pending while the player who played it refills at a table). Raises InvalidOptions."""
        full = _normalise_options(players, options)
        rng = Rng(seed)
        deal = (options or {}).get("deal")
        state: State = {
            "game": GAME_ID,
            "schema_version": self.schema_version,
            "options": full,
            "players": [{"clan": _clan_of(s, full["seat0_clan"]), "hand": []} for s in range(players)],
            "points": {"white": [], "black": []},
            "stash": None,
            "marathon": {"game": 1, "completed": []} if full["marathon"] else None,
            "finished": False,
        }
        if deal is not None and full.get("hands") == "unseen":
            self._unseen_deal(state, full, deal)
        elif deal is not None:
            self._table_deal(state, full, deal)
        else:
            self._deal(state, rng)
        state["rng"] = rng.to_state()
        return state

    @staticmethod
    def _unseen_deal(state: State, full: dict, deal: Any) -> None:
        """Unseen hands at a physical table: the deal names the card turned (by kind) and the coin."""
        if (not isinstance(deal, dict) or set(deal) - {"discard", "coin"} or deal.get("coin") not in C.COIN_FACES
                or not isinstance(deal.get("discard"), str)):
            raise InvalidOptions([("/options/deal", "with unseen hands the deal names only the card turned and the "
                                                    "coin: {discard: kind, coin: white|black}")])
        boosters = _boosters(full)
        counts = C.kind_counts(full["kittens"], boosters)
        turned = deal["discard"]
        if turned not in C.KINDS or C.kind_of(turned) not in counts:
            raise InvalidOptions([("/options/deal/discard", f"not a paw card of this game: {turned!r}")])
        n = len(state["players"])
        for player in state["players"]:
            player["hand"] = [None] * C.HAND_SIZE
        state["discard"] = [C.kind_of(turned)]
        removed = C.REMOVED_PER_BOOSTER * sum(1 for b in C.PAW_BOOSTERS if b in boosters)
        state["paw_deck"] = [None] * (sum(counts.values()) - C.HAND_SIZE * n - 1 - removed)
        state["points_deck"] = sorted(C.points_ids(boosters))
        if boosters:
            _face_down_deal(state, boosters, [None] * removed)
        state["ball"] = {"spot": C.SPOTS[C.NEUTRAL], "colour": deal["coin"]}
        state["turn"] = {"player": full["first_player"], "phase": "play"}

    @staticmethod
    def _deal(state: State, rng: Rng) -> None:
        """Shuffle and deal a game into ``state`` (setup, and each Marathon game)."""
        options = state["options"]
        boosters = _boosters(options)
        n = len(state["players"])
        kittens = options["kittens"]
        box: list[str] = []
        cards = list(C.paw_cards(kittens))
        for booster in C.PAW_BOOSTERS:
            if booster in boosters:
                contents = rng.shuffle(list(C.booster_paw_cards(booster, kittens)))
                box.extend(contents[:C.REMOVED_PER_BOOSTER])
                cards.extend(c for c in C.booster_paw_cards(booster, kittens) if c not in contents[:C.REMOVED_PER_BOOSTER])
        ids = rng.shuffle(cards)
        dealt = C.HAND_SIZE * n
        for seat, player in enumerate(state["players"]):
            player["hand"] = ids[seat:dealt:n] if options.get("hands") != "unseen" else [None] * C.HAND_SIZE
        state["discard"] = [ids[dealt]]
        deck = ids[dealt + 1:]
        points = rng.shuffle(list(C.points_ids(boosters)))
        if boosters:
            aside: list[str] = []
            for player in state["players"]:
                player["alpha"] = None
            for clan in C.CLANS:
                pile = rng.shuffle(list(C.alpha_pile(clan, boosters)))
                for player in state["players"]:
                    if player["clan"] == clan and pile:
                        player["alpha"] = pile.pop(0)
                aside.extend(pile)
            state["box"] = sorted(box)
            state["alpha_aside"] = sorted(aside)
            state["skip"] = False
            if options.get("hands") == "unseen":
                _face_down_deal(state, boosters, [None] * len(box))
        colour = C.COIN_FACES[rng.coin()]
        if options["chance"] == "table":
            deck.sort()
            points.sort()
        state["discard"] = [C.kind_of(state["discard"][0])] if options.get("hands") == "unseen" else state["discard"]
        state["paw_deck"] = [None] * len(deck) if options.get("hands") == "unseen" else deck
        state["points_deck"] = points
        state["points"] = {"white": [], "black": []}
        state["ball"] = {"spot": C.SPOTS[C.NEUTRAL], "colour": colour}
        state["turn"] = {"player": options["first_player"], "phase": "play"}
        state["stash"] = None

    @staticmethod
    def _table_deal(state: State, full: dict, deal: Any) -> None:
        """Setup at a physical table: the deal as seen (with boosters, the paw cards removed
        unseen, as the table names them, and each seat's alpha card)."""
        if full["chance"] != "table":
            raise InvalidOptions([("/options/deal", "a dealt table is only accepted with chance 'table'")])
        n = len(state["players"])
        if (not isinstance(deal, dict) or not isinstance(deal.get("hands"), list)
                or not isinstance(deal.get("discard"), str) or deal.get("coin") not in C.COIN_FACES):
            raise InvalidOptions([("/options/deal", "must be {hands: [[6 card ids] per seat], discard: id, coin: white|black}")])
        boosters = _boosters(full)
        kittens = full["kittens"]
        errors: list[tuple[str, str]] = []
        hands = deal["hands"]
        if len(hands) != n:
            errors.append(("/options/deal/hands", f"needs one hand per player ({n})"))
        known = C.game_paw_set(kittens, boosters)
        seen: set[str] = set()
        entries = [(f"/options/deal/hands/{i}/{j}", c) for i, h in enumerate(hands)
                   for j, c in enumerate(h if isinstance(h, list) else [])]
        entries.append(("/options/deal/discard", deal["discard"]))
        removed = deal.get("removed", [])
        paw_boosters = [b for b in C.PAW_BOOSTERS if b in boosters]
        if not isinstance(removed, list) or len(removed) != C.REMOVED_PER_BOOSTER * len(paw_boosters):
            errors.append(("/options/deal/removed", f"names the {C.REMOVED_PER_BOOSTER} paw cards removed unseen "
                                                    "from each booster in play (distraction, momentum)"))
            removed = []
        else:
            for booster in paw_boosters:
                mine = [c for c in removed if c in C.BOOSTER_PAW_CARDS[booster]]
                if len(mine) != C.REMOVED_PER_BOOSTER:
                    errors.append(("/options/deal/removed", f"names {C.REMOVED_PER_BOOSTER} paw cards of the {booster} booster"))
            entries.extend((f"/options/deal/removed/{i}", c) for i, c in enumerate(removed))
        for i, h in enumerate(hands):
            if not isinstance(h, list) or len(h) != C.HAND_SIZE:
                errors.append((f"/options/deal/hands/{i}", f"must hold {C.HAND_SIZE} card ids"))
        for pointer, card in entries:
            if card not in known:
                errors.append((pointer, unknown_id(card)))
            elif card in seen:
                errors.append((pointer, f"card {card} is dealt twice"))
            seen.add(card)
        alpha: Any = deal.get("alpha")
        if C.ALPHA in boosters:
            if not isinstance(alpha, list) or len(alpha) != n:
                errors.append(("/options/deal/alpha", f"names the alpha card drawn by each seat ({n})"))
            else:
                for seat, card in enumerate(alpha):
                    if card not in C.alpha_pile(_clan_of(seat, full["seat0_clan"]), boosters):
                        errors.append((f"/options/deal/alpha/{seat}", "not an alpha card of this seat's clan pile"))
                    elif alpha.index(card) != seat:
                        errors.append((f"/options/deal/alpha/{seat}", f"alpha card {card} is drawn twice"))
        elif alpha is not None:
            errors.append(("/options/deal/alpha", "alpha cards are drawn only with the alpha booster"))
        if errors:
            raise InvalidOptions(errors)
        for seat, player in enumerate(state["players"]):
            player["hand"] = list(hands[seat])
        state["discard"] = [deal["discard"]]
        state["paw_deck"] = sorted(known - seen)
        state["points_deck"] = sorted(C.points_ids(boosters))
        if boosters:
            held = list(alpha) if C.ALPHA in boosters else [None] * n
            for seat, player in enumerate(state["players"]):
                player["alpha"] = held[seat]
            state["box"] = sorted(removed)
            state["alpha_aside"] = sorted(C.alpha_set(boosters) - set(held))
            state["skip"] = False
        state["ball"] = {"spot": C.SPOTS[C.NEUTRAL], "colour": deal["coin"]}
        state["turn"] = {"player": full["first_player"], "phase": "play"}

    # -- consistency ---------------------------------------------------------------------

    def check_state(self, state: State) -> None:
        """Raise InvalidState unless every paw card and points card is in exactly one place,
        clans alternate, hands hold at most 6 cards, the ball is in a hideout exactly while a
        stash attempt is pending, and the turn, stash and marathon fields agree. With boosters:
        the box holds 2 paw cards of each paw booster in play, every alpha card of the piles is
        in front of a player of its clan, on the discard pile or set aside, each player drew
        one, and ``skip`` is pending only while its player refills at a table."""
        if state.get("game") != GAME_ID:
            raise InvalidState([("/game", f"this endpoint judges {GAME_ID} states")])
        if state.get("schema_version") != self.schema_version:
            raise InvalidState([("/schema_version", f"supported schema version is {self.schema_version}")])
        players = state["players"]
        n = len(players)
        try:
            facts: _TableFacts = _state_facts(n, state["options"])
        except InvalidOptions as bad:
            raise InvalidState(bad.errors) from None
        full, boosters, unseen = facts.full, facts.boosters, facts.unseen
        known, alphas, points_set = facts.known, facts.alphas, facts.points
        errors: list[tuple[str, str]] = list(facts.option_errors)
        # The common case (every card in exactly one place) is checked with sets; the per-card
        # pass below, which finds the pointers, runs only when that check fails.
        placed = not unseen and _cards_placed(state, boosters, known, alphas, points_set)
        where: dict[str, str] = {}

        def claim(card: Any, pointer: str, universe: frozenset, places: dict) -> None:
            claim_place(errors, places, universe, card, pointer)

        clans = facts.clans
        for seat, player in enumerate(players):
            if player["clan"] != clans[seat]:
                errors.append((f"/players/{seat}/clan", "clans alternate around the table from options.seat0_clan"))
            if len(player["hand"]) > C.HAND_SIZE:
                errors.append((f"/players/{seat}/hand", f"a hand holds at most {C.HAND_SIZE} cards"))
            if "has_alpha" in player and not (unseen and C.ALPHA in boosters):
                errors.append((f"/players/{seat}/has_alpha", "present only with unseen hands and the alpha booster"))
            if not unseen and not placed:
                for i, card in enumerate(player["hand"]):
                    claim(card, f"/players/{seat}/hand/{i}", known, where)
        if not state["discard"]:
            errors.append(("/discard", "the discard pile holds at least the card turned at setup"))
        if unseen:
            errors.extend(self._unseen_places(state, full))
        for i, card in enumerate(() if unseen or placed else state["paw_deck"]):
            claim(card, f"/paw_deck/{i}", known, where)
        awhere: dict[str, str] = {}
        for i, card in enumerate(() if unseen or placed else state["discard"]):
            if card in alphas:
                claim(card, f"/discard/{i}", alphas, awhere)
            else:
                claim(card, f"/discard/{i}", known, where)
        if boosters:
            self._check_boosters(state, full, boosters, claim, where, awhere, errors, placed)
        else:
            for key in ("box", "alpha_aside", "skip"):
                if key in state:
                    errors.append((f"/{key}", "present only when boosters are in play"))
            for seat, player in enumerate(players):
                if "alpha" in player:
                    errors.append((f"/players/{seat}/alpha", "present only when boosters are in play"))
        if not placed:
            missing = () if unseen else known.difference(where)
            if missing:
                errors.append(("", f"paw cards missing from every place: {', '.join(sorted(missing))}"))
            pwhere: dict[str, str] = {}
            for i, card in enumerate(state["points_deck"]):
                claim(card, f"/points_deck/{i}", points_set, pwhere)
            for clan in C.CLANS:
                for i, card in enumerate(state["points"][clan]):
                    claim(card, f"/points/{clan}/{i}", points_set, pwhere)
            pmissing = points_set.difference(pwhere)
            if pmissing:
                errors.append(("", f"points cards missing from every place: {', '.join(sorted(pmissing))}"))

        turn, stash, finished = state["turn"], state["stash"], state["finished"]
        spot = C.SPOT_INDEX.get(state["ball"]["spot"])
        if spot is None:
            errors.append(("/ball/spot", f"must be one of {', '.join(C.SPOTS)}"))
        if state["ball"]["colour"] not in C.CLANS:
            errors.append(("/ball/colour", "must be white or black"))
        if not 0 <= turn["player"] < n:
            errors.append(("/turn/player", f"must be a seat from 0 to {n - 1}"))
        phase = turn["phase"]
        if phase not in PHASES:
            errors.append(("/turn/phase", f"must be one of {', '.join(PHASES)}"))
        if (phase == "over") != bool(finished):
            errors.append(("/turn/phase", "the phase is 'over' exactly when the game is finished"))
        if phase == "refill" and (full["chance"] != "table" or unseen):
            errors.append(("/turn/phase", "a refill phase exists only with chance 'table' and seen hands"))
        if phase == "answer" and stash is None:
            errors.append(("/stash", "an answer phase needs a pending stash attempt"))
        if phase == "show" and (not unseen or not _face_down_alphas(state)
                                or (state["paw_deck"] or any(p["hand"] for p in players)) and state["points_deck"]):
            errors.append(("/turn/phase", "a show phase exists only with unseen hands, once the game has ended with "
                                          "alpha cards still face down"))
        elif phase == "show" and turn["player"] not in _face_down_alphas(state):
            errors.append(("/turn/player", "in the show phase, a seat whose alpha card is still face down"))
        if phase == "replay":
            if C.MOMENTUM not in boosters:
                errors.append(("/turn/phase", "a replay phase needs a Replay card (the momentum booster)"))
            if 0 <= turn["player"] < n and not _can_play(state, turn["player"]):
                errors.append(("/turn/player", "a replay is granted only to a player with a card left to play"))
        if state.get("skip") and phase != "refill":
            errors.append(("/skip", "a Skip is pending only while the player who played it refills at a table"))
        if stash is not None:
            if phase not in ("answer", "refill"):
                errors.append(("/turn/phase", "a pending stash attempt is answered (or the stasher refills first)"))
            if stash["clan"] not in C.CLANS:
                errors.append(("/stash/clan", "must be white or black"))
            else:
                if spot != C.HIDEOUT[stash["clan"]]:
                    errors.append(("/ball/spot", "during a stash attempt the ball is in the stashing clan's hideout"))
                for key in ("by", "next"):
                    if not 0 <= stash[key] < n:
                        errors.append((f"/stash/{key}", f"must be a seat from 0 to {n - 1}"))
                if 0 <= stash["by"] < n and players[stash["by"]]["clan"] != stash["clan"]:
                    errors.append(("/stash/by", "the stasher belongs to the stashing clan"))
                answer = stash["answer"]
                if (not answer or len(set(answer)) != len(answer)
                        or any(not 0 <= s < n or players[s]["clan"] == stash["clan"] for s in answer)):
                    errors.append(("/stash/answer", "distinct seats of the other clan, at least one"))
                if phase == "answer" and answer and answer[0] != turn["player"]:
                    errors.append(("/turn/player", "the first seat of stash.answer acts"))
        elif spot is not None and spot not in C.ALLEYS:
            errors.append(("/ball/spot", "the ball is in a hideout only while a stash attempt is pending"))
        if phase == "play" and 0 <= turn["player"] < n and not players[turn["player"]]["hand"]:
            errors.append(("/turn/player", "a player with no cards left is passed over"))
        marathon = state["marathon"]
        if (marathon is not None) != full["marathon"]:
            errors.append(("/marathon", "present exactly with the marathon option"))
        elif marathon is not None:
            done = len(marathon["completed"])
            if not 1 <= marathon["game"] <= MARATHON_GAMES or done != marathon["game"] - (0 if finished else 1):
                errors.append(("/marathon", "game 1 to 3, with every earlier game completed"))
        if errors:
            raise InvalidState(errors)

    @staticmethod
    def _unseen_places(state: State, full: dict) -> list[tuple[str, str]]:
        """Unseen hands: hands and the paw deck hold only nulls, the discard pile names kinds of
        the game, no kind more often than the game has it, and the discard pile and the unseen
        cards together are the whole paw deck."""
        errors: list[tuple[str, str]] = []
        counts = C.kind_counts(full["kittens"], _boosters(full))
        for i, card in enumerate(state.get("box", ())):
            if card is not None:
                errors.append((f"/box/{i}", "with unseen hands a card removed unseen is null"))
        for seat, player in enumerate(state["players"]):
            for i, card in enumerate(player["hand"]):
                if card is not None:
                    errors.append((f"/players/{seat}/hand/{i}", "with unseen hands a card in hand is null"))
        for i, card in enumerate(state["paw_deck"]):
            if card is not None:
                errors.append((f"/paw_deck/{i}", "with unseen hands a card of the paw deck is null"))
        named: dict[str, int] = {}
        alphas = C.alpha_set(_boosters(full))
        for i, card in enumerate(state["discard"]):
            if card is None:
                errors.append((f"/discard/{i}", "a face-up card is named by its kind (e.g. P3), never null"))
            elif card in alphas:
                continue   # played alpha cards: checked with the boosters
            elif card not in counts:
                detail = (f"with unseen hands cards are named by kind ({C.kind_of(card)}), not id"
                          if card in C.KINDS and C.kind_of(card) in counts else f"not a paw card of this game: {card!r}")
                errors.append((f"/discard/{i}", detail))
            else:
                named[card] = named.get(card, 0) + 1
        for kind, number in named.items():
            if number > counts[kind]:
                errors.append(("/discard", f"{number} cards {kind} are face up; the game has {counts[kind]}"))
        unseen = sum(len(p["hand"]) for p in state["players"]) + len(state["paw_deck"]) + len(state.get("box", ()))
        total = sum(counts.values())
        face_up = len(state["discard"]) - sum(1 for card in state["discard"] if card in alphas)
        if not errors and face_up + unseen != total:
            errors.append(("", f"{face_up} face-up and {unseen} unseen paw cards; the game has {total}"))
        return errors

    @staticmethod
    def _check_boosters(state: State, full: dict, boosters: tuple, claim, where: dict, awhere: dict,
                        errors: list, placed: bool) -> None:
        """The booster parts of check_state: the box, the alpha cards, the skip flag (``placed``:
        every card is known to be in exactly one place, so cards are not claimed one by one)."""
        players = state["players"]
        for key in ("box", "alpha_aside", "skip"):
            if key not in state:
                errors.append((f"/{key}", "required when boosters are in play"))
        box = state.get("box", [])
        paw_boosters = [b for b in C.PAW_BOOSTERS if b in boosters]
        known = C.game_paw_set(full["kittens"], boosters)
        unseen = full.get("hands") == "unseen"   # the box holds nulls (checked with the hands)
        for i, card in enumerate(() if unseen or placed else box):
            claim(card, f"/box/{i}", known, where)
        for booster in () if unseen else paw_boosters:
            if sum(1 for c in box if c in C.BOOSTER_PAW_CARDS[booster]) != C.REMOVED_PER_BOOSTER:
                errors.append(("/box", f"the box holds {C.REMOVED_PER_BOOSTER} paw cards of the {booster} booster"))
        if len(box) != C.REMOVED_PER_BOOSTER * len(paw_boosters):
            errors.append(("/box", "only paw cards of the distraction and momentum boosters are removed"))
        alphas = C.alpha_set(boosters)
        if unseen and C.ALPHA in boosters:
            Catatac._check_face_down_alphas(state, alphas, claim, awhere, errors)
            return
        held = 0
        for seat, player in enumerate(players):
            if "alpha" not in player:
                errors.append((f"/players/{seat}/alpha", "required when boosters are in play (null: none in front)"))
                continue
            card = player["alpha"]
            if card is not None:
                held += 1
                if not placed:
                    claim(card, f"/players/{seat}/alpha", alphas, awhere)
                if card in alphas and C.KINDS[card].alpha != player["clan"]:
                    errors.append((f"/players/{seat}/alpha", "an alpha card of the player's clan colour"))
        if not placed:
            for i, card in enumerate(state.get("alpha_aside", [])):
                claim(card, f"/alpha_aside/{i}", alphas, awhere)
            missing = alphas.difference(awhere)
            if missing:
                errors.append(("", f"alpha cards missing from every place: {', '.join(sorted(missing))}"))
        played = sum(1 for c in state["discard"] if c in alphas)
        if alphas and held + played != len(players):
            errors.append(("/alpha_aside", "each player draws one alpha card: held and played ones make one per player"))

    @staticmethod
    def _check_face_down_alphas(state: State, alphas: frozenset, claim, awhere: dict, errors: list) -> None:
        """Unseen hands, Booster B: each seat holds its alpha card face down (``has_alpha``,
        ``alpha`` null) until it plays it or shows it at the end; the cards set aside are
        nulls; per clan, the alpha cards held and played make one per seat."""
        players = state["players"]
        showing = state["turn"]["phase"] in ("show", "over")
        per_clan = {clan: 0 for clan in C.CLANS}
        for seat, player in enumerate(players):
            held = player.get("has_alpha")
            if not isinstance(held, bool):
                errors.append((f"/players/{seat}/has_alpha", "required with unseen hands and the alpha booster: "
                                                             "whether an alpha card lies in front of the player"))
                continue
            per_clan[player["clan"]] += held
            if "alpha" not in player:
                errors.append((f"/players/{seat}/alpha", "required when boosters are in play (null: face down, "
                                                         "or none in front)"))
                continue
            card = player["alpha"]
            if card is None:
                if held and state["turn"]["phase"] == "over":
                    errors.append((f"/players/{seat}/alpha", "a face-down alpha card is shown before the game is over"))
                continue
            if not (held and showing):
                errors.append((f"/players/{seat}/alpha", "with unseen hands an alpha card is named only when shown "
                                                         "at the end (null while face down)"))
            claim(card, f"/players/{seat}/alpha", alphas, awhere)
            if card in alphas and C.KINDS[card].alpha != player["clan"]:
                errors.append((f"/players/{seat}/alpha", "an alpha card of the player's clan colour"))
        for i, card in enumerate(state["discard"]):
            if card in alphas:
                claim(card, f"/discard/{i}", alphas, awhere)
                per_clan[C.KINDS[card].alpha] += 1  # type: ignore[index]  # an alpha card has its clan
        aside = state.get("alpha_aside", [])
        if any(card is not None for card in aside) or len(aside) != len(alphas) - len(players):
            errors.append(("/alpha_aside", f"with unseen hands {len(alphas) - len(players)} nulls: the alpha cards "
                                           "set aside unseen"))
        for clan, count in per_clan.items():
            seats = sum(1 for p in players if p["clan"] == clan)
            if count != seats:
                errors.append(("/players", f"each {clan} player draws one alpha card: {count} held or played, "
                                           f"{seats} players"))

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[dict]:
        """Every move the acting player(s) may make now. A play is listed once per card and
        choice (pair action and direction, block sides and directions, order). With seeded
        chance, coin faces and refill cards are left out (the generator decides); with table
        chance, moves list every possible coin face, points card and refill card. An alpha card
        is listed for its holder's own turn (and answer) while the paw deck is not empty; a
        replay phase lists the plays of the player replaying only."""
        if state["finished"]:
            return []
        turn = state["turn"]
        seat, phase = turn["player"], turn["phase"]
        table = state["options"]["chance"] == "table"
        if phase == "refill":
            return [{"type": "draw", "player": seat, "card": card} for card in sorted(set(state["paw_deck"]))]
        if phase == "show":
            return [{"type": "show", "player": holder, "card": card, TABLE_FILLS: ["card"]}
                    for holder in _face_down_alphas(state)
                    for card in _unseen_alpha_kinds(state, state["players"][holder]["clan"])]
        if phase == "replay":
            return self._plays(state, seat, False, False)
        moves: list[dict] = []
        if phase == "answer":
            stash = state["stash"]
            if len(stash["answer"]) > 1 or not table:
                moves.append({"type": "decline", "player": seat})
            else:
                fills = {TABLE_FILLS: ["points_card", "coins"]} if _unseen(state) else {}
                for card in sorted(set(state["points_deck"])):
                    for face in C.COIN_FACES:
                        moves.append({"type": "decline", "player": seat, "points_card": card, "coins": [face], **fills})
            moves.extend(self._plays(state, seat, True, seat != stash["next"]))
            return moves
        moves.extend(self._plays(state, seat, False, False))
        clan = state["players"][seat]["clan"]
        for mate, player in enumerate(state["players"]):
            if mate != seat and player["clan"] == clan:
                moves.extend(self._plays(state, mate, False, True))
        return moves

    def _plays(self, state: State, seat: int, answering: bool, cooperation: bool) -> list[dict]:
        player = state["players"][seat]
        hand = player["hand"]
        alpha = not cooperation and _alpha_playable(state, seat)
        cards = hand + [player["alpha"]] if alpha else hand
        by_kind = _unseen(state)
        if by_kind:
            # Any kind still unseen may be in the hand (and any alpha card of the clan still
            # unseen face down): each is listed, the table names the one played.
            cards = _unseen_kinds(state) if hand else []
            if alpha:
                cards = cards + _unseen_alpha_kinds(state, player["clan"])
        # Replay needs a card left to play at once: another paw card, or the alpha card.
        replay_after_paw = not cooperation and (len(hand) > 1 or alpha)
        replay_after_alpha = bool(hand)
        table = state["options"]["chance"] == "table"
        top = state["discard"][-1]
        ball = state["ball"]
        spot, colour = C.SPOT_INDEX[ball["spot"]], ball["colour"]
        clan = state["players"][seat]["clan"]
        hockey = state["options"]["deck_hockey"]
        out: list[dict] = []
        for card in cards:
            kind = C.KINDS[card]
            if cooperation and not kind.cooperation:
                continue
            if answering and not (kind.counter_icon or hockey):
                continue
            can_replay = replay_after_alpha if kind.alpha else replay_after_paw
            if by_kind:   # unseen hands: a kind, judged before its flips
                choices = _choices_before_flips(card, top, spot, colour, clan, hockey, answering, cooperation,
                                                can_replay)
            else:
                choices = _choices(card, top, spot, colour, clan, hockey, answering, cooperation, None, can_replay)
            if not table:
                # Seeded: the choices the player makes before the flip, each listed once.
                choices = tuple(dict.fromkeys((pair, block, order, None) for pair, block, order, _ in choices))
            for pair, block, order, faces in choices:
                move = {"type": "play", "player": seat, "card": card,
                        "pair": None if pair is None else {"action": pair[0], "direction": pair[1]},
                        "block": None if block is None else {"bars": list(block[0]), "directions": list(block[1])},
                        "order": order}
                if faces:
                    move["coins"] = list(faces)
                if by_kind:
                    move[TABLE_FILLS] = ["card", "coins"] if faces else ["card"]
                out.append(move)
        return out

    def seat_moves(self, state: State, seat: int) -> list[dict]:
        """The moves of ``seat`` now, as it can know them: with table chance the refill card
        and the points card taken are null (the table names them), each move listed once, and
        ``table_fills`` names the fields the table fills in (a null pair, block or order is a
        choice: not used)."""
        moves = [move for move in self.legal_moves(state) if move["player"] == seat]
        if state["options"]["chance"] != "table":
            return moves
        shown: dict[tuple, dict] = {}
        for move in moves:
            if move["type"] == "draw":
                move = dict(move, card=None, **{TABLE_FILLS: ["card"]})
            elif "points_card" in move:
                move = dict(move, points_card=None, **{TABLE_FILLS: ["points_card", "coins"]})
            elif TABLE_FILLS not in move and "coins" in move:
                move = dict(move, **{TABLE_FILLS: ["coins"]})
            shown.setdefault(_move_key(move), move)
        return list(shown.values())

    def apply(self, state: State, move: dict) -> tuple[State, list[dict]]:
        """Judge and apply one move. Raises Illegal (see MESSAGES for the codes and sections)."""
        if state["finished"]:
            raise _illegal("GAME_OVER")
        if state["options"]["chance"] != "table":
            for field in ("coins", "draw", "points_card"):
                if move.get(field) is not None:
                    raise _illegal("SEEDED_CHANCE", field=field)
        turn = state["turn"]
        seat, kind = move["player"], move["type"]
        if not 0 <= seat < len(state["players"]):
            raise _illegal("NO_SUCH_PLAYER", player=seat, last=len(state["players"]) - 1)
        phase = turn["phase"]
        if phase == "refill":
            if seat != turn["player"]:
                raise _illegal("NOT_YOUR_TURN", turn=turn["player"], player=seat)
            if kind != "draw":
                raise _illegal("REFILL_PENDING", turn=turn["player"])
            return self._draw(state, move)
        if phase == "show":
            if kind != "show":
                raise _illegal("SHOW_PENDING", players=", ".join(map(str, _face_down_alphas(state))))
            return self._show(state, move)
        if kind == "show":
            raise _illegal("NOTHING_TO_SHOW")
        if kind == "draw":
            raise _illegal("REFILL_UNSEEN" if _unseen(state) else "NO_REFILL_PENDING")
        if phase == "replay":
            if seat != turn["player"] or kind != "play":
                raise _illegal("REPLAY_PENDING", turn=turn["player"])
            return self._play(state, move, answering=False, cooperation=False)
        if phase == "answer":
            if seat != turn["player"]:
                raise _illegal("STASH_PENDING", turn=turn["player"])
            if kind == "decline":
                return self._decline(state, move)
            return self._play(state, move, answering=True, cooperation=seat != state["stash"]["next"])
        if kind == "decline":
            raise _illegal("NO_STASH_TO_ANSWER")
        players = state["players"]
        if seat != turn["player"]:
            if not (0 <= seat < len(players)) or players[seat]["clan"] != players[turn["player"]]["clan"]:
                raise _illegal("NOT_YOUR_TURN", turn=turn["player"], player=seat)
            return self._play(state, move, answering=False, cooperation=True)
        return self._play(state, move, answering=False, cooperation=False)

    def _play(self, state: State, move: dict, answering: bool, cooperation: bool) -> tuple[State, list[dict]]:
        """Rulebook, 1. Play a Paw Card / Making a Pair / Activating the Action Block / The
        "Combo" / Cooperation / 2. Influencing the Yarn Ball / Countering a Stash."""
        seat = move["player"]
        card: Any = move.get("card")
        player = state["players"][seat]
        hand = player["hand"]
        unseen = _unseen(state)
        if unseen:
            card = self._unseen_card(state, seat, card)
        from_hand = card not in C.ALPHA_IDS if unseen else card in hand
        if not from_hand:
            if card not in C.ALPHA_IDS:
                raise _illegal("CARD_NOT_IN_HAND", card=card)
            if player.get("alpha") != card and not unseen:
                raise _illegal("ALPHA_NOT_HELD", card=card)
        for field in ("pair", "block", "order"):
            if field not in move:
                raise _illegal("CHOICE_MISSING", field=field)
        kind = C.KINDS[card]
        if cooperation and not kind.cooperation:
            raise _illegal("NOT_A_COOPERATION_CARD", card=card)
        if not from_hand and not state["paw_deck"]:
            raise _illegal("ALPHA_DECK_EMPTY")
        left = len(hand) - 1 if from_hand else len(hand)
        can_replay = not cooperation and (left > 0 or (from_hand and _alpha_playable(state, seat)))
        options = state["options"]
        table = options["chance"] == "table"
        top = state["discard"][-1]
        bad, steps, flips = _plan(kind, card, top, move["pair"], move["block"], move["order"],
                                  options["deck_hockey"], cooperation)
        if bad:
            raise Illegal(bad)
        rng = Rng.from_state(state["rng"])
        if table:
            faces = tuple(move.get("coins") or ())
            if len(faces) != flips:
                raise _illegal("COIN_COUNT", given=len(faces), needed=flips)
            if "draw" in move and move["draw"] is not None:
                raise _illegal("DRAW_SEPARATE")
        else:
            faces = tuple(C.COIN_FACES[rng.coin()] for _ in range(flips))
        ball = state["ball"]
        clan = state["players"][seat]["clan"]
        start = C.SPOT_INDEX[ball["spot"]], ball["colour"], clan
        bad, result = _run(kind, card, steps, *start, faces, answering, can_replay)
        forfeited = None
        if bad and (not table or unseen) and flips:
            # Unseen hands: the card is played before the flip, as with the generator (rules notes).
            bad, result, forfeited = _judge_before_flips(kind, card, steps, start, faces, answering, can_replay)
        if bad:
            raise Illegal(bad)
        spot, colour, stashed, effect_events, skip, replay = result
        turn = state["turn"]
        if answering:
            owner = state["stash"]["next"]
        else:
            owner = turn["player"]
        own_turn = not cooperation

        new = _copy_state(state)
        new["rng"] = rng.to_state()
        if unseen and from_hand:
            new["players"][seat]["hand"].pop()
        elif from_hand:
            new["players"][seat]["hand"].remove(card)
        elif unseen:
            new["players"][seat]["has_alpha"] = False
        else:
            new["players"][seat]["alpha"] = None
        new["discard"].append(card)
        new["ball"] = {"spot": C.SPOTS[spot], "colour": colour}
        events: list[dict] = [{"type": "card_played", "player": seat, "card": card,
                               "pair": move["pair"] is not None, "block": move["block"] is not None}]
        if not from_hand:
            events[0]["alpha"] = True
        if cooperation:
            events.append({"type": "cooperation", "player": seat, "skipped": owner})
        for event in effect_events:
            event["player"] = seat
        events.extend(effect_events)
        if forfeited is not None:
            events.append({"type": "pair_forfeited", "player": seat, "action": forfeited})
        if answering:
            new["stash"] = None
        if stashed:
            n = len(new["players"])
            nxt = (owner + 1) % n
            answer = [s for s in ((nxt + k) % n for k in range(n)) if new["players"][s]["clan"] != clan]
            new["stash"] = {"clan": clan, "by": seat, "next": nxt, "answer": answer}
        if skip:
            new["skip"] = True
        if replay:
            new["turn"] = {"player": seat, "phase": "replay"}
            events.append({"type": "replay", "player": seat})
            return new, events
        if own_turn:
            if table and not unseen:
                if len(new["players"][seat]["hand"]) < C.HAND_SIZE and new["paw_deck"]:
                    new["turn"] = {"player": seat, "phase": "refill"}
                    return new, events
            else:
                self._refill(new, seat, events)
        self._after_turn(new, events, owner)
        return new, events

    @staticmethod
    def _unseen_card(state: State, seat: int, card: Any) -> Any:
        """Unseen hands: the kind a play names, once it is checked the seat holds a card and a
        copy of that kind can still be unseen; an alpha card (Booster B), once it is checked the
        seat's face-down alpha card can be that one. Raises Illegal."""
        if card in C.ALPHA_IDS and C.ALPHA in _boosters(state["options"]):
            return Catatac._unseen_alpha(state, seat, card)
        if not state["players"][seat]["hand"]:
            raise _illegal("HAND_EMPTY", player=seat)
        if not isinstance(card, str) or card not in C.KINDS:
            raise _illegal("CARD_NOT_IN_HAND", card=card)
        kind = C.kind_of(card)
        count = C.kind_counts(state["options"]["kittens"], _boosters(state["options"])).get(kind, 0)
        if count == 0:
            raise _illegal("CARD_NOT_IN_GAME", card=kind)
        if state["discard"].count(kind) >= count:
            raise _illegal("CARD_ALREADY_SEEN", kind=kind, count=count)
        return kind

    @staticmethod
    def _unseen_alpha(state: State, seat: int, card: str) -> str:
        """Unseen hands, Booster B: ``card`` can be the alpha card face down in front of ``seat``:
        the seat holds one, drawn from its clan's pile, and no copy of it is face up. Raises Illegal."""
        player = state["players"][seat]
        if not player.get("has_alpha") or player["alpha"] is not None or C.KINDS[card].alpha != player["clan"]:
            raise _illegal("ALPHA_NOT_HELD", card=card)
        where = _alpha_seen_at(state, card)
        if where == "discard":
            raise _illegal("ALPHA_ALREADY_SEEN", card=card)
        if where is not None:
            raise _illegal("ALPHA_ALREADY_SHOWN", card=card, player=where)
        return card

    def _show(self, state: State, move: dict) -> tuple[State, list[dict]]:
        """Unseen hands, Booster B, Crowning the Winning Clan: an alpha card still in front of
        its player at the end adds its sardines, so each face-down one is shown (named) before
        the game is scored; any holder may show first. Raises Illegal."""
        seat = move["player"]
        if seat not in _face_down_alphas(state):
            raise _illegal("NOTHING_TO_SHOW")
        card = move.get("card")
        if card is None:
            raise _illegal("ALPHA_CARD_REQUIRED")
        # The tuple first: a card may be any JSON value, and a set cannot hold a list.
        if card not in C.ALPHA_IDS or card not in C.alpha_set(_boosters(state["options"])):
            raise _illegal("ALPHA_NOT_HELD", card=card)
        self._unseen_alpha(state, seat, card)
        new = _copy_state(state)
        new["players"][seat]["alpha"] = card
        events: list[dict] = [{"type": "alpha_shown", "player": seat, "card": card}]
        left = _face_down_alphas(new)
        if left:
            new["turn"] = {"player": left[0], "phase": "show"}
        else:
            self._game_end(new, events)
        return new, events

    @staticmethod
    def _refill(state: State, seat: int, events: list[dict]) -> None:
        """Rulebook, 3. Refilling Your Hand: draw up to 6 cards (seeded chance: the top cards)."""
        hand = state["players"][seat]["hand"]
        deck = state["paw_deck"]
        count = min(C.HAND_SIZE - len(hand), len(deck))
        if count > 0:
            hand.extend(deck[:count])
            del deck[:count]
            events.append({"type": "cards_drawn", "player": seat, "count": count})

    def _after_turn(self, state: State, events: list[dict], owner: int) -> None:
        """After a turn of ``owner`` (refill done): a pending stash is answered, else play goes on."""
        stash = state["stash"]
        if stash is not None:
            state["turn"] = {"player": stash["answer"][0], "phase": "answer"}
            return
        self._advance(state, events, owner)

    def _advance(self, state: State, events: list[dict], base: int) -> None:
        """Give the turn to the first seat clockwise after ``base`` holding cards; a player with
        no cards left is passed over. A seat with an empty hand while the paw deck still has
        cards (a deferred refill) has a turn with nothing to play and refills (rules notes).
        When the paw deck is empty and no hand holds a card, the game ends."""
        players = state["players"]
        n = len(players)
        table = state["options"]["chance"] == "table" and not _unseen(state)
        if not state["paw_deck"] and not any(p["hand"] for p in players):
            self._game_end(state, events)
            return
        skip = state.get("skip", False)
        if skip:
            state["skip"] = False
        seat = base
        for _ in range(2 * n + 2):
            seat = (seat + 1) % n
            if skip and (players[seat]["hand"] or state["paw_deck"]):
                # Booster Skip: the next turn (a refill-only turn too) is skipped, without drawing.
                skip = False
                events.append({"type": "turn_skipped", "player": seat})
                continue
            if players[seat]["hand"]:
                state["turn"] = {"player": seat, "phase": "play"}
                return
            events.append({"type": "turn_passed", "player": seat, "reason": "no_cards"})
            if state["paw_deck"]:
                if table:
                    state["turn"] = {"player": seat, "phase": "refill"}
                    return
                self._refill(state, seat, events)
        raise AssertionError("no seat can play")  # pragma: no cover - excluded by the check above

    def _draw(self, state: State, move: dict) -> tuple[State, list[dict]]:
        """Table chance, 3. Refilling Your Hand: one card drawn, as seen at the table."""
        card = move.get("card")
        if card is None:  # as a match's legal-moves lists it: the card is unknown until drawn
            raise _illegal("CARD_REQUIRED")
        if card not in state["paw_deck"]:
            options = state["options"]
            if card not in C.game_paw_set(options["kittens"], _boosters(options)):
                raise _illegal("UNKNOWN_CARD", card=card)  # as the stateless check: "unknown card id"
            raise _illegal("CARD_NOT_IN_DECK", card=card)
        new = _copy_state(state)
        seat = move["player"]
        new["paw_deck"].remove(card)
        new["players"][seat]["hand"].append(card)
        events = [{"type": "cards_drawn", "player": seat, "count": 1}]
        if len(new["players"][seat]["hand"]) < C.HAND_SIZE and new["paw_deck"]:
            return new, events
        self._after_turn(new, events, seat)
        return new, events

    def _decline(self, state: State, move: dict) -> tuple[State, list[dict]]:
        """Rulebook, Stash Attempt and Countering a Stash: a seat declines to counter; when no
        one is left to answer, the stash succeeds: the stashing clan takes the top points card
        unseen, the ball is flipped and put on the neutral alley, and the player who could not
        counter plays a normal turn."""
        seat = move["player"]
        stash = state["stash"]
        table = state["options"]["chance"] == "table"
        given_card = move.get("points_card")
        given_coins = move.get("coins")
        if len(stash["answer"]) > 1:
            if given_card is not None:
                raise _illegal("POINTS_CARD_NOT_TAKEN")
            if given_coins:
                raise _illegal("COIN_COUNT", given=len(given_coins), needed=0)
            new = _copy_state(state)
            new["stash"]["answer"].pop(0)
            new["turn"] = {"player": new["stash"]["answer"][0], "phase": "answer"}
            return new, [{"type": "declined", "player": seat}]
        deck = state["points_deck"]
        rng = Rng.from_state(state["rng"])
        if table:
            if given_card is None:
                raise _illegal("POINTS_CARD_REQUIRED")
            if given_card not in deck:
                raise _illegal("POINTS_CARD_NOT_IN_DECK", card=given_card)
            if given_coins is None or len(given_coins) != 1:
                raise _illegal("COIN_COUNT", given=len(given_coins or ()), needed=1)
            taken, face = given_card, given_coins[0]
        else:
            taken = deck[0]
            face = C.COIN_FACES[rng.coin()]
        new = _copy_state(state)
        new["rng"] = rng.to_state()
        new["points_deck"].remove(taken)
        new["points"][stash["clan"]].append(taken)
        new["ball"] = {"spot": C.SPOTS[C.NEUTRAL], "colour": face}
        new["stash"] = None
        events = [{"type": "declined", "player": seat},
                  {"type": "stash_succeeded", "clan": stash["clan"], "player": stash["by"]},
                  {"type": "coin_flipped", "colour": face, "spot": C.SPOTS[C.NEUTRAL]}]
        if not new["points_deck"]:
            self._game_end(new, events)
            return new, events
        n = len(new["players"])
        self._advance(new, events, (stash["next"] - 1) % n)
        return new, events

    def _game_end(self, state: State, events: list[dict]) -> None:
        """Rulebook, End of the Game (and the Marathon variant: the referee deals the next game).
        Unseen hands with Booster B: the alpha cards still face down are shown first (phase
        ``show``, event ``alpha_cards_to_show``), then the game is scored."""
        face_down = _face_down_alphas(state)
        if face_down:
            state["stash"] = None
            if "skip" in state:
                state["skip"] = False
            # Any holder listed may show first; turn.player names the first of them.
            state["turn"] = {"player": face_down[0], "phase": "show"}
            events.append({"type": "alpha_cards_to_show", "players": face_down})
            return
        totals = _clan_totals(state["points"], state["players"])
        marathon = state["marathon"]
        number = marathon["game"] if marathon else 1
        events.append({"type": "game_over", "game": number, "points": totals})
        if marathon is not None:
            marathon["completed"].append(totals)
            if marathon["game"] < MARATHON_GAMES:
                marathon["game"] += 1
                rng = Rng.from_state(state["rng"])
                self._deal(state, rng)
                state["rng"] = rng.to_state()
                events.append({"type": "new_game", "game": marathon["game"]})
                return
        state["finished"] = True
        state["stash"] = None
        if "skip" in state:
            state["skip"] = False
        state["turn"] = {"player": state["turn"]["player"], "phase": "over"}

    # -- scoring -------------------------------------------------------------------------

    def score(self, state: State) -> tuple[dict, Outcome]:
        """Rulebook, Crowning the Winning Clan: each clan adds its points cards (a two-valued
        card gives the value of the clan's colour); the most points wins; a tie goes to the
        clan with more sardines, then stays a tie (no winners). Points cards lie face down:
        until the end only their number is shown. Marathon: points of the three games added
        (sardines too, for the tiebreak); ``marathon.games`` gives each completed game, and once
        the Marathon is over ``clans`` shows its totals."""
        players = state["players"]
        finished = state["finished"]
        marathon = state["marathon"]
        white_seats: list[int] = []
        black_seats: list[int] = []
        for s, p in enumerate(players):
            (white_seats if p["clan"] == "white" else black_seats).append(s)  # (check_state: white or black)
        points = state["points"]
        clans: dict[str, dict[str, Any]] = {
            "white": {"seats": white_seats, "points_cards": len(points["white"]), "points": None, "sardines": None},
            "black": {"seats": black_seats, "points_cards": len(points["black"]), "points": None, "sardines": None}}
        scores: dict = {"clans": clans, "marathon": None}
        final = None
        if marathon is not None:
            games = marathon["completed"]
            totals = {clan: {"points": sum(g[clan]["points"] for g in games),
                             "sardines": sum(g[clan]["sardines"] for g in games)} for clan in C.CLANS}
            scores["marathon"] = {"game": marathon["game"], "games": list(games), "totals": totals}
            final = totals
        if not finished:
            return scores, UNFINISHED
        if final is None:
            final = _clan_totals(state["points"], players)
        for clan in C.CLANS:  # Marathon: the totals of the three games
            clans[clan].update(final[clan])
        white, black = final["white"], final["black"]
        if white["points"] != black["points"]:
            winner, tiebreak = ("white" if white["points"] > black["points"] else "black"), None
        elif white["sardines"] != black["sardines"]:
            winner, tiebreak = ("white" if white["sardines"] > black["sardines"] else "black"), "sardines"
        else:
            return scores, Outcome(True, (), "tie")
        return scores, Outcome(True, tuple(clans[winner]["seats"]), tiebreak)

    # -- views ---------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> State:
        """What seat ``seat`` sees (None: a spectator): other hands become counts, the decks
        sizes, the clans' points cards counts until the game is over (they lie face down and
        nobody looks at them); the generator is removed. Boosters: another seat's alpha card is
        shown only as ``has_alpha`` until the game is over (played, it is on the discard pile);
        the box and the alpha cards set aside show their sizes only. Unseen hands: every seat
        shows ``has_alpha`` and ``alpha`` (null while face down, named once shown at the end)."""
        seen = dict(state)
        seen["players"] = [
            {"clan": p["clan"], "hand": list(p["hand"])} if s == seat else {"clan": p["clan"], "hand_size": len(p["hand"])}
            for s, p in enumerate(state["players"])
        ]
        if "box" in state:
            # Boosters: the cards removed unseen and the alpha cards set aside stay unknown; an
            # alpha card lies face down in front of its holder until played.
            for s, (p, shown) in enumerate(zip(state["players"], seen["players"])):
                if "has_alpha" in p:   # unseen hands: the state holds only what the table sees
                    shown["alpha"], shown["has_alpha"] = p["alpha"], p["has_alpha"]
                elif s == seat or state["finished"]:
                    shown["alpha"] = p["alpha"]
                else:
                    shown["has_alpha"] = p["alpha"] is not None
            seen["box"] = {"size": len(state["box"])}
            seen["alpha_aside"] = {"size": len(state["alpha_aside"])}
        seen["paw_deck"] = {"size": len(state["paw_deck"])}
        seen["points_deck"] = {"size": len(state["points_deck"])}
        if not state["finished"]:
            seen["points"] = {clan: {"count": len(state["points"][clan])} for clan in C.CLANS}
        seen.pop("rng", None)
        return seen
