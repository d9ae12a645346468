"""A WebSocket client of a live table: its seat, the texts waiting for it, what it was sent.

Below the table and its rooms, which all send to their connections.
"""

from __future__ import annotations

import asyncio
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel

from closingbell.server.protocol import ChatEntry
from closingbell.text.narrator import Narrator

CLOSE_RESTART = 1012
"""WebSocket close code: the server is stopping or restarting; connect again (another
server sharing the database, or this one once restarted, takes the connection)."""

CLOSE_SIGNED_OUT = 4401
"""WebSocket close code: the session the connection was opened with was revoked (signed
out, its password changed); sign in again."""


@dataclass(eq=False)
class Connection:
    """One WebSocket client of a table: its seat and what it has been sent."""

    seat: int | None
    """The seat it plays, or ``None`` for a spectator."""
    queue: asyncio.Queue[str | int] = field(default_factory=asyncio.Queue)
    """JSON texts waiting to be sent; an integer closes the socket with that code."""
    send_buffer: int = 0
    """The most memory (bytes) its unsent texts may take (0: no bound); see :meth:`send`."""
    queued: int = 0
    """The memory (bytes) its unsent texts take now."""
    behind: bool = False
    """Whether it fell behind: it is sent nothing more and is being closed."""
    on_behind: Callable[[], object] | None = None
    """Called once, when it falls behind."""
    log_pos: int = 0
    """How much of the state's log has been considered for it."""
    sent_events: int = 0
    """How many visible events it has been sent."""
    lang: str | None = None
    """The language of its words (``hello``'s ``lang``); ``None``: no words."""
    narrator: Narrator | None = None
    """The game's narrator in ``lang``, made when the game starts; it turns views into words."""
    texts_queued: int = 0
    """How many texts have ever been queued for it."""
    texts_sent: int = 0
    """How many of them have been sent."""
    awaiting: deque[tuple[int, float]] = field(default_factory=deque)
    """Its actions whose answer has not been sent yet: the number of the text that answers
    each (counted as :attr:`texts_queued`) and when the action was received
    (``time.perf_counter()``)."""
    chat_held: list[ChatEntry] | None = None
    """Chat messages written while its history is read, sent with it (``None``: none held)."""
    session: str | None = None
    """The SHA-256 of the session its seat was found with (``hello`` with ``account``)."""
    revoked: bool = False
    """Whether that session was revoked: the connection is being closed, and heard no more."""

    def send(self, message: BaseModel) -> None:
        """Queue a message for sending, unless the client has fallen behind.

        A client that does not read as fast as it is sent falls behind when its unsent
        texts would take more than ``send_buffer``: they are dropped and it is sent
        nothing more. One text is always taken into an empty queue, however long.
        """
        if self.behind:
            return
        text = message.model_dump_json()
        size = sys.getsizeof(text)
        if self.send_buffer and self.queued and self.queued + size > self.send_buffer:
            self.behind = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queued = 0
            self.awaiting.clear()
            if self.on_behind is not None:
                self.on_behind()
            return
        self.queued += size
        self.queue.put_nowait(text)
        self.texts_queued += 1

    def expect_answer(self, received: float) -> None:
        """Note that the text queued last answers an action received at ``received``."""
        if not self.behind:
            self.awaiting.append((self.texts_queued, received))

    def sent(self) -> list[float]:
        """Note that one more text was sent; when the actions it answered were received."""
        self.texts_sent += 1
        answered = []
        while self.awaiting and self.awaiting[0][0] <= self.texts_sent:
            answered.append(self.awaiting.popleft()[1])
        return answered

    async def next_message(self) -> str | int:
        """The next text (or close code) to send, waiting for one."""
        item = await self.queue.get()
        if isinstance(item, str):
            self.queued -= sys.getsizeof(item)
        return item
