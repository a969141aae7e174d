"""Scratch & Catch HTTP schemas (marshmallow): structure and types only.

Consistency (every card in one place, ordered line, ...) is checked by the pure rules in
``rules.py``; these schemas document the contract and reject bodies of the wrong shape.
"""

from marshmallow import Schema, ValidationError, fields, validate

from referee.games.common_schema import (
    CheckedSchema,
    FullMatch,
    IdList,
    IntList,
    PileSize,
    RngState,
    StrictBoolean,
    view_schema,
)
from referee.games.scratch_and_catch.rules import CHANCE_MODES, HANDS_MODES

CARD_PATTERN = r"^[CS](10|[1-9])(-[1-9][0-9]?)?$"
CARD_ERROR = ("not a card: C<number>-<copy> (Cat) or S<number>-<copy> (Scratch), number 1 to 10, copy 1 "
              "to 99 (e.g. C5-1); with unseen hands the kind, C<number> or S<number> (e.g. C5)")
CARD_ID = FullMatch(CARD_PATTERN, error=CARD_ERROR)
MAX_COPIES = 99
# The largest deck options.deck allows: 99 Cat and 99 Scratch cards of each number 1 to 10.
MAX_CARDS = 2 * 10 * MAX_COPIES


def _cards(**kwargs):
    return IdList(CARD_PATTERN, CARD_ERROR, **kwargs)


def _counts(description):
    return IntList(0, MAX_COPIES, validate=validate.Length(equal=10), required=True,
                   metadata={"description": description})


class ScratchAndCatchDeck(Schema):
    cat = _counts("Cat cards of each number 1 to 10")
    scratch = _counts("Scratch cards of each number 1 to 10")


class ScratchAndCatchDeal(Schema):
    """A deal seen at a physical table (setup with table chance only): hands and line, or with
    unseen hands the line only (card kinds, e.g. C5)."""

    hands = fields.List(_cards(validate=validate.Length(equal=4)),
                        validate=validate.Length(min=2, max=6), metadata={
                            "description": "the 4 cards dealt to each seat; required with seen hands, absent "
                                           "with unseen"})
    line = _cards(required=True, validate=validate.Length(equal=4),
                       metadata={"description": "the 4 cards turned onto the line"})


class ScratchAndCatchOptions(Schema):
    """Setup options; every field is optional and has a default."""

    chance = fields.String(validate=validate.OneOf(CHANCE_MODES), metadata={
        "description": "seeded (default): the generator deals and draws; table: moves name the cards seen"})
    deck = fields.Nested(ScratchAndCatchDeck, metadata={
        "description": "deck composition (default: the provisional 64 Cat + 12 Scratch)"})
    scratch_cards_score = StrictBoolean(metadata={
        "description": "collected Scratch cards score 1 point like Cat cards (default false: the rulebook's End of "
                       "the Game counts Cat cards only)"})
    hands = fields.String(validate=validate.OneOf(HANDS_MODES), metadata={
        "description": "seen (default); unseen, with chance table: the table sees only face-up cards, named by "
                       "kind (C5); hands and draw pile are null, the refill is automatic"})
    deal = fields.Nested(ScratchAndCatchDeal, metadata={"description": "table chance only: the deal seen at the table"})


class ScratchAndCatchStateOptions(Schema):
    """The options as a state carries them: all explicit (``hands`` only when unseen)."""

    chance = fields.String(required=True, validate=validate.OneOf(CHANCE_MODES))
    deck = fields.Nested(ScratchAndCatchDeck, required=True)
    scratch_cards_score = StrictBoolean(required=True)
    hands = fields.String(validate=validate.OneOf(HANDS_MODES), metadata={
        "description": "present when unseen: hands and draw pile are null, face-up cards named by kind"})


class ScratchAndCatchPlayer(Schema):
    hand = _cards(required=True, validate=validate.Length(max=4), null_items=True,
                  metadata={"description": "card ids; with unseen hands null for each card held"})
    fleas = fields.Integer(strict=True, required=True, validate=validate.Range(min=0), metadata={
        "description": "flea tokens held, as a number; a state with more than 10000 is refused (422), a move may "
                       "add a few more"})
    collected = _cards(required=True, validate=validate.Length(max=MAX_CARDS))


class ScratchAndCatchPile(Schema):
    value = fields.Integer(strict=True, required=True, validate=validate.Range(1, 10))
    cards = _cards(required=True, validate=validate.Length(min=1, max=2 * MAX_COPIES),
                        metadata={"description": "bottom first"})


class ScratchAndCatchTurn(Schema):
    player = fields.Integer(strict=True, required=True, validate=validate.Range(0, 5))
    step = fields.String(required=True, validate=validate.OneOf(("first", "second", "refill")),
                         metadata={"description": "which card of the turn comes next; refill: table chance, drawing"})


class ScratchAndCatchFinalTurns(Schema):
    ended_by = fields.Integer(strict=True, required=True, validate=validate.Range(0, 5))
    reason = fields.String(required=True, validate=validate.OneOf(("no_fleas", "cannot_refill")))
    remaining = fields.List(fields.Integer(strict=True, validate=validate.Range(0, 5)), required=True,
                            validate=validate.Length(max=5),
                            metadata={"description": "seats still to take their final turn, in order"})


class ScratchAndCatchState(Schema):
    """A Scratch & Catch state (see referee/games/scratch_and_catch/rules.py)."""

    game = fields.String(required=True, validate=validate.Equal(
        "scratch-and-catch", error="A state of another game: this operation judges scratch-and-catch states."))
    schema_version = fields.Integer(strict=True, required=True, validate=validate.Equal(1))
    options = fields.Nested(ScratchAndCatchStateOptions, required=True)
    players = fields.List(fields.Nested(ScratchAndCatchPlayer), required=True, validate=validate.Length(min=2, max=6))
    line = fields.List(fields.Nested(ScratchAndCatchPile), required=True, validate=validate.Length(max=10),
                       metadata={"description": "the piles on the line, ascending values"})
    draw_pile = _cards(required=True, validate=validate.Length(max=MAX_CARDS), null_items=True,
                       metadata={"description": "top first; with unseen hands null for each card"})
    turn = fields.Nested(ScratchAndCatchTurn, required=True)
    final_turns = fields.Nested(ScratchAndCatchFinalTurns, required=True, allow_none=True)
    finished = StrictBoolean(required=True)
    rng = fields.Nested(RngState, required=True)


class ScratchAndCatchMove(CheckedSchema):
    """A move; ``type`` and ``player`` are always required (Game Progress: 2 cards per turn,
    then the hand is refilled to 4).

    ``play``: one card of the turn, ``source`` required. From the hand: ``"source": "hand"``
    and ``card`` (a card of the hand) required. From the draw pile: ``"source": "pile"`` and
    ``card`` the card seen, required with table chance, optional and checked against the top
    card with seeded chance.

    ``draw``: table chance only, while ``turn.step`` is ``refill``: one card drawn while
    refilling the hand at the end of the turn; ``card`` required, ``source`` absent. With
    seeded chance the refill is automatic."""

    type = fields.String(required=True, validate=validate.OneOf(("play", "draw")),
                         metadata={"description": "play: one of the 2 cards of the turn; draw: table chance, one "
                                                  "refill card"})
    player = fields.Integer(strict=True, required=True, validate=validate.Range(0, 5),
                            metadata={"description": "the acting seat"})
    source = fields.String(validate=validate.OneOf(("hand", "pile")),
                           metadata={"description": "required for play, absent for draw: where the card comes from"})
    card = fields.String(validate=CARD_ID, allow_none=True, metadata={
        "description": "card id (e.g. C5-1 Cat, S5-1 Scratch). Required for play from the hand. For play from "
                       "the pile and for draw: the card seen, required with table chance (null or absent is "
                       "answered with the violation CARD_REQUIRED), optional and checked against the top card "
                       "with seeded chance. A match's legal-moves shows such cards as null: name what you see. "
                       "With unseen hands: the kind of the card played, e.g. C5 (an id counts as its kind)"})
    table_fills = fields.List(fields.String(validate=validate.OneOf(("card",))), metadata={
        "description": "set by a match's legal-moves at a table game (and by legal-moves with unseen hands): the "
                       "fields the table fills in with what it sees (null: name it; with unseen hands the move is "
                       "listed once per card kind it may be); ignored when judging"})

    def check(self, data: dict) -> None:
        if data["type"] == "play" and "source" not in data:
            raise ValidationError("a play names its source: hand or pile", "source")
        if data["type"] == "play" and data.get("source") == "hand" and data.get("card") is None:
            raise ValidationError("a play from the hand names the card", "card")
        if data["type"] == "draw" and "source" in data:
            raise ValidationError("a draw has no source", "source")


class ScratchAndCatchPlayerScore(Schema):
    player = fields.Integer(required=True)
    cards = fields.Integer(required=True, metadata={"description": "collected cards that score, 1 point each"})
    fleas = fields.Integer(required=True)
    flea_points = fields.Integer(required=True)
    total = fields.Integer(required=True)


class ScratchAndCatchScores(Schema):
    players = fields.List(fields.Nested(ScratchAndCatchPlayerScore), required=True)


class ScratchAndCatchPlayerView(Schema):
    """A seat as a view shows it: the reader's own seat with its hand, every other seat with
    its hand size only."""

    hand = _cards(validate=validate.Length(max=4), null_items=True, metadata={
        "description": "the reader's own seat only (unseen hands: null for each card)"})
    hand_size = fields.Integer(validate=validate.Range(0, 4), metadata={"description": "every other seat"})
    fleas = fields.Integer(required=True)
    collected = _cards(required=True, metadata={"description": "cards collected, face up in front of the player"})


ScratchAndCatchView = view_schema(ScratchAndCatchState, "ScratchAndCatchView", {
    "players": fields.List(fields.Nested(ScratchAndCatchPlayerView), required=True),
    "draw_pile": fields.Nested(PileSize, required=True, metadata={"description": "face down: its size only"}),
})

STATE = ScratchAndCatchState
VIEW = ScratchAndCatchView
MOVE = ScratchAndCatchMove
OPTIONS = ScratchAndCatchOptions
SCORES = ScratchAndCatchScores
