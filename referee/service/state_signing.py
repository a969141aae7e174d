"""Signed states: a client that keeps stateless states on its side cannot have the referee judge
a state it altered.

With keys set (``REFEREE_STATE_KEYS``), every state that ``setup``, ``adjudicate`` and
``replay`` answer carries ``state_signature`` beside it, and the operations that take a state
check the signature sent beside it. What is signed (docs/guides/stateless.md, "Signed states"):

    HMAC-SHA256(key, b"referee-state-v1" + b"\\n" + game id (UTF-8) + b"\\n" + canonical state bytes)

written as 64 lowercase hexadecimal digits. The canonical bytes are ``json_text.dumps_bytes``
(sorted keys, no spaces, UTF-8), so the signature does not depend on how the client wrote the
JSON, and the game id is signed so that a state of one game never verifies for another. The
first key signs; every key verifies (rotation: put the new key first, drop the old one once
the states it signed no longer matter).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Mapping

from referee import settings
from referee.json_text import dumps_bytes
from referee.service.errors import Refused
from referee.service.texts import Text

KEYS_VARIABLE = "REFEREE_STATE_KEYS"
REQUIRED_VARIABLE = "REFEREE_REQUIRE_SIGNED_STATES"
MIN_KEY_CHARACTERS = 16
DOMAIN = b"referee-state-v1"
FIELD = "state_signature"
# The operations whose answers carry states a client sends back (a view is no state to send).
SIGNED_ANSWERS = frozenset({"setup", "adjudicate", "replay"})


class UnsignedState(Refused):
    """A state without a valid signature where one is required, or with a signature that does
    not match it (422, pointer ``/state_signature``)."""

    slug, title = "unsigned-state", "The state is not signed by this referee"


def signed_message(game_id: str, state: Any) -> bytes:
    """The bytes a state's signature covers: the domain, the game id and the state's canonical
    JSON, separated by newlines (a game id holds no newline)."""
    return b"\n".join((DOMAIN, game_id.encode("utf-8"), dumps_bytes(state)))


@dataclass(frozen=True)
class StateKeys:
    """The keys of signed states (the first signs, all verify) and whether a state must be
    signed. No keys: nothing is signed or checked, and a signature sent is ignored."""

    keys: tuple[bytes, ...] = ()
    required: bool = False

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> StateKeys:
        """The keys of ``REFEREE_STATE_KEYS`` (comma-separated, each of at least
        ``MIN_KEY_CHARACTERS``) and ``REFEREE_REQUIRE_SIGNED_STATES`` (1 or 0). Raises
        settings.SettingError for a short key, another switch value, or a requirement without
        keys."""
        keys = settings.secrets_list(KEYS_VARIABLE, environ=environ, min_length=MIN_KEY_CHARACTERS)
        required = settings.flag(REQUIRED_VARIABLE, environ=environ)
        if required and not keys:
            raise settings.SettingError(f"{REQUIRED_VARIABLE}=1 needs at least one key in {KEYS_VARIABLE}")
        return cls(tuple(key.encode("utf-8") for key in keys), required)

    def sign(self, game_id: str, state: Any) -> str:
        """The signature of ``state`` of ``game_id`` with the first key (64 hex digits)."""
        return hmac.new(self.keys[0], signed_message(game_id, state), hashlib.sha256).hexdigest()

    def verifies(self, game_id: str, state: Any, signature: str) -> bool:
        """Whether ``signature`` is the signature of ``state`` of ``game_id`` with any key
        (compared in constant time)."""
        given = signature.encode("utf-8")
        message = signed_message(game_id, state)
        return any(hmac.compare_digest(hmac.new(key, message, hashlib.sha256).hexdigest().encode("ascii"), given)
                   for key in self.keys)


NO_KEYS = StateKeys()


def check(keys: StateKeys, game_id: str, body: Mapping[str, Any]) -> bool:
    """Refuse ``body``'s state (``{"state", "state_signature"?, ...}``) unless its signature
    holds: raises UnsignedState when a signature is sent and does not match the state with any
    key, or when none is sent and ``keys.required``. Without keys nothing is checked.

    Returns whether the answer's states may be signed: true for a body without a state (setup
    deals its own) or with a state whose signature holds; false for an unsigned state taken
    because signatures are not required (what follows from a state the referee never signed
    is not signed either: a client would otherwise have a state of its own making signed)."""
    if not keys.keys or "state" not in body:
        return True
    signature = body.get(FIELD)
    if signature is None:
        if keys.required:
            raise UnsignedState(Text("This referee judges only states it signed: send the state with the "
                                     "state_signature answered beside it."),
                                [(f"/{FIELD}", Text("required: the signature answered beside this state"))])
        return False
    if not keys.verifies(game_id, body["state"], signature):
        raise UnsignedState(Text("The state_signature does not match this state: the state was changed after it was "
                                 "signed, was signed for another game, or with a key this referee does not hold. "
                                 "Send the state and the state_signature exactly as this referee answered them."),
                            [(f"/{FIELD}", Text("does not match the state"))])
    return True


def signed(keys: StateKeys, game_id: str, operation: str, answer: dict, vouched: bool = True) -> dict:
    """``answer`` of ``operation`` with ``state_signature`` beside its state (and beside each
    replay step's state), null beside a null state and beside every state when not
    ``vouched`` (the state sent was unsigned: :func:`check`); unchanged without keys or for an
    operation that answers no state to send back."""
    if not keys.keys or operation not in SIGNED_ANSWERS:
        return answer
    for holder in (answer, *answer.get("steps", ())):
        state = holder["state"]
        holder[FIELD] = keys.sign(game_id, state) if vouched and state is not None else None
    return answer
