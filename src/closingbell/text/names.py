"""Names every front end shares: games, bot levels and seats, in the user's language.

Seats are numbered from 1 for people ("Medium 2" sits in seat 1 of the protocol).
"""

from __future__ import annotations

from collections.abc import Sequence

from closingbell.text.i18n import translations

HUMAN = "you"
"""The seat kind of a person at the terminal (``closingbell play --seats you,medium``)."""


def game_title(game_name: str, lang: str) -> str:
    """The game's title in ``lang`` (its registered name if it has none)."""
    _ = translations(lang).gettext
    titles = {"take_stock": _("Take Stock"), "card_stock_market": _("Card Stock Market")}
    return titles.get(game_name, game_name)


def bot_labels(lang: str) -> dict[str, str]:
    """Every bot kind and level by name, as people call it in ``lang`` ("Medium")."""
    _ = translations(lang).gettext
    return {
        "random": _("Random"),
        "heuristic": _("Rule-based"),
        "ismcts": _("Search"),
        "easy": _("Easy"),
        "medium": _("Medium"),
        "hard": _("Hard"),
        "expert": _("Expert"),
    }


def bot_label(kind: str, lang: str) -> str:
    """A bot kind or level in ``lang`` ("Medium"); an unknown one as it is."""
    return bot_labels(lang).get(kind, kind)


def bot_name(kind: str, seat: int, lang: str) -> str:
    """A bot at ``seat`` (from 0) as the table calls it: "Medium 2", 普通電腦 2."""
    _ = translations(lang).gettext
    return _("{bot} {n}").format(bot=bot_label(kind, lang), n=seat + 1)


def seat_name(
    seat: int,
    lang: str,
    *,
    name: str | None = None,
    bot: str | None = None,
    bot_account: bool = False,
) -> str:
    """What the table calls ``seat`` (from 0).

    A bot by its level and seat number ("Medium 2"), a person by ``name``, a bot account
    by its name marked ("BOT ana"), and a seat with neither as "Seat 3".
    """
    if bot is not None:
        return bot_name(bot, seat, lang)
    if name and bot_account:
        return translations(lang).gettext("BOT {name}").format(name=name)
    if name:
        return name
    return translations(lang).gettext("Seat {n}").format(n=seat + 1)


def player_names(seats: Sequence[str], lang: str) -> list[str]:
    """The terminal's name for each seat kind: "Player 1 (you)", "Medium 2", ...

    People (``you``) are "Player N", "(you)" added when only one plays at the terminal.
    """
    _ = translations(lang).gettext
    humans = sum(1 for s in seats if s == HUMAN)
    names = []
    for q, kind in enumerate(seats):
        if kind == HUMAN:
            fmt = _("Player {n} (you)") if humans == 1 else _("Player {n}")
            names.append(fmt.format(n=q + 1))
        else:
            names.append(bot_name(kind, q, lang))
    return names
