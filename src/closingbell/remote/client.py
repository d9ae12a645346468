"""A bot account's program on a closingbell server: it takes seats and plays them.

:class:`Connector` signs in with an API token (``Authorization: Bearer``), then, every
``poll`` seconds, reads the account's tables (``GET /api/my/games``): it takes the seats
kept for it (invitations, the server's challenges) and, when asked, open seats of waiting
tables in the lobby; it plays each table over the table's WebSocket, as the page does,
with the seat's view read back into the game's view class for its chooser. A lost
connection (the server restarting, the network) is tried again with a growing pause; a
refused token or an agent's illegal answer stops it with a message that says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from closingbell.core.errors import ClosingbellError
from closingbell.core.game import Game
from closingbell.core.registry import load_game
from closingbell.remote.agents import AgentError, Choose, MakeChooser, checked

ACCEPT = ("invitations", "open")
"""What the program may take: seats kept for it, and open seats of the lobby's tables."""

CLOSE_SIGNED_OUT = 4401
"""The server's close code for a revoked token (as for a revoked session)."""
CLOSE_UNKNOWN_TABLE = 4404
"""The server's close code for a table it does not have."""

RETRY_FIRST = 1.0
"""Seconds before the first new try after a lost connection; doubled up to ``RETRY_MOST``."""
RETRY_MOST = 30.0
"""The longest pause between tries."""
IGNORED = frozenset({"stale_version", "not_your_turn", "game_over", "not_started"})
"""Refusals of an action the table had moved past: a newer ``state`` follows."""


class Refused(Exception):
    """The server refused the program for good (a wrong or revoked token, not a bot account)."""


@dataclass
class Settings:
    """What ``closingbell connect`` was asked to do."""

    server: str
    """The server's address (``https://host`` or ``http://host:port``)."""
    token: str
    """The bot account's API token."""
    make: MakeChooser
    """Makes each table's chooser."""
    accept: frozenset[str] = frozenset({"invitations"})
    """What to take: ``invitations`` (seats kept for the account), ``open`` (lobby seats)."""
    games: frozenset[str] | None = None
    """The games whose open tables it joins (``None``: every game)."""
    most: int | None = None
    """Stop after this many games played to their end (``None``: never)."""
    at_once: int = 4
    """The most tables played at once."""
    poll: float = 5.0
    """Seconds between two looks at the account's tables and the lobby."""
    seed: int = 0
    """Seeds the bots (with each table's id)."""
    verbose: bool = False
    """Say every connection made, action sent and refusal heard, not only what matters."""


@dataclass
class _Table:
    """A table the program plays."""

    table_id: str
    game: Game | None = None
    choose: Choose | None = None
    seat: int | None = None
    last: dict[str, Any] | None = None
    acted: int | None = None


@dataclass
class Connector:
    """Keeps a bot account's seats played (see the module's description)."""

    settings: Settings
    say: Callable[[str], None] = print
    """Where the program's lines go (one line each)."""
    played: int = 0
    """Games played to their end so far."""
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    done: set[str] = field(default_factory=set)
    _choosers: ThreadPoolExecutor = field(init=False)
    """The threads the choosers run in: one per table played at once, so that every
    table's decision may be pending at once (a chooser that waits on something else, such
    as a model served elsewhere, holds back no other table). Ended by :meth:`run`."""

    def __post_init__(self) -> None:
        self._choosers = ThreadPoolExecutor(self.settings.at_once, thread_name_prefix="choose")

    @property
    def _auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.settings.token}"}

    def _socket_address(self, table_id: str) -> str:
        base = self.settings.server.rstrip("/")
        if base.startswith("https://"):
            base = "wss://" + base.removeprefix("https://")
        elif base.startswith("http://"):
            base = "ws://" + base.removeprefix("http://")
        return f"{base}/ws/tables/{table_id}"

    async def run(self) -> int:
        """Play until ``most`` games are over (0); the exit code.

        1 when the server refuses the token, 2 when the agent answers wrongly; without
        ``most`` it runs until cancelled.
        """
        try:
            async with httpx.AsyncClient(
                base_url=self.settings.server.rstrip("/"), headers=self._auth, timeout=15
            ) as http:
                await self._sign_in(http)
                return await self._loop(http)
        except Refused as exc:
            self.say(f"Stopped: {exc}")
            return 1
        except AgentError as exc:
            self.say(f"Stopped: {exc}")
            return 2
        finally:
            for task in self.tasks.values():
                task.cancel()
            for task in list(self.tasks.values()):
                with contextlib.suppress(BaseException):
                    await task
            self._choosers.shutdown(wait=False, cancel_futures=True)

    async def _sign_in(self, http: httpx.AsyncClient) -> None:
        pause = RETRY_FIRST
        while True:
            try:
                answer = await http.get("/api/account")
            except httpx.TransportError as exc:
                self.say(
                    f"The server cannot be reached ({_why(exc)}); trying again in {pause:g} s."
                )
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MOST)
                continue
            if answer.status_code == 401:
                raise Refused("the server refused the token: it is wrong, or it was revoked")
            if answer.status_code >= 500:
                self.say(f"The server answered {answer.status_code}; trying again in {pause:g} s.")
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MOST)
                continue
            user = answer.json().get("user")
            if not user:
                raise Refused("the server took no account from the token")
            if not user.get("bot"):
                raise Refused(f"{user.get('username')} is not a bot account")
            self.say(f"Signed in to {self.settings.server} as {user['username']} (a bot account).")
            return

    def _finished_enough(self) -> bool:
        most = self.settings.most
        return most is not None and self.played >= most

    def _room(self) -> int:
        """How many more tables the program may take now."""
        room = self.settings.at_once - len(self.tasks)
        if self.settings.most is not None:
            room = min(room, self.settings.most - self.played - len(self.tasks))
        return max(0, room)

    async def _loop(self, http: httpx.AsyncClient) -> int:
        pause = RETRY_FIRST
        while not self._finished_enough():
            try:
                await self._look(http)
                pause = RETRY_FIRST
                wait = self.settings.poll
            except httpx.TransportError as exc:
                self.say(
                    f"The server cannot be reached ({_why(exc)}); trying again in {pause:g} s."
                )
                wait = pause
                pause = min(pause * 2, RETRY_MOST)
            if self.tasks:
                finished, _ = await asyncio.wait(
                    list(self.tasks.values()), timeout=wait, return_when=asyncio.FIRST_COMPLETED
                )
            else:
                finished = set()
                await asyncio.sleep(wait)
            for task in finished:
                table_id = next(k for k, v in self.tasks.items() if v is task)
                del self.tasks[table_id]
                self.done.add(table_id)
                task.result()  # a Refused or an AgentError stops the program
        self.say(f"Played {self.played} game{'s' if self.played != 1 else ''}; stopping.")
        return 0

    async def _look(self, http: httpx.AsyncClient) -> None:
        """Start playing the account's tables; take invitations and open seats as asked."""
        mine = await _json(http, "GET", "/api/my/games")
        for entry in mine["games"]:
            table = entry["table"]
            table_id = table["id"]
            if table_id in self.tasks or table_id in self.done:
                continue
            if entry["invited"]:
                if "invitations" in self.settings.accept and self._room():
                    await self._join(http, table_id, "a seat kept for it")
            elif (
                table["status"] in ("waiting", "playing")
                and len(self.tasks) < self.settings.at_once
            ):
                self._start(table_id)
        if "open" not in self.settings.accept or not self._room():
            return
        lobby = await _json(http, "GET", "/api/tables")
        for table in lobby["tables"]:
            if not self._room():
                return
            if (
                table["status"] != "waiting"
                or table["id"] in self.tasks
                or table["id"] in self.done
            ):
                continue
            if self.settings.games is not None and table["game"] not in self.settings.games:
                continue
            free = [s for s in table["seats"] if s["kind"] == "open" and not s.get("invited")]
            if free:
                await self._join(http, table["id"], "an open seat")

    async def _join(self, http: httpx.AsyncClient, table_id: str, what: str) -> None:
        answer = await http.post(f"/api/tables/{table_id}/join", json={})
        if answer.status_code == 401:
            raise Refused("the server refused the token: it is wrong, or it was revoked")
        if answer.status_code != 200:
            code = _error_code(answer)
            self.say(f"Table {table_id}: could not take {what} ({code}).")
            if code != "too_many_games":
                self.done.add(table_id)  # taken by someone else, gone, not for this account
            return
        joined = answer.json()
        table = joined["table"]
        self.say(
            f"Table {table_id}: took {what}, seat {joined['seat'] + 1} of {table['players']} "
            f"({table['title']})."
        )
        self._start(table_id)

    def _start(self, table_id: str) -> None:
        self.tasks[table_id] = asyncio.create_task(self._play(_Table(table_id)))

    async def _play(self, table: _Table) -> None:
        """Play one table to its end, connecting again whenever the connection is lost."""
        pause = RETRY_FIRST
        while True:
            try:
                async with connect(
                    self._socket_address(table.table_id),
                    additional_headers=self._auth,
                    open_timeout=15,
                    max_size=2**24,
                ) as ws:
                    pause = RETRY_FIRST
                    # An action sent on a lost connection may never have been stored: on a
                    # new one, the state's decision is answered again.
                    table.acted = None
                    if self.settings.verbose:
                        self.say(f"Table {table.table_id}: connected.")
                    await ws.send(json.dumps({"type": "hello", "account": True}))
                    if await self._serve(ws, table):
                        return
                why = "the server closed the connection"
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
                if code == CLOSE_SIGNED_OUT:
                    raise Refused("the token was revoked") from None
                if code == CLOSE_UNKNOWN_TABLE:
                    self.say(f"Table {table.table_id}: the server has no such table.")
                    return
                why = (
                    "the connection was lost" if code is None else f"the connection closed ({code})"
                )
            except InvalidStatus as exc:
                status = exc.response.status_code
                if status == 401:
                    raise Refused("the server refused the token") from None
                why = f"the server answered {status}"
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                why = _why(exc)
            self.say(f"Table {table.table_id}: {why}; connecting again in {pause:g} s.")
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MOST)

    async def _serve(self, ws: ClientConnection, table: _Table) -> bool:
        """Answer one connection's messages; whether the table is over (else: connect again)."""
        async for raw in ws:
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "welcome":
                self._welcome(table, message)
            elif kind == "state":
                if message["status"] in ("finished", "abandoned"):
                    self._over(table, message)
                    return True
                table.last = message
                await self._act(ws, table, message)
            elif kind == "error":
                await self._refusal(ws, table, message)
        return False

    def _welcome(self, table: _Table, message: dict[str, Any]) -> None:
        info = message["table"]
        if table.game is None:
            table.game = load_game(info["game"], **info["options"])
            seed = (self.settings.seed * 1_000_003 + zlib.crc32(table.table_id.encode())) % 2**32
            table.choose = self.settings.make(table.game, seed)
        table.seat = message["seat"]

    async def _act(self, ws: ClientConnection, table: _Table, message: dict[str, Any]) -> None:
        if not message["legal"] or message["version"] == table.acted:
            return
        assert table.game is not None and table.choose is not None
        try:
            view = table.game.view_from_dict(message["view"])
        except ClosingbellError as exc:
            message_text = f"table {table.table_id}: the server's view does not read: {exc}"
            raise AgentError(message_text) from None
        loop = asyncio.get_running_loop()
        action = await loop.run_in_executor(self._choosers, checked, table.choose, view)
        table.acted = message["version"]
        if self.settings.verbose:
            text = table.game.action_to_string(action)
            self.say(f"Table {table.table_id}: at version {message['version']}, {text}.")
        await ws.send(
            json.dumps({"type": "action", "version": message["version"], "action": action})
        )

    async def _refusal(self, ws: ClientConnection, table: _Table, message: dict[str, Any]) -> None:
        code = message.get("code")
        if self.settings.verbose:
            self.say(f"Table {table.table_id}: refused ({code}): {message.get('message')}")
        if code == "bad_api_token":
            raise Refused("the server refused the token: it is wrong, or it was revoked")
        if code == "not_seated":
            raise Refused(f"table {table.table_id}: the account has no seat there")
        if code == "rate_limited" and table.last is not None:
            await asyncio.sleep(1.1)
            table.acted = None
            await self._act(ws, table, table.last)
        elif code not in IGNORED:
            self.say(f"Table {table.table_id}: the server refused: {message.get('message')}")

    def _over(self, table: _Table, message: dict[str, Any]) -> None:
        if message["status"] == "abandoned":
            self.say(f"Table {table.table_id}: abandoned.")
            return
        self.played += 1
        result = message.get("result") or {}
        scores, winners = result.get("scores", []), result.get("winners", [])
        seat = table.seat
        mine = "" if seat is None or seat >= len(scores) else f"; its score {scores[seat]}"
        won = seat in winners
        self.say(
            f"Table {table.table_id}: finished, {'won' if won else 'not won'}{mine} "
            f"(game {self.played})."
        )


async def _json(http: httpx.AsyncClient, method: str, path: str) -> Any:
    answer = await http.request(method, path)
    if answer.status_code == 401:
        raise Refused("the server refused the token: it is wrong, or it was revoked")
    if answer.status_code != 200:
        # Busy, restarting, limited for a while: tried again at the next look.
        raise httpx.TransportError(f"{path} answered {answer.status_code} ({_error_code(answer)})")
    return answer.json()


def _error_code(answer: httpx.Response) -> str:
    try:
        return str(answer.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return str(answer.status_code)


def _why(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__
