"""Each game's narrator and rules options in words, by the game's registered name."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from closingbell.core.game import Game
from closingbell.core.options import option_infos
from closingbell.core.registry import game_class, load_game
from closingbell.text import card_stock_market, take_stock
from closingbell.text.narrator import Narrator, OptionWords

NarratorFactory = Callable[[Game, Sequence[str], str], Narrator]
"""A narrator class: ``Narrator(game, names, lang)``."""

NARRATORS: dict[str, NarratorFactory] = {
    "take_stock": take_stock.TakeStockNarrator,
    "card_stock_market": card_stock_market.CardStockMarketNarrator,
}
"""Each game that has words, by registered name, with its narrator class."""

OPTION_WORDS: dict[str, Callable[[str], dict[str, OptionWords]]] = {
    "take_stock": take_stock.option_words,
    "card_stock_market": card_stock_market.option_words,
}
"""Each game's rules options in words, by registered name: ``OPTION_WORDS[game](lang)``."""


def narrator_class(game_name: str) -> NarratorFactory | None:
    """The narrator class of ``game_name``, or ``None`` when it has none yet."""
    return NARRATORS.get(game_name)


def narrator_for(game: Game, names: Sequence[str], lang: str) -> Narrator | None:
    """A narrator of ``game`` in ``lang`` for seats called ``names`` (``None``: no words)."""
    factory = narrator_class(game.info.name)
    return None if factory is None else factory(game, names, lang)


def options_for_people(game_name: str, lang: str) -> list[dict[str, Any]]:
    """Every rules option of ``game_name`` (but ``players``) as a front end offers it.

    Each is a JSON-ready dict: ``name``, ``default`` and ``doc`` (English, for
    programmers), the check's data (``kind``; ``min``, ``max``, ``length``, ``nullable``
    by kind, as :meth:`closingbell.core.options.Check.describe` gives them), and the words
    in ``lang``: ``label``, ``help``, for a choice, ``choices`` as ``[{value, label}]``, and
    for a list of numbers with named presets, ``presets`` as ``[{value, label, numbers}]``
    (a preset's name is accepted as the option's value and stored as its numbers).
    Raises ``KeyError`` for a game or an option with no words.
    """
    info = game_class(game_name).info
    options = load_game(game_name, players=info.min_players).options
    words = OPTION_WORDS[game_name](lang)
    out = []
    for o in option_infos(type(options)):
        said = words[o.name]
        row: dict[str, Any] = {
            "name": o.name,
            "default": list(o.default) if isinstance(o.default, tuple) else o.default,
            "doc": o.doc,
            **o.check.describe(),
            "label": said.label,
            "help": said.help,
        }
        values = row.pop("values", None)
        if values is not None:
            row["choices"] = [{"value": v, "label": said.choices[v]} for v in values]
        presets = row.pop("presets", None)
        if presets is not None:
            row["presets"] = [
                {"value": name, "label": said.choices[name], "numbers": numbers}
                for name, numbers in presets.items()
            ]
        out.append(row)
    return out
