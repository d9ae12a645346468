"""What chooses a remote seat's actions: one of closingbell's bots, or any Python function.

An *agent* is a function ``choose(view) -> action`` over the seat's view (the game's view
class, as ``Game.view_from_dict`` reads it from the server's ``state`` message); its
answer must be one of ``view.legal_actions``. A bot level plays through the same door.
"""

from __future__ import annotations

import importlib
import importlib.util
import operator
import sys
from collections.abc import Callable
from pathlib import Path

from closingbell.bots import available_bots, make_bot
from closingbell.core.game import Game
from closingbell.core.view import View

Choose = Callable[[View], int]
"""An agent: the seat's view in, one of its legal actions out."""

MakeChooser = Callable[[Game, int], Choose]
"""What makes a table's chooser from its game and a seed (one per table, kept while it lasts)."""


class AgentError(ValueError):
    """An agent that cannot be loaded or that answered with something other than a legal action."""


def bot_chooser(level: str) -> MakeChooser:
    """Choosers that are closingbell's bot ``level`` (one bot per table, seeded per table)."""
    if level not in available_bots():
        known = ", ".join(available_bots())
        raise AgentError(f"no bot is called {level!r}: choose one of {known}")

    def make(game: Game, seed: int) -> Choose:
        return make_bot(level, game, seed).choose

    return make


def load_agent(spec: str) -> MakeChooser:
    """The function that ``spec`` names, as ``MODULE:FUNC`` or ``path/to/file.py:FUNC``.

    Raises :class:`AgentError` saying what is wrong: no colon, no such module or file, no
    such name in it, or a name that is not callable.
    """
    where, colon, name = spec.rpartition(":")
    if not colon or not where or not name:
        raise AgentError(f"name the agent as MODULE:FUNC or FILE.py:FUNC, not {spec!r}")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise AgentError(f"no file {where!r}")
        module_name = f"closingbell_agent_{path.stem}"
        found = importlib.util.spec_from_file_location(module_name, path)
        if found is None or found.loader is None:
            raise AgentError(f"{where!r} cannot be loaded as Python")
        module = importlib.util.module_from_spec(found)
        sys.modules[module_name] = module
        found.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise AgentError(f"no module {where!r}: {exc}") from None
    function = getattr(module, name, None)
    if function is None:
        raise AgentError(f"{where!r} has no {name!r}")
    if not callable(function):
        raise AgentError(f"{where}:{name} is not a function")

    def make(game: Game, seed: int) -> Choose:
        return function  # type: ignore[no-any-return]

    return make


def checked(choose: Choose, view: View) -> int:
    """``choose(view)``, refused with :class:`AgentError` unless one of the legal actions."""
    legal = tuple(getattr(view, "legal_actions", ()))
    action = choose(view)
    try:
        number = None if isinstance(action, bool) else operator.index(action)
    except TypeError:
        number = None
    if number is None or number not in legal:
        raise AgentError(f"the agent chose {action!r}, not one of the legal actions {legal}")
    return number
