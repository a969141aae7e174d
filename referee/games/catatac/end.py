"""Rulebook, End of the Game (the points deck empty, or no card left to play; the Marathon
variant's next game) and Crowning the Winning Clan (points, then sardines; Booster B's alpha
cards still in front of their players, shown first with unseen hands)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import UNFINISHED, Outcome, State
from referee.engine.rng import Rng
from referee.games.catatac import cards
from referee.games.catatac.deal import deal_game
from referee.games.catatac.messages import illegal
from referee.games.catatac.state import MARATHON_GAMES, boosters_of, copy_state
from referee.games.catatac.unseen import face_down_alphas, unseen_alpha


def clan_totals(points: Mapping[str, list], players: list | None = None) -> dict:
    """Rulebook, Crowning the Winning Clan: each clan's points and sardines. Boosters: Pasta's
    left half is worth 3 with the right half; an alpha card still in front of a player at the
    end adds its sardines (Manx, Lykoi) to that player's clan (rules notes)."""
    totals = {clan: {"points": cards.clan_points(points[clan], clan),
                     "sardines": sum(cards.sardines(card) for card in points[clan])}
              for clan in cards.CLANS}
    for player in players or ():
        alpha = player.get("alpha")
        if alpha is not None:
            totals[player["clan"]]["sardines"] += cards.KINDS[alpha].sardines
    return totals


def game_end(state: State, events: list[dict]) -> None:
    """Rulebook, End of the Game (and the Marathon variant: the referee deals the next game).
    Unseen hands with Booster B: the alpha cards still face down are shown first (phase
    ``show``, event ``alpha_cards_to_show``), then the game is scored."""
    face_down = face_down_alphas(state)
    if face_down:
        state["stash"] = None
        if "skip" in state:
            state["skip"] = False
        # Any holder listed may show first; turn.player names the first of them.
        state["turn"] = {"player": face_down[0], "phase": "show"}
        events.append({"type": "alpha_cards_to_show", "players": face_down})
        return
    totals = clan_totals(state["points"], state["players"])
    marathon = state["marathon"]
    number = marathon["game"] if marathon else 1
    events.append({"type": "game_over", "game": number, "points": totals})
    if marathon is not None:
        marathon["completed"].append(totals)
        if marathon["game"] < MARATHON_GAMES:
            marathon["game"] += 1
            rng = Rng.from_state(state["rng"])
            deal_game(state, rng)
            state["rng"] = rng.to_state()
            events.append({"type": "new_game", "game": marathon["game"]})
            return
    state["finished"] = True
    state["stash"] = None
    if "skip" in state:
        state["skip"] = False
    state["turn"] = {"player": state["turn"]["player"], "phase": "over"}


def score(state: State) -> tuple[dict, Outcome]:
    """Rulebook, Crowning the Winning Clan: each clan adds its points cards (a two-valued
    card gives the value of the clan's colour); the most points wins; a tie goes to the
    clan with more sardines, then stays a tie (no winners). Points cards lie face down:
    until the end only their number is shown. Marathon: points of the three games added
    (sardines too, for the tiebreak); ``marathon.games`` gives each completed game, and once
    the Marathon is over ``clans`` shows its totals."""
    players = state["players"]
    finished = state["finished"]
    marathon = state["marathon"]
    white_seats: list[int] = []
    black_seats: list[int] = []
    for s, p in enumerate(players):
        (white_seats if p["clan"] == "white" else black_seats).append(s)  # (check_state: white or black)
    points = state["points"]
    clans: dict[str, dict[str, Any]] = {
        "white": {"seats": white_seats, "points_cards": len(points["white"]), "points": None, "sardines": None},
        "black": {"seats": black_seats, "points_cards": len(points["black"]), "points": None, "sardines": None}}
    scores: dict = {"clans": clans, "marathon": None}
    final = None
    if marathon is not None:
        games = marathon["completed"]
        totals = {clan: {"points": sum(g[clan]["points"] for g in games),
                         "sardines": sum(g[clan]["sardines"] for g in games)} for clan in cards.CLANS}
        scores["marathon"] = {"game": marathon["game"], "games": list(games), "totals": totals}
        final = totals
    if not finished:
        return scores, UNFINISHED
    if final is None:
        final = clan_totals(state["points"], players)
    for clan in cards.CLANS:  # Marathon: the totals of the three games
        clans[clan].update(final[clan])
    white, black = final["white"], final["black"]
    if white["points"] != black["points"]:
        winner, tiebreak = ("white" if white["points"] > black["points"] else "black"), None
    elif white["sardines"] != black["sardines"]:
        winner, tiebreak = ("white" if white["sardines"] > black["sardines"] else "black"), "sardines"
    else:
        return scores, Outcome(True, (), "tie")
    return scores, Outcome(True, tuple(clans[winner]["seats"]), tiebreak)


def show(state: State, move: dict) -> tuple[State, list[dict]]:
    """Unseen hands, Booster B, Crowning the Winning Clan: an alpha card still in front of
    its player at the end adds its sardines, so each face-down one is shown (named) before
    the game is scored; any holder may show first. Raises Illegal."""
    seat = move["player"]
    if seat not in face_down_alphas(state):
        raise illegal("NOTHING_TO_SHOW")
    card = move.get("card")
    if card is None:
        raise illegal("ALPHA_CARD_REQUIRED")
    # The tuple first: a card may be any JSON value, and a set cannot hold a list.
    if card not in cards.ALPHA_IDS or card not in cards.alpha_set(boosters_of(state["options"])):
        raise illegal("ALPHA_NOT_HELD", card=card)
    unseen_alpha(state, seat, card)
    new = copy_state(state)
    new["players"][seat]["alpha"] = card
    events: list[dict] = [{"type": "alpha_shown", "player": seat, "card": card}]
    left = face_down_alphas(new)
    if left:
        new["turn"] = {"player": left[0], "phase": "show"}
    else:
        game_end(new, events)
    return new, events
