"""Keeping the message catalogs in step with the source (a tool for maintainers and tests).

Every ``_("...")`` (and ``ngettext``) call in ``closingbell/text/*.py`` (the words),
``closingbell/text/facts/*.py`` (what an action does), ``closingbell/text/lessons/*.py`` (the
guided games' lessons) and ``closingbell/tui/*.py``
(the terminal's layout) is a message. A module named after a game keeps its messages in that
game's domain (``text/take_stock.py``, ``text/lessons/take_stock.py`` and
``tui/take_stock.py`` to ``take_stock.po``); every other module's go to ``common``; the
browser page's (``_("...")`` in ``closingbell/server/static/*.js``) go to ``web``. Run
``python -m closingbell.text.catalogs [DOMAIN ...]`` after changing messages: it adds new
messages to every language's catalogs (English ones filled with the source text, others
left empty for a translator) and drops messages no longer used, keeping every translation
made.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po, write_po

import closingbell
from closingbell.core.registry import available_games
from closingbell.text.i18n import COMMON, LANGS, WEB, catalog_path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
"""The ``closingbell`` package."""

SOURCE_DIRS = (
    PACKAGE_DIR / "text",
    PACKAGE_DIR / "text" / "facts",
    PACKAGE_DIR / "text" / "lessons",
    PACKAGE_DIR / "tui",
)
"""The Python sources whose messages the catalogs hold: the words (the facts the narrators
explain with and the lessons of the guided games among them) and the terminal."""

WEB_DIR = PACKAGE_DIR / "server" / "static"
"""The browser page's JavaScript modules."""


@dataclass(frozen=True)
class Message:
    """One message found in the source."""

    id: str | tuple[str, str]
    """The English text (singular and plural for ``ngettext``)."""
    domain: str
    """The catalog it belongs to."""
    where: str
    """The file and line it was found at."""


def domain_of(source: Path) -> str:
    """The catalog a source file's messages go to: a module named after a game has its own."""
    return source.stem if source.stem in available_games() else COMMON


def sources() -> list[Path]:
    """The Python files with messages: the words (``text``) and the terminal (``tui``)."""
    return [
        p for folder in SOURCE_DIRS for p in sorted(folder.glob("*.py")) if p.name != "catalogs.py"
    ]


def extract() -> Iterator[Message]:
    """Every message of the Python sources, with its domain, in source order."""
    for path in sources():
        domain = domain_of(path)
        for line, msgid, _comments, _context in extract_from_file(
            "python", str(path), keywords=DEFAULT_KEYWORDS
        ):
            if isinstance(msgid, tuple):
                singular, plural = msgid[0], msgid[1]
                yield Message((singular, plural), domain, f"{_where(path)}:{line}")
            else:
                yield Message(msgid, domain, f"{_where(path)}:{line}")


def web_sources() -> list[Path]:
    """The browser page's JavaScript files."""
    return sorted(WEB_DIR.glob("*.js"))


def extract_web() -> Iterator[Message]:
    """Every message of the browser page (Babel's JavaScript extractor), in source order."""
    for path in web_sources():
        for line, msgid, _comments, _context in extract_from_file(
            "javascript", str(path), keywords={"_": None}
        ):
            if isinstance(msgid, str):
                yield Message(msgid, WEB, f"{_where(path)}:{line}")


def _where(path: Path) -> str:
    """A source file named from the package: ``text/take_stock.py``."""
    return path.relative_to(PACKAGE_DIR).as_posix()


def update(only_domains: set[str] | None = None) -> None:
    """Bring every catalog in step with the source (see the module's description)."""
    by_domain: dict[str, list[Message]] = {}
    for m in (*extract(), *extract_web()):
        by_domain.setdefault(m.domain, []).append(m)
    for domain, messages in by_domain.items():
        if only_domains is not None and domain not in only_domains:
            continue
        for lang, lang_dir in LANGS.items():
            path = catalog_path(lang, domain)
            old = None
            if path.exists():
                with path.open("rb") as f:
                    old = read_po(f, locale=lang_dir, domain=domain)
            new = Catalog(
                locale=lang_dir,
                domain=domain,
                project="closingbell",
                version=closingbell.__version__,
                fuzzy=False,
                header_comment=f"# closingbell messages: {domain} ({lang}).",
            )
            if old is not None:
                # Kept, so that a run with no new message leaves the file as it was.
                new.creation_date = old.creation_date
                new.revision_date = old.revision_date
            for m in messages:
                key = m.id[0] if isinstance(m.id, tuple) else m.id
                if key in new:
                    continue
                previous = old.get(key) if old is not None else None
                if previous is not None and previous.string and not previous.fuzzy:
                    string = previous.string
                elif lang == "en":
                    string = m.id
                else:
                    string = ("", "") if isinstance(m.id, tuple) else ""
                file, line = m.where.rsplit(":", 1)
                new.add(m.id, string, locations=[(file, int(line))])
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as f:
                write_po(f, new, width=100, omit_header=False, no_location=True)


if __name__ == "__main__":
    import sys

    update(set(sys.argv[1:]) or None)
