"""Databases for the console's tests: every console test runs on SQLite and on PostgreSQL.

``console_url`` (a fixture parametrized ``sqlite`` / ``postgresql``) gives a fresh, empty
database URL per test. PostgreSQL comes from ``KIT_TEST_POSTGRES`` (a server URL whose user may
create databases), else from a throwaway cluster started here (Debian's ``postgresql``:
``initdb`` and ``pg_ctl`` as the ``postgres`` user, a data folder in the temp folder, a free port
on 127.0.0.1), stopped at the end of the run. Without either, the PostgreSQL half is skipped
with its reason, and under CI (``CI`` set) that skip is a failure (see conftest.py); a
``KIT_TEST_POSTGRES`` that cannot be reached fails at once under CI.
"""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

BACKENDS = ("sqlite", "postgresql")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _pg_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _as_postgres(argv: list[str]) -> list[str]:
    """Run as the ``postgres`` user when we are root (initdb refuses root)."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *argv]
    return argv


class Cluster:
    """A throwaway PostgreSQL cluster: data in a temp folder, 127.0.0.1 on a free port."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="kit-pg-"))
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        data = self.folder / "data"
        subprocess.run(_as_postgres([initdb, "-D", str(data), "-U", "postgres", "-A", "trust",
                                     "-E", "UTF8", "--no-sync"]),
                       check=True, capture_output=True)
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                   f"-c unix_socket_directories={self.folder} -c fsync=off "
                   "-c max_connections=200")
        subprocess.run(_as_postgres([pg_ctl, "-D", str(data), "-o", options, "-w", "-t", "60",
                                     "-l", str(self.folder / "log"), "start"]),
                       check=True, capture_output=True)

    def stop(self) -> None:
        pg_ctl = _pg_bin("pg_ctl")
        subprocess.run(_as_postgres([pg_ctl, "-D", str(self.folder / "data"), "-m", "fast",
                                     "-w", "stop"]), capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


def _reachable(url: str) -> str | None:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=5):
            return None
    except psycopg.Error as exc:
        return type(exc).__name__


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server URL (admin database), or a skip with the reason."""
    given = os.environ.get("KIT_TEST_POSTGRES")
    if given:
        problem = _reachable(given)
        if problem:
            if os.environ.get("CI"):
                pytest.fail(f"KIT_TEST_POSTGRES is set but cannot be reached ({problem})")
            pytest.skip(f"KIT_TEST_POSTGRES cannot be reached ({problem})")
        yield given
        return
    if _pg_bin("initdb") is None or _pg_bin("pg_ctl") is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql) and "
                    "KIT_TEST_POSTGRES is not set: the PostgreSQL half of the console tests "
                    "cannot run")
    cluster = Cluster()
    try:
        cluster.start()
    except (subprocess.CalledProcessError, OSError) as exc:
        cluster.stop()
        detail = getattr(exc, "stderr", b"") or b""
        pytest.fail(f"could not start a throwaway PostgreSQL cluster: {exc} "
                    f"{detail.decode(errors='replace')[-300:]}")
    try:
        yield cluster.url
    finally:
        cluster.stop()


def new_database(server: str) -> str:
    """A fresh, empty database on ``server``; its URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = "kit_" + secrets.token_hex(6)
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return make_url(server).set(database=name).render_as_string(hide_password=False)


def drop_database(server: str, url: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=BACKENDS)
def console_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database URL: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "console.sqlite3")
        return
    server = request.getfixturevalue("postgres_server")
    url = new_database(server)
    try:
        yield url
    finally:
        for _ in range(3):
            try:
                drop_database(server, url)
                break
            except Exception:  # a connection still closing: try again shortly
                time.sleep(0.5)


@pytest.fixture
def console(console_url: str, tmp_path: Path) -> Iterator:
    """A console on ``console_url``, its report files in the test's folder; closed after."""
    from kit.console.service import open_console

    opened = open_console(console_url, tmp_path / "files")
    try:
        yield opened
    finally:
        opened.close()


def console_app() -> Any:
    """The console's routes (pages and JSON API) in a Starlette app of their own, with the
    console's page handler as ``kit serve``'s app registers it."""
    from starlette.applications import Starlette

    from kit.console.pages.base import PageProblem, on_page_problem
    from kit.console.routes import routes

    return Starlette(routes=routes(), exception_handlers={PageProblem: on_page_problem})


@pytest.fixture
def client(console) -> Iterator:
    """The console's routes (pages and JSON API) behind Starlette's test client."""
    from starlette.testclient import TestClient

    app = console_app()
    app.state.console = console
    with TestClient(app) as test_client:
        yield test_client
