"""Type stub of the compiled ``closingbell.native._serial`` (see ``_serial.pyx``)."""

from collections.abc import Mapping, Sequence

from closingbell.core.events import Entry
from closingbell.core.game import State
from closingbell.core.serial import ValueCheck

class StateWriter:
    """The JSON writer of one state class's reference states."""

    def __init__(self, state_class: type[State]) -> None: ...
    def write(self, state: State) -> str | None:
        """``state_json(state)``, or ``None`` where it holds what only the plain code writes."""

class LogReader:
    """The reader of one state class's log from JSON text."""

    def __init__(
        self,
        fields: Mapping[str, Sequence[str]],
        values: Mapping[str, Sequence[ValueCheck]],
        watched: str | None = None,
    ) -> None: ...
    def read_text(self, text: str, players: int) -> list[Entry] | None:
        """The entries of the log written as ``text`` for ``players`` seats, or ``None``."""
