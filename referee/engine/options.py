"""Setup options shared by games played at a physical table: unseen hands."""

from __future__ import annotations

from typing import Any, Mapping

HANDS_MODES = ("seen", "unseen")


def hands_errors(options: Mapping[str, Any], chance: Any) -> list[tuple[str, str]]:
    """``(pointer, detail)`` errors of ``options.hands`` (default "seen"): one of HANDS_MODES,
    and "unseen" only with chance "table" (with the seeded generator the referee deals and
    knows every card)."""
    hands = options.get("hands", "seen")
    if hands not in HANDS_MODES:
        return [("/options/hands", "must be 'seen' or 'unseen'")]
    if hands == "unseen" and chance != "table":
        return [("/options/hands", "unseen hands need chance 'table': with the seeded generator the referee deals "
                                   "and knows every card")]
    return []
