"""The live pages in Chromium (Playwright): three phones and the host's page follow a What's My
Number? game through its event streams, with no reload. A publish puts the published turn at
the top of every phone; a form typed and not sent survives it, carried to the next turn with a
note; a player's post shows on the host's page; the server is stopped and started again on the
same port and the pages reconnect by themselves; a Lowest Unique Number scorer's round shows on
the host's page; the pages work without script; axe-core finds nothing on the swapped pages.

Waits are bounded by a condition (Playwright's ``expect``), never a timing assertion.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from support.helpers import axe_source as load_axe
from support.helpers import check_page, require_browser
from test_console_browser import api, browser, gm_login, open_page  # noqa: F401

pytestmark = pytest.mark.slow
require_browser()

from playwright.sync_api import Page, expect  # noqa: E402

from kit.cache import RenderCache  # noqa: E402
from kit.console.service import open_console  # noqa: E402
from kit.serve.app import create_app  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]  # Dee has no phone open
PHONES = PLAYERS[:3]
SECRETS = {"Ann": 5, "Bob": 12, "Cy": 20, "Dee": 27}
# what a browser logs when the server it streams from stops, and while it is away
RESTART_ERRORS = ("net::ERR_INCOMPLETE_CHUNKED_ENCODING", "net::ERR_CONNECTION_REFUSED")
FOLLOW_MS = 20_000  # a bound on waiting for a page to follow (the events come at once)
BACK_MS = 60_000  # a bound on a page reconnecting to a server started again


class Restartable:
    """``kit serve``'s app on one loopback port, served by uvicorn in a thread, which can be
    stopped and started again on the same port (the same database: a server restarted)."""

    def __init__(self, make_app, port: int) -> None:  # noqa: ANN001
        self.make_app, self.port = make_app, port
        self.server = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        import uvicorn

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        # open streams are cut after a second: a restart must not wait for the phones
        self.server = uvicorn.Server(uvicorn.Config(self.make_app(), log_level="warning",
                                                    lifespan="on",
                                                    timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]},
                                       daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.server.started, "the server did not start"
        self.sock = sock

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        self.server.should_exit = True
        self.thread.join(30)
        assert not self.thread.is_alive(), "the server did not stop"
        self.sock.close()


@pytest.fixture(scope="module")
def live(render_cache, tmp_path_factory) -> Iterator[Restartable]:
    folder = tmp_path_factory.mktemp("live")
    console = open_console(str(folder / "console.db"), folder / "files")

    def make_app():  # noqa: ANN202
        return create_app(executor="thread", workers=1, queue=2, prewarm=False,
                          games=["lowest-unique"], players=[4], papers=["a4"],
                          store=RenderCache(render_cache), console=console)

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = Restartable(make_app, port)
    server.start()
    yield server
    server.stop()
    console.close()


def phone(browser) -> Page:  # noqa: ANN001, F811
    return open_page(browser, 390, 844, has_touch=True, is_mobile=True)


def mark(page: Page) -> None:
    """A mark in the page's window: still there later means the page was never reloaded."""
    page.evaluate("window.__notReloaded = true")


def not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__notReloaded === true"), page.url


def following(page: Page) -> None:
    """Wait until the page's event stream is open (its first event answered)."""
    expect(page.locator("body")).to_have_attribute("data-following", "open",
                                                   timeout=FOLLOW_MS)


def test_three_phones_and_the_host_follow_the_game(browser, live) -> None:  # noqa: F811
    base = live.url
    status, made = api(base, "/api/games", {"game": "whats-my-number", "players": PLAYERS,
                                            "secrets": SECRETS, "range": "1-40"})
    assert status == 201, made
    game, gm_token = made["id"], made["gm_token"]
    links = {p: f"{base}/console/{game}/p/{t}" for p, t in made["player_tokens"].items()}
    phones = {name: phone(browser) for name in PHONES}
    host = open_page(browser, 1280, 800)
    try:
        gm_login(host, base, game, gm_token)
        for name, page in phones.items():
            page.goto(links[name])
            assert "Numbers from 1 to 40" in page.inner_text(".game-facts")
        for page in (*phones.values(), host):
            mark(page)
            following(page)
        # who has their page open: the host sees it per player, as phones come and go
        board = host.locator(".status-board")
        for name in PHONES:
            expect(board.locator("tr", has_text=name)).to_contain_text("here now",
                                                                     timeout=FOLLOW_MS)
        expect(board.locator("tr", has_text="Dee")).to_contain_text("never opened")
        # Ann sends from her phone: the host's board shows it without a reload
        ann, bob, cy = phones["Ann"], phones["Bob"], phones["Cy"]
        ann.fill("#g1", "12")
        ann.fill("#g2", "30")
        ann.click("button[value=guesses]")
        ann.wait_for_url(re.compile(r"sent=1"))
        mark(ann)
        expect(host.locator(".status-board")).to_contain_text(
            re.compile(r"Ann\s*sent by the player at \d\d:\d\d"), timeout=FOLLOW_MS)
        not_reloaded(host)
        # Cy types a guess and does not send it; the host types in the grid
        cy.fill("#g1", "7")
        typed = host.get_by_label("Cy, guess 1", exact=True)
        typed.fill("9")
        # the GM publishes from elsewhere (the API): every phone shows the turn at the top
        status, answer = api(base, f"/api/games/{game}/orders", {"guesses": [3, 4]},
                             made["player_tokens"]["Bob"])
        assert status == 201, answer
        expect(host.locator(".status-board")).to_contain_text(
            re.compile(r"Bob\s*sent by the player"), timeout=FOLLOW_MS)
        assert typed.input_value() == "9"  # the grid being typed in is held, not replaced
        status, answer = api(base, f"/api/games/{game}/turns/1/publish", {}, gm_token)
        assert status == 200, answer
        for name, page in phones.items():
            expect(page.locator("#news-heading")).to_have_text("Turn 1 published",
                                                               timeout=FOLLOW_MS)
            expect(page.locator("#orders-heading")).to_contain_text("Turn 2",
                                                                    timeout=FOLLOW_MS)
            not_reloaded(page)
            # their own slip first: above the next turn's form
            news = page.locator("#news-heading").bounding_box()
            form = page.locator("#orders-heading").bounding_box()
            assert news["y"] < form["y"], name
            assert f"{name} · turn 1" in page.inner_text(".news").replace(
                "\u2068", "").replace("\u2069", "")
        # Cy's unsent 7 is kept, in turn 2's form, and the page says why
        assert cy.input_value("#g1") == "7"
        assert cy.locator("input[name=turn]").first.input_value() == "2"
        expect(cy.locator(".notice-kept")).to_have_text(
            "Turn 1 was published; your unsent numbers are kept below for turn 2.")
        assert bob.input_value("#g1") == ""  # nothing typed: nothing kept, no note
        assert bob.locator(".notice-kept").count() == 0
        dee = phone(browser)
        dee.goto(links["Dee"])
        expect(board.locator("tr", has_text="Dee")).to_contain_text("here now",
                                                                  timeout=FOLLOW_MS)
        dee.context.close()
        expect(board.locator("tr", has_text="Dee")).to_contain_text(
            re.compile(r"last seen \d\d:\d\d"), timeout=FOLLOW_MS)
        not_reloaded(host)
        # the server stops and starts again on the same port: the pages reconnect themselves
        live.stop()
        live.start()
        status, answer = api(base, f"/api/games/{game}/turns/2/publish", {}, gm_token)
        assert status == 200, answer
        for page in (*phones.values(), host):
            expect(page.locator("body")).to_have_attribute("data-following", "open",
                                                           timeout=BACK_MS)
        for page in phones.values():
            expect(page.locator("#news-heading")).to_have_text("Turn 2 published",
                                                               timeout=BACK_MS)
            not_reloaded(page)
        expect(host.locator("h1")).to_contain_text("Turn 3", timeout=BACK_MS)
        assert cy.input_value("#g1") == "7"  # still kept, now for turn 3
        assert "Turn 2 was published" in cy.inner_text(".notice-kept")
        for page in (*phones.values(), host):
            # the restart cuts each open stream: the browser says so, and connects again
            problems = [p for p in page.problems  # type: ignore[attr-defined]
                        if not any(cut in p for cut in RESTART_ERRORS)]
            assert problems == [], problems
    finally:
        for page in (*phones.values(), host):
            page.context.close()
    swapped_pages_pass_axe(browser, base, made, links["Cy"])


def swapped_pages_pass_axe(browser, base: str, made: dict, link: str) -> None:  # noqa: ANN001, F811
    """axe-core over a phone and the host's page once the live script has swapped their
    regions (a publish, a kept form and its note); CSP bypassed for axe's own script only."""
    cy = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844},
                             has_touch=True, is_mobile=True).new_page()
    host = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800}
                               ).new_page()
    try:
        gm_login(host, base, made["id"], made["gm_token"])
        cy.goto(link)
        for page in (cy, host):
            following(page)
        cy.fill("#g1", "8")
        status, answer = api(base, f"/api/games/{made['id']}/turns/3/publish", {},
                             made["gm_token"])
        assert status == 200, answer
        expect(cy.locator("#news-heading")).to_have_text("Turn 3 published", timeout=FOLLOW_MS)
        expect(cy.locator(".notice-kept")).to_be_visible()
        expect(host.locator("h1")).to_contain_text("Turn 4", timeout=FOLLOW_MS)
        axe = load_axe()
        check_page(cy, axe)
        check_page(host, axe)
    finally:
        cy.context.close()
        host.context.close()


def test_a_scorers_round_shows_on_the_hosts_page(browser, live) -> None:  # noqa: F811
    base = live.url
    status, party = api(base, "/api/games", {"game": "lowest-unique",
                                             "tables": [["Ann", "Bob", "Cy"],
                                                        ["Dee", "Eve", "Fay"]]})
    assert status == 201, party
    host = open_page(browser, 1280, 800)
    scorer = phone(browser)
    try:
        gm_login(host, base, party["id"], party["gm_token"])
        mark(host)
        following(host)
        expect(host.locator("#table-2")).to_contain_text("Scorer’s page: never opened")
        scorer.goto(party["table_links"]["2"])
        expect(host.locator("#table-2")).to_contain_text("Scorer’s page: here now",
                                                         timeout=FOLLOW_MS)
        for k, value in enumerate(["1", "2", "2"]):
            scorer.fill(f"#t2-c{k}", value)
        scorer.get_by_role("button", name="Save round 1").click()
        scorer.wait_for_url(re.compile(r"round=2"))  # the next round to enter
        expect(host.locator("#table-2")).to_contain_text("Dee wins with 1", timeout=FOLLOW_MS)
        expect(host.locator("#table-2 legend")).to_have_text("Round 2", timeout=FOLLOW_MS)
        not_reloaded(host)
        assert host.problems == [], host.problems  # type: ignore[attr-defined]
    finally:
        host.context.close()
        scorer.context.close()


def test_the_pages_work_without_script(browser, live) -> None:  # noqa: F811
    base = live.url
    status, made = api(base, "/api/games", {"game": "whats-my-number", "players": PLAYERS,
                                            "secrets": SECRETS, "range": "1-40"})
    assert status == 201, made
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390,
                                                                       "height": 844})
    page = context.new_page()
    try:
        link = made["player_links"]["Ann"]
        page.goto(link.replace(link[:link.index("/console/")], base))
        assert page.get_by_role("link", name="Reload this page", exact=True).is_visible()
        page.fill("#g1", "12")
        page.click("button[value=guesses]")
        page.wait_for_url(re.compile(r"sent=1"))
        assert "Your orders were received." in page.inner_text("main")
        api(base, f"/api/games/{made['id']}/turns/1/publish", {}, made["gm_token"])
        page.get_by_role("link", name="Reload this page", exact=True).click()
        expect(page.locator("#news-heading")).to_have_text("Turn 1 published")
        assert "Your orders were received." not in page.inner_text("main")  # ?sent=1 is old
        page.goto(f"{base}/console/{made['id']}/standings")
        assert page.locator("noscript meta[http-equiv=refresh]").count() == 1
    finally:
        context.close()


def test_a_publish_is_said_at_once_and_its_results_follow_in_their_moment(
        browser, live) -> None:  # noqa: F811
    from datetime import UTC, datetime, timedelta

    base = live.url
    status, made = api(base, "/api/games", {"game": "whats-my-number", "players": PLAYERS,
                                            "secrets": SECRETS, "range": "1-40"})
    assert status == 201, made
    page = phone(browser)
    try:
        page.clock.install()  # the page's timers fire only as the test moves its clock
        page.goto(f"{base}/console/{made['id']}/p/{made['player_tokens']['Ann']}")
        page.clock.pause_at(datetime.now(UTC) + timedelta(minutes=1))
        mark(page)
        following(page)
        status, answer = api(base, f"/api/games/{made['id']}/turns/1/publish", {},
                             made["gm_token"])
        assert status == 200, answer
        # heard: said at once, while the page waits for its moment of the spread
        note = page.locator("#live-coming")
        expect(note).to_have_text("New results are in: this page shows them in a moment.",
                                  timeout=FOLLOW_MS)
        assert note.get_attribute("role") == "status"
        assert page.locator("#news-heading").count() == 0
        page.clock.fast_forward(3_000)  # past any spread_ms (at most 3 s)
        expect(page.locator("#news-heading")).to_have_text("Turn 1 published",
                                                           timeout=FOLLOW_MS)
        expect(note).to_have_count(0)
        not_reloaded(page)
    finally:
        page.context.close()
