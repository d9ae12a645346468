"""The FastAPI application: the lobby's HTTP routes and one WebSocket per table.

Every route and message is described in docs/protocol.md. The app keeps its tables in a
:class:`~closingbell.server.hub.Hub` made at start-up, after the database has been
migrated (``alembic upgrade head``) and every unfinished table rebuilt from its actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException
from starlette.websockets import WebSocketDisconnect

import closingbell
from closingbell.bots import searches
from closingbell.core.jsontext import JSONDepthError, load_json
from closingbell.core.registry import available_games, game_class
from closingbell.server.accounts import SESSION_COOKIE, AccountError, Clock, utc_now
from closingbell.server.client import CLOSE_SIGNED_OUT, Connection
from closingbell.server.errors import WebError
from closingbell.server.guided import has_tutorial
from closingbell.server.guided import router as guided_router
from closingbell.server.hub import Hub
from closingbell.server.limits import (
    CrossSiteGuard,
    OneCookieHeader,
    RequestLimits,
    SecurityHeaders,
)
from closingbell.server.logs import RequestIds, bound
from closingbell.server.metrics import CONTENT_TYPE, Metrics
from closingbell.server.mygames import router as my_games_router
from closingbell.server.origins import normalize_origin, origin_allowed
from closingbell.server.players import bearer_token, client_address, hub_of, session_user
from closingbell.server.players import router as players_router
from closingbell.server.protocol import (
    CLIENT_MESSAGE,
    Act,
    AnyClientMessage,
    AskHint,
    ChatEntry,
    CreateTable,
    ErrorCode,
    ErrorMessage,
    Hello,
    Joined,
    JoinTable,
    Ping,
    Pong,
    RematchVote,
    Say,
    TableInfo,
    error_body,
    not_json,
)
from closingbell.server.puzzles import router as puzzles_router
from closingbell.server.ratelimit import Floodgate, Limits, Throttle, Verdict
from closingbell.server.replays import FinishedGame, ReplayCache, replay_page
from closingbell.server.reviews import REVIEW_SEED, Review, ReviewCache, TooManyReviews
from closingbell.server.settings import Settings
from closingbell.server.standings import router as standings_router
from closingbell.server.store import Store, default_database_path, hash_token
from closingbell.server.tables import LiveTable
from closingbell.server.tableview import message_for, table_info
from closingbell.server.tournament_routes import router as tournaments_router
from closingbell.server.words import bot_words, game_words, lobby_words, web_messages
from closingbell.text.i18n import LANGS

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The browser page: plain HTML, CSS and JavaScript modules, served as they are."""

POSITIONS_DOC = Path(__file__).resolve().parents[3] / "docs" / "positions.md"
"""How to write a position: ``docs/positions.md`` of the checkout the server runs from (the
lobby's "start from a position" links to it); a server installed without it says where it is."""

CLOSE_UNKNOWN_TABLE = 4404
"""WebSocket close code: the table does not exist."""
CLOSE_HELLO_TIMEOUT = 4408
"""WebSocket close code: no ``hello`` in time."""
CLOSE_TABLE_UNAVAILABLE = 4503
"""WebSocket close code: the table's stored game cannot be rebuilt."""
CLOSE_SLOW_READER = 4413
"""WebSocket close code: the client fell behind in reading what it is sent."""
CLOSE_FLOODING = 4429
"""WebSocket close code: the client kept sending far over its rate limit."""
CLOSE_TRY_AGAIN = 1013
"""WebSocket close code: the table left memory as the connection said ``hello``; connect
again and it is loaded afresh."""
CLOSE_POLICY = 1008
"""WebSocket close code: refused by policy (a refusal before accepting, on servers that
cannot answer it with an HTTP error body)."""
CLOSE_REASONS = {
    CLOSE_SIGNED_OUT: "signed out: sign in again",
    CLOSE_SLOW_READER: "too slow a reader: reconnect",
    CLOSE_FLOODING: "too many messages",
}
"""The reason sent with each close code the client could not tell otherwise."""
CLOSE_WAIT = 1.0
"""Seconds a closing connection is given to send its last messages and close frame."""
SLOW_READER_WAIT = 5.0
"""Seconds a client that fell behind is given to read on until there is room for the
close frame; then its connection is dropped without one."""
RATE_LIMITED = "too many messages; slow down (more are dropped unanswered for a while)"
"""The message of a ``rate_limited`` error."""
READY_TIMEOUT = 2.0
"""Seconds the database has to answer ``GET /readyz``'s question before the server is said
not to be ready."""


def create_app(
    database_url: str | None = None,
    *,
    settings: Settings | None = None,
    clock: Clock = utc_now,
    **changes: Any,
) -> FastAPI:
    """The web app on ``database_url`` (default: an SQLite file in the user's data folder).

    ``settings`` (or keyword ``changes`` to the defaults, such as ``bot_delay=0``) say how
    the server behaves; see :class:`~closingbell.server.settings.Settings`. ``clock`` is the
    wall clock (UTC) of sessions and of games over days; tests give one of their own.
    """
    chosen = dataclasses.replace(settings or Settings(), **changes)
    origins = tuple(normalize_origin(o) for o in chosen.allowed_origins)
    chosen = dataclasses.replace(chosen, allowed_origins=origins)
    if database_url is None:
        path = default_database_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        database_url = str(path)
    url = database_url

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await start(app)
        hub = app.state.hub
        app.state.replays = ReplayCache(hub.bots.run, chosen.replay_cache)
        app.state.reviews = reviews = ReviewCache(
            hub.bots.run,
            budget=chosen.review_budget,
            seed=REVIEW_SEED,
            limit=chosen.review_cache,
            at_once=chosen.reviews_at_once,
        )
        hub.memory.start()
        try:
            yield
        finally:
            hub.stopping = True  # not ready from now on (GET /readyz)
            await reviews.stop()
            await hub.memory.stop()
            await hub.stop()
            app.state.hub = None

    app = FastAPI(title="closingbell", version=closingbell.__version__, lifespan=lifespan)
    app.state.database_url = url
    app.state.settings = chosen
    app.state.clock = clock
    app.state.hub = None
    app.state.metrics = metrics = Metrics()
    app.add_middleware(RequestLimits, settings=chosen, metrics=metrics)
    app.add_middleware(
        CrossSiteGuard, allowed=chosen.allowed_origins, cookie=SESSION_COOKIE, metrics=metrics
    )
    app.add_middleware(SecurityHeaders)  # outside the limits, so that refusals have them too
    app.add_middleware(RequestIds)  # outside the others, so every answer has its id
    app.add_middleware(OneCookieHeader)  # added last: the outermost, before anyone reads
    app.state.floodgate = Floodgate(_limits(chosen))
    _add_error_handlers(app)
    _add_routes(app)
    app.include_router(players_router)
    app.include_router(my_games_router)
    app.include_router(standings_router)
    app.include_router(guided_router)
    app.include_router(puzzles_router)
    app.include_router(tournaments_router)
    app.add_api_websocket_route("/ws/tables/{table_id}", _play)
    return app


async def start(app: FastAPI) -> None:
    """Open the app's database and rebuild its tables, unless done already.

    The app's lifespan calls it; a server that calls it first (``closingbell serve``) can
    tell a refused database in one line. Raises
    :class:`~closingbell.server.store.UnusableDatabaseError` for a database the server will
    not use (docs/web.md).
    """
    if app.state.hub is None:
        hub = Hub(
            Store(app.state.database_url),
            app.state.settings,
            app.state.metrics,
            clock=app.state.clock,
        )
        await hub.start()
        app.state.hub = hub


def _limits(settings: Settings) -> Limits:
    """The WebSocket limits of ``settings``."""
    return Limits(
        rate=settings.rate,
        burst=settings.burst,
        window=settings.refusal_window,
        flood_limit=settings.flood_limit,
        connections=settings.address_connections,
        connect_rate=settings.address_connect_rate,
        address_rate=settings.address_rate,
        address_burst=settings.address_burst,
    )


_hub = hub_of
"""The server's tables (and accounts) of a request or WebSocket."""


def _replays(request: Request) -> ReplayCache:
    replays = request.app.state.replays
    assert isinstance(replays, ReplayCache)
    return replays


def _reviews(request: Request) -> ReviewCache:
    reviews = request.app.state.reviews
    assert isinstance(reviews, ReviewCache)
    return reviews


def _metrics(request: Request | WebSocket) -> Metrics:
    metrics = request.app.state.metrics
    assert isinstance(metrics, Metrics)
    return metrics


def _error(
    request: Request | WebSocket, code: ErrorCode, message: str, status: int, **details: Any
) -> JSONResponse:
    """The HTTP answer of a refusal, counted in the metrics."""
    _metrics(request).error(code)
    return JSONResponse(error_body(code, message, **details), status_code=status)


def _add_error_handlers(app: FastAPI) -> None:
    async def web_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, WebError)
        answer = _error(request, exc.code, exc.message, exc.status, **exc.details)
        if exc.retry_after is not None:
            answer.headers["Retry-After"] = str(exc.retry_after)
        return answer

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()

        def about(field: str) -> list[Any]:
            return [
                e
                for e in errors
                if tuple(e.get("loc", ()))[-1:] == (field,) and e.get("type") != "missing"
            ]

        if about("name"):
            return _error(request, ErrorCode.BAD_NAME, _describe(errors), 422)
        position = about("position")
        if position:
            # Too long, or not text: the page shows the reason as it shows a position's own.
            reason = str(position[0].get("msg", "invalid"))
            return _error(
                request, ErrorCode.BAD_POSITION, _describe(errors), 422, field=None, reason=reason
            )
        return _error(request, ErrorCode.BAD_REQUEST, _describe(errors), 422)

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        # Starlette's and FastAPI's own refusals (an unknown path, a method the path does
        # not take, a body that could not be read), in the server's error body.
        assert isinstance(exc, HTTPException)
        status, headers = exc.status_code, dict(exc.headers or {})
        if status == 404:
            code, message = ErrorCode.NOT_FOUND, "there is no such page or route"
        elif status == 405:
            allowed = headers.get("allow") or headers.get("Allow") or "none"
            code = ErrorCode.METHOD_NOT_ALLOWED
            message = f"{request.method} is not taken here (allowed: {allowed})"
        elif isinstance(exc.__cause__, ValueError):
            # FastAPI's "There was an error parsing the body": JSON that Python would not
            # read (an integer of too many digits, text that is not UTF-8). Answered as
            # other malformed JSON is (a RequestValidationError, below).
            code, message, status = ErrorCode.BAD_REQUEST, f"body: {not_json(exc.__cause__)}", 422
        else:
            code = ErrorCode.SERVER_ERROR if status >= 500 else ErrorCode.BAD_REQUEST
            message = str(exc.detail)
        response = _error(request, code, message, status)
        response.headers.update(headers)
        return response

    async def crashed(request: Request, exc: Exception) -> JSONResponse:
        # A fault of the server's own: answered in the error body all the same, and raised
        # again after the answer by Starlette, so that the log has its traceback.
        message = "the server failed to answer: its log says why"
        return _error(request, ErrorCode.SERVER_ERROR, message, 500)

    app.add_exception_handler(WebError, web_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, crashed)


def _describe(errors: Any) -> str:
    """Pydantic's errors as one line: ``where: what; ...``."""
    parts = []
    for error in errors:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
        what = str(error.get("msg", "invalid"))
        parts.append(f"{where}: {what}" if where else what)
    return "; ".join(parts) or "invalid"


def _add_routes(app: FastAPI) -> None:
    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """Whether the server is up."""
        return {"ok": True, "protocol": 1}

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        """Whether the process is alive (it answers; nothing else is checked)."""
        return {"ok": True}

    @app.get("/readyz", response_model=None)
    async def readyz(request: Request) -> dict[str, Any] | JSONResponse:
        """Whether the server takes players: started, not stopping, and its database answers."""
        hub = request.app.state.hub
        if not isinstance(hub, Hub) or not hub.started:
            return _error(request, ErrorCode.NOT_READY, "the server has not started", 503)
        if hub.stopping:
            return _error(request, ErrorCode.NOT_READY, "the server is stopping", 503)
        try:
            await asyncio.wait_for(hub.store.ping(), READY_TIMEOUT)
        except TimeoutError:
            message = f"the database did not answer within {READY_TIMEOUT:g} s"
            log.warning("not ready: %s", message)
            return _error(request, ErrorCode.NOT_READY, message, 503)
        except Exception as exc:  # whatever the driver raises: the reason goes to the log only
            log.warning("not ready: the database did not answer: %s", " ".join(str(exc).split()))
            return _error(request, ErrorCode.NOT_READY, "the database did not answer", 503)
        return {"ok": True}

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """The server's metrics in Prometheus's text format (docs/web.md)."""
        return Response(_metrics(request).text(), media_type=CONTENT_TYPE)

    @app.get("/api/games")
    async def games(lang: str = "en") -> dict[str, Any]:
        """Every game with its seat counts and rules options, and the bots, in ``lang``."""
        lang = _lang(lang)
        out = []
        for name in available_games():
            info = game_class(name).info
            words = lobby_words(name, lang)
            out.append(
                {
                    "name": name,
                    "title": words["title"],
                    "min_players": info.min_players,
                    "max_players": info.max_players,
                    "version": info.version,
                    "options": words["options"],
                    "learn": has_tutorial(name),
                }
            )
        bots = closingbell.available_bots()
        return {
            "games": out,
            "bots": bots,
            "bot_labels": bot_words(lang),
            "search_bots": [name for name in bots if searches(name)],
        }

    @app.get("/api/tables")
    async def list_tables(request: Request) -> dict[str, list[TableInfo]]:
        """The newest tables."""
        return {"tables": await _hub(request).listing()}

    @app.post("/api/tables", status_code=201)
    async def create(request: Request, body: CreateTable) -> dict[str, TableInfo]:
        """Open a new table."""
        table = await _hub(request).create(
            body, await session_user(request), address=client_address(request)
        )
        return {"table": table_info(table)}

    @app.get("/api/tables/{table_id}")
    async def show(request: Request, table_id: str) -> dict[str, TableInfo]:
        """One table."""
        table = await _hub(request).get(table_id)
        return {"table": table_info(table)}

    @app.post("/api/tables/{table_id}/join")
    async def join(request: Request, table_id: str, body: JoinTable) -> Joined:
        """Take an open seat; the answer holds the seat's secret token."""
        table = await _hub(request).get(table_id)
        user = await session_user(request)
        name = body.name if user is None else user.username
        if name is None:
            raise WebError(ErrorCode.BAD_NAME, "name: give your name (or sign in)", 422)
        seat, token = await table.seating.join(
            name, body.seat, None if user is None else user.id, bot=user is not None and user.bot
        )
        return Joined(table=table_info(table), seat=seat, token=token)

    @app.get("/api/tables/{table_id}/view")
    async def spectate(request: Request, table_id: str) -> dict[str, Any]:
        """What a spectator sees now, as a ``state`` message with every public event."""
        table = await _hub(request).get(table_id)
        async with table.lock:
            return message_for(table, Connection(seat=None)).model_dump()

    @app.get("/api/tables/{table_id}/chat")
    async def chat(
        request: Request, table_id: str, limit: int = Query(100, ge=1, le=1000)
    ) -> dict[str, list[ChatEntry]]:
        """The table's latest chat messages, oldest first: what its spectators read."""
        table = await _hub(request).get(table_id)
        return {"messages": await table.chat.latest(limit)}

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str) -> Response:
        """A finished game's record: docs/records.md text and the same as data."""
        table = await _finished(request, table_id)
        text = await _replays(request).record(finished_game(table))
        return Response(text, media_type="application/json")

    @app.get("/api/tables/{table_id}/record.cbrec")
    async def record_file(request: Request, table_id: str) -> Response:
        """A finished game's record file (docs/records.md), to save and ``closingbell replay``."""
        table = await _finished(request, table_id)
        text = await _replays(request).record_file(finished_game(table))
        name = f"closingbell-{table.game.info.name}-{table.id}.cbrec"
        return Response(
            text,
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get("/api/tables/{table_id}/replay")
    async def replay(
        request: Request,
        table_id: str,
        start: int = Query(0, ge=0),
        limit: int = Query(100, ge=1, le=1000),
        lang: str | None = None,
        *,
        seat: int | None = Query(None, ge=0),
    ) -> Response:
        """A finished game step by step as the public saw it: ``steps[i]`` follows action i-1.

        With ``lang``, each step also has ``lines`` (its events in words) and its action a
        ``label``, in that language; with ``seat``, the steps are as that seat saw them.
        """
        table = await _finished(request, table_id)
        if seat is not None:
            _check_seat(table, seat)
        steps = await _replays(request).steps(
            finished_game(table), None if lang is None else _lang(lang), seat
        )
        return Response(replay_page(table.id, steps, start, limit), media_type="application/json")

    @app.post("/api/tables/{table_id}/review")
    async def start_review(
        request: Request,
        table_id: str,
        seat: int = Query(ge=0),
        lang: str = "en",
    ) -> Response:
        """Start, or find, the review of a finished game's seat: its progress, then itself.

        202 while it is worked out, 200 once done (with the review in ``lang``).
        """
        lang = _lang(lang)
        table = await _finished(request, table_id)
        _check_seat(table, seat)
        try:
            review = _reviews(request).start(finished_game(table), seat, client_address(request))
        except TooManyReviews as exc:
            answer = _error(request, ErrorCode.TOO_MANY_REVIEWS, str(exc), 503)
            answer.headers["Retry-After"] = str(exc.retry_after)
            return answer
        return _review_answer(review, lang)

    @app.get("/api/tables/{table_id}/review")
    async def read_review(
        request: Request,
        table_id: str,
        seat: int = Query(ge=0),
        lang: str = "en",
    ) -> Response:
        """A seat's review asked for with ``POST``: its progress, then the review in ``lang``."""
        lang = _lang(lang)
        table = await _finished(request, table_id)
        _check_seat(table, seat)
        review = _reviews(request).find(table.id, seat)
        if review is None:
            raise WebError(
                ErrorCode.REVIEW_NOT_STARTED,
                "this seat's review has not been asked for here: POST to start it",
                404,
            )
        return _review_answer(review, lang)

    @app.get("/api/messages/{lang}")
    async def messages(lang: str) -> dict[str, Any]:
        """The browser page's own words in ``lang`` (the ``web`` catalog), English to ``lang``."""
        return {"lang": _lang(lang), "messages": web_messages(_lang(lang))}

    @app.get("/api/words/{game}/{lang}")
    async def words(game: str, lang: str) -> dict[str, Any]:
        """A game's names in ``lang`` (cards, stocks or suits, events), as in the terminal."""
        if game not in available_games():
            raise WebError(ErrorCode.UNKNOWN_GAME, f"no game is called {game!r}", 404)
        return game_words(game, _lang(lang))

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        """The lobby page."""
        return FileResponse(STATIC_DIR / "index.html")

    @app.get("/help/positions", include_in_schema=False)
    async def positions_help() -> Response:
        """How to write a position (docs/positions.md), as plain text."""
        try:
            text = await asyncio.to_thread(POSITIONS_DOC.read_text, encoding="utf-8")
        except OSError:
            text = (
                "How to write a position is described in docs/positions.md of closingbell's "
                "source, which this server was installed without.\n"
            )
            return Response(text, status_code=404, media_type="text/plain; charset=utf-8")
        return Response(text, media_type="text/plain; charset=utf-8")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        """A table's page: play, watch or replay it."""
        return FileResponse(STATIC_DIR / "table.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")


def _lang(lang: str) -> str:
    if lang not in LANGS:
        raise WebError(
            ErrorCode.BAD_REQUEST, f"unknown language {lang!r}: one of {', '.join(LANGS)}", 404
        )
    return lang


async def _finished(request: Request, table_id: str) -> LiveTable:
    table = await _hub(request).get(table_id)
    if table.status != "finished":
        raise WebError(
            ErrorCode.NOT_FINISHED,
            "records, replays and reviews are shown once the game is over",
            409,
        )
    return table


def _check_seat(table: LiveTable, seat: int) -> None:
    if seat >= len(table.seats):
        raise WebError(
            ErrorCode.BAD_SEAT,
            f"seat: this table's seats are 0 to {len(table.seats) - 1}, not {seat}",
            422,
        )


def _review_answer(review: Review, lang: str) -> Response:
    status = 202 if review.status == "working" else 200
    return Response(review.answer(lang), status_code=status, media_type="application/json")


def finished_game(table: LiveTable) -> FinishedGame:
    """What a finished table's replay and record are made from."""
    return FinishedGame(
        table_id=table.id,
        game=table.game.info.name,
        options=table.game.options_dict(),
        seed=table.seed,
        position=table.position,
        history=tuple(table.state.history),
        names=tuple(None if s.kind == "bot" else s.name for s in table.seats),
        seats=tuple(s.name or s.bot or "open" for s in table.seats),
        bots=tuple(s.bot if s.kind == "bot" else None for s in table.seats),
        hinted=table.hints_used,
        bot_accounts=tuple(s.kind == "human" and s.bot_account for s in table.seats),
    )


# ---------------------------------------------------------------- the WebSocket


async def _play(websocket: WebSocket, table_id: str) -> None:
    """One client of a table: ``hello`` first, then its other messages (docs/protocol.md).

    Two tasks serve it: one reads (:func:`_read`), one writes (:func:`_write`). It ends
    when either does: the client left, or must be closed (flooding, no ``hello`` in time:
    :func:`_read` returns the close code), or fell behind in reading (4413), or the server
    stops (the writer sends 1012: connect again).
    """
    hub = _hub(websocket)
    settings = hub.settings
    floodgate = websocket.app.state.floodgate
    assert isinstance(floodgate, Floodgate)
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host")
    scheme = websocket.scope.get("scheme", "ws")
    if origin is not None and not origin_allowed(
        origin, host, settings.allowed_origins, scheme=scheme
    ):
        message = f"WebSockets from pages of {origin!r} are not accepted here"
        await _deny(websocket, ErrorCode.BAD_ORIGIN, message, 403)
        return
    address = client_address(websocket)
    refusal = floodgate.admit(address)
    if refusal is not None:
        await _deny(websocket, ErrorCode.TOO_MANY_CONNECTIONS, refusal, 429)
        return
    try:
        await websocket.accept()
        with hub.metrics.websockets.track_inprogress():
            try:
                table = await hub.get(table_id)
            except WebError as exc:
                hub.metrics.error(exc.code)
                await websocket.send_text(_text(ErrorMessage(code=exc.code, message=exc.message)))
                unknown = exc.code == ErrorCode.UNKNOWN_TABLE
                await websocket.close(CLOSE_UNKNOWN_TABLE if unknown else CLOSE_TABLE_UNAVAILABLE)
                return
            with bound(table=table.id):  # the reader's and writer's log lines carry it
                await _serve(
                    websocket,
                    table,
                    Connection(seat=None, send_buffer=settings.send_buffer),
                    floodgate.throttle(address),
                )
    finally:
        floodgate.leave(address)


async def _serve(
    websocket: WebSocket, table: LiveTable, conn: Connection, throttle: Throttle
) -> None:
    """Read and write for ``conn`` until either side ends; then close as it says."""
    writer = asyncio.create_task(_write(websocket, conn, table.hub.metrics))
    reader = asyncio.create_task(_read(websocket, conn, table, throttle))
    conn.on_behind = writer.cancel
    try:
        await asyncio.wait((reader, writer), return_when=asyncio.FIRST_COMPLETED)
        if conn.behind:
            # Its socket is full: the close frame waits for room, but not for ever.
            table.disconnect(conn)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(_close(websocket, CLOSE_SLOW_READER), SLOW_READER_WAIT)
        elif reader.done() and (code := reader.result()) is not None:
            conn.queue.put_nowait(code)
            await asyncio.wait((writer,), timeout=CLOSE_WAIT)
    finally:
        table.disconnect(conn)
        for task in (reader, writer):
            task.cancel()
        for task in (reader, writer):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _read(
    websocket: WebSocket, conn: Connection, table: LiveTable, throttle: Throttle
) -> int | None:
    """Handle the client's messages until it leaves (``None``) or must be closed (the code)."""
    settings = table.hub.settings
    joined = False
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.hello_timeout
    try:
        while True:
            if joined:
                message = await websocket.receive()
            else:
                try:
                    message = await asyncio.wait_for(
                        websocket.receive(), max(0.0, deadline - loop.time())
                    )
                except TimeoutError:
                    _refuse(conn, ErrorCode.NOT_AUTHENTICATED, "no hello in time", table)
                    return CLOSE_HELLO_TIMEOUT
            if message["type"] == "websocket.disconnect":
                return None
            if conn.revoked:
                return CLOSE_SIGNED_OUT  # its session was revoked: nothing more is heard
            received = time.perf_counter()
            verdict = throttle.check()
            if verdict is not Verdict.PASS:
                if verdict is Verdict.CLOSE:
                    return CLOSE_FLOODING
                if verdict is Verdict.ANSWER:
                    _refuse(conn, ErrorCode.RATE_LIMITED, RATE_LIMITED, table)
                continue
            parsed = _parse(message, settings, conn, table)
            if parsed is None:
                continue
            if isinstance(parsed, Hello):
                if joined:
                    _refuse(conn, ErrorCode.ALREADY_AUTHENTICATED, "hello was already sent", table)
                    continue
                if parsed.account:
                    found = await _account_seat(websocket, table)
                    if isinstance(found[0], ErrorCode):
                        _refuse(conn, found[0], str(found[1]), table)
                        continue
                    conn.seat, conn.session = found
                elif parsed.token is not None:
                    seat = await table.seating.find_seat(parsed.token)
                    if seat is None:
                        _refuse(conn, ErrorCode.BAD_TOKEN, "no seat of this table has it", table)
                        continue
                    conn.seat = seat
                conn.lang = parsed.lang
                joined = True
                try:
                    await table.connect(conn)
                except WebError as exc:  # the table left memory meanwhile
                    _refuse(conn, exc.code, exc.message, table)
                    return CLOSE_TRY_AGAIN
            elif not joined:
                _refuse(conn, ErrorCode.NOT_AUTHENTICATED, "send hello first", table)
            elif isinstance(parsed, Ping):
                conn.send(Pong())
            else:
                try:
                    # Shielded: what is stored is published even if the connection ends
                    # meanwhile.
                    await asyncio.shield(_handle(table, conn, parsed, received))
                except WebError as exc:
                    _refuse(conn, exc.code, exc.message, table)
    except WebSocketDisconnect:
        return None


async def _handle(
    table: LiveTable,
    conn: Connection,
    message: Act | Say | RematchVote | AskHint,
    received: float,
) -> None:
    """Play an action, chat, vote for a rematch or give a hint; raise :class:`WebError`.

    A hint is worked out while this connection waits (its next messages wait too), so
    that one connection never has more than one hint under way.
    """
    if isinstance(message, Say):
        await table.chat.say(conn, message.text)
    elif isinstance(message, RematchVote):
        await table.rematches.vote(conn)
    elif isinstance(message, AskHint):
        await table.hints.ask(conn, message)
    else:
        await table.act(conn, message, received)


async def _account_seat(
    websocket: WebSocket, table: LiveTable
) -> tuple[int, str] | tuple[ErrorCode, str]:
    """The seat of the connection's account (and its session's SHA-256), or why not.

    The account is a bot account's, by the API token of an ``Authorization: Bearer``
    header at the handshake, else the session cookie's: only a page of the site's own may
    use the session (its ``Origin`` is required). A revoked session or token closes the
    connections it opened.
    """
    token = bearer_token(websocket)
    if token is not None:
        try:
            user = await table.hub.accounts.user_of_token(token)
        except AccountError as exc:
            return ErrorCode.BAD_API_TOKEN, exc.message
        secret = token
    else:
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host")
        allowed = table.hub.settings.allowed_origins
        scheme = websocket.scope.get("scheme", "ws")
        if origin is None or not origin_allowed(origin, host, allowed, scheme=scheme):
            return ErrorCode.NOT_SEATED, "a session is used only by pages of this site"
        cookie = websocket.cookies.get(SESSION_COOKIE)
        found = await table.hub.accounts.user_of(cookie)
        if found is None or cookie is None:
            return ErrorCode.NOT_SEATED, "not signed in: sign in, or give the seat's token"
        user, secret = found, cookie
    seat = table.seating.seat_of_user(user.id)
    if seat is None and table.hub.cluster.shared:
        await table.seating.refresh()  # joined through another server, maybe
        seat = table.seating.seat_of_user(user.id)
    if seat is None:
        return ErrorCode.NOT_SEATED, "your account has no seat at this table"
    return seat, hash_token(secret)


async def _write(websocket: WebSocket, conn: Connection, metrics: Metrics) -> None:
    """Send the connection's queued messages in order; an integer closes with that code.

    A text that answers an action of the connection's ends that action's round trip.
    """
    while True:
        item = await conn.next_message()
        if isinstance(item, int):
            with contextlib.suppress(Exception):
                await _close(websocket, item)
            return
        try:
            await websocket.send_text(item)
        except Exception:  # the client is gone: the reader sees it and cleans up
            return
        for received in conn.sent():
            metrics.round_trip.observe(time.perf_counter() - received)


async def _close(websocket: WebSocket, code: int) -> None:
    await websocket.close(code, CLOSE_REASONS.get(code))


async def _deny(websocket: WebSocket, code: ErrorCode, message: str, status: int) -> None:
    """Refuse a WebSocket before accepting it: an HTTP error with the usual error body.

    Servers without the ASGI denial-response extension answer a bare 403 instead.
    """
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(_error(websocket, code, message, status))
    else:
        _metrics(websocket).error(code)
        await websocket.close(CLOSE_POLICY)


def _parse(
    message: Any, settings: Settings, conn: Connection, table: LiveTable
) -> AnyClientMessage | None:
    """The client message in ``message``, or ``None`` after queueing an error."""
    text = message.get("text")
    if text is None:
        size = len(message.get("bytes") or b"")
        if size > settings.max_message:
            _refuse(conn, ErrorCode.TOO_LARGE, _too_large(settings), table)
        else:
            _refuse(conn, ErrorCode.BAD_JSON, "send JSON in text frames, not binary", table)
        return None
    if len(text) > settings.max_message or len(text.encode()) > settings.max_message:
        _refuse(conn, ErrorCode.TOO_LARGE, _too_large(settings), table)
        return None
    try:
        data = load_json(text)
    except JSONDepthError as exc:
        _refuse(conn, ErrorCode.TOO_DEEP, str(exc), table)
        return None
    except ValueError as exc:
        _refuse(conn, ErrorCode.BAD_JSON, not_json(exc), table)
        return None
    try:
        return CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        _refuse(conn, ErrorCode.BAD_MESSAGE, _describe(exc.errors()), table)
        return None


def _too_large(settings: Settings) -> str:
    return f"a message has at most {settings.max_message} bytes"


def _refuse(conn: Connection, code: ErrorCode, message: str, table: LiveTable) -> None:
    """Send ``conn`` an error message, counted in the metrics."""
    table.hub.metrics.error(code)
    conn.send(ErrorMessage(code=code, message=message, version=table.version))


def _text(message: BaseModel) -> str:
    return message.model_dump_json()
