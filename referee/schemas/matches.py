"""Schemas of the match endpoints (``/v1/matches``).

Match operations are shared by every game: a state is shown as the game's view (documented
as ``oneOf`` the ``<Game>View`` components, told apart by ``game``), moves as ``anyOf`` the
``<Game>Move`` components; the body of a move is loaded with the match's game's own move
schema once the match is known. Score sheets appear as JSON objects.
"""

from __future__ import annotations

import unicodedata
from importlib import import_module

from marshmallow import Schema, ValidationError, fields, validate

from referee.games import GAMES, PACKAGES
from referee.games.common_schema import OneOfSchemas
from referee.json_text import ascii_digits
from referee.schemas.bodies import SUGGESTIONS, Event, OutcomeOut, ViolationOut, prefix_of
from referee.schemas.compiled import FastEnvelope
from referee.service.texts import Text

_GAME_SCHEMAS = {game_id: import_module(f"referee.games.{PACKAGES[game_id]}.schema") for game_id in GAMES}


def _view(**kwargs) -> OneOfSchemas:
    """A state as the reader may see it: the view of the match's game (told apart by ``game``)."""
    return OneOfSchemas([module.VIEW for module in _GAME_SCHEMAS.values()], discriminator="game",
                        values=list(_GAME_SCHEMAS), **kwargs)


class Contribution(Schema):
    """A seat's contribution to a jointly seeded deal (docs/rng.md, "Joint seeding")."""

    type = fields.String(required=True, validate=validate.Equal("contribute"))
    player = fields.Integer(strict=True, required=True, validate=validate.Range(0, 15),
                            metadata={"description": "the contributing seat"})
    contribution = fields.String(required=True, validate=validate.Length(min=1, max=200), metadata={
        "description": "a value of the seat's own, best 32 random hex digits; other seats never see it, every reader "
                       "sees its SHA-256 (event contributed)"})


def _move(**kwargs) -> OneOfSchemas:
    """A move of the match's game (the game is the match's, so the schemas may overlap: anyOf),
    or a contribution to a joint deal."""
    return OneOfSchemas([*(module.MOVE for module in _GAME_SCHEMAS.values()), Contribution], combine="anyOf",
                        **kwargs)


def _scores(**kwargs) -> OneOfSchemas:
    """A score sheet of the match's game, as the reader may see it (``Game.visible_scores``:
    only public parts until the end, so it is shown from version 0 on)."""
    return OneOfSchemas([module.SCORES for module in _GAME_SCHEMAS.values()], combine="anyOf", **kwargs)

MAX_PLAYERS = 16
MAX_NAME_LENGTH = 32
# Characters a seat's name may not hold: controls, lone surrogates (no UTF-8 for them), and the
# line and paragraph separators (a name is one line).
_NOT_IN_NAMES = frozenset(("Cc", "Cs", "Zl", "Zp"))
# The bidirectional embeddings, overrides and isolates (LRE..RLO, LRI..PDI): one left open in
# a name turns round or moves the text a client shows after it ("<name> to play"). The marks
# (LRM, RLM, ALM) change no text but their own neighbours and are kept.
_DIRECTION_CONTROLS = frozenset(chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def seat_name(value: str) -> None:
    """marshmallow validator of a seat's display name (its length is checked beside it): not
    only whitespace and invisible format characters (category Cf), no control character, no
    embedding, override or isolate of direction (U+202A to U+202E, U+2066 to U+2069). Raises
    ValidationError."""
    if value and all(char.isspace() or unicodedata.category(char) == "Cf" for char in value):
        # (format characters, such as a zero-width space or joiner, show nothing by themselves)
        raise ValidationError(Text("a name is not only whitespace"))
    if any(unicodedata.category(char) in _NOT_IN_NAMES for char in value):
        raise ValidationError(Text("a name holds no control character or line break"))
    if any(char in _DIRECTION_CONTROLS for char in value):
        raise ValidationError(Text("a name holds no control character that changes the direction of text"))


class MatchCreateRequest(FastEnvelope):
    game = fields.String(required=True, validate=validate.OneOf(tuple(GAMES)), metadata={"description": "game id"})
    players = fields.Integer(strict=True, required=True, validate=validate.Range(1, MAX_PLAYERS),
                             metadata={"description": "number of players (one of the game's allowed counts)"})
    seed = fields.String(validate=validate.Length(min=1, max=200),
                         metadata={"description": "seed of the generator (docs/rng.md); leave it out: the referee "
                                                  "then draws one and never shows it. Whoever knows the seed can "
                                                  "deal the same game and see every hidden card, so give one only "
                                                  "when the one creating the match does not play"})
    options = fields.Dict(metadata={"description": "setup options, as the game's `<Game>Options` schema"})
    seeding = fields.String(validate=validate.OneOf(("referee", "joint")), metadata={
        "description": "without `seed`: `referee` (the default): the referee draws the seed and commits to it; "
                       "`joint`: the cards are dealt once every seat has sent a contribution (move `contribute`), "
                       "from a seed derived from the referee's and every contribution (docs/rng.md). Not with `seed`"})
    names = fields.List(
        fields.String(validate=[validate.Length(1, MAX_NAME_LENGTH), seat_name]),
        validate=validate.Length(max=MAX_PLAYERS), metadata={
            "description": "the seats' display names, one per seat in seat order (as many as `players`), each 1 to "
                           f"{MAX_NAME_LENGTH} characters, any script, not only whitespace, without control "
                           "characters, line breaks or controls of text direction (U+202A to U+202E, U+2066 to "
                           "U+2069). Public: every reader sees them (`names` of the match and "
                           "its log, `player_name` of log entries); set once, here"})


class SeatSecret(Schema):
    seat = fields.Integer(required=True)
    secret = fields.String(required=True, metadata={
        "description": "send as `Authorization: Bearer <secret>` to move for this seat and to see its view; "
                       "shown only in this answer (the referee keeps a hash)"})


class MatchSeeding(Schema):
    mode = fields.String(required=True, allow_none=True, validate=validate.OneOf(("referee", "creator", "joint")),
                         metadata={"description": "referee: the referee drew the seed and committed to it; creator: "
                                                  "the creation request named it (nothing committed); joint: as "
                                                  "referee, and the seats contribute to the deal; null: a match "
                                                  "that kept no seeding"})
    commitment = fields.String(required=True, allow_none=True, metadata={
        "description": "hex SHA-256(salt || 0x00 || UTF-8 seed) (docs/rng.md, Commitment), the same from version 0 "
                       "on: the match's record reveals seed and salt once the game is over; null unless the "
                       "referee drew the seed"})


LEGAL_MOVES_FIELD = ("only with `?include=legal_moves`: every move this seat may make at this version, as GET "
                     "/v1/matches/{id}/legal-moves?seat=N lists them at that version (the game's `<Game>Move` "
                     "schema, with the fields that listing adds, such as `table_fills`); empty when the seat is not "
                     "to act")


class Match(Schema):
    id = fields.String(required=True, metadata={"description": "random, URL-safe"})
    game = fields.String(required=True)
    players = fields.Integer(required=True)
    version = fields.Integer(required=True,
                             metadata={"description": "0 after creation, +1 per legal move; the ETag"})
    seat = fields.Integer(required=True, allow_none=True,
                          metadata={"description": "whose view this is; null: a spectator"})
    state = _view(required=True, allow_none=True, metadata={
        "description": "the state as this seat (or a spectator) may see it: the game's view (`<Game>View`); null "
                       "while a jointly seeded match waits for contributions"})
    scores = _scores(required=True, allow_none=True, metadata={
        "description": "the game's score sheet (`<Game>Scores`) from version 0 on, provisional until the game is "
                       "finished: only public parts before the end (points cards lying face down are counted, not "
                       "valued), so every reader sees the same sheet; null while a jointly seeded match waits for "
                       "contributions"})
    outcome = fields.Nested(OutcomeOut, required=True)
    seeding = fields.Nested(MatchSeeding, required=True)
    created_at = fields.String(required=True, metadata={"description": "RFC 3339 time, UTC"})
    updated_at = fields.String(required=True, metadata={"description": "RFC 3339 time of the last legal move, UTC"})
    expires_at = fields.String(required=True, metadata={
        "description": "RFC 3339 time when the match is forgotten unless a legal move renews it"})
    legal_moves = fields.List(_move(), metadata={"description": LEGAL_MOVES_FIELD})
    names = fields.List(fields.String(allow_none=True), required=True, metadata={"description": (
        "the seats' display names in seat order, as the creation request gave them (the same for every reader); "
        "null for every seat when it gave none")})


class MatchCreated(Match):
    class Meta:
        exclude = ("legal_moves",)

    seats = fields.List(fields.Nested(SeatSecret), required=True, metadata={"description": "one secret per seat"})


class MoveRequest(FastEnvelope):
    move = _move(required=True, metadata={
        "description": "a move of the match's game, as the game's `<Game>Move` schema; `move.player` is the seat "
                       "whose secret authorises it"})


class MatchVerdict(Schema):
    id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the match's version after this answer"})
    legal = fields.Boolean(required=True)
    violations = fields.List(fields.Nested(ViolationOut), required=True)
    state = _view(required=True, allow_none=True, metadata={
        "description": "the next state as the moving seat may see it (`<Game>View`); null when illegal"})
    events = fields.List(fields.Nested(Event), required=True, metadata={
        "description": "what happened, as the moving seat may see it"})
    scores = _scores(required=True, allow_none=True, metadata={
        "description": "the score sheet (`<Game>Scores`) after this answer: of the next state when the move is "
                       "legal, of the unchanged state when it is not; provisional until the game is finished; "
                       "null while a jointly seeded match waits for contributions"})
    outcome = fields.Nested(OutcomeOut, required=True)
    suggestions = fields.List(_move(), required=True, metadata={
        "description": SUGGESTIONS + ". Taken only from the moves this seat may make as it can know them (its "
                       "legal-moves): at a table game a value the table names is null, as table_fills says"})
    legal_moves = fields.List(_move(), metadata={"description": LEGAL_MOVES_FIELD.replace(
        "this seat", "the moving seat").replace("at this version", "at `version` (after this answer)")})


class LogEntry(Schema):
    version = fields.Integer(required=True, metadata={"description": "the version this move produced"})
    player = fields.Integer(required=True, allow_none=True, metadata={"description": "the seat that moved"})
    player_name = fields.String(required=True, allow_none=True, metadata={
        "description": "the display name of the seat that moved (the match's `names`); null when the match has no "
                       "names or the entry no player"})
    move = fields.Dict(required=True, metadata={"description": "the move; values hidden from this reader are null"})
    events = fields.List(fields.Nested(Event), required=True, metadata={
        "description": "what happened; values hidden from this reader are null"})
    at = fields.String(required=True, metadata={"description": "RFC 3339 time, UTC"})
    redacted = fields.Boolean(required=True, metadata={"description": "whether values were hidden from this reader"})


class MatchLog(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True, allow_none=True)
    names = fields.List(fields.String(allow_none=True), required=True, metadata={
        "description": "the seats' display names in seat order (as the match shows them)"})
    entries = fields.List(fields.Nested(LogEntry), required=True, metadata={"description": "legal moves, in order"})


class SeatNumber(fields.Integer):
    """A seat in a query string: ASCII digits only (``int()`` would also take "+0", " 0" and
    other scripts' digits, as ``Last-Event-ID`` and ``Prefer: wait`` do not either)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and not ascii_digits(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class SeatQuery(Schema):
    seat = SeatNumber(validate=validate.Range(0, MAX_PLAYERS - 1), metadata={
        "description": "show this seat's view (needs its secret); absent: a spectator's view"})


INCLUDE_FIELD = ("`legal_moves`: the answer also carries the reader's legal moves (a seat's only: give `seat=N` "
                 "with its secret); absent: it does not")


class IncludeQuery(Schema):
    include = fields.String(validate=validate.OneOf(("legal_moves",)), metadata={"description": INCLUDE_FIELD})


class SeatIncludeQuery(SeatQuery, IncludeQuery):
    """A seat's (or a spectator's) query that may ask for the seat's legal moves."""


class SeatRequiredQuery(Schema):
    seat = SeatNumber(required=True, validate=validate.Range(0, MAX_PLAYERS - 1), metadata={
        "description": "the seat asking (needs its secret)"})


def _legal_moves_schema(game_id: str, module) -> type[Schema]:
    """The legal-moves answer of a match of ``game_id``: its moves as the game's move schema
    (a generated client tells the games apart by ``game``; their moves alone may look alike)."""
    return Schema.from_dict({
        "id": fields.String(required=True),
        "game": fields.String(required=True, validate=validate.Equal(game_id)),
        "version": fields.Integer(required=True,
                                  metadata={"description": "the version these moves apply to (the ETag)"}),
        "seat": fields.Integer(required=True),
        "moves": fields.List(OneOfSchemas([module.MOVE, Contribution], combine="anyOf"), required=True, metadata={
            "description": "every move this seat may make now; a value this seat cannot see (a card still in a "
                           "face-down pile at a table game) is null: name what you see. Before a joint deal, the "
                           "seat's contribution (contribution null: send a value of your own)"}),
    }, name=f"{prefix_of(game_id)}MatchLegalMoves")


LEGAL_MOVES = {game_id: _legal_moves_schema(game_id, module) for game_id, module in _GAME_SCHEMAS.items()}


def legal_moves_doc() -> dict:
    """The answer schema of a match's legal-moves: one of the games' (components registered by
    :func:`referee.api.routes.matches.register_matches`), told apart by ``game``."""
    refs = {game_id: f"#/components/schemas/{schema.__name__}" for game_id, schema in LEGAL_MOVES.items()}
    return {"oneOf": [{"$ref": ref} for ref in refs.values()],
            "discriminator": {"propertyName": "game", "mapping": refs}}
