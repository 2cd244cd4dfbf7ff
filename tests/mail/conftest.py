"""What the mail tests share: a real SMTP server on loopback (aiosmtpd, ``support.mail_server``)
and a migrated database engine on each backend. Imported inside the fixtures: a module without
the web or test extra skips itself (``pytest.importorskip``) before it asks for them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def smtp_server() -> Iterator[Any]:
    """A real SMTP server on loopback, stopped after the test."""
    from support.mail_server import Server

    server = Server()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def engine(console_url: str) -> Iterator[Any]:
    """A migrated engine on the test's database (SQLite or PostgreSQL)."""
    from kit.db.engine import database_url, make_engine, migrate

    made = make_engine(database_url(console_url))
    migrate(made)
    try:
        yield made
    finally:
        made.dispose()
