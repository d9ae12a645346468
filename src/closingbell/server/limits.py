"""HTTP request limits, table creation per address, and security headers.

Both are plain ASGI middleware, so that a refusal happens before FastAPI reads or parses
anything, and has the server's typed error body (docs/protocol.md):

- :class:`RequestLimits` refuses a body longer than ``Settings.max_body`` from its
  ``Content-Length`` before reading a byte of it, and counts a body sent in chunks as it
  arrives, so a long body costs at most ``max_body`` bytes of memory (``413 too_large``).
  A body must arrive within ``Settings.body_timeout`` seconds (``408 request_timeout``),
  and JSON nested deeper than :data:`~closingbell.core.jsontext.MAX_JSON_DEPTH` is refused
  before it is parsed (``422 too_deep``; Python's parser would recurse once per level).
  Creating tables is limited per client address (a token bucket per address, ``429
  rate_limited`` with ``Retry-After``), and a sign-up, sign-in or password change from an
  address that its throttle refuses now is refused before its body is read. A refused
  request's connection is closed, so the rest of a refused body is never read.
- :class:`SecurityHeaders` adds the headers a public site needs to every answer.
- :class:`CrossSiteGuard` refuses a request that changes something when a page of another
  site sent it (``403 bad_origin``): its ``Origin`` (or ``Referer``) must be the site's own,
  and one of them must be there when the request carries the session cookie.
- :class:`OneCookieHeader` folds several ``Cookie`` headers into one before anyone reads
  them, so that the guard and the app read the same cookies.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import HTTPConnection

from closingbell.core.jsontext import JSONDepthError, check_json_depth
from closingbell.server.accounts import AccountError, password_refusal, sign_up_refusal
from closingbell.server.connections import answer_bytes
from closingbell.server.guided import LEARN_PATH
from closingbell.server.metrics import Metrics
from closingbell.server.origins import origin_allowed
from closingbell.server.protocol import ErrorCode, error_body
from closingbell.server.ratelimit import TokenBucket
from closingbell.server.replays import dumps
from closingbell.server.settings import Settings

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[Message], Any]
ASGIApp = Callable[[Scope, Receive, Send], Any]

CREATE_TABLE = ("POST", "/api/tables")
"""The request that creates a table."""
CREATES = frozenset({CREATE_TABLE, ("POST", LEARN_PATH)})
"""The requests that create a table, counted together per address (a guided first game's
``POST /api/learn`` among them)."""

ADDRESSES_KEPT = 10_000
"""Addresses whose table-creation buckets are kept before full (idle) ones are forgotten."""

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        # 'self' covers ws: and wss: on the page's own host and port (CSP level 3).
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""The page's scripts, styles and connections come from its own site only; no inline
script or style, no plugins, and no framing by other sites."""

SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)
"""Headers added to every HTTP answer (the older ``X-Frame-Options`` for older browsers)."""


class AddressBuckets:
    """A token bucket per client address (:class:`~.ratelimit.TokenBucket`), bounded.

    Once more than ``kept`` addresses are known, those whose bucket has filled up again (they
    have not asked for a while) are forgotten: they would start afresh with a full bucket.
    """

    def __init__(
        self,
        rate: float,
        capacity: float,
        kept: int = ADDRESSES_KEPT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        """Tokens added per second, per address."""
        self.capacity = capacity
        """The most tokens an address holds (its longest burst)."""
        self.kept = kept
        """Addresses known before full buckets are forgotten."""
        self._clock = clock
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str) -> float:
        """Spend a token of ``address``: 0 if it had one, else seconds until it has one."""
        now = self._clock()
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self.kept:
                self._buckets = {a: b for a, b in self._buckets.items() if not b.full(now)}
            bucket = self._buckets[address] = TokenBucket(self.rate, self.capacity, self._clock)
        if bucket.take(now):
            return 0.0
        return (1 - bucket.tokens) / self.rate if self.rate > 0 else math.inf

    def __len__(self) -> int:
        return len(self._buckets)


class RequestLimits:
    """ASGI middleware: body size, time and nesting limits, and table creation per address."""

    def __init__(self, app: ASGIApp, settings: Settings, metrics: Metrics | None = None) -> None:
        self.app = app
        self.settings = settings
        """The limits."""
        self.metrics = metrics
        """Where its refusals are counted (the app's metrics), if anywhere."""
        self.creations = AddressBuckets(settings.tables_per_minute / 60, settings.tables_burst)
        """Table creations allowed per client address."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then hand it to the app with its body read."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.settings.max_body
        limited = self.settings.tables_per_minute > 0
        if limited and (scope["method"], scope["path"].rstrip("/")) in CREATES:
            client = scope.get("client")
            wait = self.creations.take(client[0] if client else "")
            if wait > 0:
                retry = str(max(1, math.ceil(wait))).encode()
                message = (
                    f"too many new tables from this address: at most "
                    f"{self.settings.tables_burst:g} at once and "
                    f"{self.settings.tables_per_minute:g} a minute"
                )
                await self._refuse(
                    send, 429, ErrorCode.RATE_LIMITED, message, [(b"retry-after", retry)]
                )
                return
        refusal = _throttled_account(scope)
        if refusal is not None:
            retry = str(refusal.retry_after or 1).encode()
            await self._refuse(
                send,
                refusal.status,
                ErrorCode(refusal.code),
                refusal.message,
                [(b"retry-after", retry)],
            )
            return
        length = _content_length(scope)
        if length is not None and length > limit:
            await self._refuse(send, 413, ErrorCode.TOO_LARGE, _too_large(limit))
            return
        body = bytearray()
        more = True
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout_at(loop.time() + self.settings.body_timeout):
                while more:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client left
                    body += message.get("body", b"")
                    more = message.get("more_body", False)
                    if len(body) > limit:
                        await self._refuse(send, 413, ErrorCode.TOO_LARGE, _too_large(limit))
                        return
        except TimeoutError:
            message = f"the request's body must arrive within {self.settings.body_timeout:g} s"
            await self._refuse(send, 408, ErrorCode.REQUEST_TIMEOUT, message)
            return
        if body:
            try:
                check_json_depth(body.decode("utf-8", errors="replace"))
            except JSONDepthError as exc:
                await self._refuse(send, 422, ErrorCode.TOO_DEEP, f"body: {exc}")
                return
        await self.app(scope, _replay(bytes(body), receive), send)

    async def _refuse(
        self,
        send: Send,
        status: int,
        code: ErrorCode,
        message: str,
        headers: list[tuple[bytes, bytes]] | None = None,
    ) -> None:
        """Refuse the request (see :func:`_refuse`), counted in the metrics."""
        if self.metrics is not None:
            self.metrics.error(code)
        await _refuse(send, status, code, message, headers)


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP answer that lacks them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to its answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(n, v) for n, v in SECURITY_HEADERS if n not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The HTTP methods of requests that change something (guarded against other sites)."""


class CrossSiteGuard:
    """ASGI middleware: no request that changes something from a page of another site.

    A browser sends ``Origin`` with every such request a page makes (``Referer`` in the
    rare cases it leaves ``Origin`` out). One from a page of another site is refused. A
    request that carries the session cookie but neither header is refused too: a browser
    always names the page, so only a forged request lacks both. Clients that are not
    browsers send no cookie and no ``Origin``, and are let in as before.
    """

    def __init__(
        self, app: ASGIApp, *, allowed: tuple[str, ...], cookie: str, metrics: Metrics
    ) -> None:
        self.app = app
        self.allowed = allowed
        self.cookie = cookie
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a cross-site request, or pass it on."""
        if scope["type"] != "http" or scope.get("method") not in CHANGING_METHODS:
            await self.app(scope, receive, send)
            return
        # Read as the app reads them (Starlette's headers, first of a name, and its cookie
        # parser): a cookie or origin the guard missed but the app saw would let a forged
        # request through.
        request = HTTPConnection(scope)
        host = request.headers.get("host", "")
        origin = request.headers.get("origin") or _origin_of(request.headers.get("referer"))
        if origin is None:
            refused = self.cookie in request.cookies
            reason = "a request with the session cookie must say which page sent it (Origin)"
        else:
            refused = not origin_allowed(
                origin, host, self.allowed, scheme=scope.get("scheme", "http")
            )
            reason = "requests from pages of other sites are not accepted here"
        if refused:
            self.metrics.error(ErrorCode.BAD_ORIGIN)
            await _refuse(send, 403, ErrorCode.BAD_ORIGIN, reason)
            return
        await self.app(scope, receive, send)


SIGN_UP = ("POST", "/api/account/signup")
"""The request that makes an account."""
PASSWORD_CHECKS = frozenset({("POST", "/api/account/signin"), ("POST", "/api/account/password")})
"""The requests that check a password (besides a sign-up, which hashes one)."""


def throttled(throttle: Any, method: str, path: str, address: str) -> AccountError | None:
    """The refusal of an account request from an address its throttle refuses now, if any.

    Checked before the request is read (here, and from its request line by ``closingbell
    serve``'s connections), so that a flood of such requests costs little; the same
    throttle counts and refuses them again once they are heard (``server.accounts``).
    """
    asked = (method, path.rstrip("/"))
    if asked == SIGN_UP:
        wait = throttle.sign_up_wait(address)
        return sign_up_refusal(wait) if wait > 0 else None
    if asked in PASSWORD_CHECKS:
        wait = throttle.address_wait(address)
        return password_refusal(wait) if wait > 0 else None
    return None


def _throttled_account(scope: Scope) -> AccountError | None:
    """The refusal of an HTTP request by :func:`throttled`, if any."""
    hub = getattr(getattr(scope.get("app"), "state", None), "hub", None)
    if hub is None:
        return None
    client = scope.get("client")
    address = client[0] if client else ""
    return throttled(hub.accounts.throttle, scope["method"], scope["path"], address)


def early_refusal(app: Any) -> Callable[[str, bytes], bytes | None]:
    """For ``ConnectionLimits.early``: ``app``'s refusal of a request from its request line.

    A throttled address's sign-ups and password checks are answered before uvicorn parses
    them, with the same answer the application would give.
    """

    def refuse(address: str, data: bytes) -> bytes | None:
        if not data.startswith(b"POST /api/account/"):
            return None
        hub = getattr(app.state, "hub", None)
        line = data.split(b"\r\n", 1)[0].split(b" ")
        if hub is None or len(line) != 3:
            return None
        path = line[1].decode("latin-1").split("?", 1)[0]
        refusal = throttled(hub.accounts.throttle, "POST", path, address)
        if refusal is None:
            return None
        retry = [("retry-after", str(refusal.retry_after or 1))]
        return answer_bytes(refusal.status, ErrorCode(refusal.code), refusal.message, retry)

    return refuse


class OneCookieHeader:
    """ASGI middleware: several ``Cookie`` headers folded into one, joined by ``; ``.

    A browser sends one; HTTP/2 may split it in several, to be joined so (RFC 9113,
    8.2.3). Readers of a scope's headers differ on the others (the first, the last, all),
    so they are joined before any of them reads: the cross-site guard, the session of a
    request and of a WebSocket then see the same cookies. Outermost, before anything reads.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on with its ``Cookie`` headers in one."""
        if scope["type"] in ("http", "websocket"):
            headers = scope.get("headers", ())
            cookies = [value for name, value in headers if name.lower() == b"cookie"]
            if len(cookies) > 1:
                rest = [(name, value) for name, value in headers if name.lower() != b"cookie"]
                scope = {**scope, "headers": [*rest, (b"cookie", b"; ".join(cookies))]}
        await self.app(scope, receive, send)


def _origin_of(referer: str | None) -> str | None:
    """The origin part (``scheme://host[:port]``) of a ``Referer``, or ``None``."""
    if not referer:
        return None
    scheme, sep, rest = referer.partition("://")
    if not sep:
        return "null"
    return f"{scheme}://{rest.split('/', 1)[0]}"


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _too_large(limit: int) -> str:
    return f"a request body has at most {limit} bytes"


async def _refuse(
    send: Send,
    status: int,
    code: ErrorCode,
    message: str,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """Answer with the typed error body and close the connection (the body stays unread)."""
    body = dumps(error_body(code, message))
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` whole once, then waits on the real one."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # type: ignore[no-any-return]

    return replayed
