"""Every message has an English and a Chinese translation in its own domain, in good form."""

from __future__ import annotations

import functools
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from closingbell.text import catalogs
from closingbell.text.catalogs import Message, domain_of, extract
from closingbell.text.i18n import COMMON, LANGS, LOCALE_DIR, catalog_path, translations

PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
CJK = "[\u3400-\u9fff\uf900-\ufaff]"
DOMAINS = ("common", "take_stock", "card_stock_market")
"""The domains of this package's words (``web`` is the page's, tested with the page)."""

LATIN_PLACEHOLDERS = {
    # Names, numbers, amounts, commands and paths: Latin text or figures.
    "who", "name", "names", "dealer", "n", "count", "round", "rounds", "value", "values",
    "price", "step", "number", "amount", "cost", "paid", "levy", "rise", "fall", "before",
    "after", "total", "cap", "face", "mine", "score", "draw", "discard", "supply",
    "limit", "path", "seed", "low", "high", "trades", "changes", "m", "command", "text",
    "example", "seat", "bots", "games", "seats", "shares", "points", "margin", "cash", "faces",
}  # fmt: skip
"""Placeholders whose value begins and ends with Latin text or a figure."""


@functools.cache
def _catalog(lang: str, domain: str) -> Catalog:
    """The catalog of ``domain`` in ``lang``, read once (every message of the sources asks
    for its own, and the checks only read it)."""
    with catalog_path(lang, domain).open("rb") as f:
        return read_po(f, locale=LANGS[lang], domain=domain)


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


MESSAGES: list[Message] = list(extract())


def test_the_sources_have_messages_in_every_part() -> None:
    files = {m.where.split(":")[0] for m in MESSAGES}
    assert {"tui/app.py", "text/take_stock.py", "text/card_stock_market.py"} <= files
    assert {"text/names.py", "tui/take_stock.py"} <= files
    assert {"text/lessons/take_stock.py", "text/lessons/card_stock_market.py"} <= files
    assert {m.domain for m in MESSAGES} == set(DOMAINS)
    assert len(MESSAGES) > 300


def test_modules_named_after_a_game_have_its_domain() -> None:
    assert domain_of(Path("text/take_stock.py")) == "take_stock"
    assert domain_of(Path("tui/card_stock_market.py")) == "card_stock_market"
    assert domain_of(Path("text/names.py")) == COMMON
    assert domain_of(Path("text/lessons/take_stock.py")) == "take_stock"


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_message_has_a_translation_with_the_same_placeholders(lang: str) -> None:
    problems = []
    for m in MESSAGES:
        catalog = _catalog(lang, m.domain)
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        message = catalog.get(key)
        if message is None:
            problems.append(f"{m.where}: not in the {lang} {m.domain} catalog: {key!r}")
            continue
        if message.fuzzy:
            problems.append(f"{m.where}: fuzzy in {lang}: {key!r}")
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not strings or not all(s for s in strings):
            problems.append(f"{m.where}: untranslated in {lang}: {key!r}")
            continue
        if isinstance(m.id, tuple):
            assert len(strings) == catalog.num_plurals, m
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        wanted = set().union(*(_placeholders(i) for i in ids))
        for s in strings:
            if _placeholders(s) != wanted:
                problems.append(
                    f"{m.where}: placeholders differ in {lang}: {key!r} -> {s!r} "
                    f"({sorted(_placeholders(s))} instead of {sorted(wanted)})"
                )
    assert not problems, "\n".join(problems)


def _chinese_problems(domain: str) -> list[str]:
    """What a reader of Traditional Chinese would trip on in ``domain``'s translations.

    Punctuation next to Chinese text is full width; Latin text, figures and the
    placeholders that hold them (names, numbers, paths) are set off from Chinese
    text by a space. In Take Stock a card's name ends with its figure ("油 7").
    """
    latin = set(LATIN_PLACEHOLDERS)
    if domain == "card_stock_market":
        latin |= {"card", "cards", "prices"}  # "7♣", "♣ $3"
    problems = []
    for message in _catalog("zh-Hant", domain):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for s in strings:
            where = f"{domain}: {message.id!r} -> {s!r}"
            for m in re.finditer(rf"{CJK}[,;:()!?]|[,;:()!?]{CJK}", s):
                problems.append(f"{where}: half-width punctuation {m.group(0)!r}")
            bare = PLACEHOLDER.sub("\0", s)
            for m in re.finditer(rf"{CJK}[A-Za-z0-9$]|[A-Za-z0-9]{CJK}", bare):
                problems.append(f"{where}: no space in {m.group(0)!r}")
            for m in PLACEHOLDER.finditer(s):
                before = s[m.start() - 1 : m.start()]
                after = s[m.end() : m.end() + 1]
                touches = re.fullmatch(CJK, before) or re.fullmatch(CJK, after)
                if m.group(1) in latin and touches:
                    problems.append(f"{where}: no space around {m.group(0)}")
                if domain == "take_stock" and m.group(1) == "card" and re.fullmatch(CJK, after):
                    problems.append(f"{where}: no space after {m.group(0)}")
    return problems


@pytest.mark.parametrize("domain", DOMAINS)
def test_chinese_punctuation_is_full_width_and_latin_text_is_spaced(domain: str) -> None:
    problems = _chinese_problems(domain)
    assert not problems, "\n".join(problems)


def test_reviewed_chinese_wording() -> None:
    """Wording a native reader found wrong: each line says what it must not mean."""
    common = translations("zh-Hant").gettext
    # 遊戲已存在 read as "the game already exists".
    assert "已存在" not in common("The game is saved in {path}")
    assert "存檔" in common("The game is saved in {path}")
    assert "紀錄存在" not in common("The record of this game is in {path}")
    take_stock = translations("zh-Hant", "take_stock").gettext
    assert take_stock("Number of players") == "玩家人數"
    assert take_stock("Price") == translations("zh-Hant", "card_stock_market").gettext("Price")


def test_each_domain_is_looked_up_on_its_own() -> None:
    take_stock = translations("zh-Hant", "take_stock").gettext
    market = translations("zh-Hant", "card_stock_market").gettext
    assert take_stock("Total") == "總分"  # points
    assert market("Total") == "總計"  # money
    assert translations("zh-Hant", "no_such_domain").gettext("Total") == "Total"
    with pytest.raises(ValueError, match="zh-Hant"):
        translations("fr")


def test_chinese_uses_the_chinese_editions_names() -> None:
    _ = translations("zh-Hant", "take_stock").gettext
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
    _ = translations("en", "take_stock").gettext
    assert _("Oil") == "Oil"
    assert _("Stock Split ({stock})") == "Stock Split ({stock})"


def test_the_catalogs_are_in_step_with_the_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Running the catalogs tool on a copy changes nothing: no message is missing or stale."""
    copy = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, copy)
    monkeypatch.setattr(
        catalogs,
        "catalog_path",
        lambda lang, domain: copy / LANGS[lang] / "LC_MESSAGES" / f"{domain}.po",
    )
    catalogs.update(set(DOMAINS))
    for folder in LANGS.values():
        for domain in DOMAINS:
            name = f"{folder}/LC_MESSAGES/{domain}.po"
            assert (copy / name).read_text() == (LOCALE_DIR / name).read_text(), name
