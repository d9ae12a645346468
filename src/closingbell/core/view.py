"""Views: what one seat may see, as frozen, JSON-ready data."""

from __future__ import annotations

import dataclasses
from typing import Any


def to_jsonable(value: Any) -> Any:
    """Turn dataclasses, tuples and mappings into plain JSON-ready values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


@dataclasses.dataclass(frozen=True)
class View:
    """Base of every game's view: a frozen snapshot of what one seat may see."""

    game: str
    """The registered name of the game."""
    seat: int | None
    """The seat this view belongs to; ``None`` for a spectator."""

    def to_dict(self) -> dict[str, Any]:
        """Return the view as a JSON-ready dict."""
        out = to_jsonable(self)
        assert isinstance(out, dict)
        return out
