"""What each reader sees (referee.engine.information), by the rulebook: cards are played face
up and coins flipped in sight of all (1. Play a Paw Card, Icons); hands are held without
revealing them (Setup) and a refill card is seen by its holder only (3. Refilling Your Hand);
a points card is taken "without looking at it" (Stash Attempt) and shown when the clans
reveal their points (Crowning the Winning Clan); an alpha card lies face down (The Boosters)."""

from __future__ import annotations

from referee.engine.core import State
from referee.engine.information import PUBLIC, Disclosure, Hidden, Reveals
from referee.games.catatac import cards


def _game_number(state: State, _item: dict | None = None) -> str:
    """The key that reveals the points cards taken in the current game: its end."""
    return f"game:{state['marathon']['game'] if state['marathon'] else 1}"


DISCLOSURE = Disclosure(
    moves={
        "play": PUBLIC,
        "draw": Hidden(("card",)),                                 # table chance: a refill card
        "decline": Hidden(("points_card",), seen_by="nobody", until=_game_number),
        "show": PUBLIC,                                            # unseen hands: an alpha card shown at the end
    },
    events={
        "card_played": PUBLIC, "cooperation": PUBLIC, "ball_stolen": PUBLIC, "ball_moved": PUBLIC,
        "stash_attempt": PUBLIC, "countered": PUBLIC, "coin_flipped": PUBLIC, "skip_played": PUBLIC,
        "skip_cancelled": PUBLIC, "replay": PUBLIC, "replay_lost": PUBLIC, "pair_forfeited": PUBLIC,
        "cards_drawn": PUBLIC,                                     # how many, never which
        "turn_skipped": PUBLIC, "turn_passed": PUBLIC, "declined": PUBLIC, "stash_succeeded": PUBLIC,
        "game_over": Reveals(lambda _state, event: [f"game:{event['game']}"]),   # the points cards
        "new_game": PUBLIC,
        "alpha_cards_to_show": PUBLIC, "alpha_shown": PUBLIC,     # unseen hands, Booster B
    },
)


def view(state: State, seat: int | None) -> State:
    """What seat ``seat`` sees (None: a spectator): other hands become counts, the decks
    sizes, the clans' points cards counts until the game is over (they lie face down and
    nobody looks at them); the generator is removed. Boosters: another seat's alpha card is
    shown only as ``has_alpha`` until the game is over (played, it is on the discard pile);
    the box and the alpha cards set aside show their sizes only. Unseen hands: every seat
    shows ``has_alpha`` and ``alpha`` (null while face down, named once shown at the end)."""
    seen = dict(state)
    seen["players"] = [
        {"clan": p["clan"], "hand": list(p["hand"])} if s == seat else {"clan": p["clan"], "hand_size": len(p["hand"])}
        for s, p in enumerate(state["players"])
    ]
    if "box" in state:
        # Boosters: the cards removed unseen and the alpha cards set aside stay unknown; an
        # alpha card lies face down in front of its holder until played.
        for s, (p, shown) in enumerate(zip(state["players"], seen["players"])):
            if "has_alpha" in p:   # unseen hands: the state holds only what the table sees
                shown["alpha"], shown["has_alpha"] = p["alpha"], p["has_alpha"]
            elif s == seat or state["finished"]:
                shown["alpha"] = p["alpha"]
            else:
                shown["has_alpha"] = p["alpha"] is not None
        seen["box"] = {"size": len(state["box"])}
        seen["alpha_aside"] = {"size": len(state["alpha_aside"])}
    seen["paw_deck"] = {"size": len(state["paw_deck"])}
    seen["points_deck"] = {"size": len(state["points_deck"])}
    if not state["finished"]:
        seen["points"] = {clan: {"count": len(state["points"][clan])} for clan in cards.CLANS}
    seen.pop("rng", None)
    return seen
