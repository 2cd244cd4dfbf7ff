"""Lowest Unique Number's reveal in Chromium (Playwright): a 36-player party at three tables on
the big screen at 1920x1080 and 1280x720 and on the public page at 390 px: no sideways
scrolling, every number and name of a reveal at least 4 % of the screen's height on the big
screen, and the podium once the party is over. The screenshots are kept in the test's folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.helpers import require_browser
from test_console_browser import api, base_url, browser, open_page  # noqa: F401

pytestmark = pytest.mark.slow

require_browser()

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lee",
         "Max", "Ned", "Olga Ivanovna Petrova", "Pia", "Quin", "Rex", "Sam", "Tia", "Uma",
         "Vic", "Wes", "Xia", "Yan", "Zoe", "Амир", "Бея", "ليلى", "נועה", "Cai", "Dov", "Eli",
         "Flo", "Gil", "Hugo"]
TABLES = [NAMES[0:12], NAMES[12:24], NAMES[24:36]]
ROUND = [1, 1, 2, 3, 3, 8, 4, 5, 6, 7, 9, "pass"]  # the rules' example, and more singles

MEASURE = """() => {
  const shown = [...document.querySelectorAll('.reveal .n, .reveal .who')];
  return {width: document.documentElement.scrollWidth, view: window.innerWidth,
          height: window.innerHeight, count: shown.length,
          least: Math.min(...shown.map(e => e.getBoundingClientRect().height)),
          font: Math.min(...shown.map(e => parseFloat(getComputedStyle(e).fontSize)))};
}"""


def party(base: str, rounds: int, played: list[int]) -> dict:
    """The party with ``played[t]`` rounds entered at table t + 1, each the same picks
    turned so that a different player scores."""
    status, made = api(base, "/api/games", {"game": "lowest-unique", "tables": TABLES,
                                            "rounds": rounds, "title": "Friday"})
    assert status == 201, made
    for number in range(max(played)):
        for t, names in enumerate(TABLES):
            if number < played[t]:
                picks = ROUND[number:] + ROUND[:number]
                status, answer = api(base, f"/api/games/{made['id']}/tables/{t + 1}/rounds",
                                     {"choices": dict(zip(names, picks, strict=True))},
                                     made["gm_token"])
                assert status == 201, answer
    return made


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_big_screen_reveal_reads_from_the_back_of_the_room(browser, base_url: str,  # noqa: F811
                                                               size: tuple[int, int],
                                                               tmp_path: Path) -> None:
    made = party(base_url, 5, [5, 5, 4])
    page = open_page(browser, *size)
    page.goto(f"{base_url}/console/{made['id']}/standings")
    page.evaluate("document.fonts.ready")
    page.wait_for_timeout(300)  # the script sizes the standings once the fonts are in
    page.screenshot(path=str(tmp_path / f"standings-{size[0]}.png"))
    seen = page.evaluate(MEASURE)
    assert seen["width"] <= seen["view"], seen
    # per table: 9 numbers, the names of the 7 singles and of the pass
    assert seen["count"] == 3 * (9 + 7 + 1), seen
    assert seen["font"] >= 0.04 * size[1] and seen["least"] >= 0.04 * size[1], seen
    assert page.locator(".reveal").count() == 3
    assert page.locator(".podium").count() == 0


def test_the_podium_and_the_reveal_fit_a_phone(browser, base_url: str,  # noqa: F811
                                               tmp_path: Path) -> None:
    made = party(base_url, 2, [2, 2, 2])
    page = open_page(browser, 390, 844, is_mobile=True, has_touch=True)
    for path in ("", "/standings"):
        page.goto(f"{base_url}/console/{made['id']}{path}")
        page.screenshot(path=str(tmp_path / f"phone{path.replace('/', '-')}.png"),
                        full_page=True)
        seen = page.evaluate(MEASURE)
        assert seen["width"] <= 390, (path, seen)
        assert page.locator(".reveal").count() == 3
        assert page.locator(".podium .step").count() >= 1
    screen = open_page(browser, 1920, 1080)
    screen.goto(f"{base_url}/console/{made['id']}/standings")
    screen.wait_for_timeout(300)
    screen.screenshot(path=str(tmp_path / "podium-1920.png"))
    assert screen.evaluate(MEASURE)["width"] <= 1920
