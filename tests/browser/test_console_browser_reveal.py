"""Lowest Unique Number's reveal in Chromium (Playwright): a 36-player party at three tables on
the big screen at 1920x1080 and 1280x720 and on the public page at 390 px: no sideways
scrolling, every number and name of a reveal at least 4 % of the screen's height on the big
screen, and the podium once the party is over. The screenshots are kept in the test's folder.
On the big screen an event swaps in only the parts it changed: a correction to a table's
standings leaves its reveal, the very same node, on the screen.
Reveals entered at once take turns, each for its time (on Playwright's clock), the latest
staying; without a script they all show."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from support.helpers import require_browser
from test_console_browser import api, base_url, browser, open_page  # noqa: F401

pytestmark = pytest.mark.slow

require_browser()

from playwright.sync_api import expect  # noqa: E402

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


def enter(base: str, made: dict, table: int, number: int, path: str = "rounds") -> None:
    """Round ``number`` (from 0) at ``table`` (from 1), the picks turned as ``party`` turns
    them; ``path`` "rounds/N/amend" corrects round N with them instead."""
    picks = ROUND[number:] + ROUND[:number]
    status, answer = api(base, f"/api/games/{made['id']}/tables/{table}/{path}",
                         {"choices": dict(zip(TABLES[table - 1], picks, strict=True))},
                         made["gm_token"])
    assert status in (200, 201), answer


def screen_at_rest(browser, base: str, made: dict):  # noqa: F811
    """The big screen with its clock paused: its timers fire only as the test moves it."""
    page = open_page(browser, 1920, 1080)
    page.clock.install()
    page.goto(f"{base}/console/{made['id']}/standings")
    page.clock.pause_at(datetime.now(UTC) + timedelta(minutes=1))
    return page


def test_reveals_entered_at_once_take_turns_on_the_big_screen(browser, base_url: str  # noqa: F811
                                                              ) -> None:
    made = party(base_url, 3, [1, 1, 1])
    page = screen_at_rest(browser, base_url, made)
    first, second, third = (page.locator(f"#table-{t}-reveal") for t in (1, 2, 3))
    for reveal in (first, second, third):  # as the screen opens: every reveal
        expect(reveal).to_be_visible()
    enter(base_url, made, 1, 1)
    enter(base_url, made, 2, 1)
    expect(second).to_have_attribute("data-round", "2")
    expect(first).to_have_attribute("data-round", "2")
    expect(first).to_be_visible()
    expect(second).to_be_hidden()
    page.clock.fast_forward(7_000)
    expect(second).to_be_hidden()
    page.clock.fast_forward(1_500)  # table 1's turn is over: table 2's reveal
    expect(second).to_be_visible()
    expect(first).to_be_hidden()
    page.clock.fast_forward(60_000)  # nobody waits: the latest stays
    expect(second).to_be_visible()
    expect(first).to_be_hidden()
    expect(third).to_be_visible()  # round 1 at table 3, on the screen all along
    assert page.problems == []  # type: ignore[attr-defined]
    page.context.close()
    plain = open_page(browser, 1920, 1080, java_script_enabled=False)
    plain.goto(f"{base_url}/console/{made['id']}/standings")
    for t in (1, 2, 3):  # without a script: every reveal, one under another
        expect(plain.locator(f"#table-{t}-reveal")).to_be_visible()
    plain.context.close()


def test_a_change_to_the_standings_alone_keeps_the_reveal_on_the_screen(
        browser, base_url: str) -> None:  # noqa: F811
    made = party(base_url, 3, [2, 1, 1])
    page = screen_at_rest(browser, base_url, made)
    mark = """() => ['table-1-reveal', 'table-2-reveal', 'table-1-rows', 'table-1-timer']
      .forEach(id => { const e = document.getElementById(id); if (e) e.mark = id; })"""
    page.evaluate(mark)
    expect(page.locator("#table-1-rows .table-lead", has_text="Cy")).to_have_count(1)
    # round 1 of table 1 corrected: its standings change, its last round's reveal does not
    status, answer = api(base_url, f"/api/games/{made['id']}/tables/1/rounds/1/amend", {
        "choices": dict(zip(TABLES[0], [1, 1, 4, 3, 3, 8, 2, 5, 6, 7, 9, "pass"], strict=True))},
        made["gm_token"])
    assert status == 200, answer
    # Gus's 2 is now round 1's lowest single, where Cy's was
    expect(page.locator("#table-1-rows .table-lead", has_text="Gus")).to_have_count(1)
    expect(page.locator("#table-1-rows .table-lead", has_text="Cy")).to_have_count(0)
    marks = page.evaluate("""() => ['table-1-reveal', 'table-2-reveal', 'table-1-rows']
      .map(id => document.getElementById(id).mark || null)""")
    assert marks == ["table-1-reveal", "table-2-reveal", None]  # only the standings swapped
    # a timer started at table 2 later: table 1's parts stay, table 2's reveal too
    status, answer = api(base_url, f"/api/games/{made['id']}/tables/2/timer", {"seconds": 20},
                         made["gm_token"])
    assert status in (200, 201), answer
    expect(page.locator("#table-2-timer")).to_be_visible()
    marks = page.evaluate("""() => ['table-1-reveal', 'table-2-reveal']
      .map(id => document.getElementById(id).mark || null)""")
    assert marks == ["table-1-reveal", "table-2-reveal"]
    assert page.problems == []  # type: ignore[attr-defined]
    page.context.close()
