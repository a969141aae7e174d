"""Stash Attempt, Countering a Stash, Cooperation (2x) and the Deck Hockey variant."""

from referee.engine.rng import Rng
from referee.games.catatac import GAME
from referee.games.catatac import cards as C
from tests.games.catatac.catatac_helpers import bad, ball, build, decline, judge, ok, play

FIRST_COIN = C.COIN_FACES[Rng("test", 0).coin()]  # the generator's first coin for seed "test"


def pending(hands, ball_spot="white_hideout", clan="white", by=0, nxt=1, answer=(1,), turn=None, **kw):
    """A state where ``by`` has just attempted a stash and ``answer[0]`` must answer."""
    return build(hands, kw.pop("discard", ["P8-4"]), (ball_spot, clan), turn=answer[0] if turn is None else turn,
                 phase="answer", stash={"clan": clan, "by": by, "next": nxt, "answer": list(answer)}, **kw)


def test_stash_attempt_ends_the_turn_refills_and_asks_the_next_opponent():
    """Stash Attempt (Cat Caution) and 3. Refilling Your Hand: the turn ends at once, the
    stasher refills to 6, and the next opposing player may answer."""
    s = build([["smash-3", "P1-1"], ["P2-1"]], ["P8-4"], ("white_alley", "white"))
    after = ok(s, play(0, "smash-3", None, ((), ())))
    assert ball(after) == ("white_hideout", "white")
    assert after["stash"] == {"clan": "white", "by": 0, "next": 1, "answer": [1]}
    assert after["turn"] == {"player": 1, "phase": "answer"}
    assert after["players"][0]["hand"] == ["P1-1", "P1-2", "P1-3", "P1-4", "charge-1", "sprint-1"]


def test_stash_succeeds_when_nobody_counters():
    """Stash Attempt: the clan takes the top points card unseen, the ball is flipped onto the
    neutral alley, and the player who could not counter plays a normal turn (no card played
    for the stash itself)."""
    s = pending([["P1-1"], ["P2-1", "P2-2"]])
    after = ok(s, decline(1))
    assert after["points"] == {"white": ["green"], "black": []}
    assert after["points_deck"] == ["blue", "yellow", "red", "grey", "multicolour", "black-ball", "white-ball"]
    assert ball(after) == ("neutral_alley", FIRST_COIN)
    assert after["stash"] is None and after["turn"] == {"player": 1, "phase": "play"}
    assert after["players"][1]["hand"] == ["P2-1", "P2-2"]
    assert after["rng"]["counter"] == 1


def test_stash_success_outcome_is_never_named_with_seeded_chance():
    """Stash Attempt, seeded chance: the points card is taken without looking at it and the coin
    is flipped by the referee; a decline naming either is refused whatever it names."""
    s = pending([["P1-1"], ["P2-1"]])
    other = C.COIN_FACES[1 - C.COIN_FACES.index(FIRST_COIN)]
    assert bad(s, decline(1, points_card="blue")) == ["SEEDED_CHANCE"]
    assert bad(s, decline(1, points_card="green")) == ["SEEDED_CHANCE"]   # the right one too
    assert bad(s, decline(1, coins=[other])) == ["SEEDED_CHANCE"]
    assert bad(s, decline(1, coins=[FIRST_COIN])) == ["SEEDED_CHANCE"]
    assert ok(s, decline(1))["points"]["white"] == ["green"]


def test_stash_success_at_a_table_names_card_and_coin():
    """Stash Attempt, table chance: the decline names the points card taken and the coin face."""
    s = pending([["P1-1"], ["P2-1"]], chance="table", points_deck=sorted(C.POINTS_IDS))
    after = ok(s, decline(1, points_card="white-ball", coins=["black"]))
    assert after["points"]["white"] == ["white-ball"] and ball(after) == ("neutral_alley", "black")
    assert bad(s, decline(1, coins=["black"])) == ["POINTS_CARD_REQUIRED"]
    assert bad(s, decline(1, points_card="white-ball")) == ["COIN_COUNT"]
    taken = pending([["P1-1"], ["P2-1"]], chance="table", points={"white": ["red"], "black": []},
                    points_deck=sorted(set(C.POINTS_IDS) - {"red"}))
    assert bad(taken, decline(1, points_card="red", coins=["black"])) == ["POINTS_CARD_NOT_IN_DECK"]


def test_counter_by_the_next_opponent_keeps_possession_then_refill():
    """Countering a Stash: the ball goes back to the alley next to the hideout, the stashing
    clan keeps possession (Miracle: no coin flip); the counterer's turn ends with a refill."""
    s = pending([["P1-1"], ["miracle-6", "P2-1"]])
    after = ok(s, play(1, "miracle-6", None, ((), ())))
    assert ball(after) == ("white_alley", "white") and after["stash"] is None
    assert after["turn"] == {"player": 0, "phase": "play"}
    assert len(after["players"][1]["hand"]) == 6


def test_counter_then_finish_the_block_and_the_combo_both_orders():
    """Countering a Stash (Cat Tip): after the counter, apply the rest of the block (!Stop!'s
    coin flip) and complete the combo; the pair cannot come first (the ball is in a hideout)."""
    s = pending([["P1-1"], ["stop-1", "P2-1"]], discard=["P1-2"], chance="table")
    after = ok(s, play(1, "stop-1", ("steal", None), ((), ()), "block_first", coins=["white"]))
    assert ball(after) == ("white_alley", "black")
    assert bad(s, play(1, "stop-1", ("steal", None), ((), ()), "block_first",
                       coins=["black"])) == ["PAIR_ACTION_NOT_POSSIBLE"]
    assert bad(s, play(1, "stop-1", ("steal", None), ((), ()), "pair_first",
                       coins=["white"])) == ["PAIR_ACTION_NOT_POSSIBLE"]


def test_only_a_counter_answers_a_stash():
    """Countering a Stash: only a card bearing the counter icon, used to counter."""
    s = pending([["P1-1"], ["stop-1", "P2-1"]])
    assert bad(s, play(1, "stop-1", None, None)) == ["MUST_COUNTER"]
    assert bad(s, play(1, "P2-1", None, None)) == ["MUST_COUNTER"]
    assert bad(s, play(0, "P1-1", None, None)) == ["STASH_PENDING"]


def test_no_stash_to_answer():
    """Countering a Stash: declining is only possible while a stash attempt is pending."""
    s = build([["P1-1"], ["P2-1"]], ["P8-4"])
    assert bad(s, decline(0)) == ["NO_STASH_TO_ANSWER"]


def test_teammate_counters_with_miracle_cooperation():
    """Cooperation (2x) and Stash Attempt: the next opponent declines, a teammate counters with
    Miracle; the skipped teammate does not draw, the cooperating player does not refill now;
    play resumes to the left of the skipped teammate."""
    hands = [["P1-1"], ["P2-1", "P2-2"], ["P3-1"], ["miracle-6", "P4-1"]]
    s = pending(hands, answer=(1, 3))
    assert bad(s, play(3, "miracle-6", None, ((), ()))) == ["STASH_PENDING"]
    s2 = ok(s, decline(1))
    assert s2["turn"] == {"player": 3, "phase": "answer"} and s2["stash"]["answer"] == [3]
    verdict = judge(s2, play(3, "miracle-6", None, ((), ())))
    assert verdict.legal
    after = verdict.state
    assert ball(after) == ("white_alley", "white") and after["stash"] is None
    assert after["turn"] == {"player": 2, "phase": "play"}
    assert after["players"][3]["hand"] == ["P4-1"]
    assert after["players"][1]["hand"] == ["P2-1", "P2-2"]
    assert {"type": "cooperation", "player": 3, "skipped": 1} in verdict.events
    # the cooperating player refills at the end of their next turn
    after = ok(ok(after, play(2, "P3-1")), play(3, "P4-1"))
    assert len(after["players"][3]["hand"]) == 6


def test_cooperation_block_alone_or_combo_never_the_pair_alone():
    """Cooperation (2x): the action block alone or the combo; the pair alone is not allowed;
    only a card with the cooperation icon."""
    hands = [["P1-1"], ["P2-1"], ["P3-1"], ["miracle-6", "P6-2"]]
    s = pending(hands, answer=(3,), discard=["P6-1"])
    assert bad(s, play(3, "miracle-6", ("steal", None), None)) == ["COOPERATION_NEEDS_BLOCK"]
    assert bad(s, play(3, "P6-2", ("steal", None), None)) == ["NOT_A_COOPERATION_CARD"]
    assert ball(ok(s, play(3, "miracle-6", ("steal", None), ((), ()), "block_first"))) == ("white_alley", "black")


def test_teammates_answer_in_clockwise_order_in_six_players():
    """Cooperation (2x), rules notes: teammates may offer Miracle clockwise from the next opponent."""
    s = build([["smash-3", "P1-1"], ["P2-1"], ["P3-1"], ["P4-1"], ["P5-1"], ["P6-1"]], ["P8-4"],
              ("white_alley", "white"))
    after = ok(s, play(0, "smash-3", None, ((), ())))
    assert after["stash"]["answer"] == [1, 3, 5]
    after = ok(ok(after, decline(1)), decline(3))
    assert after["turn"] == {"player": 5, "phase": "answer"}
    after = ok(after, decline(5))
    assert after["points"]["white"] == ["green"] and after["turn"] == {"player": 1, "phase": "play"}


def test_next_opponent_with_no_cards_declines_and_a_teammate_may_counter():
    """End of the Game (Cat Caution): the next opponent has no cards; a teammate's Miracle counters."""
    hands = [["P1-1"], [], ["P3-1"], ["miracle-7", "P4-1"]]
    s = pending(hands, answer=(1, 3))
    assert GAME.legal_moves(s) == [decline(1)]
    after = ok(ok(s, decline(1)), play(3, "miracle-7", None, ((), ())))
    assert after["turn"] == {"player": 2, "phase": "play"}


def test_after_a_successful_stash_play_resumes_with_the_next_player_holding_cards():
    """End of the Game (Cat Caution): after the coin flip, play resumes with the next player who
    still has paw cards."""
    hands = [["P1-1"], [], [], ["P4-1"]]
    s = pending(hands, answer=(1, 3), spare="discard")
    after = ok(ok(s, decline(1)), decline(3))
    assert after["turn"] == {"player": 3, "phase": "play"}


def test_deck_hockey_pair_counters():
    """Variants, Deck Hockey: a pair can counter: the ball goes to the adjacent alley."""
    s = pending([["P1-1"], ["P5-2", "P2-1"]], discard=["P5-1"], deck_hockey=True)
    assert ball(ok(s, play(1, "P5-2", ("counter", None)))) == ("white_alley", "white")
    assert bad(s, play(1, "P5-2", None)) == ["MUST_COUNTER"]
    plain = pending([["P1-1"], ["P5-2", "P2-1"]], discard=["P5-1"])
    assert bad(plain, play(1, "P5-2", ("counter", None))) == ["COUNTER_NEEDS_DECK_HOCKEY"]


def test_deck_hockey_counter_then_combo_both_orders():
    """Variants, Deck Hockey, with The "Combo": pair counter first, then Capture's steal; the
    block cannot come first (nothing to steal in a hideout)."""
    s = pending([["P1-1"], ["capture-5", "P2-1"]], discard=["P5-1"], deck_hockey=True)
    assert ball(ok(s, play(1, "capture-5", ("counter", None), ((), ()), "pair_first"))) == ("white_alley", "black")
    assert bad(s, play(1, "capture-5", ("counter", None), ((), ()), "block_first")) == ["EFFECT_NOT_APPLICABLE"]


def test_black_stash_countered_by_white():
    """2. Influencing the Yarn Ball, Counter: White moves the ball from the Black hideout to the Black alley."""
    s = pending([["miracle-6", "P1-1"], ["P2-1"]], ball_spot="black_hideout", clan="black", by=1, nxt=0, answer=(0,))
    assert ball(ok(s, play(0, "miracle-6", None, ((), ())))) == ("black_alley", "black")


def test_last_points_card_ends_the_game():
    """End of the Game: the game ends when the points deck is exhausted."""
    s = pending([["P1-1"], ["P2-1"]], points_deck=["grey"],
                points={"white": ["green", "blue"],
                        "black": ["yellow", "red", "multicolour", "black-ball", "white-ball"]})
    after = ok(s, decline(1))
    assert after["finished"] and after["turn"]["phase"] == "over"
    scores, outcome = GAME.score(after)
    # White: green 0 + blue 1 + grey 1 = 2; Black: 1 + 1 + 2 + 2 + 1 = 7
    assert scores["clans"]["white"]["points"] == 2 and scores["clans"]["black"]["points"] == 7
    assert outcome.winners == (1,)
    assert GAME.legal_moves(after) == []
    assert bad(after, decline(1)) == ["GAME_OVER"]
