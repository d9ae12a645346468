"""Finding puzzles: decisions of real games with one clearly best action.

A decision becomes a puzzle when all of this holds (docs/puzzles.md):

1. **It needs no memory of the past.** The game's position at that moment, read back as a
   position, gives the deciding seat the same view as the game did, in every field but the
   log. A puzzle shows the position, so the seat must have known nothing more.
2. **It is a choice.** The seat has at least two legal actions.
3. **One action is clearly best.** A quick first look over a few worlds
   (:attr:`Criteria.screen`) leaves out decisions whose best two actions are close. Then two
   analyses (:class:`~closingbell.bots.analysis.Analyst`) over :attr:`Criteria.worlds`
   worlds each, dealt independently, must both name the same best action and each put its
   lead over *every* other action above zero with the whole 95% interval, and its mean lead
   over the next best at :attr:`Criteria.lead` or more (5 points in Take Stock, $20 in Card
   Stock Market by default): a difference a player feels. Take Stock's analyses stop at the
   end of the decision's round and deal more worlds (:data:`HORIZONS`, :data:`WORLDS`).
   One analysis alone is not enough: among thousands of decisions whose best actions are
   about equal, one in a few hundred passes it by chance, and in Take Stock, where clear
   decisions are rare, such chance passes outnumbered the real puzzles.

Every analysis reads only the seat's view of the position, as the puzzle shows it. The
worths a puzzle stores are the second analysis's. Decisions come from game records
(:func:`from_record`) or from games the bots play among themselves (:func:`from_selfplay`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from closingbell.bots import make_bot
from closingbell.bots.analysis import Analyst, DecisionAnalysis
from closingbell.core.game import Game, State
from closingbell.core.records import GameRecord, replay_iter
from closingbell.puzzles.model import Puzzle, worth_of
from closingbell.puzzles.themes import themes_of
from closingbell.text.games import narrator_for
from closingbell.text.i18n import LANGS, translations
from closingbell.text.names import seat_name

LEADS: dict[str, float] = {"take_stock": 5.0, "card_stock_market": 20.0}
"""The least mean lead over the next best action, in each game's unit (points, dollars)."""

HORIZONS: dict[str, str] = {"take_stock": "round"}
"""Where each game's analyses stop (:data:`closingbell.bots.analysis.HORIZONS`; default the
game's end). A Take Stock decision's worth at the game's end is blurred by the rounds still
to be dealt (a paired lead's interval is about +-14 points over 48 worlds), so Take Stock
puzzles are judged at the end of their round, as the expert judges its moves."""

WORLDS: dict[str, tuple[int, int]] = {"take_stock": (384, 48), "card_stock_market": (48, 12)}
"""Each game's default worlds of each analysis and of the quick first look. Even at the
round's end a Take Stock lead over 48 worlds is blurred by about +-8 points, more than the
lead asked for, so its analyses deal eight times as many."""


@dataclass(frozen=True)
class Criteria:
    """How hard the finder looks, and what counts as clearly best."""

    worlds: int | None = None
    """Worlds of each of the two analyses (``None``: the game's, :data:`WORLDS`)."""
    screen: int | None = None
    """Worlds of the quick first look (0: none; ``None``: the game's, :data:`WORLDS`)."""
    leads: Mapping[str, float] = field(default_factory=lambda: dict(LEADS))
    """The least mean lead over the next best action, by game."""
    seed: int = 0
    """The seed of the analyses' worlds."""
    horizons: Mapping[str, str] = field(default_factory=lambda: dict(HORIZONS))
    """Where each game's analyses stop (default the game's end)."""

    def __post_init__(self) -> None:
        if self.worlds is not None and self.worlds < 2:
            raise ValueError(f"an analysis needs at least 2 worlds, not {self.worlds}")
        if self.screen is not None and self.screen < 0:
            raise ValueError(f"the first look's worlds cannot be negative, not {self.screen}")

    def lead(self, game: str) -> float:
        """The least lead for ``game``."""
        return self.leads.get(game, 0.0)

    def horizon(self, game: str) -> str:
        """Where ``game``'s analyses stop."""
        return self.horizons.get(game, "game")

    def worlds_for(self, game: str) -> tuple[int, int]:
        """The worlds of each analysis and of the first look for ``game``."""
        worlds, screen = WORLDS.get(game, (48, 12))
        return (
            worlds if self.worlds is None else self.worlds,
            screen if self.screen is None else self.screen,
        )


def memoryless(state: State) -> bool:
    """Whether ``state``'s position gives its deciding seat the view the game gives.

    Every field of the two views but the log (the history a position has not got) must be
    equal: what the seat knows from having watched the game (which cards are gone, which
    events it saw) must be what a position tells.
    """
    seat = state.current_player
    if seat is None:
        return False
    return _same_view(state, state.game.state_from_position(state.to_position()), seat)


def _same_view(state: State, shown: State, seat: int) -> bool:
    """Whether ``seat`` sees the same in ``state`` and in ``shown`` but for the log."""
    played = state.view(seat).to_dict()
    read = shown.view(seat).to_dict()
    played.pop("log", None)
    read.pop("log", None)
    return played == read


def reasons(
    game: Game, state: State, best: int, runner_up: int, found: DecisionAnalysis
) -> dict[str, str]:
    """Why ``best`` beats ``runner_up`` in each language, as the narrator says it."""
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    out = {}
    for lang in LANGS:
        names = [seat_name(q, lang) for q in range(game.players)]
        names[seat] = translations(lang).gettext("Player {n} (you)").format(n=seat + 1)
        narrator = narrator_for(game, names, lang)
        if narrator is None:
            out[lang] = ""
            continue
        out[lang] = narrator.explain(view, runner_up, best, found)
    return out


def clearly_best(found: DecisionAnalysis, least: float) -> bool:
    """Whether ``found``'s best action is clearly best, by ``least`` at the least.

    It must lead every other action with the whole 95% interval above zero, and the next
    best by ``least`` or more on average.
    """
    others = found.actions[1:]
    return all(v.behind.high < 0 for v in others) and -others[0].behind.mean >= least


class Finder:
    """Tells which decisions are puzzles, with a fixed budget of worlds and a seed."""

    def __init__(self, game: Game, criteria: Criteria | None = None, engine: str = "auto"):
        self.game = game
        """The game, with its options."""
        self.criteria = criteria or Criteria()
        """How hard it looks."""
        c = self.criteria
        name = game.info.name
        self.worlds, self.screen = c.worlds_for(name)
        """The worlds of each analysis and of the first look."""
        self.horizon = c.horizon(name)
        """Where the analyses stop."""

        def analyst(worlds: int, seed: int) -> Analyst:
            return Analyst(game, worlds=worlds, seed=seed, engine=engine, horizon=self.horizon)

        self._screen = analyst(max(2, self.screen), c.seed * 3 + 1)
        self._first = analyst(self.worlds, c.seed * 3 + 2)
        self._check = analyst(self.worlds, c.seed * 3 + 3)
        self.looked = 0
        """Decisions looked at (memoryless choices analysed)."""
        self.last: DecisionAnalysis | None = None
        """The last decision's checking analysis (``None`` when it stopped before it)."""

    def consider(self, state: State, source: str) -> Puzzle | None:
        """The puzzle the decision of ``state`` makes, or ``None`` if it makes none.

        ``state`` is not changed. ``source`` says where the decision comes from.
        """
        seat = state.current_player
        if seat is None or len(state.legal_actions()) < 2:
            return None
        game = self.game
        position = state.to_position()
        shown = game.state_from_position(position)
        if not _same_view(state, shown, seat):
            return None
        self.looked += 1
        self.last = None
        name = game.info.name
        view = shown.view(seat)
        least = self.criteria.lead(name)
        if self.screen:
            quick = self._screen.analyze(view)
            # Far behind on a few worlds: the best two actions are too close to tell.
            if -quick.actions[1].behind.mean < least / 2:
                return None
        first = self._first.analyze(view)
        if not clearly_best(first, least):
            return None
        found = self._check.analyze(view)
        self.last = found
        best = first.best
        if found.best != best or not clearly_best(found, least):
            return None
        runner_up = found.actions[1].action
        return Puzzle(
            game=name,
            version=game.info.version,
            options=game.options_dict(),
            position=position,
            seat=seat,
            best=best,
            worths=worth_of(found.actions),
            themes=themes_of(name, view, best, runner_up),
            reason=reasons(game, shown, best, runner_up, found),
            worlds=self.worlds,
            source=source,
            horizon=self.horizon,
        )


def from_record(record: GameRecord, finder: Finder, source: str) -> Iterator[Puzzle]:
    """The puzzles among the decisions of every seat of ``record``'s game.

    The record is replayed and checked as it goes (:class:`~closingbell.RecordError` names
    a bad line); a decision is named by ``source`` and the number of its action.
    """
    puzzle = finder.consider(record.start(), f"{source} action 1")
    if puzzle is not None:
        yield puzzle
    for step in replay_iter(record):
        puzzle = finder.consider(step.state, f"{source} action {step.index + 2}")
        if puzzle is not None:
            yield puzzle


def from_selfplay(
    finder: Finder, games: int, seed: int = 0, bots: Sequence[str] = ("hard",)
) -> Iterator[Puzzle]:
    """The puzzles among the decisions of ``games`` games the bots play among themselves.

    Game ``i`` is dealt from ``seed + i``; its seats are the ``bots`` levels in turn
    (shifted by one seat each game), each bot seeded from the deal.
    """
    game = finder.game
    n = game.players
    for i in range(games):
        deal = seed + i
        kinds = [bots[(q + i) % len(bots)] for q in range(n)]
        players = [make_bot(kinds[q], game, seed=deal * 101 + q) for q in range(n)]
        state = game.new_game(deal)
        step = 0
        while not state.is_terminal():
            puzzle = finder.consider(
                state, f"self-play {'/'.join(kinds)} deal {deal} action {step + 1}"
            )
            if puzzle is not None:
                yield puzzle
            mover = state.current_player
            assert mover is not None
            state.apply(players[mover].choose(state.view(mover)))
            step += 1
