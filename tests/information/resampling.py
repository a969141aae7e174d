"""Resampling what a reader cannot see, consistently with everything it has seen.

A reader (a seat, or None for a spectator) has seen the card ids of every view it was shown
so far (``seen``). Anything else is hidden from it: other hands, the order and contents of the
decks, the cards removed unseen, points cards taken face down, the generator's seed and
counter, a face-down placement or discard choice not yet revealed. A resample:

- swaps hidden cards among themselves (a random permutation of the never-seen card ids of
  each group: cards of one group may lie in each other's places: paw cards of one box,
  points cards, one clan's alpha cards), everywhere in the state and in the stored log;
- gives the generator another seed and counter (``keep_rng`` False);
- Call of Katulhu: another face-down placement (keeping the set-aside toys) and another stall
  choice for every seat the reader cannot see, in the state and in the log entry that made it,
  and another order of the cat deck;
- joint seeding: another contribution for every seat but the reader, and the first state kept
  with the contribution that dealt it under the same permutation (:func:`resample_start`).

The result is a match that the reader could not tell from the original if nothing leaked.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterable

from referee.engine.joint import is_pending
from referee.games.call_of_katulhu import cards as K
from referee.games.call_of_katulhu.deal import catalogue_of
from referee.games.call_of_katulhu.gameplay import placements
from referee.games.catatac import cards as C


def strings(value: Any, found: set | None = None) -> set:
    """Every string value inside a JSON value."""
    found = set() if found is None else found
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            strings(item, found)
    elif isinstance(value, list):
        for item in value:
            strings(item, found)
    return found


def _substitute(value: Any, mapping: dict) -> Any:
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, dict):
        return {key: _substitute(item, mapping) for key, item in value.items()}
    if isinstance(value, list):
        return [_substitute(item, mapping) for item in value]
    return value


# -- card groups ---------------------------------------------------------------------------------

def _scratch_cards(state: dict) -> dict[str, str]:
    cards = [c for p in state["players"] for c in p["hand"] + p["collected"]]
    cards += [c for pile in state["line"] for c in pile["cards"]] + state["draw_pile"]
    return {card: "deck" for card in cards if card is not None}   # null: unseen by everyone


def _catatac_cards(state: dict) -> dict[str, str]:
    groups: dict[str, str] = {}
    origin = {card: booster for booster, cards in C.BOOSTER_PAW_CARDS.items() for card in cards}
    paws = [c for p in state["players"] for c in p["hand"]] + state["paw_deck"] + state["discard"]
    paws += state.get("box", [])
    for card in paws:
        if card is not None:   # null: unseen by everyone
            groups[card] = "alpha" if card in C.ALPHA_IDS else "paw:" + origin.get(card, "base")
    for card in state["points_deck"] + state["points"]["white"] + state["points"]["black"]:
        groups[card] = "points"
    alphas = [p.get("alpha") for p in state["players"] if p.get("alpha")]
    alphas += [card for card in state.get("alpha_aside", []) if card is not None]   # null: unseen by everyone
    boosters = tuple(state["options"].get("boosters", ()))
    for card in alphas:
        clan = next(clan for clan in C.CLANS if card in C.alpha_pile(clan, boosters))
        groups[card] = "alpha:" + clan
    return groups


CARD_GROUPS = {"scratch-and-catch": _scratch_cards, "catatac": _catatac_cards}


def _sorted_piles(state: dict) -> dict:
    """Piles kept sorted by the rules (table chance decks, the box, alpha cards set aside)."""
    table = state["options"]["chance"] == "table"
    if state["game"] == "scratch-and-catch" and table and state["options"].get("hands") != "unseen":
        state["draw_pile"] = sorted(state["draw_pile"])
    if state["game"] == "catatac":
        if table and state["options"].get("hands") != "unseen":
            state["paw_deck"] = sorted(state["paw_deck"])
            state["points_deck"] = sorted(state["points_deck"])
        for name in ("box", "alpha_aside"):
            if name in state and None not in state[name]:   # unseen hands: a box of nulls
                state[name] = sorted(state[name])
    return state


# -- the resample --------------------------------------------------------------------------------

def _resample_contributions(state: dict, log: list[dict], reader: int | None, rnd: random.Random) -> None:
    """Joint seeding: another contribution for every seat but the reader, in the log (and in a
    pending state); the digests every reader saw stay as they were."""
    for entry in log:
        if entry["move"]["type"] == "contribute" and entry["player"] != reader:
            entry["move"] = dict(entry["move"], contribution=f"resampled-{rnd.getrandbits(64):x}")
    if is_pending(state):
        given = state["pending"]["contributions"]
        for seat, value in enumerate(given):
            if value is not None and seat != reader:
                given[seat] = f"resampled-{rnd.getrandbits(64):x}"


def resample_start(start: dict, mapping: dict, rnd: random.Random, keep_rng: bool = False) -> dict:
    """A jointly seeded match's first state (kept for its record) under a card permutation
    (applied already in the log), with another generator position and cat deck order unless
    ``keep_rng``."""
    new = _sorted_piles(_substitute(start, mapping))
    if not keep_rng:
        new["rng"] = {"seed": f"resampled-{rnd.getrandbits(64):x}", "counter": rnd.randrange(0, 1000)}
        if new["game"] == "call-of-katulhu" and new["options"]["chance"] == "seeded":
            rnd.shuffle(new["cat_deck"])
    return new


def resample(state: dict, log: list[dict], reader: int | None, seen: Iterable[str], rnd: random.Random,
             keep_rng: bool = False, keep_choices: bool = False) -> tuple[dict, list[dict], dict]:
    """``(state', log', mapping)``: a position the reader cannot tell from ``(state, log)``;
    ``mapping`` is the card permutation applied (hidden card -> its stand-in)."""
    game = state["game"]
    mapping: dict[str, str] = {}
    if is_pending(state):   # joint seeding, before the deal: only the others' contributions are hidden
        new_state, new_log = json.loads(json.dumps(state)), json.loads(json.dumps(log))
        if not keep_choices:
            _resample_contributions(new_state, new_log, reader, rnd)
        return new_state, new_log, mapping
    if game in CARD_GROUPS:
        seen = set(seen)
        by_group: dict[str, list[str]] = {}
        for card, group in CARD_GROUPS[game](state).items():
            if card not in seen:
                by_group.setdefault(group, []).append(card)
        for cards in by_group.values():
            cards.sort()
            shuffled = cards[:]
            rnd.shuffle(shuffled)
            mapping.update(zip(cards, shuffled))
        mapping = {a: b for a, b in mapping.items() if a != b}
    new_state = _sorted_piles(_substitute(state, mapping))
    new_log = [_substitute(entry, mapping) for entry in log]
    if not keep_rng:
        new_state["rng"] = {"seed": f"resampled-{rnd.getrandbits(64):x}", "counter": rnd.randrange(0, 1000)}
        if game == "call-of-katulhu" and new_state["options"]["chance"] == "seeded":
            rnd.shuffle(new_state["cat_deck"])
    if game == "call-of-katulhu" and not keep_choices:
        _resample_choices(new_state, new_log, reader, rnd)
    if not keep_choices:
        _resample_contributions(new_state, new_log, reader, rnd)
    for entry in new_log:   # the first state of a joint deal, kept with the contribution that dealt it
        if "start" in entry:
            entry["start"] = resample_start(entry["start"], {}, rnd, keep_rng)
    return new_state, new_log, mapping


def _last_entry(log: list[dict], move_type: str, seat: int) -> dict | None:
    for entry in reversed(log):
        if entry["move"]["type"] == move_type and entry["player"] == seat:
            return entry
    return None


def _resample_choices(state: dict, log: list[dict], reader: int | None, rnd: random.Random) -> None:
    """Call of Katulhu: other placements and stall choices for the seats the reader cannot see."""
    toys = catalogue_of(state).toys
    for seat, player in enumerate(state["players"]):
        if seat == reader:
            continue
        if player["placement"] is not None:
            placement = list(rnd.choice(placements(tuple(toys), tuple(player["must_play"]))))
            player["placement"] = placement
            player["hand"] = [toy for toy in toys if toy not in placement]
            entry = _last_entry(log, "place", seat)
            entry["move"] = dict(entry["move"], toys=placement)
        if player["discard"] is not None:
            player["discard"] = rnd.choice(state["table"])
            entry = _last_entry(log, "discard", seat)
            entry["move"] = dict(entry["move"], cat=player["discard"])


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


__all__ = ["resample", "strings", "dumps", "K"]
