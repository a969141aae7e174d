"""The code passes ruff with the project's settings (pyproject.toml, [tool.ruff])."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is not installed: it is in the test extras (pip install -e '.[test]')"
    run = subprocess.run([ruff, "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-1000:]


def test_no_module_of_the_service_is_over_600_lines():
    long = {str(path.relative_to(ROOT)): lines for path in sorted((ROOT / "referee").rglob("*.py"))
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 600}
    assert long == {}, "split these by concern (docs/architecture.md)"
