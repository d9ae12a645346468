"""The server's refusals: an error code, a message and the HTTP status to answer.

Below every room of the server (tables, seats, chat, the cluster...), so that any of them may
refuse a request without importing another.
"""

from __future__ import annotations

from typing import Any

from closingbell.server.protocol import ErrorCode


class WebError(Exception):
    """A refused request: an :class:`ErrorCode`, a message and the HTTP status to answer."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        status: int = 400,
        details: dict[str, Any] | None = None,
        *,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        """The error code."""
        self.message = message
        """What was wrong."""
        self.status = status
        """The HTTP status code (unused over the WebSocket)."""
        self.details = dict(details or {})
        """More fields of the HTTP error body (``bad_position``: ``field`` and ``reason``)."""
        self.retry_after = retry_after
        """Seconds after which asking again may be heard (the ``Retry-After`` header)."""


def unavailable(table_id: str) -> WebError:
    """The error of a table whose stored game cannot be rebuilt (``table_unavailable``)."""
    return WebError(
        ErrorCode.TABLE_UNAVAILABLE,
        f"table {table_id!r} is unavailable: its stored game cannot be rebuilt "
        "(the server's log says why)",
        503,
    )
