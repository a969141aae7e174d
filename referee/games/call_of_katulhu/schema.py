"""Call of Katulhu HTTP schemas (marshmallow): structure and types only.

Consistency (every cat in one place, each player's 6 toys once, a catalogue that makes sense,
phases and counters that agree) is checked by the pure rules in ``rules.py``; these schemas
document the contract and reject bodies of the wrong shape.
"""

from marshmallow import Schema, ValidationError, fields, validate

from referee.games.call_of_katulhu.cards import COLOURS, DECK_COLOURS, ID_PATTERN, MAX_CATS, TABLE_SIZE
from referee.games.call_of_katulhu.rules import CHANCE_MODES, PHASES
from referee.games.common_schema import (
    CheckedSchema,
    FullMatch,
    IdList,
    MaxKeys,
    MemberDict,
    PileSize,
    RngState,
    StrictBoolean,
    view_schema,
)

ID_ERROR = "not an id (a letter or digit, then letters, digits and . _ : -, at most 40 characters)"
ID = FullMatch(ID_PATTERN, error=ID_ERROR)
MOVE_TYPES = ("place", "discard", "reveal")
END_REASONS = ("seven_cats", "no_cats_left")


def _ids(description, **kwargs):
    return IdList(ID_PATTERN, ID_ERROR, metadata={"description": description}, **kwargs)


class CallOfKatulhuCat(Schema):
    """A cat card: its id, colour and the toys it shows in slots 1 to 4 (null: an open slot)."""

    id = fields.String(required=True, validate=ID)
    colour = fields.String(required=True, validate=validate.OneOf(COLOURS))
    slots = fields.List(fields.String(allow_none=True, validate=ID), required=True, validate=validate.Length(equal=4),
                        metadata={"description": "toy shown in slots 1 to 4; null: any toy or none matches"})


class CallOfKatulhuCatalogue(Schema):
    """A catalogue supplied by the caller (checked for sense by the referee: no toy beats itself,
    no two toys beat each other, every cat's toys exist, unique ids, cat_count cats)."""

    toys = _ids("the 6 toys of each deck", required=True, validate=validate.Length(min=1, max=20))
    beats = MemberDict(keys=fields.String(validate=ID), values=_ids("toys it beats", validate=validate.Length(max=20)),
                        required=True, validate=MaxKeys(20),
                        metadata={"description": "toy -> the toys it beats (a toy beating nothing may be left out)"})
    cats = fields.List(fields.Nested(CallOfKatulhuCat), required=True, validate=validate.Length(max=MAX_CATS))
    cat_count = fields.Integer(strict=True, validate=validate.Range(0, MAX_CATS), metadata={
        "description": "how many cats the catalogue lists (default 32, as the rulebook)"})


class CallOfKatulhuOptions(Schema):
    """Setup options (the ``options`` of a setup body); every field is optional and has a
    default. The state then carries every option explicitly."""

    chance = fields.String(validate=validate.OneOf(CHANCE_MODES),
                           metadata={"description": "seeded (default): the generator shuffles and turns up cats; "
                                                    "table: 'reveal' moves name each cat turned up (the first 5 too)"})
    advanced = StrictBoolean(metadata={"description": "Optional Advanced Game Rule (default false): the 2 toys set "
                                                      "aside in a round must be played the next round"})
    catalogue = fields.Nested(CallOfKatulhuCatalogue, allow_none=True,
                              metadata={"description": "null (default): the provisional default catalogue "
                                                       "(GET /v1/games/call-of-katulhu); or the caller's own"})
    hands = fields.Raw(metadata={"description": "not accepted (422): the unseen-card mode of CATATAC and "
                                                "Scratch & Catch has no meaning here, nothing is hidden in a hand"})


class CallOfKatulhuStateOptions(Schema):
    """The options as a state carries them: all explicit (a caller's catalogue in full)."""

    chance = fields.String(required=True, validate=validate.OneOf(CHANCE_MODES))
    advanced = StrictBoolean(required=True)
    catalogue = fields.Nested(CallOfKatulhuCatalogue, required=True, allow_none=True)


class CallOfKatulhuPlayer(Schema):
    deck = fields.String(required=True, validate=validate.OneOf(DECK_COLOURS),
                         metadata={"description": "seat 0 holds the blue deck, seat 1 the red deck"})
    hand = _ids("toys not placed this round, in catalogue order", required=True, validate=validate.Length(max=6))
    placement = _ids("toys placed face down in slots 1 to 4 (hidden from the other player); null until placed",
                     required=True, allow_none=True, validate=validate.Length(equal=4))
    must_play = _ids("advanced rule: the 2 toys set aside last round, to be played this round", required=True,
                     validate=validate.Length(max=2))
    discard = fields.String(required=True, allow_none=True, validate=ID, metadata={
        "description": "stall rule: the cat chosen for discard (hidden); null until chosen"})
    cats = _ids("cats attracted, in order", required=True, validate=validate.Length(max=MAX_CATS))


class CallOfKatulhuState(Schema):
    """A Call of Katulhu state (see referee/games/call_of_katulhu/rules.py)."""

    game = fields.String(required=True, validate=validate.Equal(
        "call-of-katulhu", error="A state of another game: this operation judges call-of-katulhu states."))
    schema_version = fields.Integer(strict=True, required=True, validate=validate.Equal(1))
    options = fields.Nested(CallOfKatulhuStateOptions, required=True)
    players = fields.List(fields.Nested(CallOfKatulhuPlayer), required=True, validate=validate.Length(equal=2))
    table = _ids("cats face up", required=True, validate=validate.Length(max=TABLE_SIZE))
    cat_deck = _ids("cat deck, top first (table chance: order unknown, kept sorted)", required=True,
                    validate=validate.Length(max=MAX_CATS))
    discard_pile = _ids("discarded cats, oldest first", required=True, validate=validate.Length(max=MAX_CATS))
    phase = fields.String(required=True, validate=validate.OneOf(PHASES),
                          metadata={"description": "place: both place toys; stall: both discard a cat; "
                                                   "reveal: table chance, cats to turn up; over"})
    round = fields.Integer(strict=True, required=True, validate=validate.Range(min=1), metadata={
        "description": "from 1; a state past round 1000000 is refused (422), a move may start the next round"})
    quiet_rounds = fields.Integer(strict=True, required=True, validate=validate.Range(0, 2),
                                  metadata={"description": "rounds in a row in which no cat left the table"})
    end = fields.String(required=True, allow_none=True, validate=validate.OneOf(END_REASONS),
                        metadata={"description": "why the game ended; null while it goes on"})
    finished = StrictBoolean(required=True)
    rng = fields.Nested(RngState, required=True)


class CallOfKatulhuMove(CheckedSchema):
    """A move; ``type`` and ``player`` are always required. Both players act in the same phase,
    in either order. The easiest way to build a move is to pick one from ``legal-moves``.

    ``place`` (Gameplay; phase ``place``): ``toys`` required, ``cat`` absent. The 4 different
    toys of the player's deck (ids from the catalogue's ``toys``) placed face down in slots 1 to
    4, slot 1 first; the 2 toys left out are set aside. Under the Optional Advanced Game Rule
    the 2 toys set aside last round (the player's ``must_play``) must be among them.
    ``legal-moves`` lists every ordered choice: 360 per player, 144 under the advanced rule.

    ``discard`` (Gameplay, stall rule; phase ``stall``): ``cat`` required, ``toys`` absent: the
    cat of the table the player discards (chosen face down; both choices are shown together).

    ``reveal`` (table chance only; phase ``reveal``): ``cat`` required, ``toys`` absent: one cat
    turned up at the table from the cat deck (either seat may report it)."""

    type = fields.String(required=True, validate=validate.OneOf(MOVE_TYPES),
                         metadata={"description": "place: 4 toys face down; discard: stall rule, a cat of the "
                                                  "table to discard; reveal: table chance, a cat turned up"})
    player = fields.Integer(strict=True, required=True, validate=validate.Range(0, 1),
                            metadata={"description": "seat: 0 blue deck, 1 red deck"})
    toys = _ids("place only (required; absent otherwise): 4 different toy ids of the player's deck, for slots 1 "
                "to 4, slot 1 first (another count is answered with the violation WRONG_TOY_COUNT)",
                validate=validate.Length(max=20))
    cat = fields.String(validate=ID, allow_none=True, metadata={
        "description": "discard and reveal only (required; absent for place): discard: a cat id on the table; "
                       "reveal: the cat id turned up from the cat deck (null as a match's legal-moves lists it: "
                       "the violation CAT_REQUIRED until the table names it)"})
    table_fills = fields.List(fields.String(validate=validate.OneOf(("cat",))), metadata={
        "description": "set by a match's legal-moves at a table game: the fields the table fills in with what it "
                       "sees (a reveal's cat); ignored when judging"})

    def check(self, data: dict) -> None:
        if data["type"] == "place":
            if "toys" not in data:
                raise ValidationError("a placement names its 4 toys", "toys")
            if "cat" in data:
                raise ValidationError("a placement names no cat", "cat")
        else:
            if "cat" not in data:
                raise ValidationError(f"a {data['type']} move names the cat", "cat")
            if "toys" in data:
                raise ValidationError(f"a {data['type']} move places no toys", "toys")


class CallOfKatulhuColours(Schema):
    blue = fields.Integer(required=True)
    red = fields.Integer(required=True)
    yellow = fields.Integer(required=True)
    white = fields.Integer(required=True)
    black = fields.Integer(required=True)


class CallOfKatulhuPlayerScore(Schema):
    player = fields.Integer(required=True)
    cats = fields.Integer(required=True, metadata={"description": "cats attracted"})
    sets = fields.Nested(CallOfKatulhuColours, required=True, metadata={"description": "cats of each colour"})
    points = fields.Nested(CallOfKatulhuColours, required=True, metadata={"description": "points of each colour set"})
    total = fields.Integer(required=True)


class CallOfKatulhuScores(Schema):
    players = fields.List(fields.Nested(CallOfKatulhuPlayerScore), required=True)


class CallOfKatulhuPlayerView(Schema):
    """A seat as a view shows it: the reader's own seat in full (hand, placement, discard); the
    other seat's hidden choices as flags and its hand as a size."""

    deck = fields.String(required=True, validate=validate.OneOf(DECK_COLOURS))
    must_play = _ids("advanced rule: the 2 toys set aside last round", required=True)
    cats = _ids("cats attracted, in order", required=True)
    hand = _ids("the reader's own seat only: toys not placed this round")
    placement = _ids("the reader's own seat only: toys placed face down in slots 1 to 4; null until placed",
                     allow_none=True)
    discard = fields.String(allow_none=True, validate=ID,
                            metadata={"description": "the reader's own seat only: the cat chosen for discard"})
    hand_size = fields.Integer(metadata={"description": "every other seat: toys not placed this round"})
    placed = fields.Boolean(metadata={"description": "every other seat: whether its toys are placed"})
    discard_chosen = fields.Boolean(metadata={"description": "every other seat: whether its stall discard is chosen"})


CallOfKatulhuView = view_schema(CallOfKatulhuState, "CallOfKatulhuView", {
    "players": fields.List(fields.Nested(CallOfKatulhuPlayerView), required=True),
    "cat_deck": fields.Nested(PileSize, required=True, metadata={"description": "face down: its size only"}),
})

STATE = CallOfKatulhuState
VIEW = CallOfKatulhuView
MOVE = CallOfKatulhuMove
OPTIONS = CallOfKatulhuOptions
SCORES = CallOfKatulhuScores
