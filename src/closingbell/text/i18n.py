"""The message catalogs: gettext ``.po`` files read through Babel, one per domain.

Catalogs live under ``closingbell/locale/<LANG>/LC_MESSAGES/``, one file (a *domain*) per
area: ``common.po`` for words every front end shares (game titles, bot levels, the
terminal's play loop), one per game for that game's words (``take_stock.po``), and
``web.po`` for the browser page's own words. They are read straight from the ``.po`` text,
so there is no compile step.

Each domain is looked up on its own, so that one English word may be translated
differently in two games (Take Stock's "Price" is 價值, Card Stock Market's is 股價). The
English text in the source is the message id; the English catalog holds every message too,
so that a test can check that both languages are complete.
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
"""The languages a user may choose (``--lang``, ``?lang=``), with their catalog directory
names."""

COMMON = "common"
"""The domain of the words every front end shares."""

WEB = "web"
"""The domain of the browser page's own words (``_("...")`` in its JavaScript)."""


def check_lang(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGS`; else ``ValueError`` naming the choices."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGS)}")
    return lang


def catalog_path(lang: str, domain: str) -> Path:
    """The ``.po`` file of ``domain`` in ``lang``."""
    return LOCALE_DIR / LANGS[check_lang(lang)] / "LC_MESSAGES" / f"{domain}.po"


def catalog_files(lang: str) -> list[Path]:
    """The ``.po`` files of ``lang``, one per domain, in a stable order."""
    return sorted((LOCALE_DIR / LANGS[check_lang(lang)] / "LC_MESSAGES").glob("*.po"))


@cache
def translations(lang: str, domain: str = COMMON) -> gettext.NullTranslations:
    """The catalog ``domain`` of ``lang`` as a ``gettext``-style object.

    A domain with no catalog translates nothing (every message stays English). Raises
    ``ValueError`` naming the choices for a language we do not have.
    """
    path = catalog_path(lang, domain)
    if not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as f:
        catalog = read_po(f, locale=LANGS[lang], domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=domain)


@cache
def messages(lang: str, domain: str) -> dict[str, str]:
    """The catalog ``domain`` of ``lang`` as ``{English: translation}``.

    Plural messages and messages not yet translated (empty or fuzzy) are left out. The
    browser page takes its own words (the ``web`` domain) this way.
    """
    path = catalog_path(lang, domain)
    if not path.exists():
        return {}
    with path.open("rb") as f:
        catalog = read_po(f, locale=LANGS[lang], domain=domain)
    return {
        str(m.id): str(m.string)
        for m in catalog
        if m.id and isinstance(m.id, str) and m.string and not m.fuzzy
    }
