"""The web app in a real browser: Playwright driving Debian's Chromium against ``kit serve``.

The server runs on 127.0.0.1 on a free port in a thread of this process, with the real process
pool. Playwright's own browser download is never used: the system Chromium is launched instead.
"""

from __future__ import annotations

import re

import pytest
from support.helpers import require_browser, served

pytestmark = pytest.mark.slow

require_browser()

from playwright.sync_api import Page  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from kit.cache import RenderCache  # noqa: E402
from kit.config import resolve  # noqa: E402
from kit.errors import KitError  # noqa: E402
from kit.registry import GAMES  # noqa: E402
from kit.serve.app import create_app  # noqa: E402
from kit.site.kits import ready_configs  # noqa: E402

FIRST = next(iter(GAMES.values()))
SMALL = max(FIRST.min_players, 3)


@pytest.fixture(scope="module")
def base_url(render_cache):
    app = create_app(executor="process", workers=1, queue=2, prewarm=False,
                     games=[FIRST.name], players=[SMALL], papers=["a4"],
                     store=RenderCache(render_cache))
    with served(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser(chromium_printer):
    """The session's one Chromium (two sync Playwrights cannot run in one process)."""
    return chromium_printer.browser


@pytest.fixture
def page(browser):
    context = browser.new_context(accept_downloads=True, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60_000)
    problems: list[str] = []
    expected = "status of 422"  # Chromium logs the rejected form's status; that one is meant

    def console(message) -> None:
        if message.type == "error" and expected not in message.text:
            problems.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda e: problems.append(str(e)))
    # which file failed, not only that one did (Chromium's console line names no URL)
    page.on("response", lambda r: r.status >= 400 and r.status != 422
            and problems.append(f"{r.status} {r.url}"))
    page.problems = problems  # type: ignore[attr-defined]
    yield page
    context.close()
    assert problems == [], problems  # no CSP violations, missing files or script errors


def labelled_and_described(page: Page) -> None:
    missing = page.evaluate("""() => [...document.querySelectorAll('input, select, textarea')]
        .filter(el => el.type !== 'hidden' && el.labels.length === 0).map(el => el.name)""")
    assert missing == []
    no_alt = page.evaluate("() => [...document.images].filter(i => !i.alt).map(i => i.src)")
    assert no_alt == []
    assert page.locator("h1").count() == 1


def test_index_keyboard_and_ready_kit_download(page: Page, base_url, tmp_path):
    page.goto(base_url + "/")
    assert "Ready-made kits" in page.title()
    labelled_and_described(page)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "#main"
    assert page.locator(".skip").is_visible()  # the skip link shows when focused

    (config,) = ready_configs([FIRST.name], [SMALL], ["a4"])
    first = page.locator(f'a.pdf[href^="/kits/{config.folder_name}/"]').first
    assert first.get_attribute("href").endswith("/player-kit.pdf")  # the player kit first
    link = page.locator(f'a.save[href^="/kits/{config.folder_name}/"]').first  # saves it
    link.focus()
    with page.expect_download() as info:
        page.keyboard.press("Enter")  # by keyboard, as a keyboard user would
    download = info.value
    assert download.suggested_filename.startswith(config.folder_name)
    target = tmp_path / download.suggested_filename
    download.save_as(target)
    assert len(PdfReader(target).pages) >= 1


def test_custom_kit_with_names_downloads_a_pdf_with_those_names(page: Page, base_url, tmp_path):
    names = [f"Guest {i}" for i in range(1, SMALL)] + ["<b>Dee</b>"]
    page.goto(base_url + "/#custom")
    page.select_option("#f-game", FIRST.name)
    page.fill("#f-names", "\n".join(names))
    page.fill("#f-title", "Friday <quiz>")
    pdf_choice = page.locator('input[name="format"]:not([value="zip"])').first
    stem = pdf_choice.get_attribute("value")
    pdf_choice.check()
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Your kit is ready')", timeout=90_000)
    assert re.search(r"/custom/[\w-]{22}\?get=", page.url)
    with page.expect_download() as info:  # the chosen PDF's save link, beside its open link
        page.click(f'a.save[href$="/{stem}.pdf"]')
    download = info.value
    target = tmp_path / "kit.pdf"
    download.save_as(target)
    assert download.suggested_filename.endswith(f"-{stem}.pdf")
    assert page.locator("a.open.primary").get_attribute("href").endswith(f"/{stem}.pdf")
    labelled_and_described(page)
    assert "<b>Dee</b>" in page.locator(".summary dd").nth(1).inner_text()  # shown as text
    thumbs = page.locator("img.thumb")
    assert thumbs.count() >= 1
    thumbs.last.scroll_into_view_if_needed()
    page.wait_for_function("[...document.images].every(i => i.complete && i.naturalWidth > 0)")

    reader = PdfReader(target)
    shown = page.locator(f'li:has(a.open[href$="/{stem}.pdf"]) .meta').inner_text()
    assert f"{len(reader.pages)} pages" in shown
    text = "\n".join(p.extract_text() for p in reader.pages)
    for name in names:
        assert name in text, name

    html_link = page.locator(f'a[href$="/{stem}.html"]')
    page.goto(base_url + html_link.get_attribute("href"))  # the kit's own HTML, under its CSP
    assert page.evaluate("""async () => { await document.fonts.ready;
        return document.fonts.check('12px "Atkinson Hyperlegible"'); }""")
    assert "<b>Dee</b>" in page.inner_text("body")


def test_bad_form_shows_the_error_next_to_the_field(page: Page, base_url):
    page.goto(base_url + "/custom")
    page.select_option("#f-game", FIRST.name)
    page.fill("#f-range", "20-5")
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.click("button[type=submit]")
    assert info.value.status == 422
    with pytest.raises(KitError) as expected:
        resolve({"game": FIRST.name, "range": "20-5"})
    error = page.locator("#f-range-error")
    assert error.is_visible()
    assert expected.value.message in error.inner_text()
    assert page.get_attribute("#f-range", "aria-invalid") == "true"
    assert "f-range-error" in page.get_attribute("#f-range", "aria-describedby")
    summary = page.locator("[role=alert]")
    # "<label>: <message>": the CLI's message, the field as the page labels it
    assert f"Custom number range: {expected.value.message}" in summary.inner_text()
    assert page.input_value("#f-range") == "20-5"  # what was typed is kept
    summary.locator("a").first.click()  # the summary link jumps to the field
    assert page.evaluate("location.hash") == "#f-range"
