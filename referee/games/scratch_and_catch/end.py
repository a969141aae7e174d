"""Scratch & Catch, rulebook section End of the Game: when the game ends, the final turns, and scoring.

The game ends when a player has no more fleas, or can no longer draw to complete their hand;
every other player then takes one final turn. Each Cat card in front of you is worth 1 point,
and the fleas you hold earn or lose points by the flea table (cards.py); most points wins, a
tie goes to the fewest fleas.
"""

from __future__ import annotations

from referee.engine.core import UNFINISHED, Outcome, State
from referee.games.scratch_and_catch.cards import HAND_SIZE, flea_points, is_scratch


def end_turn(state: State, events: list[dict]) -> tuple[State, list[dict]]:
    """The end of the turn of the player to act in ``state`` (changed in place, with
    ``events``): a player with no fleas, or who cannot refill to 4, ends the game, and every
    other player then takes one final turn, clockwise; otherwise the next player's turn starts.
    A final turn that cannot be played (no card in hand, an empty pile) is passed. Returns the
    state and the events."""
    seat = state["turn"]["player"]
    players = state["players"]
    n = len(players)
    final = state["final_turns"]
    if final is None:
        reason = None
        if players[seat]["fleas"] == 0:
            reason = "no_fleas"
        elif len(players[seat]["hand"]) < HAND_SIZE:
            reason = "cannot_refill"
        if reason is None:
            state["turn"] = {"player": (seat + 1) % n, "step": "first"}
            return state, events
        final = {"ended_by": seat, "reason": reason, "remaining": [(seat + k) % n for k in range(1, n)]}
        state["final_turns"] = final
        events.append({"type": "game_end_triggered", "player": seat, "reason": reason})
    else:
        final["remaining"].remove(seat)
    # Final turns: a player with no card in hand and an empty pile cannot play (rules notes).
    remaining = final["remaining"]
    while remaining and not players[remaining[0]]["hand"] and not state["draw_pile"]:
        events.append({"type": "turn_passed", "player": remaining.pop(0), "reason": "no_cards"})
    if remaining:
        state["turn"] = {"player": remaining[0], "step": "first"}
    else:
        state["finished"] = True
        state["turn"] = {"player": seat, "step": "first"}
        _, outcome = score(state)
        events.append({"type": "game_over", "winners": list(outcome.winners)})
    return state, events


def score(state: State) -> tuple[dict, Outcome]:
    """The score sheet ``{"players": [{"player", "cards", "fleas", "flea_points", "total"}]}``
    and the outcome of ``state``: 1 point per collected Cat card ("each Cat card in front of
    you"; Scratch cards only with the option ``scratch_cards_score``), plus the flea table;
    most points wins, a tie goes to the fewest fleas (tiebreak "fewest_fleas"), and a tie on
    both is shared (tiebreak "shared", as in Call of Katulhu). Scores are provisional until
    ``finished``."""
    count_scratch = state["options"]["scratch_cards_score"]
    sheet = []
    for seat, player in enumerate(state["players"]):
        collected = player["collected"]
        cards = len(collected) if count_scratch else sum(not is_scratch(card) for card in collected)
        fleas = player["fleas"]
        points = flea_points(fleas)
        sheet.append({"player": seat, "cards": cards, "fleas": fleas, "flea_points": points,
                      "total": cards + points})
    scores = {"players": sheet}
    if not state["finished"]:
        return scores, UNFINISHED
    best = max(row["total"] for row in sheet)
    leaders = [row for row in sheet if row["total"] == best]
    if len(leaders) == 1:
        return scores, Outcome(True, (leaders[0]["player"],))
    fewest = min(row["fleas"] for row in leaders)
    winners = tuple(row["player"] for row in leaders if row["fleas"] == fewest)
    return scores, Outcome(True, winners, "fewest_fleas" if len(winners) == 1 else "shared")
