"""Views: what one seat may see, as frozen, JSON-ready data."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

_D = TypeVar("_D")

_SCALARS = (int, str, float, bool, type(None))
"""Values that are JSON-ready as they are."""

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""Each dataclass's field names, looked up once (views are converted often)."""


def build(cls: type[_D], **fields: Any) -> _D:
    """A frozen dataclass ``cls`` holding ``fields``, which must name every field of it.

    The same object as ``cls(**fields)`` for a dataclass without defaults that matter or
    ``__post_init__``, built without the generated ``__init__``'s one ``object.__setattr__``
    per field: a view of some forty fields is built for every decision of a search.
    """
    if fields.keys() != cls.__dataclass_fields__.keys():  # type: ignore[attr-defined]
        missing = cls.__dataclass_fields__.keys() - fields.keys()  # type: ignore[attr-defined]
        extra = fields.keys() - cls.__dataclass_fields__.keys()  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} fields missing {sorted(missing)}, unknown {sorted(extra)}")
    made = object.__new__(cls)
    made.__dict__.update(fields)
    return made


def to_jsonable(value: Any) -> Any:
    """Turn dataclasses, tuples and mappings into plain JSON-ready values."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, (list, tuple)):
        if all(type(v) is int for v in value):
            return list(value)
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    cls = type(value)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            return value
        names = tuple(f.name for f in dataclasses.fields(value))
        _FIELD_NAMES[cls] = names
    return {name: to_jsonable(getattr(value, name)) for name in names}


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
