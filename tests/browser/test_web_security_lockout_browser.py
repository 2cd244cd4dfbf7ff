"""A page of another site cannot lock the game master out (Debian's Chromium, Playwright).

The game master opens their link; then, in the same browser, a page of another site (its own
host name) loads 25 images of the GM page's address and sends 25 cross-site posts to the
console. Each reaches the server and is refused (403: no SameSite=Strict cookie goes with it, and
the guard refuses the posts), but none is a wrong token, so the GM page, the public page and the
GM's API calls still answer 200 from the same browser and address.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import logging
import threading
import urllib.request
from collections.abc import Iterator

import pytest
from support.helpers import require_browser, served

pytestmark = pytest.mark.slow

require_browser()

from kit.cache import RenderCache  # noqa: E402
from kit.console.service import open_console  # noqa: E402
from kit.serve.app import create_app  # noqa: E402
from kit.server.guard import MAX_WRONG_TOKENS  # noqa: E402

ATTACKS = MAX_WRONG_TOKENS + 5


class Lines(logging.Handler):
    """The access log's lines, kept."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def base_url(render_cache, tmp_path):
    console = open_console(str(tmp_path / "console.db"), tmp_path / "files")
    app = create_app(executor="thread", workers=1, queue=2, prewarm=False,
                     games=["lowest-unique"], players=[4], papers=["a4"],
                     store=RenderCache(render_cache), console=console)
    try:
        with served(app) as base:
            yield base
    finally:
        console.close()


@contextlib.contextmanager
def another_site(page: str) -> Iterator[str]:
    """``page`` served at ``http://localhost:PORT/`` (another site than 127.0.0.1: another host
    name; a real loopback server, as the browser allows a local page to reach a local one)."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def new_game(base: str) -> dict:
    request = urllib.request.Request(base + "/api/games", method="POST",
                                     data=json.dumps({"game": "whats-my-number",
                                                      "players": 5}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_a_cross_site_page_does_not_lock_the_game_master_out(chromium_printer, base_url):
    made = new_game(base_url)
    game = made["id"]
    lines = Lines()
    access = logging.getLogger("kit.web.access")
    access.addHandler(lines)
    access.setLevel(logging.INFO)
    context = chromium_printer.browser.new_context()
    try:
        gm = context.new_page()
        gm.set_default_timeout(30_000)
        assert gm.goto(made["gm_url"]).status == 200  # the link set the cookie: the GM page
        images = "".join(f'<img src="{base_url}/console/{game}/gm?x={n}">'
                         for n in range(ATTACKS))
        script = (f"for (let n = 0; n < {ATTACKS}; n++) fetch('{base_url}/console/new/wmn', "
                  "{method: 'POST', mode: 'no-cors', body: new URLSearchParams({players: '5'})});")
        other = context.new_page()
        page = f"<!doctype html><title>x</title>{images}<script>{script}</script>"
        with another_site(page) as evil:
            other.goto(evil)
            other.wait_for_load_state("networkidle")
        seen = [line for line in lines.lines if f"/console/{game}/gm" in line
                or "/console/new/wmn" in line]
        assert sum(' 403 ' in line for line in seen) >= 2 * ATTACKS, seen[-5:]
        again = gm.reload()
        assert again.status == 200 and gm.locator("h1").count() == 1
        assert gm.goto(made["public_url"]).status == 200
        assert gm.goto(f"{base_url}/api/games/{game}/public.json").status == 200
        assert gm.goto(f"{base_url}/console/{game}/standings").status == 200
        assert gm.goto(f"{base_url}/console/{game}/gm").status == 200
    finally:
        access.removeHandler(lines)
        context.close()
