"""One reader following a match live: what its event stream sends, as that reader may see it.

The transport (referee/api/ops/live.py) asks a :class:`Follower` for the entries of each wake,
the end of the game and the seat's legal moves; the follower holds what the reader may see
(docs/reference/events.md, "What each reader sees"), so the HTTP layer holds none of it.
"""

from __future__ import annotations

from referee.engine import information
from referee.json_text import loads
from referee.service import seeding
from referee.service.matches import Matches, render, seat_names, with_player_name
from referee.store import Snapshot


class Follower:
    """The events of match ``match_id`` for ``seat`` (None: a spectator), whose secret the
    caller has checked (:meth:`Matches.read`); ``meta`` is the match's, as read."""

    def __init__(self, matches: Matches, match_id: str, meta: dict, seat: int | None):
        self._matches, self._match_id, self._meta, self._seat = matches, match_id, meta, seat
        self._game = seeding.game_of(meta)
        self._names = seat_names(meta)
        self._revealed: set[str] = set()   # every key revealed by the entries read so far

    def is_over(self, snap: Snapshot) -> bool:
        """Whether the game is over at ``snap`` (its end is then the stream's last event)."""
        return self._game.score(loads(snap.state))[1].finished

    def entries(self, records: list[dict], after: int) -> list[dict]:
        """The stored log entries ``records`` that come after version ``after``, each as GET .../log
        shows it to the reader now. ``records`` are the log's next entries: the whole log at
        the first call, then only the entries read since the last one."""
        self._revealed.update(information.revealed_keys(records))
        shown = frozenset(self._revealed)
        return [with_player_name(render(record, self._seat, shown), self._names)
                for record in records if record["version"] > after]

    def ended(self, state: dict) -> dict | None:
        """The data of the ``end`` event, ``{"outcome", "scores"}`` (scores as the reader may see
        them), once the game is over at ``state``; None while it goes on."""
        sheet, outcome = self._game.score(state)
        if not outcome.finished:
            return None
        return {"outcome": outcome.to_json(), "scores": self._game.visible_scores(state, self._seat, sheet)}

    def legal_moves(self, snap: Snapshot) -> dict:
        """The data of a seat's ``legal_moves`` event at ``snap``: :meth:`Matches.moves_event`."""
        return self._matches.moves_event(self._match_id, snap, self._meta, self._seat)
