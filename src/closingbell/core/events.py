"""What happened, apart from what was chosen: the event log and who may read each entry.

An entry is ``(seat, full, redacted)``. A public entry has ``seat`` ``None`` and is shown
as ``full`` to everyone. A private entry is shown as ``full`` to ``seat`` only, and as
``redacted`` (or not at all, when ``redacted`` is ``None``) to everyone else. Entries are
plain tuples ``(kind, *values)`` so that logging costs little inside the engine; each game
names the fields of every kind so that the log can be read as dicts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Entry = tuple[int | None, tuple[Any, ...], tuple[Any, ...] | None]
"""One log entry: ``(seat or None, full form, redacted form or None)``."""


def visible_entries(
    log: Sequence[Entry], seat: int | None, start: int = 0
) -> list[tuple[Any, ...]]:
    """Return the forms of ``log[start:]`` that ``seat`` may read (``None``: a spectator)."""
    out: list[tuple[Any, ...]] = []
    for owner, full, redacted in log[start:]:
        if owner is None or owner == seat:
            out.append(full)
        elif redacted is not None:
            out.append(redacted)
    return out


def entry_to_dict(form: tuple[Any, ...], fields: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    """Name the values of one log form with the field names the game gave its kind."""
    kind = form[0]
    names = fields[kind]
    out: dict[str, Any] = {"type": kind}
    for name, value in zip(names, form[1:], strict=True):
        out[name] = _listify(value)
    return out


def _listify(value: Any) -> Any:
    """Tuples become lists at every depth, so a form reads the same as its JSON."""
    if isinstance(value, tuple):
        return [_listify(v) for v in value]
    return value
