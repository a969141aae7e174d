"""marshmallow's error messages as JSON pointers (RFC 6901) into the body loaded."""

from __future__ import annotations

from typing import Any, Mapping

from referee.limits import MAX_PROBLEM_ERRORS
from referee.service.errors import PointerErrors


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
            for key, inner in value.items():
                if len(found) >= MAX_PROBLEM_ERRORS and type(inner) is list and all(type(m) is str for m in inner):
                    found.total += len(inner)   # only counted: no pointer, no call per field
                else:
                    walk(inner, parts if key == "_schema" else (*parts, key))
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item, parts)
        else:
            found.total += 1
            if len(found) < MAX_PROBLEM_ERRORS:
                found.append((prefix + "".join("/" + escape_token(token) for token in parts), str(value)))

    walk(messages, ())
    return found
