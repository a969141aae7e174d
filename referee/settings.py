"""Numbers read from the environment (docs/reference/configuration.md), checked where they are read, so
that a bad value stops the service at start with the variable's name rather than a bare
``could not convert string to float`` (or a NaN that fails requests later)."""

from __future__ import annotations

import math
import os
import re
from typing import Any, Callable, Mapping, TypeVar

N = TypeVar("N", int, float)

# Plain ASCII notation only: Python's int() and float() also take "1_000" and other scripts' digits.
_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:nan|inf|infinity)",
                      re.ASCII | re.IGNORECASE)


class SettingError(ValueError):
    """An environment variable whose value the service cannot take; the message names it."""


def number(name: str, default: N, *, environ: Mapping[str, str] | None = None, integer: bool = False,
           minimum: float | None = None, positive: bool = False) -> N:
    """The value of environment variable ``name``; ``default`` when it is unset or blank.

    A whole number (ASCII digits, an optional sign) when ``integer``, else any finite decimal
    number (``1.5``, ``2e3``); at least ``minimum``, and more than 0 when ``positive``. Raises
    SettingError naming the variable and the value otherwise."""
    environ = os.environ if environ is None else environ
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    kind = "a whole number" if integer else "a number"
    if not (_WHOLE if integer else _DECIMAL).fullmatch(raw):
        raise SettingError(f"{name} must be {kind}, not {raw!r}")
    value = int(raw) if integer else float(raw)
    if not integer and not math.isfinite(value):
        raise SettingError(f"{name} must be a finite number, not {raw!r}")
    if positive and value <= 0:
        raise SettingError(f"{name} must be more than 0, not {raw!r}")
    if minimum is not None and value < minimum:
        raise SettingError(f"{name} must be at least {minimum:g}, not {raw!r}")
    return value  # type: ignore[return-value]


def configured(config: Mapping[str, Any], name: str, from_env: Callable[[], Any]) -> Any:
    """``config[name]`` when the application was given it (tests), else ``from_env()``: the
    environment is not read when the config overrides it."""
    return config[name] if config.get(name) is not None else from_env()


def secrets_list(name: str, *, environ: Mapping[str, str] | None = None, min_length: int = 1) -> tuple[str, ...]:
    """The comma-separated secrets of environment variable ``name`` in order, blanks around
    each removed and empty items dropped; ``()`` when unset or blank. Raises SettingError,
    without the secret, for one shorter than ``min_length`` characters (its position named)."""
    environ = os.environ if environ is None else environ
    found = tuple(item.strip() for item in environ.get(name, "").split(",") if item.strip())
    for position, item in enumerate(found, start=1):
        if len(item) < min_length:
            raise SettingError(f"{name}: secret {position} has {len(item)} characters; each must have at least "
                               f"{min_length}")
    return found


def flag(name: str, *, environ: Mapping[str, str] | None = None) -> bool:
    """Environment variable ``name`` as a switch: ``1`` on; ``0``, unset or blank off. Raises
    SettingError for any other value."""
    environ = os.environ if environ is None else environ
    raw = environ.get(name, "").strip()
    if raw not in ("", "0", "1"):
        raise SettingError(f"{name} must be 1 or 0, not {raw!r}")
    return raw == "1"
