"""Speed figures of the engines, measured on one core with plain loops, engine by engine.

Every figure is measured on each engine (:data:`closingbell.native.ENGINES`): ``reference``,
the readable Python rules, bots and serialization, and ``native``, the compiled code of
:mod:`closingbell.native` (where it is built), on the same seeds and states, so that the
two rows of a game and player count compare like with like. For each game and player count:
random-play decisions and whole games per second (each step is ``legal_actions``,
``rng.choice``, ``apply``); the mean cost of ``clone()``, ``view()`` and ``sample_state``
on states taken from random games at various stages, and of one rule-based decision
(``choose`` on the deciding seat's view); whole rule-based self-play games per second (as a
simulation plays them); ``to_json()`` and ``state_from_json`` on those states (dealt: read
back, their history is replayed) and on states sampled from their views (positions: nothing
to replay); ISMCTS iterations, and worlds of the strong paired search (the expert's), per
second; and the vector environment's learner steps per second. The functions return plain
data; :func:`format_table` turns it into text. Nothing here asserts a speed: the figures
are for people and for comparing changes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import closingbell
from closingbell import native
from closingbell.bots.base import heuristic_class
from closingbell.bots.ismcts import STRONG, ISMCTSBot
from closingbell.core.game import Game, State
from closingbell.core.registry import game_class
from closingbell.sim.report import align_table

DEFAULT_SECONDS = 2.0
"""Playout time per player count when no number of games is given."""
DEFAULT_STATES = 40
"""States on which ``clone`` and ``sample_state`` are timed."""
VECTOR_GAMES = 64
"""Games the vector environment steps together in the bench's figure."""


@dataclass(frozen=True)
class StepFigures:
    """Steps of a vector environment, and how long they took."""

    agent_steps: int
    """Decisions taken by agents: one per game and step."""
    seconds: float
    """Wall-clock time of the loop, drawing the actions included."""
    env_seconds: float
    """The part of it spent in ``step``."""

    @property
    def steps_per_second(self) -> float:
        """Agent steps per second, drawing the actions included."""
        return self.agent_steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def env_steps_per_second(self) -> float:
        """Agent steps per second of ``step`` alone."""
        return self.agent_steps / self.env_seconds if self.env_seconds > 0 else 0.0


def time_vector_steps(env: Any, seconds: float, *, seed: int = 0) -> StepFigures:
    """Step a vector environment (Gymnasium's or the self-play one) for about ``seconds``.

    Each game's action is drawn at random among its legal ones.
    """
    import numpy as np  # noqa: PLC0415 (the rl extra is optional)

    from closingbell.envs.vector import random_actions  # noqa: PLC0415

    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    mask = infos["action_mask"] if "action_mask" in infos else obs["action_mask"]
    steps = 0
    in_env = 0.0
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds:
        actions = random_actions(mask, rng)
        before = clock()
        obs, _, _, _, infos = env.step(actions)
        in_env += clock() - before
        mask = infos["action_mask"] if "action_mask" in infos else obs["action_mask"]
        steps += env.num_envs
    return StepFigures(steps, clock() - start, in_env)


def time_vector_env(
    name: str, players: int, seconds: float, *, seed: int = 0, engine: str = "auto"
) -> float | None:
    """Learner steps per second of the vector environment (see ``BenchResult``).

    ``None`` when the ``rl`` extra is missing.
    """
    try:
        from closingbell.envs.vector import ClosingbellVectorEnv  # noqa: PLC0415
    except ImportError:
        return None
    env = ClosingbellVectorEnv(name, players, num_envs=VECTOR_GAMES, copy=False, engine=engine)
    return time_vector_steps(env, seconds, seed=seed).steps_per_second


@dataclass(frozen=True)
class PlayoutFigures:
    """Random games played to the end, and how long they took."""

    games: int
    """Games played."""
    decisions: int
    """Actions applied over all those games."""
    seconds: float
    """Wall-clock time of the loop."""

    @property
    def decisions_per_second(self) -> float:
        """Actions applied per second."""
        return self.decisions / self.seconds if self.seconds > 0 else 0.0

    @property
    def games_per_second(self) -> float:
        """Whole games played per second."""
        return self.games / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class BenchResult:
    """The figures of one game at one player count."""

    game: str
    """The registered name of the game."""
    players: int
    """Seats at the table."""
    engine: str
    """The engine measured: ``reference`` (Python) or ``native`` (compiled)."""
    games: int
    """Random games played for the playout figures."""
    decisions: int
    """Actions applied in those games."""
    seconds: float
    """Time the playouts took."""
    decisions_per_second: float
    """Random-play actions applied per second."""
    games_per_second: float
    """Random games played to the end per second."""
    mean_decisions: float
    """Actions per game, on average."""
    clone_us: float
    """Mean cost of ``State.clone()``, in microseconds."""
    view_us: float
    """Mean cost of ``State.view(seat)`` for the deciding seat, in microseconds."""
    sample_us: float
    """Mean cost of dealing a full state from the deciding seat's view (``sample_state``,
    as a search deals its worlds), in microseconds."""
    states: int
    """States on which the costs were timed."""
    heuristic_us: float
    """Mean cost of one rule-based decision (``choose`` on a view with several legal
    actions), in microseconds."""
    heuristic_games_per_second: float
    """Whole games of the rule-based bot in every seat per second, views built each decision."""
    to_json_us: float
    """Mean cost of ``State.to_json()`` on those (dealt) states, in microseconds."""
    from_json_us: float
    """Mean cost of ``Game.state_from_json`` reading them back (history replayed), in µs."""
    sampled_to_json_us: float
    """Mean cost of ``to_json()`` on states sampled from their views, in microseconds."""
    sampled_from_json_us: float
    """Mean cost of reading those sampled states back (positions, nothing replayed), in µs."""
    ismcts_ips: float
    """ISMCTS iterations per second, searching from the deciding seat's view."""
    paired_wps: float
    """Worlds per second of the strong paired search (``ismcts.STRONG``): each world is
    played out once from every candidate, by the rule-based bot for every seat."""
    vector_steps_per_second: float | None = None
    """Learner steps per second of the vector environment (:data:`VECTOR_GAMES` games,
    random bots, random learner actions drawn from the masks); ``None`` without the ``rl``
    extra."""

    def to_dict(self) -> dict[str, Any]:
        """The figures as JSON-ready data."""
        return asdict(self)


def player_counts(name: str) -> list[int]:
    """Every player count the game ``name`` allows."""
    info = game_class(name).info
    return list(range(info.min_players, info.max_players + 1))


def _random_step(state: State, rng: random.Random) -> None:
    state.apply(rng.choice(state.legal_actions()))


def time_playouts(
    game: Game,
    *,
    games: int | None = None,
    seconds: float = DEFAULT_SECONDS,
    seed: int = 0,
    engine: str = "auto",
) -> PlayoutFigures:
    """Play random games to the end: ``games`` of them, or as many as fit in ``seconds``."""
    rng = random.Random(seed)
    played = decisions = 0
    clock = time.perf_counter
    start = clock()
    while True:
        if games is not None:
            if played >= games:
                break
        elif played and clock() - start >= seconds:
            break
        state = game.new_game(seed + played, engine=engine)
        legal = state.legal_actions
        apply = state.apply
        choice = rng.choice
        while not state.is_terminal():
            apply(choice(legal()))
            decisions += 1
        played += 1
    return PlayoutFigures(games=played, decisions=decisions, seconds=clock() - start)


def sample_positions(game: Game, count: int, *, seed: int = 0) -> list[State]:
    """``count`` live states taken from random games, spread over the games' stages."""
    rng = random.Random(f"bench-positions/{seed}")
    out: list[State] = []
    index = 0
    while len(out) < count:
        state = game.new_game(seed=seed + index)
        index += 1
        stages = []
        while not state.is_terminal():
            stages.append(state.clone())
            _random_step(state, rng)
        out += rng.sample(stages, min(len(stages), 5, count - len(out)))
    return out


def _mean_cost_us(calls: Sequence[Any], budget: float) -> float:
    """Mean microseconds per call of the zero-argument callables, repeated for ``budget`` s."""
    clock = time.perf_counter
    done = 0
    start = clock()
    while True:
        for call in calls:
            call()
        done += len(calls)
        elapsed = clock() - start
        if elapsed >= budget:
            return elapsed / done * 1e6


def time_clone(states: Sequence[State], budget: float = 0.25) -> float:
    """Mean cost of ``clone()`` over ``states``, in microseconds."""
    return _mean_cost_us([s.clone for s in states], budget)


def time_view(states: Sequence[State], budget: float = 0.25) -> float:
    """Mean cost of the deciding seat's ``view()`` over ``states``, in microseconds."""
    return _mean_cost_us([lambda s=s: s.view(s.current_player) for s in states], budget)


def time_sample_state(
    game: Game,
    states: Sequence[State],
    budget: float = 0.25,
    *,
    seed: int = 0,
    engine: str = "auto",
) -> float:
    """Mean cost of dealing a state from the deciding seat's view of each state, in µs.

    On ``engine`` (``game.sample_state``), as a search deals its worlds.
    """
    rng = random.Random(seed)
    views = [s.view(s.current_player) for s in states]
    return _mean_cost_us(
        [lambda v=v: game.sample_state(v, rng, engine=engine) for v in views], budget
    )


def time_heuristic(
    game: Game, states: Sequence[State], budget: float = 0.25, *, engine: str = "auto"
) -> float:
    """Mean cost of one rule-based decision on the deciding seat's view, in microseconds.

    Only views with more than one legal action count (the bot answers the others at once).
    """
    bot = heuristic_class(game)(game, 0, engine=engine)
    views = [s.view(s.current_player) for s in states]
    views = [v for v in views if len(getattr(v, "legal_actions", ())) > 1] or views[:1]
    return _mean_cost_us([lambda v=v: bot.choose(v) for v in views], budget)


def time_heuristic_games(
    game: Game, seconds: float, *, seed: int = 0, engine: str = "auto"
) -> float:
    """Whole games of the rule-based bot in every seat per second, for about ``seconds``.

    Each decision builds the seat's view and asks its bot, as a simulation plays.
    """
    cls = heuristic_class(game)
    bots = [cls(game, q, engine=engine) for q in range(game.players)]
    played = 0
    clock = time.perf_counter
    start = clock()
    while not played or clock() - start < seconds:
        state = game.new_game(seed + played, engine=engine)
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].choose(state.view(seat)))
        played += 1
    return played / (clock() - start)


def time_json(
    game: Game, states: Sequence[State], budget: float = 0.25, *, engine: str = "auto"
) -> tuple[float, float]:
    """Mean costs of ``to_json()`` and of ``state_from_json`` over ``states``, in µs.

    ``engine`` is the engine of serialization (see :func:`closingbell.native.serialization`);
    the default engine is plugged in again afterwards.
    """
    name = game.info.name
    native.serialization(name, engine)
    try:
        texts = [s.to_json() for s in states]
        read = game.state_from_json
        write = _mean_cost_us([s.to_json for s in states], budget / 2)
        return write, _mean_cost_us([lambda t=t: read(t) for t in texts], budget / 2)
    finally:
        native.serialization(name)


def sampled_states(game: Game, states: Sequence[State], *, seed: int = 0) -> list[State]:
    """A state sampled from the deciding seat's view of each state (a position)."""
    rng = random.Random(seed)
    return [game.sample_state(s.view(s.current_player), rng) for s in states]


def time_ismcts(
    game: Game,
    states: Sequence[State],
    budget: float,
    *,
    seed: int = 0,
    engine: str = "auto",
    **settings: Any,
) -> float:
    """ISMCTS iterations per second, searching ``budget`` seconds in all over ``states``.

    ``settings`` adjust the search (a paired search counts worlds, not iterations).
    """
    views = [s.view(s.current_player) for s in states]
    views = [v for v in views if len(getattr(v, "legal_actions", ())) > 1] or views[:1]
    bot = ISMCTSBot(game, seed, seconds=max(budget / len(views), 0.001), engine=engine, **settings)
    done = 0
    start = time.perf_counter()
    for view in views:
        bot.search(view)
        done += bot.last_iterations
    elapsed = time.perf_counter() - start
    return done / elapsed if elapsed > 0 else 0.0


def engines_built(name: str) -> list[str]:
    """The engines ``name`` can be measured on: ``reference``, and ``native`` if built."""
    return ["reference", "native"] if native.available(name) else ["reference"]


def bench_game(
    name: str,
    players: int,
    *,
    games: int | None = None,
    seconds: float = DEFAULT_SECONDS,
    states: int = DEFAULT_STATES,
    seed: int = 0,
    engine: str = "native",
) -> BenchResult:
    """Measure the game ``name`` at ``players`` seats on ``engine`` (see the module docstring).

    Random play runs for ``seconds`` (or ``games`` games); the costs of ``clone``,
    ``view``, ``sample_state``, a rule-based decision, the JSON of dealt states and of
    sampled ones, rule-based games, ISMCTS, the paired search and the vector environment
    are each timed for an eighth of ``seconds`` (at least one pass over the states). The
    states are the same on every engine: taken from the reference's random games, and
    carried over to the compiled engine with ``from_state`` (JSON is timed on the
    reference's states, whose text every engine writes and reads alike).
    """
    if engine not in ("reference", "native"):
        raise ValueError(f"a bench measures the 'reference' or the 'native' engine, not {engine!r}")
    game = closingbell.load_game(name, players=players)
    figures = time_playouts(game, games=games, seconds=seconds, seed=seed, engine=engine)
    positions = sample_positions(game, states, seed=seed)
    on_engine = [native.from_state(s, engine) for s in positions]
    budget = seconds / 8
    sampled = sampled_states(game, positions, seed=seed)
    to_json_us, from_json_us = time_json(game, positions, budget, engine=engine)
    sampled_to_json_us, sampled_from_json_us = time_json(game, sampled, budget, engine=engine)
    return BenchResult(
        game=name,
        players=players,
        engine=engine,
        games=figures.games,
        decisions=figures.decisions,
        seconds=figures.seconds,
        decisions_per_second=figures.decisions_per_second,
        games_per_second=figures.games_per_second,
        mean_decisions=figures.decisions / figures.games if figures.games else 0.0,
        clone_us=time_clone(on_engine, budget),
        view_us=time_view(on_engine, budget),
        sample_us=time_sample_state(game, on_engine, budget, seed=seed, engine=engine),
        states=len(positions),
        heuristic_us=time_heuristic(game, on_engine, budget, engine=engine),
        heuristic_games_per_second=time_heuristic_games(game, budget, seed=seed, engine=engine),
        to_json_us=to_json_us,
        from_json_us=from_json_us,
        sampled_to_json_us=sampled_to_json_us,
        sampled_from_json_us=sampled_from_json_us,
        ismcts_ips=time_ismcts(game, positions, budget, seed=seed, engine=engine),
        paired_wps=time_ismcts(game, positions, budget, seed=seed, engine=engine, **STRONG),
        vector_steps_per_second=time_vector_env(name, players, budget, seed=seed, engine=engine),
    )


def run_bench(
    names: Sequence[str] | None = None,
    players: Sequence[int] | None = None,
    *,
    games: int | None = None,
    seconds: float = DEFAULT_SECONDS,
    states: int = DEFAULT_STATES,
    seed: int = 0,
    engines: Sequence[str] | None = None,
) -> list[BenchResult]:
    """Measure each game (default: all registered) at each of its allowed player counts.

    ``players`` restricts the counts; counts a game does not allow are left out for it.
    ``engines`` are measured in turn for each count (default: ``reference``, and
    ``native`` where it is built); an engine that is not built is left out.
    """
    results = []
    for name in names if names is not None else closingbell.available_games():
        built = engines_built(name)
        chosen = [e for e in (engines or built) if e in built]
        for count in player_counts(name):
            if players is None or count in players:
                for engine in chosen:
                    results.append(
                        bench_game(
                            name,
                            count,
                            games=games,
                            seconds=seconds,
                            states=states,
                            seed=seed,
                            engine=engine,
                        )
                    )
    return results


COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("game", "game", "{}"),
    ("players", "players", "{}"),
    ("engine", "engine", "{}"),
    ("games", "games", "{:,}"),
    ("mean_decisions", "decisions/game", "{:,.1f}"),
    ("decisions_per_second", "decisions/s", "{:,.0f}"),
    ("games_per_second", "games/s", "{:,.1f}"),
    ("clone_us", "clone us", "{:,.2f}"),
    ("view_us", "view us", "{:,.1f}"),
    ("sample_us", "sample_state us", "{:,.1f}"),
    ("heuristic_us", "rule-based us", "{:,.1f}"),
    ("heuristic_games_per_second", "rule-based games/s", "{:,.1f}"),
    ("to_json_us", "to_json us", "{:,.1f}"),
    ("from_json_us", "from_json us", "{:,.1f}"),
    ("sampled_to_json_us", "to_json us (sampled)", "{:,.1f}"),
    ("sampled_from_json_us", "from_json us (sampled)", "{:,.1f}"),
    ("ismcts_ips", "ismcts it/s", "{:,.0f}"),
    ("paired_wps", "paired worlds/s", "{:,.0f}"),
    ("vector_steps_per_second", "vector steps/s", "{:,.0f}"),
)
"""The table's columns: field, heading and format."""


SPEEDUPS: tuple[tuple[str, str, bool], ...] = (
    ("decisions_per_second", "decisions/s", True),
    ("clone_us", "clone", False),
    ("view_us", "view", False),
    ("sample_us", "sample_state", False),
    ("heuristic_us", "rule-based", False),
    ("heuristic_games_per_second", "rule-based games/s", True),
    ("to_json_us", "to_json", False),
    ("from_json_us", "from_json", False),
    ("sampled_to_json_us", "to_json (sampled)", False),
    ("sampled_from_json_us", "from_json (sampled)", False),
    ("ismcts_ips", "ismcts it/s", True),
    ("paired_wps", "paired worlds/s", True),
    ("vector_steps_per_second", "vector steps/s", True),
)
"""The figures compared engine to engine: field, heading, and whether more is faster."""


def speedups(results: Sequence[BenchResult]) -> list[dict[str, Any]]:
    """How many times faster the native engine is than the reference, figure by figure.

    One entry per game and player count measured on both engines: ``game``, ``players``
    and, for each field of :data:`SPEEDUPS`, the native figure over the reference's for a
    rate or the reference's over the native for a cost (``None`` where either is missing).
    """
    rows: dict[tuple[str, int], dict[str, BenchResult]] = {}
    for r in results:
        rows.setdefault((r.game, r.players), {})[r.engine] = r
    out = []
    for (name, players), by_engine in rows.items():
        ref, nat = by_engine.get("reference"), by_engine.get("native")
        if ref is None or nat is None:
            continue
        entry: dict[str, Any] = {"game": name, "players": players}
        for field, _, more_is_faster in SPEEDUPS:
            a, b = getattr(ref, field), getattr(nat, field)
            faster, slower = (b, a) if more_is_faster else (a, b)
            entry[field] = faster / slower if a and b else None
        out.append(entry)
    return out


def format_speedups(results: Sequence[BenchResult]) -> str:
    """:func:`speedups` as an aligned text table (empty when no figure has both engines)."""
    entries = speedups(results)
    if not entries:
        return ""
    rows = [["game", "players", *(heading for _, heading, _ in SPEEDUPS)]]
    for e in entries:
        rows.append(
            [
                e["game"],
                str(e["players"]),
                *("-" if e[f] is None else f"{e[f]:,.1f}x" for f, _, _ in SPEEDUPS),
            ]
        )
    return "\n".join(align_table(rows))


def format_table(results: Sequence[BenchResult]) -> str:
    """The results as an aligned text table (no trailing newline)."""
    rows = [[heading for _, heading, _ in COLUMNS]]
    for result in results:
        data = result.to_dict()
        rows.append(
            ["-" if data[field] is None else fmt.format(data[field]) for field, _, fmt in COLUMNS]
        )
    return "\n".join(align_table(rows))
