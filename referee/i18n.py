"""Messages in English and Japanese from standard gettext catalogs.

Catalogs live in ``referee/locale/<lang>/LC_MESSAGES/*.po`` (one per game, plus ``referee.po``
for the service's own texts). They are compiled in memory with Babel at first use, so a source
checkout needs no build step. A msgid is the English text itself.
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


@lru_cache(maxsize=None)
def translations(language: str) -> gettext.NullTranslations:
    """The merged catalog of ``language`` (English, or an unknown language: identity)."""
    merged: gettext.NullTranslations = gettext.NullTranslations()
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    if language == DEFAULT_LANGUAGE or not folder.is_dir():
        return merged
    first = None
    for po_path in sorted(folder.glob("*.po")):
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=language)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        compiled = gettext.GNUTranslations(buffer)
        if first is None:
            first = compiled
        else:
            first.add_fallback(compiled)
    return first or merged


def translate(msgid: str, language: str) -> str:
    """``msgid`` in ``language`` (the msgid itself when there is no translation)."""
    if language == DEFAULT_LANGUAGE or not msgid:  # gettext("") is the catalog's header
        return msgid
    return translations(language).gettext(msgid)


def known_msgids(language: str) -> set[str]:
    """Every msgid with a non-empty translation in ``language`` (for the catalog tests)."""
    ids: set[str] = set()
    for po_path in sorted((LOCALE_DIR / language / "LC_MESSAGES").glob("*.po")):
        with po_path.open("rb") as po_file:
            ids.update(str(m.id) for m in read_po(po_file, locale=language) if m.id and m.string)
    return ids
