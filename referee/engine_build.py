"""Which build of the rules engine runs, for the server's log and the tests: compiled by mypyc
(setup.py) or interpreted, from where, and, in a source checkout built in place (an editable
install), the sources changed since it was built.

Outside the engine package, which does no I/O: this reads the file system, once, when the
server starts or a test asks.
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee.engine import compiled

PACKAGE = Path(__file__).resolve().parent   # the referee package imported
GROUP = "referee_engine__mypyc"                  # mypyc's shared library of the engine (setup.py)


def describe() -> str:
    """One line for the server's log: which engine runs, and from where."""
    if compiled():
        return f"compiled (mypyc), from {PACKAGE}"
    return (f"interpreted, from {PACKAGE}: no compiled build there (installed without a C compiler or with "
            "REFEREE_PURE_PYTHON=1, or a source tree without a build ahead of the installed package)")


def stale_sources() -> list[str]:
    """The compiled modules' sources changed after the build, in a source checkout whose
    engine was compiled in place (``pip install -e .``; the checkout holds setup.py): the
    engine that runs is the one built before those changes. Empty elsewhere."""
    group = sys.modules.get(GROUP)
    if not compiled() or group is None or group.__file__ is None:
        return []
    library = Path(group.__file__)
    if not (library.parent / "setup.py").exists():   # an installed wheel, not a checkout
        return []
    built = library.stat().st_mtime
    stale = []
    for extension in sorted(PACKAGE.rglob("*.so")):
        source = extension.with_name(extension.name.split(".", 1)[0] + ".py")
        if source.exists() and source.stat().st_mtime > built:
            stale.append(str(source.relative_to(PACKAGE.parent)))
    return stale
