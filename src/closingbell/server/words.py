"""Words for the browser page, all from :mod:`closingbell.text`.

The page's own fixed words (the ``web`` catalog domain, served whole as JSON), a game's
names (cards, stocks or suits, events) from the game's narrator, so that a card is called
the same in the browser as in the terminal, and the lobby's words for the games (titles,
rules options, bot levels).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from closingbell.core.registry import game_class, load_game
from closingbell.text.games import narrator_for, options_for_people
from closingbell.text.i18n import WEB, messages
from closingbell.text.names import bot_labels, game_title

WEB_DOMAIN = WEB
"""The catalog domain of the browser page's own words."""


def web_messages(lang: str) -> dict[str, str]:
    """The ``web`` catalog of ``lang`` as ``{English: translation}`` (empty ones left out)."""
    return messages(lang, WEB)


@cache
def game_words(game_name: str, lang: str) -> dict[str, Any]:
    """A game's names in ``lang``: ``cards`` (by card id) and the stocks' or suits' names."""
    game = load_game(game_name, players=game_class(game_name).info.min_players)
    narrator = narrator_for(game, [f"#{p + 1}" for p in range(game.players)], lang)
    return {} if narrator is None else narrator.vocabulary()


@cache
def lobby_words(game_name: str, lang: str) -> dict[str, Any]:
    """A game's ``title`` and ``options`` (kind, bounds, label, help, choices) in ``lang``."""
    return {"title": game_title(game_name, lang), "options": options_for_people(game_name, lang)}


def bot_words(lang: str) -> dict[str, str]:
    """Each bot level's name in ``lang``, the same words as the terminal's ("Medium")."""
    return bot_labels(lang)
