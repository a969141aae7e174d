"""Messages in English and Japanese from standard gettext catalogs.

Catalogs live in ``referee/locale/<lang>/LC_MESSAGES/<domain>.po``, one domain per game (its
id), so that a game's words never translate another game's values, and the domain ``referee``
for the words of problems (referee/service/texts.py). They are compiled in memory
with Babel at first use, so a source checkout needs no build step. A msgid is the English text
itself; an English catalog only names a game's identifiers in words (``enemy_possession`` ->
"Enemy Possession").
"""

from __future__ import annotations

import gettext
import io
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "ja")
DEFAULT_LANGUAGE = "en"


def _compile(po_path: Path, language: str) -> gettext.GNUTranslations:
    with po_path.open("rb") as po_file:
        catalog = read_po(po_file, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@lru_cache(maxsize=None)
def translations(language: str, domain: str | None = None) -> gettext.NullTranslations:
    """The catalog of ``language``: one domain (``<domain>.po``, a game id or ``referee``), or
    all of them merged when ``domain`` is None. A missing catalog: identity."""
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    if not folder.is_dir():
        return gettext.NullTranslations()
    paths = [folder / f"{domain}.po"] if domain is not None else sorted(folder.glob("*.po"))
    merged: gettext.NullTranslations | None = None
    for po_path in paths:
        if not po_path.is_file():
            continue
        compiled = _compile(po_path, language)
        if merged is None:
            merged = compiled
        else:
            merged.add_fallback(compiled)
    return merged or gettext.NullTranslations()


def translate(msgid: str, language: str, domain: str | None = None) -> str:
    """``msgid`` in ``language`` from ``domain``'s catalog (all catalogs when None); the msgid
    itself when there is no translation (every English sentence)."""
    if not msgid:  # gettext("") is the catalog's header
        return msgid
    return translations(language, domain).gettext(msgid)


def known_msgids(language: str) -> set[str]:
    """Every msgid with a non-empty translation in ``language`` (for the catalog tests)."""
    ids: set[str] = set()
    for po_path in sorted((LOCALE_DIR / language / "LC_MESSAGES").glob("*.po")):
        with po_path.open("rb") as po_file:
            ids.update(str(m.id) for m in read_po(po_file, locale=language) if m.id and m.string)
    return ids
