"""Words for the browser page, from the same catalogs as the terminal.

Two kinds: the page's own fixed words (the ``web`` catalog domain, served whole as JSON)
and a game's names (cards, stocks or suits, events) made by the game's terminal screen,
so that a card is called the same in the browser as in the terminal.
"""

from __future__ import annotations

import gettext
from functools import cache
from typing import Any

from babel.messages.pofile import read_po

from closingbell.core.registry import game_class, load_game
from closingbell.games.card_stock_market import cards as CSM
from closingbell.games.take_stock import cards as TS
from closingbell.tui.card_stock_market import CardStockMarketScreen
from closingbell.tui.i18n import LANGS, LOCALE_DIR, translations
from closingbell.tui.take_stock import TakeStockScreen

WEB_DOMAIN = "web"
"""The catalog domain of the browser page's own words."""


@cache
def web_messages(lang: str) -> dict[str, str]:
    """The ``web`` catalog of ``lang`` as ``{English: translation}`` (empty ones left out)."""
    path = LOCALE_DIR / LANGS[lang] / "LC_MESSAGES" / f"{WEB_DOMAIN}.po"
    if not path.exists():
        return {}
    with path.open("rb") as f:
        catalog = read_po(f, locale=LANGS[lang], domain=WEB_DOMAIN)
    return {str(m.id): str(m.string) for m in catalog if m.id and m.string and not m.fuzzy}


@cache
def game_words(game_name: str, lang: str) -> dict[str, Any]:
    """A game's names in ``lang``: ``cards`` (by card id) and the stocks' or suits' names."""
    game = load_game(game_name, players=game_class(game_name).info.min_players)
    tr: gettext.NullTranslations = translations(lang)
    names = [f"#{p + 1}" for p in range(game.players)]
    _ = tr.gettext
    if game_name == "take_stock":
        ts = TakeStockScreen(game, names, tr)
        return {
            "stocks": list(ts.stock_names),
            "events": list(ts.event_names),
            "cards": [ts.card_name(c) for c in range(TS.NUM_SHARE_CARDS)],
            "shares": list(ts.shares),
        }
    if game_name == "card_stock_market":
        csm = CardStockMarketScreen(game, names, tr)
        return {
            "suits": [_("Clubs"), _("Diamonds"), _("Hearts"), _("Spades")],
            "cards": [csm._card(c) for c in range(CSM.JOKER + 1)],
        }
    return {}
