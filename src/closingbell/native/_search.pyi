"""Type stub of the compiled ``closingbell.native._search`` (see ``_search.pyx``)."""

from collections.abc import Sequence

class PairedStats:
    """Every candidate's reward in every world so far, and each one's lead over the first."""

    def __init__(self, candidates: int) -> None: ...
    @property
    def worlds(self) -> int:
        """Worlds recorded so far."""

    def add(self, results: Sequence[float]) -> None:
        """Record one world's rewards, one float per candidate."""

    def lead(self, i: int) -> tuple[float, float]:
        """Candidate ``i``'s mean lead over the first one, and its standard error."""

    def settled(self, z: float) -> bool:
        """Whether every candidate's lead over the first is settled."""
