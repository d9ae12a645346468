"""What each legal action of a decision is worth, judged from the deciding seat's view.

The analysis behind reviews and hints (issue 23's first step): for a view of the seat that
must decide, it deals ``worlds`` possible worlds consistent with that view (the hidden
cards drawn at random, as the search bots deal theirs), plays every legal action in each
of the same worlds, and plays each world on to the game's end with the rule-based bot at
every seat. The same worlds for every action (a paired comparison) make the differences
between actions far surer than their values.

Each action gets its mean final margin (the seat's score minus the best other score) and
its chance of winning (a tie for first shares the win), each with a 95% interval, and its
lead over the best action with that lead's own paired interval. Told the action taken (a
review), it measures that action's lead again over fresh worlds: the best action is the
best of the first worlds, so part of its lead over the others there is their luck, and a
mistake is marked only when both intervals lie below zero. It reads only the view:
the cards hidden from the seat cannot change the analysis (``tests/bots`` checks it), so it
judges the decision, not the luck. A budget is a number of worlds, not seconds, so that an
analysis is the same on every machine for the same seed.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from closingbell.bots.base import Bot, heuristic_class, legal_of
from closingbell.bots.ismcts import _horizon_round, _horizon_stop, _take_stock_values, _Worlds
from closingbell.core.game import Game, State
from closingbell.core.view import View

Z95 = 1.96
"""Standard errors on each side of a mean in a 95% interval (normal approximation)."""

MAX_STEPS = 100_000
"""The most decisions a play-out plays before it stops (a game ends long before)."""


@dataclass(frozen=True)
class Estimate:
    """A mean over the worlds and the half-width of its 95% interval."""

    mean: float
    """The mean over the worlds."""
    half_width: float
    """Half the width of the 95% interval around ``mean``."""

    @property
    def low(self) -> float:
        """The interval's lower end."""
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        """The interval's upper end."""
        return self.mean + self.half_width


@dataclass(frozen=True)
class ActionValue:
    """What one legal action is worth to the deciding seat."""

    action: int
    """The action id."""
    margin: Estimate
    """The seat's final score minus the best other seat's, after this action."""
    win: Estimate
    """The seat's chance of winning after this action (a shared first place counts its share)."""
    behind: Estimate
    """How much less final margin this action gives than the best action, world by world
    (0 for the best action itself)."""


@dataclass(frozen=True)
class DecisionAnalysis:
    """Every legal action of one decision, best first."""

    seat: int
    """The seat that decides."""
    worlds: int
    """How many worlds were dealt."""
    actions: tuple[ActionValue, ...]
    """Every legal action, best first (by mean final margin)."""
    checked: tuple[int, Estimate] | None = None
    """The action taken and its lead over the best action, measured again over fresh worlds,
    when :meth:`Analyst.analyze` was told the action taken and it was not the best."""
    horizon: str = "game"
    """Where the play-outs stopped: ``"game"`` (margins and wins are final) or ``"round"``
    (Take Stock: margins are standings at the round's end, :data:`HORIZONS`)."""

    @property
    def best(self) -> int:
        """The action the analysis prefers."""
        return self.actions[0].action

    def value_of(self, action: int) -> ActionValue:
        """The value of ``action``; ``KeyError`` if it is not legal here."""
        for value in self.actions:
            if value.action == action:
                return value
        raise KeyError(action)

    def is_mistake(self, action: int) -> bool:
        """Whether ``action`` costs clearly more than chance explains.

        It does when the interval of its paired lead over the best action lies wholly
        below zero and, for the action taken that was measured again over fresh worlds
        (:attr:`checked`), when that second interval lies below zero too: the best action is
        the best of the first worlds, so part of its lead there is their luck.
        """
        if self.value_of(action).behind.high >= 0:
            return False
        if self.checked is not None and self.checked[0] == action:
            return self.checked[1].high < 0
        return True


HORIZONS: dict[str, str | None] = {"game": None, "round": "take_stock"}
"""Where an analysis's play-outs may stop, each with the one game it is for (``None``:
every game): at the game's end, or (Take Stock) at the end of
the round the decision is in, where each seat's standing is its total plus its
certificates at that moment's scoring prices and what it keeps for later rounds (the
expert's own measure, :func:`closingbell.bots.ismcts._take_stock_values`). The round's end
is far less noisy than the game's: later rounds' cards cannot blur the decision's effect."""


def _estimate(values: list[float]) -> Estimate:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return Estimate(mean, math.inf)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, Z95 * math.sqrt(var / n))


def outcome(world: State, seat: int) -> tuple[float, float]:
    """The seat's final margin and share of the win in a finished ``world``."""
    scores = [float(s) for s in world.scores()]
    others = [s for p, s in enumerate(scores) if p != seat]
    winners = list(world.winners())
    win = 1.0 / len(winners) if seat in winners else 0.0
    return scores[seat] - max(others), win


def standing(values: list[float], seat: int) -> tuple[float, float]:
    """The seat's margin over the best other seat in ``values``, and its share of the lead."""
    others = [v for q, v in enumerate(values) if q != seat]
    top = max(values)
    leaders = sum(1 for v in values if v == top)
    return values[seat] - max(others), (1.0 / leaders if values[seat] == top else 0.0)


class Analyst:
    """Analyses decisions of one game with a fixed budget of worlds and a seed.

    With ``horizon="round"`` (Take Stock only) the play-outs stop at the end of the round
    and each action's worth is the seat's standing there (:data:`HORIZONS`).
    """

    def __init__(
        self,
        game: Game,
        *,
        worlds: int = 32,
        seed: int = 0,
        engine: str = "auto",
        horizon: str = "game",
    ):
        if worlds < 1:
            raise ValueError(f"an analysis deals at least one world, not {worlds}")
        if horizon not in HORIZONS:
            known = ", ".join(HORIZONS)
            raise ValueError(f"an analysis's horizon is one of {known}, not {horizon!r}")
        if HORIZONS[horizon] not in (None, game.info.name):
            raise ValueError(f"{game.info.name} has no rounds to stop a play-out at")
        self.horizon = horizon
        """Where the play-outs stop (:data:`HORIZONS`)."""
        self.game = game
        """The game, with its options."""
        self.worlds = worlds
        """Worlds dealt per decision."""
        self.seed = seed
        """The seed of the worlds and of the play-outs."""
        cls = heuristic_class(game)
        bot_engine = "reference" if engine == "reference" else "auto"
        policies: list[Bot] = [
            cls(game, seed * 7919 + q, epsilon=0.0, engine=bot_engine) for q in range(game.players)
        ]
        self._worlds = _Worlds(game, engine, policies)
        self._policies = policies

    def _play_out(self, world: State, stop_round: int | None) -> State:
        """Play ``world`` on with the rule-based bot at every seat.

        It stops at the end of round ``stop_round`` when that is given, else at the game's end.
        """
        if self._worlds.playout is not None:
            self._worlds.playout(world, MAX_STEPS, -1 if stop_round is None else stop_round)
            return world
        stop = _horizon_stop(stop_round)
        steps = 0
        while not world.is_terminal() and not stop(world) and steps < MAX_STEPS:
            mover = world.current_player
            assert mover is not None
            world.apply(self._policies[mover].choose(world.view(mover)))
            steps += 1
        return world

    def _after(self, dealt: State, action: int, seat: int) -> tuple[float, float]:
        """``seat``'s margin and share of the win (or of the lead, at a round's end).

        The action is played in a copy of ``dealt``, which is not changed.
        """
        world = dealt.clone()
        stop_round = _horizon_round(world) if self.horizon == "round" else None
        world.apply(action)
        self._play_out(world, stop_round)
        if stop_round is None or world.is_terminal():
            return outcome(world, seat)
        leaf = self._worlds.leaf or _take_stock_values
        return standing(leaf(world), seat)

    def analyze(self, view: View, taken: int | None = None) -> DecisionAnalysis:
        """Every legal action of ``view``'s decision, valued over the same worlds.

        Given the action ``taken`` (a review), when it is not the best its lead over the
        best is measured again over as many fresh worlds (:attr:`DecisionAnalysis.checked`),
        which :meth:`~DecisionAnalysis.is_mistake` reads too.
        """
        seat = view.seat
        if seat is None:
            raise ValueError("a spectator's view has no decision to analyse")
        legal = list(legal_of(view))
        if not legal:
            raise ValueError(f"seat {seat} has no decision to make in this view")
        margins: list[list[float]] = [[] for _ in legal]
        wins: list[list[float]] = [[] for _ in legal]
        rng = random.Random(self.seed)
        for _ in range(self.worlds):
            dealt = self._worlds.sample(view, random.Random(rng.getrandbits(63)))
            for i, action in enumerate(legal):
                margin, win = self._after(dealt, action, seat)
                margins[i].append(margin)
                wins[i].append(win)
        means = [sum(m) / len(m) for m in margins]
        top = max(range(len(legal)), key=lambda i: (means[i], -i))
        values = [
            ActionValue(
                action=action,
                margin=_estimate(margins[i]),
                win=_estimate(wins[i]),
                behind=_estimate([x - y for x, y in zip(margins[i], margins[top], strict=True)]),
            )
            for i, action in enumerate(legal)
        ]
        values.sort(key=lambda v: (-v.margin.mean, legal.index(v.action)))
        checked = None
        if taken is not None and taken != legal[top]:
            if taken not in legal:
                raise ValueError(f"action {taken} is not legal in this view")
            leads = []
            for _ in range(self.worlds):
                dealt = self._worlds.sample(view, random.Random(rng.getrandbits(63)))
                leads.append(
                    self._after(dealt, taken, seat)[0] - self._after(dealt, legal[top], seat)[0]
                )
            checked = (taken, _estimate(leads))
        return DecisionAnalysis(
            seat=seat,
            worlds=self.worlds,
            actions=tuple(values),
            checked=checked,
            horizon=self.horizon,
        )

    def describe(self) -> dict[str, Any]:
        """The analysis's settings, for a review's header."""
        out: dict[str, Any] = {"worlds": self.worlds, "seed": self.seed, "playout": "heuristic"}
        if self.horizon != "game":
            out["horizon"] = self.horizon
        return out
