"""CATATAC's violations: each code's message and the rulebook section it cites (every section
of shared/rulebooks/catatac.en.txt that a verdict can name), and the ``reason`` words."""

from __future__ import annotations

from typing import Any

from referee.engine.core import Illegal, Violation, violation

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
    "CHOICE_MISSING": ("The move must state {field}, even when it is not used.", TURN),
    "NO_PAIR": ("Card {card} does not make a pair with {top}.", PAIR),
    "PAIR_ACTION_NOT_POSSIBLE": ("The basic action {action} is not possible now: {reason}.", PAIR),
    "COUNTER_NEEDS_DECK_HOCKEY": ("Only with the Deck Hockey variant can a pair counter a stash.", VARIANTS),
    "DIRECTIONS_MISMATCH": (
        "The move states {given} movement direction(s) but the movements need {needed}.", INFLUENCE),
    "MOVE_OFF_ALLEYS": (
        "The yarn ball cannot move {distance} toward {direction} from {spot}: it stays on the alley cards.", INFLUENCE),
    "NO_ACTION_BLOCK": ("Card {card} has no action block.", BLOCK),
    "CONDITION_NOT_MET": ("The activation condition {condition} of card {card} is not met: {reason}.", BLOCK),
    "BAR_CHOICES": ("Card {card} has {needed} bar(s): choose one side of each ({given} given).", ICONS),
    "BAR_SIDE": ("Bar {bar} of card {card} has no side {side}.", ICONS),
    "EFFECT_NOT_APPLICABLE": (
        ("The effect {effect} of card {card} cannot be applied now ({reason}); an action block is played in "
         "full or not at all."), BLOCK),
    "ORDER_REQUIRED": ("A combo states its order: the pair first or the action block first.", COMBO),
    "ORDER_UNEXPECTED": ("An order is stated only for a combo (the pair and the action block).", COMBO),
    "STASH_ENDS_TURN": ("A stash attempt ends the turn at once: nothing can follow it.", STASH),
    "MUST_COUNTER": ("A stash attempt can only be answered by a counter.", COUNTER),
    "NOT_A_COOPERATION_CARD": ("Card {card} has no cooperation icon: only the player due can play now.", COOPERATION),
    "COOPERATION_NEEDS_BLOCK": (
        "Playing for a teammate, use the action block alone or the combo, never the pair alone.", COOPERATION),
    "COIN_COUNT": ("The move carries {given} coin face(s) but {needed} coin flip(s) happen.", ICONS),
    "POINTS_CARD_REQUIRED": ("At a table game, name the points card taken.", STASH),
    "POINTS_CARD_NOT_IN_DECK": ("Points card {card} cannot be in the points deck.", STASH),
    "POINTS_CARD_NOT_TAKEN": ("No points card is taken by this move.", STASH),
    "SEEDED_CHANCE": (
        ("With the seeded generator the referee flips the coins and draws the cards: a move does not name "
         "{field}."), TURN),
    "DRAW_SEPARATE": ("At a table game, each refill card is a draw move of its own.", REFILL),
    "CARD_NOT_IN_DECK": ("Card {card} cannot be in the paw deck.", REFILL),
    "CARD_REQUIRED": ("At a table game, name the card drawn.", REFILL),
    "UNKNOWN_CARD": ("Unknown card id {card}: this game's paw deck has no such card.", REFILL),
    "ALPHA_NOT_HELD": ("Alpha card {card} is not in front of you.", BOOSTERS),
    "ALPHA_MAKES_NO_PAIR": ("Alpha card {card} never makes a pair.", BOOSTERS),
    "ALPHA_ALLOWS_NO_PAIR": ("No card makes a pair on alpha card {top}.", BOOSTERS),
    "ALPHA_DECK_EMPTY": ("An alpha card is played only while the paw deck is not empty.", BOOSTERS),
    "REPLAY_PENDING": ("Player {turn} must first play another card (Replay).", BOOSTERS),
    "REPLAY_NOTHING_TO_PLAY": (
        "Replay of card {card} needs another card to play at once, and none would be left.", BOOSTERS),
    "HAND_EMPTY": ("Player {player} has no card in hand.", PLAY),
    "CARD_NOT_IN_GAME": ("This game has no card {card}: the variant and boosters in play decide its paw cards.", SETUP),
    "CARD_ALREADY_SEEN": (
        "No {kind} can still be unseen: the game has {count}, all face up on the discard pile.", PLAY),
    "REFILL_UNSEEN": ("With unseen hands the refill only changes the hand sizes: there is no draw move.", REFILL),
    "ALPHA_ALREADY_SEEN": ("Alpha card {card} cannot still be face down: it is face up on the discard pile.", BOOSTERS),
    "ALPHA_ALREADY_SHOWN": ("Alpha card {card} cannot still be face down: player {player} has shown it.", WINNER),
    "SHOW_PENDING": (
        "The game has ended: the alpha cards still face down are shown first (players {players}).", WINNER),
    "ALPHA_CARD_REQUIRED": ("Name the alpha card shown.", WINNER),
    "NOTHING_TO_SHOW": (
        "Only an alpha card still face down in front of its player is shown, once the game has ended.", WINNER),
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
REASONS = (NOT_ON_ALLEY, HELD_BY_YOUR_CLAN, HELD_BY_ENEMY, NOT_ADJACENT_TO_HIDEOUT, NOT_AT_STASH_DISTANCE,
           NO_STASH_TO_COUNTER, UNKNOWN_ACTION, UNKNOWN_EFFECT)

# The parts of a move a violation names (the ``field`` word parameter). Each catalog names
# them in words, so that no message shows a field of the move as the JSON spells it.
CHOICE_FIELDS = ("pair", "block", "order")
BARS_FIELD = "block.bars"
DIRECTIONS_FIELD = "block.directions"
CHANCE_FIELDS = ("coins", "draw", "points_card")
FIELDS = CHOICE_FIELDS + (BARS_FIELD, DIRECTIONS_FIELD) + CHANCE_FIELDS


def rule_violation(code: str, **params: Any) -> Violation:
    """The Violation ``code`` of MESSAGES with its parameters."""
    return violation(MESSAGES, code, **params)


def illegal(code: str, **params: Any) -> Illegal:
    """The Illegal to raise for the Violation ``code``."""
    return Illegal(rule_violation(code, **params))
