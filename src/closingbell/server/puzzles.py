"""Puzzles over HTTP: the next puzzle, the puzzle of the day, answers, and the page.

The routes are described in docs/protocol.md ("Puzzles"). A puzzle is sent as its seat's
view of the position with the legal actions in words: never the position itself (it holds
every hidden card), never the best action or what the actions are worth. Those come in
the answer, after a choice. Anyone may play; an account's first answer to each puzzle is
stored and rated (``server.store.puzzles``). The puzzles closingbell ships are added to the
database the first time a server is asked for puzzles (each puzzle checked as it is read).
"""

from __future__ import annotations

import asyncio
import json
import random
from functools import partial
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, StrictInt

from closingbell.core.registry import available_games
from closingbell.puzzles.model import Puzzle, shipped_files
from closingbell.puzzles.themes import THEMES
from closingbell.server.errors import WebError
from closingbell.server.players import hub_of, session_user, signed_in
from closingbell.server.protocol import ErrorCode, LegalAction
from closingbell.server.ratings import displayed
from closingbell.server.store.puzzles import PuzzleRating, PuzzleRepository, PuzzleRow
from closingbell.text.games import narrator_for
from closingbell.text.i18n import LANGS, translations
from closingbell.text.names import game_title, seat_name
from closingbell.text.puzzles import question, theme_words, verdict

router = APIRouter()
"""The routes of this module, included by the app."""

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""Where the pages' files are."""

ID_MAX = 12
"""The length of a puzzle's id: a longer one names no puzzle."""
HISTORY_MAX = 100
"""The most answers one history request gives."""


class ThemeInfo(BaseModel):
    """A theme as a filter shows it."""

    name: str
    """Its name (``?theme=``)."""
    label: str
    """Its name in words."""
    help: str
    """What it is about, in one sentence."""


class PuzzleShown(BaseModel):
    """A puzzle as a player sees it before choosing: the seat's view and the choices."""

    type: Literal["puzzle"] = "puzzle"
    id: str
    """The puzzle's id (answer to ``POST /api/puzzles/{id}/answer``)."""
    game: str
    """The game's name."""
    title: str
    """The game's title in the language asked for."""
    options: dict[str, Any]
    """The rules options, ``players`` among them."""
    seat: int
    """The seat that decides (from 0)."""
    names: list[str]
    """Each seat's name ("Player 2 (you)" for the seat that decides)."""
    view: dict[str, Any]
    """The seat's view of the position (``state.view(seat).to_dict()``)."""
    legal: list[LegalAction]
    """The choices, in words."""
    question: str
    """The question, in one sentence."""
    themes: list[ThemeInfo]
    """What the puzzle is about."""
    rating: float
    """The puzzle's rating, as players' ratings are shown."""
    tried: int
    """How many accounts answered it."""
    solved: int
    """How many of them solved it at the first try."""
    daily: bool
    """Whether it is the puzzle of the day."""


class Answer(BaseModel):
    """A choice: ``{"action": ID}``."""

    model_config = ConfigDict(extra="forbid")
    action: StrictInt
    """The action chosen (one of the puzzle's ``legal``)."""


class ActionWorth(BaseModel):
    """One choice and what the analysis found it worth, each figure ``[mean, low, high]``."""

    action: int
    """The action id."""
    label: str
    """The action in words."""
    margin: list[float]
    """The seat's final margin over the best other seat after it (at the round's end for a
    puzzle whose ``horizon`` is ``"round"``)."""
    win: list[float]
    """The seat's chance of winning after it (of leading at the round's end, likewise)."""
    behind: list[float]
    """How much less final margin than the best action it gives (zeros for the best)."""


class RatingChange(BaseModel):
    """An account's puzzle rating in the puzzle's game, before and after its first answer."""

    before: float
    """The rating before the first answer."""
    after: float
    """The rating after it."""
    tried: int
    """Puzzles of this game the account has answered."""
    solved: int
    """Of those, solved at the first try."""


class PuzzleAnswered(BaseModel):
    """The answer to a choice: right or wrong, the best action, and why."""

    type: Literal["puzzle_answer"] = "puzzle_answer"
    id: str
    """The puzzle's id."""
    chosen: int
    """The action chosen."""
    best: int
    """The best action."""
    solved: bool
    """Whether the choice is the best action."""
    verdict: str
    """Right or wrong, in words."""
    worths: list[ActionWorth]
    """Every choice, best first."""
    reason: str
    """Why the best action beats the next best."""
    horizon: Literal["game", "round"]
    """Where the worths were measured: at the game's end (final margins, chances of winning)
    or, for Take Stock puzzles, at the end of the puzzle's round (standings, chances of
    leading then)."""
    first: bool | None
    """For an account, whether this was its first answer (the one rated); ``None`` for a guest."""
    rating: RatingChange | None
    """For an account, its puzzle rating in this game; ``None`` for a guest."""
    puzzle_rating: float
    """The puzzle's rating after the answer."""


async def puzzles_of(request: Request) -> PuzzleRepository:
    """The server's puzzles, the shipped ones added first if the database lacks any."""
    hub = hub_of(request)
    store = hub.store.puzzles
    state = request.app.state
    if getattr(state, "puzzles_loaded", False):
        return store
    if getattr(state, "puzzles_loading", None) is None:
        state.puzzles_loading = asyncio.Lock()  # one app's lock, on its own event loop
    async with state.puzzles_loading:
        if not getattr(state, "puzzles_loaded", False):
            have = await store.ids()
            lines = await asyncio.to_thread(_shipped_lines)
            wanted = [line for key, line in lines if key not in have]
            if wanted:
                found = await asyncio.to_thread(
                    lambda: [Puzzle.from_json(json.loads(line)) for line in wanted]
                )
                await store.add(found)
            state.puzzles_loaded = True
    return store


def _shipped_lines() -> list[tuple[str, str]]:
    """Each shipped puzzle's id and line (ids read without checking the puzzle)."""
    out = []
    for path in shipped_files():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append((str(json.loads(line).get("id")), line))
    return out


def _lang(lang: str) -> str:
    if lang not in LANGS:
        raise WebError(
            ErrorCode.BAD_REQUEST, f"unknown language {lang!r}: one of {', '.join(LANGS)}", 422
        )
    return lang


def _game(game: str) -> str:
    if game not in available_games():
        known = ", ".join(available_games())
        raise WebError(ErrorCode.UNKNOWN_GAME, f"no game {game!r} (known: {known})", 422)
    return game


def _theme(game: str, theme: str | None) -> str | None:
    if theme is None or theme == "":
        return None
    if theme not in THEMES.get(game, ()):
        known = ", ".join(THEMES.get(game, ()))
        raise WebError(ErrorCode.BAD_REQUEST, f"no theme {theme!r} in {game} (known: {known})", 422)
    return theme


def _names(puzzle: Puzzle, lang: str) -> list[str]:
    names = [seat_name(q, lang) for q in range(int(puzzle.options["players"]))]
    names[puzzle.seat] = translations(lang).gettext("Player {n} (you)").format(n=puzzle.seat + 1)
    return names


def _themes(game: str, names: tuple[str, ...], lang: str) -> list[ThemeInfo]:
    words = theme_words(game, lang)
    return [ThemeInfo(name=t, label=words[t][0], help=words[t][1]) for t in names if t in words]


def shown(row: PuzzleRow, lang: str, *, daily: bool = False) -> PuzzleShown:
    """The puzzle of ``row`` as a player sees it before choosing, in ``lang``."""
    puzzle = row.puzzle
    game = puzzle.make_game()
    view = puzzle.view(game)
    names = _names(puzzle, lang)
    narrator = narrator_for(game, names, lang)
    legal = [
        LegalAction(
            id=a,
            text=game.action_to_string(a),
            label=None if narrator is None else narrator.describe_action(view, a),
        )
        for a in getattr(view, "legal_actions", ())
    ]
    return PuzzleShown(
        id=puzzle.id,
        game=puzzle.game,
        title=game_title(puzzle.game, lang),
        options=dict(puzzle.options),
        seat=puzzle.seat,
        names=names,
        view=view.to_dict(),
        legal=legal,
        question=question(lang),
        themes=_themes(puzzle.game, puzzle.themes, lang),
        rating=displayed(row.mu, row.sigma),
        tried=row.tried,
        solved=row.solved,
        daily=daily,
    )


@router.get("/api/puzzles")
async def puzzle_index(request: Request, lang: str = "en") -> dict[str, Any]:
    """Each game's puzzles and themes, counted, and the signed-in account's puzzle ratings."""
    lang = _lang(lang)
    store = await puzzles_of(request)
    counts = await store.counts()
    themes = await store.theme_counts()
    user = await session_user(request)
    mine = {} if user is None else await store.ratings(user.id)
    games = []
    for name in available_games():
        words = theme_words(name, lang)
        games.append(
            {
                "game": name,
                "title": game_title(name, lang),
                "count": counts.get(name, 0),
                "themes": [
                    {
                        **ThemeInfo(name=t, label=words[t][0], help=words[t][1]).model_dump(),
                        "count": themes.get((name, t), 0),
                    }
                    for t in THEMES.get(name, ())
                ],
            }
        )
    return {
        "games": games,
        "ratings": None if user is None else {g: _rating(r) for g, r in mine.items()},
    }


def _rating(r: PuzzleRating) -> dict[str, Any]:
    return {"rating": r.rating, "tried": r.tried, "solved": r.solved}


@router.get("/api/puzzles/next")
async def next_puzzle(
    request: Request,
    game: str = "take_stock",
    theme: str | None = None,
    lang: str = "en",
    skip: str | None = Query(default=None, max_length=ID_MAX),
) -> PuzzleShown:
    """A puzzle of ``game`` (of ``theme``) for the signed-in account or a guest."""
    lang, game = _lang(lang), _game(game)
    chosen = _theme(game, theme)
    store = await puzzles_of(request)
    user = await session_user(request)
    row = await store.pick(game, chosen, None if user is None else user.id, skip, random.Random())
    if row is None:
        about = f" about {chosen}" if chosen else ""
        raise WebError(ErrorCode.NOT_FOUND, f"no puzzle of {game}{about} yet", 404)
    return await asyncio.to_thread(shown, row, lang)


@router.get("/api/puzzles/daily")
async def daily_puzzle(request: Request, game: str = "take_stock", lang: str = "en") -> PuzzleShown:
    """The puzzle of the day of ``game``: the same for everyone until midnight UTC."""
    lang, game = _lang(lang), _game(game)
    store = await puzzles_of(request)
    today = hub_of(request).clock().date()
    row = await store.daily(game, today)
    if row is None:
        raise WebError(ErrorCode.NOT_FOUND, f"no puzzle of {game} yet", 404)
    return await asyncio.to_thread(shown, row, lang, daily=True)


@router.get("/api/puzzles/history")
async def puzzle_history(
    request: Request, limit: int = Query(default=20, ge=1, le=HISTORY_MAX)
) -> dict[str, Any]:
    """The signed-in account's answers, newest first (``401 sign_in_required`` for a guest)."""
    user = await signed_in(request)
    store = await puzzles_of(request)
    found = await store.history(user.id, limit)
    return {"attempts": found}


@router.get("/api/puzzles/{puzzle_id}")
async def one_puzzle(request: Request, puzzle_id: str, lang: str = "en") -> PuzzleShown:
    """The puzzle ``puzzle_id``, as ``/next`` sends one (to try again, or to share)."""
    lang = _lang(lang)
    store = await puzzles_of(request)
    row = await store.get(puzzle_id) if len(puzzle_id) <= ID_MAX else None
    if row is None:
        raise WebError(ErrorCode.NOT_FOUND, f"there is no puzzle {puzzle_id!r}", 404)
    return await asyncio.to_thread(shown, row, lang)


@router.post("/api/puzzles/{puzzle_id}/answer")
async def answer_puzzle(
    request: Request, puzzle_id: str, body: Answer, lang: str = "en"
) -> PuzzleAnswered:
    """Answer a puzzle with one of its choices: right or wrong, the best action and why."""
    lang = _lang(lang)
    store = await puzzles_of(request)
    row = await store.get(puzzle_id) if len(puzzle_id) <= ID_MAX else None
    if row is None:
        raise WebError(ErrorCode.NOT_FOUND, f"there is no puzzle {puzzle_id!r}", 404)
    puzzle = row.puzzle
    legal = [w.action for w in puzzle.worths]
    if body.action not in legal:
        raise WebError(
            ErrorCode.ILLEGAL_ACTION,
            f"action {body.action} is not one of this puzzle's choices",
            422,
        )
    user = await session_user(request)
    first: bool | None = None
    change: RatingChange | None = None
    puzzle_mu, puzzle_sigma = row.mu, row.sigma
    if user is not None:
        attempt = await store.answer(user.id, row, body.action)
        first = attempt.first
        change = RatingChange(
            before=attempt.before.rating,
            after=attempt.after.rating,
            tried=attempt.after.tried,
            solved=attempt.after.solved,
        )
        puzzle_mu, puzzle_sigma = attempt.puzzle_mu, attempt.puzzle_sigma
    return await asyncio.to_thread(
        partial(
            _answered,
            row,
            body.action,
            lang,
            first=first,
            change=change,
            rating=displayed(puzzle_mu, puzzle_sigma),
        )
    )


def _answered(
    row: PuzzleRow,
    chosen: int,
    lang: str,
    *,
    first: bool | None,
    change: RatingChange | None,
    rating: float,
) -> PuzzleAnswered:
    puzzle = row.puzzle
    game = puzzle.make_game()
    view = puzzle.view(game)
    narrator = narrator_for(game, _names(puzzle, lang), lang)

    def label(a: int) -> str:
        return game.action_to_string(a) if narrator is None else narrator.describe_action(view, a)

    solved = chosen == puzzle.best
    return PuzzleAnswered(
        id=puzzle.id,
        chosen=chosen,
        best=puzzle.best,
        solved=solved,
        verdict=verdict(lang, solved),
        worths=[
            ActionWorth(
                action=w.action,
                label=label(w.action),
                margin=list(w.margin),
                win=list(w.win),
                behind=list(w.behind),
            )
            for w in puzzle.worths
        ],
        reason=puzzle.reason.get(lang) or puzzle.reason.get("en", ""),
        horizon="round" if puzzle.horizon == "round" else "game",
        first=first,
        rating=change,
        puzzle_rating=rating,
    )


@router.get("/puzzles", include_in_schema=False)
async def puzzles_page() -> FileResponse:
    """The puzzles page."""
    return FileResponse(STATIC_DIR / "puzzles.html")
