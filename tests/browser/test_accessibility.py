"""axe-core in Debian's Chromium: the download site, the custom form (empty and with errors),
the result page and the message page have no serious or critical violation.

axe-core comes from npm (``package.json`` pins it; ``npm ci`` puts it in ``node_modules/``).
Without it the tests skip, except under CI (``CI`` set), where they fail and say how to get it.
The server's pages forbid every script in their CSP; the browser context bypasses CSP so that
axe can be injected, and nothing else is changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.helpers import axe_source as load_axe
from support.helpers import check_page, require_browser, served

pytestmark = pytest.mark.slow
require_browser()

from playwright.sync_api import Page, expect  # noqa: E402

from kit.cache import RenderCache  # noqa: E402
from kit.registry import GAMES  # noqa: E402
from kit.serve.app import create_app  # noqa: E402
from kit.site.kits import ready_configs  # noqa: E402
from kit.site.static import build_site  # noqa: E402

FIRST = next(iter(GAMES.values()))
SMALL = max(FIRST.min_players, 3)


@pytest.fixture(scope="module")
def axe_source() -> str:
    return load_axe()


@pytest.fixture(scope="module")
def store(render_cache) -> RenderCache:
    return RenderCache(render_cache)  # the session's: kits other tests built are served as is


@pytest.fixture(scope="module")
def base_url(store):
    app = create_app(executor="thread", workers=1, queue=2, prewarm=False, games=[FIRST.name],
                     players=[SMALL], papers=["a4"], store=store)
    with served(app) as url:
        yield url


@pytest.fixture(scope="module")
def static_index(tmp_path_factory, store) -> Path:
    configs = ready_configs([FIRST.name], [SMALL])
    return build_site(tmp_path_factory.mktemp("site") / "site", configs, store=store)


@pytest.fixture(scope="module")
def browser(chromium_printer):
    """The session's one Chromium (two sync Playwrights cannot run in one process)."""
    return chromium_printer.browser


@pytest.fixture
def page(browser):
    context = browser.new_context(bypass_csp=True, accept_downloads=True,
                                  viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


def test_static_site_index(page: Page, axe_source, static_index):
    page.goto(static_index.as_uri())
    assert page.locator("img.thumb").count() >= 1
    check_page(page, axe_source)


def test_server_index_with_the_form(page: Page, axe_source, base_url):
    page.goto(base_url + "/")
    check_page(page, axe_source)


def test_custom_form(page: Page, axe_source, base_url):
    page.goto(base_url + "/custom")
    check_page(page, axe_source)


def test_form_errors_are_announced_and_tied_to_their_fields(page: Page, axe_source, base_url):
    page.goto(base_url + "/custom")
    page.select_option("#f-game", FIRST.name)
    page.fill("#f-range", "20-5")
    page.fill("#f-names", "Ann\nBo\nAnn")
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.click("button[type=submit]")
    assert info.value.status == 422
    page.wait_for_load_state("load")
    summary = page.locator("#error-summary")
    assert summary.get_attribute("role") == "alert"
    expect(summary).to_be_focused()  # focus moved there (autofocus runs at the next frame)
    invalid = page.evaluate("""() => [...document.querySelectorAll('[aria-invalid="true"]')]
        .map(el => ({id: el.id, described: el.getAttribute('aria-describedby') || ''}))""")
    assert invalid, "no field is marked invalid"
    for field in invalid:
        assert f"{field['id']}-error" in field["described"].split(), field
        error = page.locator(f"#{field['id']}-error")
        assert error.is_visible() and error.inner_text().strip()
    links = summary.locator("a")
    assert links.count() >= 1
    for i in range(links.count()):  # every summary link leads to a field on the page
        target = links.nth(i).get_attribute("href").removeprefix("#")
        assert page.locator(f"#{target}").count() == 1, target
    check_page(page, axe_source)


def test_result_page(page: Page, axe_source, base_url):
    page.goto(base_url + "/custom")
    page.select_option("#f-game", FIRST.name)
    page.fill("#f-names", "\n".join(f"Guest {i}" for i in range(1, SMALL + 1)))
    page.fill("#f-title", "Accessibility night")
    with page.expect_navigation(url=lambda url: "/custom/" in url, timeout=90_000):
        page.click("button[type=submit]")
    # the "being made" page reloads itself until the kit is ready
    page.wait_for_selector("h1:has-text('Your kit is ready')", timeout=90_000)
    page.wait_for_load_state("load")
    check_page(page, axe_source)


def test_message_page(page: Page, axe_source, base_url):
    response = page.goto(base_url + "/no-such-page")
    assert response is not None and response.status == 404
    check_page(page, axe_source)


@pytest.mark.parametrize("path", ["/?lang=ru", "/custom?lang=de"])
def test_pages_in_other_languages(page: Page, axe_source, base_url, path):
    """The language switcher and a page in another language (its ``lang``, names in their own
    language) stay clean."""
    page.goto(base_url + path)
    lang = path.rsplit("=", 1)[1]
    assert page.evaluate("document.documentElement.lang") == lang
    switcher = page.locator("nav.languages a")
    assert switcher.count() >= 2
    assert page.locator(f'nav.languages a[aria-current="true"][hreflang="{lang}"]').count() == 1
    check_page(page, axe_source)


def test_accept_language_sets_the_page_language(browser, axe_source, base_url):
    context = browser.new_context(bypass_csp=True, locale="fr-FR")
    try:
        page = context.new_page()
        page.goto(base_url + "/")
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.locator("#f-lang").input_value() == "fr"  # the kit's language offered first
        check_page(page, axe_source)
    finally:
        context.close()
