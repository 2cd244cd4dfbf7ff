"""The one database of ``kit serve`` on SQLite or PostgreSQL, and its migrations (Alembic).

SQLite runs through the standard library's ``sqlite3``: WAL, foreign keys on, ``synchronous =
FULL`` (a commit is on disk before the 201 goes out, so a SIGKILL loses nothing), writes begin
``IMMEDIATE`` (no lock upgrade deadlocks between threads) and wait up to ``LOCK_WAIT_S`` for the
lock; PostgreSQL waits as long for a lock, and a free pooled connection as long on both. Past
it SQLAlchemy raises ``OperationalError`` (or the pool's ``TimeoutError``), which ``kit serve``
answers with 503 and ``Retry-After``: a locked database holds a request for seconds, not 30 s.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

import sqlalchemy as sa
from filelock import FileLock
from sqlalchemy import event
from sqlalchemy.engine import URL, Engine, make_url

from ..errors import ConfigError

LOCK_WAIT_S = 5.0  # how long a request waits for a locked database before it is answered 503
MIGRATE_WAIT_S = 120.0  # how long a starting server waits for another one's migrations


def database_url(database: str | None, default_folder: Path | None = None) -> URL:
    """A SQLAlchemy URL from ``--database`` (a path or a ``postgresql://`` URL) or the default.

    ``postgresql://`` and ``postgres://`` use psycopg 3; a plain path is a SQLite file (its
    folder is made). Credentials stay inside the URL object, never in a message.
    """
    if database and "://" in database:
        try:
            url = make_url(database)
        except Exception:
            raise ConfigError("database", "not a database URL; give a file path or "
                              "postgresql://user@host/dbname") from None
        if url.drivername in ("postgresql", "postgres", "postgresql+psycopg"):
            return url.set(drivername="postgresql+psycopg")
        if url.drivername in ("sqlite", "sqlite+pysqlite"):
            return url
        raise ConfigError("database", f"unsupported database {url.drivername!r}; give a SQLite "
                          "file path or a postgresql:// URL")
    if database:
        path = Path(database).expanduser()
    else:
        from platformdirs import user_data_dir

        path = (default_folder or Path(user_data_dir("number-party-kit"))) / "console.sqlite3"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError("database", f"cannot make the folder {path.parent}: "
                          f"{exc.strerror}") from None
    return URL.create("sqlite+pysqlite", database=str(path.resolve()))


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record) -> None:  # noqa: ANN001
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves (below)
        cursor = dbapi_connection.cursor()
        for pragma in ("journal_mode = WAL", "foreign_keys = ON", "synchronous = FULL",
                       f"busy_timeout = {int(LOCK_WAIT_S * 1000)}"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection) -> None:  # noqa: ANN001
        write = connection.get_execution_options().get("write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def private_file(database: str | None) -> None:
    """The SQLite file readable by this user only (0600; made so when new, its mode tightened
    when it is this user's): it holds every secret number and unpublished entry, and SQLite
    gives its ``-wal`` and ``-shm`` files the same mode."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    # O_EXCL: an open file is never opened and closed here, as closing any descriptor of a
    # file drops the locks SQLite holds on it in this process
    with contextlib.suppress(OSError):  # there already, or cannot be made: connecting says why
        os.close(os.open(database, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    for path in (database, f"{database}-wal", f"{database}-shm"):
        with contextlib.suppress(OSError):  # missing, or another user's: theirs to keep
            if os.stat(path).st_mode & 0o077 and os.stat(path).st_uid == os.geteuid():
                os.chmod(path, 0o600)


def make_engine(url: URL) -> Engine:
    """An engine for ``url`` with the settings above; the schema is not touched here."""
    if url.get_backend_name() == "sqlite":
        private_file(url.database)
        engine = sa.create_engine(url, connect_args={"timeout": LOCK_WAIT_S,
                                                     "check_same_thread": False},
                                  # as many kept as the server's 40 threads use at
                                  # once: a new one costs its pragmas (a crowd's page)
                                  pool_size=24, max_overflow=16, poolclass=sa.pool.QueuePool,
                                  pool_timeout=LOCK_WAIT_S)
        _sqlite_setup(engine)
        return engine
    wait = int(LOCK_WAIT_S * 1000)
    return sa.create_engine(url, pool_size=8, max_overflow=16, pool_pre_ping=True,
                            hide_parameters=True, pool_timeout=LOCK_WAIT_S,
                            connect_args={"options": f"-c lock_timeout={wait}",
                                          "connect_timeout": int(LOCK_WAIT_S)})


_MIGRATING = threading.Lock()  # Alembic's context is process-global: one migration at a time


def _one_process_at_a_time(url: URL) -> contextlib.AbstractContextManager[object]:
    """Held while a SQLite file gets its first connection and its migrations: an exclusive
    lock on ``<file>.lock``. Servers starting at once on a new file would otherwise each
    switch it to WAL together, and SQLite refuses that switch at once with "database is
    locked" (the busy timeout does not apply: each holds a read lock the other waits on).
    PostgreSQL's migrations take an advisory lock instead (``migrations/env.py``)."""
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:" \
            or database.startswith("file:"):
        return contextlib.nullcontext()
    return FileLock(f"{database}.lock", timeout=MIGRATE_WAIT_S, mode=0o600)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (Alembic, scripts inside this package)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    # write=True: on SQLite a BEGIN IMMEDIATE, the migrations one write transaction
    with _MIGRATING, _one_process_at_a_time(engine.url), \
            engine.connect().execution_options(write=True) as connection, connection.begin():
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
