"""The state check refuses a CATATAC state exactly when a card is not in exactly one place
(rulebook, Setup and the boosters' setup: every paw card, alpha card and points card of the
game is somewhere, once), judged against a count of the cards written from the catalogue."""

from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.engine.core import InvalidOptions
from referee.games.catatac import GAME
from referee.games.catatac import cards as C
from tests.support.misplaced import corrupted_position, refusal


def _cards_where_they_should_be(state) -> bool:
    """Every card of the game once, and no other: counted place by place."""
    options = state["options"]
    boosters = tuple(options.get("boosters") or ())
    alphas = C.alpha_set(boosters)
    players = state["players"]
    paw = [card for player in players for card in player["hand"]] + state["paw_deck"] + state.get("box", [])
    paw += [card for card in state["discard"] if card not in alphas]
    alpha = [card for card in state["discard"] if card in alphas] + state.get("alpha_aside", [])
    alpha += [player["alpha"] for player in players if player.get("alpha") is not None]
    points = state["points_deck"] + state["points"]["white"] + state["points"]["black"]
    return (Counter(paw) == Counter(C.game_paw_set(options["kittens"], boosters))
            and Counter(alpha) == Counter(alphas) and Counter(points) == Counter(C.points_set(boosters)))


def _corrupt(state, rnd):
    """One change to the paw deck or the points deck (in place); a swap keeps the state consistent."""
    deck, points = state["paw_deck"], state["points_deck"]
    kind = rnd.choice(["duplicate paw", "remove paw", "unknown paw", "duplicate points", "remove points",
                       "unknown points", "swap with a hand"])
    if kind == "duplicate paw":
        deck.append(rnd.choice([card for player in state["players"] for card in player["hand"]] + deck))
    elif kind == "remove paw" and deck:
        deck.pop(rnd.randrange(len(deck)))
    elif kind == "unknown paw" and deck:
        deck[rnd.randrange(len(deck))] = rnd.choice(["P9-1", "charge-9", "P1-1x"])
    elif kind == "duplicate points":
        points.append(rnd.choice(points + state["points"]["white"] + state["points"]["black"]))
    elif kind == "remove points" and points:
        points.pop(rnd.randrange(len(points)))
    elif kind == "unknown points" and points:
        points[rnd.randrange(len(points))] = "X9"
    elif kind == "swap with a hand" and deck:
        hand = rnd.choice([player["hand"] for player in state["players"] if player["hand"]] or [deck])
        i, j = rnd.randrange(len(hand)), rnd.randrange(len(deck))
        hand[i], deck[j] = deck[j], hand[i]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text(min_size=1, max_size=8), players=st.sampled_from([2, 4, 6]), kittens=st.booleans(),
       boosters=st.sampled_from([[], ["distraction"], ["alpha"], ["distraction", "alpha", "momentum"]]),
       steps=st.integers(0, 30), changes=st.integers(0, 2), rnd=st.randoms(use_true_random=False))
def test_a_state_is_refused_exactly_when_a_card_is_misplaced(seed, players, kittens, boosters, steps, changes, rnd):
    options = {"kittens": kittens, **({"boosters": boosters} if boosters else {})}
    try:
        state = GAME.setup(players, seed, options)
    except InvalidOptions:  # the Kittens deck deals fewer hands
        assume(False)
    state = corrupted_position(GAME, state, steps, changes, rnd, _corrupt,
                               stop=lambda state: state["turn"]["phase"] != "play")
    errors = refusal(GAME, state)
    assert (errors is None) == _cards_where_they_should_be(state), errors
    assert errors is None or any(pointer.startswith(("/paw_deck", "/points_deck", "/players", "/discard", "/box"))
                                 or pointer == "" for pointer, _detail in errors), errors
