"""Errors raised by closingbell: each one says what was wrong and changes nothing."""

from __future__ import annotations


class ClosingbellError(Exception):
    """Base class of every error closingbell raises on purpose."""


class IllegalActionError(ClosingbellError, ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class NotationError(ClosingbellError, ValueError):
    """Text that does not name any action of the game."""


class OptionError(ClosingbellError, ValueError):
    """A rules option that is unknown or has a value the game does not accept."""


class RulesVersionError(ClosingbellError, ValueError):
    """A game saved under a rules version this closingbell does not read."""


class StateFormatError(ClosingbellError, ValueError):
    """A serialized state or view that cannot be read back."""


class PositionError(StateFormatError):
    """A position's text (see ``docs/positions.md``) that is malformed or impossible."""

    def __init__(self, field: str | None, reason: str) -> None:
        where = f"position field {field!r}" if field is not None else "position"
        super().__init__(f"{where}: {reason}")
        self.field = field
        """The field at fault (``None`` when the text as a whole is wrong)."""
        self.reason = reason
        """What is wrong, without the field's name."""


class ViewFormatError(ClosingbellError, ValueError):
    """Data that is not a view of the game as ``View.to_dict`` writes it; says where."""


class RecordError(ClosingbellError, ValueError):
    """A game record that is malformed or holds an action that cannot be replayed."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line
        """The 1-based line of the record file at fault, when there is one."""
        self.reason = message
        """What is wrong, without the line number."""


class UnknownGameError(ClosingbellError, KeyError):
    """A game name that is not registered."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"
