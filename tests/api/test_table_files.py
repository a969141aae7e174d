"""The table page's files are served by the service itself, outside the API contract."""

import re
from pathlib import Path

import yaml

TABLE_DIR = Path(__file__).resolve().parents[2] / "referee" / "table"


def test_table_page_and_its_files_are_served(client):
    page = client.get("/table")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    for asset, mimetype in (("/table/table.css", "text/css"), ("/table/table.js", "text/javascript")):
        assert f'"{asset}"' in html
        answer = client.get(asset)
        assert answer.status_code == 200
        assert answer.mimetype == mimetype


def test_unknown_table_file_is_404(client):
    assert client.get("/table/nothing.js").status_code == 404
    assert client.get("/table/../app.py").status_code == 404


def test_table_page_loads_nothing_from_elsewhere():
    # No CDN, no build step: every file is plain text served from referee/table/.
    for path in TABLE_DIR.iterdir():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?:src|href)\s*=\s*[\"']?(?:https?:)?//", text), path.name
        assert not re.search(r"\burl\(\s*[\"']?(?:https?:)?//", text), path.name
        assert not re.search(r"fetch\(\s*[\"'`](?:https?:)?//", text), path.name


def test_table_page_is_not_in_the_api_contract(client):
    contract = yaml.safe_load(client.get("/openapi.yaml").get_data(as_text=True))
    assert not [path for path in contract["paths"] if path.startswith("/table")]


def test_every_page_label_is_written_in_english_and_japanese():
    script = (TABLE_DIR / "table.js").read_text(encoding="utf-8")
    english = script[script.index("    en: {"):script.index("    ja: {")]
    japanese = script[script.index("    ja: {"):script.index("\n  };")]
    keys = [set(re.findall(r'^\s+"([a-z_.]+)": "', block, re.M)) for block in (english, japanese)]
    assert keys[0] and keys[0] == keys[1]
    html = (TABLE_DIR / "index.html").read_text(encoding="utf-8")
    assert set(re.findall(r'data-i18n="([a-z_.]+)"', html)) <= keys[0]
