"""A locked or full database: ``kit serve`` answers 503 with ``Retry-After`` within a bounded
wait (JSON on the API, a page on the site), and reads of other games go on meanwhile.

The lock is real: this test holds ``BEGIN IMMEDIATE`` on the server's SQLite file from its own
connection while a real server process is asked to write. A full disk is an ``OperationalError``
("database or disk is full") from the store, or ENOSPC under the report files, in-process.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import errno
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("hypercorn", reason="the web extra is not installed: pip install '.[web]'")

import httpx  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from support.console_db import free_port  # noqa: E402
from support.helpers import (
    REFERENCE_LOG_TURN_1,  # noqa: E402
    stop,
)

from kit.server.guard import MAX_WRITES, RETRY_S  # noqa: E402

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """A ``kit serve`` process on a SQLite file; yields (base URL, the file)."""
    folder = tmp_path_factory.mktemp("locked")
    port, database = free_port(), folder / "console.sqlite3"
    env = {**os.environ, "KIT_CACHE_DIR": str(folder / "cache")}
    env.pop("KIT_DATABASE_URL", None)
    with open(folder / "stderr.txt", "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "kit", "serve", "--port", str(port), "--workers", "1",
             "--no-prewarm", "--games", "lowest-unique", "--players", "3", "--paper", "a4",
             "--database", str(database)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
            stderr=sink)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, (folder / "stderr.txt").read_text()[-2000:]
            assert time.monotonic() < deadline, "kit serve did not start"
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        yield base, database
    finally:
        stop(process)


def _run_apart(main):
    """``asyncio.run(main())`` in a thread of its own: the worker's main thread may already
    run an event loop (Playwright's sync API, kept by the session's browser fixtures)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result()


def new_game(base: str) -> dict:
    answer = httpx.post(base + "/api/games", json={"game": "whats-my-number", "players": 5},
                        timeout=30)
    assert answer.status_code == 201, answer.text
    return answer.json()


def enter(base: str, game: dict) -> httpx.Response:
    return httpx.post(f"{base}/api/games/{game['id']}/turns", timeout=60,
                      json={"orders": {"A": [3]}},
                      headers={"Authorization": f"Bearer {game['gm_token']}"})


@pytest.fixture
def games(server) -> list[dict]:
    base, _ = server
    return [new_game(base), new_game(base)]


@pytest.fixture
def locked(server, games):
    """The server's database locked for writing by another connection until the test ends
    (after the test's games were made)."""
    _, database = server
    holder = sqlite3.connect(database, timeout=1, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_writes_to_a_locked_database_are_503_in_bounded_time(server, games, locked):
    base, _ = server
    game, other = games
    answer = enter(base, game)  # answered while the lock is still held: its wait has an end
    assert answer.status_code == 503 and answer.headers["retry-after"] == str(RETRY_S)
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.json()["errors"][0]["field"] == "database"
    page = httpx.post(base + "/console/new/import", data={"log": REFERENCE_LOG_TURN_1},
                      timeout=60)
    assert page.status_code == 503 and page.headers["content-type"].startswith("text/html")
    assert "try again" in page.text.lower() and page.headers["retry-after"] == str(RETRY_S)
    # the public page, the standings and public.json of another game answer meanwhile
    for path in (f"/console/{other['id']}", f"/api/games/{other['id']}/public.json"):
        assert httpx.get(base + path, timeout=30).status_code == 200


def test_many_waiting_writes_never_stall_reads_of_other_games(server, games, locked):
    """45 writers wait on the lock at once: at most ``MAX_WRITES`` of them hold a thread, so
    readers of another game are answered while writers still wait, and every writer has its
    503 while the lock is still held."""
    base, _ = server
    game, other = games
    writers = 45
    with concurrent.futures.ThreadPoolExecutor(writers) as pool:
        waiting = [pool.submit(enter, base, game) for _ in range(writers)]
        reads_while_waiting = 0
        for _ in range(200):  # bounded; ends as soon as every writer has its answer
            if all(w.done() for w in waiting):
                break
            assert httpx.get(f"{base}/console/{other['id']}", timeout=30).status_code == 200
            reads_while_waiting += not all(w.done() for w in waiting)
        statuses = [w.result().status_code for w in waiting]
    assert statuses == [503] * writers
    assert reads_while_waiting >= 3  # the reads went on while writers waited for their turn


def test_the_lock_released_the_next_write_goes_through(server, games):
    base, _ = server
    assert enter(base, games[0]).status_code == 201


class Unavailable:
    """A console whose database says it is full (or whose disk is) on every call."""

    stored_locally = True
    folders = SimpleNamespace(use=lambda pool: None)  # the app hands it the render pool
    mail = SimpleNamespace(attach=lambda sender: None)

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __getattr__(self, name: str):
        def fail(*args: object, **kwargs: object):
            raise self.error

        return fail


@pytest.mark.parametrize("error", [
    OperationalError("INSERT INTO games ...", {"secret": 941},
                     sqlite3.OperationalError("database or disk is full")),
    OSError(errno.ENOSPC, "No space left on device"),
], ids=["database-full", "disk-full"])
def test_a_full_database_or_disk_is_a_503_json_on_the_api_a_page_elsewhere(tmp_path, error,
                                                                           caplog):
    from kit.cache import RenderCache
    from kit.serve.app import create_app

    app = create_app(executor="thread", workers=1, prewarm=False, games=["lowest-unique"],
                     players=[3], papers=["a4"], store=RenderCache(tmp_path / "cache"),
                     console=Unavailable(error))
    client = TestClient(app, raise_server_exceptions=False)
    api = client.post("/api/games", json={"game": "whats-my-number", "players": 5})
    assert api.status_code == 503 and api.headers["retry-after"] == str(RETRY_S)
    assert api.json()["errors"][0]["field"] == "database"
    page = client.get("/console/g1")
    assert page.status_code == 503 and "<html" in page.text
    assert "941" not in caplog.text  # the statement's values are never logged
    missing = create_app(executor="thread", workers=1, prewarm=False, games=["lowest-unique"],
                         players=[3], papers=["a4"], store=RenderCache(tmp_path / "cache2"),
                         console=Unavailable(FileNotFoundError(errno.ENOENT, "gone")))
    assert TestClient(missing, raise_server_exceptions=False).get(
        "/console/g1").status_code == 500  # a missing file is no full disk


def test_writes_wait_their_turn_holding_no_thread():
    """The guard lets ``MAX_WRITES`` state-changing requests in at once; the next waits for a
    place, and past ``WRITE_WAIT_S`` is a 503."""
    import asyncio

    from kit.server.guard import Guard

    entered: list[str] = []
    release = asyncio.Event()

    async def slow(scope, receive, send):
        entered.append(scope["path"])
        await release.wait()
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    guard = Guard(slow, allowed_hosts=["testserver"], writes=2, write_wait=0.3)

    async def post(path: str) -> int:
        sent: list[dict] = []
        scope = {"type": "http", "method": "POST", "path": path, "headers": [
            (b"host", b"testserver"), (b"content-length", b"0")], "query_string": b"",
            "client": ("10.0.0.1", 1), "server": ("testserver", 80), "scheme": "http"}

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        await guard(scope, receive, send)
        return sent[0]["status"]

    async def run() -> list[int]:
        tasks = [asyncio.create_task(post(f"/w{n}")) for n in range(3)]
        await asyncio.sleep(0.5)
        release.set()
        return await asyncio.gather(*tasks)

    assert sorted(_run_apart(run)) == [204, 204, 503]
    assert len(entered) == 2 and MAX_WRITES >= 2


def test_a_locked_postgresql_row_is_a_503_in_bounded_time(postgres_server, tmp_path):
    """PostgreSQL: another connection holds the game's row; an entry waits ``LOCK_WAIT_S``
    (``lock_timeout``), then is a 503, and goes through once the lock is gone."""
    import psycopg
    from support.console_db import drop_database, new_database

    from kit.cache import RenderCache
    from kit.console.service import open_console
    from kit.serve.app import create_app

    url = new_database(postgres_server)
    console = open_console(url, tmp_path / "files")
    try:
        app = create_app(executor="thread", workers=1, prewarm=False, games=["lowest-unique"],
                         players=[3], papers=["a4"], store=RenderCache(tmp_path / "cache"),
                         console=console)
        with TestClient(app) as client:
            made = client.post("/api/games", json={"game": "whats-my-number",
                                                   "players": 5}).json()
            gm = {"Authorization": f"Bearer {made['gm_token']}"}
            orders = {"orders": {"A": [3]}}
            with psycopg.connect(url) as holder:
                holder.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (made["id"],))
                answer = client.post(f"/api/games/{made['id']}/turns", json=orders, headers=gm)
                assert answer.status_code == 503 and answer.headers["retry-after"] == "5"
                holder.rollback()
            assert client.post(f"/api/games/{made['id']}/turns", json=orders,
                               headers=gm).status_code == 201
    finally:
        console.close()
        drop_database(postgres_server, url)


def test_a_body_still_arriving_holds_no_place():
    """Bodies trickled by one client take none of the ``MAX_WRITES`` places: another's change
    goes through at once; a place is taken once a body is whole."""
    import asyncio

    from kit.server.guard import Guard

    async def app(scope, receive, send):
        while (await receive()).get("more_body", False):
            pass
        await asyncio.sleep(0.05)
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    guard = Guard(app, allowed_hosts=["testserver"], writes=1, write_wait=0.3)

    async def post(never_ends: bool) -> int:
        sent: list[dict] = []
        scope = {"type": "http", "method": "POST", "path": "/api/x", "headers": [
            (b"host", b"testserver"), (b"content-length", b"4")], "query_string": b"",
            "client": ("10.0.0.1", 1), "server": ("testserver", 80), "scheme": "http"}

        async def receive():
            if never_ends:
                await asyncio.sleep(3600)
            return {"type": "http.request", "body": b"abcd", "more_body": False}

        async def send(message):
            sent.append(message)

        await guard(scope, receive, send)
        return sent[0]["status"]

    async def run() -> list[int]:
        trickled = [asyncio.create_task(post(True)) for _ in range(3)]
        await asyncio.sleep(0.1)
        done = await asyncio.gather(post(False), post(False))
        for task in trickled:
            task.cancel()
        return list(done)

    assert _run_apart(run) == [204, 204]  # one place, taken in turn, never by the trickles
