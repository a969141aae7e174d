"""The documents hold together: every relative link of every Markdown file of the repository
leads to a file that exists, and every anchor (``#heading``) to a heading of its target, by
GitHub's rules for heading ids. The README stays a five-minute read, and no document or
comment cites a benchmark run by its number."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 150

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# "pass 3", "the 5th pass", "second pass": how a history of measurement runs is told.
PASS = re.compile(r"\b(?:pass(?:es)?\s+#?\d+|(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|"
                  r"eighth|ninth|tenth|previous|earlier|last|next)\s+(?:benchmark\s+)?pass)\b", re.I)


def _markdown_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    return sorted(ROOT / name for name in listed if (ROOT / name).is_file())


def _prose(text: str) -> list[str]:
    """The lines of a Markdown text outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        lines.append("" if fenced else line)
    return lines


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: its text without markup, lower case, punctuation but
    hyphens and underscores dropped, each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)      # links: their text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for line in _prose(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        anchor = github_anchor(match.group(2))
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


def _links():
    for path in _markdown_files():
        for number, line in enumerate(_prose(path.read_text(encoding="utf-8")), 1):
            for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
                    continue   # http:, https:, mailto:
                yield path, number, target


def test_github_anchors_follow_githubs_rules():
    assert github_anchor("Versions, If-Match, ETag") == "versions-if-match-etag"
    assert github_anchor("Quick start (fresh machine, Python 3.11+)") == "quick-start-fresh-machine-python-311"
    assert github_anchor("`card_played`") == "card_played"
    assert github_anchor('The "Combo"') == "the-combo"


def test_the_documents_have_links_to_check():
    assert sum(1 for _ in _links()) > 50


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_leads_somewhere(path):
    broken = []
    for source, number, target in _links():
        if source != path:
            continue
        file_part, _, anchor = target.partition("#")
        destination = (source.parent / unquote(file_part)).resolve() if file_part else source
        if not destination.exists():
            broken.append(f"line {number}: {target} (no such file)")
        elif anchor and destination.suffix == ".md" and unquote(anchor) not in anchors(destination):
            broken.append(f"line {number}: {target} (no such heading)")
    assert not broken, broken


def test_the_readme_reads_in_five_minutes():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move detail into docs/"


def test_no_document_or_comment_cites_a_benchmark_pass():
    code = sorted(p for folder in ("referee", "bench", "tests") for p in (ROOT / folder).rglob("*.py"))
    files = _markdown_files() + code
    cited = []
    for path in files:
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PASS.search(line):
                cited.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not cited, cited


def test_the_pass_check_finds_what_it_looks_for():
    assert PASS.search("measured in the 5th pass") and PASS.search("(pass 3)") and PASS.search("the second pass")
    assert not PASS.search("a request may pass over it") and not PASS.search("both passes say so")
