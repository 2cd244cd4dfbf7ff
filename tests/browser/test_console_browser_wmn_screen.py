"""What's My Number? on the big screen in Chromium (Playwright): a 7-player game, names in
several scripts, at 1920x1080 and on a 390 px phone: no sideways scrolling, the big grid's
marks at least 4 % of the screen's height on the big screen, and axe-core clean while the game
goes on and once it is won. The screenshots are kept in the test's folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.helpers import axe_source, check_page, require_browser
from test_console_browser import api, base_url, browser, open_page  # noqa: F401

pytestmark = pytest.mark.slow

require_browser()

SECRETS = {"Ann": 31, "Bob": 42, "Цой": 57, "ليلى": 64, "נועה": 18, "Olga Ivanovna": 7,
           "Eve": 50}
TURNS = [{"Ann": [42, 20], "Bob": [31, 9], "Цой": [18, 40], "ليلى": [7, 2],
          "נועה": {"list": {"Ann": 31, "Bob": 1, "Цой": 2, "ليلى": 3, "Olga Ivanovna": 4,
                           "Eve": 5}}, "Eve": [57, 64]}]
WON = {"Bob": {"list": {p: n for p, n in SECRETS.items() if p != "Bob"}}}

MEASURE = """() => {
  const marks = [...document.querySelectorAll('.big-grid .mark')];
  return {width: document.documentElement.scrollWidth, view: window.innerWidth,
          count: marks.length,
          font: Math.min(...marks.map(e => parseFloat(getComputedStyle(e).fontSize))),
          glyph: Math.min(...marks.map(e => e.getBoundingClientRect().height))};
}"""


def game(base: str, turns: list[dict]) -> dict:
    status, made = api(base, "/api/games", {"game": "whats-my-number",
                                            "players": list(SECRETS), "secrets": SECRETS,
                                            "range": "1-70", "title": "Friday"})
    assert status == 201, made
    for number, orders in enumerate(turns, 1):
        path = f"/api/games/{made['id']}/turns"
        assert api(base, path, {"orders": orders}, made["gm_token"])[0] == 201
        assert api(base, f"{path}/{number}/publish", {}, made["gm_token"])[0] == 200
    return made


@pytest.mark.parametrize("won", [False, True])
def test_the_big_grid_reads_from_the_back_of_the_room(browser, base_url: str,  # noqa: F811
                                                      won: bool, tmp_path: Path) -> None:
    made = game(base_url, [*TURNS, WON] if won else TURNS)
    axe = axe_source()
    for width, height, path in ((1920, 1080, "/standings"), (390, 844, ""),
                                (390, 844, "/standings")):
        page = open_page(browser, width, height, bypass_csp=True)  # axe is injected
        page.goto(f"{base_url}/console/{made['id']}{path}")
        while page.locator(".making").count():  # the public page reloads once its files are made
            page.wait_for_load_state("load")
            page.wait_for_timeout(500)
        page.evaluate("document.fonts.ready")
        page.wait_for_timeout(300)
        page.screenshot(path=str(tmp_path / f"wmn{path.replace('/', '-')}-{width}.png"),
                        full_page=True)
        seen = page.evaluate(MEASURE)
        assert seen["width"] <= seen["view"], (path, width, seen)
        assert seen["count"] == (0 if won else 10 * 7), seen  # a list row has no marks
        if width == 1920 and not won:
            assert seen["font"] >= 0.04 * height and seen["glyph"] >= 0.04 * height, seen
        assert page.locator(".podium .step").count() == (3 if won else 0)
        assert page.locator(".secret-list li").count() == (7 if won else 0)
        check_page(page, axe)
        page.context.close()
