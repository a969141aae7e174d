"""The options memo of the state check (referee/engine/memo.py)."""

from referee.engine.core import InvalidOptions
from referee.engine.memo import MAX_KEY_CHARS, options_memo
from referee.games import GAMES


def test_equal_arguments_share_an_answer_and_other_types_do_not():
    calls = []

    def full(players, options):
        calls.append((players, options))
        return {"players": players, **options}

    remembered = options_memo(full)
    assert remembered(2, {"a": 1}) == {"players": 2, "a": 1}
    assert remembered(2, {"a": 1}) is remembered(2, {"a": 1})
    assert len(calls) == 1
    # 1, 1.0, True and "1" are different JSON values: each is its own call.
    for value in (1.0, True, "1"):
        assert remembered(2, {"a": value})["a"] == value
    assert len(calls) == 4
    # None and NaN share the JSON text null, and a 100-bit integer has none: still apart.
    assert remembered(2, {"a": None})["a"] is None
    assert remembered(2, {"a": float("nan")})["a"] != remembered(2, {"a": float("nan")})["a"]   # NaN, not None
    assert remembered(2, {"a": 2 ** 100})["a"] == 2 ** 100 and remembered(2, {"a": 2 ** 100 + 1})["a"] == 2 ** 100 + 1
    assert len(calls) == 8
    # Infinity and -Infinity are null too: after None, neither is answered None's value.
    assert remembered(2, {"a": float("inf")})["a"] == float("inf")
    assert remembered(2, {"a": float("-inf")})["a"] == float("-inf")
    assert len(calls) == 10
    # Nested: a NaN inside a list inside a dict is still not None.
    assert remembered(2, {"a": {"b": [None]}})["a"] == {"b": [None]}
    assert remembered(2, {"a": {"b": [float("nan")]}})["a"]["b"][0] is not None
    assert len(calls) == 12


def test_failures_and_long_arguments_are_not_kept():
    calls = []

    def check(options):
        calls.append(options)
        if options.get("bad"):
            raise InvalidOptions([("/options/bad", "no")])
        return dict(options)

    remembered = options_memo(check, size=2)
    for _ in range(2):
        try:
            remembered({"bad": True})
        except InvalidOptions:
            pass
    assert len(calls) == 2
    long = {"name": "x" * MAX_KEY_CHARS}
    remembered(long)
    remembered(long)
    assert len(calls) == 4
    for n in range(5):  # the memo empties itself when full instead of growing
        remembered({"n": n})
        remembered({"n": n})
    assert len(calls) == 9


def test_the_state_check_still_rejects_bad_options_after_good_ones():
    """A state judged once does not make a state with other options pass."""
    game = GAMES["scratch-and-catch"]
    state = game.setup(2, "memo", {})
    game.check_state(state)
    broken = dict(state, options=dict(state["options"], chance="dice"))
    try:
        game.check_state(broken)
    except Exception as error:  # noqa: BLE001 - InvalidState names the option
        assert "/options/chance" in str(error)
    else:
        raise AssertionError("a state with chance 'dice' was accepted")


def test_a_non_finite_float_is_found_at_any_depth_without_recursion():
    # A deep value must not exhaust the interpreter's stack, whatever reaches the memo's check.
    from referee.engine.memo import _holds_non_finite

    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert _holds_non_finite(deep) is False
    assert _holds_non_finite({"a": [1, (2.0, {"b": deep})]}) is False
    assert _holds_non_finite([deep, {"c": [float("-inf")]}]) is True
    assert _holds_non_finite((1, [2, {"d": float("nan")}])) is True
    assert _holds_non_finite(float("inf")) is True and _holds_non_finite(1.5) is False
