"""The game-agnostic protocol every closingbell game implements.

A :class:`Game` is a set of rules with fixed options; it makes :class:`State` objects.
A state names who must decide (:attr:`State.current_player`) and the legal choices for
that one decision (:meth:`State.legal_actions`), as sorted integer ids. Text forms of
actions round-trip through :meth:`Game.action_to_string` and :meth:`Game.string_to_action`.
Everything a front end, bot or learning agent may know of a state goes through
:meth:`State.view`; everything else stays inside the state.
"""

from __future__ import annotations

import json
import numbers
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from closingbell.core.errors import IllegalActionError
from closingbell.core.options import RulesOptions
from closingbell.core.view import View


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


class Game(ABC):
    """A game with fixed options: the factory of its states."""

    info: GameInfo
    """The game's metadata."""
    options: RulesOptions
    """The validated rules options, the player count among them."""

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.options.players

    @abstractmethod
    def new_game(self, seed: int) -> State:
        """Deal a new game whose every shuffle follows from ``seed``."""

    @abstractmethod
    def state_from_json(self, text: str) -> State:
        """Read back a state written by :meth:`State.to_json` (raises ``StateFormatError``)."""

    @abstractmethod
    def sample_state(self, view: View, rng: random.Random) -> State:
        """Return a full state that gives ``view`` to its seat, hidden parts drawn by ``rng``."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """Return the text form of an action id (raises ``NotationError`` if out of range)."""

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse a text form back into its action id (raises ``NotationError``)."""

    def options_dict(self) -> dict[str, Any]:
        """Return the options as a JSON-ready dict."""
        return self.options.to_dict()

    def __repr__(self) -> str:
        return f"load_game({self.info.name!r}, **{self.options_dict()!r})"


class State(ABC):
    """One position of a game: who decides, what they may choose, and how to go on."""

    __slots__ = ()

    game: Game
    """The game this state belongs to."""
    history: list[int]
    """The actions applied since the game was dealt, in order."""
    seed: int
    """The seed every shuffle of this game is derived from (a sampled state has a fresh one)."""

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat that must decide now; ``None`` once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The sorted action ids legal for the pending decision (empty when over)."""

    @abstractmethod
    def apply(self, action: int) -> None:
        """Apply a legal action; an illegal one raises ``IllegalActionError``, changing nothing."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score so far (final once the game is over)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The seats in first place (several when they share it)."""

    @abstractmethod
    def clone(self) -> State:
        """Return an independent copy."""

    @abstractmethod
    def view(self, player: int | None) -> View:
        """What ``player`` may see (``None``: a spectator, who sees only public things)."""

    @abstractmethod
    def visible_events(self, player: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The log of what happened from entry ``start`` on, as ``player`` may read it."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The complete state as JSON-ready data."""

    @abstractmethod
    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if any conservation rule or bookkeeping is broken."""

    def to_json(self) -> str:
        """The complete state as JSON text; :meth:`Game.state_from_json` reads it back."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def action_to_string(self, action: int) -> str:
        """The text form of ``action``."""
        return self.game.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """The action id named by ``text``."""
        return self.game.string_to_action(text)

    def apply_string(self, text: str) -> int:
        """Parse ``text``, apply that action and return its id."""
        action = self.game.string_to_action(text)
        self.apply(action)
        return action

    def coerce_action(self, action: object) -> int:
        """Return ``action`` as a plain ``int`` (numpy integers included), or refuse it."""
        if isinstance(action, numbers.Integral) and not isinstance(action, bool):
            return int(action)
        raise self.refuse(action, f"an action must be an integer id, not {type(action).__name__}")

    def refuse(self, action: object, reason: str) -> IllegalActionError:
        """Build the error for an illegal ``action``, naming it when it is a valid id."""
        in_range = (
            isinstance(action, int)
            and not isinstance(action, bool)
            and 0 <= action < self.game.info.num_distinct_actions
        )
        if in_range:
            assert isinstance(action, int)
            shown = f"{self.game.action_to_string(action)!r} ({action})"
        else:
            shown = repr(action)
        return IllegalActionError(f"illegal action {shown}: {reason}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]
