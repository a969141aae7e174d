"""CATATAC HTTP schemas (marshmallow): structure and types only.

Consistency (every card in exactly one place, alternating clans, the ball in a hideout only
during a stash attempt, ...) is checked by the pure rules in ``rules.py``; these schemas
document the contract and reject bodies of the wrong shape.
"""

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from referee.games.catatac.cards import (ALL_POINTS_IDS, ALPHA_IDS, BOOSTER_PAW_CARDS, BOOSTERS, CLANS, COIN_FACES,
                                         DIRECTIONS, SPOTS)
from referee.games.catatac.rules import CHANCE_MODES, ORDERS, PAIR_ACTIONS, PHASES
from referee.games.common_schema import FullMatch, RngState, StrictBoolean

_BOOSTER_PAW_IDS = "|".join(c for cards in BOOSTER_PAW_CARDS.values() for c in cards)
_ALPHA_IDS = "|".join(ALPHA_IDS)
CARD_ID = FullMatch(
    r"^(P[1-8]-[1-4]|(charge|sprint|stop|capture|smash|courage|impact|miracle|bingo|fido)-[1-8]|joker-[12]|"
    + _BOOSTER_PAW_IDS + ")$",
    error="not a paw card id (P<number>-<copy>, <name>-<number> such as charge-1, stop-5 or duo-2, joker-1, joker-2)")
PLAYED_ID = FullMatch(
    r"^(P[1-8]-[1-4]|(charge|sprint|stop|capture|smash|courage|impact|miracle|bingo|fido)-[1-8]|joker-[12]|"
    + _BOOSTER_PAW_IDS + "|" + _ALPHA_IDS + ")$",
    error="not a paw card id nor an alpha card id")
MAX_PAW = 58 + sum(len(cards) for cards in BOOSTER_PAW_CARDS.values())
MAX_POINTS = len(ALL_POINTS_IDS)
MAX_ALPHA = len(ALPHA_IDS)
SEAT = validate.Range(0, 5)
DIRECTION_TEXT = "black: toward the Black hideout side (Black alley); white: toward the White side"


def _card(**kwargs):
    kwargs.setdefault("metadata", {"description": "paw card id, e.g. P3-1, charge-2, miracle-6, joker-1"})
    return fields.String(validate=CARD_ID, **kwargs)


def _points_card(**kwargs):
    kwargs.setdefault("metadata", {"description": "points card id (booster ones: purple, yellow-momentum, "
                                                  "pasta-left, pasta-right)"})
    return fields.String(validate=validate.OneOf(ALL_POINTS_IDS), **kwargs)


def _alpha(**kwargs):
    kwargs.setdefault("metadata", {"description": "alpha card id (Booster B): " + ", ".join(ALPHA_IDS)})
    return fields.String(validate=validate.OneOf(ALPHA_IDS), **kwargs)


def _boosters(**kwargs):
    return fields.List(fields.String(validate=validate.OneOf(BOOSTERS)), validate=validate.Length(max=3), **kwargs)


def _clan(**kwargs):
    return fields.String(validate=validate.OneOf(CLANS), **kwargs)


def _seat(**kwargs):
    return fields.Integer(strict=True, validate=SEAT, **kwargs)


class CatatacDeal(Schema):
    """A deal seen at a physical table (setup with table chance)."""

    hands = fields.List(fields.List(_card(), validate=validate.Length(equal=6)), required=True,
                        validate=validate.Length(min=2, max=6), metadata={"description": "the 6 cards dealt to each seat"})
    discard = _card(required=True, metadata={"description": "the card turned to start the discard pile"})
    coin = fields.String(required=True, validate=validate.OneOf(COIN_FACES),
                         metadata={"description": "the face the yarn ball showed: the clan in possession"})
    removed = fields.List(_card(), validate=validate.Length(max=4),
                          metadata={"description": "boosters distraction and momentum: the 2 paw cards of each "
                                                   "removed unseen, as the table names them"})
    alpha = fields.List(_alpha(), validate=validate.Length(min=2, max=6),
                        metadata={"description": "booster alpha: the alpha card each seat drew from its clan's pile"})


class CatatacOptions(Schema):
    """Setup options; every field is optional and has a default."""

    chance = fields.String(validate=validate.OneOf(CHANCE_MODES),
                           metadata={"description": "seeded (default): the generator shuffles, deals and flips; "
                                                    "table: moves carry the outcomes seen at a physical table"})
    seat0_clan = _clan(metadata={"description": "clan of seat 0 (default white); the clans alternate around the table"})
    first_player = _seat(metadata={"description": "the seat that plays first, the rulebook's youngest kitten (default 0)"})
    deck_hockey = StrictBoolean(metadata={"description": "Deck Hockey variant: a pair can counter (default false)"})
    kittens = StrictBoolean(metadata={"description": "Kittens variant: paw cards 1 to 5 plus the 2 Jokers (default false)"})
    marathon = StrictBoolean(metadata={"description": "Marathon variant: 3 games in a row, points added (default false)"})
    boosters = _boosters(metadata={"description": "boosters in play, any combination without repeats (default none): "
                                                  "distraction (A: Skip cards, 2 paw cards removed unseen, purple "
                                                  "points card), alpha (B: one face-down alpha card per player, the "
                                                  "Pasta points cards), momentum (C: Replay cards, 2 paw cards removed "
                                                  "unseen, Momentum yellow points card); Bengal (A) and Ragdoll (C) "
                                                  "join the alpha piles only with alpha"})
    deal = fields.Nested(CatatacDeal, metadata={"description": "table chance only: the deal seen at the table"})


class CatatacStateOptions(Schema):
    """The options as a state carries them: all explicit."""

    chance = fields.String(required=True, validate=validate.OneOf(CHANCE_MODES))
    seat0_clan = _clan(required=True)
    first_player = _seat(required=True)
    deck_hockey = StrictBoolean(required=True)
    kittens = StrictBoolean(required=True)
    marathon = StrictBoolean(required=True)
    boosters = _boosters(metadata={"description": "present exactly when boosters are in play: distraction, alpha, "
                                                  "momentum, in that order (absent: the base game)"})


class CatatacPlayer(Schema):
    clan = _clan(required=True, metadata={"description": "white or black; alternating from options.seat0_clan"})
    hand = fields.List(_card(), required=True, validate=validate.Length(max=6))
    alpha = _alpha(allow_none=True, metadata={"description": "with boosters (required then): the alpha card lying face "
                                                             "down in front of the player, not part of the hand; null "
                                                             "once played or without the alpha booster"})


class CatatacBall(Schema):
    spot = fields.String(required=True, validate=validate.OneOf(SPOTS),
                         metadata={"description": "one of the five spots, Black hideout to White hideout"})
    colour = _clan(required=True, metadata={"description": "the face shown: the clan in possession"})


class CatatacPoints(Schema):
    white = fields.List(_points_card(), required=True, validate=validate.Length(max=MAX_POINTS),
                        metadata={"description": "points cards behind the White hideout, face down"})
    black = fields.List(_points_card(), required=True, validate=validate.Length(max=MAX_POINTS),
                        metadata={"description": "points cards behind the Black hideout, face down"})


class CatatacTurn(Schema):
    player = _seat(required=True, metadata={"description": "the seat to act now"})
    phase = fields.String(required=True, validate=validate.OneOf(PHASES),
                          metadata={"description": "play: a normal turn; answer: counter or decline a stash attempt; "
                                                   "refill: table chance, drawing; replay: the player plays another "
                                                   "card at once (booster Replay icon); over: the game is finished"})


class CatatacStash(Schema):
    """A pending stash attempt."""

    clan = _clan(required=True, metadata={"description": "the stashing clan"})
    by = _seat(required=True, metadata={"description": "the seat that attempted the stash"})
    next = _seat(required=True, metadata={"description": "the next opposing player, who plays after a successful stash"})
    answer = fields.List(_seat(), required=True, validate=validate.Length(min=1, max=3),
                         metadata={"description": "seats that may still answer, in order: the next opponent, then "
                                                  "their teammates clockwise (cooperation); the first acts now"})


class CatatacClanTotal(Schema):
    points = fields.Integer(strict=True, required=True, validate=validate.Range(0, 100))
    sardines = fields.Integer(strict=True, required=True, validate=validate.Range(0, 100))


class CatatacGameResult(Schema):
    white = fields.Nested(CatatacClanTotal, required=True)
    black = fields.Nested(CatatacClanTotal, required=True)


class CatatacMarathon(Schema):
    game = fields.Integer(strict=True, required=True, validate=validate.Range(1, 3),
                          metadata={"description": "the game being played, 1 to 3"})
    completed = fields.List(fields.Nested(CatatacGameResult), required=True, validate=validate.Length(max=3),
                            metadata={"description": "each completed game's points and sardines per clan"})


class CatatacState(Schema):
    """A CATATAC state (see referee/games/catatac/rules.py)."""

    game = fields.String(required=True, validate=validate.Equal("catatac"))
    schema_version = fields.Integer(strict=True, required=True, validate=validate.Equal(1))
    options = fields.Nested(CatatacStateOptions, required=True)
    players = fields.List(fields.Nested(CatatacPlayer), required=True, validate=validate.Length(min=2, max=6),
                          metadata={"description": "seat 0 first, clockwise"})
    ball = fields.Nested(CatatacBall, required=True)
    paw_deck = fields.List(_card(), required=True, validate=validate.Length(max=MAX_PAW),
                           metadata={"description": "top first (table chance: order unknown, kept sorted)"})
    discard = fields.List(fields.String(validate=PLAYED_ID), required=True,
                          validate=validate.Length(min=1, max=MAX_PAW + MAX_ALPHA),
                          metadata={"description": "bottom first: the last card is the top of the discard pile "
                                                   "(played alpha cards lie there too)"})
    points_deck = fields.List(_points_card(), required=True, validate=validate.Length(max=MAX_POINTS),
                              metadata={"description": "top first (table chance: order unknown, kept sorted)"})
    points = fields.Nested(CatatacPoints, required=True)
    turn = fields.Nested(CatatacTurn, required=True)
    stash = fields.Nested(CatatacStash, required=True, allow_none=True,
                          metadata={"description": "the pending stash attempt, or null"})
    marathon = fields.Nested(CatatacMarathon, required=True, allow_none=True,
                             metadata={"description": "Marathon progress, null without the variant"})
    finished = StrictBoolean(required=True)
    rng = fields.Nested(RngState, required=True)
    box = fields.List(_card(), validate=validate.Length(max=4),
                      metadata={"description": "with boosters (required then): the paw cards put back in the box "
                                               "unseen at setup, 2 per booster distraction / momentum, sorted"})
    alpha_aside = fields.List(_alpha(), validate=validate.Length(max=MAX_ALPHA),
                              metadata={"description": "with boosters (required then): the alpha cards not drawn, "
                                                       "set aside face down, sorted"})
    skip = StrictBoolean(metadata={"description": "with boosters (required then): a Skip is pending (true only while "
                                                  "the player who played it refills at a table); the next turn is "
                                                  "skipped when their turn ends"})


class CatatacPairChoice(Schema):
    """The basic action allowed by a pair."""

    action = fields.String(required=True, validate=validate.OneOf(PAIR_ACTIONS),
                           metadata={"description": "steal, movement (to an adjacent alley), stash (attempt), or "
                                                    "counter (Deck Hockey only, answering a stash attempt)"})
    direction = fields.String(required=True, allow_none=True, validate=validate.OneOf(tuple(DIRECTIONS)),
                              metadata={"description": "movement only (else null): " + DIRECTION_TEXT})


class CatatacBlockChoice(Schema):
    """How the card's action block is played, top to bottom."""

    bars = fields.List(fields.Integer(strict=True, validate=validate.Range(0, 9)), required=True,
                       validate=validate.Length(max=10),
                       metadata={"description": "one entry per bar of the block, top first: the side chosen, "
                                                "0 for the left/first side (catalogue order); [] when the block has no bar"})
    directions = fields.List(fields.String(validate=validate.OneOf(tuple(DIRECTIONS))), required=True,
                             validate=validate.Length(max=10),
                             metadata={"description": "one entry per movement effect actually played (after the bar "
                                                      "choices), top first: " + DIRECTION_TEXT})


class CatatacMove(Schema):
    """A move; every choice explicit.

    ``play``: ``card`` from the player's hand, with ``pair`` (null: the pair is not used),
    ``block`` (null: the action block is not used) and ``order`` (``pair_first`` or
    ``block_first`` exactly when both are used, else null); all three keys are required. A
    player of the same clan as the player due may play a card with the cooperation icon in
    their place (``player`` is then the cooperating seat). ``coins``: the faces of the coin
    flips happening during the move, in order (required with table chance when a flip
    happens; optional and checked with seeded chance). ``draw``: seeded chance only, optional:
    the refill cards, checked against the top of the paw deck.

    ``decline``: the acting seat does not counter the pending stash attempt. When it is the
    last seat able to answer, the stash succeeds: ``points_card`` and ``coins`` (one face)
    give the points card taken and the coin flip (required with table chance, optional and
    checked with seeded chance).

    ``draw``: table chance only: one card drawn while refilling a hand (``card``)."""

    type = fields.String(required=True, validate=validate.OneOf(("play", "decline", "draw")))
    player = _seat(required=True)
    card = fields.String(validate=PLAYED_ID,
                         metadata={"description": "play: the paw card played, or the player's own alpha card "
                                                  "(booster alpha; played instead of a paw card); draw: the card drawn"})
    pair = fields.Nested(CatatacPairChoice, allow_none=True, metadata={"description": "play only: the pair's basic action, or null"})
    block = fields.Nested(CatatacBlockChoice, allow_none=True, metadata={"description": "play only: the action block, or null"})
    order = fields.String(allow_none=True, validate=validate.OneOf(ORDERS),
                          metadata={"description": "play only: pair_first or block_first for a combo, else null"})
    coins = fields.List(fields.String(validate=validate.OneOf(COIN_FACES)), validate=validate.Length(max=4),
                        metadata={"description": "faces of the coin flips of this move, in order"})
    draw = fields.List(_card(), validate=validate.Length(max=6),
                       metadata={"description": "play, seeded chance only: the refill cards expected"})
    points_card = _points_card(metadata={"description": "decline only: the points card taken if the stash succeeds"})

    @validates_schema
    def _fields_of_type(self, data, **kwargs):
        kind = data["type"]
        if kind == "play":
            for name in ("card", "pair", "block", "order"):
                if name not in data:
                    raise ValidationError("a play states card, pair, block and order (null when unused)", name)
            if "points_card" in data:
                raise ValidationError("only a decline takes a points card", "points_card")
        else:
            for name in ("pair", "block", "order", "draw"):
                if name in data:
                    raise ValidationError(f"only a play has {name}", name)
        if kind == "decline" and "card" in data:
            raise ValidationError("a decline plays no card", "card")
        if kind == "draw":
            if "card" not in data:
                raise ValidationError("a draw names the card drawn", "card")
            for name in ("coins", "points_card"):
                if name in data:
                    raise ValidationError(f"a draw has no {name}", name)


class CatatacClanScore(Schema):
    seats = fields.List(fields.Integer(), required=True, metadata={"description": "the clan's seats"})
    points_cards = fields.Integer(required=True, metadata={"description": "points cards held (face down)"})
    points = fields.Integer(required=True, allow_none=True,
                            metadata={"description": "this game's points; null until the game ends (and in a Marathon, "
                                                     "see marathon.totals)"})
    sardines = fields.Integer(required=True, allow_none=True, metadata={"description": "tiebreak; null until the end"})


class CatatacClanScores(Schema):
    white = fields.Nested(CatatacClanScore, required=True)
    black = fields.Nested(CatatacClanScore, required=True)


class CatatacMarathonScore(Schema):
    game = fields.Integer(required=True, metadata={"description": "the game being played, 1 to 3"})
    games = fields.List(fields.Nested(CatatacGameResult), required=True, metadata={"description": "completed games"})
    totals = fields.Nested(CatatacGameResult, required=True, metadata={"description": "running totals of completed games"})


class CatatacScores(Schema):
    clans = fields.Nested(CatatacClanScores, required=True)
    marathon = fields.Nested(CatatacMarathonScore, required=True, allow_none=True)


STATE = CatatacState
MOVE = CatatacMove
OPTIONS = CatatacOptions
SCORES = CatatacScores
