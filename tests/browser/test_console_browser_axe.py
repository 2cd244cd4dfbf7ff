"""axe-core over every console page in every language: the start page (also with problems),
the GM console (also with problems, and after a published turn), the amendment check, the host's
tables (also with a refused round), the public pages and the big-screen standings of both
games, and the refusal pages (403, 409). No serious or critical violation, ``lang`` set, every
table with header cells, every form control labelled (``helpers.check_page`` and below).

The pages allow one script by nonce; the browser context bypasses CSP so that axe can be
injected, and nothing else is changed.
"""

from __future__ import annotations

import re

import pytest
from support.helpers import axe_source as load_axe
from support.helpers import check_page, require_browser
from test_console_browser import api, base_url, browser, fill_grid, gm_login  # noqa: F401

pytestmark = pytest.mark.slow
require_browser()

from playwright.sync_api import Page, expect  # noqa: E402

from kit.i18n import LANGUAGES  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
WMN_PROBLEMS = 2  # the start page's problems with the names "Ann" and "ann"


@pytest.fixture(scope="module")
def axe_source() -> str:
    return load_axe()


@pytest.fixture(scope="module")
def games(base_url: str) -> dict[str, dict]:  # noqa: F811
    """A What's My Number? game with turn 1 published and an entry in turn 2; a party with
    rounds entered at two of its three tables."""
    status, wmn = api(base_url, "/api/games", {
        "game": "whats-my-number", "players": PLAYERS, "title": "Quiz <night>",
        "secrets": {"Ann": 5, "Bob": 12, "Cy": 20, "Dee": 27, "Eve": 33}, "range": "1-40"})
    assert status == 201, wmn
    token = wmn["gm_token"]
    orders = {"Ann": [12, 30], "Bob": [5, 21, 39], "Cy": {"list": {"Ann": 5, "Bob": 12}}}
    assert api(base_url, f"/api/games/{wmn['id']}/turns", {"orders": orders}, token)[0] == 201
    assert api(base_url, f"/api/games/{wmn['id']}/turns/1/publish", {}, token)[0] == 200
    assert api(base_url, f"/api/games/{wmn['id']}/turns", {"orders": {"Dee": [3, 4]}},
               token)[0] == 201
    tables = [["Ann", "Bob", "Cy", "Dee"], ["Eve", "Fay", "Gus"], ["Hal", "Ida", "Jo", "Kim"]]
    status, lun = api(base_url, "/api/games", {"game": "lowest-unique", "tables": tables,
                                               "rounds": 3})
    assert status == 201, lun
    for table, choices in ((1, {"Ann": 3, "Bob": 1, "Cy": 1, "Dee": "pass"}),
                           (2, {"Eve": 2, "Fay": 2, "Gus": 2}), (1, {"Ann": 1, "Bob": 2,
                                                                     "Cy": 3, "Dee": 4})):
        assert api(base_url, f"/api/games/{lun['id']}/tables/{table}/rounds",
                   {"choices": choices}, lun["gm_token"])[0] == 201
    return {"wmn": wmn, "lun": lun}


@pytest.fixture
def page(browser):  # noqa: F811
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


def checked(page: Page, axe: str) -> None:
    """axe and the helpers' checks, plus: one h1, every control labelled, no image without
    alt text; on the page once loaded (its scripts run)."""
    page.wait_for_load_state("load")
    check_page(page, axe)
    assert page.locator("h1").count() == 1, page.url
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, select, textarea')]
        .filter(el => el.type !== 'hidden' && el.labels.length === 0).map(el => el.name)""")
    assert unlabelled == [], page.url


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_console_page_in_every_language(page: Page, axe_source: str, base_url: str,  # noqa: F811
                                              games: dict, lang: str):
    q = f"?lang={lang}"
    wmn, lun = games["wmn"], games["lun"]
    visited = []

    def visit(path: str) -> None:
        page.goto(base_url + path)
        assert page.evaluate("document.documentElement.lang") == lang
        checked(page, axe_source)
        visited.append(path)

    visit("/console" + q)
    page.fill("#wmn-names", "Ann\nann")
    page.fill("#lun-rounds", "x")
    page.click("section[aria-labelledby=wmn] button[type=submit]")
    # the answer's own elements, waited for (the page before it has none)
    expect(page.locator("#wmn-problems li")).to_have_count(WMN_PROBLEMS)
    checked(page, axe_source)

    for game in (wmn, lun):
        visit(f"/console/{game['id']}{q}")
        visit(f"/console/{game['id']}/standings{q}")
    visit(f"/console/{wmn['id']}/gm{q}")  # no cookie yet: the 403 page

    page.goto(f"{base_url}/console/{wmn['id']}/gm/{wmn['gm_token']}{q}")
    assert page.url.endswith(f"/gm{q}")
    checked(page, axe_source)
    page.fill("#g0_1", "x")
    page.check("#t1")
    page.click("#grid form button[type=submit], form[data-grid] button[type=submit]")
    expect(page.locator("#grid-problems li")).to_have_count(2)
    checked(page, axe_source)
    visit(f"/console/{wmn['id']}/gm?amend=1&lang={lang}")
    page.fill("#g0_1", "13")
    page.click("form[data-grid] button[type=submit]")
    expect(page.locator("#changes")).to_have_count(1)
    checked(page, axe_source)

    stale = page.context.new_page()  # a form made stale by the other window's entry
    stale.goto(f"{base_url}/console/{wmn['id']}/gm{q}")
    page.goto(f"{base_url}/console/{wmn['id']}/gm{q}")
    fill_grid(stale, {"Ann": [1, 2]}, PLAYERS)  # typed first: held, not swapped live
    fill_grid(page, {"Eve": [7 + list(LANGUAGES).index(lang), 8]}, PLAYERS)  # a change
    page.click("form[data-grid] button[type=submit]")
    page.wait_for_url(re.compile("saved=1"))
    with stale.expect_response(re.compile("/gm/turn")) as info:
        stale.click("form[data-grid] button[type=submit]")
    assert info.value.status == 409
    stale.wait_for_url(re.compile("/gm/turn"))  # the 409 page itself, loaded
    checked(stale, axe_source)
    stale.close()

    page.goto(f"{base_url}/console/{lun['id']}/gm/{lun['gm_token']}{q}")
    checked(page, axe_source)
    expect(page.locator("#table-1 .tally")).to_have_count(1)
    page.fill("#t3-c0", "x")
    page.click("#table-3 form[data-grid] button[type=submit]")
    expect(page.locator("#table-3-problems li")).to_have_count(4)
    checked(page, axe_source)
    assert len(visited) == 7
