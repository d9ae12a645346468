"""Connections as sockets: a deadline for every request head, and bounded numbers of them.

uvicorn (0.54) has no time-out for a request head: ``timeout_keep_alive`` only runs between
two requests, and any byte received stops it, so a client that opens a connection and
sends part of a head (or nothing) holds it, and a file descriptor, for ever; thousands of
them lock everyone out once the process runs out of descriptors. ``limit_concurrency``
does not help: it is checked only once a head is complete, and answers 503 to everyone
alike. So :func:`guarded_protocol` makes a small subclass of uvicorn's HTTP protocol
(httptools, or h11 without it), given to ``uvicorn.run(http=...)``, that

- closes a connection whose request head has not arrived ``header_timeout`` seconds after
  the connection opened or the first byte of a later request (``408 request_timeout``);
- refuses a new connection from an address that already holds ``per_address`` of them
  (``429 too_many_connections``; addresses of trusted proxies are exempt, since every
  client behind them shares their address);
- when ``max_connections`` are open (by default the process's open-file limit less a
  reserve for the database, the logs and the helper processes), makes room by closing the
  connection that has waited longest without a request under way (a half-open one, or an
  idle keep-alive one); if every connection is busy, the new one is refused
  (``503 too_many_connections``). So half-open connections can never keep a real client
  out.

WebSockets count as connections of their address until they close. The answers are
written straight to the socket, with the server's typed error body (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from closingbell.server.protocol import ErrorCode, error_body
from closingbell.server.replays import dumps

log = logging.getLogger(__name__)

HEADER_TIMEOUT = 5.0
"""Seconds a client has to send a complete request head, by default."""
PER_ADDRESS = 100
"""Connections one address may hold at once, by default."""
RESERVED_FILES = 128
"""Open files kept for other uses than clients' connections (database, logs, helpers)."""


@dataclass(frozen=True)
class ConnectionLimits:
    """How many connections the server holds, and how long a request head may take."""

    header_timeout: float = HEADER_TIMEOUT
    """Seconds from a connection's start (or a later request's first byte) to its full head."""
    max_connections: int = 1000
    """Connections held at once, WebSockets included."""
    per_address: int = PER_ADDRESS
    """Connections one client address may hold at once (0: no limit)."""
    trusted: tuple[str, ...] = ()
    """Addresses or networks of reverse proxies, exempt from ``per_address`` (``*``: all)."""
    early: Callable[[str, bytes], bytes | None] | None = None
    """Answers a request from its client's address and first bytes before it is parsed, or
    ``None`` to let it through: the whole answer to write, after which the connection
    closes. For what is refused anyway, so that a flood of it costs as little as can be
    (an address the account throttle refuses now). Never asked for trusted proxies, whose
    address is not their clients'."""


def raise_open_file_limit() -> int:
    """Raise this process's open-file soft limit to its hard limit; return the soft limit.

    Each connection holds a file descriptor, and the soft limit (often 1,024) is what runs
    out first; the hard limit is as far as an unprivileged process may go.
    """
    try:
        import resource  # noqa: PLC0415 (POSIX only)
    except ImportError:  # pragma: no cover (Windows)
        return 1024 + RESERVED_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            log.warning("the open-file limit stays at %s", soft)
    return int(soft)


def default_max_connections(open_files: int) -> int:
    """The connections held at most with ``open_files`` file descriptors allowed."""
    return max(16, open_files - RESERVED_FILES)


class _Ticket:
    """One admitted connection, released once."""

    __slots__ = ("address", "protocol", "released")

    def __init__(self, address: str, protocol: Any) -> None:
        self.address = address
        self.protocol = protocol
        self.released = False


class ConnectionGuard:
    """The connections open, by address, and which of them wait for a request head."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        """The limits kept."""
        self.open = 0
        """Connections open now."""
        self.by_address: dict[str, int] = {}
        """Connections open now, by client address."""
        self.refused = 0
        """Connections refused so far."""
        self.closed_waiting = 0
        """Connections closed so far to make room, or for a head that came too late."""
        self._waiting: OrderedDict[_Ticket, None] = OrderedDict()
        self.trusted = _Addresses(limits.trusted)
        """The trusted proxies' addresses and networks."""

    def admit(self, address: str, protocol: Any) -> _Ticket | tuple[int, str]:
        """A ticket for a new connection, or the HTTP status and reason to refuse it."""
        limits = self.limits
        if (
            limits.per_address
            and self.by_address.get(address, 0) >= limits.per_address
            and address not in self.trusted
        ):
            self.refused += 1
            return 429, f"at most {limits.per_address} connections from one address"
        if self.open >= limits.max_connections:
            if not self._waiting:
                self.refused += 1
                return 503, "the server holds as many connections as it can; try again soon"
            oldest = next(iter(self._waiting))
            self.closed_waiting += 1
            self.release(oldest)
            oldest.protocol.transport.close()
        ticket = _Ticket(address, protocol)
        self.open += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self._waiting[ticket] = None
        return ticket

    def busy(self, ticket: _Ticket) -> None:
        """The connection has a request (or a WebSocket) under way."""
        self._waiting.pop(ticket, None)

    def waiting(self, ticket: _Ticket) -> None:
        """The connection waits for its next request head."""
        if not ticket.released:
            self._waiting[ticket] = None
            self._waiting.move_to_end(ticket)

    def release(self, ticket: _Ticket) -> None:
        """The connection is closed (or being closed)."""
        if ticket.released:
            return
        ticket.released = True
        self._waiting.pop(ticket, None)
        self.open -= 1
        left = self.by_address[ticket.address] - 1
        if left:
            self.by_address[ticket.address] = left
        else:
            del self.by_address[ticket.address]


class _Addresses:
    """A set of addresses and networks (``*`` for all), as in ``--forwarded-allow-ips``."""

    def __init__(self, items: Iterable[str]) -> None:
        self.everything = False
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self.names: set[str] = set()
        for item in items:
            item = item.strip()
            if item == "*":
                self.everything = True
            elif item:
                try:
                    self.networks.append(ipaddress.ip_network(item, strict=False))
                except ValueError:
                    self.names.add(item)

    def __contains__(self, address: str) -> bool:
        if self.everything or address in self.names:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)


def answer_bytes(
    status: int, code: ErrorCode, message: str, headers: Iterable[tuple[str, str]] = ()
) -> bytes:
    """A whole HTTP answer with the typed error body; the connection closes after it."""
    body = dumps(error_body(code, message))
    reasons = {408: "Request Timeout", 429: "Too Many Requests", 503: "Service Unavailable"}
    extra = "".join(f"{name}: {value}\r\n" for name, value in headers)
    head = (
        f"HTTP/1.1 {status} {reasons[status]}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n{extra}connection: close\r\n\r\n"
    )
    return head.encode() + body


def guarded_protocol(limits: ConnectionLimits, base: type[Any] | None = None) -> type[Any]:
    """An HTTP protocol class for ``uvicorn.run(http=...)`` that keeps ``limits``.

    ``base`` is uvicorn's protocol class to extend (by default its ``auto`` choice). The
    returned class has the :class:`ConnectionGuard` it shares as ``guard``.
    """
    if base is None:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol  # noqa: PLC0415

        base = AutoHTTPProtocol
    guard = ConnectionGuard(limits)
    websocket_classes: dict[type[Any], type[Any]] = {}

    def websocket_class(ws_base: type[Any]) -> type[Any]:
        """``ws_base`` releasing its connection's ticket when it closes."""
        found = websocket_classes.get(ws_base)
        if found is None:

            class GuardedWebSocket(ws_base):  # type: ignore[misc]
                ticket: _Ticket | None = None

                def connection_lost(self, exc: Exception | None) -> None:
                    if self.ticket is not None:
                        guard.release(self.ticket)
                    super().connection_lost(exc)

            found = websocket_classes[ws_base] = GuardedWebSocket
        return found

    class GuardedHTTP(base):  # type: ignore[misc, valid-type]
        """uvicorn's HTTP protocol with a request-head deadline and connection limits."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.ticket: _Ticket | None = None
            self.deadline: asyncio.TimerHandle | None = None
            self.seen_cycle: Any = None
            ws_base: type[Any] | None = self.ws_protocol_class  # type: ignore[has-type]
            if ws_base is not None:
                self.ws_protocol_class = websocket_class(ws_base)

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            admitted = guard.admit(self.client[0] if self.client else "", self)
            if isinstance(admitted, tuple):
                status, reason = admitted
                transport.write(answer_bytes(status, ErrorCode.TOO_MANY_CONNECTIONS, reason))
                transport.close()
                return
            self.ticket = admitted
            self._arm()

        def data_received(self, data: bytes) -> None:
            early = limits.early
            if early is not None and self._between_requests() and self.client:
                address = self.client[0]
                answer = None if address in guard.trusted else early(address, data)
                if answer is not None:  # refused from its first bytes: nothing is parsed
                    self._disarm()
                    self.transport.write(answer)
                    self.transport.close()
                    return
            if self.ticket is not None and self.deadline is None and self._between_requests():
                self._arm()
            super().data_received(data)
            ticket = self.ticket
            if ticket is None:
                return
            upgraded = self.transport.get_protocol()
            if upgraded is not self:  # now a WebSocket: its protocol releases the ticket
                self._disarm()
                guard.busy(ticket)
                upgraded.ticket = ticket
                self.ticket = None
            elif self.cycle is not self.seen_cycle:  # a request head is complete
                self.seen_cycle = self.cycle
                self._disarm()
                guard.busy(ticket)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.ticket is not None and self._between_requests():
                guard.waiting(self.ticket)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self.ticket is not None:
                guard.release(self.ticket)
            super().connection_lost(exc)

        def _between_requests(self) -> bool:
            return self.cycle is None or bool(self.cycle.response_complete)

        def _arm(self) -> None:
            self.deadline = self.loop.call_later(limits.header_timeout, self._too_late)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _too_late(self) -> None:
            self.deadline = None
            if self.transport.is_closing() or not self._between_requests():
                return
            guard.closed_waiting += 1
            message = f"a request head must arrive within {limits.header_timeout:g} s"
            self.transport.write(answer_bytes(408, ErrorCode.REQUEST_TIMEOUT, message))
            self.transport.close()

    GuardedHTTP.guard = guard
    return GuardedHTTP
