"""Seats and their secrets: who may read a seat's view or move for it.

A match keeps the SHA-256 of each seat's secret (the secret itself is given once, when the
match is created). A reader or mover shows a secret as HTTP bearer credentials
(``Authorization: Bearer <secret>``, RFC 6750).
"""

from __future__ import annotations

import hashlib
import hmac

from referee.service.errors import InvalidRequest, NotThisSeat, SeatSecretRequired
from referee.service.texts import Text, echo


def secret_hash(secret: str) -> str:
    """The hex SHA-256 of a seat secret, as a match keeps it."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def seat_of(hashes: list[str], authorization: str | None) -> int | None:
    """The seat whose secret the Authorization value carries; None without one. Raises
    SeatSecretRequired when the value is malformed or the secret is no seat's."""
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise SeatSecretRequired(Text("The Authorization header is not a bearer token: send the seat's secret as "
                                      "'Authorization: Bearer <secret>'."))
    digest = secret_hash(token)
    for seat, stored in enumerate(hashes):
        if hmac.compare_digest(stored, digest):
            return seat
    raise SeatSecretRequired(Text("This secret is no seat's secret in this match: send the secret this match gave "
                                  "the seat when it was created (check the match id too)."))


def require_seat(hashes: list[str], seat: int, authorization: str | None, pointer: str = "/query/seat") -> None:
    """Check that ``authorization`` carries seat ``seat``'s secret. Raises InvalidRequest (at
    ``pointer``) for a seat the match does not have, SeatSecretRequired without a seat's
    secret, NotThisSeat for another seat's."""
    if seat >= len(hashes):
        raise InvalidRequest(Text("This match has seats 0 to {last}: name one of them.", last=len(hashes) - 1),
                             [(pointer, Text("no seat {seat} in this match", seat=echo(seat)))])
    holder = seat_of(hashes, authorization)
    if holder is None:
        raise SeatSecretRequired(Text("Seat {seat} needs its secret: send 'Authorization: Bearer <secret>' with the "
                                      "secret this match gave seat {seat} when it was created.", seat=seat))
    if holder != seat:
        raise NotThisSeat(Text("This secret is seat {holder}'s, not seat {seat}'s: send seat {seat}'s own secret, or "
                               "act as seat {holder}.", holder=holder, seat=seat))
