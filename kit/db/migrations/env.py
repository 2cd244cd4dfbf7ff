"""Alembic environment: run on the connection ``kit.db.engine.migrate`` hands over (no ini
file, no URL)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
if connection.dialect.name == "postgresql":
    # Several servers may start at once: one migrates, the others wait (held to commit).
    connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7170017)")
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
