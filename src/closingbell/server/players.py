"""The players' HTTP routes: accounts and sessions (docs/protocol.md, "Players").

Sign-up, sign-in, sign-out and password changes; the account signed in; how many players are
online. Every route that changes something is guarded against other sites' pages by
:class:`~closingbell.server.limits.CrossSiteGuard`; the session cookie is HttpOnly,
SameSite=Lax, and Secure when the page came over HTTPS.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query, Request, Response, WebSocket
from fastapi.responses import FileResponse
from pydantic import Field

from closingbell.server.accounts import (
    SESSION_COOKIE,
    SESSION_DAYS,
    TOKENS_PER_ACCOUNT,
    AccountError,
    ApiToken,
    User,
)
from closingbell.server.errors import WebError
from closingbell.server.hub import Hub
from closingbell.server.protocol import TOKEN_MAX, ErrorCode, _Strict

ACCOUNT_PAGE = Path(__file__).resolve().parent / "static" / "account.html"
"""The account page's HTML."""

router = APIRouter()
"""The routes of this module, included by the app."""

VISITOR_PATTERN = r"^[A-Za-z0-9_-]+$"
"""What a page's visitor id is made of (8 to 64 of these)."""


class HeldSeat(_Strict):
    """A seat a guest's page holds the token of, handed over when it signs up or in."""

    table: str = Field(max_length=32)
    """The table's id."""
    token: str = Field(max_length=TOKEN_MAX)
    """The seat's token."""


class Credentials(_Strict):
    """``POST /api/account/signup`` and ``/signin``: an account name and its password.

    A password's length is left to the accounts, which refuse one over ``PASSWORD_MAX``
    (``bad_password`` at sign-up, the answer of a wrong password at sign-in) before any
    hashing; the request body's size bounds what is read.
    """

    username: str = Field(max_length=64)
    """The account name."""
    password: str
    """The password."""
    seats: list[HeldSeat] = Field(default_factory=list, max_length=200)
    """Seats this browser took as a guest: they become the account's."""


class NewPassword(_Strict):
    """``POST /api/account/password``: the current password and the new one.

    Their lengths are checked by the accounts, as a :class:`Credentials` password's is.
    """

    old: str
    """The current password."""
    new: str
    """The new password."""


def hub_of(request: Request | WebSocket) -> Hub:
    """The server's tables (and accounts)."""
    hub = request.app.state.hub
    assert isinstance(hub, Hub)
    return hub


def client_address(request: Request | WebSocket) -> str:
    """The client's address (``""`` when the server was not told it)."""
    return request.client.host if request.client else ""


def bearer_token(request: Request | WebSocket) -> str | None:
    """The API token of an ``Authorization: Bearer TOKEN`` header, or ``None`` without one."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


async def session_user(request: Request) -> User | None:
    """The account of the request: a bot account's API token, else the session cookie.

    ``None`` for a guest. A request that gives an ``Authorization`` header with a token that
    opens nothing is refused (``401 bad_api_token``) rather than taken for a guest's.
    """
    accounts = hub_of(request).accounts
    token = bearer_token(request)
    if token is not None:
        try:
            return await accounts.user_of_token(token)
        except AccountError as exc:
            raise _refused(exc) from None
    return await accounts.user_of(request.cookies.get(SESSION_COOKIE))


async def signed_in(request: Request) -> User:
    """The request's signed-in account; ``401 sign_in_required`` without one."""
    user = await session_user(request)
    if user is None:
        raise WebError(ErrorCode.SIGN_IN_REQUIRED, "sign in first", 401)
    return user


def _refused(exc: AccountError) -> WebError:
    return WebError(ErrorCode(exc.code), exc.message, exc.status, retry_after=exc.retry_after)


def _set_cookie(request: Request, response: Response, cookie: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        cookie,
        max_age=SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _account(user: User | None) -> dict[str, Any]:
    return {"user": None if user is None else {"username": user.username, "bot": user.bot}}


class NewToken(_Strict):
    """``POST /api/account/tokens``: the new API token's name."""

    name: str
    """The owner's name for it ("my trained agent"); its length is the accounts' to check
    (``bad_token_name``), the request body's size bounds what is read."""


def _token(token: ApiToken) -> dict[str, Any]:
    return {
        "id": token.id,
        "name": token.name,
        "created_at": token.created_at.isoformat(),
        "used_at": None if token.used_at is None else token.used_at.isoformat(),
    }


async def _cookie_user(request: Request) -> User:
    """The account of the request's session cookie: what only its owner's browser may do."""
    user = await hub_of(request).accounts.user_of(request.cookies.get(SESSION_COOKIE))
    if user is None:
        raise WebError(ErrorCode.SIGN_IN_REQUIRED, "sign in first", 401)
    return user


@router.post("/api/account/bot")
async def make_bot(request: Request) -> dict[str, Any]:
    """Make the signed-in account a bot account, for good (only one that never sat at a table)."""
    try:
        user = await hub_of(request).accounts.make_bot(await _cookie_user(request))
    except AccountError as exc:
        raise _refused(exc) from None
    return _account(user)


@router.get("/account", include_in_schema=False)
async def account_page() -> FileResponse:
    """The account page: the bot-account panel and its API tokens."""
    return FileResponse(ACCOUNT_PAGE)


@router.get("/api/account/tokens")
async def list_tokens(request: Request) -> dict[str, Any]:
    """The bot account's API tokens (names and dates: never a token)."""
    user = await _cookie_user(request)
    tokens = await hub_of(request).accounts.tokens(user)
    return {"tokens": [_token(t) for t in tokens], "most": TOKENS_PER_ACCOUNT}


@router.post("/api/account/tokens", status_code=201)
async def create_token(request: Request, body: NewToken) -> dict[str, Any]:
    """A new API token for the bot account: the only time the token itself is sent."""
    user = await _cookie_user(request)
    try:
        made, token = await hub_of(request).accounts.new_token(user, body.name)
    except AccountError as exc:
        raise _refused(exc) from None
    return {**_token(made), "token": token}


@router.delete("/api/account/tokens/{token_id}")
async def revoke_token(request: Request, token_id: str) -> dict[str, Any]:
    """Revoke one of the bot account's API tokens; its open connections are closed."""
    user = await _cookie_user(request)
    try:
        await hub_of(request).accounts.revoke_token(user, token_id[:32])
    except AccountError as exc:
        raise _refused(exc) from None
    return {"revoked": token_id}


async def _signed_in_as(
    request: Request, response: Response, user: User, cookie: str, held: list[HeldSeat]
) -> dict[str, Any]:
    """Set the new session's cookie and claim the seats the guest held."""
    hub = hub_of(request)
    claimed = await hub.accounts.claim_seats(user, [(s.table, s.token) for s in held])
    for table_id in claimed:
        table = hub.tables.get(table_id)
        if table is not None:
            await table.seating.refresh()
    _set_cookie(request, response, cookie)
    return {**_account(user), "claimed": claimed}


@router.post("/api/account/signup", status_code=201)
async def sign_up(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    """Make an account and sign in; the seats the guest held become the account's."""
    try:
        user, cookie = await hub_of(request).accounts.sign_up(
            body.username, body.password, client_address(request)
        )
    except AccountError as exc:
        raise _refused(exc) from None
    return await _signed_in_as(request, response, user, cookie, body.seats)


@router.post("/api/account/signin")
async def sign_in(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    """Sign in (throttled per account and per address; one answer for every failure)."""
    address = client_address(request)
    try:
        user, cookie = await hub_of(request).accounts.sign_in(body.username, body.password, address)
    except AccountError as exc:
        raise _refused(exc) from None
    return await _signed_in_as(request, response, user, cookie, body.seats)


@router.post("/api/account/signout")
async def sign_out(request: Request, response: Response) -> dict[str, Any]:
    """Revoke this browser's session."""
    await hub_of(request).accounts.sign_out(request.cookies.get(SESSION_COOKIE))
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return _account(None)


@router.post("/api/account/password")
async def change_password(request: Request, body: NewPassword) -> dict[str, Any]:
    """Change the password; every other session of the account is signed out."""
    user = await _cookie_user(request)
    try:
        await hub_of(request).accounts.change_password(
            user,
            body.old,
            body.new,
            request.cookies.get(SESSION_COOKIE) or "",
            client_address(request),
        )
    except AccountError as exc:
        raise _refused(exc) from None
    return _account(user)


@router.get("/api/account")
async def account(request: Request) -> dict[str, Any]:
    """The account signed in (``user`` is ``null`` for a guest)."""
    return _account(await session_user(request))


@router.get("/api/online")
async def online(
    request: Request,
    visitor: str | None = Query(None, min_length=8, max_length=64, pattern=VISITOR_PATTERN),
) -> dict[str, int]:
    """How many people are online: the visitors whose pages sent a heartbeat lately.

    ``visitor`` is the calling page's visitor id: the call is its heartbeat
    (``server.online``); without it the call only asks.
    """
    hub = hub_of(request)
    now = time.monotonic()
    if visitor is not None:
        hub.visitors.saw(visitor, now)
    return {"players": hub.visitors.count(now)}
