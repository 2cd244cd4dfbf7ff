"""The "being made" page in Debian's Chromium (Playwright), scripts off: a sent form lands on
its result address, which says its kit is being made and reloads itself until it is the
result page; axe finds nothing serious on it; on a desktop and on a phone."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from support.helpers import axe_source, check_page, require_browser, served

pytestmark = pytest.mark.slow
require_browser()

from kit.cache import RenderCache  # noqa: E402
from kit.output import KitFiles  # noqa: E402
from kit.registry import GAMES  # noqa: E402
from kit.serve.app import create_app  # noqa: E402
from kit.site.kits import Rendered  # noqa: E402
from kit.site.routes import QUEUE_REFRESH_S  # noqa: E402

FIRST = next(iter(GAMES.values()))
SMALL = max(FIRST.min_players, 3)
SHOTS = Path("/tmp/kit-shots")


class Gate:
    """A kit that is made only when the test says so."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def __call__(self, config, preview_pages=1):
        assert self.release.wait(60)
        pdf = b"%PDF-1.7 stub"
        return Rendered(config, KitFiles(config.folder_name, {"player-kit.pdf": pdf}), (), {})


@pytest.fixture(scope="module")
def browser(chromium_printer):
    return chromium_printer.browser


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)],
                         ids=["desktop", "phone"])
def test_the_being_made_page_becomes_the_result_page_without_scripts(browser, tmp_path, width,
                                                                      height):
    gate = Gate()
    app = create_app(executor="thread", workers=1, prewarm=False, render=gate,
                     games=[FIRST.name], players=[SMALL], papers=["a4"],
                     store=RenderCache(tmp_path / "cache"),
                     database=str(tmp_path / "console.sqlite3"))
    with served(app) as base:
        context = browser.new_context(java_script_enabled=False,
                                      viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(30_000)
        try:
            page.goto(base + "/custom")
            with page.expect_navigation():
                page.get_by_role("button", name="Make my kit").click()
            assert "/custom/" in page.url and page.locator("h1").inner_text() == (
                "Your kit is being made")
            assert "It is being made now." in page.locator("[role=status]").inner_text()
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"being-made-{width}.png"))
            queued = page.url
            checker = browser.new_context(bypass_csp=True, viewport={"width": width,
                                                                     "height": height})
            try:
                axe_page = checker.new_page()
                # the page without its Refresh header: a busy machine may take longer than
                # the refresh to run axe, and a reload under it destroys the page it reads
                axe_page.route(queued, lambda route: route.fulfill(
                    response=(answer := route.fetch()),
                    headers={k: v for k, v in answer.headers.items() if k.lower() != "refresh"}))
                axe_page.goto(queued)
                check_page(axe_page, axe_source())
            finally:
                checker.close()
            gate.release.set()
            page.wait_for_function("true")  # no script runs; the meta refresh reloads
            page.locator("h1", has_text="Your kit is ready").wait_for(
                timeout=(QUEUE_REFRESH_S + 10) * 1000)
            assert page.url == queued  # the same address, now the result page
        finally:
            gate.release.set()
            context.close()
