"""Players' accounts: sign-up, sign-in with throttling, sessions, and password changes.

A password is kept only as its Argon2id hash (``argon2-cffi``), worked out in a thread so
that the event loop never waits for it. Signing in makes a session: a random cookie
(HttpOnly, SameSite=Lax, Secure over HTTPS) of which the database keeps only the SHA-256,
so that signing out (or changing the password) revokes it for every server at once.

"No such account" and "wrong password" get the same answer, in about the same time (an
unknown name is checked against a hash of its own). Failed sign-ins, and wrong current
passwords given to change a password, are counted per account name and per address
(:class:`SignInThrottle`); past the limit, they are refused for a while whatever the
password. Sign-ups are counted per address, failed or not, since each costs a hash.

A hash costs about 80 ms of a core and 64 MiB of memory, so hashing is bounded too
(:class:`Hashing`): it runs in a small pool of threads of its own, never in the default one
that bots and database calls share, and at most a few requests wait for it, each address
at most a couple; any more are refused at once (``busy``, with ``Retry-After``).

An account keeps at most :data:`SESSIONS_PER_ACCOUNT` sessions: signing in once more
revokes the oldest. Revoking a session (signing out, changing the password, a session too
old or too many) calls :attr:`Accounts.on_revoked`, with which the server closes the
WebSockets opened with it.

Seats stay reachable by their seat tokens as before: guests play with a seat link and
nothing else. A signed-in player's seats also carry the account (``seats.user_id``), so that
"My games" lists them and the page can enter them with the session alone; a guest who signs
up or signs in mid-game hands over the tokens it holds and keeps its seats.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import math
import re
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.exc import IntegrityError

from closingbell.server.store import Store, hash_token
from closingbell.server.store.records import aware
from closingbell.server.store.schema import (
    api_tokens_table,
    seats_table,
    sessions_table,
    users_table,
)

SESSION_COOKIE = "closingbell_session"
"""The session cookie's name."""

SESSION_DAYS = 30
"""Days a session lasts unused before it must sign in again (the cookie's max age too)."""

SEEN_EVERY = 60.0
"""Seconds between two updates of a session's ``seen_at``."""

USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,31}")
"""An account name: 3 to 32 letters, digits, ``_``, ``.`` or ``-``, starting with a letter or
digit (so that it is the same on every screen and safe in a link)."""

PASSWORD_MIN = 8
"""The shortest password accepted, in characters."""
PASSWORD_MAX = 1024
"""The longest password accepted, in characters (hashing a huge one would be a cheap way
to tie the server up)."""

SESSIONS_PER_ACCOUNT = 10
"""Sessions one account keeps at once; signing in once more revokes the oldest."""

TOKENS_PER_ACCOUNT = 10
"""API tokens one bot account may hold at once (revoked ones do not count)."""

TOKEN_NAME_MAX = 64
"""The longest name of an API token, in characters."""

BAD_API_TOKEN = "the API token is unknown or was revoked"
"""The one answer to a request with an API token that opens nothing."""

BAD_SIGN_IN = "the account name or the password is wrong"
"""The one answer to a sign-in with an unknown name or a wrong password."""

Clock = Callable[[], dt.datetime]
"""The wall clock (UTC); tests give one of their own."""

T = TypeVar("T")


def utc_now() -> dt.datetime:
    """The time now, in UTC."""
    return dt.datetime.now(dt.UTC)


class AccountError(Exception):
    """A refused account request: a stable code, a message and the HTTP status."""

    def __init__(
        self, code: str, message: str, status: int = 422, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        """One of the error codes of docs/protocol.md."""
        self.message = message
        """What was wrong, for people."""
        self.status = status
        """The HTTP status of the answer."""
        self.retry_after = None if retry_after is None else max(1, math.ceil(retry_after))
        """Seconds after which asking again may be heard (the ``Retry-After`` header)."""


@dataclass(frozen=True)
class User:
    """A signed-in account."""

    id: str
    """The account's id (never shown: pages name accounts by their username)."""
    username: str
    """The account's name as its owner typed it."""
    bot: bool = False
    """Whether it is a bot account, played by a program with an API token."""


@dataclass(frozen=True)
class ApiToken:
    """One API token of a bot account, as its owner sees it listed (never the token)."""

    id: str
    """The token's id (to revoke it)."""
    name: str
    """Its owner's name for it."""
    created_at: dt.datetime
    """When it was made."""
    used_at: dt.datetime | None
    """When it last opened a connection or made a request (``None``: never)."""


def check_username(value: str) -> str:
    """``value`` as an account name (outer spaces removed), or raise :class:`AccountError`."""
    name = unicodedata.normalize("NFC", value).strip()
    if not USERNAME.fullmatch(name):
        raise AccountError(
            "bad_username",
            "an account name has 3 to 32 letters, digits, '_', '.' or '-' "
            "and starts with a letter or a digit",
        )
    return name


def check_password(value: str) -> str:
    """``value`` as a new password, or raise :class:`AccountError`."""
    if len(value) < PASSWORD_MIN:
        raise AccountError("bad_password", f"a password has at least {PASSWORD_MIN} characters")
    if len(value) > PASSWORD_MAX:
        raise AccountError("bad_password", f"a password has at most {PASSWORD_MAX} characters")
    return value


def username_key(name: str) -> str:
    """The form in which account names are compared (case does not matter)."""
    return name.casefold()


@dataclass
class _Window:
    """The failures counted for one key within the window."""

    times: deque[float] = field(default_factory=deque)


class SignInThrottle:
    """Counts failed sign-ins per account name and per address, and sign-ups per address.

    An account name with ``per_account`` failures in ``window`` seconds, or an address with
    ``per_address``, is refused until the oldest of them leaves the window; so is an address
    with ``sign_ups`` sign-ups in ``sign_up_window`` seconds. Counted by each server on its
    own (docs/web.md).
    """

    def __init__(
        self,
        *,
        per_account: int = 5,
        per_address: int = 20,
        window: float = 900.0,
        sign_ups: int = 5,
        sign_up_window: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_account = per_account
        """Failures allowed per account name in the window."""
        self.per_address = per_address
        """Failures allowed per address in the window."""
        self.window = window
        """The window, in seconds."""
        self.sign_ups = sign_ups
        """Sign-ups allowed per address in ``sign_up_window`` (0: no limit)."""
        self.sign_up_window = sign_up_window
        """The window of sign-ups, in seconds."""
        self.clock = clock
        """The monotonic clock (tests give their own)."""
        self._failures: dict[str, _Window] = {}

    def _recent(self, key: str, window: float) -> deque[float]:
        now = self.clock()
        found = self._failures.get(key)
        if found is None:
            return deque()
        while found.times and found.times[0] <= now - window:
            found.times.popleft()
        if not found.times:
            del self._failures[key]
        return found.times

    def wait(self, account: str, address: str) -> float:
        """Seconds before a sign-in to ``account`` from ``address`` is heard (0: now)."""
        waits = [0.0]
        for key, limit in (("u:" + account, self.per_account), ("a:" + address, self.per_address)):
            times = self._recent(key, self.window)
            if len(times) >= limit:
                waits.append(times[0] + self.window - self.clock())
        return max(waits)

    def address_wait(self, address: str) -> float:
        """Seconds before any password check from ``address`` is heard (0: now)."""
        times = self._recent("a:" + address, self.window)
        if len(times) >= self.per_address:
            return times[0] + self.window - self.clock()
        return 0.0

    def sign_up_wait(self, address: str) -> float:
        """Seconds before a sign-up from ``address`` is heard (0: now)."""
        if self.sign_ups <= 0:
            return 0.0
        times = self._recent("s:" + address, self.sign_up_window)
        if len(times) >= self.sign_ups:
            return times[0] + self.sign_up_window - self.clock()
        return 0.0

    def sign_up(self, address: str) -> float:
        """Count a sign-up from ``address``, or the seconds before one is heard (not counted)."""
        wait = self.sign_up_wait(address)
        if wait <= 0 and self.sign_ups > 0:
            self._failures.setdefault("s:" + address, _Window()).times.append(self.clock())
        return wait

    def failed(self, account: str, address: str) -> None:
        """Count a failed sign-in."""
        now = self.clock()
        for key in ("u:" + account, "a:" + address):
            self._failures.setdefault(key, _Window()).times.append(now)

    def succeeded(self, account: str) -> None:
        """Forget the account's failures (its owner knows the password)."""
        self._failures.pop("u:" + account, None)


class Hashing:
    """Where passwords are hashed and checked: a few threads of their own, a short queue.

    At most ``threads`` hashes run at once and ``waiting`` more wait; an address has at most
    ``per_address`` running or waiting. Beyond that a request is refused at once with
    :class:`AccountError` ``busy`` (``Retry-After``) instead of queueing without end, so that
    a flood of sign-ups costs a bounded share of the CPU and of memory.
    """

    def __init__(self, *, threads: int = 1, waiting: int = 8, per_address: int = 2) -> None:
        if threads < 1:
            raise ValueError(f"hashing needs at least 1 thread, not {threads}")
        self.threads = threads
        """Hashes worked out at once."""
        self.waiting = waiting
        """Hashes that may wait for a thread."""
        self.per_address = per_address
        """Hashes one address may have running or waiting (0: no limit of its own)."""
        self._executor: ThreadPoolExecutor | None = None
        self._pending = 0
        self._by_address: dict[str, int] = {}

    @property
    def pending(self) -> int:
        """Hashes running or waiting now."""
        return self._pending

    async def run(self, work: Callable[..., T], *args: Any, address: str = "") -> T:
        """``work(*args)`` in a hashing thread, or raise ``busy`` if too many wait."""
        if self._pending >= self.threads + self.waiting:
            raise AccountError(
                "busy", "the server is checking many passwords now; try again in a moment", 503, 1
            )
        held = self._by_address.get(address, 0)
        if self.per_address and held >= self.per_address:
            raise AccountError(
                "busy", "wait for this address's sign-ins to be answered before the next", 429, 1
            )
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.threads, "closingbell-hash")
        self._pending += 1
        self._by_address[address] = held + 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, work, *args)
        finally:
            self._pending -= 1
            left = self._by_address[address] - 1
            if left:
                self._by_address[address] = left
            else:
                del self._by_address[address]

    def stop(self) -> None:
        """Stop the threads once the hashes under way are done."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


def sign_up_refusal(wait: float) -> AccountError:
    """The refusal of a sign-up from an address that may sign up again in ``wait`` s."""
    return AccountError(
        "too_many_sign_ups",
        f"too many sign-ups from this address; try again in {max(1, round(wait))} s",
        429,
        wait,
    )


def password_refusal(wait: float) -> AccountError:
    """The refusal of a password check (a sign-in, a password change) for ``wait`` s."""
    return AccountError(
        "too_many_sign_ins",
        f"too many wrong passwords; try again in {max(1, round(wait))} s",
        429,
        wait,
    )


def _check_throttle(throttle: SignInThrottle, key: str, address: str) -> None:
    """Refuse a password check for account ``key`` from ``address`` while throttled."""
    wait = throttle.wait(key, address)
    if wait > 0:
        raise password_refusal(wait)


class Accounts:
    """The accounts and sessions of a server's database."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock = utc_now,
        throttle: SignInThrottle | None = None,
        hasher: PasswordHasher | None = None,
        hashing: Hashing | None = None,
    ) -> None:
        self.store = store
        """The database."""
        self.clock = clock
        """The wall clock (UTC)."""
        self.throttle = throttle or SignInThrottle()
        """Failed sign-ins counted per account and per address."""
        self.hasher = hasher or PasswordHasher()
        """Argon2id, by default with argon2-cffi's default costs (the server's come from
        ``Settings.hash_time_cost`` and ``hash_memory``)."""
        self.hashing = hashing or Hashing()
        """Where passwords are hashed, within bounds."""
        self.on_revoked: Callable[[list[str]], None] | None = None
        """Told the SHA-256 of sessions just revoked (the server closes their WebSockets)."""
        self._dummy: str | None = None
        """A hash that an unknown account's password is checked against (same time taken)."""
        self._seen: dict[str, float] = {}
        """When each session's ``seen_at`` was last written (monotonic), by cookie hash."""

    async def _hash(self, password: str, address: str) -> str:
        return await self.hashing.run(self.hasher.hash, password, address=address)

    async def _verify(self, stored: str, password: str, address: str) -> bool:
        def verify() -> bool:
            try:
                return self.hasher.verify(stored, password)
            except (VerificationError, InvalidHashError):
                return False

        return await self.hashing.run(verify, address=address)

    async def sign_up(self, username: str, password: str, address: str = "") -> tuple[User, str]:
        """Make an account and sign it in: the user and the session cookie's value.

        Sign-ups are counted per ``address`` (the client's), failed ones too.
        """
        name = check_username(username)
        check_password(password)
        wait = self.throttle.sign_up(address)
        if wait > 0:
            raise sign_up_refusal(wait)
        digest = await self._hash(password, address)
        user = User(id=secrets.token_hex(16), username=name)
        now = self.clock()
        try:
            async with self.store.writing("account") as conn:
                await conn.execute(
                    users_table.insert().values(
                        id=user.id,
                        username=name,
                        username_key=username_key(name),
                        password_hash=digest,
                        created_at=now,
                        password_changed_at=now,
                    )
                )
        except IntegrityError:
            raise AccountError(
                "username_taken", f"the account name {name!r} is taken", 409
            ) from None
        return user, await self._new_session(user)

    async def sign_in(self, username: str, password: str, address: str) -> tuple[User, str]:
        """Check a password and make a session; :data:`BAD_SIGN_IN` for any failure."""
        key = username_key(unicodedata.normalize("NFC", username).strip())[:64]
        _check_throttle(self.throttle, key, address)
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(
                        users_table.c.id,
                        users_table.c.username,
                        users_table.c.password_hash,
                        users_table.c.bot,
                    ).where(users_table.c.username_key == key)
                )
            ).first()
        if row is None or len(password) > PASSWORD_MAX:
            if self._dummy is None:
                self._dummy = await self._hash(secrets.token_hex(16), address)
            await self._verify(self._dummy, password[:PASSWORD_MAX], address)
            good = False
        else:
            good = await self._verify(row.password_hash, password, address)
        if not good or row is None:
            self.throttle.failed(key, address)
            raise AccountError("bad_sign_in", BAD_SIGN_IN, 401)
        self.throttle.succeeded(key)
        user = User(id=row.id, username=row.username, bot=bool(row.bot))
        return user, await self._new_session(user)

    async def _new_session(self, user: User) -> str:
        """A new session of ``user``; its oldest beyond :data:`SESSIONS_PER_ACCOUNT` go."""
        cookie = secrets.token_urlsafe(32)
        now = self.clock()
        async with self.store.writing("account") as conn:
            await conn.execute(
                sessions_table.insert().values(
                    id_hash=hash_token(cookie), user_id=user.id, created_at=now, seen_at=now
                )
            )
            old = (
                await conn.scalars(
                    sa.select(sessions_table.c.id_hash)
                    .where(sessions_table.c.user_id == user.id)
                    .order_by(sessions_table.c.created_at.desc(), sessions_table.c.id_hash)
                    .offset(SESSIONS_PER_ACCOUNT)
                )
            ).all()
            if old:
                await conn.execute(sessions_table.delete().where(sessions_table.c.id_hash.in_(old)))
        self._revoked(list(old))
        return cookie

    def _revoked(self, digests: list[str]) -> None:
        """Forget the sessions ``digests`` here, and tell :attr:`on_revoked`."""
        for digest in digests:
            self._seen.pop(digest, None)
        if digests and self.on_revoked is not None:
            self.on_revoked(digests)

    async def user_of(self, cookie: str | None) -> User | None:
        """The account signed in with session cookie ``cookie``, or ``None``.

        A session unused for :data:`SESSION_DAYS` has expired. Its ``seen_at`` is brought up
        to date at most every :data:`SEEN_EVERY` seconds.
        """
        if not cookie or len(cookie) > 100:
            return None
        digest = hash_token(cookie)
        now = self.clock()
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(
                        users_table.c.id,
                        users_table.c.username,
                        users_table.c.bot,
                        sessions_table.c.seen_at,
                    )
                    .select_from(sessions_table.join(users_table))
                    .where(sessions_table.c.id_hash == digest)
                )
            ).first()
        if row is None:
            return None
        seen = aware(row.seen_at)
        if seen is None or now - seen > dt.timedelta(days=SESSION_DAYS):
            await self._revoke([digest])
            return None
        await self._saw(
            digest, sessions_table.update().where(sessions_table.c.id_hash == digest), seen_at=now
        )
        return User(id=row.id, username=row.username, bot=bool(row.bot))

    async def _saw(self, digest: str, update: Any, **when: dt.datetime) -> None:
        """Write ``when`` with ``update`` for the session or token ``digest``, now and then.

        At most every :data:`SEEN_EVERY` seconds: each request would otherwise be a write.
        """
        last = self._seen.get(digest)
        if last is None or time.monotonic() - last >= SEEN_EVERY:
            self._seen[digest] = time.monotonic()
            async with self.store.writing("account") as conn:
                await conn.execute(update.values(**when))

    async def _revoke(self, digests: Iterable[str]) -> None:
        wanted = list(digests)
        async with self.store.writing("account") as conn:
            await conn.execute(sessions_table.delete().where(sessions_table.c.id_hash.in_(wanted)))
        self._revoked(wanted)

    async def sign_out(self, cookie: str | None) -> None:
        """Revoke the session of ``cookie`` (for every server sharing the database)."""
        if cookie and len(cookie) <= 100:
            await self._revoke([hash_token(cookie)])

    async def change_password(
        self, user: User, old: str, new: str, keep: str, address: str = ""
    ) -> None:
        """Change ``user``'s password after checking ``old``; revoke their other sessions.

        ``keep`` is the cookie of the session asking, which stays signed in. Wrong ``old``
        passwords are counted like failed sign-ins, per account and per ``address``.
        """
        check_password(new)
        key = username_key(user.username)
        _check_throttle(self.throttle, key, address)
        async with self.store.engine.connect() as conn:
            stored = await conn.scalar(
                sa.select(users_table.c.password_hash).where(users_table.c.id == user.id)
            )
        if (
            stored is None
            or len(old) > PASSWORD_MAX
            or not await self._verify(stored, old, address)
        ):
            self.throttle.failed(key, address)
            raise AccountError("bad_password", "the current password is wrong", 401)
        self.throttle.succeeded(key)
        digest = await self._hash(new, address)
        kept = hash_token(keep)
        others = sa.and_(sessions_table.c.user_id == user.id, sessions_table.c.id_hash != kept)
        async with self.store.writing("account") as conn:
            await conn.execute(
                users_table.update()
                .where(users_table.c.id == user.id)
                .values(password_hash=digest, password_changed_at=self.clock())
            )
            revoked = (await conn.scalars(sa.select(sessions_table.c.id_hash).where(others))).all()
            await conn.execute(sessions_table.delete().where(others))
        self._revoked(list(revoked))

    async def claim_seats(self, user: User, seats: Iterable[tuple[str, str]]) -> list[str]:
        """Give ``user`` the seats whose tokens a guest holds: ``(table id, token)`` pairs.

        A seat already another account's is left alone. Returns the ids of the tables whose
        seat was claimed.
        """
        claimed: list[str] = []
        async with self.store.writing("account") as conn:
            for table_id, token in seats:
                if len(token) > 100 or len(table_id) > 32:
                    continue
                done = await conn.execute(
                    seats_table.update()
                    .where(
                        seats_table.c.table_id == table_id,
                        seats_table.c.token_hash == hash_token(token),
                        seats_table.c.kind == "human",
                        sa.or_(seats_table.c.user_id.is_(None), seats_table.c.user_id == user.id),
                    )
                    .values(user_id=user.id)
                )
                if done.rowcount:
                    claimed.append(table_id)
        return claimed

    async def find(self, username: str) -> User | None:
        """The account called ``username`` (any case), or ``None``."""
        key = username_key(unicodedata.normalize("NFC", username).strip())
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(users_table.c.id, users_table.c.username, users_table.c.bot).where(
                        users_table.c.username_key == key
                    )
                )
            ).first()
        return None if row is None else User(id=row.id, username=row.username, bot=bool(row.bot))

    async def make_bot(self, user: User) -> User:
        """Make ``user`` a bot account, for good; :class:`AccountError` when it may not be.

        Only an account that never sat at a table may: its games and ratings are a person's.
        """
        if user.bot:
            raise AccountError("already_bot", "this account is a bot account already", 409)
        async with self.store.writing("account") as conn:
            seated = await conn.scalar(
                sa.select(sa.func.count()).where(seats_table.c.user_id == user.id)
            )
            if seated:
                raise AccountError(
                    "has_games",
                    "only an account that never sat at a table can become a bot account",
                    409,
                )
            await conn.execute(
                users_table.update().where(users_table.c.id == user.id).values(bot=True)
            )
        return User(id=user.id, username=user.username, bot=True)

    async def tokens(self, user: User) -> list[ApiToken]:
        """``user``'s API tokens that are not revoked, oldest first."""
        async with self.store.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(api_tokens_table)
                    .where(
                        api_tokens_table.c.user_id == user.id,
                        api_tokens_table.c.revoked_at.is_(None),
                    )
                    .order_by(api_tokens_table.c.created_at, api_tokens_table.c.id)
                )
            ).all()
        return [
            ApiToken(
                id=row.id,
                name=row.name,
                created_at=aware(row.created_at) or row.created_at,
                used_at=aware(row.used_at),
            )
            for row in rows
        ]

    async def new_token(self, user: User, name: str) -> tuple[ApiToken, str]:
        """Make an API token for bot account ``user``: the token listed, and the token itself.

        The token is shown this once: only its SHA-256 is kept.
        """
        if not user.bot:
            raise AccountError(
                "not_a_bot", "API tokens are for bot accounts: make this account one first", 403
            )
        label = unicodedata.normalize("NFC", name).strip()
        if not label or len(label) > TOKEN_NAME_MAX or not label.isprintable():
            raise AccountError(
                "bad_token_name",
                f"a token's name is 1 to {TOKEN_NAME_MAX} printable characters",
                422,
            )
        token = secrets.token_urlsafe(32)
        made = ApiToken(id=secrets.token_hex(8), name=label, created_at=self.clock(), used_at=None)
        async with self.store.writing("account") as conn:
            held = await conn.scalar(
                sa.select(sa.func.count()).where(
                    api_tokens_table.c.user_id == user.id,
                    api_tokens_table.c.revoked_at.is_(None),
                )
            )
            if (held or 0) >= TOKENS_PER_ACCOUNT:
                raise AccountError(
                    "too_many_tokens",
                    f"an account holds at most {TOKENS_PER_ACCOUNT} tokens: revoke one first",
                    409,
                )
            await conn.execute(
                api_tokens_table.insert().values(
                    id=made.id,
                    user_id=user.id,
                    name=label,
                    token_hash=hash_token(token),
                    created_at=made.created_at,
                )
            )
        return made, token

    async def revoke_token(self, user: User, token_id: str) -> None:
        """Revoke ``user``'s token ``token_id``: it opens nothing more, its connections close."""
        async with self.store.writing("account") as conn:
            digest = await conn.scalar(
                sa.select(api_tokens_table.c.token_hash).where(
                    api_tokens_table.c.id == token_id,
                    api_tokens_table.c.user_id == user.id,
                    api_tokens_table.c.revoked_at.is_(None),
                )
            )
            if digest is None:
                raise AccountError("unknown_token", "this account has no such token", 404)
            await conn.execute(
                api_tokens_table.update()
                .where(api_tokens_table.c.id == token_id)
                .values(revoked_at=self.clock())
            )
        self._revoked([digest])

    async def user_of_token(self, token: str) -> User:
        """The bot account whose API token ``token`` is; :data:`BAD_API_TOKEN` if none."""
        if not token or len(token) > 100:
            raise AccountError("bad_api_token", BAD_API_TOKEN, 401)
        digest = hash_token(token)
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(users_table.c.id, users_table.c.username, users_table.c.bot)
                    .select_from(api_tokens_table.join(users_table))
                    .where(
                        api_tokens_table.c.token_hash == digest,
                        api_tokens_table.c.revoked_at.is_(None),
                    )
                )
            ).first()
        if row is None or not row.bot:
            raise AccountError("bad_api_token", BAD_API_TOKEN, 401)
        await self._saw(
            digest,
            api_tokens_table.update().where(api_tokens_table.c.token_hash == digest),
            used_at=self.clock(),
        )
        return User(id=row.id, username=row.username, bot=True)
