"""How the server behaves: every setting of :class:`Settings`, with its default.

Read by most rooms of the server (tables, their bots and clocks, the limits, the
environment's variables), so it lives below all of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from closingbell.server.ratelimit import ADDRESS_CONNECTIONS, ADDRESS_RATE


@dataclass
class Settings:
    """How the server behaves; the defaults suit people playing in browsers."""

    bot_delay: float = 0.3
    """Seconds a bot waits before the first decision of its turn, so that people can follow
    (thinking meanwhile: a search bot that thinks longer waits no more)."""
    bot_step_delay: float = 0.15
    """Seconds a bot waits before each following decision of the same turn (never more than
    ``bot_delay``); shorter once the turn's pauses near ``bot_turn`` (:func:`bot_pause`)."""
    bot_turn: float = 1.0
    """Seconds a bot's turn lasts at most, pauses and a quick bot's thinking together: its
    following decisions' pauses shrink to fit (a search bot's thinking may take longer)."""
    allow_seed: bool = False
    """Whether a new table may be given its seed (tests only: a known seed reveals the deal).

    Such a server also seeds each table's bots from the deal's seed and the seat
    (:func:`bot_seed`), so that a seeded game of bots is the same every time."""
    max_message: int = 4096
    """The longest WebSocket message accepted, in bytes."""
    rate: float = 10.0
    """Messages per second one connection may send in the long run."""
    burst: float = 30.0
    """Messages one connection may send at once."""
    hello_timeout: float = 30.0
    """Seconds a new connection has to send ``hello``."""
    refusal_window: float = 1.0
    """Seconds in which a connection over its rate gets at most one ``rate_limited``
    answer; its other messages over the rate are dropped unanswered."""
    flood_limit: int = 100
    """Messages over the rate dropped in one window after which the connection is closed
    (close code 4429)."""
    send_buffer: int = 1 << 20
    """The most memory, in bytes, a connection's unsent messages may take before it is
    closed as too slow a reader (close code 4413)."""
    address_connections: int = ADDRESS_CONNECTIONS
    """WebSocket connections one client address may hold at once, and open in a burst
    (0: no limit on connections, nor on how fast they are opened). Behind a proxy every
    client may share one address."""
    address_connect_rate: float = 2.0
    """New WebSocket connections a second one client address may open after its burst."""
    address_rate: float = ADDRESS_RATE
    """Messages a second one client address may send over all its connections (0: no
    limit)."""
    address_burst: float = 3 * ADDRESS_RATE
    """Messages one client address may send at once over all its connections."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://play.example.com``) whose pages may open WebSockets besides the
    site's own (the host a request came to); for deployments behind a proxy."""
    bot_processes: int | None = None
    """Helper processes for search bots' moves: ``None``, one per core; ``0``, none (a
    thread of the server process thinks instead)."""
    address_bot_processes: int | None = None
    """Helper processes the search work of one client address may hold at once
    (``server.thinking``): ``None``, half of them, at least one."""
    search_seats_per_address: int = 12
    """Seats of search bots (``expert``, ``ismcts``) one client address may keep at its
    unfinished tables on this server at once (0: no limit); a table over it is refused
    with ``too_many_search_bots``."""
    max_body: int = 65536
    """The longest HTTP request body accepted, in bytes (``413 too_large`` beyond)."""
    body_timeout: float = 10.0
    """Seconds a client has to send a request's body once its head has arrived."""
    tables_per_minute: float = 10.0
    """Tables one client address may create a minute in the long run (0: no limit)."""
    tables_burst: float = 20.0
    """Tables one client address may create at once."""
    table_idle: float = 1800.0
    """Seconds an unfinished table nobody uses stays in memory (it stays in the database)."""
    finished_idle: float = 300.0
    """Seconds a finished table nobody uses stays in memory."""
    tables_in_memory: int = 2000
    """Tables kept in memory beyond which the longest unused ones go first, however recent."""
    replay_cache: int = 64 * 2**20
    """Bytes of finished games' replays and records kept ready to send."""
    review_budget: int = 128
    """Worlds dealt for each decision of a seat's review (``server.reviews``): fixed, so that
    a review is the same every time; tests choose fewer."""
    reviews_at_once: int = 2
    """Reviews worked out at a time; asking for one more is refused (``too_many_reviews``)."""
    review_cache: int = 32 * 2**20
    """Bytes of finished reviews kept ready to send."""
    lease_seconds: float = 5.0
    """On a PostgreSQL database shared by several servers: seconds without a heartbeat
    after which a server is taken for dead and its tables are taken over by the others
    (``server.cluster``); each server beats five times in that time."""
    deadline_check: float = 30.0
    """Seconds between two looks for games over days whose seat to move ran out of time."""
    abandon_after: float = 86400.0
    """Seconds after which a real-time table that nobody has been at is abandoned: no person
    seated connected, no action, no join all that time (0: never). It ends without a result
    (``abandoned``) and leaves the lobby's live tables; games over days are left alone."""
    abandon_check: float = 600.0
    """Seconds between two looks for abandoned tables."""
    sign_ins_per_account: int = 5
    """Failed sign-ins to one account name heard in ``sign_in_window`` (then refused)."""
    sign_ins_per_address: int = 20
    """Failed sign-ins from one client address heard in ``sign_in_window`` (then refused)."""
    sign_in_window: float = 900.0
    """Seconds over which failed sign-ins are counted."""
    sign_ups_per_address: int = 5
    """Sign-ups (failed ones too) from one client address heard in ``sign_up_window``
    (then refused with ``too_many_sign_ups``; 0: no limit)."""
    sign_up_window: float = 3600.0
    """Seconds over which sign-ups are counted."""
    hash_threads: int = 1
    """Threads that hash and check passwords (each hash takes about 80 ms and 64 MiB)."""
    hash_waiting: int = 8
    """Password checks that may wait for a hashing thread; more are refused with ``busy``."""
    hash_per_address: int = 2
    """Password checks one client address may have running or waiting (0: no limit)."""
    hash_time_cost: int = 3
    """Argon2id's passes over its memory in each password hash (argon2-cffi's default). A
    hash keeps the costs it was made with, so changing them never locks an account out."""
    hash_memory: int = 65536
    """Argon2id's memory in each password hash, in KiB (64 MiB, argon2-cffi's default; at
    least 32). Cheaper hashes are cheaper for an attacker to guess too: the test servers
    lower both costs (``hash_time_cost=1``, ``hash_memory=32``), a server of people never."""
    chat_burst: int = 5
    """Chat messages one seat (over all its connections), one account (over all its seats
    on this server) and one spectator's connection may each write in ``chat_window``
    seconds (then refused with ``chat_rate_limited`` until the oldest leaves the window)."""
    chat_window: float = 10.0
    """Seconds over which chat messages are counted."""
    chat_history: int = 100
    """The latest chat messages sent to a connection after its ``welcome`` and ``state``."""
    online_window: float = 60.0
    """Seconds a visitor counts as online after its page's last heartbeat (``server.online``)."""
    warm_for_hints: bool = True
    """Whether a player sitting down at a practice table starts a bots' helper process at
    once, if none runs yet, so that their first hint does not wait for one to start."""
    tournament_tick: float = 1.0
    """Seconds between two looks at the tournaments to direct (start, score, seat, finish)."""
    bot_account_games: int = 20
    """Unfinished tables (waiting or playing) a bot account may sit at at once, counted in
    the database by every server; a join past it is refused (``too_many_games``; 0: no
    limit)."""
    invitations_open: int = 10
    """Open invitations (seats kept for other accounts, not yet taken nor declined) one
    account may have made at once, counted in the database by every server; a table that
    would make more is refused (``too_many_invitations``)."""
    invitations_to_one: int = 3
    """Open invitations one account may have made to one other account at once."""
    invitation_days: float = 14.0
    """Days after its table was made that an open invitation counts against its maker's
    limits: one nobody answers does not hold its place for ever (it stays listed)."""
