"""Starting a game at the terminal: new, or read back from its record, and its session.

A new game comes from the command line's choices, a saved one from its record file; either
is played by a session that :func:`open_session` makes (for ``closingbell play`` and
``closingbell learn`` alike).
"""

from __future__ import annotations

import gettext
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console

from closingbell.bots import available_bots
from closingbell.core.errors import OptionError, PositionError, RecordError
from closingbell.core.game import Game, State
from closingbell.core.position import MAX_POSITION_CHARS
from closingbell.core.records import GameRecord, replay
from closingbell.core.registry import available_games, game_class, load_game
from closingbell.text.i18n import translations
from closingbell.text.names import HUMAN, game_title, player_names
from closingbell.tui.reading import LineReader, console_reader
from closingbell.tui.saving import default_record_path
from closingbell.tui.screens import screen_class
from closingbell.tui.session import Session

EXIT_USAGE = 2
"""The exit code for a command that cannot start (bad arguments, unreadable record)."""


class SetupError(Exception):
    """A game that cannot start; the message is already in the user's language."""


S = TypeVar("S", bound=Session)


def parse_seats(text: str, tr: gettext.NullTranslations) -> list[str]:
    """The seat kinds of ``--seats``; raises ``SetupError`` for an unknown kind."""
    _ = tr.gettext
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    known = available_bots()
    for s in seats:
        if s != HUMAN and s not in known:
            raise SetupError(
                _("unknown seat “{seat}”: use “you” or a bot ({bots})").format(
                    seat=s, bots=", ".join(known)
                )
            )
    return seats


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def read_position_argument(text: str, tr: gettext.NullTranslations) -> str:
    """The position ``--position`` gives: its text, or with ``@FILE`` the file's (UTF-8).

    Raises ``SetupError`` for a file that cannot be read or is longer than a position may be.
    """
    _ = tr.gettext
    if not text.startswith("@"):
        return text
    path = text[1:]
    try:
        with open(path, encoding="utf-8") as file:
            content = file.read(MAX_POSITION_CHARS + 1)
    except OSError as exc:
        raise SetupError(
            _("cannot read {path}: {reason}").format(path=path, reason=exc.strerror or exc)
        ) from None
    except UnicodeDecodeError as exc:
        raise SetupError(
            _("cannot read {path}: {reason}").format(path=path, reason=f"not UTF-8 ({exc.reason})")
        ) from None
    if len(content) > MAX_POSITION_CHARS:
        raise SetupError(
            _("{path} is longer than a position may be ({n} characters)").format(
                path=path, n=MAX_POSITION_CHARS
            )
        )
    return content.removeprefix("\ufeff")


def position_refused(exc: PositionError, tr: gettext.NullTranslations) -> SetupError:
    """The error for a position the game refuses: its field and reason, in the user's words."""
    _ = tr.gettext
    if exc.field is None:
        return SetupError(_("the position is refused: {reason}").format(reason=exc.reason))
    return SetupError(
        _("the position is refused, field “{field}”: {reason}").format(
            field=exc.field, reason=exc.reason
        )
    )


def new_session(
    *,
    game_name: str,
    seats_text: str,
    seed: int | None,
    lang: str,
    save: str | None,
    options: dict[str, Any] | None = None,
    position: str | None = None,
) -> tuple[Game, State, list[str], int, Path, str | None]:
    """Set up a new game from the command line's choices (raises ``SetupError``).

    ``options`` are the rules options besides the player count (the number of seats).
    With ``position`` (its text), the game starts from that position instead of a deal:
    the position's own seed decides later shuffles. Returns the game, its first state, the
    seat kinds, the seed, the record's path and the position's canonical text (or ``None``).
    """
    tr = translations(lang)
    _ = tr.gettext
    if game_name not in available_games():
        raise SetupError(
            _("unknown game “{game}” (known: {games})").format(
                game=game_name, games=", ".join(available_games())
            )
        )
    seats = parse_seats(seats_text, tr)
    info = game_class(game_name).info
    if not info.min_players <= len(seats) <= info.max_players:
        raise SetupError(
            _("{game} needs {low} to {high} seats, not {n}").format(
                game=game_title(game_name, lang),
                low=info.min_players,
                high=info.max_players,
                n=len(seats),
            )
        )
    chosen = dict(options or {})
    if chosen.pop("players", len(seats)) != len(seats):
        raise SetupError(_("the number of players is the number of seats: leave out players"))
    try:
        game = load_game(game_name, players=len(seats), **chosen)
    except (OptionError, TypeError, ValueError) as exc:
        raise SetupError(
            _("bad rules option: {reason}").format(reason=_one_line(str(exc)))
        ) from None
    canonical = None
    if position is None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        state = game.new_game(seed)
    else:
        if seed is not None:
            raise SetupError(
                _("a position names its own seed (its “seed” field): leave out --seed")
            )
        reader = getattr(game, "state_from_position", None)
        if not callable(reader):
            raise SetupError(
                _("{game} has no position notation yet").format(game=game_title(game_name, lang))
            )
        try:
            # Played from its canonical text, as the record replays it.
            canonical = str(reader(position).to_position())
            state = reader(canonical)
        except PositionError as exc:
            raise position_refused(exc, tr) from None
        if state.is_terminal():
            raise SetupError(_("the game is over in this position: there is nothing to play"))
        seed = state.seed
    path = Path(save) if save else default_record_path(game_name, seed)
    return game, state, seats, seed, path, canonical


def resumed_session(
    *, resume: str, tr: gettext.NullTranslations, save: str | None
) -> tuple[Game, State, list[str], int, Path, str | None, bool]:
    """Read the game of a record file back (raises ``SetupError`` naming what is wrong).

    Returns the game, its state, the seat kinds, the seed, the record's path, the position's
    canonical text (or ``None``) and whether a hint was shown.
    """
    _ = tr.gettext
    try:
        record = GameRecord.read(resume)
        state = replay(record)
    except OSError as exc:
        raise SetupError(
            _("cannot read {path}: {reason}").format(path=resume, reason=exc.strerror or exc)
        ) from None
    except (RecordError, ValueError) as exc:
        raise SetupError(
            _("{path} is not a game that can be resumed: {reason}").format(
                path=resume, reason=_one_line(str(exc))
            )
        ) from None
    known = {HUMAN, *available_bots()}
    if not all(s in known for s in record.seats):
        raise SetupError(
            _(
                "{path} was not saved by closingbell play: its seats ({seats}) are not "
                "“you” or bots"
            ).format(path=resume, seats=", ".join(record.seats))
        )
    return (
        state.game,
        state,
        list(record.seats),
        record.seed,
        Path(save or resume),
        record.position,
        record.hinted,
    )


def open_session(
    kind: Callable[..., S],
    *,
    game: Game,
    seats: Sequence[str],
    lang: str,
    tr: gettext.NullTranslations,
    console: Console | None,
    read_line: LineReader | None,
    path: Path,
    **kwargs: Any,
) -> S:
    """The session of class ``kind`` for ``game``, drawn by its screen, saved once already.

    ``console`` and ``read_line`` default to the terminal's; ``kwargs`` are the rest of
    the session's arguments. Raises ``SetupError`` for a game without a terminal screen or
    a record that cannot be written to ``path``.
    """
    _ = tr.gettext
    cls = screen_class(game.info.name)
    if cls is None:
        raise SetupError(
            _("there is no terminal screen for {game} yet").format(
                game=game_title(game.info.name, lang)
            )
        )
    console = console or Console(highlight=False)
    names = player_names(seats, lang)
    session = kind(
        game=game,
        seats=seats,
        screen=cls(game, names, lang),
        tr=tr,
        console=console,
        read_line=read_line or console_reader(console),
        path=path,
        **kwargs,
    )
    try:
        session.save()
    except OSError as exc:
        raise SetupError(
            _("cannot save the game in {path}: {reason}").format(
                path=path, reason=exc.strerror or exc
            )
        ) from None
    return session
