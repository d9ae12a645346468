"""The facts about a game that do not depend on its options (:class:`GameInfo`).

They sit below :mod:`closingbell.core.game` because the services a game uses (the
serialized form in :mod:`closingbell.core.serial`, the replay in
:mod:`closingbell.core.replay`) ask a game for them too, without knowing the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GameInfo:
    """Facts about a game that do not depend on its options."""

    name: str
    """The registered name, as given to ``load_game``."""
    title: str
    """The game's title for people."""
    min_players: int
    """The fewest seats the game allows."""
    max_players: int
    """The most seats the game allows."""
    num_distinct_actions: int
    """Action ids run from 0 to this number minus one."""
    version: int
    """Bumped whenever a rules change would make old records replay differently."""
    older_versions: Mapping[int, Mapping[str, Any]] = field(default_factory=dict, hash=False)
    """The older rules versions that are still read, each with the options it played by
    without having them, as values of today's options (see ``Game.for_version``).

    A version is listed here when its rules are today's rules with some options set; a
    version whose rules cannot be expressed that way is not listed and its games are
    refused. Each entry names every option added since that version, so that a later
    change of a default does not change how its games replay.
    """
