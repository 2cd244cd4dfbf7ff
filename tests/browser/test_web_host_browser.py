"""The host's path (issue 18) in Debian's Chromium, at a desktop (1280x800) and a phone
(390x844, touch) viewport: Playwright against ``kit serve`` on a free loopback port, axe-core
on every page shown. The logic behind each point: ``test_web_host.py``.
"""

from __future__ import annotations

import pytest
from support.helpers import axe_source as load_axe
from support.helpers import check_page, require_browser, served

pytestmark = pytest.mark.slow

require_browser()

from playwright.sync_api import Page  # noqa: E402

from kit.cache import RenderCache  # noqa: E402
from kit.i18n import words  # noqa: E402
from kit.serve.app import create_app  # noqa: E402
from kit.site.kits import ready_configs  # noqa: E402

LUN = "lowest-unique"
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
}


@pytest.fixture(scope="module")
def axe() -> str:
    return load_axe()


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    # a store of its own: the ready-made kits it keeps stay out of the session's render cache
    store = RenderCache(tmp_path_factory.mktemp("host-browser-cache"))
    app = create_app(executor="process", workers=2, queue=8, prewarm=False, games=None,
                     players=[3, 8, 12], papers=None, store=store)
    with served(app) as url:
        yield url


@pytest.fixture(params=list(VIEWPORTS), ids=list(VIEWPORTS))
def page(request, chromium_printer):
    context = chromium_printer.browser.new_context(bypass_csp=True, accept_downloads=True,
                                                   locale="en-GB", reduced_motion="reduce",
                                                   **VIEWPORTS[request.param])
    page = context.new_page()
    page.set_default_timeout(90_000)
    page.viewport_name = request.param  # type: ignore[attr-defined]
    yield page
    context.close()


def result_of(page: Page) -> None:
    """Submit the form and wait for the kit's result page (past the "being made" page)."""
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Your kit is ready')")
    page.wait_for_load_state("load")


def targets_too_small(page: Page, selector: str) -> list[str]:
    """Visible controls matching ``selector`` smaller than 24 x 24 CSS px."""
    return page.evaluate("""(selector) => [...document.querySelectorAll(selector)]
        .filter(el => el.offsetParent !== null)
        .map(el => [el, el.getBoundingClientRect()])
        .filter(([el, r]) => r.width < 24 || r.height < 24)
        .map(([el, r]) => `${el.tagName} ${el.className} ${el.textContent.trim().slice(0, 20)}`
             + ` ${Math.round(r.width)}x${Math.round(r.height)}`)""", selector)


# --- 1, 6, 7: the index -----------------------------------------------------------------------

def test_index_player_kit_first_chooser_and_tap_targets(page: Page, base_url, axe):
    (config,) = ready_configs([LUN], [8], ["letter"])
    assert page.request.get(f"{base_url}/kits/{config.folder_name}/player-kit.pdf").ok
    page.goto(base_url + "/")
    card = page.locator(f"li.kit:has(#kit-{config.folder_name})")
    assert card.locator("a.pdf").first.get_attribute("href").endswith("/player-kit.pdf")
    thumb = card.locator("a.thumb-link")
    assert thumb.get_attribute("href").endswith("/player-kit.pdf")
    assert "Player kit" in thumb.locator("img").get_attribute("alt")
    assert "Host only" in card.locator("li.host-only").inner_text()
    thumb.scroll_into_view_if_needed()  # thumbnails load lazily
    page.wait_for_function(f"""() => {{ const i = document.querySelector(
        '#kit-{config.folder_name} ~ a.thumb-link img');
        return i.complete && i.naturalWidth > 0; }}""")
    page.evaluate("window.scrollTo(0, 0)")

    # any ready-made kit within two screens: the chooser sits at the top and jumps to it
    height = page.viewport_size["height"]
    chooser_link = page.locator(f'.chooser a[href="#kit-{config.folder_name}"]')
    assert chooser_link.bounding_box()["y"] < 2 * height
    chooser_link.click()
    page.wait_for_function(f"location.hash === '#kit-{config.folder_name}'")
    heading = page.locator(f"#kit-{config.folder_name}").bounding_box()
    assert 0 <= heading["y"] < height  # the kit's card is on screen after one tap
    assert targets_too_small(page, "nav a, .chooser a, .files a, .kit-form input, "
                                   ".kit-form select, button") == []
    check_page(page, axe)


def test_letter_regions_get_letter_first(chromium_printer, base_url):
    context = chromium_printer.browser.new_context(locale="en-US", **VIEWPORTS["phone"])
    try:
        page = context.new_page()
        page.goto(base_url + "/")
        sections = page.eval_on_selector_all("section.paper h3", "hs => hs.map(h => h.id)")
        assert sections[0].endswith("-letter")
        assert page.locator("#f-paper").input_value() == "letter"
        page.goto(base_url + "/custom")
        assert page.locator("#f-paper").input_value() == "letter"
    finally:
        context.close()


# --- 2, 5, 8: settings that stay, the result page, open then print ----------------------------

def test_settings_url_result_edit_and_back(page: Page, base_url, axe):
    page.goto(base_url + "/custom?game=lowest-unique&names=Ann,Bob,Cy,Dee&paper=letter"
                         "&title=Club+night&rounds=7")
    assert page.input_value("#f-names") == "Ann\nBob\nCy\nDee"
    assert page.input_value("#f-paper") == "letter" and page.input_value("#f-rounds") == "7"
    assert page.is_checked("#f-format-player-kit")  # the player kit PDF by default
    check_page(page, axe)
    result_of(page)
    rows = dict(zip(page.locator(".summary dt").all_inner_texts(),
                    page.locator(".summary dd").all_inner_texts(), strict=True))
    assert rows["Rounds"] == "7" and rows["Paper"] == "US Letter"
    assert rows["Players"] == "Ann, Bob, Cy and Dee" and rows["Event title"] == "Club night"
    primary = page.locator("a.open.primary")
    href = primary.get_attribute("href")
    assert href.endswith("/player-kit.pdf")
    response = page.request.get(base_url + href)
    assert response.headers["content-disposition"].startswith("inline")  # opens to print
    assert page.locator(f'a.save[href="{href}"]').get_attribute("download").endswith(".pdf")
    preview = page.locator(".preview a").first
    assert preview.get_attribute("href").endswith("/player-kit.pdf#page=1")  # opens large
    check_page(page, axe)

    page.click("text=Edit these settings")
    page.wait_for_load_state("load")
    assert page.input_value("#f-names") == "Ann\nBob\nCy\nDee"
    assert page.input_value("#f-title") == "Club night"
    page.locator('nav.languages a[hreflang="de"]').click()  # the language switch keeps them
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.input_value("#f-names") == "Ann\nBob\nCy\nDee"


def test_back_from_the_result_keeps_what_was_typed(page: Page, base_url):
    page.goto(base_url + "/custom")
    page.select_option("#f-game", LUN)
    page.fill("#f-names", "Ann\nBob\nCy")
    page.fill("#f-title", "Typed by hand")
    result_of(page)
    page.go_back()
    page.wait_for_load_state("load")
    assert page.input_value("#f-names") == "Ann\nBob\nCy"
    assert page.input_value("#f-title") == "Typed by hand"


# --- 3: split parties --------------------------------------------------------------------------

def test_split_party_is_explained_before_and_after(page: Page, base_url, axe):
    names = [f"Guest {i}" for i in range(1, 14)]
    page.goto(base_url + "/custom")
    note = page.locator("#f-names-notes")
    assert note.is_visible() and "3 to 12 players at a table" in note.inner_text()
    page.select_option("#f-game", LUN)
    page.fill("#f-names", "\n".join(names))
    result_of(page)
    seating = page.locator("ol.seating li").all_inner_texts()
    joined = words("en").join  # the language's list: "Guest 1, ..., Guest 6 and Guest 7"
    assert seating == ["Table 1: " + joined(names[:7]), "Table 2: " + joined(names[7:])]
    assert "2 tables" in page.locator("#seating-heading").inner_text()
    assert page.locator("a.open.primary").get_attribute("href").endswith("/all-tables.pdf")
    assert "All tables" in page.locator("main").inner_text()
    check_page(page, axe)


# --- 4: errors a host understands ----------------------------------------------------------------

def test_every_error_at_once_and_each_beside_its_field(page: Page, base_url, axe):
    page.goto(base_url + "/custom")
    page.select_option("#f-game", LUN)
    page.fill("#f-players", "0")
    page.fill("#f-range", "5-3")
    page.fill("#f-names", "Ann\nBob\nAnn")
    page.fill("#f-title", "Smith Family New Year's Eve Party 2026 - Lowest Unique Number Cup")
    assert len(page.input_value("#f-title")) > 60  # nothing cut while typing
    with page.expect_response(lambda r: r.request.method == "POST") as info:
        page.click("button[type=submit]")
    assert info.value.status == 422
    page.wait_for_load_state("load")
    items = page.locator("#error-summary li").all_inner_texts()
    assert [i.split(":")[0] for i in items] == [
        "Number of players", "Player names", "Custom number range", "Event title"]
    for key in ("players", "names", "range", "title"):
        assert page.get_attribute(f"#f-{key}", "aria-invalid") == "true"
        assert page.locator(f"#f-{key}-error").is_visible()
    text = page.locator("main").inner_text()
    assert "lowest-unique" not in text and "command line" not in text
    page.locator("#error-summary a", has_text="Event title").click()
    page.wait_for_function("location.hash === '#f-title'")
    label = page.locator('label[for="f-title"]').bounding_box()
    assert label["y"] >= 0  # the field's label and message stay in view
    check_page(page, axe)
