"""Rulebook, 2. Influencing the Yarn Ball: the basic actions of a pair (Making a Pair) and the
effects of an action block (Activating the Action Block, Icons: steal, movement, stash,
counter, coin flip; The Boosters: Skip, Replay) played on the yarn ball, in the order the
play states them (The "Combo")."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import NamedTuple

from referee.engine.core import Violation
from referee.games.catatac import cards
from referee.games.catatac.messages import (
    HELD_BY_ENEMY,
    HELD_BY_YOUR_CLAN,
    NO_STASH_TO_COUNTER,
    NOT_ADJACENT_TO_HIDEOUT,
    NOT_AT_STASH_DISTANCE,
    NOT_ON_ALLEY,
    UNKNOWN_EFFECT,
    rule_violation,
)

# _ball_effect's answer when a movement would leave the alley cards (a violation of its own).
OFF_ALLEYS = "off_alleys"


class BasicAction(NamedTuple):
    """Making a Pair: the basic action played (steal, movement, stash; Deck Hockey: counter)
    and, for a movement, its direction."""

    action: str
    direction: str | None


class ActionBlock(NamedTuple):
    """Activating the Action Block: the option played on each row, top first (on a bar, the
    side chosen), and the direction of each movement effect, top first."""

    options: tuple[cards.Option, ...]
    directions: tuple[str, ...]


class Influence(NamedTuple):
    """Where a play leaves the yarn ball and what it did on the way."""

    spot: int                     # index into cards.SPOTS
    colour: str                   # the clan in possession
    stashed: bool                 # the play ended in a stash attempt
    events: list[dict]            # the ball's events, in order
    skip: bool                    # Booster A: the next player's turn is skipped
    replay: bool                  # Booster C: the player plays another card at once
    forfeited: str | None = None  # the action of a pair the coin flip made impossible (rules notes)


@dataclass(slots=True)
class _Ball:
    """The yarn ball while a play is judged: its spot (index), colour, and what happened."""

    spot: int
    colour: str
    stashed: bool = False
    countered: bool = False
    skip: bool = False
    events: list[dict] = field(default_factory=list)


def adjacent_alley(hideout: int) -> int:
    """The alley next to a hideout (a countered ball goes back there)."""
    return 1 if hideout == 0 else 3


def _stash_start(clan: str, distance: int) -> int:
    """The spot a stash attempt 'from distance' starts on (1: the clan's own alley)."""
    return cards.HIDEOUT[clan] + distance if clan == "black" else cards.HIDEOUT[clan] - distance


def _effect_name(effect: cards.Effect) -> str:
    """An effect as a violation names it: ``steal``, ``movement 2``."""
    return effect[0] if len(effect) == 1 else f"{effect[0]} {effect[1]}"


def _ball_effect(ball: _Ball, name: str, amount: int, direction: str | None, clan: str, by: str) -> str | None:
    """Apply steal, movement, stash or counter to ``ball`` for ``clan``, by ``"pair"`` (a basic
    action) or ``"block"`` (an action block): the same rules (2. Influencing the Yarn Ball).
    Returns None when applied, OFF_ALLEYS when a movement would leave the alley cards,
    otherwise why it does not apply (a reason of messages.py; the ball is left as it was)."""
    spot = ball.spot
    if name == "steal":
        if spot not in cards.ALLEYS:
            return NOT_ON_ALLEY
        if ball.colour == clan:
            return HELD_BY_YOUR_CLAN
        ball.colour = clan
        ball.events.append({"type": "ball_stolen", "by": by, "clan": clan, "spot": cards.SPOTS[spot]})
    elif name == "movement":
        if spot not in cards.ALLEYS:
            return NOT_ON_ALLEY
        target = spot + amount * cards.DIRECTIONS[direction]  # type: ignore[index]  # a movement has one
        if target not in cards.ALLEYS:
            return OFF_ALLEYS
        ball.events.append({"type": "ball_moved", "by": by, "from": cards.SPOTS[spot], "to": cards.SPOTS[target]})
        ball.spot = target
    elif name == "stash":
        if ball.colour != clan:
            return HELD_BY_ENEMY
        if spot != _stash_start(clan, amount):
            return NOT_ADJACENT_TO_HIDEOUT if amount == 1 else NOT_AT_STASH_DISTANCE
        ball.spot = cards.HIDEOUT[clan]
        ball.stashed = True
        ball.events.append({"type": "stash_attempt", "by": by, "clan": clan})
        if ball.skip:  # a stash attempt cancels a pending Skip
            ball.skip = False
            ball.events.append({"type": "skip_cancelled"})
    else:  # counter
        if spot != cards.HIDEOUT[cards.ENEMY[clan]]:
            return NO_STASH_TO_COUNTER
        ball.spot = adjacent_alley(spot)
        ball.countered = True
        ball.events.append({"type": "countered", "by": by, "clan": clan, "to": cards.SPOTS[ball.spot]})
    return None


def influence(kind: cards.Kind, card: str, steps: tuple[BasicAction | ActionBlock, ...], spot: int, colour: str,
              clan: str, coins: tuple, answering: bool, can_replay: bool = False) -> Influence | Violation:
    """Play the steps on the ball from ``spot`` and ``colour`` for ``clan``, the coin flips
    coming out as ``coins``: the Influence, or the Violation of the first step that cannot be
    played.

    Boosters: a Skip makes the next player's turn skipped (``skip``), cancelled by a stash
    attempt later in the same play; a Replay (applicable only when ``can_replay``: a card is
    left to play at once) lets the player play another card (``replay``), lost when the play
    ends in a stash attempt or a Skip (both end the turn)."""
    ball = _Ball(spot, colour)
    replay = False
    coin_index = 0
    for step in steps:
        if ball.stashed:
            return rule_violation("STASH_ENDS_TURN")
        if isinstance(step, BasicAction):
            action, direction = step
            # The basic Movement needs possession; the other basic actions check it themselves.
            failure = HELD_BY_ENEMY if action == "movement" and ball.colour != clan else \
                _ball_effect(ball, action, 1, direction, clan, "pair")
            if failure == OFF_ALLEYS:
                return rule_violation("MOVE_OFF_ALLEYS", distance=1, direction=direction, spot=cards.SPOTS[ball.spot])
            if failure:
                return rule_violation("PAIR_ACTION_NOT_POSSIBLE", action=action, reason=failure)
            continue
        chosen, directions = step
        for condition in kind.conditions + tuple(c for opt in chosen for c in opt.conditions):
            holds = (ball.colour == clan) if condition == cards.POSSESSION else (ball.colour != clan)
            if not holds:
                return rule_violation("CONDITION_NOT_MET", condition=condition, card=card,
                                      reason=HELD_BY_ENEMY if condition == cards.POSSESSION else HELD_BY_YOUR_CLAN)
        d = 0
        for opt in chosen:
            for effect in opt.effects:
                if ball.stashed:
                    return rule_violation("STASH_ENDS_TURN")
                name = effect[0]
                if name in ("steal", "movement", "stash", "counter"):
                    direction = None
                    if name == "movement":
                        direction = directions[d]
                        d += 1
                    amount = effect[1] if len(effect) > 1 else 1
                    failure = _ball_effect(ball, name, amount, direction, clan, "block")
                    if failure == OFF_ALLEYS:
                        return rule_violation("MOVE_OFF_ALLEYS", distance=amount, direction=direction,
                                              spot=cards.SPOTS[ball.spot])
                    if failure:
                        return rule_violation("EFFECT_NOT_APPLICABLE", effect=_effect_name(effect), card=card,
                                              reason=failure)
                elif name == "coin_flip":
                    if ball.spot not in cards.ALLEYS:
                        return rule_violation("EFFECT_NOT_APPLICABLE", effect=_effect_name(effect), card=card,
                                              reason=NOT_ON_ALLEY)
                    ball.colour = coins[coin_index]
                    coin_index += 1
                    ball.events.append({"type": "coin_flipped", "colour": ball.colour, "spot": cards.SPOTS[ball.spot]})
                elif name == "skip":
                    ball.skip = True
                    ball.events.append({"type": "skip_played"})
                elif name == "replay":
                    if not can_replay:
                        return rule_violation("REPLAY_NOTHING_TO_PLAY", card=card)
                    replay = True
                else:  # pragma: no cover - every effect of the catalogue is handled above
                    return rule_violation("EFFECT_NOT_APPLICABLE", effect=_effect_name(effect), card=card,
                                          reason=UNKNOWN_EFFECT)
    if answering and not ball.countered:
        return rule_violation("MUST_COUNTER")
    if replay and (ball.stashed or ball.skip):
        replay = False
        ball.events.append({"type": "replay_lost"})
    return Influence(ball.spot, ball.colour, ball.stashed, ball.events, ball.skip, replay)


def influence_before_flips(kind: cards.Kind, card: str, steps: tuple[BasicAction | ActionBlock, ...],
                           start: tuple[int, str, str], faces: tuple, answering: bool,
                           can_replay: bool) -> Influence | Violation:
    """A play whose flips came out against it, judged as chosen before the flips (seeded
    chance, and unseen hands): the Influence (``forfeited``: the pair's action) or Violation.

    The player chooses before the coin is flipped, so the play is legal when some faces of its
    flips allow it, and its violation (when none does) is the one of the first faces in
    ``COIN_FACES`` order: neither depends on the coming flip. A legal play whose flip made the
    pair played after the action block impossible is applied without that pair; rules notes,
    coin flips judged before the flip."""
    first_bad: Violation | None = None
    for trial in product(cards.COIN_FACES, repeat=len(faces)):
        outcome = influence(kind, card, steps, *start, trial, answering, can_replay)
        if not isinstance(outcome, Violation):
            break
        first_bad = first_bad or outcome
    else:
        return first_bad  # type: ignore[return-value]  # the loop ran, so it holds a violation
    pair = next(step for step in steps if isinstance(step, BasicAction))
    outcome = influence(kind, card, tuple(step for step in steps if step is not pair), *start, faces, answering,
                        can_replay)
    if isinstance(outcome, Violation):
        # Not reached with the catalogue: the effects after a flip do not depend on its face.
        return first_bad or outcome
    return outcome._replace(forfeited=pair.action)
