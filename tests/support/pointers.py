"""JSON Pointers (RFC 6901, without escapes) into test documents: the places error answers and
log secrets name."""

from __future__ import annotations

from typing import Any


def _step(value: Any, part: str) -> Any:
    return value[int(part)] if isinstance(value, list) else value.get(part)


def resolve(document: Any, pointer: str) -> Any:
    """The value at ``pointer`` (``"/players/0/hand/1"``); None where a key is missing."""
    value = document
    for part in pointer.split("/")[1:]:
        value = _step(value, part)
    return value


def replace(document: Any, pointer: str, value: Any) -> None:
    """Set the value at ``pointer`` (its parent must exist) in place."""
    *parents, last = pointer.split("/")[1:]
    target = resolve(document, "/" + "/".join(parents)) if parents else document
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value


def paths(document: Any, prefix: tuple = ()):
    """Every place in ``document`` as a tuple of keys and indexes, the document itself (``()``) first."""
    yield prefix
    if isinstance(document, dict):
        for key, item in document.items():
            yield from paths(item, prefix + (key,))
    elif isinstance(document, list):
        for index, item in enumerate(document):
            yield from paths(item, prefix + (index,))
