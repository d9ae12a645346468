"""Bot specs: a bot's name with its settings in one string, such as ``ismcts:iterations=200``.

A spec is ``NAME[:KEY=VALUE]...``. ``NAME`` is anything :func:`closingbell.make_bot`
accepts; each value is read as a bool (``true``/``false``), ``none``, an int, a float, or
else kept as text. The spec string itself, as written, names the bot in results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import closingbell
from closingbell.bots import Bot
from closingbell.core.errors import ClosingbellError
from closingbell.core.game import Game


class SimulationError(ClosingbellError, ValueError):
    """Settings of a match or tournament that cannot be run (a bad spec, seat count or file)."""


def parse_value(text: str) -> Any:
    """A setting's value: bool, ``None``, int, float, or the text itself."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@dataclass(frozen=True)
class BotSpec:
    """A bot kind (or level) and its settings, named by the spec string it was read from."""

    text: str
    """The spec as written; the bot's name in results."""
    kind: str
    """The name given to ``make_bot``."""
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    """The settings passed to ``make_bot`` as keywords."""

    def make(self, game: Game, seed: int, engine: str = "auto") -> Bot:
        """A fresh bot of this spec for ``game`` with its own ``seed``.

        ``engine`` is the bot's engine (``closingbell.native``) unless the spec sets one.
        """
        params = {"engine": engine, **self.params}
        return closingbell.make_bot(self.kind, game, seed=seed, **params)


def parse_spec(text: str) -> BotSpec:
    """Read ``NAME[:KEY=VALUE]...`` (raises :class:`SimulationError` if malformed or unknown)."""
    spec = text.strip()
    name, *parts = spec.split(":")
    name = name.strip()
    if not name:
        raise SimulationError(f"bad bot spec {text!r}: it must start with a bot name")
    if name not in closingbell.available_bots():
        known = ", ".join(closingbell.available_bots())
        raise SimulationError(f"unknown bot {name!r} in {text!r} (known bots: {known})")
    params: dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise SimulationError(
                f"bad bot spec {text!r}: {part!r} is not a setting (write KEY=VALUE, "
                "as in 'ismcts:iterations=200:c=0.7')"
            )
        if key in params:
            raise SimulationError(f"bad bot spec {text!r}: setting {key!r} is given twice")
        params[key] = parse_value(value.strip())
    return BotSpec(spec, name, params)


def check_spec(spec: BotSpec, game: Game) -> None:
    """Raise :class:`SimulationError` unless ``spec`` makes a bot for ``game``."""
    try:
        spec.make(game, 0)
    except (ValueError, TypeError, ImportError) as exc:
        raise SimulationError(f"bot {spec.text!r} cannot play {game.info.name}: {exc}") from None
