"""YAML documents as the tests read them (openapi.yaml, 600 KB): with libyaml's safe loader,
which PyYAML's wheels carry, about five times faster than the pure-Python one and the same
result; the pure-Python loader where libyaml is missing."""

from __future__ import annotations

from typing import Any

import yaml

SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """The document ``text`` holds, as ``yaml.safe_load`` reads it."""
    return yaml.load(text, Loader=SAFE_LOADER)
