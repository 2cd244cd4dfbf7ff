"""``kit serve --smtp URL --mail-from ADDR``: the server starts at once, checks the mail server
in the background and says on a start line whether it answers, sends what is queued in its
database's outbox (also what was queued before it started), stops cleanly, and never writes
the password; a wrong password is said on that line without it, a slow greeting holds up
nothing."""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("aiosmtpd", reason="aiosmtpd is not installed: pip install '.[test]'")

import httpx  # noqa: E402
from support.console_db import free_port  # noqa: E402
from support.helpers import kit_serve  # noqa: E402
from support.mail_server import PASSWORD, USER, Server, trickle_greeting  # noqa: E402

from kit.db.engine import database_url, make_engine, migrate  # noqa: E402
from kit.mail.letter import Letter  # noqa: E402
from kit.mail.outbox import Key, entry, queue  # noqa: E402

pytestmark = [pytest.mark.slow,  # aiosmtpd warns of a login without TLS, which we test
              pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")]


def put(url: str, key: Key) -> None:
    engine = make_engine(database_url(url))
    migrate(engine)
    with engine.connect().execution_options(write=True) as conn, conn.begin():
        queue(conn, key, Letter(f"{key.player.lower()}@example.org", f"Turn {key.turn}",
                                "Your report.\n"))
    engine.dispose()


def test_kit_serve_sends_the_outbox_through_its_mail_server(
        console_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a key of this test's own for this process and the server: not the key file the run's
    # PostgreSQL tests share in one data folder
    monkeypatch.setenv("KIT_MAIL_KEY", base64.b64encode(os.urandom(32)).decode())
    smtp = Server(login=True)
    put(console_url, Key("g1", "Ann", 1, "report"))  # queued before the server starts
    port = free_port()
    process = kit_serve(tmp_path, port, "--database", console_url, "--mail-from",
                        "gm@example.org", env={"KIT_SMTP_URL": smtp.url(login=True)})
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        put(console_url, Key("g1", "Bob", 1, "report"))  # queued while it runs
        while len(smtp.inbox.messages) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sorted(m["To"] for m in smtp.inbox.messages) == ["ann@example.org",
                                                                 "bob@example.org"]
        process.send_signal(signal.SIGINT)
        output = process.communicate(timeout=60)[0].decode()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)
        smtp.stop()
    assert process.returncode in (0, 130), output[-2000:]
    assert (f"kit: mail goes out through smtp://127.0.0.1:{smtp.port} as gm@example.org "
            "(checking that it answers)") in output
    assert f"kit: mail: smtp://127.0.0.1:{smtp.port} answers and takes the log-in" in output
    assert "sent (try 1)" in output
    assert PASSWORD not in output and USER not in output
    engine = make_engine(database_url(console_url))
    done = entry(engine, Key("g1", "Bob", 1, "report").ident)
    engine.dispose()
    assert done is not None and done.state == "sent"


class Output:
    """A running ``kit serve``'s output lines, read as they come."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, args=(process,), daemon=True)
        self.reader.start()

    def _read(self, process: subprocess.Popen) -> None:
        for line in process.stdout:
            self.lines.append(line.decode())

    def wait_for(self, start: str) -> str:
        """The first line starting with ``start`` (the server is not stopped before it)."""
        while True:
            found = [line for line in self.lines if line.startswith(start)]
            if found:
                return found[0].rstrip("\n")
            assert self.reader.is_alive(), "".join(self.lines)[-2000:]
            time.sleep(0.05)


def up(port: int, process: subprocess.Popen) -> bool:
    """Wait until the server answers /healthz; False if it ended first."""
    while process.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return True
        except httpx.HTTPError:
            time.sleep(0.1)
    return False


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(30)


def test_a_wrong_password_is_said_at_start_without_showing_it(tmp_path: Path) -> None:
    smtp = Server(login=True)
    port = free_port()
    wrong = smtp.url(login=True).replace("word", "wrung")
    process = kit_serve(tmp_path, port, "--database", str(tmp_path / "db.sqlite3"),
                        "--smtp", wrong, "--mail-from", "gm@example.org")
    output = Output(process)
    try:
        assert up(port, process), "".join(output.lines)
        said = output.wait_for("kit: mail: ")
    finally:
        stop(process)
        smtp.stop()
    assert said == (f"kit: mail: smtp://127.0.0.1:{smtp.port} refused the user name or "
                    "password (535); letters will fail until --smtp (or KIT_SMTP_URL) is "
                    "corrected")
    assert "wrung" not in "".join(output.lines) and PASSWORD not in "".join(output.lines)


def test_a_slow_greeting_holds_up_no_start(tmp_path: Path) -> None:
    smtp_port, port = free_port(), free_port()
    halt, greeted = threading.Event(), threading.Event()
    slow = threading.Thread(target=trickle_greeting, args=(smtp_port, halt, 1.0, greeted),
                            daemon=True)  # a greeting of 86 s
    slow.start()
    process = kit_serve(tmp_path, port, "--database", str(tmp_path / "db.sqlite3"),
                        "--smtp", f"smtp://127.0.0.1:{smtp_port}", "--mail-from",
                        "gm@example.org")
    output = Output(process)
    try:
        assert up(port, process), "".join(output.lines)
        assert not greeted.is_set()  # it answered while the greeting was still coming
        start = output.wait_for("kit: mail goes out through")
    finally:
        stop(process)
        halt.set()
        slow.join()
    assert start == (f"kit: mail goes out through smtp://127.0.0.1:{smtp_port} as "
                     "gm@example.org (checking that it answers)")
