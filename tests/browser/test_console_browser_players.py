"""The players' own pages in Chromium: a 5-player What's My Number? game played through them
(Ann and Bob on phones at 390x844 by touch, Cy by keyboard only) and the GM grid for Dee and
Eve; the GM closes and publishes each turn, every player reads their own slip. Then axe-core
over the player page (empty, with problems, echoed, closed) and the new-links page in every
language, with no sideways scrolling at 390 px.
"""

from __future__ import annotations

import re

import pytest
from support.helpers import axe_source as load_axe
from support.helpers import check_page, require_browser
from test_console_browser import (  # noqa: F401
    api,
    base_url,
    browser,
    fill_grid,
    gm_login,
    open_page,
)

pytestmark = pytest.mark.slow
require_browser()

from playwright.sync_api import Page, expect  # noqa: E402

from kit.i18n import LANGUAGES  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SECRETS = {"Ann": 5, "Bob": 12, "Cy": 20, "Dee": 27, "Eve": 33}
PHONE = {"width": 390, "height": 844}


def new_game(base: str) -> dict:
    status, made = api(base, "/api/games", {"game": "whats-my-number", "players": PLAYERS,
                                            "secrets": SECRETS, "range": "1-40"})
    assert status == 201, made
    return made


def phone(browser):  # noqa: ANN001, F811
    return open_page(browser, PHONE["width"], PHONE["height"], has_touch=True, is_mobile=True)


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], (page.url, width)


def tap_guesses(page: Page, link: str, guesses: list[int]) -> None:
    page.goto(link)
    for index, guess in enumerate(guesses, start=1):
        page.tap(f"#g{index}")
        page.fill(f"#g{index}", str(guess))
    page.tap("button[value=guesses]")
    page.wait_for_url(re.compile(r"sent=[0-9]"))


def keyboard_list(page: Page, link: str, listed: dict[str, int]) -> int:
    """Cy's list, by keyboard only: Tab to each box of the list, type, then Enter sends the
    form. Returns the keys pressed."""
    page.goto(link)
    keys = 0
    others = [p for p in PLAYERS if p != "Cy"]
    for name in others:
        target = f"l{others.index(name)}"
        for _ in range(60):
            if page.evaluate("document.activeElement.id") == target:
                break
            page.keyboard.press("Tab")
            keys += 1
        page.keyboard.type(str(listed[name]))
        keys += len(str(listed[name]))
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"sent=[0-9]"))
    return keys + 1


def test_five_players_through_their_own_pages(browser, base_url: str) -> None:  # noqa: F811
    made = new_game(base_url)
    links = {p: f"{base_url}/console/{made['id']}/p/{t}" for p, t in
             made["player_tokens"].items()}
    ann, bob = phone(browser), phone(browser)
    cy = open_page(browser)
    gm = open_page(browser)
    gm_login(gm, base_url, made["id"], made["gm_token"])
    try:
        tap_guesses(ann, links["Ann"], [12, 30, 39])  # 3 guesses, 2 allowed
        assert "3 guesses, 2 allowed: guess 3 will be ignored" in ann.inner_text("#received")
        no_sideways_scroll(ann)
        tap_guesses(bob, links["Bob"], [5, 41])
        assert "41 is outside 1 to 40: void" in bob.inner_text("#received")
        keys = keyboard_list(cy, links["Cy"], {"Ann": 5, "Bob": 12, "Dee": 27, "Eve": 30})
        assert keys < 40
        assert "list: Ann 5, Bob 12, Dee 27, Eve 30" in cy.inner_text("#received")
        gm.goto(f"{base_url}/console/{made['id']}/gm")
        board = gm.inner_text(".status-board")
        assert re.search(r"Ann\s+sent by the player at \d\d:\d\d", board), board
        assert re.search(r"Dee\s+missing", board), board
        fill_grid(gm, {"Dee": [20, 21], "Eve": [1, 2]}, PLAYERS)
        gm.click("form[data-grid] button[type=submit]")
        gm.wait_for_url(re.compile("saved=1"))
        assert re.search(r"Eve\s+entered by you", gm.inner_text(".status-board"))
        gm.click("text=Close turn 1")
        gm.wait_for_url(re.compile("closed=1"))
        ann.goto(links["Ann"])
        assert "This turn is closed" in ann.inner_text("main")
        gm.click("#publish")
        gm.wait_for_url(re.compile("published=1"))
        for page, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
            page.goto(links[name])
            slips = page.inner_text(".news")  # the turn just published: above the form
            assert f"{name} · turn 1 · private" in slips.replace("\u2068", "").replace(
                "\u2069", ""), slips
            assert "Turn 2: you may make" in page.inner_text("#orders-heading")
        assert "list: Ann 5" not in ann.inner_text("main")  # nobody reads Cy's list
    finally:
        for page in (ann, bob, cy, gm):
            page.context.close()


@pytest.fixture(scope="module")
def axe_source() -> str:
    return load_axe()


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_player_pages_pass_axe_in_every_language(browser, base_url: str,  # noqa: F811
                                                     axe_source: str, lang: str) -> None:
    made = new_game(base_url)
    link = f"{base_url}/console/{made['id']}/p/{made['player_tokens']['Bob']}?lang={lang}"
    context = browser.new_context(bypass_csp=True, viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        page.goto(link)
        assert page.evaluate("document.documentElement.lang") == lang
        check_page(page, axe_source)
        no_sideways_scroll(page)
        page.fill("#g1", "x")
        page.click("button[value=guesses]")
        expect(page.locator("#orders-problems li")).to_have_count(1)
        check_page(page, axe_source)
        page.fill("#g1", "3")
        page.fill("#g2", "50")
        page.fill("#g3", "4")
        page.click("button[value=guesses]")
        expect(page.locator("#received li")).to_have_count(2)
        check_page(page, axe_source)
        no_sideways_scroll(page)
        api(base_url, f"/api/games/{made['id']}/turns/1/close", {}, made["gm_token"])
        page.fill("#g1", "6")
        page.click("button[value=guesses]")  # a form loaded before the close: 409
        check_page(page, axe_source)
        gm_login(page, base_url, made["id"], made["gm_token"])
        page.goto(f"{base_url}/console/{made['id']}/gm?lang={lang}")
        check_page(page, axe_source)
        page.click("#players form.actions:has(input[value=players]) button")
        expect(page.locator("dl.links dd")).to_have_count(len(PLAYERS))
        check_page(page, axe_source)
    finally:
        context.close()
