"""CATATAC HTTP schemas (marshmallow): structure and types only.

Consistency (every card in exactly one place, alternating clans, the ball in a hideout only
during a stash attempt, ...) is checked by the pure rules in ``rules.py``; these schemas
document the contract and reject bodies of the wrong shape.
"""

from marshmallow import Schema, ValidationError, fields, validate

from referee.games.catatac.cards import (
    ALL_POINTS_IDS,
    ALPHA_IDS,
    BOOSTER_PAW_CARDS,
    BOOSTERS,
    CLANS,
    COIN_FACES,
    DIRECTIONS,
    SPOTS,
)
from referee.games.catatac.rules import CHANCE_MODES, HANDS_MODES, ORDERS, PAIR_ACTIONS, PHASES
from referee.games.common_schema import (
    CheckedSchema,
    FullMatch,
    OneOfSchemas,
    PileSize,
    RngState,
    StrictBoolean,
    view_schema,
)

_BOOSTER_PAW_IDS = "|".join(c for cards in BOOSTER_PAW_CARDS.values() for c in cards)
_ALPHA_IDS = "|".join(ALPHA_IDS)
CARD_ID = FullMatch(
    r"^(P[1-8]-[1-4]|(charge|sprint|stop|capture|smash|courage|impact|miracle|bingo|fido)-[1-8]|joker-[12]|"
    + _BOOSTER_PAW_IDS + ")$",
    error="not a paw card id (P<number>-<copy>, <name>-<number> such as charge-1, stop-5 or duo-2, joker-1, joker-2)")
PLAYED_ID = FullMatch(
    r"^(P[1-8](-[1-4])?|(charge|sprint|stop|capture|smash|courage|impact|miracle|bingo|fido)-[1-8]|joker(-[12])?|"
    + _BOOSTER_PAW_IDS + "|" + _ALPHA_IDS + ")$",
    error="not a paw card id nor an alpha card id (with unseen hands: a paw card kind, P3, joker, capture-2)")
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
    """A deal seen at a physical table (setup with table chance only; refused with seeded
    chance). ``hands``, ``discard`` and ``coin`` are required (unseen hands: ``discard``, a kind,
    and ``coin`` only); ``removed`` is required with the
    distraction or momentum booster (2 cards per such booster) and ``alpha`` with the alpha
    booster (one per seat); both are absent otherwise. The rest of the paw deck and the points
    deck stay unknown (kept sorted in the state)."""

    hands = fields.List(fields.List(_card(), validate=validate.Length(equal=6)),
                        validate=validate.Length(min=2, max=6), metadata={
                            "description": "the 6 paw cards dealt to each seat, seat 0 first (one list per player)"})
    discard = fields.String(required=True, validate=PLAYED_ID, metadata={
        "description": "the card turned to start the discard pile (unseen hands: its kind)"})
    coin = fields.String(required=True, validate=validate.OneOf(COIN_FACES),
                         metadata={"description": "the face the yarn ball showed: the clan in possession"})
    removed = fields.List(_card(), validate=validate.Length(max=4),
                          metadata={"description": "boosters distraction and momentum: the 2 paw cards of each "
                                                   "removed unseen, as the table names them"})
    alpha = fields.List(_alpha(), validate=validate.Length(min=2, max=6),
                        metadata={"description": "booster alpha: the alpha card each seat drew from its clan's pile"})


class CatatacOptions(Schema):
    """Setup options (the ``options`` of a setup body); every field is optional and has a
    default. The state then carries every option explicitly (``boosters`` only when some are
    in play)."""

    chance = fields.String(validate=validate.OneOf(CHANCE_MODES),
                           metadata={"description": "seeded (default): the generator shuffles, deals and flips; "
                                                    "table: moves carry the outcomes seen at a physical table (coin "
                                                    "faces, points cards, each refill card as a draw move) and the "
                                                    "setup may give the deal"})
    seat0_clan = _clan(metadata={"description": "clan of seat 0 (default white); the clans alternate around the table"})
    first_player = _seat(metadata={
        "description": "the seat that plays first, the rulebook's youngest kitten (default 0)"})
    deck_hockey = StrictBoolean(metadata={"description": "Deck Hockey variant: a pair can counter (default false)"})
    kittens = StrictBoolean(metadata={
        "description": "Kittens variant: only the paw cards numbered 1 to 5, no Jokers (default false)"})
    marathon = StrictBoolean(metadata={
        "description": "Marathon variant: 3 games in a row, points added (default false)"})
    boosters = _boosters(metadata={"description": "boosters in play, any combination without repeats (default none): "
                                                  "distraction (A: Skip cards, 2 paw cards removed unseen, purple "
                                                  "points card), alpha (B: one face-down alpha card per player, the "
                                                  "Pasta points cards), momentum (C: Replay cards, 2 paw cards removed "
                                                  "unseen, Momentum yellow points card); Bengal (A) and Ragdoll (C) "
                                                  "join the alpha piles only with alpha"})
    hands = fields.String(validate=validate.OneOf(HANDS_MODES), metadata={
        "description": "seen (default); unseen, with chance table: the table sees only face-up cards; hands and the "
                       "paw deck are null, paw cards are named by kind (P3, joker, capture-2), refills are automatic; "
                       "alpha cards (booster alpha) lie face down and are named when played or shown at the end"})
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
    hands = fields.String(validate=validate.OneOf(HANDS_MODES), metadata={
        "description": "present when unseen: hands and paw deck are null, the discard pile names kinds"})


class CatatacPlayer(Schema):
    clan = _clan(required=True, metadata={"description": "white or black; alternating from options.seat0_clan"})
    hand = fields.List(_card(allow_none=True), required=True, validate=validate.Length(max=6),
                       metadata={"description": "paw card ids; with unseen hands null for each card held"})
    alpha = _alpha(allow_none=True, metadata={"description": "with boosters (required then): the alpha card lying face "
                                                             "down in front of the player, not part of the hand; null "
                                                             "once played or without the alpha booster (unseen hands: "
                                                             "null while face down, named once shown at the end)"})
    has_alpha = StrictBoolean(metadata={
        "description": "unseen hands with the alpha booster (required then): whether an alpha card lies in front of "
                       "the player (false once played)"})


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
                                                   "card at once (booster Replay icon); show: unseen hands with the "
                                                   "alpha booster, the game has ended and the alpha cards still face "
                                                   "down are shown (player: the first of them; any may show first); "
                                                   "over: the game is finished"})


class CatatacStash(Schema):
    """A pending stash attempt."""

    clan = _clan(required=True, metadata={"description": "the stashing clan"})
    by = _seat(required=True, metadata={"description": "the seat that attempted the stash"})
    next = _seat(required=True,
                 metadata={"description": "the next opposing player, who plays after a successful stash"})
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

    game = fields.String(required=True, validate=validate.Equal(
        "catatac", error="A state of another game: this operation judges catatac states."))
    schema_version = fields.Integer(strict=True, required=True, validate=validate.Equal(1))
    options = fields.Nested(CatatacStateOptions, required=True)
    players = fields.List(fields.Nested(CatatacPlayer), required=True, validate=validate.Length(min=2, max=6),
                          metadata={"description": "seat 0 first, clockwise"})
    ball = fields.Nested(CatatacBall, required=True)
    paw_deck = fields.List(_card(allow_none=True), required=True, validate=validate.Length(max=MAX_PAW),
                           metadata={"description": "top first (table chance: order unknown, kept sorted; unseen "
                                                    "hands: null for each card)"})
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
    box = fields.List(_card(allow_none=True), validate=validate.Length(max=4),
                      metadata={"description": "with boosters (required then): the paw cards put back in the box "
                                               "unseen at setup, 2 per booster distraction / momentum, sorted"})
    alpha_aside = fields.List(_alpha(allow_none=True), validate=validate.Length(max=MAX_ALPHA),
                              metadata={"description": "with boosters (required then): the alpha cards not drawn, "
                                                       "set aside face down, sorted (unseen hands: nulls)"})
    skip = StrictBoolean(metadata={"description": "with boosters (required then): a Skip is pending (true only while "
                                                  "the player who played it refills at a table); the next turn is "
                                                  "skipped when their turn ends"})


class CatatacPairChoice(Schema):
    """The basic action done with a pair (rulebook, Making a Pair): the card played has the
    same number as the top card of the discard pile (a Joker copies the top card's number; only
    a Joker pairs a Joker; an alpha card never makes or allows a pair). Both keys are required.

    - ``{"action": "steal", "direction": null}``: the ball is on an alley and the enemy clan
      has it; it is flipped to your clan.
    - ``{"action": "movement", "direction": "black"|"white"}``: your clan has the ball on an
      alley; it moves 1 spot toward that side, staying on the alleys.
    - ``{"action": "stash", "direction": null}``: your clan has the ball on the alley next to
      your own hideout; it goes into the hideout (a stash attempt, which ends the turn).
    - ``{"action": "counter", "direction": null}``: Deck Hockey variant only, answering a stash
      attempt: the ball leaves the enemy hideout for the adjacent alley."""

    action = fields.String(required=True, validate=validate.OneOf(PAIR_ACTIONS),
                           metadata={"description": "the basic action: steal (flip the enemy's ball on an alley to "
                                                    "your clan), movement (your ball to an adjacent alley), stash "
                                                    "(your ball from the alley next to your hideout into it: a stash "
                                                    "attempt), or counter (Deck Hockey only, answering a stash "
                                                    "attempt)"})
    direction = fields.String(required=True, allow_none=True, validate=validate.OneOf(tuple(DIRECTIONS)),
                              metadata={"description": "required key; a direction for action movement only, null "
                                                       "for every other action: " + DIRECTION_TEXT})


class CatatacBlockChoice(Schema):
    """How the card's action block is played (rulebook, Activating the Action Block), top to
    bottom and in full. The catalogue (``GET /v1/games/catatac``) gives each paw card's
    ``block`` as a list of rows, top first; each row is a list of sides, and a row with two
    sides or more is a bar, where the player picks one side (Icons). Both keys are required;
    a block with no bar and no movement is ``{"bars": [], "directions": []}``."""

    bars = fields.List(fields.Integer(strict=True, validate=validate.Range(0, 9)), required=True,
                       validate=validate.Length(max=10),
                       metadata={"description": "one integer per bar (row of the catalogue's block with two sides "
                                                "or more), top first: the index of the side chosen in that row, 0 "
                                                "for its first side; rows with a single side take no entry; [] when "
                                                "the block has no bar"})
    directions = fields.List(fields.String(validate=validate.OneOf(tuple(DIRECTIONS))), required=True,
                             validate=validate.Length(max=10),
                             metadata={"description": "one direction per movement effect actually played (in the "
                                                      "rows and the bar sides chosen), top first; [] when none: "
                                                      + DIRECTION_TEXT})


class CatatacMove(CheckedSchema):
    """A move; every choice explicit (no hidden defaults). ``type`` and ``player`` are always
    required. The easiest way to build a move is to pick one from ``legal-moves``.

    ``play`` (1. Play a Paw Card): requires ``card``, ``pair``, ``block`` and ``order`` (the
    three choices may be null but the keys must be present). ``card``: a paw card of the
    player's hand, or the player's own alpha card (booster alpha, while the paw deck is not
    empty). ``pair``: the basic action of a pair, or null when the pair is not used.
    ``block``: the action block's bar sides and movement directions, or null when it is not
    used. ``order``: ``pair_first`` or ``block_first`` exactly when both pair and block are
    used (the combo), else null. ``coins``: the faces of the coin flips happening during the
    play, in order; with table chance required (as many as flips, ``[]`` or absent when none);
    with seeded chance optional and checked against the generator. ``draw``: seeded chance
    only, optional: the refill cards expected, checked against the top of the paw deck (``[]``
    when none); absent with table chance (each refill card is a ``draw`` move). ``points_card``
    must be absent. Cooperation (2x): a player of the same clan as the player due may play a
    card with the cooperation icon in their place (``player`` is then the cooperating seat; the
    block is required, alone or in a combo); answering a stash attempt, only a counter is
    accepted (a counter icon, or a pair with Deck Hockey).

    ``decline`` (Countering a Stash): the acting seat does not counter the pending stash
    attempt. ``card``, ``pair``, ``block``, ``order`` and ``draw`` must be absent. When it is
    the last seat able to answer, the stash succeeds: ``points_card`` (the points card taken)
    and ``coins`` (exactly one face: the ball's coin flip) are required with table chance,
    optional and checked with seeded chance; for an earlier decline both must be absent (or
    ``coins`` empty).

    ``draw`` (3. Refilling Your Hand): table chance only, while ``turn.phase`` is ``refill``:
    one card drawn (``card``, required). ``pair``, ``block``, ``order``, ``draw``, ``coins`` and
    ``points_card`` must be absent.

    ``show`` (Crowning the Winning Clan): unseen hands with the alpha booster, while
    ``turn.phase`` is ``show``: the player names (``card``, required) the alpha card lying face
    down in front of them, so that its sardines count. Only ``type``, ``player`` and ``card``."""

    type = fields.String(required=True, validate=validate.OneOf(("play", "decline", "draw", "show")),
                         metadata={"description": "play: play a card (a paw card or the player's alpha card); "
                                                  "decline: do not counter a pending stash attempt; draw: table "
                                                  "chance, one refill card; show: unseen hands, the alpha card still "
                                                  "face down at the end of the game"})
    player = _seat(required=True, metadata={"description": "the acting seat (for a play under Cooperation: the "
                                                           "teammate playing in place of the player due)"})
    card = fields.String(validate=PLAYED_ID, allow_none=True,
                         metadata={"description": "play (required, not null): the paw card played from the hand, or "
                                                  "the player's own alpha card (booster alpha); draw (required key): "
                                                  "the card drawn from the paw deck, null is answered with the "
                                                  "violation CARD_REQUIRED (a match's legal-moves shows it as null: "
                                                  "name what you drew); show (required key): the alpha card shown; "
                                                  "decline: absent"})
    pair = fields.Nested(CatatacPairChoice, allow_none=True,
                         metadata={"description": "play (required key): the pair's basic action, or null when the "
                                                  "pair is not used; absent for decline and draw"})
    block = fields.Nested(CatatacBlockChoice, allow_none=True,
                          metadata={"description": "play (required key): the action block as played, or null when "
                                                   "it is not used; absent for decline and draw"})
    order = fields.String(allow_none=True, validate=validate.OneOf(ORDERS),
                          metadata={"description": "play (required key): pair_first (the pair's action, then the "
                                                   "block) or block_first (the block, then the pair's action) when "
                                                   "both pair and block are used (The \"Combo\"); null otherwise; "
                                                   "absent for decline and draw"})
    coins = fields.List(fields.String(validate=validate.OneOf(COIN_FACES)), validate=validate.Length(max=4),
                        metadata={"description": "play and decline: the faces (white or black) of the coin flips of "
                                                 "this move, in order. Table chance: required when a flip happens "
                                                 "(one per coin-flip effect of the block; one for the decline that "
                                                 "makes a stash succeed). Seeded chance: optional, checked against "
                                                 "the generator. Absent for draw"})
    draw = fields.List(_card(), validate=validate.Length(max=6),
                       metadata={"description": "play, seeded chance only, optional: the refill cards expected, top "
                                                "of the paw deck first ([] when no card is drawn); checked. Absent "
                                                "with table chance and for decline and draw"})
    points_card = _points_card(allow_none=True, metadata={
        "description": "decline only, for the decline that makes the stash succeed: the points card taken (table "
                       "chance: required, the card seen, null or absent is answered with the violation "
                       "POINTS_CARD_REQUIRED; seeded: optional, checked against the top of the points deck); absent "
                       "or null otherwise"})
    table_fills = fields.List(fields.String(validate=validate.OneOf(("card", "coins", "points_card"))), metadata={
        "description": "set by a match's legal-moves at a table game (and by legal-moves with unseen hands): the "
                       "fields the table fills in with what it sees (null: name it; a null pair, block or order is "
                       "not one: it is not used); the move is listed once per coin face and, with unseen hands, per "
                       "card kind it may be; ignored when judging"})

    def check(self, data: dict) -> None:
        kind = data["type"]
        if kind == "play":
            missing = [name for name in ("card", "pair", "block", "order") if name not in data]
            if missing:
                raise ValidationError({name: ["a play states card, pair, block and order (null when unused)"]
                                       for name in missing})
            if data["card"] is None:  # null is never a card played (legal-moves lists kinds, not nulls)
                raise ValidationError("a play names the card played: a paw card of the hand (unseen hands: its "
                                      "kind) or the player's alpha card", "card")
            if "points_card" in data:
                raise ValidationError("only a decline takes a points card", "points_card")
        else:
            for name in ("pair", "block", "order", "draw"):
                if name in data:
                    raise ValidationError(f"only a play has {name}", name)
        if kind == "decline" and "card" in data:
            raise ValidationError("a decline plays no card", "card")
        if kind in ("draw", "show"):
            if "card" not in data:
                raise ValidationError(f"a {kind} names the card {'drawn' if kind == 'draw' else 'shown'}", "card")
            for name in ("coins", "points_card"):
                if name in data:
                    raise ValidationError(f"a {kind} has no {name}", name)


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
    totals = fields.Nested(CatatacGameResult, required=True,
                           metadata={"description": "running totals of completed games"})


class CatatacScores(Schema):
    clans = fields.Nested(CatatacClanScores, required=True)
    marathon = fields.Nested(CatatacMarathonScore, required=True, allow_none=True)


class CatatacPlayerView(Schema):
    """A seat as a view shows it: the reader's own seat with its hand (and alpha card), every
    other seat with its hand size (and whether it holds an alpha card, until the game ends)."""

    clan = _clan(required=True)
    hand = fields.List(_card(allow_none=True), validate=validate.Length(max=6), metadata={
        "description": "the reader's own seat only (unseen hands: null for each card)"})
    hand_size = fields.Integer(metadata={"description": "every other seat"})
    alpha = _alpha(allow_none=True, metadata={"description": "with boosters: the reader's own alpha card (every seat's "
                                                             "once the game is over); null once played (unseen hands: "
                                                             "every seat, null until shown at the end)"})
    has_alpha = fields.Boolean(metadata={"description": "with boosters, every other seat until the game is over "
                                                        "(unseen hands: every seat, always): whether an alpha card "
                                                        "lies in front of it"})


class CatatacPointsCount(Schema):
    count = fields.Integer(required=True, metadata={"description": "points cards held, face down"})


class CatatacPointsCounts(Schema):
    """The clans' points cards while the game goes on: face down, counts only."""

    white = fields.Nested(CatatacPointsCount, required=True)
    black = fields.Nested(CatatacPointsCount, required=True)


CatatacView = view_schema(CatatacState, "CatatacView", {
    "players": fields.List(fields.Nested(CatatacPlayerView), required=True),
    "paw_deck": fields.Nested(PileSize, required=True, metadata={"description": "face down: its size only"}),
    "points_deck": fields.Nested(PileSize, required=True, metadata={"description": "face down: its size only"}),
    "points": OneOfSchemas([CatatacPointsCounts, CatatacPoints], required=True, metadata={
        "description": "counts while the game goes on (the cards lie face down); the cards once it is over"}),
    "box": fields.Nested(PileSize, metadata={"description": "with boosters: the paw cards removed unseen"}),
    "alpha_aside": fields.Nested(PileSize, metadata={"description": "with boosters: the alpha cards set aside"}),
})

STATE = CatatacState
VIEW = CatatacView
MOVE = CatatacMove
OPTIONS = CatatacOptions
SCORES = CatatacScores
