"""Views: what one seat may see, as frozen, JSON-ready data."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, TypeVar

from closingbell.core.errors import ViewFormatError

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


_HINTS: dict[type, dict[str, Any]] = {}
"""Each dataclass's resolved field types, looked up once."""


def from_jsonable(cls: type[_D], data: Any) -> _D:
    """Rebuild the frozen dataclass ``cls`` from :func:`to_jsonable`'s data.

    Made for views: fields typed ``int``, ``str``, ``bool``, ``float``, ``None``, unions of
    them, tuples (``tuple[int, ...]``, ``tuple[int, str]``) and nested dataclasses. Raises
    :class:`~closingbell.core.errors.ViewFormatError` naming the first field that does not
    fit (a missing or unknown field, a wrong type), so that a client reading a server's
    message learns what is wrong.
    """
    made: _D = _read(cls, data, cls.__name__)
    return made


def _read(kind: Any, data: Any, where: str) -> Any:
    """``data`` as a value of the type ``kind`` (see :func:`from_jsonable`)."""
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(data, dict):
            raise ViewFormatError(f"{where}: an object was expected, not {_kind_of(data)}")
        hints = _HINTS.get(kind)
        if hints is None:
            hints = typing.get_type_hints(kind)
            _HINTS[kind] = hints
        names = [f.name for f in dataclasses.fields(kind)]
        missing = [n for n in names if n not in data]
        extra = sorted(set(data) - set(names))
        if missing or extra:
            raise ViewFormatError(f"{where}: fields missing {missing}, unknown {extra}")
        fields = {n: _read(hints[n], data[n], f"{where}.{n}") for n in names}
        return build(kind, **fields)
    origin = typing.get_origin(kind)
    if origin is typing.Union or origin is types.UnionType:
        for option in typing.get_args(kind):
            try:
                return _read(option, data, where)
            except ViewFormatError:
                continue
        raise ViewFormatError(f"{where}: {_kind_of(data)} is none of {kind}")
    if origin is tuple:
        if not isinstance(data, list):
            raise ViewFormatError(f"{where}: a list was expected, not {_kind_of(data)}")
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise ViewFormatError(f"{where}: {len(args)} items were expected, not {len(data)}")
        return tuple(
            _read(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True))
        )
    if kind is type(None) or kind is None:
        if data is not None:
            raise ViewFormatError(f"{where}: null was expected, not {_kind_of(data)}")
        return None
    if kind is bool:
        if type(data) is not bool:
            raise ViewFormatError(f"{where}: true or false was expected, not {_kind_of(data)}")
        return data
    if kind is int:
        if type(data) is not int:
            raise ViewFormatError(f"{where}: a whole number was expected, not {_kind_of(data)}")
        return data
    if kind is float:
        if type(data) not in (int, float):
            raise ViewFormatError(f"{where}: a number was expected, not {_kind_of(data)}")
        return float(data)
    if kind is str:
        if not isinstance(data, str):
            raise ViewFormatError(f"{where}: text was expected, not {_kind_of(data)}")
        return data
    raise TypeError(f"{where}: views hold no field of type {kind!r}")


def _kind_of(data: Any) -> str:
    """What a JSON value is, in words."""
    names = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}
    names.update({list: "a list", dict: "an object", type(None): "null"})
    return names.get(type(data), type(data).__name__)
