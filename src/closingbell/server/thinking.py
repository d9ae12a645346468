"""Where bots think, and in what order: search work shared fairly, quick bots apart.

A search bot (``expert``, ``ismcts``) thinks for up to a second of CPU a move; a hint, a
piece of a review or a replay is work of the same weight. In a thread of the server it
would hold the interpreter lock against the event loop, so it runs in helper processes
(:class:`BotPool`), bots of different tables on different cores.

There are few helpers and many tables, so who goes next matters. Served first come, first
served, one client who opens twenty tables of six experts puts a hundred and twenty moves
in front of everyone else's. :class:`FairQueue` serves the waiting work in turn instead:

- round-robin over the client addresses the work is asked for (the address that created
  the table, the one that asked for the hint or the review), so that each address with
  work waiting gets the next free helper in its turn, however much work it has queued;
- within an address, round-robin over its groups (a table, a review), and first come,
  first served within a group;
- an address holds at most ``per_address`` helpers at once (by default half of them, at
  least one), so that the work of another address never waits for a free helper behind
  one address's long queue.

The rule-based bots (``easy``, ``medium``, ``hard``, ``heuristic``, ``random``) choose in
a millisecond: they think in a small thread pool of their own, apart from the helpers and
from the default thread pool that other work shares, so they never wait behind anything
slow.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple, TypeVar

from closingbell.bots import Bot
from closingbell.core.view import View

log = logging.getLogger(__name__)

T = TypeVar("T")

QUICK_THREADS = 2
"""Threads in which the rule-based bots choose (each choice takes about a millisecond)."""


class Asker(NamedTuple):
    """Who a piece of work is done for: what it is counted against when turns are shared."""

    address: str
    """The client address the work is counted against (the table's creator, the player who
    asked for a hint or a review); ``""`` when none is known."""
    group: str
    """The work's group within the address, served in turn with its other groups: a
    table's id, or a review's."""


NOBODY = Asker("", "")
"""Work asked for by no client in particular (its address and group are shared)."""


@dataclass(eq=False)
class _Job:
    """One piece of work waiting for a helper, or running in one."""

    asker: Asker
    work: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    queued_at: float = field(default_factory=time.perf_counter)


class FairQueue:
    """Work waiting for helpers: round-robin over addresses, then over each one's groups.

    :meth:`pop` gives the next piece of work whose address holds fewer than
    ``per_address`` helpers; :meth:`done` frees the helper it held.
    """

    def __init__(self, per_address: int) -> None:
        if per_address < 1:
            raise ValueError(f"an address must be let hold at least 1 helper, not {per_address}")
        self.per_address = per_address
        """Helpers one address may hold at once."""
        self._waiting: OrderedDict[str, OrderedDict[str, deque[_Job]]] = OrderedDict()
        self._running: dict[str, int] = {}

    def push(self, job: _Job) -> None:
        """Queue ``job`` at the end of its group."""
        groups = self._waiting.setdefault(job.asker.address, OrderedDict())
        groups.setdefault(job.asker.group, deque()).append(job)

    def pop(self) -> _Job | None:
        """The next job to run (its address now holds one more helper), or ``None``.

        Jobs whose caller stopped waiting (a cancelled future) are dropped on the way.
        """
        for address in list(self._waiting):
            if self._running.get(address, 0) >= self.per_address:
                continue
            job = self._next_of(address)
            if job is not None:
                self._running[address] = self._running.get(address, 0) + 1
                return job
        return None

    def _next_of(self, address: str) -> _Job | None:
        """The first live job of ``address``'s first group; both rotate to the back."""
        groups = self._waiting[address]
        while groups:
            group, jobs = next(iter(groups.items()))
            while jobs and jobs[0].future.done():
                jobs.popleft()
            if not jobs:
                del groups[group]
                continue
            job = jobs.popleft()
            if jobs:
                groups.move_to_end(group)
            else:
                del groups[group]
            if groups:
                self._waiting.move_to_end(address)
            else:
                del self._waiting[address]
            return job
        del self._waiting[address]
        return None

    def done(self, job: _Job) -> None:
        """``job`` finished: its address holds one helper fewer."""
        address = job.asker.address
        left = self._running.get(address, 0) - 1
        if left > 0:
            self._running[address] = left
        else:
            self._running.pop(address, None)

    def waiting(self) -> int:
        """Jobs queued, those whose caller stopped waiting among them."""
        return sum(len(jobs) for groups in self._waiting.values() for jobs in groups.values())

    def running(self, address: str) -> int:
        """Helpers ``address`` holds now."""
        return self._running.get(address, 0)


def _follow_server(server: int) -> None:
    """In a helper process: exit as soon as the server process ``server`` is gone.

    A helper would otherwise outlive a killed server, waiting for work that never comes.
    """

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="closingbell-follow-server", daemon=True).start()


def _ready() -> bool:
    """In a helper process: nothing, once the modules of its work are loaded (see ``warm``)."""
    return True


def _choose(bot: Bot, view: View) -> tuple[int, Bot]:
    """A bot's action from a view, and the bot itself with its generator moved on."""
    return bot.choose(view), bot


def default_share(processes: int) -> int:
    """Helpers one address may hold at once when not told: half of them, at least one."""
    return max(1, processes // 2)


class BotPool:
    """Where bots think: search work in helper processes, served fairly; the others in threads.

    The bot travels to the helper with the view and comes back with its generator moved
    on, so a bot's choices stay a sequence from its seed. The helpers start with the first
    piece of search work. With ``processes=0`` search work runs in threads of the server,
    as it comes (for tests, and machines where no process may be started).
    """

    def __init__(self, processes: int | None, per_address: int | None = None) -> None:
        if processes is not None and processes < 0:
            raise ValueError(f"bot processes must be 0 or more, not {processes}")
        self.processes = (os.cpu_count() or 1) if processes is None else processes
        """How many helper processes at most (0: search bots think in a thread)."""
        share = default_share(self.processes) if per_address is None else per_address
        self.queue = FairQueue(max(1, share))
        """The search work waiting for a helper."""
        self._executor: ProcessPoolExecutor | None = None
        self._warming: asyncio.Future[bool] | None = None
        self._busy = 0
        self._quick: ThreadPoolExecutor | None = None

    @property
    def started(self) -> bool:
        """Whether the helper processes are running."""
        return self._executor is not None

    async def choose(self, bot: Bot, view: View, asker: Asker = NOBODY) -> tuple[int, Bot]:
        """The bot's action from the view, and the bot to keep for its next move."""
        if not bot.searches:
            if self._quick is None:
                self._quick = ThreadPoolExecutor(QUICK_THREADS, "closingbell-quick-bot")
            return await asyncio.get_running_loop().run_in_executor(self._quick, _choose, bot, view)
        return await self.run(_choose, bot, view, asker=asker)

    async def run(self, work: Callable[..., T], *args: Any, asker: Asker = NOBODY) -> T:
        """``work(*args)`` in a helper process when its turn comes (a thread without them).

        For work too long for the event loop: a search, a finished game's replay, a piece
        of a review. ``asker`` says whose work it is (:class:`FairQueue`).
        """
        if self.processes == 0:
            return await asyncio.to_thread(work, *args)
        job = _Job(asker, work, args, asyncio.get_running_loop().create_future())
        self.queue.push(job)
        self._dispatch()
        result: T = await job.future
        return result

    def waiting(self) -> int:
        """Pieces of search work waiting for a helper."""
        return self.queue.waiting()

    def _dispatch(self) -> None:
        """Start queued work while a helper is free (any number, in threads, without them)."""
        while self.processes == 0 or self._busy < self.processes:
            job = self.queue.pop()
            if job is None:
                return
            self._busy += 1
            task = asyncio.ensure_future(self._execute(job))
            task.add_done_callback(partial(self._finished, job))

    def _finished(self, job: _Job, _task: asyncio.Future[None]) -> None:
        self._busy -= 1
        self.queue.done(job)
        self._dispatch()

    async def _execute(self, job: _Job) -> None:
        """Run ``job`` in a helper; its caller gets the result or the exception."""
        try:
            result = await self._in_helper(job.work, *job.args)
        except asyncio.CancelledError:  # the server stops
            job.future.cancel()
            raise
        except Exception as exc:  # the caller's to handle, as if it had run the work
            if not job.future.done():
                job.future.set_exception(exc)
        else:
            if not job.future.done():
                job.future.set_result(result)

    async def _in_helper(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a helper process (started now if none runs), or in a thread."""
        if self.processes == 0:
            return await asyncio.to_thread(work, *args)
        executor = self._executor
        try:
            if executor is None:
                # Spawned, not forked: the server process has threads and an event loop.
                context = multiprocessing.get_context("spawn")
                executor = self._executor = ProcessPoolExecutor(
                    self.processes,
                    mp_context=context,
                    initializer=_follow_server,
                    initargs=(os.getpid(),),
                )
            return await asyncio.get_running_loop().run_in_executor(executor, work, *args)
        except OSError as exc:
            # No processes may be started here (a sandbox without shared memory, say):
            # the bots think in threads from now on.
            log.error("the bots' helper processes cannot start (%s); bots think in threads", exc)
            self.processes = 0
            if executor is not None:
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
            return await asyncio.to_thread(work, *args)
        except BrokenProcessPool:
            if executor is not None and self._executor is executor:
                log.error("a bots' helper process died; new ones start with the next move")
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
            return await asyncio.to_thread(work, *args)

    def warm(self) -> None:
        """Start a helper process now, in the background, unless they run already.

        Spawning one takes a second or more: a table that may soon ask for a hint (a
        practice table) starts it as its player sits down, rather than on the first hint.
        """
        if self.processes == 0 or self._executor is not None or self._warming is not None:
            return
        task = asyncio.ensure_future(self._in_helper(_ready))
        self._warming = task
        task.add_done_callback(self._warmed)

    def _warmed(self, task: asyncio.Future[bool]) -> None:
        self._warming = None
        if not task.cancelled() and task.exception() is not None:
            log.error("a bots' helper process did not start: %s", task.exception())

    async def stop(self) -> None:
        """Stop the helper processes, after the moves being worked out (which are dropped)."""
        executor, self._executor = self._executor, None
        quick, self._quick = self._quick, None
        for pool in (executor, quick):
            if pool is not None:
                await asyncio.to_thread(_shut_down, pool)


def _shut_down(pool: Executor) -> None:
    pool.shutdown(wait=True, cancel_futures=True)
