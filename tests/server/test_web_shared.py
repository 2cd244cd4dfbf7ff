"""Several servers, in-process: two apps on one database (SQLite and PostgreSQL) and one render
cache folder, as two ``kit serve`` processes behind a proxy. A custom kit's result id made by
one is answered by the other: from the shared cache when its kit is there, "being made" while
the first server holds the render lease, rendered by the server asked when no one else makes
it; a failing config fails the same way on both. ``test_web_servers.py`` does it with real
processes."""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 but still drives httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import sqlalchemy as sa  # noqa: E402

from kit.cache import RenderCache  # noqa: E402
from kit.config import resolve  # noqa: E402
from kit.errors import LayoutError  # noqa: E402
from kit.output import KitFiles  # noqa: E402
from kit.registry import GAMES  # noqa: E402
from kit.serve import app as web_app  # noqa: E402
from kit.site.kits import Rendered, config_key, config_text  # noqa: E402
from kit.site.shared import SharedTickets, config_from_text, kit_requests  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

FIRST = next(iter(GAMES.values()))
SMALL = max(FIRST.min_players, 3)


class Render:
    """A stub render that says which server made the kit, and can be held until released."""

    def __init__(self, name: str, hold: bool = False, fail: bool = False) -> None:
        self.name, self.fail = name, fail
        self.release = threading.Event()
        if not hold:
            self.release.set()
        self.calls = 0

    def __call__(self, config, preview_pages=1):
        self.calls += 1
        assert self.release.wait(30)
        if self.fail:
            raise LayoutError("players", "these names do not fit")
        pdf = b"%PDF-1.7 made by " + self.name.encode() + b" " + config.title.encode()
        return Rendered(config, KitFiles(config.folder_name, {"player-kit.pdf": pdf}), (), {})


@pytest.fixture
def pair(console_url: str, tmp_path: Path) -> Iterator[Callable]:  # noqa: F811
    """Makes two apps (A, B) on one database and one render cache folder."""
    made = []

    def make(render_a: Render, render_b: Render) -> tuple[TestClient, TestClient]:
        clients = []
        for render in (render_a, render_b):
            app = web_app.create_app(executor="thread", workers=1, prewarm=False,
                                     render=render, games=[FIRST.name], players=[SMALL],
                                     papers=["a4"], store=RenderCache(tmp_path / "cache"),
                                     database=console_url)
            client = TestClient(app, raise_server_exceptions=False)
            client.__enter__()
            made.append(client)
            clients.append(client)
        return clients[0], clients[1]

    yield make
    for client in made:
        client.__exit__(None, None, None)
        client.app.state.console.close()


def order(client: TestClient, title: str) -> str:
    """Sends the form; the result address (``/custom/ID?...``)."""
    sent = client.post("/custom", data={"game": FIRST.name, "players": str(SMALL),
                                        "title": title, "format": "player-kit"},
                       follow_redirects=False)
    assert sent.status_code == 303, sent.text
    return sent.headers["location"]


def wait_ready(client: TestClient, location: str, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while (page := client.get(location)).status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.05)
    return page


def pdf_of(location: str) -> str:
    return location.split("?")[0] + "/player-kit.pdf"


def test_a_kit_made_on_one_server_is_served_by_the_other_from_the_shared_cache(pair):
    a, b = Render("A"), Render("B")
    one, two = pair(a, b)
    location = order(one, "Shared")
    assert wait_ready(one, location).status_code == 200  # made by A, kept in the cache folder
    page = two.get(location)
    assert page.status_code == 200 and "Shared" in page.text
    assert two.get(pdf_of(location)).content == b"%PDF-1.7 made by A Shared"
    assert (a.calls, b.calls) == (1, 0)  # B rendered nothing
    assert two.app.state.service.pool.started == 0


def test_while_one_server_makes_a_kit_the_other_says_being_made(pair):
    a, b = Render("A", hold=True), Render("B")
    one, two = pair(a, b)
    location = order(one, "Busy night")
    for _ in range(3):  # B waits for A's lease instead of rendering the kit again
        waiting = two.get(location)
        assert waiting.status_code == 202 and "being made" in waiting.text.lower()
    assert two.get(pdf_of(location)).status_code == 503  # its files: not yet
    a.release.set()
    assert wait_ready(two, location).status_code == 200
    assert two.get(pdf_of(location)).content == b"%PDF-1.7 made by A Busy night"
    assert (a.calls, b.calls) == (1, 0)


def test_a_result_page_waits_a_moment_for_the_kit_another_server_is_making(pair):
    a = Render("A", hold=True)
    one, two = pair(a, Render("B"))
    location = order(one, "Moment")
    threading.Timer(0.2, a.release.set).start()  # well inside the page's 1.5 s wait
    page = two.get(location)  # as on the server making it: a small kit shows at first look
    assert page.status_code == 200 and "Moment" in page.text


def test_a_kit_asked_of_both_servers_while_one_makes_it_is_made_once(pair):
    a, b = Render("A", hold=True), Render("B")
    one, two = pair(a, b)
    first, second = order(one, "Twice"), order(two, "Twice")
    assert first.split("?")[0] != second.split("?")[0]  # an id per request...
    assert two.app.state.service.pool.started == 0  # ...one render, the first server's
    a.release.set()
    assert wait_ready(two, second).status_code == 200
    assert two.get(pdf_of(second)).content == b"%PDF-1.7 made by A Twice"
    assert (a.calls, b.calls) == (1, 0)


def test_a_kit_another_client_made_shows_after_its_render_time_on_every_server(pair):
    one, two = pair(Render("A"), Render("B"))
    assert wait_ready(one, order(one, "Theirs")).status_code == 200  # made by A for "testclient"
    config = resolve({"game": FIRST.name, "players": SMALL, "title": "Theirs"})
    key = config_key(config)
    one.app.state.service.cache.get(key).seconds = 60.0  # as if it took a minute
    with one.app.state.console.store.engine.begin() as conn:
        conn.execute(kit_requests.update().where(kit_requests.c.key == key).values(seconds=60.0))
    ident = two.app.state.service.order(config, "10.0.0.2")  # another client, on server B
    assert two.app.state.service.pool.started == 0  # from the shared cache, not made again
    for client in (one, two):  # "being made" on both, as long as that render took
        assert client.get(f"/custom/{ident}").status_code == 202
    two.app.state.service.tickets.get(ident).created -= 61
    assert two.get(f"/custom/{ident}").status_code == 200


def test_the_server_asked_renders_a_kit_no_other_server_makes(pair, console_url):  # noqa: F811
    a, b = Render("A", hold=True), Render("B")
    one, two = pair(a, b)
    location = order(one, "Orphan")
    ident = location.split("/")[2].split("?")[0]
    with two.app.state.console.store.engine.begin() as conn:  # A died: its lease ran out
        conn.execute(kit_requests.update().where(kit_requests.c.id == ident).values(lease=1.0))
    assert wait_ready(two, location).status_code == 200
    assert two.get(pdf_of(location)).content == b"%PDF-1.7 made by B Orphan"
    assert b.calls == 1
    a.release.set()


def test_a_kit_gone_from_the_cache_is_made_again_by_the_server_asked(pair, tmp_path):
    a, b = Render("A"), Render("B")
    one, two = pair(a, b)
    location = order(one, "Evicted")
    assert wait_ready(one, location).status_code == 200
    for entry in (tmp_path / "cache").rglob("*"):  # the cache folder emptied (or never shared)
        if entry.is_file():
            entry.unlink()
    assert wait_ready(two, location).status_code == 200
    assert two.get(pdf_of(location)).content == b"%PDF-1.7 made by B Evicted"


def test_a_config_that_fails_fails_the_same_way_on_the_other_server(pair):
    one, two = pair(Render("A", fail=True), Render("B", fail=True))
    location = order(one, "Too long")
    assert "these names do not fit" in wait_ready(one, location).text
    page = wait_ready(two, location)  # no lease left behind: B tries, and fails the same way
    assert page.status_code == 422 and "these names do not fit" in page.text


def test_an_unknown_id_is_the_expired_form_on_every_server(pair):
    one, two = pair(Render("A"), Render("B"))
    for client in (one, two):
        page = client.get("/custom/AAAAAAAAAAAAAAAAAAAAAA?get=player-kit&game=lowest-unique"
                          "&names=Ann,Bob,Cy")
        assert page.status_code == 404 and "no longer kept" in page.text
        assert client.get("/custom/x'%20OR%201=1/player-kit.pdf").status_code == 404


def test_a_result_id_is_a_row_with_its_config_and_nothing_else(pair):
    one, _ = pair(Render("A"), Render("B"))
    location = order(one, "Row")
    ident = location.split("/")[2].split("?")[0]
    with one.app.state.console.store.engine.connect() as conn:
        row = conn.execute(sa.select(kit_requests).where(kit_requests.c.id == ident)).one()
    config = one.app.state.service.tickets.get(ident).config
    assert row.key == config_key(config) and row.config == config_text(config)
    assert row.client == "testclient" and abs(row.created - time.time()) < 600


@pytest.mark.parametrize("settings", [
    {"game": "lowest-unique", "names": ["Ann", "Bob", "Cy", "Dee"], "rounds": 7,
     "title": "Club night", "cooperative": True, "lang": "fr"},
    {"game": "lowest-unique", "names": [f"Player {n}" for n in range(30)], "tables": 3,
     "shuffle": 2147483647},
    {"game": "whats-my-number", "players": 8, "turns": 12, "range": "1-20", "paper": "letter"},
])
def test_a_config_comes_back_from_its_row_exactly(settings):
    config = resolve(settings)
    assert config_from_text(config_text(config), config_key(config)) == config
    assert config_from_text(config_text(config), "0" * 32) is None  # another key: refused
    assert config_from_text('{"game": "chess"}', config_key(config)) is None


def test_ids_that_cannot_be_ours_never_reach_the_database():
    tickets = SharedTickets(sa.create_engine("sqlite://"))  # no table: a query would fail
    assert tickets.load("short") is None and tickets.load("x" * 22 + "'") is None
