"""Schemas of match records (docs/records.md): the record a match answers, the body
``POST /v1/records/verify`` and ``referee verify`` take, and the verdict they give."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from referee.games.common_schema import FullMatch, StrictBoolean
from referee.schemas.bodies import Event
from referee.schemas.matches import MAX_PLAYERS
from referee.service.records import FORMAT
from referee.service.seeding import MODES

_HEX64 = FullMatch(r"^[0-9a-f]{64}$", error="64 lowercase hex digits")


class RecordSeeding(Schema):
    mode = fields.String(required=True, allow_none=True, validate=validate.OneOf(MODES), metadata={
        "description": "referee: the referee drew the seed and committed to it; creator: the creation request "
                       "named it (nothing committed); null: a match that kept no seeding"})
    commitment = fields.String(required=True, allow_none=True, validate=_HEX64, metadata={
        "description": "hex SHA-256(salt || 0x00 || UTF-8 seed) (docs/rng.md), shown from version 0; null unless "
                       "the referee drew the seed"})
    salt = fields.String(required=True, allow_none=True, validate=validate.Length(max=64), metadata={
        "description": "32 hex digits (16 bytes); null until the record is complete, and for a seed the referee "
                       "did not draw"})
    seed = fields.String(required=True, allow_none=True, validate=validate.Length(max=200), metadata={
        "description": "the referee's seed, or the creator's (docs/rng.md); with joint seeding the deal comes from "
                       "the seed derived from it and the contributions; null until the record is complete"})


class RecordEntry(Schema):
    version = fields.Integer(strict=True, required=True, metadata={"description": "the version this move made"})
    player = fields.Integer(strict=True, required=True, allow_none=True,
                            metadata={"description": "the seat that moved"})
    player_name = fields.String(allow_none=True, metadata={
        "description": "the display name of the seat that moved, as the log shows it; always in a record the referee "
                       "writes, optional when verifying (not verified)"})
    at = fields.String(required=True, metadata={"description": "RFC 3339 time, UTC (not verified)"})
    move = fields.Dict(required=True, metadata={
        "description": "the move (`<Game>Move`); values hidden from this reader are null until complete"})
    events = fields.List(fields.Nested(Event), required=True, metadata={
        "description": "what happened (docs/events.md); values hidden from this reader are null until complete"})
    redacted = StrictBoolean(required=True, metadata={"description": "whether values were hidden from this reader"})


class RecordOutcome(Schema):
    finished = StrictBoolean(required=True)
    winners = fields.List(fields.Integer(strict=True), required=True, metadata={"description": "winning seats"})
    tiebreak = fields.String(required=True, allow_none=True,
                             metadata={"description": "the tiebreak that decided, if any"})


class RecordFinal(Schema):
    state = fields.Dict(required=True, allow_none=True, metadata={
        "description": "the state at the record's version: the reader's view (`<Game>View`) during the game, the "
                       "full state (`<Game>State`) once complete; null before a joint deal"})
    scores = fields.Dict(required=True, allow_none=True, metadata={"description": "the game's score sheet"})
    outcome = fields.Nested(RecordOutcome, required=True)


class Record(Schema):
    format = fields.String(required=True, validate=validate.Equal(FORMAT),
                           metadata={"description": f"the record format and its version: {FORMAT}"})
    id = fields.String(required=True, metadata={"description": "the match's id (not verified)"})
    game = fields.String(required=True, metadata={"description": "game id"})
    rules_version = fields.String(required=True, metadata={"description": "the rules version that judged it"})
    players = fields.Integer(strict=True, required=True, validate=validate.Range(1, MAX_PLAYERS))
    names = fields.List(fields.String(allow_none=True), validate=validate.Length(max=MAX_PLAYERS), metadata={
        "description": "the seats' display names in seat order, as the match shows them (null for a seat without "
                       "one); always in a record the referee writes, optional when verifying (not verified)"})
    seat = fields.Integer(strict=True, required=True, allow_none=True, metadata={
        "description": "the reader it was read for (null: a spectator; not verified)"})
    version = fields.Integer(strict=True, required=True, validate=validate.Range(0),
                             metadata={"description": "the match's version: the number of moves"})
    complete = StrictBoolean(required=True, metadata={
        "description": "the game is over: the record shows everything to every reader and can be verified"})
    options = fields.Dict(required=True, allow_none=True, metadata={
        "description": "complete: the options as the creation request gave them (`<Game>Options`); during the game: "
                       "the options as the reader's view of the first state shows them (null before a joint deal)"})
    seeding = fields.Nested(RecordSeeding, required=True)
    start = fields.Dict(required=True, allow_none=True, metadata={
        "description": "the game's first state (version 0; with joint seeding, the state the last contribution "
                       "dealt): the reader's view during the game, the full state once complete; null before a "
                       "joint deal"})
    moves = fields.List(fields.Nested(RecordEntry), required=True,
                        metadata={"description": "every legal move, in order, with its events"})
    final = fields.Nested(RecordFinal, required=True)


class RecordVerdict(Schema):
    valid = fields.Boolean(required=True)
    pointer = fields.String(metadata={"description": "JSON pointer into the record to the first discrepancy "
                                                     "(invalid records only)"})
    detail = fields.String(metadata={"description": "what the replay has there instead (invalid records only)"})
