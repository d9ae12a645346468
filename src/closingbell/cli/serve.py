"""``closingbell serve``: run the web server (lobby, tables, WebSocket play).

Needs the ``web`` extra (``pip install -e ".[web]"``). Games are kept in SQLite by
default, in a file under ``$XDG_DATA_HOME/closingbell/`` (``~/.local/share/closingbell/``),
or in PostgreSQL with ``--database postgresql://USER:PASSWORD@HOST/DB``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
from typing import Any

from closingbell.cli.arguments import non_negative_float, non_negative_int, positive_int
from closingbell.cli.hints import install_extra
from closingbell.server.origins import normalize_origin
from closingbell.server.ratelimit import ADDRESS_CONNECTIONS, ADDRESS_RATE

WS_MAX_SIZE = 65536
"""Bytes above which uvicorn closes a WebSocket outright (the app refuses smaller
oversized messages itself with a ``too_large`` error)."""


def add_parser(subparsers: Any) -> None:
    """Add the ``serve`` subcommand to the ``closingbell`` parser."""
    parser = subparsers.add_parser(
        "serve",
        help="run the web server to play in the browser",
        description=(
            "Run the closingbell web server: a lobby of tables over HTTP and play over "
            "WebSockets (docs/web.md, docs/protocol.md)."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=positive_int, default=8000, help="port to listen on")
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help=(
            "sqlite:///PATH, a file path, or postgresql://USER:PASSWORD@HOST/DB "
            "(default: an SQLite file in the user's data folder)"
        ),
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause before each bot move so people can follow (default 0.6)",
    )
    parser.add_argument(
        "--bot-processes",
        type=int,
        default=None,
        metavar="N",
        help=(
            "helper processes in which search bots (expert) think "
            "(default: one per core; 0: a thread of the server)"
        ),
    )
    limits = parser.add_argument_group(
        "limits (docs/web.md; behind a reverse proxy, see --forwarded-allow-ips)"
    )
    limits.add_argument(
        "--header-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="seconds a client has to send a whole request head (default 5)",
    )
    limits.add_argument(
        "--max-connections",
        type=int,
        default=None,
        metavar="N",
        help="connections held at once, WebSockets included (default: the open-file "
        "limit, raised to its hard limit at start, less 128)",
    )
    limits.add_argument(
        "--connections-per-address",
        type=int,
        default=100,
        metavar="N",
        help="connections one client address may hold at once (default 100; 0: no limit)",
    )
    limits.add_argument(
        "--tables-per-minute",
        type=float,
        default=10.0,
        metavar="N",
        help="new tables one client address may open a minute (default 10; 0: no limit)",
    )
    limits.add_argument(
        "--tables-burst",
        type=float,
        default=20.0,
        metavar="N",
        help="new tables one client address may open at once (default 20)",
    )
    limits.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="ADDRESSES",
        help="comma-separated addresses or networks of reverse proxies whose "
        "X-Forwarded-For header names the client (default: none, the header is ignored); "
        "they are exempt from --connections-per-address",
    )
    limits.add_argument(
        "--websockets-per-address",
        type=non_negative_int,
        default=ADDRESS_CONNECTIONS,
        metavar="N",
        help=(
            "WebSocket connections one client address may hold at once "
            f"(default {ADDRESS_CONNECTIONS}; 0: no limit on connections)"
        ),
    )
    limits.add_argument(
        "--messages-per-address",
        type=non_negative_float,
        default=ADDRESS_RATE,
        metavar="MESSAGES",
        help=(
            "WebSocket messages a second one client address may send over all its "
            f"connections, three times that at once (default {ADDRESS_RATE:g}; 0: no limit)"
        ),
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        type=_origin,
        default=[],
        metavar="ORIGIN",
        help=(
            "also accept WebSockets from pages of ORIGIN, such as https://play.example.com "
            "(repeatable; the site's own origin, the host a request came to, is always "
            "accepted; for a proxy that rewrites the Host header)"
        ),
    )
    parser.set_defaults(run=run)


def _origin(text: str) -> str:
    """An origin, normalized (``https://host[:port]``)."""
    try:
        return normalize_origin(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


GC_THRESHOLDS = (20_000, 50, 100)
"""The garbage collector's thresholds while serving (CPython's defaults: 700, 10, 10)."""


def tune_garbage_collector() -> None:
    """Make the collector's pauses rare in a long-running server.

    A server holds many long-lived objects (every table's state and log), and each full
    collection walks them all: with the default thresholds these pauses were most of the
    slowest 1% of round trips at 500 tables (p99 about 200 ms; 30-70 ms once tuned,
    ``closingbell bench --web``). The objects made while starting are frozen out of the
    collections, and the youngest generation is collected less often.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; return the exit status."""
    try:
        import uvicorn  # noqa: PLC0415 (the web extra is optional)

        from closingbell.server.app import create_app  # noqa: PLC0415
        from closingbell.server.connections import (  # noqa: PLC0415
            ConnectionLimits,
            default_max_connections,
            guarded_protocol,
            raise_open_file_limit,
        )
        from closingbell.server.store import async_url, default_database_path  # noqa: PLC0415
        from closingbell.server.wsprotocol import WebSocketProtocol  # noqa: PLC0415
    except ImportError as exc:
        print(
            f"closingbell serve: the web extra is missing ({exc.name}); "
            f"install it with: {install_extra('web')}",
            file=sys.stderr,
        )
        return 1
    if args.bot_delay < 0:
        print("closingbell serve: --bot-delay must be 0 or more", file=sys.stderr)
        return 2
    if args.bot_processes is not None and args.bot_processes < 0:
        print("closingbell serve: --bot-processes must be 0 or more", file=sys.stderr)
        return 2
    for flag in ("header_timeout", "tables_burst"):
        if not getattr(args, flag) > 0:
            print(
                f"closingbell serve: --{flag.replace('_', '-')} must be more than 0",
                file=sys.stderr,
            )
            return 2
    for flag in ("max_connections", "connections_per_address", "tables_per_minute"):
        value = getattr(args, flag)
        if value is not None and value < 0:
            print(
                f"closingbell serve: --{flag.replace('_', '-')} must be 0 or more", file=sys.stderr
            )
            return 2
    database = args.database
    if database is None:
        path = default_database_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        database = str(path)
    app = create_app(
        database,
        bot_delay=args.bot_delay,
        bot_processes=args.bot_processes,
        tables_per_minute=args.tables_per_minute,
        tables_burst=args.tables_burst,
        address_connections=args.websockets_per_address,
        address_rate=args.messages_per_address,
        address_burst=3 * args.messages_per_address,
        allowed_origins=tuple(args.allowed_origin),
    )
    open_files = raise_open_file_limit()
    trusted = tuple(a.strip() for a in args.forwarded_allow_ips.split(",") if a.strip())
    http = guarded_protocol(
        ConnectionLimits(
            header_timeout=args.header_timeout,
            max_connections=args.max_connections or default_max_connections(open_files),
            per_address=args.connections_per_address,
            trusted=trusted,
        )
    )
    shown = _without_password(async_url(database))
    host = f"[{args.host}]" if ":" in args.host else args.host
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        http=http,
        ws=WebSocketProtocol,
        ws_max_size=WS_MAX_SIZE,
        log_level="warning",
        # uvicorn trusts X-Forwarded-For from 127.0.0.1 unless told otherwise, which would let
        # any local client choose the address its limits are counted against.
        proxy_headers=bool(trusted),
        forwarded_allow_ips=list(trusted),
    )
    announce = [
        f"closingbell: games are kept in {shown}",
        f"closingbell: open http://{host}:{args.port}/ (Ctrl-C stops)",
    ]
    try:
        with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
            return runner.run(_serve(uvicorn.Server(config), announce))
    except KeyboardInterrupt:
        return 0


async def _serve(server: Any, announce: list[str]) -> int:
    """Open the database, then serve on the same event loop; the exit status.

    The database is opened before uvicorn starts the app, so that one the server refuses
    (docs/web.md) is told in one line on stderr rather than in the traceback of a failed
    start-up.
    """
    from closingbell.server.app import start  # noqa: PLC0415
    from closingbell.server.store import UnusableDatabaseError  # noqa: PLC0415

    try:
        await start(server.config.app)
    except UnusableDatabaseError as exc:
        print(f"closingbell serve: {exc}", file=sys.stderr)
        return 1
    for line in announce:
        print(line, flush=True)
    tune_garbage_collector()
    await server.serve()
    return 0 if server.started else 1


def _without_password(url: str) -> str:
    """The URL with any password replaced by ``***``, for printing."""
    if "://" not in url or "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    credentials, _, where = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{where}" if ":" in credentials else url
