"""Build of Referee's rules engine as C extensions with mypyc (metadata: pyproject.toml).

The engine modules listed in ``COMPILED`` are pure Python that mypyc compiles, as they are,
into C extension modules: the same rules, about 1.4 times as many adjudications a second
(docs/benchmarks.md, thirteenth pass). The ``.py`` sources ship beside them, so the
interpreted engine is always there:

- ``REFEREE_PURE_PYTHON=1`` at install time builds no extension (the ``.py`` files are used);
- a machine without a C compiler, or a compile that fails, builds none either: the build
  says so on standard error and goes on, as MarkupSafe and simplejson do with their speedups.

``referee.engine.compiled()`` tells at run time which engine is loaded; the server's log says
it at start, and the benchmarks print it.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The rules engine: pure (no I/O), and what every adjudication runs.
COMPILED = [
    "referee/engine/core.py",
    "referee/engine/information.py",
    "referee/engine/memo.py",
    "referee/engine/places.py",
    "referee/engine/rng.py",
    "referee/games/scratch_and_catch/cards.py",
    "referee/games/scratch_and_catch/rules.py",
    "referee/games/call_of_katulhu/cards.py",
    "referee/games/call_of_katulhu/rules.py",
    "referee/games/catatac/cards.py",
    "referee/games/catatac/rules.py",
]


def _warn(message: str) -> None:
    print(f"referee build: {message}; the engine stays interpreted (pure Python)", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """build_ext that leaves the interpreted engine in place when compiling fails, and
    compiles the C files of the engine on every CPU."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - no compiler, or any compile error
            # None of the engine or all of it: a module's extension without the shared library
            # it loads would not even import.
            for built in self.get_outputs():
                if os.path.exists(built):
                    os.remove(built)
            _warn(f"the C extensions could not be built ({error})")


def _extensions() -> list:
    if os.environ.get("REFEREE_PURE_PYTHON", "").strip() not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        _warn(f"mypyc is not installed ({error})")
        return []
    # multi_file: one C file per module, compiled in parallel (the build takes half as long).
    return mypycify(COMPILED, opt_level="3", strip_asserts=False, multi_file=True, group_name="referee_engine")


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
