"""uvicorn's WebSocket protocol, made cheap to flood: the one ``closingbell serve`` runs.

Two costs of a flooding client lie below the application, in the parsing of its frames
(some 10 µs each, on the event loop that serves every table):

- uvicorn parses every frame of what it reads at once, up to 256 KB of the kernel's
  buffer: some 12,000 small frames, over 100 ms during which no other table is served,
  though the application reads only the first few hundred before it closes the
  connection. Here what is read is parsed a slice (:data:`PARSE_SLICE`) at a time, and
  no further while the application has a message it has not read (then after the other
  connections' turn), so the parsing keeps pace with the reading;
- after the server's close frame, uvicorn reads on for up to 10 seconds, waiting for the
  client's answering close frame, and parses everything a flooder sends meanwhile. Here
  the connection is dropped once :data:`CLOSE_READ_LIMIT` bytes have come after the close
  frame without that answer (a client that answers sends nothing like that).

It relies on attributes of uvicorn's sans-I/O protocol (``read_paused``, ``close_sent``;
uvicorn 0.52.1 or later), which ``tests/server/test_ws_limits.py`` exercises on real sockets.
"""

from __future__ import annotations

from asyncio import BaseTransport
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

PARSE_SLICE = 4096
"""Bytes parsed at a time (game messages are at most 4 KiB): about 200 frames at most."""
CLOSE_READ_LIMIT = 16 * 1024
"""Bytes read after the server's close frame before the connection is dropped."""


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's protocol, parsing only as fast as the application reads."""

    def connection_made(self, transport: BaseTransport) -> None:
        """Take the connection, with nothing read yet."""
        super().connection_made(transport)
        self.unparsed = bytearray()
        self.read_after_close = 0

    def data_received(self, data: bytes) -> None:
        """Keep ``data``, and parse as much of it as the application is ready for."""
        self.unparsed += data
        self._parse()

    async def receive(self) -> Any:
        """The application's next message; once it has read them all, parse on soon.

        Soon, not now: the other connections get their turn before the next slice.
        """
        message = await super().receive()
        if self.unparsed and not self.read_paused:
            self.loop.call_soon(self._parse)
        return message

    def _parse(self) -> None:
        """Parse slices until the application has a message to read, or nothing is left.

        uvicorn pauses reading (``read_paused``) as soon as a message is queued for the
        application, and resumes it when the application has read them all.
        """
        while self.unparsed and not self.read_paused and not self.transport.is_closing():
            chunk = bytes(self.unparsed[:PARSE_SLICE])
            del self.unparsed[:PARSE_SLICE]
            if self.close_sent:
                self.read_after_close += len(chunk)
                if self.read_after_close > CLOSE_READ_LIMIT:
                    self.unparsed.clear()
                    self.transport.close()
                    return
            super().data_received(chunk)
