"""Server settings from environment variables: ``CLOSINGBELL_`` and the setting's name.

Every field of :class:`~closingbell.server.settings.Settings` may be given by the variable
``CLOSINGBELL_<FIELD>`` (``CLOSINGBELL_BOT_DELAY=0.2``), its text read by the field's type:
a number, ``true``/``false`` (also ``1``/``0``, ``yes``/``no``, ``on``/``off``), or a
comma-separated list (``allowed_origins``). A variable set to nothing counts as not set.
``closingbell serve`` reads them under its command-line options (docs/web.md); a server
made with ``create_app`` reads them only when given :func:`settings_from_environment`.
"""

from __future__ import annotations

import dataclasses
import math
import os
import types
import typing
from collections.abc import Mapping
from typing import Any

from closingbell.server.origins import normalize_origin
from closingbell.server.settings import Settings

PREFIX = "CLOSINGBELL_"
"""What every variable of the server's begins with."""

TRUE = frozenset({"true", "1", "yes", "on"})
"""The words for true (in any case)."""
FALSE = frozenset({"false", "0", "no", "off"})
"""The words for false (in any case)."""

SHOWN_CHARS = 40
"""The longest part of a malformed value repeated in the error about it."""


class EnvironmentValueError(ValueError):
    """An environment variable whose value the server cannot use; the message names it."""

    def __init__(self, variable: str, value: str, reason: str) -> None:
        shown = value if len(value) <= SHOWN_CHARS else value[:SHOWN_CHARS] + "..."
        super().__init__(f"environment variable {variable}={shown!r}: {reason}")
        self.variable = variable
        """The variable's name."""
        self.reason = reason
        """What is wrong with its value."""


def variable(name: str) -> str:
    """The environment variable of the setting or option ``name`` (``CLOSINGBELL_BOT_DELAY``)."""
    return PREFIX + name.upper()


def parse_as(kind: Any, text: str) -> Any:
    """``text`` read as a value of type ``kind``; raises ``ValueError`` saying what it must be.

    The types of the settings: ``bool``, ``int``, ``float``, ``str``, ``X | None`` (read
    as ``X``) and ``tuple[X, ...]`` (comma-separated, blanks around items dropped).
    """
    text = text.strip()
    if kind is bool:
        word = text.lower()
        if word in TRUE:
            return True
        if word in FALSE:
            return False
        raise ValueError("must be true or false (or 1/0, yes/no, on/off)")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError("must be a whole number") from None
    if kind is float:
        try:
            number = float(text)
        except ValueError:
            raise ValueError("must be a number") from None
        if math.isnan(number):
            raise ValueError("must be a number")
        return number
    if kind is str:
        return text
    args = typing.get_args(kind)
    if isinstance(kind, types.UnionType) and type(None) in args:
        (inner,) = (a for a in args if a is not type(None))
        return parse_as(inner, text)
    if typing.get_origin(kind) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return tuple(parse_as(args[0], item) for item in text.split(",") if item.strip())
    raise TypeError(f"no way to read a {kind!r} from the environment")


def read(environ: Mapping[str, str], name: str, kind: Any) -> tuple[bool, Any]:
    """Whether the variable of ``name`` is set (to something), and its value read as ``kind``.

    Raises :class:`EnvironmentValueError` for a value that is not of that type.
    """
    key = variable(name)
    text = environ.get(key, "")
    if not text.strip():
        return False, None
    try:
        return True, parse_as(kind, text)
    except ValueError as exc:
        raise EnvironmentValueError(key, text, str(exc)) from None


def settings_from_environment(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The settings the environment (``os.environ`` by default) gives, by field name.

    Pass them on as changes: ``create_app(url, **settings_from_environment())``. Raises
    :class:`EnvironmentValueError` for a malformed value, a negative number (no setting
    takes one) or an origin that is not one.
    """
    environ = os.environ if environ is None else environ
    kinds = typing.get_type_hints(Settings)
    out: dict[str, Any] = {}
    for field in dataclasses.fields(Settings):
        kind = kinds[field.name]
        given, value = read(environ, field.name, kind)
        if not given:
            continue
        key = variable(field.name)
        if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
            raise EnvironmentValueError(key, environ[key], "must be 0 or more")
        if field.name == "allowed_origins":
            try:
                value = tuple(normalize_origin(o) for o in value)
            except ValueError as exc:
                raise EnvironmentValueError(key, environ[key], str(exc)) from None
        out[field.name] = value
    return out
