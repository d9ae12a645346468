"""Alembic migrations of the web server's database (run by ``Store.upgrade``)."""
