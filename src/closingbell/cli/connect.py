"""``closingbell connect``: play a bot account's games on a server, by a bot or a function."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any

import closingbell
from closingbell.cli import arguments

TOKEN_VARIABLE = "CLOSINGBELL_TOKEN"
"""The environment variable read for the token when ``--token`` is left out."""


def add_parser(sub: Any) -> None:
    """Register the ``connect`` subcommand."""
    p = sub.add_parser(
        "connect",
        help="play a bot account's games on a server, with a bot or your own Python function",
        description="Sign in to a closingbell server with a bot account's API token (made on "
        "the server's account page) and play its games: the seats kept for it (invitations) "
        "and, with --accept open, open seats of the lobby's tables. Each decision is made by "
        "one of closingbell's bots (--bot) or by a Python function choose(view) -> action "
        "(--agent) that gets the seat's view, exactly what the seat may see. A lost "
        "connection is tried again until the server is back. See docs/protocol.md, "
        '"Bots from outside".',
    )
    p.add_argument(
        "--server", required=True, metavar="URL", help="the server, e.g. http://localhost:8000"
    )
    p.add_argument(
        "--token",
        metavar="TOKEN",
        help=f"the bot account's API token (default: the {TOKEN_VARIABLE} environment variable; "
        "a token on the command line can be seen by other users of the machine)",
    )
    who = p.add_mutually_exclusive_group()
    who.add_argument(
        "--bot",
        metavar="LEVEL",
        help=f"one of closingbell's bots decides ({', '.join(closingbell.available_bots())}; "
        "default: hard)",
    )
    who.add_argument(
        "--agent",
        metavar="MODULE:FUNC",
        help="a Python function choose(view) -> action decides: MODULE:FUNC or FILE.py:FUNC "
        "(see examples/remote_agent.py)",
    )
    p.add_argument(
        "--accept",
        default="invitations",
        metavar="WHAT",
        help="what to take: invitations (seats kept for the account), open (open seats of "
        "waiting tables in the lobby), or invitations,open (default: invitations)",
    )
    p.add_argument(
        "--game",
        action="append",
        metavar="GAME",
        help="with --accept open, join only tables of this game (may be repeated)",
    )
    p.add_argument(
        "--games",
        type=arguments.positive_int,
        metavar="N",
        help="stop once N games are over (default: go on until stopped with Ctrl-C)",
    )
    p.add_argument(
        "--at-once",
        type=arguments.positive_int,
        default=4,
        metavar="N",
        help="play at most N tables at once (default: 4; the server allows a bot account 20)",
    )
    p.add_argument(
        "--poll",
        type=arguments.positive_float,
        default=5.0,
        metavar="SECONDS",
        help="how often to look for new games (default: 5)",
    )
    p.add_argument("--seed", type=arguments.seed, default=0, help="seeds the bots (default: 0)")
    p.add_argument(
        "--verbose",
        action="store_true",
        help="also print each connection made, action sent and refusal heard",
    )
    p.set_defaults(run=run)


def _accept(text: str) -> frozenset[str]:
    from closingbell.remote.client import ACCEPT  # noqa: PLC0415 (the client's libraries load late)

    chosen = frozenset(w.strip() for w in text.split(",") if w.strip())
    unknown = sorted(chosen - set(ACCEPT))
    if not chosen or unknown:
        raise ValueError(
            f"--accept takes {' or '.join(ACCEPT)} (or both, with a comma), not {text!r}"
        )
    return chosen


def run(args: argparse.Namespace) -> int:
    """Run ``closingbell connect``."""
    try:
        from closingbell.remote.agents import AgentError, bot_chooser, load_agent  # noqa: PLC0415
        from closingbell.remote.client import Connector, Settings  # noqa: PLC0415
    except ImportError as exc:
        print(
            f"closingbell connect needs httpx and websockets ({exc}): "
            "pip install 'closingbell[connect]'",
            file=sys.stderr,
        )
        return 2
    token = args.token or os.environ.get(TOKEN_VARIABLE, "")
    if not token:
        print(f"give the bot account's API token: --token or {TOKEN_VARIABLE}", file=sys.stderr)
        return 2
    if not args.server.startswith(("http://", "https://")):
        print(f"--server is an http:// or https:// address, not {args.server!r}", file=sys.stderr)
        return 2
    games = None
    if args.game:
        unknown = sorted(set(args.game) - set(closingbell.available_games()))
        if unknown:
            print(f"no game is called {', '.join(unknown)}", file=sys.stderr)
            return 2
        games = frozenset(args.game)
    try:
        accept = _accept(args.accept)
        make = load_agent(args.agent) if args.agent else bot_chooser(args.bot or "hard")
    except (AgentError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 2
    settings = Settings(
        server=args.server,
        token=token,
        make=make,
        accept=accept,
        games=games,
        most=args.games,
        at_once=args.at_once,
        poll=args.poll,
        seed=args.seed,
        verbose=args.verbose,
    )
    return asyncio.run(Connector(settings, say=lambda line: print(line, flush=True)).run())
