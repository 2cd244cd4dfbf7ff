"""The console's store on SQLite and PostgreSQL: migrations, the append-only journal and its
row versions, concurrent writers, database URLs, and two ``kit serve`` processes: one killed
with SIGKILL right after a 201 loses nothing; two sharing one database continue each other's
game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

import httpx  # noqa: E402
import sqlalchemy as sa  # noqa: E402
from support.console_db import free_port  # noqa: E402
from support.helpers import wait_answering  # noqa: E402

import kit.db  # noqa: E402
from kit.console.service import Conflict, Console, open_console  # noqa: E402
from kit.console.store import Stale, journal  # noqa: E402
from kit.db.engine import database_url  # noqa: E402
from kit.errors import ConfigError  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def new_game(console: Console) -> str:
    return console.create_game({"game": "whats-my-number", "players": PLAYERS}).id


def test_schema_is_migrated_once(console: Console, console_url: str,  # noqa: F811
                                 tmp_path: Path) -> None:
    with console.store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() \
            == "0011"
        names = set(sa.inspect(conn).get_table_names())
    assert {"games", "journal", "kit_requests", "seat_tokens", "mail_players", "sealed_links",
            "mail_games", "alembic_version"} <= names
    game = new_game(console)
    again = open_console(console_url, tmp_path / "files")  # a restart: nothing to migrate
    try:
        assert again.state(game).version == 1
    finally:
        again.close()


def test_servers_starting_at_once_migrate_once(console_url: str,  # noqa: F811
                                                tmp_path: Path) -> None:
    """Four server processes opening one new database together: one migrates, the others
    wait for it and find the schema current."""
    code = ("import sys, time; from kit.console.service import open_console; "
            "time.sleep(max(0.0, float(sys.argv[2]) - time.time())); "  # all start together
            "open_console(sys.argv[1], None).close()")
    at = str(time.time() + 4)
    starts = [subprocess.Popen([sys.executable, "-c", code, console_url, at],
                               stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for start in starts:
        _, err = start.communicate(timeout=120)
        assert start.returncode == 0, err
    opened = open_console(console_url, tmp_path / "files")
    try:
        with opened.store.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars() \
                .all() == ["0011"]
    finally:
        opened.close()


# Each process migrates a file of its own (its imports done), then, at the same instants as
# the others, opens one new SQLite file after another and migrates it.
RACE = """
import sys, time
from kit.db.engine import database_url, make_engine, migrate
start, own, files = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
for i, path in enumerate([own, *files]):
    engine = make_engine(database_url(path))
    time.sleep(max(0.0, start + (i - 1) * 0.25 - time.time()))
    try:
        migrate(engine)
    except Exception as exc:
        print(path, type(exc).__name__, exc, flush=True)
    finally:
        engine.dispose()
"""

# A server whose migrations take longer than a request waits for the database (a loaded
# machine): it makes the file "go" once its migrations are written and holds them 2 x
# LOCK_WAIT_S more; the others, imports done, open the console as soon as "go" is there.
SLOW = """
import os, sys, time
from alembic import command
from kit.console.service import open_console
from kit.db.engine import LOCK_WAIT_S
database, go, role = sys.argv[1:]
upgrade = command.upgrade
def held(*args):
    upgrade(*args)
    open(go, "w").close()
    time.sleep(2 * LOCK_WAIT_S)
if role == "slow":
    command.upgrade = held
else:
    while not os.path.exists(go):
        time.sleep(0.01)
open_console(database, None).close()
"""


def alembic_head() -> str | None:
    """The newest migration's revision."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(kit.db.__file__).with_name(
        "migrations")))
    return ScriptDirectory.from_config(config).get_current_head()


def migrated_once(path: str) -> None:
    engine = sa.create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars() \
                .all() == [alembic_head()], path
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        engine.dispose()


@pytest.mark.slow
def test_processes_migrating_new_sqlite_files_at_once_all_succeed(tmp_path: Path) -> None:
    """Four processes opening each of 40 new SQLite files together. The first connection
    switches a file to WAL, and SQLite refuses that at once ("database is locked", no busy
    wait) to all but one of several switching together: a race that, unguarded, loses a
    file or two of 100 here."""
    files = [str(tmp_path / f"db{i}.sqlite3") for i in range(40)]
    start = str(time.time() + 8)  # once every process has migrated its own
    racers = [subprocess.Popen([sys.executable, "-c", RACE, start, str(tmp_path / f"own{n}"),
                                *files], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True) for n in range(4)]
    failures = []
    for racer in racers:
        out, err = racer.communicate(timeout=300)
        assert racer.returncode == 0, err
        failures += out.splitlines()
    assert failures == []
    for path in files:
        migrated_once(path)


@pytest.mark.slow
def test_servers_wait_for_a_migration_longer_than_a_requests_lock_wait(tmp_path: Path) -> None:
    """Two servers open a new SQLite file while a third one's migrations take 2 x LOCK_WAIT_S
    (the wait a request has for the database): they wait for them, however long, and find
    the schema current."""
    path, go = str(tmp_path / "console.sqlite3"), str(tmp_path / "go")
    servers = [subprocess.Popen([sys.executable, "-c", SLOW, path, go, role],
                                stderr=subprocess.PIPE, text=True)
               for role in ("quick", "quick", "slow")]
    for server in servers:
        _, err = server.communicate(timeout=300)
        assert server.returncode == 0, err
    migrated_once(path)


def test_sqlite_settings(tmp_path: Path) -> None:
    opened = open_console(str(tmp_path / "db.sqlite3"), tmp_path / "files")
    try:
        with opened.store.engine.connect() as conn:
            pragma = {name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
                      for name in ("journal_mode", "foreign_keys", "synchronous")}
    finally:
        opened.close()
    assert pragma == {"journal_mode": "wal", "foreign_keys": 1, "synchronous": 2}  # 2: FULL


def test_journal_is_one_row_per_version(console: Console) -> None:
    game = new_game(console)
    store = console.store
    assert store.append(game, 1, "orders", {"turn": 1, "orders": {"Ann": [1, 2]}}) == 2
    with pytest.raises(Stale) as stale:
        store.append(game, 1, "orders", {"turn": 1, "orders": {"Bob": [1, 2]}})
    assert stale.value.current == 2
    with pytest.raises(sa.exc.IntegrityError), store.engine.begin() as conn:
        conn.execute(journal.insert().values(game_id=game, seq=2, kind="orders",
                                             payload="{}", at=0.0))
    _, rows = store.load(game)
    assert [(r.seq, r.kind) for r in rows] == [(1, "create"), (2, "orders")]


def test_a_games_version_read_opens_no_transaction_on_postgresql(console: Console) -> None:
    """Every public answer reads the game's row first: on PostgreSQL one statement, no BEGIN
    and ROLLBACK around it (two round trips less a request)."""
    game = new_game(console)
    engine = console.store.engine
    seen: list[str] = []

    def after(conn, cursor, statement, *_):  # noqa: ANN001, ANN202
        if "FROM games" in statement and engine.dialect.name == "postgresql":
            seen.append(conn.connection.dbapi_connection.info.transaction_status.name)

    sa.event.listen(engine, "after_cursor_execute", after)
    try:
        for _ in range(3):
            assert console.store.game(game).version == 1
    finally:
        sa.event.remove(engine, "after_cursor_execute", after)
    assert seen == ([] if engine.dialect.name != "postgresql" else ["IDLE"] * 3)


def test_concurrent_writers_lose_nothing(console: Console) -> None:
    """Eight game masters post at once without a version: every entry lands, once."""
    game = new_game(console)
    errors: list[BaseException] = []

    def post(player: str) -> None:
        try:
            console.enter(game, "orders", {"orders": {player: [10, 20]}})
        except BaseException as exc:  # noqa: BLE001  (a Conflict too: no version was given)
            errors.append(exc)

    threads = [threading.Thread(target=post, args=(p,)) for p in PLAYERS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    state = console.state(game)
    assert set(state.view.data["received"]) == set(PLAYERS)
    assert state.version == 1 + len(PLAYERS)


def test_a_stale_version_raises_conflict_with_the_changes(console: Console) -> None:
    game = new_game(console)
    console.enter(game, "orders", {"orders": {"Ann": [1, 2]}}, version=1)
    with pytest.raises(Conflict) as conflict:
        console.enter(game, "orders", {"orders": {"Bob": [1, 2]}}, version=1)
    assert conflict.value.version == 2
    assert conflict.value.changes == [{"version": 2, "kind": "orders",
                                       "text": "turn 1: orders for Ann"}]


def test_database_urls() -> None:
    assert database_url("postgres://u:p@h/db").drivername == "postgresql+psycopg"
    assert database_url("postgresql://u@h:5433/db").port == 5433
    with pytest.raises(ConfigError):
        database_url("mysql://u@h/db")


def test_database_from_environment_or_user_data_folder(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``KIT_DATABASE_URL`` when no --database is given, else the user data folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("KIT_DATABASE_URL", raising=False)
    assert database_url(None).database == str(
        (tmp_path / "data" / "number-party-kit" / "console.sqlite3").resolve())
    monkeypatch.setenv("KIT_DATABASE_URL", str(tmp_path / "env.sqlite3"))
    opened = open_console(None, tmp_path / "files")
    try:
        assert opened.store.engine.url.database == str((tmp_path / "env.sqlite3").resolve())
    finally:
        opened.close()
    assert (tmp_path / "env.sqlite3").is_file()


def test_a_password_never_shows_in_errors() -> None:
    port = free_port()  # nothing listens there
    with pytest.raises(ConfigError) as failed:
        open_console(f"postgresql://kit:hunter2secret@127.0.0.1:{port}/kit")
    assert "hunter2secret" not in str(failed.value)
    assert failed.value.field == "database"


# --- kit serve processes --------------------------------------------------------------------------

class Server:
    """``kit serve`` on a free loopback port, with its own database and render cache."""

    def __init__(self, database: str, cache: Path, log: Path) -> None:
        self.port = free_port()
        self.database = database
        self.cache = cache
        self.log = log
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {**os.environ, "KIT_CACHE_DIR": str(self.cache)}
        env.pop("KIT_DATABASE_URL", None)
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kit", "serve", "--port", str(self.port),
                 "--database", self.database, "--workers", "1", "--no-prewarm",
                 "--games", "lowest-unique", "--players", "3", "--paper", "a4"],
                stdout=out, stderr=out, env=env)
        wait_answering(self.process, self.url, self.log)
        return self

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    made: list[Server] = []
    yield made
    for server in made:
        server.stop()


@pytest.mark.slow
def test_sigkill_right_after_201_loses_nothing(console_url: str, tmp_path: Path,  # noqa: F811
                                               servers: list[Server]) -> None:
    first = Server(console_url, tmp_path / "cache", tmp_path / "serve.log")
    servers.append(first.start())
    made = httpx.post(first.url + "/api/games", json={"game": "whats-my-number",
                                                      "players": PLAYERS}, timeout=30)
    assert made.status_code == 201
    game = made.json()
    gm = {"Authorization": f"Bearer {game['gm_token']}"}
    entered = httpx.post(f"{first.url}/api/games/{game['id']}/turns",
                         json={"orders": {"Ann": [17, 33]}}, headers=gm, timeout=30)
    assert entered.status_code == 201
    first.kill()  # at once, no shutdown: only what was committed before the 201 survives
    second = Server(console_url, tmp_path / "cache", tmp_path / "serve.log")
    servers.append(second.start())
    state = httpx.get(f"{second.url}/api/games/{game['id']}/state.json", headers=gm, timeout=30)
    assert state.status_code == 200
    assert state.json()["received"] == ["Ann"]
    assert state.json()["version"] == entered.json()["version"]
    httpx.get(game["gm_url"].replace(first.url, second.url), timeout=30)  # the GM link
    second.stop()  # its access log is flushed
    log = (tmp_path / "serve.log").read_text(errors="replace")
    assert f"/console/{game['id']}/gm/" in log  # the access log names the path...
    assert game["gm_token"] not in log  # ...never the token


@pytest.mark.slow
def test_two_servers_share_one_game(console_url: str, tmp_path: Path,  # noqa: F811
                                    servers: list[Server]) -> None:
    """Created on one server, continued and published through the other; a stale version
    sent to either gets 409."""
    one = Server(console_url, tmp_path / "cache", tmp_path / "one.log")
    two = Server(console_url, tmp_path / "cache", tmp_path / "two.log")
    servers += [one.start(), two.start()]
    game = httpx.post(one.url + "/api/games", json={"game": "whats-my-number",
                                                    "players": PLAYERS}, timeout=30).json()
    gm = {"Authorization": f"Bearer {game['gm_token']}"}
    path = f"/api/games/{game['id']}"
    first = httpx.post(two.url + path + "/turns", json={"orders": {"Ann": [5, 6]},
                                                        "version": game["version"]},
                       headers=gm, timeout=30)
    assert first.status_code == 201
    stale = httpx.post(one.url + path + "/turns", json={"orders": {"Bob": [5, 6]},
                                                        "version": game["version"]},
                       headers=gm, timeout=30)
    assert stale.status_code == 409 and stale.json()["version"] == first.json()["version"]
    assert httpx.post(one.url + path + "/turns/1/publish", headers=gm,
                      timeout=30).status_code == 200
    seen = httpx.get(two.url + path + "/public.json", timeout=30).json()
    assert seen["published"] == 1 and seen["turns"][0]["rows"][0]["player"] == "Ann"
    report = f"/console/{game['id']}/files/turn-reports.html"
    made = httpx.get(two.url + report, timeout=120)  # rendered by the server asked
    assert made.status_code == 200 and "Ann" in made.text
    assert httpx.get(one.url + report, timeout=120).content == made.content
