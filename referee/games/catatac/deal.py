"""Rulebook, Setup (forming the clans, the paw deck and the hands, the discard pile, the
points cards, possession by a coin flip), with the options of the Variants (Deck Hockey,
Kittens, Marathon) and The Boosters: the options a game accepts, the cards in use, and the
deal, by the generator or as a physical table dealt it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import InvalidOptions, State
from referee.engine.options import hands_errors
from referee.engine.places import unknown_id
from referee.engine.rng import Rng
from referee.games.catatac import cards
from referee.games.catatac.state import (
    BOOSTERS_OPTION,
    CHANCE_MODES,
    GAME_ID,
    HANDS_MODES,
    OPTION_NAMES,
    boosters_of,
    clan_of,
    is_int,
)
from referee.games.catatac.unseen import face_down_deal


def normalise_options(players: Any, options: Mapping[str, Any] | None) -> dict:
    """Full options from what the caller gave; raises InvalidOptions with pointers."""
    options = dict(options or {})
    errors: list[tuple[str, str]] = []
    if not is_int(players) or players not in (2, 4, 6):
        errors.append(("/players", "CATATAC is played by 2, 4 or 6 players (two clans, alternating)"))
    chance = options.get("chance", "seeded")
    if chance not in CHANCE_MODES:
        errors.append(("/options/chance", "must be 'seeded' or 'table'"))
    clan = options.get("seat0_clan", "white")
    if clan not in cards.CLANS:
        errors.append(("/options/seat0_clan", "must be 'white' or 'black'"))
    first = options.get("first_player", 0)
    if not is_int(first) or not (0 <= first < (players if is_int(players) else 0)):
        errors.append(("/options/first_player", "must be a seat of the table (the youngest kitten plays first)"))
    flags = {}
    for name in ("deck_hockey", "kittens", "marathon"):
        flags[name] = options.get(name, False)
        if not isinstance(flags[name], bool):
            errors.append((f"/options/{name}", "must be true or false"))
    boosters = options.get(BOOSTERS_OPTION, [])
    if (not isinstance(boosters, list) or any(b not in cards.BOOSTERS for b in boosters)
            or len(set(boosters)) != len(boosters)):
        errors.append((f"/options/{BOOSTERS_OPTION}", "a list of distinct boosters among distraction, alpha, momentum"))
    errors.extend(hands_errors(options, chance))
    unknown = set(options) - set(OPTION_NAMES) - {"deal", BOOSTERS_OPTION, "hands"}
    errors.extend((f"/options/{name}", "unknown option") for name in sorted(unknown))
    if not errors and is_int(players):
        # Setup: 6 cards per hand, then one card turned onto the discard pile.
        deck = cards.paw_deck_size(flags["kittens"], cards.canonical_boosters(boosters))
        needed = cards.HAND_SIZE * players + 1
        if deck < needed:
            errors.append(("/options/kittens", (f"the Kittens deck has {deck} paw cards (numbered 1 to 5): "
                                                f"{players} hands of {cards.HAND_SIZE} and the card turned "
                                                f"need {needed}")))
    if errors:
        raise InvalidOptions(errors)
    full = {"chance": chance, "seat0_clan": clan, "first_player": first, **flags}
    if boosters:
        full[BOOSTERS_OPTION] = list(cards.canonical_boosters(boosters))
    if options.get("hands") == "unseen":
        full["hands"] = "unseen"
    return full


def options_info() -> dict:
    """The options a game accepts at setup, with their defaults (JSON)."""
    return {
        "chance": {"default": "seeded", "enum": list(CHANCE_MODES),
                   "description": "seeded: the generator shuffles, deals and flips the coin; table: moves carry "
                                  "the coin faces, refill cards and points cards seen at a physical table"},
        "seat0_clan": {"default": "white", "enum": list(cards.CLANS),
                       "description": "clan of seat 0; the clans alternate around the table"},
        "first_player": {"default": 0, "description": "seat that plays first (the rulebook's youngest kitten)"},
        "deck_hockey": {"default": False,
                        "description": "Deck Hockey variant: a pair can also counter a stash attempt"},
        "kittens": {"default": False,
                    "description": "Kittens variant: only paw cards numbered 1 to 5 (named ones included; no Jokers): "
                                   "35 cards, so 2 or 4 players (6 with boosters adding enough cards)"},
        "marathon": {"default": False,
                     "description": ("Marathon variant: 3 complete games in a row, points added; the referee deals "
                                     "each next game")},
        "boosters": {"default": [], "items": list(cards.BOOSTERS),
                     "description": "boosters in play, any combination: distraction (Booster A: 8 paw cards, 2 of "
                                    "them removed unseen, the purple points card, Skip icon), alpha (Booster B: "
                                    "one face-down alpha card per player from their clan's pile, the 2 Pasta "
                                    "points cards), momentum (Booster C: 8 paw cards, 2 of them removed unseen, "
                                    "the Momentum yellow points card, Replay icon); Bengal (A) and Ragdoll (C) "
                                    "join the alpha piles only with alpha"},
        "hands": {"default": "seen", "enum": list(HANDS_MODES),
                  "description": "unseen (with chance table): the table sees only face-up cards; hands and the "
                                 "paw deck are null, paw cards are named by kind (P3, joker, capture-2), refills "
                                 "are automatic; alpha cards lie face down until played or shown at the end"},
        "deal": {"default": None,
                 "description": "setup with table chance only (unseen hands: {discard: kind, coin} only): "
                                "{hands: [[6 ids] per seat], discard: id, coin: "
                                "white|black, removed: [2 paw ids per booster distraction/momentum], alpha: "
                                "[alpha id per seat] (with alpha)}. Without it the referee deals from the "
                                "seed (the table then deals those cards); a table that shuffled its own cards "
                                "sends what it dealt"},
    }


def catalogue(options: Mapping[str, Any] | None = None) -> dict:
    """The cards in use: ``{"spots", "paw_cards": [...], "points_cards": [...], "alpha_cards":
    [...], "boosters": {name: {"in_play", "paw_cards", "removed_unseen", "points_cards",
    "alpha_cards"}}}``: the paw, points and alpha cards of the boosters in play are included
    (the paw cards removed unseen at setup among them); ``boosters`` describes all three.
    ``kinds``: ``[{"kind", "count"}]``, each paw card kind (a card as printed: ``P3``,
    ``joker``, ``capture-2``) with its copies, the names unseen hands use."""
    full = normalise_options(2, {k: v for k, v in (options or {}).items() if k != "first_player"})
    boosters = boosters_of(full)
    points = cards.POINTS_CARDS
    return {
        "spots": list(cards.SPOTS),
        "hand_size": cards.HAND_SIZE,
        "paw_cards": [cards.kind_json(card) for card in cards.game_paw_cards(full["kittens"], boosters)],
        "points_cards": [{"id": card, "points": {"white": points[card][0], "black": points[card][1]},
                          "sardines": points[card][2]} for card in cards.points_ids(boosters)],
        "alpha_cards": [cards.alpha_json(card) for clan in cards.CLANS for card in cards.alpha_pile(clan, boosters)],
        "boosters": {b: {"in_play": b in boosters,
                         "paw_cards": ([cards.kind_json(c) for c in cards.booster_paw_cards(b, full["kittens"])]
                                       if b in cards.PAW_BOOSTERS else []),
                         "removed_unseen": cards.REMOVED_PER_BOOSTER if b in cards.PAW_BOOSTERS else 0,
                         "points_cards": [{"id": c, "points": {"white": w, "black": k}, "sardines": f}
                                          for c, (w, k, f) in cards.BOOSTER_POINTS[b].items()],
                         "alpha_cards": [cards.alpha_json(c) for c in cards.ALPHA_IDS if cards.ALPHA_BOOSTER[c] == b]}
                     for b in cards.BOOSTERS},
        "coin": {"0": cards.COIN_FACES[0], "1": cards.COIN_FACES[1]},
        "kinds": [{"kind": kind, "count": count}
                  for kind, count in cards.kind_counts(full["kittens"], boosters).items()],
    }


def setup(players: int, seed: str, options: Mapping[str, Any] | None, schema_version: int) -> State:
    """Rulebook, Setup: clans alternate (seat 0's clan is ``seat0_clan``); the paw deck is
    shuffled, 6 cards dealt to each seat (round robin from seat 0), the next card turned to
    start the discard pile; the 8 points cards are shuffled; a coin flip gives possession;
    the ball goes on the neutral alley; ``first_player`` plays first. The generator is used
    in that order: paw shuffle, points shuffle, coin. With ``chance: table`` and
    ``options.deal``, the hands, the turned card and the coin come from the table.

    The Boosters (``options.boosters``): Distraction and Momentum each put 2 of their paw
    cards back in the box unseen (``box``) and add the others and their points card;
    Alpha adds its 2 points cards and gives each player an alpha card of their clan's
    colour (``players[s].alpha``), the rest set aside (``alpha_aside``); Bengal and Ragdoll
    join the clans' alpha piles only with Alpha. The generator is then used in the order:
    each paw booster's shuffle (its first 2 cards go to the box; Distraction first), paw
    shuffle, points shuffle, each clan's alpha pile shuffle (White first; the clan's seats
    in seat order take the top cards), coin. A state with boosters also carries ``skip``
    (a Skip pending while the player who played it refills at a table). Raises InvalidOptions."""
    full = normalise_options(players, options)
    rng = Rng(seed)
    deal = (options or {}).get("deal")
    state: State = {
        "game": GAME_ID,
        "schema_version": schema_version,
        "options": full,
        "players": [{"clan": clan_of(s, full["seat0_clan"]), "hand": []} for s in range(players)],
        "points": {"white": [], "black": []},
        "stash": None,
        "marathon": {"game": 1, "completed": []} if full["marathon"] else None,
        "finished": False,
    }
    if deal is not None and full.get("hands") == "unseen":
        unseen_deal(state, full, deal)
    elif deal is not None:
        table_deal(state, full, deal)
    else:
        deal_game(state, rng)
    state["rng"] = rng.to_state()
    return state


def unseen_deal(state: State, full: dict, deal: Any) -> None:
    """Unseen hands at a physical table: the deal names the card turned (by kind) and the coin."""
    if (not isinstance(deal, dict) or set(deal) - {"discard", "coin"} or deal.get("coin") not in cards.COIN_FACES
            or not isinstance(deal.get("discard"), str)):
        raise InvalidOptions([("/options/deal", ("with unseen hands the deal names only the card turned and the "
                                                "coin: {discard: kind, coin: white|black}"))])
    boosters = boosters_of(full)
    counts = cards.kind_counts(full["kittens"], boosters)
    turned = deal["discard"]
    if turned not in cards.KINDS or cards.kind_of(turned) not in counts:
        raise InvalidOptions([("/options/deal/discard", f"not a paw card of this game: {turned!r}")])
    n = len(state["players"])
    for player in state["players"]:
        player["hand"] = [None] * cards.HAND_SIZE
    state["discard"] = [cards.kind_of(turned)]
    removed = cards.REMOVED_PER_BOOSTER * sum(1 for b in cards.PAW_BOOSTERS if b in boosters)
    state["paw_deck"] = [None] * (sum(counts.values()) - cards.HAND_SIZE * n - 1 - removed)
    state["points_deck"] = sorted(cards.points_ids(boosters))
    if boosters:
        face_down_deal(state, boosters, [None] * removed)
    state["ball"] = {"spot": cards.SPOTS[cards.NEUTRAL], "colour": deal["coin"]}
    state["turn"] = {"player": full["first_player"], "phase": "play"}


def deal_game(state: State, rng: Rng) -> None:
    """Shuffle and deal a game into ``state`` (setup, and each Marathon game)."""
    options = state["options"]
    boosters = boosters_of(options)
    n = len(state["players"])
    kittens = options["kittens"]
    box: list[str] = []
    paws = list(cards.paw_cards(kittens))
    for booster in cards.PAW_BOOSTERS:
        if booster in boosters:
            contents = rng.shuffle(list(cards.booster_paw_cards(booster, kittens)))
            removed = contents[:cards.REMOVED_PER_BOOSTER]
            box.extend(removed)
            paws.extend(c for c in cards.booster_paw_cards(booster, kittens) if c not in removed)
    ids = rng.shuffle(paws)
    dealt = cards.HAND_SIZE * n
    for seat, player in enumerate(state["players"]):
        player["hand"] = ids[seat:dealt:n] if options.get("hands") != "unseen" else [None] * cards.HAND_SIZE
    state["discard"] = [ids[dealt]]
    deck = ids[dealt + 1:]
    points = rng.shuffle(list(cards.points_ids(boosters)))
    if boosters:
        aside: list[str] = []
        for player in state["players"]:
            player["alpha"] = None
        for clan in cards.CLANS:
            pile = rng.shuffle(list(cards.alpha_pile(clan, boosters)))
            for player in state["players"]:
                if player["clan"] == clan and pile:
                    player["alpha"] = pile.pop(0)
            aside.extend(pile)
        state["box"] = sorted(box)
        state["alpha_aside"] = sorted(aside)
        state["skip"] = False
        if options.get("hands") == "unseen":
            face_down_deal(state, boosters, [None] * len(box))
    colour = cards.COIN_FACES[rng.coin()]
    if options["chance"] == "table":
        deck.sort()
        points.sort()
    state["discard"] = [cards.kind_of(state["discard"][0])] if options.get("hands") == "unseen" else state["discard"]
    state["paw_deck"] = [None] * len(deck) if options.get("hands") == "unseen" else deck
    state["points_deck"] = points
    state["points"] = {"white": [], "black": []}
    state["ball"] = {"spot": cards.SPOTS[cards.NEUTRAL], "colour": colour}
    state["turn"] = {"player": options["first_player"], "phase": "play"}
    state["stash"] = None


def table_deal(state: State, full: dict, deal: Any) -> None:
    """Setup at a physical table: the deal as seen (with boosters, the paw cards removed
    unseen, as the table names them, and each seat's alpha card)."""
    if full["chance"] != "table":
        raise InvalidOptions([("/options/deal", "a dealt table is only accepted with chance 'table'")])
    n = len(state["players"])
    if (not isinstance(deal, dict) or not isinstance(deal.get("hands"), list)
            or not isinstance(deal.get("discard"), str) or deal.get("coin") not in cards.COIN_FACES):
        raise InvalidOptions([("/options/deal",
                               "must be {hands: [[6 card ids] per seat], discard: id, coin: white|black}")])
    boosters = boosters_of(full)
    kittens = full["kittens"]
    errors: list[tuple[str, str]] = []
    hands = deal["hands"]
    if len(hands) != n:
        errors.append(("/options/deal/hands", f"needs one hand per player ({n})"))
    known = cards.game_paw_set(kittens, boosters)
    seen: set[str] = set()
    entries = [(f"/options/deal/hands/{i}/{j}", c) for i, h in enumerate(hands)
               for j, c in enumerate(h if isinstance(h, list) else [])]
    entries.append(("/options/deal/discard", deal["discard"]))
    removed = deal.get("removed", [])
    paw_boosters = [b for b in cards.PAW_BOOSTERS if b in boosters]
    if not isinstance(removed, list) or len(removed) != cards.REMOVED_PER_BOOSTER * len(paw_boosters):
        errors.append(("/options/deal/removed", (f"names the {cards.REMOVED_PER_BOOSTER} paw cards removed unseen "
                                                "from each booster in play (distraction, momentum)")))
        removed = []
    else:
        for booster in paw_boosters:
            mine = [c for c in removed if c in cards.BOOSTER_PAW_CARDS[booster]]
            if len(mine) != cards.REMOVED_PER_BOOSTER:
                errors.append(("/options/deal/removed",
                               f"names {cards.REMOVED_PER_BOOSTER} paw cards of the {booster} booster"))
        entries.extend((f"/options/deal/removed/{i}", c) for i, c in enumerate(removed))
    for i, h in enumerate(hands):
        if not isinstance(h, list) or len(h) != cards.HAND_SIZE:
            errors.append((f"/options/deal/hands/{i}", f"must hold {cards.HAND_SIZE} card ids"))
    for pointer, card in entries:
        if card not in known:
            errors.append((pointer, unknown_id(card)))
        elif card in seen:
            errors.append((pointer, f"card {card} is dealt twice"))
        seen.add(card)
    alpha = deal.get("alpha")
    if cards.ALPHA in boosters:
        if not isinstance(alpha, list) or len(alpha) != n:
            errors.append(("/options/deal/alpha", f"names the alpha card drawn by each seat ({n})"))
        else:
            for seat, card in enumerate(alpha):
                if card not in cards.alpha_pile(clan_of(seat, full["seat0_clan"]), boosters):
                    errors.append((f"/options/deal/alpha/{seat}", "not an alpha card of this seat's clan pile"))
                elif alpha.index(card) != seat:
                    errors.append((f"/options/deal/alpha/{seat}", f"alpha card {card} is drawn twice"))
    elif alpha is not None:
        errors.append(("/options/deal/alpha", "alpha cards are drawn only with the alpha booster"))
    if errors:
        raise InvalidOptions(errors)
    for seat, player in enumerate(state["players"]):
        player["hand"] = list(hands[seat])
    state["discard"] = [deal["discard"]]
    state["paw_deck"] = sorted(known - seen)
    state["points_deck"] = sorted(cards.points_ids(boosters))
    if boosters:
        held = list(alpha) if cards.ALPHA in boosters else [None] * n
        for seat, player in enumerate(state["players"]):
            player["alpha"] = held[seat]
        state["box"] = sorted(removed)
        state["alpha_aside"] = sorted(cards.alpha_set(boosters) - set(held))
        state["skip"] = False
    state["ball"] = {"spot": cards.SPOTS[cards.NEUTRAL], "colour": deal["coin"]}
    state["turn"] = {"player": full["first_player"], "phase": "play"}

