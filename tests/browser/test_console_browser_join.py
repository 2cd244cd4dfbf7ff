"""Joining by room code in Chromium: a phone (390x844, touch) types the code the host's page
shows, picks its name, waits; the host taps Admit; the phone lands on its player's own page,
and the same link opened again is that player again. A guessed code is a 404 page."""

from __future__ import annotations

import re

import pytest
from support.helpers import require_browser
from test_console_browser import (  # noqa: F401
    api,
    base_url,
    browser,
    gm_login,
    open_page,
)

pytestmark = pytest.mark.slow
require_browser()

from playwright.sync_api import expect  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def test_a_phone_joins_by_code_and_the_host_admits_it(base_url, browser):  # noqa: F811
    status, game = api(base_url, "/api/games", {"game": "whats-my-number",
                                                "players": PLAYERS, "range": "1-30"})
    assert status == 201, game
    host = open_page(browser)
    gm_login(host, base_url, game["id"], game["gm_token"])
    code = host.inner_text(".join-code strong")
    assert re.fullmatch(r"[A-Z]{5}", code)
    assert host.locator(".qr-join svg").count() == 1
    phone = open_page(browser, 390, 844, has_touch=True, is_mobile=True)
    phone.goto(f"{base_url}/join")
    phone.tap("#code")
    phone.fill("#code", code.lower())
    phone.tap("button[type=submit]")
    phone.tap("text=Ann")
    phone.tap("button[type=submit]")
    expect(phone.locator("h1")).to_have_text("Waiting for the host")
    host.reload()
    expect(host.locator(".join-requests")).to_contain_text("Ann wants to join")
    host.click("button[name=admit]")
    expect(host.locator(".join-desk")).to_contain_text("Joined: Ann")
    phone.reload()  # what the page's own refresh does
    phone.wait_for_url(re.compile(rf"/console/{game['id']}/p/"))
    assert phone.url == game["player_links"]["Ann"]
    expect(phone.locator("main")).to_contain_text("Ann")
    again = open_page(browser, 390, 844, has_touch=True, is_mobile=True)
    again.goto(game["player_links"]["Ann"])  # another phone with the link: Ann again
    expect(again.locator("main")).to_contain_text("Ann")
    guessed = again.goto(f"{base_url}/join/{'A' * 5 if code != 'AAAAA' else 'CCCCC'}")
    assert guessed is not None and guessed.status == 404
    assert [p for page in (host, phone, again) for p in page.problems
            if "404" not in p] == []
