"""Message catalogs for everything the terminal shows, through Babel.

Catalogs are gettext ``.po`` files under ``closingbell/locale/<LANG>/LC_MESSAGES/``, one
file (a *domain*) per area: ``common.po`` for the program itself and one per game, such as
``take_stock.po``. They are read straight from the ``.po`` text, so there is no compile
step; every domain of a language is merged into one set of translations.

The English text in the source is the message id; the English catalog holds every message
too, so that a test can check that both languages are complete.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs live."""

LANGS: dict[str, str] = {"en": "en", "zh-Hant": "zh_Hant"}
"""The languages a user may choose (``--lang``), with their catalog directory names."""


def catalog_files(lang: str) -> list[Path]:
    """The ``.po`` files of ``lang``, one per domain, in a stable order."""
    return sorted((LOCALE_DIR / LANGS[lang] / "LC_MESSAGES").glob("*.po"))


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """Every catalog of ``lang`` merged into one ``gettext``-style object.

    Raises ``ValueError`` naming the choices for a language we do not have.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGS)}")
    merged: Translations | None = None
    for path in catalog_files(lang):
        with path.open("rb") as f:
            catalog = read_po(f, locale=LANGS[lang], domain=path.stem)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        part = Translations(buffer, domain=path.stem)
        if merged is None:
            merged = part
        else:
            merged.merge(part)
    return merged if merged is not None else gettext.NullTranslations()
