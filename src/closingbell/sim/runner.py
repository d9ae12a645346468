"""Running a match or a tournament: in-process, on worker processes, or as Ray tasks.

:func:`run_match` seats the given bots and plays every rotation of the seat list on each
deal; :func:`run_tournament` does the same at a table for every combination of bots. Both
return the games' results sorted by index (see :mod:`closingbell.sim.play` for how games
are numbered and seeded), and with ``out`` append each game to a CSV file as it finishes,
skipping the games the file already holds.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import math
import multiprocessing
import os
import signal
import sys
from collections.abc import Generator, Mapping, Sequence
from typing import Any

import closingbell
from closingbell import native
from closingbell.core.game import Game
from closingbell.core.registry import game_class
from closingbell.sim.play import GameResult, GameTask, Plan, options_key, play_batch
from closingbell.sim.results import ResultsFile
from closingbell.sim.specs import SimulationError, check_spec, parse_spec

BACKENDS = ("processes", "ray")
"""Where games are played: local worker processes (or in-process with one worker), or Ray."""
MAX_BATCH = 8
"""The most games sent to a worker at once."""


def cpu_count() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def checked_game(name: str, players: int, options: Mapping[str, Any]) -> Game:
    """The game with these options, or a :class:`SimulationError` saying what is wrong."""
    if "players" in options:
        raise SimulationError("give the number of players by the seats, not as an option")
    try:
        info = game_class(name).info
    except KeyError as exc:
        raise SimulationError(str(exc)) from None
    if not info.min_players <= players <= info.max_players:
        raise SimulationError(
            f"{info.title} is played by {info.min_players} to {info.max_players} players, "
            f"not {players}"
        )
    try:
        return closingbell.load_game(name, players=players, **options)
    except (ValueError, TypeError) as exc:
        raise SimulationError(str(exc)) from None


def _check_counts(games: int, seed: int) -> None:
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"the number of games must be at least 1, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SimulationError(f"the seed must be a non-negative integer, not {seed!r}")


def _check_backend(workers: int | None, backend: str) -> None:
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise SimulationError(f"the number of workers must be at least 1, not {workers!r}")
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")


def _specs(texts: Sequence[str], game: Game) -> tuple[str, ...]:
    specs = [parse_spec(t) for t in texts]
    for spec in {s.text: s for s in specs}.values():
        check_spec(spec, game)
    return tuple(s.text for s in specs)


def match_plan(
    game: str,
    seats: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> Plan:
    """The plan of a match: ``games`` rounded up to whole deals (one game per rotation)."""
    options = dict(options or {})
    if isinstance(seats, str):
        seats = seats.split(",")
    loaded = checked_game(game, len(seats), options)
    _check_counts(games, seed)
    return Plan(
        game=game,
        options=options_key(options),
        tables=(_specs(seats, loaded),),
        seed=seed,
        deals=math.ceil(games / len(seats)),
    )


def tournament_plan(
    game: str,
    bots: Sequence[str],
    *,
    players: int = 2,
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> Plan:
    """The plan of a round robin: ``games`` per table, rounded up to whole deals."""
    options = dict(options or {})
    if isinstance(bots, str):
        bots = bots.split(",")
    loaded = checked_game(game, players, options)
    _check_counts(games, seed)
    names = _specs(bots, loaded)
    if len(set(names)) != len(names):
        raise SimulationError("a tournament's bots must be different specs")
    if len(names) < players:
        raise SimulationError(
            f"a tournament at {players}-player tables needs at least {players} bots, "
            f"not {len(names)}"
        )
    return Plan(
        game=game,
        options=options_key(options),
        tables=tuple(itertools.combinations(names, players)),
        seed=seed,
        deals=math.ceil(games / players),
    )


def _batches(tasks: Sequence[GameTask], workers: int) -> list[list[GameTask]]:
    size = max(1, min(MAX_BATCH, len(tasks) // (workers * 8)))
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def _ignore_sigint() -> None:
    # Ctrl-C reaches every process of the terminal's group; only the parent acts on it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_process(tasks: Sequence[GameTask]) -> Generator[GameResult, None, None]:
    for task in tasks:
        yield from play_batch([task])


def _on_processes(tasks: Sequence[GameTask], workers: int) -> Generator[GameResult, None, None]:
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=_ignore_sigint) as pool:
        for batch in pool.imap_unordered(play_batch, _batches(tasks, workers)):
            yield from batch


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`SimulationError` saying how to install it."""
    try:
        import ray  # noqa: PLC0415 (an optional dependency, imported only when used)
    except ImportError:
        raise SimulationError(
            "the ray backend needs Ray, which the dist extra installs (or pip install ray)"
        ) from None
    return ray


def _on_ray(
    tasks: Sequence[GameTask], workers: int | None, address: str | None
) -> Generator[GameResult, None, None]:
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            cores = cpu_count()
            ray.init(
                num_cpus=min(workers or cores, cores),
                include_dashboard=False,
                log_to_driver=False,
            )
    pending: list[Any] = []
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        remote = ray.remote(num_cpus=1, max_retries=0)(play_batch)
        pending = [remote.remote(batch) for batch in _batches(tasks, max(1, cpus))]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(ready[0])
    finally:
        for ref in pending:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


def execute(
    plan: Plan,
    *,
    games: int | None = None,
    workers: int | None = None,
    backend: str = "processes",
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    progress: bool = False,
    engine: str = "auto",
    label: str | None = None,
) -> list[GameResult]:
    """Play the first ``games`` games of ``plan`` (default: all) and return them by index.

    ``workers``: processes (default: every core; 1 plays in-process) or, with
    ``backend="ray"`` and no ``address``, the CPUs of the local Ray cluster started for the
    run. ``out``: a CSV file that each game is appended to as it finishes; the games it
    already holds are not played again. ``progress``: a tqdm bar on stderr. ``engine``:
    where the games and bots run (:data:`closingbell.native.ENGINES`; the results are the
    same on every engine). On Ctrl-C the games finished so far stay in ``out`` and
    ``KeyboardInterrupt`` is raised. ``label`` names the run on the progress bar.
    """
    if engine not in native.ENGINES:
        raise SimulationError(f"engine must be one of {', '.join(native.ENGINES)}, not {engine!r}")
    total = plan.games if games is None else games
    _check_counts(total, plan.seed)
    _check_backend(workers, backend)
    results: dict[int, GameResult] = {}
    sink = ResultsFile(out, plan) if out is not None else None
    try:
        if sink is not None:
            results = {i: r for i, r in sink.finished.items() if i < total}
        tasks = [
            dataclasses.replace(plan.task(i), engine=engine)
            for i in range(total)
            if i not in results
        ]
        count = workers or cpu_count()
        stream: Generator[GameResult, None, None]
        if not tasks:
            stream = _in_process(())
        elif backend == "ray":
            stream = _on_ray(tasks, workers, address)
        elif count == 1 or len(tasks) == 1:
            stream = _in_process(tasks)
        else:
            stream = _on_processes(tasks, min(count, len(tasks)))
        bar = _progress_bar(progress, total, len(results), label or f"{plan.game} x{plan.players}")
        with contextlib.closing(stream), contextlib.closing(bar):
            for result in stream:
                if sink is not None:
                    sink.write(result)
                results[result.index] = result
                bar.update()
    finally:
        if sink is not None:
            sink.close()
    return [results[i] for i in range(total)]


class _NoBar:
    def update(self) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(enabled: bool, total: int, done: int, label: str) -> Any:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm  # type: ignore[import-untyped]  # noqa: PLC0415 (sim extra)

    return tqdm(
        total=total,
        initial=done,
        file=sys.stderr,
        unit="game",
        desc=label,
        dynamic_ncols=True,
        smoothing=0.05,
    )


def run_match(
    game: str,
    seats: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    workers: int | None = None,
    backend: str = "processes",
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    progress: bool = False,
    engine: str = "auto",
) -> list[GameResult]:
    """Play a match of the bot specs ``seats`` and return its games' results by index.

    Each deal is played once per rotation of ``seats``, so ``games`` is rounded up to a
    multiple of the number of seats. ``options`` are the game's rules options (not
    ``players``: the seats give it). The other arguments are those of :func:`execute`.
    """
    plan = match_plan(game, seats, games=games, seed=seed, options=options)
    return execute(
        plan,
        workers=workers,
        backend=backend,
        address=address,
        out=out,
        progress=progress,
        engine=engine,
    )


def run_tournament(
    game: str,
    bots: Sequence[str],
    *,
    players: int = 2,
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    workers: int | None = None,
    backend: str = "processes",
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    progress: bool = False,
    engine: str = "auto",
) -> list[GameResult]:
    """A round robin: a rotated match of ``games`` games at every ``players``-bot table.

    Every table plays the same deals. The other arguments are those of :func:`run_match`.
    """
    plan = tournament_plan(game, bots, players=players, games=games, seed=seed, options=options)
    return execute(
        plan,
        workers=workers,
        backend=backend,
        address=address,
        out=out,
        progress=progress,
        engine=engine,
    )
