"""Every message of the terminal front end has an English and a Chinese translation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po

from closingbell.tui.i18n import LANGS, catalog_files, translations

TUI = Path(__file__).resolve().parents[2] / "src" / "closingbell" / "tui"
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")


def _source_messages() -> list[tuple[str, str | tuple[str, ...]]]:
    """(file:line, message id) of every ``_()``/``ngettext()`` call in the tui sources."""
    found = []
    for path in sorted(TUI.glob("*.py")):
        for line, msgid, _comments, _context in extract_from_file(
            "python", str(path), keywords=DEFAULT_KEYWORDS
        ):
            if isinstance(msgid, tuple):
                msgid = tuple(m for m in msgid if m is not None)
            found.append((f"{path.name}:{line}", msgid))
    return found


def _catalog(lang: str) -> Catalog:
    """Every domain of ``lang`` merged into one catalog (fuzzy flags kept)."""
    merged = Catalog(locale=LANGS[lang])
    for path in catalog_files(lang):
        with path.open("rb") as f:
            part = read_po(f, locale=LANGS[lang], domain=path.stem)
        for message in part:
            if message.id:
                merged[message.id] = message
    return merged


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


MESSAGES = _source_messages()


def test_the_sources_have_messages_in_every_part() -> None:
    files = {where.split(":")[0] for where, _msgid in MESSAGES}
    assert {"app.py", "take_stock.py"} <= files
    assert len(MESSAGES) > 150


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_message_has_a_translation_with_the_same_placeholders(lang: str) -> None:
    catalog = _catalog(lang)
    problems = []
    for where, msgid in MESSAGES:
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        message = catalog.get(key)
        if message is None:
            problems.append(f"{where}: not in the {lang} catalogs: {key!r}")
            continue
        if message.fuzzy:
            problems.append(f"{where}: fuzzy in {lang}: {key!r}")
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not strings or not all(s for s in strings):
            problems.append(f"{where}: untranslated in {lang}: {key!r}")
            continue
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        wanted = set().union(*(_placeholders(i) for i in ids))
        for s in strings:
            if _placeholders(s) != wanted:
                problems.append(
                    f"{where}: placeholders differ in {lang}: {key!r} -> {s!r} "
                    f"({sorted(_placeholders(s))} instead of {sorted(wanted)})"
                )
    assert not problems, "\n".join(problems)


def test_plural_messages_have_every_plural_form() -> None:
    for lang in LANGS:
        catalog = _catalog(lang)
        for _where, msgid in MESSAGES:
            if isinstance(msgid, tuple):
                message = catalog.get(msgid[0])
                assert message is not None
                assert isinstance(message.string, tuple)
                assert len(message.string) == catalog.num_plurals


def test_chinese_uses_the_chinese_editions_names() -> None:
    _ = translations("zh-Hant").gettext
    names = {
        "Corn": "玉米",
        "Gem": "寶石",
        "Oil": "油",
        "Tech": "科技",
        "Movie": "電影",
        "Market Closed": "休市",
        "Stock Audit": "股票稽核",
        "Stock Freeze": "股票凍結",
        "Market Crash": "市場崩盤",
        "Market Upturn": "翻紅",
        "Market Downturn": "翻黑",
        "No Market Change": "風平浪靜",
    }
    for english, chinese in names.items():
        assert _(english) == chinese
    assert _("Stock Split ({stock})").format(stock="玉米") == "股票分割（玉米）"
    assert _("Stock Crash ({stock})").format(stock="油") == "股票崩盤（油）"
    assert _("Insider Trading ({stock})").format(stock="科技") == "內線交易（科技）"


def test_english_catalog_keeps_the_source_text_for_names() -> None:
    _ = translations("en").gettext
    assert _("Oil") == "Oil"
    assert _("Stock Split ({stock})") == "Stock Split ({stock})"
