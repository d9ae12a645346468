"""The server's logs: request and table ids carried with the work, and JSON lines.

Two context variables say what the server is working on: :data:`request_id` (an HTTP
request or a WebSocket connection, from its ``X-Request-ID`` header or made up, see
:class:`RequestIds`) and :data:`table_id` (the table whose work runs). Every log line
emitted meanwhile carries them: :class:`ContextFilter` stamps them on the record, and
:class:`JsonFormatter` writes each record as one JSON object (``closingbell serve
--log-format json``, docs/web.md).

Nothing here logs anything of its own. The server's log messages never hold a seat token
or a hidden card, and the database's errors leave out their statements' parameters (the
store's engine hides them).
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import json
import logging
import re
import secrets
from collections.abc import Callable, Iterator
from typing import Any

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "closingbell_request_id", default=None
)
"""The id of the HTTP request or WebSocket connection being handled, if any."""

table_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "closingbell_table_id", default=None
)
"""The id of the table whose work runs, if any."""

TABLES_LOG = "closingbell.server.tables"
"""The logger of the live tables and their rooms (``server.tables``, ``server.seats``,
``server.chat``, ``server.hub``...): one name for all, as when they were one module, so that
operators' filters and alerts on it (docs/web.md) see every table's lines."""

REQUEST_HEADER = "x-request-id"
"""The header that carries a request's id, in and out."""

SAFE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
"""A request id taken from a client: up to 64 letters, digits, ``.``, ``_``, ``:`` and ``-``
(a UUID, a proxy's trace id); anything else is replaced by one of the server's own."""

LOG_FORMATS = ("text", "json")
"""The formats of ``closingbell serve``'s log: as before, or one JSON object a line."""

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[Message], Any]
ASGIApp = Callable[[Scope, Receive, Send], Any]


@contextlib.contextmanager
def bound(*, table: str | None) -> Iterator[None]:
    """Within the block, log lines carry ``table`` as their table id."""
    token = table_id.set(table)
    try:
        yield
    finally:
        table_id.reset(token)


def table_context(table: str) -> contextvars.Context:
    """A context of its own for a table's background work (its bots, its clock).

    It holds the table's id and no request id: a bot's move is nobody's request, even
    when a request woke the bot.
    """
    context = contextvars.Context()
    context.run(table_id.set, table)
    return context


def new_request_id() -> str:
    """A request id made by the server: 16 hexadecimal digits."""
    return secrets.token_hex(8)


def request_id_from(header: bytes | None) -> str:
    """The id of a request whose ``X-Request-ID`` header is ``header``.

    That is the header itself when it is a short safe token, else a new id.
    """
    if header is not None:
        text = header.decode("latin-1")
        if SAFE_REQUEST_ID.fullmatch(text):
            return text
    return new_request_id()


class RequestIds:
    """ASGI middleware: each request and WebSocket gets an id, carried while it is handled.

    The id is the request's ``X-Request-ID`` header when that is a short safe token
    (:data:`SAFE_REQUEST_ID`), else made up; it is set in :data:`request_id` for the time
    the request (or the WebSocket connection) is handled, and sent back in the answer's
    ``X-Request-ID`` header (an HTTP answer, a WebSocket's acceptance or refusal).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Hand the request on with its id set, and add the id to the answer's headers."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = None
        for name, value in scope.get("headers", ()):
            if name.lower() == REQUEST_HEADER.encode():
                given = value
                break
        rid = request_id_from(given)
        header = (REQUEST_HEADER.encode(), rid.encode())
        starts = ("http.response.start", "websocket.accept", "websocket.http.response.start")

        async def send_with_id(message: Message) -> None:
            if message["type"] in starts:
                headers = [
                    (n, v)
                    for n, v in message.get("headers") or ()
                    if n.lower() != REQUEST_HEADER.encode()
                ]
                message = {**message, "headers": [*headers, header]}
            await send(message)

        token = request_id.set(rid)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            request_id.reset(token)


class ContextFilter(logging.Filter):
    """Stamps each record with the ``table`` and ``request`` ids of its context (or ``None``).

    Attach it to a handler: it runs where the record is emitted, so it sees the context of
    the work that logged (a record that already has them keeps its own).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Stamp ``record``; never drop it."""
        if not hasattr(record, "table"):
            record.table = table_id.get()
        if not hasattr(record, "request"):
            record.request = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """Each record as one line of JSON.

    Its keys: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, then ``table``
    and ``request`` when known, and ``exception`` (the traceback) when there is one.
    """

    def format(self, record: logging.LogRecord) -> str:
        """The record's line."""
        line: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("table", "request"):
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def json_handler(stream: Any = None) -> logging.Handler:
    """A handler writing JSON lines (to ``stream``, by default stderr), with the context's ids."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(ContextFilter())
    return handler


def json_log_config(level: str = "WARNING") -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` configuration: every log as JSON lines on stderr.

    uvicorn's logs included, at ``level`` and above (as uvicorn's ``log_level``).
    """
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": f"{__name__}.ContextFilter"}},
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {
            "json": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "filters": ["context"],
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["json"], "level": level},
        "loggers": {
            name: {"handlers": [], "level": level, "propagate": True}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
