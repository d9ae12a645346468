"""A request for a new table, checked: its game and options, its seats, its first position."""

from __future__ import annotations

import logging
import secrets

from closingbell.core.errors import OptionError, PositionError, UnknownGameError
from closingbell.core.game import Game, State
from closingbell.core.position import MAX_POSITION_CHARS, names_field
from closingbell.core.registry import game_class
from closingbell.server.errors import WebError
from closingbell.server.logs import TABLES_LOG
from closingbell.server.protocol import CreateTable, ErrorCode
from closingbell.server.store import SeatRow

log = logging.getLogger(TABLES_LOG)


def make_game(request: CreateTable) -> Game:
    """The game a create request asks for, its options checked by the game's options class."""
    try:
        cls = game_class(request.game)
    except UnknownGameError as exc:
        raise WebError(ErrorCode.UNKNOWN_GAME, str(exc), 422) from None
    players = len(request.seats)
    info = cls.info
    if not info.min_players <= players <= info.max_players:
        raise WebError(
            ErrorCode.BAD_SEATS,
            f"{info.title} takes {info.min_players} to {info.max_players} seats, not {players}",
            422,
        )
    options = dict(request.options)
    if options.get("players", players) != players:
        raise WebError(ErrorCode.BAD_OPTIONS, "option 'players' must be the number of seats", 422)
    options["players"] = players
    try:
        return cls(**options)
    except (OptionError, TypeError, ValueError) as exc:
        raise WebError(ErrorCode.BAD_OPTIONS, str(exc), 422) from None


def check_practice_seats(seats: list[SeatRow]) -> None:
    """Refuse seats other than a practice table's: one open seat, bots in the others.

    Whoever writes a position knows every hidden card in it, so a table started from one
    is for practice against bots only: no second person could play it fairly.
    """
    people = sum(s.kind == "open" for s in seats)
    if people != 1:
        raise WebError(
            ErrorCode.BAD_SEATS,
            "a table started from a position is a practice table: one open seat for a "
            f"person and bots in the others, not {people} open seats",
            422,
        )


def read_position(game: Game, text: str) -> tuple[State, str]:
    """The state a position's text makes, and its canonical text; raise ``bad_position``.

    The state is made from the canonical text, as a restart will make it. A position that
    names no seed is given a random one, as a deal is.
    """
    reader = game.state_from_position
    if len(text) <= MAX_POSITION_CHARS and not names_field(text, "seed"):
        # Later shuffles (and a short position's unnamed cards) follow from the seed: a
        # position that names none gets a fresh one, so that nobody can foresee its draws.
        text = f"seed: {secrets.randbits(63)}\n{text}"
    try:
        first = reader(text)
        canonical = str(first.to_position())
        state = reader(canonical)
    except PositionError as exc:
        raise bad_position(exc.field, exc.reason) from None
    except Exception:  # a reader's bug must not become a 500 for a typed position
        log.exception("a position could not be read")
        raise bad_position(
            None, "the position could not be read (the server's log says why)"
        ) from None
    if not isinstance(state, State):
        raise bad_position(None, "the position made no state of the game")
    if state.is_terminal():
        raise bad_position(None, "the game is over in this position: there is nothing to play")
    return state, canonical


def bad_position(field: str | None, reason: str) -> WebError:
    """The ``bad_position`` error: the field that is wrong (``None``: the whole), and why."""
    where = "position" if field is None else f"position field {field!r}"
    return WebError(
        ErrorCode.BAD_POSITION,
        f"{where}: {reason}",
        422,
        {"field": field, "reason": reason},
    )
