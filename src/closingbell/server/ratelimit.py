"""A token bucket: how many messages one connection may send, and how fast."""

from __future__ import annotations

import time
from collections.abc import Callable


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

    def take(self) -> bool:
        """Spend one token if there is one; ``False`` means the message must be refused."""
        now = self._clock()
        self.tokens = min(self.capacity, self.tokens + (now - self._last) * self.rate)
        self._last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
