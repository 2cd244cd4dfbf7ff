"""What ``kit serve`` leaves on disk: its database, the console's report folders (the GM
register and the private slips among them) are this user's only, whatever the umask; a cache
folder every user may write into is refused with one line naming it; and a server killed with
SIGKILL mid-render leaves no staging folder once it starts again."""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("hypercorn", reason="the web extra is not installed: pip install '.[web]'")

import httpx  # noqa: E402
from support.console_db import free_port  # noqa: E402

from kit.cache import STAGING, staging_folder, sweep_staging, trusted_folder  # noqa: E402
from kit.errors import ConfigError  # noqa: E402

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


class Serve:
    """``kit serve`` on a free port, with a cache folder and a SQLite file of the test's."""

    def __init__(self, folder: Path, umask: int = 0o022) -> None:
        self.folder, self.port = folder, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "KIT_CACHE_DIR": str(folder / "cache")}
        env.pop("KIT_DATABASE_URL", None)
        self.err = folder / "stderr.txt"
        with open(self.err, "ab") as sink:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kit", "serve", "--port", str(self.port), "--workers",
                 "1", "--no-prewarm", "--games", "lowest-unique", "--players", "3", "--paper",
                 "a4", "--database", str(folder / "console.sqlite3")], cwd=ROOT, env=env,
                stdout=subprocess.DEVNULL, stderr=sink, preexec_fn=lambda: os.umask(umask))

    def ready(self) -> Serve:
        deadline = time.monotonic() + 90
        while True:
            assert self.process.poll() is None, self.err.read_text()[-2000:]
            assert time.monotonic() < deadline, "kit serve did not start"
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/healthz", timeout=2).status_code == 200:
                    return self
            time.sleep(0.2)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def published_game(base: str, turns: int = 1) -> tuple[dict, httpx.Client]:
    """A What's My Number? game with ``turns`` published turns; a client holding its GM
    cookie."""
    made = httpx.post(base + "/api/games", timeout=30, json={
        "game": "whats-my-number", "players": PLAYERS, "range": "1-999",
        "secrets": {p: 100 + 97 * n for n, p in enumerate(PLAYERS)}}).json()
    gm = {"Authorization": f"Bearer {made['gm_token']}"}
    for turn in range(1, turns + 1):
        orders = {p: [(7 * n + 13 * turn) % 900 + 1, (11 * n + turn) % 900 + 2]
                  for n, p in enumerate(PLAYERS)}
        assert httpx.post(f"{base}/api/games/{made['id']}/turns", json={"orders": orders},
                          headers=gm, timeout=60).status_code == 201
        assert httpx.post(f"{base}/api/games/{made['id']}/turns/{turn}/publish", headers=gm,
                          timeout=60).status_code == 200
    client = httpx.Client(base_url=base, timeout=120)
    assert client.get(made["gm_url"].removeprefix(base)).status_code in (200, 303)
    return made, client


def test_the_database_and_the_report_files_are_this_users_only(tmp_path):
    server = Serve(tmp_path, umask=0o022).ready()  # a umask that would make them 0644
    try:
        made, gm = published_game(server.base)
        page = gm.get(f"/console/{made['id']}/gm")
        assert page.status_code == 200
        for name in ("gm-register.pdf", "private-slips.pdf", "turn-reports.pdf"):
            for _ in range(60):  # a file still being made says so (503), then comes back
                answer = gm.get(f"/console/{made['id']}/files/{name}")
                if answer.status_code != 503:
                    break
                time.sleep(float(answer.headers["retry-after"]))
            assert answer.status_code in (200, 404), (name, answer.status_code)
        assert httpx.get(f"{server.base}/console/{made['id']}/files/gm-register.pdf",
                         timeout=60).status_code == 403  # without the cookie
    finally:
        server.stop()
    database = tmp_path / "console.sqlite3"
    assert mode(database) == 0o600
    files = tmp_path / "cache" / "console-files"
    assert mode(tmp_path / "cache") == 0o700 and mode(files) == 0o700
    made_files = [p for p in files.rglob("*") if p.is_file()]
    assert any("gm-register" in p.name for p in made_files), made_files
    for path in [files, *files.rglob("*")]:
        assert mode(path) & 0o077 == 0, (path, oct(mode(path)))


def test_an_existing_database_is_made_private_at_start(tmp_path):
    from kit.console.service import open_console

    database = tmp_path / "old.sqlite3"
    open_console(str(database), tmp_path / "files").close()
    database.chmod(0o644)  # as an earlier version left it
    (tmp_path / "files").chmod(0o755)
    open_console(str(database), tmp_path / "files").close()
    assert mode(database) == 0o600 and mode(tmp_path / "files") == 0o700


@pytest.mark.parametrize("bits", [0o777, 0o1777, 0o703], ids=["world", "sticky", "others"])
def test_a_cache_folder_others_may_write_is_refused_naming_it(tmp_path, bits):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(bits)
    env = {**os.environ, "KIT_CACHE_DIR": str(shared)}
    env.pop("KIT_DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-m", "kit", "serve", "--port", str(free_port()),
                           "--no-prewarm", "--database", str(tmp_path / "c.sqlite3")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines == [f"Error: KIT_CACHE_DIR: the folder {shared} can be written by every "
                     f"user (mode {bits:04o}), who could change what it holds; make it yours "
                     f"alone (chmod 700 {shared}) or choose another folder"]
    assert list(shared.iterdir()) == []  # nothing written into it


def test_a_trusted_folder_is_ours_alone(tmp_path):
    made = trusted_folder(tmp_path / "new" / "cache", "KIT_CACHE_DIR")
    assert mode(made) == 0o700
    group = tmp_path / "group"
    group.mkdir(mode=0o775)
    group.chmod(0o775)  # a umask of 002 makes folders so: the user's own group may write
    assert trusted_folder(group, "KIT_CACHE_DIR") == group
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    if os.geteuid() != 0:
        pytest.skip("only root can give a folder to another user")
    os.chown(theirs, 65534, 65534)
    with pytest.raises(ConfigError, match="belongs to another user"):
        trusted_folder(theirs, "KIT_CACHE_DIR")


def test_staging_folders_of_dead_processes_are_swept(tmp_path):
    game = tmp_path / "game1"
    game.mkdir()
    mine = staging_folder(game)  # this process: alive, kept
    dead = subprocess.Popen([sys.executable, "-c", "import os; print(os.getpid())"],
                            stdout=subprocess.PIPE, text=True)
    pid = int(dead.communicate()[0])
    host_part = mine.name.removeprefix(STAGING).rsplit("-", 2)[0]
    gone = game / f"{STAGING}{host_part}-{pid}-abcd1234"
    gone.mkdir()
    (gone / "half-made.pdf").write_bytes(b"%PDF")
    old = game / f"{STAGING}x8y_k2"  # the older name, without host or process
    old.mkdir()
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    fresh = game / f"{STAGING}q1w2e3"
    fresh.mkdir()
    assert sweep_staging(tmp_path.glob(f"*/{STAGING}*")) == 2
    assert sorted(p.name for p in game.iterdir()) == sorted([mine.name, fresh.name])


def test_a_server_killed_mid_render_leaves_no_staging_folder_after_its_restart(tmp_path):
    server = Serve(tmp_path).ready()
    files = tmp_path / "cache" / "console-files"
    try:
        made, gm = published_game(server.base, turns=6)
        with contextlib.suppress(httpx.HTTPError):
            gm.get(f"/console/{made['id']}/files/turn-reports.pdf", timeout=0.05)
        deadline, seen = time.monotonic() + 60, []
        while not seen and time.monotonic() < deadline:
            seen = list(files.glob(f"*/{STAGING}*"))
            time.sleep(0.005)
        assert seen, "no render started"
        server.stop(signal.SIGKILL)
        left = list(files.glob(f"*/{STAGING}*"))
        assert left, "the render finished before the kill: nothing to sweep"
    finally:
        server.stop(signal.SIGKILL)
    again = Serve(tmp_path).ready()
    try:
        assert list(files.glob(f"*/{STAGING}*")) == []  # swept at start
        assert httpx.get(f"{again.base}/console/{made['id']}/files/turn-reports.pdf",
                         timeout=120).status_code == 200  # and made again whole
    finally:
        again.stop()


def test_a_cache_entry_half_written_by_a_killed_process_is_swept(tmp_path):
    from kit.cache import STALE_S, RenderCache

    cache = RenderCache(tmp_path / "cache")
    cache.put("ab" + "0" * 62, b"kept")
    left = tmp_path / "cache" / "ab" / ".tmp-x1y2z3"
    left.write_bytes(b"half")
    writing = tmp_path / "cache" / "ab" / ".tmp-now"
    writing.write_bytes(b"being written")
    old = time.time() - STALE_S - 60
    os.utime(left, (old, old))
    cache.evict()
    assert not left.exists() and writing.exists()
    assert cache.get("ab" + "0" * 62) == b"kept"
