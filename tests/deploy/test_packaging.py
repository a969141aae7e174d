"""Every third-party module the service imports is a runtime dependency (not only a test one)."""

import ast
import sys
from importlib.metadata import packages_distributions, requires
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]


def _imported_top_modules():
    names = set()
    for path in (ROOT / "referee").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"referee"}


def test_runtime_imports_are_declared_dependencies():
    runtime = {Requirement(r).name.lower().replace("_", "-") for r in requires("referee") or []
               if "extra ==" not in r}
    distributions = packages_distributions()
    missing = {}
    for module in sorted(_imported_top_modules()):
        owners = {d.lower().replace("_", "-") for d in distributions.get(module, [module])}
        if not owners & runtime:
            missing[module] = sorted(owners)
    assert missing == {}, f"imported by referee/ but not in [project].dependencies: {missing}"


def test_every_file_of_the_table_page_is_package_data():
    # setuptools installs package data by these globs (relative to the package): a file the
    # page loads (its vendored QR code library included) must match one, or an installed
    # service answers 404 for it.
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    globs = setuptools["package-data"]["referee"]
    package = ROOT / "referee"
    shipped = {path for pattern in globs for path in package.glob(pattern) if path.is_file()}
    files = {path for path in (package / "table").rglob("*") if path.is_file()}
    assert (package / "table" / "vendor" / "qrcode.js") in files
    assert files - shipped == set()
