"""The table page's files are served by the service itself, outside the API contract."""

import re
from pathlib import Path

from tests.support.documents import load_yaml

TABLE_DIR = Path(__file__).resolve().parents[2] / "referee" / "table"


def test_table_page_and_its_files_are_served(client):
    page = client.get("/table")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert scripts[0] == "/table/vendor/qrcode.js" and scripts[-1] == "/table/table.js"
    for asset in ["/table/table.css", *scripts]:
        assert f'"{asset}"' in html
        answer = client.get(asset)
        assert answer.status_code == 200
        assert answer.mimetype == ("text/css" if asset.endswith(".css") else "text/javascript")
        assert answer.headers["Content-Security-Policy"] == page.headers["Content-Security-Policy"]
    # The QR codes are drawn as data: images, which the page's policy allows, and nothing else.
    assert "img-src 'self' data:" in page.headers["Content-Security-Policy"]


def test_unknown_table_file_is_404(client):
    assert client.get("/table/nothing.js").status_code == 404
    assert client.get("/table/../app.py").status_code == 404


def test_table_page_loads_nothing_from_elsewhere():
    # No CDN, no build step: every file is plain text served from referee/table/.
    for path in (path for path in TABLE_DIR.rglob("*") if path.is_file()):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?:src|href)\s*=\s*[\"']?(?:https?:)?//", text), path.name
        assert not re.search(r"\burl\(\s*[\"']?(?:https?:)?//", text), path.name
        assert not re.search(r"fetch\(\s*[\"'`](?:https?:)?//", text), path.name


def test_table_page_is_not_in_the_api_contract(client):
    contract = load_yaml(client.get("/openapi.yaml").get_data(as_text=True))
    assert not [path for path in contract["paths"] if path.startswith("/table")]


def _block(script: str, name: str, language: str) -> str:
    table = script[script.index(f"  const {name} = {{"):]
    start = table.index(f"    {language}: {{")
    return table[start:table.index("\n    },", start)]


def test_every_page_label_is_written_in_english_and_japanese():
    script = (TABLE_DIR / "words.js").read_text(encoding="utf-8")
    html = (TABLE_DIR / "index.html").read_text(encoding="utf-8")
    for name in ("TEXT", "SENTENCES"):
        # (several short labels may share a line)
        keys = [set(re.findall(r'\s"([a-z_0-9.]+)": "', _block(script, name, language))) for language in ("en", "ja")]
        assert keys[0] and keys[0] == keys[1], name
        if name == "TEXT":
            assert set(re.findall(r'data-i18n="([a-z_.]+)"', html)) <= keys[0]
    # The turn guides and the rulebook reminders come in both languages too.
    for name in ("GUIDES", "SECTIONS"):
        table = script[script.index(f"  const {name} = {{"):]
        table = table[:table.index("\n  };")]
        assert table.count(" en: ") == table.count(" ja: ") > 0, name


def test_every_rulebook_section_a_verdict_cites_has_a_reminder_on_the_page():
    from referee.games import GAMES

    script = (TABLE_DIR / "words.js").read_text(encoding="utf-8")
    sections = script[script.index("  const SECTIONS = {"):]
    sections = sections[:sections.index("\n  };")]
    written = {heading.replace('\\"', '"') for heading in re.findall(r'^    "((?:[^"\\]|\\.)+)": \{', sections, re.M)}
    cited = {rule for game in GAMES.values() for _, rule in game.messages.values()}
    assert cited and cited <= written


def test_the_page_reads_the_log_again_on_the_events_each_game_declares_revealing():
    """The page's REVEALING lists, per game, the event types its disclosure declares as
    revealing hidden values (referee/engine/information.py, Reveals): no more, no fewer."""
    from referee.engine.information import Reveals
    from referee.games import GAMES

    script = (TABLE_DIR / "table.js").read_text(encoding="utf-8")
    table = script[script.index("  const REVEALING = {"):]
    table = table[:table.index("\n  };")]
    listed = {game: set(re.findall(r'"([a-z_]+)"', types))
              for game, types in re.findall(r'^    "?([a-z-]+)"?: \[([^\]]*)\],', table, re.M)}
    declared = {game.id: {kind for kind, declaration in game.disclosure.events.items()
                          if isinstance(declaration, Reveals)} for game in GAMES.values()}
    assert declared["call-of-katulhu"] == {"toys_revealed", "cat_discarded"}   # rulebook: Gameplay, the stall
    assert listed == declared
