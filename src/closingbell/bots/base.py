"""What every bot is: something that, given one seat's view, returns one of its legal actions.

A bot never receives a state. It is built from the game (options only, no cards) and a
seed, and :meth:`Bot.choose` gets a :class:`~closingbell.core.view.View`, the same gate
every front end uses, so a bot cannot read another seat's hand: it never holds anything
that contains it. Search bots make possible worlds with ``game.sample_state(view, rng)``.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod

from closingbell.core.game import Game
from closingbell.core.view import View
from closingbell.native import ENGINES


def legal_of(view: View) -> tuple[int, ...]:
    """The legal actions a view offers its seat (raises if it is not that seat's turn)."""
    legal: tuple[int, ...] = getattr(view, "legal_actions", ())
    if not legal:
        raise ValueError("this view has no decision to take (not this seat's turn, or game over)")
    return legal


def seed_text(name: str, seed: int) -> str:
    """The text a bot of kind ``name`` seeds its generator with (``random.Random(text)``)."""
    return f"bot/{name}/{seed}"


class Bot(ABC):
    """A player that chooses actions from views.

    ``engine`` says where a bot with compiled code computes (:mod:`closingbell.native`):
    ``auto`` (compiled where it is built), ``native`` (compiled, or an error) or
    ``reference`` (Python). A bot makes the same choices on every engine; one with nothing
    compiled (such as :class:`RandomBot`) takes the keyword and plays as always.
    """

    name: str = "bot"
    """The bot's kind, as ``make_bot`` names it."""
    searches: bool = False
    """Whether :meth:`choose` searches for up to a time budget (front ends show it thinking
    and keep it off their event loop) rather than answering at once."""

    def __init__(self, game: Game, seed: int = 0, *, engine: str = "auto") -> None:
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
        self.game = game
        """The game being played (its rules and options; no cards)."""
        self.seed = seed
        """The seed of the bot's own random choices."""
        self.rng = random.Random(seed_text(self.name, seed))
        """The bot's generator; its choices depend only on the seed and the views."""

    @abstractmethod
    def choose(self, view: View) -> int:
        """Return one of ``view.legal_actions``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, view: View) -> int:
        """A uniformly random legal action."""
        return self.rng.choice(legal_of(view))


class HeuristicBot(Bot):
    """A rule-based player; ``epsilon`` is the share of moves it makes at random instead.

    ``engine`` (see :class:`Bot`) says who computes its choices where the game's rule-based
    bot has a compiled version.
    """

    name = "heuristic"

    def __init__(
        self, game: Game, seed: int = 0, *, epsilon: float = 0.0, engine: str = "auto"
    ) -> None:
        super().__init__(game, seed, engine=engine)
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, not {epsilon!r}")
        self.epsilon = epsilon
        """The probability of a random move instead of the rule-based one."""

    def choose(self, view: View) -> int:
        """The rule-based choice (or, with probability ``epsilon``, a random one)."""
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        if self.epsilon and self.rng.random() < self.epsilon:
            return self.rng.choice(legal)
        return self.pick(view, legal)

    @abstractmethod
    def pick(self, view: View, legal: tuple[int, ...]) -> int:
        """The rule-based choice among ``legal`` (more than one action)."""

    def compiled_procedure(self) -> object | None:
        """The compiled decision procedure this bot hands ``pick`` to, or ``None``.

        A search bot gives it to its game's compiled play-out (:mod:`closingbell.native`),
        which makes the same choices from the compiled state without building views. The
        rule-based bot of each game returns its compiled procedure when it uses one.
        """
        return None

    def evaluate(self, view: View) -> float:
        """How well the view's seat stands against its opponents (higher is better).

        Search bots use it to score positions; a game's bot that cannot judge a position
        outside its own decisions does not provide it.
        """
        raise NotImplementedError(f"{type(self).__name__} does not evaluate positions")


HEURISTICS: dict[str, str] = {
    "take_stock": "closingbell.bots.take_stock:TakeStockHeuristic",
    "card_stock_market": "closingbell.bots.card_stock_market:CardStockMarketHeuristic",
}
"""The rule-based bot of each game, as ``module:Class``."""


def heuristic_class(game: Game) -> type[HeuristicBot]:
    """The rule-based bot class written for ``game``."""
    target = HEURISTICS.get(game.info.name)
    if target is None:
        raise ValueError(f"no heuristic bot is written for {game.info.name!r}")
    module, _, attr = target.partition(":")
    cls: type[HeuristicBot] = getattr(importlib.import_module(module), attr)
    return cls
