"""Lowest Unique Number's tables in Chromium (Playwright): the host corrects one table's earlier
round on its own page (its tally read back, the standings counted again, the other tables'
rounds untouched), at 1280x800."""

from __future__ import annotations

import re
import tomllib

import pytest
from helpers import require_browser
from test_console_browser import api, base_url, browser, gm_login, open_page  # noqa: F401

pytestmark = pytest.mark.slow

require_browser()

TABLES = [["Ann", "Bob", "Cy", "Dee"], ["Eve", "Fay", "Gus", "Hal", "Ivy"],
          ["Jo", "Kim", "Lee", "Max"]]


def new_party(base: str, rounds: list[tuple[int, dict]]) -> dict:
    status, made = api(base, "/api/games", {"game": "lowest-unique", "tables": TABLES,
                                            "rounds": 5})
    assert status == 201, made
    for table, choices in rounds:
        status, answer = api(base, f"/api/games/{made['id']}/tables/{table}/rounds",
                             {"choices": choices}, made["gm_token"])
        assert status == 201, answer
    return made


def rounds_of(base: str, party: dict) -> list[dict]:
    status, text = api(base, f"/api/games/{party['id']}/log.toml", token=party["gm_token"])
    assert status == 200
    return tomllib.loads(text)["round"]


def test_the_host_corrects_an_earlier_round_of_one_table(browser, base_url: str):  # noqa: F811
    party = new_party(base_url, [
        (2, {"Eve": 1, "Fay": 2, "Gus": 2, "Hal": 4, "Ivy": 1}),
        (2, {"Eve": 3, "Fay": 3, "Gus": 1, "Hal": 5, "Ivy": "pass"}),  # Kim's table: round 2
        (3, {"Jo": 1, "Kim": 2, "Lee": 2, "Max": 3}),
        (3, {"Jo": 4, "Kim": 4, "Lee": 6, "Max": 7}),  # Lee wins with 6
        (3, {"Jo": 1, "Kim": 1, "Lee": 3, "Max": 3}),
    ])
    before = rounds_of(base_url, party)
    _, public = api(base_url, f"/api/games/{party['id']}/public.json")
    points = {s["player"]: s["points"] for s in public["standings"]}
    page = open_page(browser)
    gm_login(page, base_url, party["id"], party["gm_token"])
    # table 3's round 2 was mistyped: Kim wrote 5, not 4
    page.get_by_role("link", name="Correct table 3, round 2").click()
    assert page.locator("h1").inner_text() == "Correct table 3, round 2"
    assert [page.input_value(f"#t3-c{k}") for k in range(4)] == ["4", "4", "6", "7"]
    assert "Lee wins with 6" in page.locator(".tally").inner_text()
    page.fill("#t3-c1", "5O")  # a typo first: said beside its box, nothing saved
    page.click("button[type=submit]")
    assert page.locator("#table-3-problems li").all_inner_texts() == [
        "Kim: 5O is not a whole number."]
    assert page.locator("h1").inner_text() == "Correct table 3, round 2"
    page.fill("#t3-c1", "5")
    page.focus("#t3-c1")
    page.keyboard.press("Enter")  # Enter moves on, as on the round form
    assert page.evaluate("document.activeElement.id") != "t3-c1"
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"amended=3-2#table-3"))
    assert "Table 3, round 2 corrected" in page.locator("[role=status]").inner_text()
    card = page.locator("#table-3")
    assert "Round 2 corrected: read its tally back" in card.inner_text()
    shown = dict(zip(card.locator(".tally dt").all_inner_texts(),
                     card.locator(".tally dd").all_inner_texts(), strict=True))
    assert shown == {"Sorted choices": "4, 5, 6, 7", "Cancelled": "—",
                     "Singles": "4, 5, 6, 7", "Result": "Jo wins with 4"}
    after = rounds_of(base_url, party)
    assert [r for r in after if (r["table"], r["round"]) != (3, 2)] == \
        [r for r in before if (r["table"], r["round"]) != (3, 2)]
    assert next(r for r in after if (r["table"], r["round"]) == (3, 2))["choices"]["Kim"] == 5
    # the next round is still round 4, and the standings are those of the corrected rounds
    assert card.locator("legend").inner_text() == "Round 4"
    status, public = api(base_url, f"/api/games/{party['id']}/public.json")
    assert {s["player"]: s["points"] for s in public["standings"]} == {
        **points, "Lee": points["Lee"] - 1, "Jo": points["Jo"] + 1}
    rows = page.locator("#standings-heading ~ table tbody tr")
    assert rows.count() == len(public["standings"])
    for k, s in enumerate(public["standings"]):
        assert rows.nth(k).locator("th").inner_text() == s["player"]
        assert rows.nth(k).locator("td").last.inner_text() == str(s["points"])
    # a round of table 2 corrected afterwards leaves table 3's correction in place
    page.get_by_role("link", name="Correct table 2, round 1").click()
    page.fill("#t2-c4", "")
    page.check("#t2-p4")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"amended=2-1"))
    assert "Eve wins with 1" in page.locator("#table-2 .tally").inner_text()
    final = rounds_of(base_url, party)
    assert next(r for r in final if (r["table"], r["round"]) == (3, 2))["choices"]["Kim"] == 5
    assert next(r for r in final if (r["table"], r["round"]) == (2, 1))["choices"]["Ivy"] == \
        "pass"
    assert page.problems == []  # type: ignore[attr-defined]
    page.context.close()
