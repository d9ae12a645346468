"""Alembic's environment: runs the migrations on the connection the server hands over.

:meth:`closingbell.server.store.Store.upgrade` passes its own (async engine's) connection in
``config.attributes["connection"]``, so the migrations run in the server's transaction
and event loop. Run from the ``alembic`` command instead, the URL is read from the
``sqlalchemy.url`` option and a short-lived async engine is made for it.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()


async def _run_with_engine(url: str) -> None:
    engine = create_async_engine(url)
    async with engine.begin() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


given = context.config.attributes.get("connection")
if given is not None:
    _run(given)
else:
    asyncio.run(_run_with_engine(context.config.get_main_option("sqlalchemy.url") or ""))
