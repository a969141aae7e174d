"""What a read or a move asks to include beside its answer (``?include=``): the reader's
legal moves (``include=legal_moves``), a seat's only. The value itself is checked by the
operation's query schema (referee/schemas/matches.py, IncludeQuery); this module refuses what
a schema does not see: a repeated ``include`` and a spectator's."""

from __future__ import annotations

from flask import request

from referee.service.errors import InvalidRequest
from referee.service.texts import Text

POINTER = "/query/include"


def legal_moves_asked(seat: int | None = None, spectator: bool = False) -> bool:
    """Whether the request's query asks for the reader's legal moves (``include``, given
    once, already checked to be ``legal_moves``). Raises InvalidRequest (422, pointer
    ``/query/include``) when ``include`` is repeated, or, for a read that may be a
    ``spectator``'s, when it has no ``seat``."""
    values = request.args.getlist("include")
    if not values:
        return False
    if len(values) > 1:
        raise InvalidRequest(Text("include may be given once: send include=legal_moves once, or leave it out."),
                             [(POINTER, Text("given more than once"))])
    if spectator and seat is None:
        raise InvalidRequest(Text("Legal moves are a seat's: add seat=N to the query and send that seat's secret "
                                  "(Authorization: Bearer <secret>), or leave out include=legal_moves."),
                             [(POINTER, Text("legal moves are a seat's: add seat=N with its secret"))])
    return True
