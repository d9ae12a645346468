"""The server's metrics, in Prometheus's text format at ``GET /metrics`` (docs/web.md).

Each app has a :class:`Metrics` of its own, in a registry of its own (never
``prometheus_client``'s global one), so that several apps in one process count apart.

A metric tells how the server is doing, never what a seat may not see: its labels come
only from small fixed sets (a game's name, a bot's level, an error code, a kind of write),
never a table's id, a seat's token, a name or a card.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Callable, Iterable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from closingbell.bots import available_bots
from closingbell.core.registry import available_games
from closingbell.server.protocol import ErrorCode

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The media type of Prometheus's text format."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Bucket bounds, in seconds, of the round trips of actions."""
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Bucket bounds, in seconds, of database commits."""
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)
"""Bucket bounds, in seconds, of a bot's thinking (an expert thinks up to a second)."""

WRITES = ("actions", "table", "join", "account", "chat", "rematch")
"""What a commit writes: a batch of actions (a group commit), a new table, a join, an
account's change (a sign-up, a session made or revoked, a password, a claimed seat), a chat
message, a rematch vote (with the new table, for the vote that completes it)."""
BY = ("player", "bot", "stand_in")
"""Who made an action: the seat's player, its bot, or a bot standing in for an absent player."""
STATUSES = ("waiting", "playing", "finished", "abandoned")
"""A table's status."""
OTHER = "other"
"""The label of a game or bot outside the fixed sets (none today; kept so labels stay few)."""

TableCount = Callable[[], Iterable[tuple[str, str]]]
"""The tables held in memory, each as its (game, status)."""


def _label(value: str, known: tuple[str, ...]) -> str:
    """``value`` if it is one of ``known``, else :data:`OTHER`: labels stay a small set."""
    return value if value in known else OTHER


class _Tables(Collector):
    """``closingbell_tables``: the tables in memory by game and status, counted when scraped."""

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics

    def collect(self) -> Iterator[Metric]:
        """The gauge, with every game and status (0 when none)."""
        family = GaugeMetricFamily(
            "closingbell_tables",
            "Tables held in memory (live), by game and status.",
            labels=["game", "status"],
        )
        games = self._metrics.games
        count = self._metrics.count_tables
        found = Tally(
            (_label(game, games), _label(status, STATUSES))
            for game, status in (count() if count is not None else ())
        )
        for game in (*games, *([OTHER] if any(g == OTHER for g, _ in found) else [])):
            for status in STATUSES:
                family.add_metric([game, status], found[game, status])
        yield family


class _Servers(Collector):
    """The servers sharing the database and the tables this one runs, counted when scraped."""

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics

    def collect(self) -> Iterator[Metric]:
        """``closingbell_servers_live`` and ``closingbell_tables_leased``."""
        count = self._metrics.count_servers
        live, leased = count() if count is not None else (1, 0)
        yield GaugeMetricFamily(
            "closingbell_servers_live",
            "Servers sharing the database whose heartbeat is recent, this one included "
            "(1 on SQLite).",
            value=live,
        )
        yield GaugeMetricFamily(
            "closingbell_tables_leased",
            "Tables whose bots and turn clock this server runs (holds the lease of), on a "
            "database shared by several servers (0 on SQLite, where it runs every table).",
            value=leased,
        )


class Metrics:
    """One app's metrics and the registry that holds them."""

    def __init__(self) -> None:
        self.games = tuple(available_games())
        """The games that label metrics (any other is :data:`OTHER`)."""
        self.bots = tuple(available_bots())
        """The bots that label metrics."""
        self.registry = CollectorRegistry(auto_describe=True)
        """The registry ``GET /metrics`` shows (the app's own)."""
        self.count_tables: TableCount | None = None
        """The tables held in memory, as (game, status) pairs; set by the hub as it is made."""
        self.registry.register(_Tables(self))
        self.count_servers: Callable[[], tuple[int, int]] | None = None
        """The live servers on the database and the tables this one leases; set by the hub."""
        self.registry.register(_Servers(self))
        self.websockets = Gauge(
            "closingbell_websocket_connections",
            "WebSocket connections open now (players and spectators).",
            registry=self.registry,
        )
        """Open WebSocket connections."""
        self.actions = Counter(
            "closingbell_actions",
            "Actions applied and stored, by game and by whom (player, bot, stand_in).",
            ["game", "by"],
            registry=self.registry,
        )
        """Actions applied; its rate is actions a second."""
        self.round_trip = Histogram(
            "closingbell_action_round_trip_seconds",
            "Seconds from receiving a client's action to sending that client the state it led to.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        """Round trips of the actions clients sent and the server played."""
        self.commit = Histogram(
            "closingbell_database_commit_seconds",
            "Seconds a database write takes, from its transaction's start to its commit, by "
            "what it writes (actions: a group commit of actions; table; join; account; chat; "
            "rematch).",
            ["write"],
            buckets=COMMIT_BUCKETS,
            registry=self.registry,
        )
        """Database commits."""
        self.bot_think = Histogram(
            "closingbell_bot_think_seconds",
            "Seconds a bot takes to choose a move (after the bot delay), by bot.",
            ["bot"],
            buckets=THINK_BUCKETS,
            registry=self.registry,
        )
        """Bots' thinking."""
        self.hint_time = Histogram(
            "closingbell_hint_seconds",
            "Seconds from a player's hint request to its answer, worked out anew (a hint "
            "already worked out for the same decision is not counted), by game.",
            ["game"],
            buckets=THINK_BUCKETS,
            registry=self.registry,
        )
        """Hints worked out."""
        self.errors = Counter(
            "closingbell_errors",
            "Errors sent to clients (HTTP error bodies and WebSocket error messages), by code.",
            ["code"],
            registry=self.registry,
        )
        """Errors sent to clients."""
        self.followed = Counter(
            "closingbell_actions_followed",
            "Actions another server stored that this one applied to its copy of the table, "
            "from their notices or the database, by game.",
            ["game"],
            registry=self.registry,
        )
        """Actions followed from other servers."""
        self.taken_over = Counter(
            "closingbell_tables_taken_over",
            "Tables whose lease this server took from a server that stopped or died.",
            registry=self.registry,
        )
        """Tables taken over."""
        for code in ErrorCode:
            self.errors.labels(code=code.value)
        for game in self.games:
            self.followed.labels(game=game)
            self.hint_time.labels(game=game)
            for by in BY:
                self.actions.labels(game=game, by=by)
        for write in WRITES:
            self.commit.labels(write=write)

    def action(self, game: str, by: str) -> None:
        """Count one action applied at a table of ``game``, made ``by`` a player or a bot."""
        self.actions.labels(game=_label(game, self.games), by=_label(by, BY)).inc()

    def committed(self, write: str, seconds: float) -> None:
        """Note a database commit of ``write`` that took ``seconds`` (a store's ``on_commit``)."""
        self.commit.labels(write=_label(write, WRITES)).observe(seconds)

    def thought(self, bot: str, seconds: float) -> None:
        """Note that bot ``bot`` (its name or level) took ``seconds`` to choose."""
        self.bot_think.labels(bot=_label(bot, self.bots)).observe(seconds)

    def hinted(self, game: str, seconds: float) -> None:
        """Note that a hint at a table of ``game`` took ``seconds`` to work out."""
        self.hint_time.labels(game=_label(game, self.games)).observe(seconds)

    def error(self, code: ErrorCode) -> None:
        """Count one error sent to a client."""
        self.errors.labels(code=code.value).inc()

    def text(self) -> bytes:
        """Every metric in Prometheus's text format."""
        return generate_latest(self.registry)
