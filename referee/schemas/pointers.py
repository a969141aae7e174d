"""marshmallow's error messages as JSON pointers (RFC 6901) into the body loaded.

A pointer names each member exactly, but never one whose name is longer than ``MAX_ECHO``
characters (a body's member names are as long as the client likes: a 1 MB unknown member
once made a 1 MB pointer): such an error points at the object holding that member, and its
detail names the member by its first characters and its length, then the rest of the way.
"""

from __future__ import annotations

from typing import Any, Mapping

from referee.limits import MAX_ECHO, MAX_PROBLEM_ERRORS
from referee.service.errors import PointerErrors
from referee.service.texts import Text, echo


def escape_token(token: Any) -> str:
    """One JSON pointer reference token (RFC 6901 escaping)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer_errors(messages: Any, prefix: str = "") -> PointerErrors:
    """Flatten marshmallow's nested error messages into ``(pointer, detail)`` pairs, keeping
    the first ``MAX_PROBLEM_ERRORS`` (pointers are built for those only) and counting all."""
    found = PointerErrors()

    def walk(value: Any, parts: tuple) -> None:
        # ``parts``: the tokens below ``prefix``, joined only for an error that is kept.
        if isinstance(value, Mapping):
            items = iter(value.items())
            for key, inner in items:
                walk(inner, parts if key == "_schema" else (*parts, key))
                if len(found) >= MAX_PROBLEM_ERRORS:
                    break
            # The rest only counted: lists of messages without a pointer or a call each (one list
            # is often shared by many fields: checked once).
            plain, count = None, 0
            for key, inner in items:
                if inner is plain or (type(inner) is list and all(type(m) is str for m in inner)):
                    plain = inner
                    count += len(inner)
                else:
                    walk(inner, parts if key == "_schema" else (*parts, key))
            found.total += count
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item, parts)
        else:
            found.total += 1
            if len(found) < MAX_PROBLEM_ERRORS:
                found.append(_pointed(prefix, parts, value if isinstance(value, Text) else Text(str(value))))

    walk(messages, ())
    return found


def _pointed(prefix: str, parts: tuple, message: Text) -> tuple[str, Text]:
    """``(pointer, detail)`` of ``message`` at ``parts`` below ``prefix``; at the object holding
    the first member whose name is over MAX_ECHO characters, when there is one."""
    tokens = [str(token) for token in parts]
    for index, token in enumerate(tokens):
        if len(token) > MAX_ECHO:
            below = "".join("/" + escape_token(rest) for rest in tokens[index + 1:])
            detail = (Text('In the member "{name}" ({length:,} characters), at {below}: {message}',
                           name=echo(token), length=len(token), below=echo(below), message=message) if below else
                      Text('In the member "{name}" ({length:,} characters): {message}',
                           name=echo(token), length=len(token), message=message))
            return prefix + "".join("/" + escape_token(token) for token in tokens[:index]), detail
    return prefix + "".join("/" + escape_token(token) for token in tokens), message
