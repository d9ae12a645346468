"""How fast clients may send: token buckets per connection and per client address.

A message over the limit costs the server a clock reading and a few comparisons: the first
refusal of a window is answered (one ``rate_limited`` error), the others are dropped
unanswered, and a connection that keeps sending past :attr:`Limits.flood_limit` dropped
messages in one window is closed. A client address may hold :attr:`Limits.connections`
connections at once, open them no faster than :attr:`Limits.connect_rate`, and send
:attr:`Limits.rate` messages a second over all of them. Chat messages are counted apart, in
sliding windows per seat, per account and per spectator's connection (:class:`SlidingWindows`).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from enum import Enum

ADDRESS_CONNECTIONS = 50
"""WebSocket connections one client address may hold at once, by default."""
ADDRESS_RATE = 50.0
"""Messages a second one client address may send over all its connections, by default."""


class TokenBucket:
    """Allows bursts of ``capacity`` messages, refilled at ``rate`` messages a second."""

    def __init__(
        self, rate: float, capacity: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        """Tokens added per second."""
        self.capacity = capacity
        """The most tokens the bucket holds (the longest burst)."""
        self.tokens = capacity
        """Tokens left now."""
        self._clock = clock
        self._last = clock()

    def take(self, now: float | None = None) -> bool:
        """Spend one token if there is one; ``False`` means the message must be refused.

        ``now`` is the bucket's clock reading, when the caller has just read it.
        """
        if now is None:
            now = self._clock()
        self.tokens = min(self.capacity, self.tokens + (now - self._last) * self.rate)
        self._last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def full(self, now: float) -> bool:
        """Whether the bucket would be full at ``now`` (then it is as good as a new one)."""
        return self.tokens + (now - self._last) * self.rate >= self.capacity


@dataclass(frozen=True)
class Limits:
    """The numbers of :class:`Floodgate` (the server's settings give them)."""

    rate: float
    """Messages a second one connection may send in the long run."""
    burst: float
    """Messages one connection may send at once."""
    window: float
    """Seconds in which a connection over its rate is answered at most once."""
    flood_limit: int
    """Messages dropped in one window after which the connection is closed."""
    connections: int
    """Connections one address may hold at once, and open in a burst (0: no limit)."""
    connect_rate: float
    """New connections a second one address may open in the long run."""
    address_rate: float
    """Messages a second one address may send over all its connections (0: no limit)."""
    address_burst: float
    """Messages one address may send at once over all its connections."""


class Verdict(Enum):
    """What to do with one message."""

    PASS = "pass"
    """Within the limits: handle it."""
    ANSWER = "answer"
    """Over a limit, first time this window: drop it and answer ``rate_limited``."""
    DROP = "drop"
    """Over a limit again: drop it without an answer."""
    CLOSE = "close"
    """The connection keeps flooding: close it."""


class _Address:
    """What the server knows of one client address."""

    __slots__ = ("connections", "connects", "messages")

    def __init__(self, limits: Limits, clock: Callable[[], float]) -> None:
        self.connections = 0
        self.connects = (
            TokenBucket(limits.connect_rate, limits.connections, clock)
            if limits.connections > 0
            else None
        )
        self.messages = (
            TokenBucket(limits.address_rate, limits.address_burst, clock)
            if limits.address_rate > 0
            else None
        )

    def idle(self, now: float) -> bool:
        """No connection, and every bucket full again: forgetting it loses nothing."""
        return self.connections == 0 and all(
            bucket is None or bucket.full(now) for bucket in (self.connects, self.messages)
        )


class Throttle:
    """One connection's message limit, and its share of its address's."""

    __slots__ = ("_address", "_bucket", "_clock", "_dropped", "_limits", "_window_end")

    def __init__(self, limits: Limits, address: _Address, clock: Callable[[], float]) -> None:
        self._limits = limits
        self._address = address
        self._clock = clock
        self._bucket = TokenBucket(limits.rate, limits.burst, clock)
        self._window_end = -1.0
        self._dropped = 0

    def check(self) -> Verdict:
        """Spend one message's tokens, or say what to do with a message over the limit."""
        now = self._clock()
        shared = self._address.messages
        if self._bucket.take(now) and (shared is None or shared.take(now)):
            return Verdict.PASS
        if now >= self._window_end:
            self._window_end = now + self._limits.window
            self._dropped = 0
            return Verdict.ANSWER
        self._dropped += 1
        return Verdict.CLOSE if self._dropped > self._limits.flood_limit else Verdict.DROP


class Floodgate:
    """Every client address's connections and messages; one per server."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        """The numbers."""
        self._clock = clock
        self._addresses: dict[str, _Address] = {}
        self._sweep_at = 1024

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address``; or say why it is refused (not counted)."""
        entry = self._addresses.get(address)
        if entry is None:
            if len(self._addresses) >= self._sweep_at:
                self._sweep()
            entry = self._addresses[address] = _Address(self.limits, self._clock)
        limit = self.limits.connections
        if limit > 0 and entry.connections >= limit:
            return f"an address may hold at most {limit} connections at once"
        if entry.connects is not None and not entry.connects.take():
            return "too many new connections from this address; try again in a moment"
        entry.connections += 1
        return None

    def leave(self, address: str) -> None:
        """A connection admitted from ``address`` ended."""
        entry = self._addresses.get(address)
        if entry is not None:
            entry.connections -= 1

    def throttle(self, address: str) -> Throttle:
        """The message limit of a new connection admitted from ``address``."""
        entry = self._addresses.get(address)
        if entry is None:
            entry = self._addresses[address] = _Address(self.limits, self._clock)
        return Throttle(self.limits, entry, self._clock)

    def addresses(self) -> int:
        """How many addresses are remembered (those with connections or recent traffic)."""
        return len(self._addresses)

    def _sweep(self) -> None:
        """Forget the idle addresses; sweep again when twice as many are remembered."""
        now = self._clock()
        for address in [a for a, e in self._addresses.items() if e.idle(now)]:
            del self._addresses[address]
        self._sweep_at = max(1024, 2 * len(self._addresses))


class SlidingWindows:
    """At most ``limit`` events in any ``window`` seconds for each key, several keys at once.

    An event may count against several keys (a chat message against its seat and its
    account): it is taken only if every one of them has room, and then counts for each.
    Keys whose last event left the window are forgotten, so that memory follows the keys
    used lately, not every key ever seen.
    """

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        """Events allowed per key in ``window`` seconds."""
        self.window = window
        """Seconds over which a key's events are counted."""
        self._times: dict[Hashable, deque[float]] = {}
        self._sweep_at = 1024

    def take(self, keys: Iterable[Hashable], now: float) -> float:
        """Count an event at ``now`` for every key: 0 if taken, else seconds until there is room.

        Nothing is counted when a key has no room.
        """
        keys = list(keys)
        wait = 0.0
        for key in keys:
            times = self._times.get(key, deque())
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= self.limit:
                # The oldest event leaves the window first (none: a limit of 0 never has room).
                wait = max(wait, times[0] + self.window - now if times else self.window)
        if wait > 0:
            return wait
        if len(self._times) >= self._sweep_at:
            self._sweep(now)
        for key in keys:
            self._times.setdefault(key, deque()).append(now)
        return 0.0

    def __len__(self) -> int:
        return len(self._times)

    def _sweep(self, now: float) -> None:
        """Forget the keys with no event in the window; sweep again at twice as many keys."""
        stale = [k for k, t in self._times.items() if not t or t[-1] <= now - self.window]
        for key in stale:
            del self._times[key]
        self._sweep_at = max(1024, 2 * len(self._times))
