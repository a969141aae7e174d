"""Envelope schemas shared by every game, and the per-game request/answer schemas.

Per-game schemas are built from the game's own ``schema`` module (STATE, MOVE, OPTIONS,
SCORES) with names prefixed by the game, so that each becomes its own OpenAPI component.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from marshmallow import Schema, fields, validate

from referee.games.common_schema import OneOfSchemas, StrictBoolean
from referee.limits import MAX_REPLAY_MOVES
from referee.schemas.compiled import FastEnvelope, FastNested

# The kinds of cards GET /v1/games/{game} lists as printed (the games' printed.py).
PRINTED_KINDS = ("cat", "scratch", "paw", "joker", "alpha", "points", "toy")


class ProblemFieldError(Schema):
    pointer = fields.String(required=True, metadata={"description": "JSON pointer into the request body"})
    detail = fields.String(required=True)


class Problem(Schema):
    """RFC 9457 problem details."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    errors = fields.List(fields.Nested(ProblemFieldError))


class ViolationOut(Schema):
    code = fields.String(required=True, metadata={"description": "stable UPPER_SNAKE code"})
    message = fields.String(required=True, metadata={"description": "English, or Japanese with Accept-Language: ja"})
    rule = fields.String(required=True, metadata={"description": "the rulebook section applied"})


class OutcomeOut(Schema):
    finished = fields.Boolean(required=True)
    winners = fields.List(fields.Integer(), required=True,
                          metadata={"description": "winning seats; empty until finished"})
    tiebreak = fields.String(required=True, allow_none=True,
                             metadata={"description": "the tiebreak that decided, if any"})


class Event(Schema):
    """Something that happened; ``type`` says what, other fields depend on it."""

    class Meta:
        unknown = "include"

    type = fields.String(required=True)


class IllegalStep(Schema):
    index = fields.Integer(required=True, metadata={"description": "index of the first illegal move"})
    violations = fields.List(fields.Nested(ViolationOut), required=True)


class GameOption(Schema):
    """A setup option of a game, as ``GET /v1/games`` describes it."""

    default = fields.Raw(required=True, allow_none=True, metadata={"description": "its value when not given"})
    description = fields.String(required=True)
    enum = fields.List(fields.String(), metadata={"description": "the values it may take, when they are few"})
    items = fields.List(fields.String(), metadata={"description": "the values its list may hold"})


class GameInfo(Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    players = fields.List(fields.Integer(), required=True, metadata={"description": "allowed player counts"})
    options = fields.Dict(keys=fields.String(), values=fields.Nested(GameOption), required=True,
                          metadata={"description": "setup options by name, with their defaults"})
    rules_version = fields.String(required=True)


class PointsValue(Schema):
    white = fields.Integer(required=True, metadata={"description": "points for the White clan"})
    black = fields.Integer(required=True, metadata={"description": "points for the Black clan"})


class PrintedCard(Schema):
    name = fields.String(required=True, metadata={
        "description": "the name printed on the card, in the language asked (Content-Language): \"Cat 7\", "
                       "\"Capture 4\", \"Joker\", \"Blue cat 1\""})
    kind = fields.String(required=True, validate=validate.OneOf(PRINTED_KINDS), metadata={
        "description": "Scratch & Catch: cat, scratch; CATATAC: paw, joker, alpha, points; Call of Katulhu: toy, "
                       "cat"})
    number = fields.Integer(allow_none=True, metadata={
        "description": "the number printed on it (Scratch & Catch, CATATAC paw cards, Call of Katulhu cats); null "
                       "for a Joker"})
    clan = fields.String(validate=validate.OneOf(("white", "black")),
                         metadata={"description": "CATATAC alpha cards: the clan's colour"})
    sardines = fields.Integer(metadata={"description": "CATATAC alpha and points cards: sardines printed"})
    points = fields.Nested(PointsValue, metadata={"description": "CATATAC points cards: points for each clan"})
    colour = fields.String(metadata={"description": "Call of Katulhu cats: blue, red, yellow, white or black"})
    slots = fields.List(fields.String(allow_none=True), metadata={
        "description": "Call of Katulhu cats: the toy shown in each of the 4 slots, left to right (null: open)"})


class GameDetail(GameInfo):
    catalogue = fields.Dict(required=True, metadata={"description": "the card catalogue in use"})
    cards = fields.Dict(keys=fields.String(), values=fields.Nested(PrintedCard), required=True, metadata={
        "description": "every card id the game can deal (its default and every option: variants, boosters), and "
                       "every card kind unseen hands name (`C7`, `P3`, `joker`), as printed: its name in the "
                       "language asked and what a page draws it with. Scratch & Catch lists the default deck's "
                       "ids: a card `C7-<copy>` of a larger deck is printed as its kind `C7`. Call of Katulhu "
                       "lists the default catalogue (a caller's own catalogue names its own toys and cats)"})
    violations = fields.List(fields.Nested(ViolationOut), required=True, metadata={
        "description": "every violation code this game's verdicts may carry, with its message template "
                       "({name} fields are filled in verdicts) and rulebook section, in the language asked"})


class GameList(Schema):
    games = fields.List(fields.Nested(GameInfo), required=True)


class Health(Schema):
    status = fields.String(required=True)
    store = fields.Dict(metadata={"description": "readiness only: the match store"})


def one_of_schemas(self, field: fields.Field, ret=None, **kwargs) -> dict:
    """apispec attribute function: a :class:`OneOfSchemas` field as ``oneOf``/``anyOf`` of its
    schemas' components (and ``{"type": "null"}`` when it allows null), with its discriminator."""
    if not isinstance(field, OneOfSchemas):
        return {}
    for key in ("type", "additionalProperties", "propertyNames"):
        ret.pop(key, None)
    refs = [self.resolve_nested_schema(schema) for schema in field.schemas]
    found: dict = {field.combine: refs + ([{"type": "null"}] if field.allow_none else [])}
    if field.discriminator and not field.allow_none:
        found["discriminator"] = {"propertyName": field.discriminator,
                                  "mapping": {value: ref["$ref"] for value, ref in zip(field.values, refs)}}
    return found


@dataclass(frozen=True)
class GameSchemas:
    """Request and answer schemas of one game's stateless operations."""

    setup_request: type[Schema]
    state_request: type[Schema]
    adjudicate_request: type[Schema]
    replay_request: type[Schema]
    view_request: type[Schema]
    view_answer: type[Schema]
    setup_answer: type[Schema]
    moves_answer: type[Schema]
    verdict: type[Schema]
    score_answer: type[Schema]
    replay_answer: type[Schema]
    state: type[Schema]
    move: type[Schema]


SIGNATURE_SENT = ("the state_signature answered beside this state when the referee signs states (README, "
                  "\"Signed states\"); required when it requires signed states, ignored when it holds no key")
SIGNATURE_ANSWERED = ("only when the referee signs states (README, \"Signed states\"): HMAC-SHA256 of the game id "
                      "and the state's canonical JSON, 64 hex digits; send it back beside the state; null beside a "
                      "null state")
SUGGESTIONS = ("an illegal move: up to 3 of the legal moves of the player who proposed it that are closest to it "
               "(the same card with other choices first, then the same choices with another card, then other "
               "moves; README, \"Suggestions\"); empty for a legal move, or when that player may not move now")


def signature_sent() -> fields.String:
    """The optional ``state_signature`` of a request that sends a state."""
    return fields.String(metadata={"description": SIGNATURE_SENT})


def signature_answered() -> fields.String:
    """The ``state_signature`` of an answer that carries a state (absent without keys)."""
    return fields.String(allow_none=True, metadata={"description": SIGNATURE_ANSWERED})


def prefix_of(game_id: str) -> str:
    """``"scratch-and-catch"`` -> ``"ScratchAndCatch"``."""
    return "".join(part.capitalize() for part in game_id.split("-"))


def game_schemas(game_id: str, module: ModuleType, player_counts: tuple[int, ...]) -> GameSchemas:
    """Build the envelopes of ``game_id`` around its schema module's STATE, MOVE, OPTIONS, SCORES."""
    p = prefix_of(game_id)
    state, move, options, scores = module.STATE, module.MOVE, module.OPTIONS, module.SCORES

    def make(name: str, spec: dict) -> type[Schema]:
        return Schema.from_dict(spec, name=p + name)

    def envelope(name: str, spec: dict) -> type[Schema]:
        # Request bodies: a FastEnvelope also refuses over-long lists before loading their items.
        return FastEnvelope.from_dict(spec, name=p + name)

    setup_request = envelope("SetupRequest", {
        "players": fields.Integer(strict=True, required=True, validate=validate.OneOf(player_counts),
                                  metadata={"description": "number of players"}),
        "seed": fields.String(validate=validate.Length(min=1, max=200),
                              metadata={"description": "seed of the generator (docs/rng.md); random when absent"}),
        "options": fields.Nested(options),
    })
    state_request = envelope("StateRequest", {"state": FastNested(state, required=True),
                                              "state_signature": signature_sent()})
    adjudicate_request = envelope("AdjudicateRequest", {
        "state": FastNested(state, required=True),
        "state_signature": signature_sent(),
        "move": FastNested(move, required=True),
    })
    replay_request = envelope("ReplayRequest", {
        "state": FastNested(state, required=True),
        "state_signature": signature_sent(),
        "moves": fields.List(FastNested(move), required=True, validate=validate.Length(max=MAX_REPLAY_MOVES),
                             metadata={"description": f"at most {MAX_REPLAY_MOVES} moves"}),
        "include_states": StrictBoolean(load_default=False, metadata={
            "description": "false (default): each step's state is null (the final state is given once); true: "
                           "each step carries the state after it (limited: moves x starting state size)"}),
    })
    view_request = envelope("ViewRequest", {
        "state": FastNested(state, required=True),
        "state_signature": signature_sent(),
        "seat": fields.Integer(strict=True, required=True, allow_none=True, validate=validate.Range(min=0),
                               metadata={"description": "the seat whose view is asked; null: a spectator"}),
    })
    view_answer = make("ViewAnswer", {
        "seat": fields.Integer(required=True, allow_none=True),
        "state": fields.Nested(module.VIEW, required=True, metadata={
            "description": "the state as the seat sees it (a match's view): other hands as sizes, decks as "
                           "sizes, face-down cards left out, no generator"}),
        "scores": fields.Nested(scores, required=True, metadata={"description": "the score sheet as the seat sees it"}),
        "outcome": fields.Nested(OutcomeOut, required=True),
    })
    verdict = make("Verdict", {
        "legal": fields.Boolean(required=True),
        "violations": fields.List(fields.Nested(ViolationOut), required=True),
        "state": fields.Nested(state, required=True, allow_none=True,
                               metadata={"description": "the next state; null when illegal"}),
        "state_signature": signature_answered(),
        "events": fields.List(fields.Nested(Event), required=True),
        "scores": fields.Nested(scores, required=True),
        "outcome": fields.Nested(OutcomeOut, required=True),
        "suggestions": fields.List(fields.Nested(move), required=True, metadata={"description": SUGGESTIONS}),
    })
    return GameSchemas(
        setup_request=setup_request,
        state_request=state_request,
        adjudicate_request=adjudicate_request,
        replay_request=replay_request,
        view_request=view_request,
        view_answer=view_answer,
        setup_answer=make("SetupAnswer", {"state": FastNested(state, required=True),
                                          "state_signature": signature_answered()}),
        moves_answer=make("LegalMoves", {"moves": fields.List(fields.Nested(move), required=True)}),
        verdict=verdict,
        score_answer=make("ScoreAnswer", {
            "scores": fields.Nested(scores, required=True),
            "outcome": fields.Nested(OutcomeOut, required=True),
        }),
        replay_answer=make("ReplayAnswer", {
            "state": FastNested(state, required=True),
            "state_signature": signature_answered(),
            "steps": fields.List(fields.Nested(verdict), required=True),
            "first_illegal": fields.Nested(IllegalStep, required=True, allow_none=True),
        }),
        state=state,
        move=move,
    )
