"""``closingbell play``: a game at the terminal, new or resumed, played to its end or saved.

The rooms of the terminal game: :mod:`~closingbell.tui.starting` sets a game up,
:mod:`~closingbell.tui.session` plays it (with :mod:`~closingbell.tui.reading` for what the
players type, :mod:`~closingbell.tui.hints` for the hint panel and
:mod:`~closingbell.tui.saving` for the record file), and :mod:`~closingbell.tui.signals`
saves it when the terminal goes away.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text

from closingbell.text.i18n import translations
from closingbell.tui.reading import LineReader
from closingbell.tui.session import Session
from closingbell.tui.signals import hangup_handlers
from closingbell.tui.starting import (
    EXIT_USAGE,
    SetupError,
    new_session,
    open_session,
    read_position_argument,
    resumed_session,
)

__all__ = ["play"]


def play(
    *,
    game_name: str = "take_stock",
    seats: str | None = None,
    seed: int | None = None,
    lang: str = "en",
    resume: str | None = None,
    save: str | None = None,
    pace: float = 0.0,
    console: Console | None = None,
    read_line: LineReader | None = None,
    game_given: bool = False,
    program: str = "closingbell",
    options: dict[str, Any] | None = None,
    position: str | None = None,
) -> int:
    """Start (or resume) a game at the terminal and play it; return the exit code.

    ``program`` is how closingbell is run from the user's shell (``.venv/bin/closingbell``),
    for the hint on resuming a saved game. ``options`` are rules options (the player count
    is the number of seats); ``position`` is a position's text, or ``@FILE`` for a file
    holding one: the game starts from it (docs/positions.md).
    """
    tr = translations(lang)
    _ = tr.gettext
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        if resume is not None:
            if seats is not None or seed is not None or game_given or options or position:
                raise SetupError(
                    _(
                        "--resume goes on with the saved game: leave out --game, --seats, "
                        "--seed, --option and --position"
                    )
                )
            game, state, seat_kinds, seed, path, start, hinted = resumed_session(
                resume=resume, tr=tr, save=save
            )
        else:
            hinted = False
            game, state, seat_kinds, seed, path, start = new_session(
                game_name=game_name,
                seats_text=seats if seats is not None else "you,medium,medium",
                seed=seed,
                lang=lang,
                save=save,
                options=options,
                position=None if position is None else read_position_argument(position, tr),
            )
        session = open_session(
            Session,
            game=game,
            seats=seat_kinds,
            lang=lang,
            tr=tr,
            console=console,
            read_line=read_line,
            path=path,
            state=state,
            seed=seed,
            pace=pace,
            resumed=resume is not None,
            program=program,
            position=start,
            hinted=hinted,
        )
    except SetupError as exc:
        err.print(Text(_("closingbell play: {message}").format(message=str(exc))))
        return EXIT_USAGE
    with hangup_handlers():
        return session.run()
