"""``closingbell serve``: run the web server (lobby, tables, WebSocket play).

Needs the ``web`` extra (``pip install -e ".[web]"``). Games are kept in SQLite by
default, in a file under ``$XDG_DATA_HOME/closingbell/`` (``~/.local/share/closingbell/``),
or in PostgreSQL with ``--database postgresql://USER:PASSWORD@HOST/DB``.

Every option, and every server setting without one, may also come from an environment
variable, ``CLOSINGBELL_`` and its name (``CLOSINGBELL_PORT``, ``CLOSINGBELL_BOT_DELAY``):
an option on the command line wins over the environment, which wins over the default.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from closingbell.cli.arguments import non_negative_float, non_negative_int, positive_int
from closingbell.cli.hints import install_extra
from closingbell.server.environment import EnvironmentValueError, read, variable
from closingbell.server.logs import LOG_FORMATS
from closingbell.server.origins import normalize_origin
from closingbell.server.ratelimit import ADDRESS_CONNECTIONS, ADDRESS_RATE

WS_MAX_SIZE = 65536
"""Bytes above which uvicorn closes a WebSocket outright (the app refuses smaller
oversized messages itself with a ``too_large`` error)."""

GIVEN = "given_options"
"""The attribute of the parsed arguments that lists the options given on the command line."""

OWN_OPTIONS: dict[str, Any] = {
    "host": str,
    "port": int,
    "database": str,
    "log_format": str,
    "header_timeout": float,
    "max_connections": int,
    "connections_per_address": int,
    "forwarded_allow_ips": str,
    "workers": int,
}
"""The options of the command itself (not server settings), each read from the variable of
its name as this type."""

SETTING_OPTIONS = {
    "bot_delay": "bot_delay",
    "bot_processes": "bot_processes",
    "tables_per_minute": "tables_per_minute",
    "tables_burst": "tables_burst",
    "websockets_per_address": "address_connections",
    "messages_per_address": "address_rate",
    "allowed_origin": "allowed_origins",
}
"""The options that set a server setting (a field of ``Settings``), by option: each is read
from the variable of the setting's name."""

ENVIRONMENT_HELP = (
    "Each option may also be given by the environment variable in brackets; an option on "
    "the command line wins over it. Every other server setting is read from CLOSINGBELL_ "
    "and its name in capitals, such as CLOSINGBELL_HELLO_TIMEOUT=10 or "
    "CLOSINGBELL_TABLE_IDLE=600 (the settings are listed in docs/web.md): true or false "
    "(1/0, yes/no), numbers, lists separated by commas. A value that cannot be read is "
    "refused in one line, and the server does not start."
)
"""The end of ``closingbell serve --help``."""


class _Given(argparse.Action):
    """Keep an option's value (a list of them, for a repeatable one) and note it was given."""

    def __init__(self, *args: Any, repeat: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.repeat = repeat
        """Whether the option may be given several times (its values make a list)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        """Store ``values`` for the option and add it to the options given."""
        given = tuple(getattr(namespace, GIVEN, ()))
        value: Any = values
        if self.repeat:
            value = [*(getattr(namespace, self.dest) if self.dest in given else []), values]
        setattr(namespace, self.dest, value)
        if self.dest not in given:
            setattr(namespace, GIVEN, (*given, self.dest))


def _env(name: str) -> str:
    """The help's note of the variable that gives ``name`` (an option or a setting)."""
    return f" [{variable(name)}]"


def add_parser(subparsers: Any) -> None:
    """Add the ``serve`` subcommand to the ``closingbell`` parser."""
    parser = subparsers.add_parser(
        "serve",
        help="run the web server to play in the browser",
        description=(
            "Run the closingbell web server: a lobby of tables over HTTP and play over "
            "WebSockets (docs/web.md, docs/protocol.md). GET /healthz, /readyz and /metrics "
            "are for the machines that run it."
        ),
        epilog=ENVIRONMENT_HELP,
    )
    parser.set_defaults(**{GIVEN: ()})
    parser.add_argument(
        "--host", action=_Given, default="127.0.0.1", help="address to listen on" + _env("host")
    )
    parser.add_argument(
        "--port",
        action=_Given,
        type=positive_int,
        default=8000,
        help="port to listen on" + _env("port"),
    )
    parser.add_argument(
        "--workers",
        action=_Given,
        type=positive_int,
        default=1,
        metavar="N",
        help=(
            "server processes to run on this machine, sharing the listening port and the "
            "database (more than 1 needs PostgreSQL; docs/scaling.md)" + _env("workers")
        ),
    )
    parser.add_argument(
        "--database",
        action=_Given,
        metavar="URL",
        default=None,
        help=(
            "sqlite:///PATH, a file path, or postgresql://USER:PASSWORD@HOST/DB "
            "(default: an SQLite file in the user's data folder)" + _env("database")
        ),
    )
    parser.add_argument(
        "--log-format",
        action=_Given,
        choices=LOG_FORMATS,
        default="text",
        help=(
            "text (the default), or json: each log line one JSON object with its time, "
            "level, logger, message, and the table and request it concerns" + _env("log_format")
        ),
    )
    parser.add_argument(
        "--bot-delay",
        action=_Given,
        type=float,
        default=0.3,
        metavar="SECONDS",
        help=(
            "pause before a bot's turn so people can follow, shorter ones between its "
            "decisions (default 0.3)" + _env("bot_delay")
        ),
    )
    parser.add_argument(
        "--bot-processes",
        action=_Given,
        type=int,
        default=None,
        metavar="N",
        help=(
            "helper processes in which search bots (expert) think "
            "(default: one per core; 0: a thread of the server)" + _env("bot_processes")
        ),
    )
    limits = parser.add_argument_group(
        "limits (docs/web.md; behind a reverse proxy, see --forwarded-allow-ips)"
    )
    limits.add_argument(
        "--header-timeout",
        action=_Given,
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="seconds a client has to send a whole request head (default 5)"
        + _env("header_timeout"),
    )
    limits.add_argument(
        "--max-connections",
        action=_Given,
        type=int,
        default=None,
        metavar="N",
        help="connections held at once, WebSockets included (default: the open-file "
        "limit, raised to its hard limit at start, less 128)" + _env("max_connections"),
    )
    limits.add_argument(
        "--connections-per-address",
        action=_Given,
        type=int,
        default=100,
        metavar="N",
        help="connections one client address may hold at once (default 100; 0: no limit)"
        + _env("connections_per_address"),
    )
    limits.add_argument(
        "--tables-per-minute",
        action=_Given,
        type=float,
        default=10.0,
        metavar="N",
        help="new tables one client address may open a minute (default 10; 0: no limit)"
        + _env("tables_per_minute"),
    )
    limits.add_argument(
        "--tables-burst",
        action=_Given,
        type=float,
        default=20.0,
        metavar="N",
        help="new tables one client address may open at once (default 20)" + _env("tables_burst"),
    )
    limits.add_argument(
        "--forwarded-allow-ips",
        action=_Given,
        default="",
        metavar="ADDRESSES",
        help="comma-separated addresses or networks of reverse proxies whose "
        "X-Forwarded-For header names the client (default: none, the header is ignored); "
        "they are exempt from --connections-per-address" + _env("forwarded_allow_ips"),
    )
    limits.add_argument(
        "--websockets-per-address",
        action=_Given,
        type=non_negative_int,
        default=ADDRESS_CONNECTIONS,
        metavar="N",
        help=(
            "WebSocket connections one client address may hold at once "
            f"(default {ADDRESS_CONNECTIONS}; 0: no limit on connections)"
            + _env("address_connections")
        ),
    )
    limits.add_argument(
        "--messages-per-address",
        action=_Given,
        type=non_negative_float,
        default=ADDRESS_RATE,
        metavar="MESSAGES",
        help=(
            "WebSocket messages a second one client address may send over all its "
            f"connections, three times that at once (default {ADDRESS_RATE:g}; 0: no limit)"
            + _env("address_rate")
        ),
    )
    parser.add_argument(
        "--allowed-origin",
        action=_Given,
        repeat=True,
        type=_origin,
        default=[],
        metavar="ORIGIN",
        help=(
            "also accept WebSockets from pages of ORIGIN, such as https://play.example.com "
            "(repeatable; the site's own origin, the host a request came to, is always "
            "accepted; for a proxy that rewrites the Host header)"
            + f" [{variable('allowed_origins')}, separated by commas]"
        ),
    )
    parser.set_defaults(run=run)


def from_environment(
    args: argparse.Namespace, environ: Mapping[str, str]
) -> tuple[dict[str, str], dict[str, Any]]:
    """Fill in from ``environ`` the options not given on the command line.

    Changes ``args`` in place. Returns where each option's value came from (``--flag``,
    the variable's name, or ``default``), for messages, and the server settings the
    environment gives that no option sets. Raises
    :class:`~closingbell.server.environment.EnvironmentValueError` for a value that cannot
    be read.
    """
    from closingbell.server.environment import settings_from_environment  # noqa: PLC0415

    given = set(getattr(args, GIVEN, ()))
    settings = settings_from_environment(environ)
    sources: dict[str, str] = {}
    for dest in (*OWN_OPTIONS, *SETTING_OPTIONS):
        name = SETTING_OPTIONS.get(dest, dest)
        if dest in given:
            sources[dest] = "--" + dest.replace("_", "-")
            settings.pop(name, None)
            continue
        if dest in OWN_OPTIONS:
            found, value = read(environ, dest, OWN_OPTIONS[dest])
        else:
            found, value = name in settings, settings.pop(name, None)
        if found:
            setattr(args, dest, list(value) if dest == "allowed_origin" else value)
            sources[dest] = variable(name)
        else:
            sources[dest] = "default"
    return sources, settings


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


def run(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> int:
    """Serve until interrupted; return the exit status.

    Options not given in ``args`` come from ``environ`` (``os.environ`` by default).
    """
    try:
        import uvicorn  # noqa: PLC0415 (the web extra is optional)

        from closingbell.server.app import create_app  # noqa: PLC0415
        from closingbell.server.connections import (  # noqa: PLC0415
            ConnectionLimits,
            default_max_connections,
            guarded_protocol,
            raise_open_file_limit,
        )
        from closingbell.server.limits import early_refusal  # noqa: PLC0415
        from closingbell.server.logs import json_log_config  # noqa: PLC0415
        from closingbell.server.store import async_url, default_database_path  # noqa: PLC0415
        from closingbell.server.wsprotocol import WebSocketProtocol  # noqa: PLC0415
    except ImportError as exc:
        print(
            f"closingbell serve: the web extra is missing ({exc.name}); "
            f"install it with: {install_extra('web')}",
            file=sys.stderr,
        )
        return 1
    try:
        sources, settings = from_environment(args, os.environ if environ is None else environ)
    except EnvironmentValueError as exc:
        print(f"closingbell serve: {exc}", file=sys.stderr)
        return 2
    problem = _check(args, sources)
    if problem is not None:
        print(f"closingbell serve: {problem}", file=sys.stderr)
        return 2
    database = args.database
    if database is None:
        path = default_database_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        database = str(path)
    if args.workers > 1:
        return _supervise(args, database)
    settings.setdefault("address_burst", 3 * args.messages_per_address)
    app = create_app(
        database,
        **{
            **settings,
            "bot_delay": args.bot_delay,
            "bot_processes": args.bot_processes,
            "tables_per_minute": args.tables_per_minute,
            "tables_burst": args.tables_burst,
            "address_connections": args.websockets_per_address,
            "address_rate": args.messages_per_address,
            "allowed_origins": tuple(args.allowed_origin),
        },
    )
    open_files = raise_open_file_limit()
    trusted = tuple(a.strip() for a in args.forwarded_allow_ips.split(",") if a.strip())
    http = guarded_protocol(
        ConnectionLimits(
            header_timeout=args.header_timeout,
            max_connections=args.max_connections or default_max_connections(open_files),
            per_address=args.connections_per_address,
            trusted=trusted,
            early=early_refusal(app),
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
        log_config=json_log_config()
        if args.log_format == "json"
        else uvicorn.config.LOGGING_CONFIG,
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


def _supervise(args: argparse.Namespace, database: str) -> int:
    """Run ``args.workers`` server processes on one port and one PostgreSQL database."""
    from closingbell.cli.workers import listening_socket, supervise  # noqa: PLC0415
    from closingbell.server.store import async_url  # noqa: PLC0415

    if not async_url(database).startswith("postgresql"):
        print(
            f"closingbell serve: --workers {args.workers} needs a PostgreSQL database "
            "(--database postgresql://USER:PASSWORD@HOST/DB): an SQLite file takes one "
            "server process",
            file=sys.stderr,
        )
        return 2
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as exc:
        print(
            f"closingbell serve: cannot listen on {args.host}:{args.port}: {exc.strerror}",
            file=sys.stderr,
        )
        return 1
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"closingbell: games are kept in {_without_password(async_url(database))}")
    print(f"closingbell: open http://{host}:{args.port}/ (Ctrl-C stops)", flush=True)
    return supervise(args.workers, sock, sys.argv[1:])


def _check(args: argparse.Namespace, sources: dict[str, str]) -> str | None:
    """What is wrong with the options (naming the option or variable that gave it), or ``None``."""

    def where(dest: str) -> str:
        source = sources.get(dest, "default")
        return "--" + dest.replace("_", "-") if source == "default" else source

    if args.log_format not in LOG_FORMATS:
        return f"{where('log_format')} must be one of {', '.join(LOG_FORMATS)}"
    if not 1 <= args.port <= 65535:
        return f"{where('port')} must be from 1 to 65535"
    for dest in ("bot_delay", "bot_processes"):
        value = getattr(args, dest)
        if value is not None and value < 0:
            return f"{where(dest)} must be 0 or more"
    for dest in ("header_timeout", "tables_burst"):
        if not getattr(args, dest) > 0:
            return f"{where(dest)} must be more than 0"
    for dest in (
        "max_connections",
        "connections_per_address",
        "tables_per_minute",
        "websockets_per_address",
        "messages_per_address",
    ):
        value = getattr(args, dest)
        if value is not None and value < 0:
            return f"{where(dest)} must be 0 or more"
    return None


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
    from closingbell.cli.workers import WORKER_NUMBER, inherited_socket  # noqa: PLC0415

    sock = inherited_socket()
    if sock is None:
        for line in announce:
            print(line, flush=True)
    else:
        print(f"closingbell: worker {os.environ.get(WORKER_NUMBER, '?')} ready", flush=True)
    tune_garbage_collector()
    await server.serve(sockets=None if sock is None else [sock])
    return 0 if server.started else 1


def _without_password(url: str) -> str:
    """The URL with any password replaced by ``***``, for printing."""
    if "://" not in url or "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    credentials, _, where = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{where}" if ":" in credentials else url
