"""Several ``kit serve`` processes: two on two ports, one database (PostgreSQL, and SQLite with
both on one file) and one render cache folder. A custom kit asked of one is fetched from the
other, result page and PDF bytes, without the other rendering it again; a database password
never shows in a server's log, its pages or its errors. (A game created through one server
and continued through the other: ``test_console_store.py::test_two_servers_share_one_game``.)
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")

import httpx  # noqa: E402
from pypdf import PdfReader  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from support.console_db import (  # noqa: E402,F401  (fixtures)
    console_url,
    drop_database,
    free_port,
    new_database,
    postgres_server,
)
from support.helpers import wait_answering  # noqa: E402

pytestmark = pytest.mark.slow

SECRET = "Hunter2-not-in-any-log"


class Server:
    """``kit serve`` on a free loopback port; its output in ``log``."""

    def __init__(self, cache: Path, log: Path, args: list[str], env: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        environment = {**os.environ, "KIT_CACHE_DIR": str(cache), **env}
        if "KIT_DATABASE_URL" not in env:
            environment.pop("KIT_DATABASE_URL", None)
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kit", "serve", "--port", str(self.port), "--workers",
                 "1", "--no-prewarm", "--games", "lowest-unique", "--players", "3",
                 "--paper", "a4", *args], stdout=out, stderr=out, env=environment)

    def ready(self) -> Server:
        wait_answering(self.process, self.url, self.log)
        return self

    def renders(self) -> int:
        """Renders this server started (``/healthz`` shows them to a loopback client)."""
        return httpx.get(self.url + "/healthz", timeout=10).json()["pool"]["started"]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(30)


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    made: list[Server] = []
    yield made
    for server in made:
        server.stop()


def wait_ready(url: str, seconds: float = 120) -> httpx.Response:
    deadline = time.monotonic() + seconds
    while (page := httpx.get(url, timeout=60)).status_code == 202:
        assert time.monotonic() < deadline, "still being made"
        time.sleep(0.3)
    return page


def test_a_custom_kit_asked_of_one_server_is_fetched_from_the_other(
        console_url: str, tmp_path: Path, servers: list[Server]) -> None:  # noqa: F811
    one = Server(tmp_path / "cache", tmp_path / "one.log", ["--database", console_url], {})
    two = Server(tmp_path / "cache", tmp_path / "two.log", ["--database", console_url], {})
    servers += [one.ready(), two.ready()]
    sent = httpx.post(one.url + "/custom", data={
        "game": "lowest-unique", "names": "Ann\nBob\nCy", "title": "Two servers",
        "format": "player-kit"}, timeout=60)
    assert sent.status_code == 303, sent.text
    location = sent.headers["location"]
    assert re.fullmatch(r"/custom/[A-Za-z0-9_-]{22}\?.*", location)
    page = wait_ready(two.url + location)  # asked of the other server first
    assert page.status_code == 200 and "Two servers" in page.text
    pdf = location.split("?")[0] + "/player-kit.pdf"
    theirs = httpx.get(two.url + pdf, timeout=60)
    assert theirs.status_code == 200 and theirs.headers["content-type"] == "application/pdf"
    assert theirs.content == httpx.get(one.url + pdf, timeout=60).content
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(theirs.content)).pages)
    assert "Two servers" in text and "Ann" in text
    assert (one.renders(), two.renders()) == (1, 0)  # made once, by the server that took it
    assert httpx.get(two.url + "/custom/AAAAAAAAAAAAAAAAAAAAAA", timeout=30).status_code == 404


def test_a_database_password_never_shows_in_logs_pages_or_errors(
        postgres_server: str, tmp_path: Path, servers: list[Server]) -> None:  # noqa: F811
    plain = new_database(postgres_server)  # trust authentication: any password is accepted
    secret = make_url(plain).set(password=SECRET).render_as_string(hide_password=False)
    try:
        given = Server(tmp_path / "cache", tmp_path / "given.log", ["--database", secret], {})
        from_env = Server(tmp_path / "cache", tmp_path / "env.log", [],
                          {"KIT_DATABASE_URL": secret})
        servers += [given.ready(), from_env.ready()]
        answers = []
        for server in (given, from_env):
            game = httpx.post(server.url + "/api/games", json={
                "game": "whats-my-number", "players": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]},
                timeout=30)
            assert game.status_code == 201
            answers += [game, httpx.get(server.url + "/healthz", timeout=30),
                        httpx.get(server.url + "/console", timeout=30),
                        httpx.get(server.url + "/console/nope/gm", timeout=30),
                        httpx.post(server.url + "/api/games", json={"game": "chess"},
                                   timeout=30)]
        assert {a.status_code for a in answers} >= {200, 201, 404, 422}
        assert all(SECRET not in a.text and SECRET not in str(a.headers) for a in answers)
        for server in (given, from_env):
            server.stop()
        for log in ("given.log", "env.log"):
            text = (tmp_path / log).read_text(errors="replace")
            assert "/api/games" in text and SECRET not in text
    finally:
        for server in servers:
            server.stop()
        drop_database(postgres_server, plain)


def test_a_database_that_cannot_be_reached_is_one_line_without_its_password(
        tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    url = f"postgresql://kit:{SECRET}@127.0.0.1:{port}/kit"
    for args, env in ((["--database", url], {}), ([], {"KIT_DATABASE_URL": url})):
        environment = {**os.environ, "KIT_CACHE_DIR": str(tmp_path / "cache"), **env}
        if not env:
            environment.pop("KIT_DATABASE_URL", None)
        done = subprocess.run([sys.executable, "-m", "kit", "serve", "--port", str(free_port()),
                               "--no-prewarm", *args], capture_output=True, text=True,
                              env=environment, timeout=120)
        assert done.returncode == 2
        assert done.stderr.strip().splitlines()[-1].startswith("Error: database: ")
        assert SECRET not in done.stderr + done.stdout
