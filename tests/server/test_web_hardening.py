"""Hostile or careless input to ``kit site`` and ``kit serve``: one-line errors before anything
starts, the output folder checked before rendering, the web cap on players, and a stopped
server that leaves no worker process and nothing in the temp folder."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("hypercorn", reason="the web extra is not installed: pip install '.[web]'")
with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 but still drives httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from kit import cli  # noqa: E402
from kit.cache import RenderCache  # noqa: E402
from kit.output import KitFiles  # noqa: E402
from kit.registry import GAMES  # noqa: E402
from kit.serve import app as web_app  # noqa: E402
from kit.site import static  # noqa: E402
from kit.site.kits import Rendered  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

ROOT = Path(__file__).resolve().parents[2]
FIRST = next(iter(GAMES.values()))
SMALL = max(FIRST.min_players, 3)


def run_cli(argv: list[str], capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = cli.main(argv)
    return code, capsys.readouterr().err


# --- flags: the CLI's one-line errors, before anything starts ---------------------------------

SERVE_CASES = [
    (["--port", "99999"], "port: must be a whole number from 1 to 65535; got 99999"),
    (["--port", "-1"], "port: must be a whole number from 1 to 65535; got -1"),
    (["--port", "0"], "port: must be a whole number from 1 to 65535; got 0"),
    (["--port", "http"], "port: must be a whole number from 1 to 65535; got “http”"),
    (["--workers", "0"], "workers: must be a whole number from 1 to 64; got 0"),
    (["--workers", "100000"], "workers: must be a whole number from 1 to 64; got 100000"),
    (["--queue", "-1"], "queue: must be a whole number from 0 to 1000; got -1"),
    (["--cache-mb", "0"], "cache_mb: must be a whole number from 16 to 65536; got 0"),
    (["--cache-mb", "1e9"], "cache_mb: must be a whole number from 16 to 65536; got “1e9”"),
]


@pytest.mark.parametrize(("argv", "message"), SERVE_CASES,
                         ids=[" ".join(a) for a, _ in SERVE_CASES])
def test_bad_serve_flags_are_one_line_errors_before_anything_starts(argv, message, capsys,
                                                                   monkeypatch):
    started = []
    monkeypatch.setattr(web_app, "serve", started.append)
    code, err = run_cli(["serve", *argv], capsys)
    assert code == cli.EXIT_USAGE
    assert err == f"Error: {message}\n"
    assert started == []


def test_good_serve_flags_reach_the_server(capsys, monkeypatch):
    started = []
    monkeypatch.setattr(web_app, "serve", started.append)
    code, _ = run_cli(["serve", "--port", "8123", "--workers", "1", "--queue", "0",
                       "--cache-mb", "64", "--no-prewarm"], capsys)
    assert code == 0
    (settings,) = started
    assert (settings.port, settings.workers, settings.queue, settings.cache_mb) == (
        8123, 1, 0, 64)
    assert settings.prewarm is False


def test_create_app_checks_its_numbers_too():
    from kit.errors import KitError

    with pytest.raises(KitError, match="workers: must be a whole number from 1 to 64; got 0"):
        web_app.create_app(workers=0, prewarm=False)
    with pytest.raises(KitError, match="queue: "):
        web_app.create_app(workers=1, queue=-5, prewarm=False)


def test_site_out_is_checked_before_rendering(tmp_path, capsys, monkeypatch):
    rendered = []
    monkeypatch.setattr(static, "render_kit", lambda *a, **k: rendered.append(a))
    monkeypatch.setenv("KIT_CACHE_DIR", str(tmp_path / "cache"))
    a_file = tmp_path / "not-a-folder"
    a_file.write_text("x")
    args = ["site", "--games", FIRST.name, "--players", str(SMALL), "--jobs", "1"]
    code, err = run_cli([*args, "--out", str(a_file / "site")], capsys)
    assert code == cli.EXIT_USAGE
    assert err.startswith("Error: out: ") and "is a file" in err and err.count("\n") == 1
    code, err = run_cli([*args, "--out", "bad\0name"], capsys)
    assert code == cli.EXIT_USAGE and err.startswith("Error: out: ")
    code, err = run_cli(["site", "--jobs", "0", "--out", str(tmp_path / "s")], capsys)
    assert err == "Error: jobs: must be a whole number from 1 to 64; got 0\n"
    assert rendered == []
    assert not (tmp_path / "s").exists()


# --- the web cap on players -------------------------------------------------------------------

def stub_render(config, preview_pages=1):
    return Rendered(config, KitFiles(config.folder_name, {"player-kit.pdf": b"%PDF-1.7"}), ())


@pytest.mark.parametrize(("players", "status"), [(120, 303), (121, 422), (1200, 422)])
def test_a_web_request_caps_players_at_120(tmp_path, players, status):
    app = web_app.create_app(executor="thread", workers=1, prewarm=False, render=stub_render,
                             games=[FIRST.name], players=[SMALL], papers=["a4"],
                             store=RenderCache(tmp_path))
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.post("/custom", data={"game": FIRST.name, "players": str(players)},
                               follow_redirects=False)
        assert response.status_code == status
        assert app.state.service.pool.started == (1 if status == 303 else 0)
        if status == 422:
            assert "up to 120 players" in response.text
            assert 'max="120"' in client.get("/custom").text


# --- stopping leaves nothing behind -----------------------------------------------------------

def test_in_process_app_leaves_the_temp_folder_empty(tmp_path, monkeypatch):
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))  # the worker processes' temp folder
    monkeypatch.setattr(tempfile, "tempdir", str(temp))  # this process's
    app = web_app.create_app(executor="process", workers=1, prewarm=False, games=[FIRST.name],
                             players=[SMALL], papers=["a4"],
                             store=RenderCache(tmp_path / "cache"))
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.post("/custom", data={"game": FIRST.name, "title": "Temp check"},
                               follow_redirects=False)
        assert response.status_code == 303
        workers = list(app.state.service.pool._executor._processes.values())
        assert workers and all(w.is_alive() for w in workers)
    assert not any(w.is_alive() for w in workers)
    assert sorted(os.listdir(temp)) == []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children(pid: int) -> set[int]:
    """Every descendant of ``pid``, from /proc."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        kids: set[int] = set()
        # every thread's children: a worker process started from a server thread (a render
        # handed over in the threadpool) is listed under that thread, not the main one
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids |= {int(k) for k in (task / "children").read_text().split()}
            except OSError:
                continue
        found |= kids
        todo += kids
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(url: str, deadline: float) -> dict:
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return json.loads(response.read())
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def serve_one_worker(env: dict[str, str], stderr: int) -> tuple[subprocess.Popen, str]:
    """``kit serve`` with one render worker on a free port, and its base URL."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "kit", "serve", "--port", str(port), "--workers", "1",
         "--no-prewarm", "--games", FIRST.name, "--players", str(SMALL), "--paper", "a4"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    return server, f"http://127.0.0.1:{port}"


def rendering_workers(server: subprocess.Popen, base: str) -> set[int]:
    """The processes under ``server`` once a render runs (the pool starts its worker process
    when the first render is handed to it)."""
    deadline = time.monotonic() + 30
    while wait_for(base + "/healthz", deadline)["pool"]["active"] < 1:
        time.sleep(0.05)
    workers = children(server.pid)
    while not workers and time.monotonic() < deadline:
        time.sleep(0.05)
        workers = children(server.pid)
    assert workers, "no worker process was started"
    return workers


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_stopped_server_leaves_no_process_and_an_empty_temp_folder(tmp_path, stop):
    """``kit serve`` stopped (Ctrl-C or SIGTERM) while a render is running in a worker."""
    if not Path("/proc/self/task").is_dir():
        pytest.skip("needs /proc to find the worker processes")
    temp, cache = tmp_path / "tmp", tmp_path / "cache"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "KIT_CACHE_DIR": str(cache)}
    server, base = serve_one_worker(env, subprocess.PIPE)
    try:
        wait_for(base + "/healthz", time.monotonic() + 30)
        body = urllib.parse.urlencode({"game": FIRST.name, "title": "Stop test"}).encode()
        results: list[int] = []

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None  # the 303 itself is the answer

        opener = urllib.request.build_opener(NoRedirect)

        def post() -> None:
            try:
                with opener.open(base + "/custom", body, timeout=120) as response:
                    results.append(response.status)
            except urllib.error.HTTPError as exc:
                results.append(exc.code)
            except OSError:
                results.append(0)

        poster = threading.Thread(target=post)
        poster.start()
        workers = rendering_workers(server, base)
        server.send_signal(stop)
        server.wait(60)
        poster.join(60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
    err = server.stderr.read().decode() if server.stderr else ""
    assert server.returncode in (0, -stop), err
    assert "render workers stopped" in err  # the app's shutdown ran
    assert results == [303], err  # the form was answered (its kit lined up) before the stop
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers), "a worker process outlived the server"
    assert sorted(os.listdir(temp)) == [], err


@pytest.mark.slow
def test_workers_of_a_killed_server_end_themselves(tmp_path):
    """``kit serve`` killed with SIGKILL cannot stop its render workers: they notice their
    server is gone and end, instead of waiting for work for ever."""
    env = {**os.environ, "KIT_CACHE_DIR": str(tmp_path / "cache")}
    server, base = serve_one_worker(env, subprocess.DEVNULL)
    try:
        wait_for(base + "/healthz", time.monotonic() + 30)
        body = urllib.parse.urlencode({"game": FIRST.name, "title": "Kill test"}).encode()
        request = urllib.request.Request(base + "/custom", body)
        threading.Thread(target=lambda: urllib.request.urlopen(request, timeout=60).close(),
                         daemon=True).start()
        workers = rendering_workers(server, base)  # killed mid-render: the hardest case
    finally:
        server.kill()
        server.wait(10)
    deadline = time.monotonic() + 30  # a render in progress has a 10 s grace
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:  # never leave them to the next test, even when this one fails
        os.kill(pid, signal.SIGKILL)
    assert left == [], "workers outlived their killed server"
