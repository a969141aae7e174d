"""Call of Katulhu rules (rulebook: shared/rulebooks/call-of-katulhu.en.txt). Pure.

Two players: seat 0 holds the blue toy deck, seat 1 the red one (6 toys each). Each round both
place 4 different toys of their 6 face down in slots 1 to 4 at the same time; the reveal removes
every toy beaten by the other's toy in the same slot; then each player attracts every cat on the
table whose shown toys all match their remaining toys slot by slot. See docs/rules-notes.md.

State (JSON)::

    {"game": "call-of-katulhu", "schema_version": 1,
     "options": {"chance": "seeded"|"table", "advanced": bool,
                 "catalogue": null (the default) | {toys, beats, cats, cat_count}},
     "players": [{"deck": "blue"|"red",            seat 0 blue, seat 1 red
                  "hand": [toy ids not placed],     catalogue order
                  "placement": null | [4 toy ids],  slot 1 first; hidden from the other player
                  "must_play": [toy ids],           advanced rule: set aside last round
                  "discard": null | cat id,         stall rule: the chosen cat, hidden
                  "cats": [cat ids attracted, in order]}, x2],
     "table": [cat ids face up, at most 5],
     "cat_deck": [cat ids, top first]   (table chance: the order is unknown, kept sorted),
     "discard_pile": [cat ids, oldest first],
     "phase": "place" | "stall" | "reveal" | "over",
     "round": int (1 for the first round, counts rounds played + 1),
     "quiet_rounds": int (rounds in a row in which no cat left the table),
     "end": null | "seven_cats" | "no_cats_left",
     "finished": bool,
     "rng": {"seed": str, "counter": int}}

Phases: "place": both players place toys (either order; the second placement reveals and
resolves the round); "stall": after 2 quiet rounds each player names a cat of the table to
discard (either order; the second choice discards); "reveal" (table chance only): cats are
turned up one move at a time until 5 are on the table; "over".

Moves::

    {"type": "place", "player": seat, "toys": [4 toy ids, slot 1 first]}
    {"type": "discard", "player": seat, "cat": cat id}          stall rule
    {"type": "reveal", "player": seat, "cat": cat id}           table chance only: a cat turned up
"""

from __future__ import annotations

from functools import lru_cache, partial
from itertools import permutations
from typing import Any, Mapping

from referee.engine.core import UNFINISHED, Game, Illegal, InvalidOptions, InvalidState, Outcome, State, violation
from referee.engine.information import PUBLIC, Disclosure, Hidden, Reveals
from referee.engine.memo import options_memo
from referee.engine.places import claim_place
from referee.engine.rng import Rng
from referee.games.call_of_katulhu import cards as C

GAME_ID = "call-of-katulhu"
TABLE_FILLS = "table_fills"   # a match's legal-moves at a table: the fields the table names

# Rulebook sections, as headed in the English rulebook (also msgids for translation).
SETUP = "Setup"
GAMEPLAY = "Gameplay"
ADVANCED = "Optional Advanced Game Rule"
CAT_CARDS = "Cat Cards"
SCORING = "Scoring"

CHANCE_MODES = ("seeded", "table")
PHASES = ("place", "stall", "reveal", "over")
OPTION_NAMES = ("chance", "advanced", "catalogue")
_OPTION_NAME_SET = frozenset(OPTION_NAMES)
_NO_CATS: dict[str, int] = dict.fromkeys(C.COLOURS, 0)  # a score sheet's sets (and points) before counting: copied

# Tiebreak steps (rulebook, Cat Cards), in order.
TIEBREAK_WHITE_BLACK_SET = "largest_white_or_black_set"
TIEBREAK_BASIC_SET = "largest_blue_red_or_yellow_set"
TIEBREAK_WHITE_BLACK_TOTAL = "most_white_and_black_cats"
TIEBREAK_SHARED = "shared"

# Every violation this game raises: code -> (message template, rule). The message is the msgid.
MESSAGES: dict[str, tuple[str, str]] = {
    "GAME_OVER": ("The game is over.", GAMEPLAY),
    "NO_SUCH_PLAYER": ("There is no player {player}: seat 0 has the blue deck, seat 1 the red deck.", SETUP),
    "PLACEMENT_PENDING": ("Both players place their 4 toys before anything else happens this round.", GAMEPLAY),
    "STALL_DISCARD_PENDING": ("After 2 rounds without any cat removed, each player first discards one cat from the table.", GAMEPLAY),
    "REVEAL_PENDING": ("Cats are turned up until 5 are available before the round begins.", GAMEPLAY),
    "REVEAL_NOT_ACCEPTED": ("In a seeded game the generator turns up the cats; reveal moves are for table games.", GAMEPLAY),
    "ALREADY_PLACED": ("Player {player} has already placed toys this round.", GAMEPLAY),
    "WRONG_TOY_COUNT": ("Place exactly 4 toys, one in each slot from 1 to 4.", GAMEPLAY),
    "TOY_NOT_IN_DECK": ("Toy {toy} is not in your deck.", GAMEPLAY),
    "TOY_PLACED_TWICE": ("Toy {toy} is placed twice; each slot holds a different toy card.", GAMEPLAY),
    "SET_ASIDE_NOT_PLAYED": ("The toys set aside last round must be played this round: {toys}.", ADVANCED),
    "ALREADY_CHOSE_DISCARD": ("Player {player} has already chosen a cat to discard.", GAMEPLAY),
    "CAT_NOT_ON_TABLE": ("Cat {cat} is not on the table.", GAMEPLAY),
    "CAT_NOT_IN_DECK": ("Cat {cat} cannot be in the cat deck.", GAMEPLAY),
    "CAT_REQUIRED": ("The move must name a cat (at a table game, the cat turned up).", GAMEPLAY),
}


def _illegal(code: str, **params: Any) -> Illegal:
    return Illegal(violation(MESSAGES, code, **params))


def _copy_state(state: State) -> State:
    """A copy deep enough that applying a move never touches the caller's state."""
    new = dict(state)
    new["players"] = [
        {"deck": p["deck"], "hand": list(p["hand"]),
         "placement": None if p["placement"] is None else list(p["placement"]),
         "must_play": list(p["must_play"]), "discard": p["discard"], "cats": list(p["cats"])}
        for p in state["players"]
    ]
    new["table"] = list(state["table"])
    new["cat_deck"] = list(state["cat_deck"])
    new["discard_pile"] = list(state["discard_pile"])
    new["rng"] = dict(state["rng"])
    return new


def _normalise_options(players: Any, options: Mapping[str, Any] | None) -> tuple[dict, C.Catalogue]:
    """Full options from what the caller gave, and the catalogue in use; raises InvalidOptions
    with pointers into the setup body."""
    options = options or {}
    errors: list[tuple[str, str]] = []
    if not isinstance(options, Mapping):
        raise InvalidOptions([("/options", "must be an object")])
    if not isinstance(players, int) or isinstance(players, bool) or players != 2:
        errors.append(("/players", "Call of Katulhu is played by 2 players"))
    chance = options.get("chance", "seeded")
    if chance not in CHANCE_MODES:
        errors.append(("/options/chance", "must be 'seeded' or 'table'"))
    advanced = options.get("advanced", False)
    if not isinstance(advanced, bool):
        errors.append(("/options/advanced", "must be true or false"))
    data = options.get("catalogue")
    catalogue = C.DEFAULT
    try:
        catalogue = C.load_catalogue(data)
    except C.CatalogueError as bad:
        errors.extend((f"/options/catalogue{pointer}", detail) for pointer, detail in bad.errors)
    if "hands" in options:
        # Asked for by the unseen-card mode of the other games: refused with the reason.
        errors.append(("/options/hands", "Call of Katulhu has no hands to leave unseen: every toy a player "
                                         "holds is known from their deck and what they placed, and every cat "
                                         "is turned face up; leave out hands (chance 'table' alone follows a "
                                         "physical table)"))
    errors.extend((f"/options/{name}", "unknown option")
                  for name in sorted(set(options) - set(OPTION_NAMES) - {"hands"}))
    if errors:
        raise InvalidOptions(errors)
    return ({"chance": chance, "advanced": advanced,
             "catalogue": None if data is None else catalogue.data}, catalogue)


def catalogue_of(state: State) -> C.Catalogue:
    """The compiled catalogue of a (checked) state."""
    return C.load_catalogue(state["options"]["catalogue"])


def _toy_place_errors(base: str, hand: list, placement: list | None, toys: frozenset[str]) -> list[tuple[str, str]]:
    """Why a player's hand and placement (``base``: the player's pointer) do not hold each toy
    of ``toys`` exactly once: each unknown or repeated toy at its own pointer, then the toys
    missing from both (rulebook, Setup: each player takes the 6 toys of their deck)."""
    errors: list[tuple[str, str]] = []
    where: dict[str, str] = {}
    for field, toys_there in (("hand", hand), ("placement", placement or ())):
        for i, toy in enumerate(toys_there):
            claim_place(errors, where, toys, toy, f"{base}/{field}/{i}", noun="toy")
    missing = toys.difference(where)
    if missing:
        errors.append((f"{base}/hand", "the hand and the placement hold each of the 6 toys exactly once; missing: "
                                       + ", ".join(sorted(missing))))
    return errors


@lru_cache(maxsize=1024)
def _in_catalogue_order(toys: tuple[str, ...], hand: tuple[str, ...]) -> bool:
    """Whether ``hand`` lists some of ``toys`` in their order (the state check; a hand is one
    of the few subsets of a deck's toys)."""
    return list(hand) == [toy for toy in toys if toy in hand]


@lru_cache(maxsize=256)
def _placements(hand: tuple[str, ...], must_play: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every ordered choice of 4 different toys of ``hand`` that plays every toy of ``must_play``."""
    required = set(must_play)
    return tuple(p for p in permutations(hand, C.SLOTS) if required.issubset(p))


# check_state reads a state's options on every move; states of one table share them.
_remembered_options = options_memo(_normalise_options)
# A state's options with the default catalogue (null) are one of four: no memo key to build.
_PLAIN_OPTIONS = {(chance, advanced): _normalise_options(2, {"chance": chance, "advanced": advanced, "catalogue": None})
                  for chance in CHANCE_MODES for advanced in (False, True)}


def _state_options(players: int, options: Any) -> tuple[dict, C.Catalogue]:
    """``_normalise_options(players, options)`` of a state's options, remembered (callers must
    not mutate what it returns). Raises InvalidOptions."""
    if type(options) is dict and len(options) == 3 and players == 2 and options.get("catalogue", False) is None:
        chance, advanced = options.get("chance"), options.get("advanced")
        if type(chance) is str and type(advanced) is bool:
            known = _PLAIN_OPTIONS.get((chance, advanced))
            if known is not None:
                return known
    return _remembered_options(players, options)


# What each reader sees (referee.engine.information). Toys are placed face down and turned up
# together (Gameplay: the reveal), so a placement is its player's until the round's reveal; a
# stall discard is chosen by each player and shown when both have chosen. Cats are face up.
def _round(state: State, _item: dict | None = None) -> str:
    return f"round:{state['round']}"


def _stall(state: State, _item: dict | None = None) -> str:
    return f"stall:{state['round']}"


DISCLOSURE = Disclosure(
    moves={
        "place": Hidden(("toys",), until=_round),
        "discard": Hidden(("cat",), until=_stall),
        "reveal": PUBLIC,                                  # table chance: a cat turned face up
    },
    events={
        "toys_placed": PUBLIC, "discard_chosen": PUBLIC,   # that a player chose, not what
        "toys_revealed": Reveals(lambda state, _event: [_round(state)]),
        "cat_discarded": Reveals(lambda state, event: [_stall(state)] if event["reason"] == "stall" else []),
        "cat_attracted": PUBLIC, "stall": PUBLIC, "cats_turned_up": PUBLIC, "discard_pile_reshuffled": PUBLIC,
        "game_over": PUBLIC,
    },
)

# A state is judged up to this round (a move may then start the next: answers are not bounded by it).
MAX_ROUND = 1_000_000


class CallOfKatulhu(Game):
    """Call of Katulhu, 2 players (rulebook sections Setup, Gameplay, Optional Advanced Game
    Rule, Cat Cards, Scoring). See the module docstring for the state and move shapes."""

    id = GAME_ID
    title = "Call of Katulhu"
    player_counts = (2,)
    rules_version = "call-of-katulhu/en-1"
    messages = MESSAGES
    disclosure = DISCLOSURE

    # -- description ---------------------------------------------------------------------

    def options_info(self) -> dict:
        """The setup options with their defaults: chance, advanced, catalogue (JSON)."""
        return {
            "chance": {"default": "seeded", "enum": list(CHANCE_MODES),
                       "description": "seeded: the generator shuffles and turns up cats; table: 'reveal' moves name "
                                      "each cat turned up at a physical table (the first 5 too)"},
            "advanced": {"default": False,
                         "description": "Optional Advanced Game Rule: the 2 toys set aside in a round must be played "
                                        "the next round (a placement that breaks it is illegal)"},
            "catalogue": {"default": None,
                          "description": "null: the provisional default catalogue; or {toys: [6 ids], beats: {toy: "
                                         "[toys it beats]}, cats: [{id, colour, slots: [4 x toy|null]}], cat_count "
                                         "(default 32)}"},
        }

    def catalogue(self, options: Mapping[str, Any] | None = None) -> dict:
        """The catalogue in use for ``options``: ``{"provisional", "note", "toys", "beats",
        "cats", "cat_count", "decks", "set_points"}``. Raises InvalidOptions."""
        full, cat = _normalise_options(2, options)
        provisional = full["catalogue"] is None
        data = cat.data
        return {
            "provisional": provisional,
            "note": C.PROVISIONAL_NOTE if provisional else "catalogue supplied by the caller",
            "toys": list(data["toys"]),
            "beats": {toy: list(losers) for toy, losers in data["beats"].items()},
            "cats": [dict(c, slots=list(c["slots"])) for c in data["cats"]],
            "cat_count": data["cat_count"],
            "open_slot": "null in slots: that slot may hold any toy or be empty",
            "decks": list(C.DECK_COLOURS),
            "set_points": {colour: [C.set_points(colour, n) for n in range(1, 7)] for colour in C.COLOURS},
        }

    # -- setup ---------------------------------------------------------------------------

    def setup(self, players: int, seed: str, options: Mapping[str, Any] | None = None) -> State:
        """Rulebook, Setup: seat 0 takes the blue toy deck, seat 1 the red one; the cat deck is
        shuffled (seeded generator) and 5 cats are put face up. With ``chance: table`` the table
        starts empty in phase "reveal" and the first 5 moves name the cats turned up.
        Raises InvalidOptions."""
        full, cat = _normalise_options(players, options)
        rng = Rng(seed)
        ids = list(cat.cat_ids)
        if full["chance"] == "seeded":
            rng.shuffle(ids)
            table, deck, phase = ids[:C.TABLE_SIZE], ids[C.TABLE_SIZE:], "place"
        else:
            table, deck, phase = [], sorted(ids), "reveal"
        return {
            "game": GAME_ID,
            "schema_version": self.schema_version,
            "options": full,
            "players": [{"deck": colour, "hand": list(cat.toys), "placement": None, "must_play": [],
                         "discard": None, "cats": []} for colour in C.DECK_COLOURS],
            "table": table,
            "cat_deck": deck,
            "discard_pile": [],
            "phase": phase,
            "round": 1,
            "quiet_rounds": 0,
            "end": None,
            "finished": False,
            "rng": rng.to_state(),
        }

    # -- consistency ---------------------------------------------------------------------

    def check_state(self, state: State) -> None:
        """Raise InvalidState unless the state can exist: valid options and catalogue, 2 players
        with the blue and red decks, each player's 6 toys exactly once between hand and
        placement, every cat of the catalogue in exactly one place, at most 5 cats on the table
        (exactly 5 while toys are placed or cats discarded), hidden choices only in their phase
        and never both made, a quiet-round count that agrees with the phase, and end fields
        that agree with the cats held. Pointers are JSON pointers into the state."""
        if state.get("game") != GAME_ID:
            raise InvalidState([("/game", f"this endpoint judges {GAME_ID} states")])
        if state.get("schema_version") != self.schema_version:
            raise InvalidState([("/schema_version", f"supported schema version is {self.schema_version}")])
        players = state["players"]
        options = state["options"]
        try:
            full, cat = _state_options(len(players), options)
        except InvalidOptions as bad:
            raise InvalidState(bad.errors) from None
        errors: list[tuple[str, str]] = []
        if set(options) != _OPTION_NAME_SET:
            errors.append(("/options", "a state carries every option explicitly"))
        phase = state["phase"]
        advanced = full["advanced"]
        for seat, player in enumerate(players):
            base = f"/players/{seat}"
            if player["deck"] != C.DECK_COLOURS[seat]:
                errors.append((f"{base}/deck", f"seat {seat} holds the {C.DECK_COLOURS[seat]} deck"))
            placement = player["placement"]
            hand = player["hand"]
            held = hand + placement if placement else hand
            # As many toys as the deck, and the deck's set of toys: so each toy once. (set() and
            # == are primitives of the compiled engine; a set method is a generic call.)
            if len(held) != len(cat.toy_set) or set(held) != cat.toy_set:
                errors.extend(_toy_place_errors(base, hand, placement, cat.toy_set))
            elif not _in_catalogue_order(cat.toys, tuple(hand)):  # (only once the toys are right)
                errors.append((f"{base}/hand", "the hand is kept in catalogue order"))
            if placement is not None:
                if len(placement) != C.SLOTS:
                    errors.append((f"{base}/placement", "a placement fills the 4 slots"))
                if phase != "place":
                    errors.append((f"{base}/placement", "toys are placed only in phase 'place'"))
            must = player["must_play"]
            if must:
                if not advanced:
                    errors.append((f"{base}/must_play", "only the advanced rule makes set-aside toys compulsory"))
                elif (len(must) != C.TOYS_PER_DECK - C.SLOTS or len(set(must)) != len(must)
                      or not set(must) <= cat.toy_set):
                    errors.append((f"{base}/must_play", "the 2 different toys set aside last round"))
                elif placement is not None and not set(must) <= set(placement):
                    errors.append((f"{base}/placement", "a placement plays the toys set aside last round"))
            elif advanced and state["round"] > 1:
                errors.append((f"{base}/must_play", "with the advanced rule, the 2 toys set aside last round must be named"))
            if player["discard"] is not None:
                if phase != "stall":
                    errors.append((f"{base}/discard", "a cat is chosen for discard only in phase 'stall'"))
                elif player["discard"] not in state["table"]:
                    errors.append((f"{base}/discard", "the chosen cat must be on the table"))
        if len(players) == 2:
            if players[0]["placement"] is not None and players[1]["placement"] is not None:
                errors.append(("/players/1/placement", "once both players have placed, the round is resolved"))
            if players[0]["discard"] is not None and players[1]["discard"] is not None:
                errors.append(("/players/1/discard", "once both players have chosen, the cats are discarded"))

        # Every cat in exactly one place, checked with sets first; the per-cat pass that finds
        # the pointers runs only when that check fails.
        cats = [card for player in players for card in player["cats"]]
        cats += state["table"] + state["cat_deck"] + state["discard_pile"]
        # As many cats as the catalogue, and the catalogue's set of cats: so each cat once.
        if not (len(cats) == len(cat.cat_set) and set(cats) == cat.cat_set):
            where: dict[str, str] = {}
            claim = partial(claim_place, errors, where, cat.cat_set, noun="cat")
            for seat, player in enumerate(players):
                for i, card in enumerate(player["cats"]):
                    claim(card, f"/players/{seat}/cats/{i}")
            for field in ("table", "cat_deck", "discard_pile"):
                for i, card in enumerate(state[field]):
                    claim(card, f"/{field}/{i}")
            missing = cat.cat_set.difference(where)
            if missing:
                errors.append(("", f"cats missing from every place: {', '.join(sorted(missing))}"))

        table = state["table"]
        quiet = state["quiet_rounds"]
        if len(table) > C.TABLE_SIZE:
            errors.append(("/table", f"at most {C.TABLE_SIZE} cats are on the table"))
        if phase in ("place", "stall") and len(table) != C.TABLE_SIZE:
            errors.append(("/table", f"toys are placed and cats discarded with {C.TABLE_SIZE} cats on the table"))
        if phase == "reveal":
            if full["chance"] != "table":
                errors.append(("/phase", "phase 'reveal' exists only with chance 'table'"))
            if len(table) >= C.TABLE_SIZE or not state["cat_deck"]:
                errors.append(("/phase", "phase 'reveal' needs a cat to turn up and a place for it"))
        if state["round"] < 1:
            errors.append(("/round", "rounds are counted from 1"))
        elif state["round"] > MAX_ROUND:
            errors.append(("/round", f"at most {MAX_ROUND} rounds are judged"))
        if phase == "stall" and quiet != C.STALL_ROUNDS:
            errors.append(("/quiet_rounds", f"phase 'stall' follows {C.STALL_ROUNDS} rounds without any cat removed"))
        if phase != "stall" and not 0 <= quiet < C.STALL_ROUNDS:
            errors.append(("/quiet_rounds", f"must be 0 to {C.STALL_ROUNDS - 1} outside phase 'stall'"))
        most = max(len(players[0]["cats"]), len(players[1]["cats"]))   # 2 players (the options check)
        finished, end = state["finished"], state["end"]
        if finished != (phase == "over"):
            errors.append(("/finished", "the game is finished exactly in phase 'over'"))
        if finished != (end is not None):
            errors.append(("/end", "a finished game says why it ended, an unfinished one does not"))
        if end == "seven_cats" and most < C.CATS_TO_END:
            errors.append(("/end", f"no player holds {C.CATS_TO_END} cats"))
        if not finished and most >= C.CATS_TO_END:
            errors.append(("/finished", f"a player holding {C.CATS_TO_END} cats has ended the game"))
        if end == "no_cats_left" and (state["cat_deck"] or state["discard_pile"]):
            errors.append(("/end", "the game ends for lack of cats only when the deck and the discard pile are empty"))
        if errors:
            raise InvalidState(errors)

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[dict]:
        """Every move of every player who may act now (both players act in the same phase).

        Phase "place": for each player who has not placed, every ordered choice of 4 different
        toys of their 6 (360 each; 144 under the advanced rule, which keeps the 2 set-aside
        toys). Phase "stall": for each player who has not chosen, each cat on the table.
        Phase "reveal" (table chance): for each seat, each cat that may be in the deck
        (either seat may report the cat turned up)."""
        phase = state["phase"]
        moves: list[dict] = []
        if phase == "place":
            for seat, player in enumerate(state["players"]):
                if player["placement"] is None:
                    moves.extend({"type": "place", "player": seat, "toys": list(p)}
                                 for p in _placements(tuple(player["hand"]), tuple(player["must_play"])))
        elif phase == "stall":
            for seat, player in enumerate(state["players"]):
                if player["discard"] is None:
                    moves.extend({"type": "discard", "player": seat, "cat": cat} for cat in state["table"])
        elif phase == "reveal":
            deck = sorted(set(state["cat_deck"]))
            for seat in range(len(state["players"])):
                moves.extend({"type": "reveal", "player": seat, "cat": cat} for cat in deck)
        return moves

    def seat_moves(self, state: State, seat: int) -> list[dict]:
        """The moves of ``seat`` now, as it can know them: with table chance the cat turned up
        is null (the table names it, ``table_fills`` says so), listed once."""
        moves = [move for move in self.legal_moves(state) if move["player"] == seat]
        if state["phase"] == "reveal":
            return [{"type": "reveal", "player": seat, "cat": None, TABLE_FILLS: ["cat"]}] if moves else []
        return moves

    def apply(self, state: State, move: dict) -> tuple[State, list[dict]]:
        """Judge and apply one move (rulebook, Gameplay and Optional Advanced Game Rule).
        Raises Illegal."""
        phase = state["phase"]
        if phase == "over":
            raise _illegal("GAME_OVER")
        seat = move["player"]
        if not 0 <= seat < len(state["players"]):
            raise _illegal("NO_SUCH_PLAYER", player=seat)
        kind = move["type"]
        if kind == "reveal" and state["options"]["chance"] != "table":
            raise _illegal("REVEAL_NOT_ACCEPTED")
        if phase == "place":
            if kind != "place":
                raise _illegal("PLACEMENT_PENDING")
            return self._place(state, move)
        if phase == "stall":
            if kind != "discard":
                raise _illegal("STALL_DISCARD_PENDING")
            return self._choose_discard(state, move)
        if kind != "reveal":
            raise _illegal("REVEAL_PENDING")
        return self._reveal(state, move)

    # Gameplay: simultaneous placement, then the reveal.
    def _place(self, state: State, move: dict) -> tuple[State, list[dict]]:
        seat = move["player"]
        player = state["players"][seat]
        if player["placement"] is not None:
            raise _illegal("ALREADY_PLACED", player=seat)
        toys = move.get("toys")
        if not isinstance(toys, list) or len(toys) != C.SLOTS:
            raise _illegal("WRONG_TOY_COUNT")
        hand = player["hand"]
        seen: set = set()
        for toy in toys:
            if toy not in hand:
                raise _illegal("TOY_NOT_IN_DECK", toy=toy)
            if toy in seen:
                raise _illegal("TOY_PLACED_TWICE", toy=toy)
            seen.add(toy)
        missing = [toy for toy in player["must_play"] if toy not in seen]
        if missing:
            raise _illegal("SET_ASIDE_NOT_PLAYED", toys=", ".join(missing))
        new = _copy_state(state)
        mine = new["players"][seat]
        mine["placement"] = list(toys)
        mine["hand"] = [t for t in hand if t not in seen]
        events: list[dict] = [{"type": "toys_placed", "player": seat}]
        if new["players"][1 - seat]["placement"] is None:   # the other player has not placed yet
            return new, events
        return self._resolve_round(new, events)

    def _resolve_round(self, new: State, events: list[dict]) -> tuple[State, list[dict]]:
        """Rulebook, Gameplay: reveal slot by slot (a toy beaten by the other's toy in the same
        slot is removed, its slot stays empty); each player attracts every cat whose shown toys
        all match; a cat attracted by both is discarded; then the game may end (7 cats), the
        table is refilled, and the stall rule is checked."""
        cat = catalogue_of(new)
        players = new["players"]
        blue, red = players[0]["placement"], players[1]["placement"]
        kept = [list(blue), list(red)]
        slots_event = []
        for k in range(C.SLOTS):
            a, b = blue[k], red[k]
            removed = []
            if (a, b) in cat.beats:
                kept[1][k] = None
                removed.append(1)
            elif (b, a) in cat.beats:
                kept[0][k] = None
                removed.append(0)
            slots_event.append({"slot": k + 1, "toys": [a, b], "removed": removed})
        events.append({"type": "toys_revealed", "slots": slots_event})
        won: list[list[str]] = [[], []]
        both: list[str] = []
        kept_blue, kept_red = kept
        shown = cat.shown
        for card in new["table"]:
            # A cat is attracted by the toys kept in every slot it shows (open slots: anything).
            pick, toys = shown[card]
            if pick(kept_blue) == toys:
                (both if pick(kept_red) == toys else won[0]).append(card)
            elif pick(kept_red) == toys:
                won[1].append(card)
        for seat in (0, 1):
            for card in won[seat]:
                players[seat]["cats"].append(card)
                events.append({"type": "cat_attracted", "player": seat, "cat": card})
        for card in both:
            new["discard_pile"].append(card)
            events.append({"type": "cat_discarded", "cat": card, "reason": "attracted_by_both"})
        gone = set(won[0]) | set(won[1]) | set(both)
        if gone:
            new["table"] = [card for card in new["table"] if card not in gone]
        advanced = new["options"]["advanced"]
        for player in players:
            player["must_play"] = list(player["hand"]) if advanced else []
            player["hand"] = list(cat.toys)
            player["placement"] = None
        new["round"] += 1
        new["quiet_rounds"] = 0 if gone else new["quiet_rounds"] + 1
        if any(len(p["cats"]) >= C.CATS_TO_END for p in players):
            return self._finish(new, events, "seven_cats")
        if new["quiet_rounds"] >= C.STALL_ROUNDS:
            new["phase"] = "stall"
            events.append({"type": "stall", "quiet_rounds": new["quiet_rounds"]})
            return new, events
        return self._refill(new, events)

    # Gameplay: the stall rule.
    def _choose_discard(self, state: State, move: dict) -> tuple[State, list[dict]]:
        seat = move["player"]
        if state["players"][seat]["discard"] is not None:
            raise _illegal("ALREADY_CHOSE_DISCARD", player=seat)
        card = move.get("cat")
        if card is None:
            raise _illegal("CAT_REQUIRED")
        if card not in state["table"]:
            raise _illegal("CAT_NOT_ON_TABLE", cat=card)
        new = _copy_state(state)
        new["players"][seat]["discard"] = card
        events: list[dict] = [{"type": "discard_chosen", "player": seat}]
        choices = [p["discard"] for p in new["players"]]
        if None in choices:
            return new, events
        for player in new["players"]:
            player["discard"] = None
        chosen = list(dict.fromkeys(choices))   # both chose the same cat: it is discarded once
        new["table"] = [c for c in new["table"] if c not in chosen]
        for card in chosen:
            new["discard_pile"].append(card)
            events.append({"type": "cat_discarded", "cat": card, "reason": "stall",
                           "players": [s for s, c in enumerate(choices) if c == card]})
        new["quiet_rounds"] = 0
        return self._refill(new, events)

    # Gameplay: refill the table to 5 cats, reshuffling the discard pile when the deck is empty.
    def _refill(self, new: State, events: list[dict]) -> tuple[State, list[dict]]:
        table, deck = new["table"], new["cat_deck"]
        seeded = new["options"]["chance"] == "seeded"
        turned: list[str] = []
        while len(table) < C.TABLE_SIZE:
            if not deck:
                if not new["discard_pile"]:
                    if turned:
                        events.append({"type": "cats_turned_up", "cats": turned})
                    return self._finish(new, events, "no_cats_left")
                pile = new["discard_pile"]
                if seeded:
                    rng = Rng.from_state(new["rng"])
                    deck.extend(rng.shuffle(list(pile)))
                    new["rng"] = rng.to_state()
                else:
                    deck.extend(sorted(pile))
                new["discard_pile"] = []
                events.append({"type": "discard_pile_reshuffled", "cats": len(deck)})
            if not seeded:
                new["phase"] = "reveal"
                return new, events
            card = deck.pop(0)
            table.append(card)
            turned.append(card)
        if turned:
            events.append({"type": "cats_turned_up", "cats": turned})
        new["phase"] = "place"
        return new, events

    # Table chance: one cat turned up at the table.
    def _reveal(self, state: State, move: dict) -> tuple[State, list[dict]]:
        card = move.get("cat")
        if card is None:
            raise _illegal("CAT_REQUIRED")
        if card not in state["cat_deck"]:
            raise _illegal("CAT_NOT_IN_DECK", cat=card)
        new = _copy_state(state)
        new["cat_deck"].remove(card)
        new["table"].append(card)
        events: list[dict] = [{"type": "cats_turned_up", "cats": [card]}]
        return self._refill(new, events)

    def _finish(self, new: State, events: list[dict], reason: str) -> tuple[State, list[dict]]:
        new["phase"] = "over"
        new["finished"] = True
        new["end"] = reason
        _, outcome = self.score(new)
        events.append({"type": "game_over", "reason": reason, "winners": list(outcome.winners),
                       "tiebreak": outcome.tiebreak})
        return new, events

    # -- scoring -------------------------------------------------------------------------

    def score(self, state: State) -> tuple[dict, Outcome]:
        """Rulebook, Scoring and Cat Cards: each colour set scores by the tables of
        :func:`cards.set_points`; most points wins; ties go to the largest white or black set,
        then the largest blue, red or yellow set, then the most white and black cats together;
        otherwise both win (tiebreak "shared"). Scores are provisional until ``finished``."""
        cats = catalogue_of(state).cats
        points_of = C.set_points
        sheet = []
        for seat, player in enumerate(state["players"]):
            sets = dict(_NO_CATS)
            for card in player["cats"]:
                sets[cats[card][0]] += 1
            points = dict(_NO_CATS)
            total = 0
            for colour, size in sets.items():
                if size:  # an empty set scores 0
                    points[colour] = value = points_of(colour, size)
                    total += value
            sheet.append({"player": seat, "cats": len(player["cats"]), "sets": sets, "points": points,
                          "total": total})
        scores = {"players": sheet}
        if not state["finished"]:
            return scores, UNFINISHED
        return scores, decide(sheet)

    # -- views ---------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> State:
        """What seat ``seat`` sees (None: a spectator): the other player's placement, unplaced
        toys and stall choice become flags/counts, the cat deck a count, the generator is
        removed. Won cats, the table and the discard pile are public."""
        seen = dict(state)
        seen["players"] = [
            dict(p) if s == seat else
            {"deck": p["deck"], "hand_size": len(p["hand"]), "placed": p["placement"] is not None,
             "must_play": list(p["must_play"]), "discard_chosen": p["discard"] is not None,
             "cats": list(p["cats"])}
            for s, p in enumerate(state["players"])
        ]
        seen["cat_deck"] = {"size": len(state["cat_deck"])}
        seen.pop("rng", None)
        return seen


def decide(sheet: list[dict]) -> Outcome:
    """The outcome of a finished game from its score sheet (rulebook, Cat Cards): most points;
    then the largest white or black set; then the largest blue, red or yellow set; then the
    most white and black cats combined; otherwise both win."""
    best = max(row["total"] for row in sheet)
    leaders = [row for row in sheet if row["total"] == best]
    if len(leaders) == 1:
        return Outcome(True, (leaders[0]["player"],))
    steps = (
        (TIEBREAK_WHITE_BLACK_SET, lambda r: max(r["sets"][c] for c in C.ADVANCED_COLOURS)),
        (TIEBREAK_BASIC_SET, lambda r: max(r["sets"][c] for c in C.BASIC_COLOURS)),
        (TIEBREAK_WHITE_BLACK_TOTAL, lambda r: sum(r["sets"][c] for c in C.ADVANCED_COLOURS)),
    )
    for name, key in steps:
        top = max(key(row) for row in leaders)
        narrowed = [row for row in leaders if key(row) == top]
        if len(narrowed) < len(leaders):
            leaders = narrowed
            if len(leaders) == 1:
                return Outcome(True, (leaders[0]["player"],), name)
    return Outcome(True, tuple(row["player"] for row in leaders), TIEBREAK_SHARED)
