"""Reviews of a finished game's seats: analysed decision by decision off the event loop, kept.

A review (``closingbell.text.review``) analyses every decision of one seat with a choice, each
over a fixed budget of worlds: seconds of CPU for a whole game, far too long for the event
loop, and too long for one piece of work in the bots' helper processes, where the tables'
search bots think too. So a review runs as a sequence of small pieces of work in those
helpers (:class:`~closingbell.server.thinking.BotPool`; a thread when there are none): first
the list of the seat's decisions, then one piece per decision, then the words in every
language at once. A bot's move waits behind one decision at most, the event loop never
waits, and the progress (decision *k* of *n*, the time left) is known between pieces.

Finished reviews are kept as JSON text, one per language, in a cache bounded in bytes, the
least recently asked for going first: a finished game never changes, and the budget and
seed are fixed, so a review is the same every time it is worked out. At most
``at_once`` reviews are worked out at a time; asking for another is refused
(:class:`TooManyReviews`) until one is done.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from closingbell.bots.analysis import Analyst, DecisionAnalysis
from closingbell.core.registry import load_game
from closingbell.server.replays import FinishedGame, Runner, dumps
from closingbell.server.thinking import Asker
from closingbell.text.i18n import LANGS
from closingbell.text.review import analyze_decision, decisions_of, review_data

log = logging.getLogger(__name__)

REVIEW_SEED = 0
"""The seed of the server's reviews. With the server's budget (``Settings.review_budget``,
128 worlds), ``closingbell analyze FILE --seat N --budget 128`` (whose seed is 0 too) gives
the same figures from the game's record file."""
FAILED_KEPT = 64
"""Failed reviews remembered, so that asking about one says it failed (the oldest go first)."""
ESTIMATE_AFTER = 3
"""Decisions analysed before a review says how long it has left: the first ones may wait for
a helper process to start or be free, and say little of the pace."""
ESTIMATE_WINDOW = 12
"""The latest decisions whose pace the time left is worked out from."""


# ---------------------------------------------------------------- the pieces of work


def review_plan(game: FinishedGame, seat: int) -> list[int]:
    """The places in ``game``'s actions (from 0) where ``seat`` chose among several."""
    played = load_game(game.game, **game.options)
    return decisions_of(game.start(played), game.history, seat)


def decision_cost(game: FinishedGame, index: int) -> int:
    """How much work the decision before action ``index`` is, next to the game's others.

    Every legal action is played out to the game's end in every world, so a decision costs
    about as many actions as are left to play: an early one several times a late one.
    """
    return max(1, len(game.history) - index)


def review_decision(game: FinishedGame, index: int, budget: int, seed: int) -> DecisionAnalysis:
    """The analysis of the decision before action ``index`` of ``game``, from its seat's view."""
    played = load_game(game.game, **game.options)
    analyst = Analyst(played, worlds=budget, seed=seed)
    return analyze_decision(game.start(played), game.history, index, analyst)


def review_texts(
    game: FinishedGame,
    seat: int,
    analyses: dict[int, DecisionAnalysis],
    budget: int,
    seed: int,
) -> dict[str, bytes]:
    """The review of ``seat`` in every language, as JSON text (docs/records.md, Reviews)."""
    played = load_game(game.game, **game.options)
    start = game.start(played)
    return {
        lang: dumps(
            review_data(
                start,
                game.history,
                seat,
                analyses,
                names=game.names_in(lang),
                budget=budget,
                seed=seed,
                lang=lang,
            )
        )
        for lang in LANGS
    }


# ---------------------------------------------------------------- reviews under way and kept


class TooManyReviews(Exception):
    """As many reviews as the server works out at once are under way."""

    def __init__(self, at_once: int, retry_after: int) -> None:
        super().__init__(
            f"the server is working out {at_once} reviews already; try again in a moment"
        )
        self.retry_after = retry_after
        """Seconds after which one of them should be done."""


@dataclass(eq=False)
class Review:
    """One seat's review of one finished table: under way, done or failed."""

    table_id: str
    """The table's id."""
    seat: int
    """The seat reviewed, from 0."""
    total: int | None = None
    """How many decisions it analyses (``None`` until they are counted)."""
    done: int = 0
    """How many are analysed so far."""
    clock: Callable[[], float] = time.monotonic
    """The time now, in seconds (tests give a clock of their own)."""
    costs: list[int] = field(default_factory=list)
    """How much work each decision is (:func:`decision_cost`), in the order they are analysed."""
    finished: list[float] = field(default_factory=list)
    """When the decisions were counted, then when each was analysed (``clock`` times)."""
    texts: dict[str, bytes] | None = None
    """The review as JSON text in each language, once done."""
    failed: bool = False
    """Whether the work failed (the server's log says why); asking again starts it afresh."""
    task: asyncio.Task[None] | None = None
    """The work under way."""

    @property
    def status(self) -> str:
        """``working``, ``done`` or ``failed``."""
        if self.texts is not None:
            return "done"
        return "failed" if self.failed else "working"

    def planned(self, costs: Sequence[int]) -> None:
        """The decisions to analyse were counted: each one's cost, in order."""
        self.costs = list(costs)
        self.total = len(self.costs)
        self.finished = [self.clock()]

    def decided(self) -> None:
        """One more decision was analysed."""
        self.done += 1
        self.finished.append(self.clock())

    def seconds_left(self) -> float | None:
        """About how long the work has left (``None``: not known yet).

        From the pace of the latest :data:`ESTIMATE_WINDOW` decisions, per unit of cost, times
        the cost of the decisions left; none before :data:`ESTIMATE_AFTER` are done. Counting
        the decisions and waiting for a helper to start are left out, and so is the difference
        between an early decision, with a long game left to play out, and a late one.
        """
        if self.texts is not None:
            return 0.0
        if self.failed or self.total is None or self.done < min(ESTIMATE_AFTER, self.total):
            return None
        recent = min(self.done, ESTIMATE_WINDOW)
        spent = self.finished[self.done] - self.finished[self.done - recent]
        cost = sum(self.costs[self.done - recent : self.done])
        left = sum(self.costs[self.done :])
        return round(max(0.0, spent) / max(1, cost) * left, 1)

    def answer(self, lang: str) -> bytes:
        """The answer of ``GET /api/tables/{id}/review``: the progress, then the review."""
        head = dumps(
            {
                "table_id": self.table_id,
                "seat": self.seat,
                "status": self.status,
                "done": self.done,
                "total": self.total,
                "seconds_left": self.seconds_left(),
            }
        )
        body = b"null" if self.texts is None else self.texts[lang]
        return head[:-1] + b',"review":' + body + b"}"


class ReviewCache:
    """Seats' reviews, worked out by ``run`` piece by piece and kept.

    Each decision gets ``budget`` worlds dealt from ``seed``. At most ``at_once`` reviews are
    worked out at a time, and at most ``limit`` bytes of finished reviews are kept.
    """

    def __init__(
        self,
        run: Runner,
        *,
        budget: int,
        seed: int,
        limit: int,
        at_once: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if budget < 2:
            raise ValueError(f"a review's budget is at least 2 worlds, not {budget}")
        if at_once < 1:
            raise ValueError(f"at least one review must be allowed at once, not {at_once}")
        self.budget = budget
        """Worlds per decision."""
        self.seed = seed
        """The seed of every analysis."""
        self.limit = limit
        """The most bytes of finished reviews kept."""
        self.at_once = at_once
        """The most reviews worked out at a time."""
        self.size = 0
        """Bytes of finished reviews kept now."""
        self.clock = clock
        """The time now, in seconds: the reviews' pace is measured with it."""
        self._run = run
        self._kept: OrderedDict[tuple[str, int], Review] = OrderedDict()
        self._under_way: dict[tuple[str, int], Review] = {}
        self._failed: OrderedDict[tuple[str, int], Review] = OrderedDict()

    def find(self, table_id: str, seat: int) -> Review | None:
        """The review of ``seat`` at ``table_id`` kept or under way here, if any."""
        key = (table_id, seat)
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        return self._under_way.get(key) or self._failed.get(key)

    def start(self, game: FinishedGame, seat: int, address: str = "") -> Review:
        """The review of ``seat`` in ``game``: kept, under way, or started now.

        ``address`` is the client's that asks: the review's work is counted against it when
        the helpers' turns are shared out (``server.thinking``).
        Raises :class:`TooManyReviews` when ``at_once`` reviews are under way already.
        """
        found = self.find(game.table_id, seat)
        if found is not None and not found.failed:
            return found
        if len(self._under_way) >= self.at_once:
            lefts = [r.seconds_left() for r in self._under_way.values()]
            soonest = min(60.0 if left is None else left for left in lefts)
            raise TooManyReviews(self.at_once, max(1, math.ceil(soonest)))
        key = (game.table_id, seat)
        self._failed.pop(key, None)
        review = Review(game.table_id, seat, clock=self.clock)
        self._under_way[key] = review
        asker = Asker(address, f"review {game.table_id} {seat}")
        review.task = asyncio.ensure_future(self._work(review, game, asker))
        return review

    @property
    def working(self) -> int:
        """How many reviews are being worked out now."""
        return len(self._under_way)

    def __len__(self) -> int:
        return len(self._kept)

    async def stop(self) -> None:
        """Give up the reviews under way (the server is stopping)."""
        tasks = [r.task for r in self._under_way.values() if r.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _work(self, review: Review, game: FinishedGame, asker: Asker) -> None:
        key = (review.table_id, review.seat)
        try:
            indices: list[int] = await self._run(review_plan, game, review.seat, asker=asker)
            review.planned([decision_cost(game, index) for index in indices])
            analyses: dict[int, DecisionAnalysis] = {}
            for index in indices:
                analyses[index] = await self._run(
                    review_decision, game, index, self.budget, self.seed, asker=asker
                )
                review.decided()
            texts: dict[str, bytes] = await self._run(
                review_texts, game, review.seat, analyses, self.budget, self.seed, asker=asker
            )
        except asyncio.CancelledError:
            review.failed = True
            raise
        except Exception:
            log.exception("the review of seat %d at table %s failed", review.seat + 1, key[0])
            review.failed = True
            self._failed[key] = review
            while len(self._failed) > FAILED_KEPT:
                self._failed.popitem(last=False)
            return
        finally:
            del self._under_way[key]
        review.texts = texts
        self._keep(key, review)

    def _keep(self, key: tuple[str, int], review: Review) -> None:
        assert review.texts is not None
        size = sum(map(len, review.texts.values()))
        if size > self.limit:
            return
        self._kept[key] = review
        self.size += size
        while self.size > self.limit:
            _, dropped = self._kept.popitem(last=False)
            assert dropped.texts is not None
            self.size -= sum(map(len, dropped.texts.values()))
