"""Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012).

Single-observer ISMCTS: one tree over the searching seat's information set. Each
iteration deals a possible world from the seat's view (``game.sample_state``), walks the
tree with the actions legal in that world, choosing by UCB1 with *availability counts*
(a child's exploration term counts the visits in which it was legal, not all visits of
its parent), adds one node, plays the world out at random and credits every node on the
path with the result of the seat that chose it. The search stops after a number of
iterations or a time budget, and the most visited action is played.

Play-outs stop at a game's natural horizon (Take Stock: the end of the current round) and
are scored by a per-game evaluation turned into a reward in [0, 1] for every seat: its mean
chance of being ahead of each opponent, a smooth function of the margin.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from closingbell import native
from closingbell.bots.base import Bot, HeuristicBot, heuristic_class, legal_of
from closingbell.bots.take_stock import TakeStockWeights
from closingbell.core.game import Game, State
from closingbell.core.view import View
from closingbell.games.take_stock import queries as take_stock_queries

TOKEN_VALUE = TakeStockWeights().token_value
"""What keeping one Take Stock option token for a later round is worth, in points."""

Evaluator = Callable[[State], list[float]]
"""A game's estimate of each seat's standing in a (possibly unfinished) state."""


def _take_stock_values(state: State) -> list[float]:
    """Each seat's totals, certificates at today's prices, and tokens and saved events."""
    totals = state.scores()
    if state.is_terminal():
        return [float(t) for t in totals]
    certs: list[list[int]] = getattr(state, "certs")  # noqa: B009
    shares: tuple[int, ...] = getattr(state, "shares")  # noqa: B009
    prices: list[int] = getattr(state, "prices")()  # noqa: B009
    frozen: list[bool] = getattr(state, "frozen")  # noqa: B009
    at = take_stock_queries.scoring_prices(prices, frozen, getattr(state.game, "options"))  # noqa: B009
    carried = _carried(state)
    return [
        float(totals[q] + take_stock_queries.worth(certs[q], at, shares)) + carried[q]
        for q in range(len(totals))
    ]


SAVED_EVENT_VALUE = 6.0
"""What a saved Take Stock event card is worth to its holder in later play, in points."""


def _carried(state: State) -> list[float]:
    """What each seat holds for later play in Take Stock: option tokens and saved events.

    A play-out stops at the end of the round, so tokens kept for later rounds would
    otherwise count for nothing and spending them would look free. A token is valued as
    the rule-based bot values keeping one (a good card exercised in a round still to
    come); tokens beyond one for each round left count half, since a seat rarely has
    several cards worth saving at one round's end.
    """
    rounds: int = getattr(state.game.options, "rounds")  # noqa: B009
    current: int = getattr(state, "round")  # noqa: B009
    tokens: list[int] = getattr(state, "tokens")  # noqa: B009
    saved: list[list[int]] = getattr(state, "saved")  # noqa: B009
    left = rounds - current + 1
    out = []
    for q, t in enumerate(tokens):
        value = TOKEN_VALUE * (min(t, left) + 0.5 * max(0, t - left)) if left > 0 else 0.0
        out.append(value + SAVED_EVENT_VALUE * len(saved[q]))
    return out


def _card_stock_market_values(state: State) -> list[float]:
    net_worth: Callable[[], list[int]] = getattr(state, "net_worth")  # noqa: B009
    return [float(v) for v in net_worth()]


EVALUATORS: dict[str, Evaluator] = {
    "take_stock": _take_stock_values,
    "card_stock_market": _card_stock_market_values,
}
"""Each game's evaluation of a play-out's final state (default: the scores)."""


def _model_values(judge: HeuristicBot) -> Evaluator:
    """Score a state by the rule-based bot's model: totals ahead plus each seat's outlook."""

    def values(state: State) -> list[float]:
        totals = state.scores()
        if state.is_terminal():
            return [float(t) for t in totals]
        n = len(totals)
        out = []
        for q in range(n):
            others = (sum(totals) - totals[q]) / (n - 1)
            out.append(totals[q] - others + judge.evaluate(state.view(q)))
        return out

    return values


def _horizon_round(state: State) -> int | None:
    """The round a play-out from ``state`` stops at the end of, or ``None`` for no horizon."""
    start: int | None = getattr(state, "round", None)
    return start if state.game.info.name == "take_stock" else None


def _horizon_stop(start: int | None) -> Callable[[State], bool]:
    """A test telling when a play-out that began in round ``start`` may stop early."""
    if start is not None:
        return lambda s: getattr(s, "round", start) != start
    return lambda s: False


Playout = Callable[[State, int, int], int]
"""A compiled play-out: ``playout(world, max_steps, horizon_round)`` plays the rule-based bot
for every seat on ``world`` in place, as the search's own loop would, and returns the steps
played (``horizon_round`` -1: no horizon)."""


class _Worlds:
    """Where a search deals its possible worlds and plays them out.

    With the reference engine, worlds are the game's Python states and play-outs ask the
    play-out bots for every decision through views. With a compiled engine
    (:mod:`closingbell.native`), worlds are compiled states, dealt by the compiled sampler
    where there is one, and a compiled play-out plays the rule-based bot without views when
    every play-out bot hands its choices to the same compiled procedure and never moves at
    random. Either way the worlds, play-outs and results are the same, number for number.
    """

    def __init__(self, game: Game, engine: str, policies: list[Bot]) -> None:
        self.game = game
        self.engine = engine
        self.policies = policies
        self.compiled = native.engine_for(game, engine)
        """The compiled engine module, or ``None`` for the reference."""
        self.sampler: Callable[[Game, View, Any], State] | None = getattr(
            self.compiled, "sample_state", None
        )
        self.playout: Playout | None = None
        """The compiled play-out, when one applies."""
        self.leaf: Evaluator | None = None
        """The compiled :func:`_take_stock_values` of a compiled world, where there is one."""
        if self.compiled is None:
            return
        bots = native.bot_module(game, engine)
        leaf_values = getattr(bots, "leaf_values", None)
        if leaf_values is not None and game.info.name == "take_stock":

            def leaf(world: State) -> list[float]:
                values: list[float] = leaf_values(world, TOKEN_VALUE, SAVED_EVENT_VALUE)
                return values

            self.leaf = leaf
        if not policies:
            return
        play = getattr(bots, "playout", None)
        # The play-out bots differ only in their seeds, which matter only for random moves:
        # without those, one compiled procedure plays every seat.
        procedures = [
            p.compiled_procedure() if isinstance(p, HeuristicBot) and not p.epsilon else None
            for p in policies
        ]
        first = procedures[0]
        if play is None or first is None or None in procedures:
            return

        def playout(world: State, max_steps: int, horizon: int) -> int:
            steps: int = play(first, world, max_steps, horizon)
            return steps

        self.playout = playout

    def __reduce__(self) -> tuple[Any, ...]:
        # Modules and compiled play-outs do not pickle: a copy (in a helper process, say)
        # finds them again.
        return (_Worlds, (self.game, self.engine, self.policies))

    def sample(self, view: View, rng: Any) -> State:
        """A possible world from ``view``, its hidden cards drawn with ``rng``."""
        if self.sampler is not None:
            return self.sampler(self.game, view, rng)
        world = self.game.sample_state(view, rng)
        if self.compiled is not None:
            compiled: State = self.compiled.from_state(world)
            return compiled
        return world


SCALES: dict[str, float] = {"take_stock": 40.0, "card_stock_market": 100.0}
"""A margin that counts as a clear lead in each game (points, dollars)."""


def reward_of(values: list[float], seat: int, scale: float = 40.0) -> float:
    """Seat ``seat``'s reward in [0, 1]: its mean chance of being ahead of each opponent.

    A lead of ``d`` over one opponent counts ``1 / (1 + exp(-d / scale))``: a tie is a
    half, a clear lead is near 1. A smooth reward keeps telling good moves from bad ones
    when a seat is far ahead or far behind.
    """
    exp = math.exp
    v = values[seat]
    total = 0.0
    for w in values:
        d = max(-50.0, min(50.0, (v - w) / scale))
        total += 1.0 / (1.0 + exp(-d))
    return (total - 0.5) / (len(values) - 1)


def best_reward_of(values: list[float], seat: int, scale: float = 40.0) -> float:
    """Seat ``seat``'s reward in [0, 1]: its chance of being ahead of its best opponent.

    A lead of ``d`` over the best of the others counts ``1 / (1 + exp(-d / scale))``, so
    only a move that gains on the leader (or keeps a seat the leader) is worth more: the
    game is won against the best other seat, whatever the rest score.
    """
    best = max(w for q, w in enumerate(values) if q != seat)
    d = max(-50.0, min(50.0, (values[seat] - best) / scale))
    return 1.0 / (1.0 + math.exp(-d))


def all_reward_of(values: list[float], seat: int, scale: float = 40.0) -> float:
    """Seat ``seat``'s reward in [0, 1]: its chance of being ahead of every opponent at once.

    The product of its chances against each (:func:`reward_of`'s terms), as if the
    opponents' margins were independent: a move that gains on every other seat is worth
    most, and one that gains only on those far behind is worth little.
    """
    exp = math.exp
    v = values[seat]
    product = 1.0
    for q, w in enumerate(values):
        if q != seat:
            d = max(-50.0, min(50.0, (v - w) / scale))
            product /= 1.0 + exp(-d)
    return product


Reward = Callable[[list[float], int, float], float]
"""How a play-out's end is scored for one seat: ``reward(values, seat, scale)``."""


def rewards(values: list[float], scale: float = 40.0) -> list[float]:
    """Every seat's :func:`reward_of`."""
    return [reward_of(values, q, scale) for q in range(len(values))]


def best_rewards(values: list[float], scale: float = 40.0) -> list[float]:
    """Every seat's :func:`best_reward_of`."""
    return [best_reward_of(values, q, scale) for q in range(len(values))]


def all_rewards(values: list[float], scale: float = 40.0) -> list[float]:
    """Every seat's :func:`all_reward_of`."""
    return [all_reward_of(values, q, scale) for q in range(len(values))]


REWARDS: dict[str, Reward] = {"each": reward_of, "best": best_reward_of, "all": all_reward_of}
"""How a play-out's end is scored for each seat: ``each``, the mean chance of being ahead of
each opponent (:func:`reward_of`); ``best``, the chance of being ahead of the best of them
(:func:`best_reward_of`); ``all``, the chance of being ahead of every one at once
(:func:`all_reward_of`). A search scores only the seats that chose on its path."""


class _Ranking:
    """The root's legal actions in a rule-based bot's order of preference, found lazily."""

    def __init__(self, ranker: HeuristicBot, view: View) -> None:
        self.ranker = ranker
        self.view = view
        self.order: list[int] = []
        self.rest = list(legal_of(view))

    def best(self, k: int) -> list[int]:
        """The ``k`` best actions (or all of them, if there are fewer)."""
        while len(self.order) < k and self.rest:
            choice = self.rest[0]
            if len(self.rest) > 1:
                picked = self.ranker.pick(self.view, tuple(self.rest))
                # A rule-based bot may answer with a fixed choice (such as "done") that
                # is already ranked; the rest then keep their order.
                if picked in self.rest:
                    choice = picked
            self.order.append(choice)
            self.rest.remove(choice)
        return self.order[:k]


SETTLE_AFTER = 8
"""The fewest worlds a paired search looks at before it may stop early."""


class _Paired:
    """A paired search's candidates and the root seat's reward from each, world by world.

    With ``engine`` other than ``reference`` and :mod:`closingbell.native`'s ``_search``
    built, the leads are computed in C (``PairedStats``), with the same numbers: after each
    world the search asks for every candidate's lead over all the worlds so far, which in
    Python grows with the square of the worlds searched.
    """

    def __init__(self, actions: list[int], engine: str = "reference") -> None:
        self.actions = actions
        """The candidates, the rule-based bot's choice first."""
        self.results: list[list[float]] = [[] for _ in actions]
        """For each candidate, its reward in every world searched so far."""
        compiled = native.module("_search") if engine != "reference" else None
        if compiled is None and engine == "native":
            raise RuntimeError("the compiled search statistics are not built")
        self.stats: Any = compiled.PairedStats(len(actions)) if compiled is not None else None
        """The compiled statistics, or ``None`` when they are computed in Python."""

    def add(self, results: list[float]) -> None:
        """Record one world's rewards, one per candidate."""
        for column, r in zip(self.results, results, strict=True):
            column.append(r)
        if self.stats is not None:
            self.stats.add(results)

    def lead(self, i: int) -> tuple[float, float]:
        """Candidate ``i``'s mean lead over the first one, and its standard error."""
        if self.stats is not None:
            lead: tuple[float, float] = self.stats.lead(i)
            return lead
        diffs = [x - y for x, y in zip(self.results[i], self.results[0], strict=True)]
        n = len(diffs)
        if n == 0:
            return 0.0, 0.0
        mean = sum(diffs) / n
        if n == 1:
            return mean, math.inf
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, math.sqrt(var / n)

    def settled(self, z: float) -> bool:
        """Whether every candidate's lead over the first is settled.

        Settled means ``z`` standard errors from zero, or zero in every world.
        """
        if self.stats is not None:
            settled: bool = self.stats.settled(z)
            return settled
        for i in range(1, len(self.actions)):
            mean, se = self.lead(i)
            if not (abs(mean) > z * se or (mean == 0 and se == 0)):
                return False
        return True

    def choice(self, confidence: float | None) -> int:
        """The candidate to play.

        Without ``confidence`` the best by mean reward; with it, the first candidate
        unless another leads it by that many standard errors.
        """
        best, best_lead = 0, 0.0
        for i in range(1, len(self.actions)):
            mean, se = self.lead(i)
            clear = confidence is None or (mean > 0 and mean > confidence * se)
            if clear and mean > best_lead:
                best, best_lead = i, mean
        return self.actions[best]


class _Node:
    """One node of the search tree: statistics of the action that led to it."""

    __slots__ = ("avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


STRONG: dict[str, Any] = {
    "candidates": 3,
    "confidence": 1.5,
    "depth": 1,
    "playout": "heuristic",
    "playout_epsilon": 0.0,
    "max_playout": 30,
    "settle": 3.0,
}
"""The paired search measured strongest against the rule-based bots (docs/bots.md); give a
budget with it, such as ``seconds=1``."""


class ISMCTSBot(Bot):
    """Information-set MCTS; stops after ``iterations`` or ``seconds``, whichever comes first.

    With neither given it runs 1,000 iterations. A time budget makes its choices depend
    on the machine's speed; an iteration budget keeps them reproducible from the seed.
    """

    name = "ismcts"
    searches = True

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = 0.7,
        max_playout: int | None = None,
        playout: str = "random",
        playout_epsilon: float = 0.1,
        widening: float | None = None,
        evaluation: str = "playout",
        candidates: int | None = None,
        confidence: float | None = None,
        depth: int | None = None,
        settle: float | None = None,
        reward: str = "each",
        scale: float | None = None,
        engine: str = "auto",
    ) -> None:
        super().__init__(game, seed, engine=engine)
        explicit_playout = max_playout is not None
        if max_playout is None:
            max_playout = 2000
        if iterations is None and seconds is None:
            iterations = 1000
        if iterations is not None and (isinstance(iterations, bool) or iterations < 1):
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be positive, not {seconds!r}")
        if playout not in ("random", "heuristic"):
            raise ValueError(f"playout must be 'random' or 'heuristic', not {playout!r}")
        if evaluation not in ("playout", "heuristic"):
            raise ValueError(f"evaluation must be 'playout' or 'heuristic', not {evaluation!r}")
        if widening is not None and not widening > 0:
            raise ValueError(f"widening must be positive, not {widening!r}")
        if not c >= 0:
            raise ValueError(f"the exploration constant c must be non-negative, not {c!r}")
        if candidates is not None and (isinstance(candidates, bool) or candidates < 1):
            raise ValueError(f"candidates must be a positive integer, not {candidates!r}")
        if candidates is not None and widening is not None:
            raise ValueError("candidates and widening both choose the root's actions: give one")
        if confidence is not None and candidates is None:
            raise ValueError("confidence needs candidates (the rule-based choice to keep)")
        if confidence is not None and not confidence >= 0:
            raise ValueError(f"confidence must be non-negative, not {confidence!r}")
        if settle is not None and (candidates is None or not settle > 0):
            raise ValueError(f"settle needs candidates and must be positive, not {settle!r}")
        if depth is not None and (isinstance(depth, bool) or depth < 1):
            raise ValueError(f"depth must be a positive integer, not {depth!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if scale is not None and (isinstance(scale, bool) or not scale > 0):
            raise ValueError(f"scale must be positive, not {scale!r}")
        self.engine = engine
        """Where worlds are dealt and played out: ``auto`` (compiled code where it is built),
        ``native`` (compiled, or an error) or ``reference`` (the Python rules and bots). The
        search's results are the same on every engine; only its speed differs."""
        bot_engine = "reference" if engine == "reference" else "auto"
        self.iterations = iterations
        """The most iterations per decision (``None``: no limit)."""
        self.seconds = seconds
        """The most time per decision, in seconds (``None``: no limit)."""
        self.c = c
        """The UCB exploration constant."""
        self.max_playout = max_playout
        """The most decisions in one play-out before it is evaluated."""
        self.playout = playout
        """How play-outs choose: ``random``, or the game's ``heuristic`` bot for every seat."""
        self.policies: list[Bot] = []
        """The play-out players, one per seat, when play-outs are heuristic."""
        if playout == "heuristic":
            cls = heuristic_class(game)
            self.policies = [
                cls(game, seed * 7919 + q, epsilon=playout_epsilon, engine=bot_engine)
                for q in range(game.players)
            ]
        self.evaluate = EVALUATORS.get(game.info.name, _take_stock_values)
        """The evaluation of a play-out's last state."""
        self.evaluation = evaluation
        """How a leaf is scored: by the ``playout``'s end, or by the ``heuristic`` bot's model
        of every seat's view at the leaf (then ``max_playout`` counts the random moves
        played first, none unless given)."""
        if evaluation == "heuristic":
            judge = heuristic_class(game)(game, seed, engine=bot_engine)
            if type(judge).evaluate is HeuristicBot.evaluate:
                raise ValueError(
                    f"evaluation='heuristic' needs a rule-based bot that judges positions, "
                    f"and {game.info.name}'s does not"
                )
            self.evaluate = _model_values(judge)
            if not explicit_playout:
                self.max_playout = 0
        self.widening = widening
        """Progressive widening at the root: with ``n`` iterations done, only the
        ``1 + floor(widening * sqrt(n))`` actions the game's heuristic ranks best are
        searched (``None``: every legal action from the start)."""
        self.candidates = candidates
        """Paired search: only the ``candidates`` actions the rule-based bot ranks best are
        searched at the root, and every possible world dealt is searched once from each of
        them, so that they are compared on the same cards (``None``: the usual search)."""
        self.confidence = confidence
        """With ``candidates``: the rule-based bot's own choice is played unless another
        candidate's mean reward, compared world by world, is ahead of it by more than
        ``confidence`` standard errors (``None``: the most visited action is played)."""
        self.settle = settle
        """With ``candidates``: the search may stop before its budget, once at least
        ``SETTLE_AFTER`` worlds are searched and every other candidate's lead over the
        rule-based choice is ``settle`` standard errors from zero, or exactly zero in every
        world (``None``: the whole budget is used)."""
        self.depth = depth
        """The deepest the tree grows, in decisions below the root; deeper, the play-out
        takes over (``None``: no limit)."""
        self.depth_limit: float = depth if depth is not None else math.inf
        """``depth`` as a number (infinite for no limit)."""
        self.scale: float = scale if scale is not None else SCALES.get(game.info.name, 40.0)
        """The margin that counts as a clear lead: ``scale``, or the game's in :data:`SCALES`.
        The smaller it is, the more the reward is a count of the opponents the seat ends
        ahead of; the larger, the more it grows in step with the margin."""
        self.reward = reward
        """How a play-out's end is scored: the lead over ``each`` opponent, over the ``best``
        of them, or over ``all`` of them at once (see :data:`REWARDS`)."""
        self.reward_of = REWARDS[reward]
        """The function that scores a play-out's end for one seat."""
        self.ranker: HeuristicBot | None = None
        """The rule-based bot that ranks the root's actions when widening or pairing."""
        if widening is not None or candidates is not None:
            self.ranker = heuristic_class(game)(game, seed, engine=bot_engine)
        self.last_iterations = 0
        """How many iterations the last search ran."""
        self.last_stats: dict[int, tuple[int, float]] = {}
        """The last search's root statistics: action to (visits, mean reward)."""
        self.paired: _Paired | None = None
        """The last paired search's candidates and rewards."""
        self.worlds = _Worlds(game, engine, self.policies)
        """Where the search deals and plays out its worlds (see ``engine``)."""

    def choose(self, view: View) -> int:
        """The action the search settles on from ``view``."""
        legal = legal_of(view)
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = self.search(view)
        if self.paired is not None:
            return self.paired.choice(self.confidence)
        return max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)

    def search(self, view: View) -> _Node:
        """Run the search from ``view`` and return the root of its tree."""
        seat = view.seat
        if seat is None:
            raise ValueError("a spectator's view has no decision to search")
        rng = self.rng
        root = _Node(seat)
        ranking = _Ranking(self.ranker, view) if self.ranker is not None else None
        paired: _Paired | None = None
        if self.candidates is not None and ranking is not None:
            paired = _Paired(ranking.best(self.candidates), self.engine)
        self.paired = paired
        widening = self.widening or 0.0
        limit = self.iterations if self.iterations is not None else math.inf
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        done = 0
        while done < limit and (deadline == math.inf or time.perf_counter() < deadline):
            world = self.worlds.sample(view, rng)
            if paired is None:
                if ranking is not None:
                    ranked = ranking.best(1 + int(widening * math.sqrt(done)))
                    untried = [a for a in ranked if a not in root.children]
                    self._iterate(world, root, untried[0] if untried else None, ranked)
                else:
                    self._iterate(world, root, None, None)
                done += 1
                continue
            # Paired search: the same world, searched once from every candidate.
            results = []
            last = len(paired.actions) - 1
            for i, action in enumerate(paired.actions):
                copy = world if i == last else world.clone()
                results.append(self._iterate(copy, root, action, paired.actions))
            paired.add(results)
            done += 1
            if self.settle is not None and done >= SETTLE_AFTER and paired.settled(self.settle):
                break
        self.last_iterations = done
        self.last_stats = {
            a: (ch.visits, ch.total / ch.visits if ch.visits else 0.0)
            for a, ch in root.children.items()
        }
        return root

    def _iterate(
        self,
        world: State,
        root: _Node,
        first: int | None,
        root_legal: list[int] | None,
    ) -> float:
        """One iteration in ``world``; returns the root seat's reward.

        ``first`` forces the root's action; ``root_legal`` limits the root to these actions.
        """
        rng = self.rng
        c = self.c
        log = math.log
        sqrt = math.sqrt
        horizon = _horizon_round(world)
        node = root
        path = [root]
        level = 0
        expanded = False
        if first is not None:
            # The root's action is forced: expand it, or walk down to it.
            assert root_legal is not None
            children = root.children
            for a in root_legal:
                other = children.get(a)
                if other is not None:
                    other.avail += 1
            expanded = first not in children
            if expanded:
                children[first] = _Node(root.mover)
            node = children[first]
            world.apply(first)
            path.append(node)
            level = 1
        # Selection and expansion.
        while not expanded and not world.is_terminal() and level < self.depth_limit:
            level += 1
            legal = root_legal if node is root and root_legal is not None else world.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            mover = world.current_player
            assert mover is not None
            if untried:
                action = rng.choice(untried)
                child = _Node(mover)
                children[action] = child
                for a in legal:
                    other = children.get(a)
                    if other is not None and a != action:
                        other.avail += 1
                world.apply(action)
                path.append(child)
                break
            best_value = -1.0
            best_action = legal[0]
            for a in legal:
                ch = children[a]
                ch.avail += 1
                value = ch.total / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if value > best_value:
                    best_value = value
                    best_action = a
            world.apply(best_action)
            node = children[best_action]
            path.append(node)
        # Play-out.
        steps = 0
        policies = self.policies
        max_playout = self.max_playout
        fast = self.worlds.playout
        if fast is not None:
            fast(world, max_playout, -1 if horizon is None else horizon)
            steps = max_playout
        stop = _horizon_stop(horizon)
        while not world.is_terminal() and not stop(world) and steps < max_playout:
            if policies:
                mover = world.current_player
                assert mover is not None
                world.apply(policies[mover].choose(world.view(mover)))
            else:
                world.apply(rng.choice(world.legal_actions()))
            steps += 1
        evaluate = self.evaluate
        if evaluate is _take_stock_values and self.worlds.leaf is not None:
            evaluate = self.worlds.leaf
        values = evaluate(world)
        score = self.reward_of
        scale = self.scale
        seat = root.mover
        mine = score(values, seat, scale)
        others: dict[int, float] = {}
        for visited in path[1:]:
            visited.visits += 1
            mover = visited.mover
            if mover == seat:
                visited.total += mine
            else:
                if mover not in others:
                    others[mover] = score(values, mover, scale)
                visited.total += others[mover]
        return mine

    def describe(self) -> dict[str, Any]:
        """The bot's settings, for reports."""
        return {
            "iterations": self.iterations,
            "seconds": self.seconds,
            "c": self.c,
            "max_playout": self.max_playout,
            "playout": self.playout,
            "widening": self.widening,
            "candidates": self.candidates,
            "confidence": self.confidence,
            "depth": self.depth,
            "settle": self.settle,
            "reward": self.reward,
            "scale": self.scale,
            "engine": self.engine,
        }
