"""The rules engine as installed is the one compiled by mypyc from these sources (setup.py), and
it answers every request as the interpreted sources do (the same rules, only faster).

Set REFEREE_PURE_PYTHON=1 at install time to build no extension: the tests then run the
interpreted engine, and the compiled-only checks are skipped.
"""

from __future__ import annotations

import ast
import copy
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import referee.engine
from referee import engine_build as build
from referee.games import GAMES
from tests.engine_agreement import cases

ROOT = Path(__file__).resolve().parents[1]
PURE = os.environ.get("REFEREE_PURE_PYTHON", "").strip() not in ("", "0")


def _compiled_modules() -> list[str]:
    """The module names setup.py compiles (``referee/engine/core.py`` -> ``referee.engine.core``)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    listing = next(node.value for node in tree.body
                   if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "COMPILED")
    return [path.removesuffix(".py").replace("/", ".") for path in ast.literal_eval(listing)]


@pytest.mark.skipif(PURE, reason="installed with REFEREE_PURE_PYTHON: the interpreted engine")
def test_every_engine_module_runs_compiled_and_is_built_from_its_source():
    names = _compiled_modules()
    assert "referee.engine.core" in names and "referee.games.catatac.rules" in names
    assert referee.engine.compiled()
    for name in names:
        built = Path(importlib.import_module(name).__file__)
        assert built.suffix == ".so", f"{name} is interpreted ({built}): the build fell back to pure Python"
    assert build.stale_sources() == [], "changed after the engine was compiled: run `.venv/bin/pip install -e .` again"


def _answers(tree: Path, lines: str) -> tuple[bool, list]:
    run = subprocess.run([sys.executable, str(ROOT / "tests" / "engine_agreement.py"), str(tree)], input=lines,
                         capture_output=True, text=True, cwd=tree, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    first, *rest = run.stdout.splitlines()
    return json.loads(first)["compiled"], [json.loads(line) for line in rest]


@pytest.mark.skipif(PURE, reason="installed with REFEREE_PURE_PYTHON: there is no compiled engine to compare")
def test_the_compiled_and_the_interpreted_engine_answer_alike(tmp_path):
    # The interpreted engine: the same sources, without the extensions built beside them.
    pure = tmp_path / "pure"
    shutil.copytree(ROOT / "referee", pure / "referee", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    requests = cases(seed=14, positions_per_game=120)
    lines = "".join(json.dumps(case) + "\n" for case in requests)
    compiled_flag, compiled = _answers(ROOT, lines)
    pure_flag, interpreted = _answers(pure, lines)
    assert (compiled_flag, pure_flag) == (True, False)
    assert len(compiled) == len(interpreted) == len(requests) > 2000
    statuses = {status for status, _ in compiled}
    assert 200 in statuses and 422 in statuses and 500 not in statuses
    differing = [(path, body, a, b) for (path, body), a, b in zip(requests, compiled, interpreted) if a != b]
    assert differing == [], f"{len(differing)} answers differ; the first: {differing[0]}"


def test_sources_changed_after_an_in_place_build_are_named(tmp_path, monkeypatch):
    # A checkout built in place: setup.py and the engine's library at its root, each module's
    # extension beside its source; one source edited after the build.
    (tmp_path / "setup.py").write_text("")
    library = tmp_path / "referee_engine__mypyc.cpython-311-x86_64-linux-gnu.so"
    library.write_bytes(b"")
    rules = tmp_path / "referee" / "games" / "catatac"
    rules.mkdir(parents=True)
    for name in ("rules", "cards"):
        (rules / f"{name}.py").write_text("")
        (rules / f"{name}.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    os.utime(library, (1_000, 1_000))
    os.utime(rules / "cards.py", (900, 900))     # before the build
    os.utime(rules / "rules.py", (1_100, 1_100))  # edited after it
    monkeypatch.setattr(build, "PACKAGE", tmp_path / "referee")
    monkeypatch.setattr(build, "compiled", lambda: True)
    monkeypatch.setitem(sys.modules, build.GROUP, type(sys)("fake_group"))
    sys.modules[build.GROUP].__file__ = str(library)
    assert build.stale_sources() == ["referee/games/catatac/rules.py"]
    (tmp_path / "setup.py").unlink()   # an installed wheel: its files' times say nothing
    assert build.stale_sources() == []


def test_a_build_that_cannot_compile_leaves_the_interpreted_engine_whole(tmp_path):
    # The compiler fails on one C file of the engine's shared library (CATATAC's rules), so
    # every module's own small extension builds and links: the build must say so, succeed,
    # and leave no extension behind (one without its library would not even import), so the
    # interpreted sources are what gets installed.
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree)
    shutil.copytree(ROOT / "referee", tree / "referee", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    compiler = tmp_path / "cc"
    compiler.write_text('#!/bin/sh\ncase "$*" in *catatac___rules*) exit 1;; esac\nexec gcc "$@"\n')
    compiler.chmod(0o755)
    run = subprocess.run([sys.executable, "setup.py", "build_ext", "--build-lib", str(tmp_path / "lib"),
                          "--build-temp", str(tmp_path / "temp")], cwd=tree, capture_output=True, text=True,
                         timeout=600, env={**os.environ, "CC": str(compiler), "REFEREE_PURE_PYTHON": ""})
    assert run.returncode == 0, run.stderr[-2000:]
    assert "could not be built" in run.stderr and "the engine stays interpreted" in run.stderr
    assert sorted(path.name for path in (tmp_path / "lib").rglob("*.so")) == []


def test_a_verdict_copies_with_its_fields():
    # copy.copy rebuilds an object through its class: a compiled class with its own __init__
    # needs the fields handed back (Verdict.__reduce__).
    game = GAMES["scratch-and-catch"]
    state = game.setup(2, "copy", {})
    verdict = game.adjudicate(state, game.legal_moves(state)[0])
    copied = copy.copy(verdict)
    assert copied == verdict and copied is not verdict and copied.state is verdict.state


def test_an_unchecked_state_gets_the_moves_the_sources_list():
    # A Python caller may skip the state check. Call of Katulhu: a hand holding a number where
    # a toy id belongs still gets every placement of what it holds, 4 of 6 in order for each of
    # the 2 seats (6 x 5 x 4 x 3 = 360 each), as the interpreted sources list them: the compiled
    # engine must not refuse a value the sources' loops take.
    game = GAMES["call-of-katulhu"]
    state = game.setup(2, "unchecked", {})
    state["players"][0]["hand"][3] = 0
    moves = game.legal_moves(state)
    assert len(moves) == 720
    assert sum(1 for move in moves if 0 in move["toys"]) == 4 * 60  # 0 in any of 4 slots, 5 x 4 x 3 others
