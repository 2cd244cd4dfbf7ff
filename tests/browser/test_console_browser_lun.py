"""Lowest Unique Number's tables in Chromium (Playwright): the host corrects one table's earlier
round on its own page (its tally read back, the standings counted again, the other tables'
rounds untouched), at 1280x800."""

from __future__ import annotations

import re
import tomllib

import pytest
from support.helpers import require_browser
from test_console_browser import api, base_url, browser, gm_login, open_page  # noqa: F401

pytestmark = pytest.mark.slow

require_browser()

from playwright.sync_api import expect  # noqa: E402

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
    page.click("form[data-grid] button[type=submit]")
    assert page.locator("#table-3-problems li").all_inner_texts() == [
        "Kim: 5O is not a whole number."]
    assert page.locator("h1").inner_text() == "Correct table 3, round 2"
    page.fill("#t3-c1", "5")
    page.focus("#t3-c1")
    page.keyboard.press("Enter")  # Enter moves on, as on the round form
    assert page.evaluate("document.activeElement.id") != "t3-c1"
    page.click("form[data-grid] button[type=submit]")
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
    page.click("form[data-grid] button[type=submit]")
    page.wait_for_url(re.compile(r"amended=2-1"))
    assert "Eve wins with 1" in page.locator("#table-2 .tally").inner_text()
    final = rounds_of(base_url, party)
    assert next(r for r in final if (r["table"], r["round"]) == (3, 2))["choices"]["Kim"] == 5
    assert next(r for r in final if (r["table"], r["round"]) == (2, 1))["choices"]["Ivy"] == \
        "pass"
    assert page.problems == []  # type: ignore[attr-defined]
    page.context.close()


# --- the big screen -----------------------------------------------------------------------------

GUESTS = ["Alexandra", "Bartholomew", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo",
          "Kim", "Lee", "Max", "Ned", "Olga", "Pat", "Quinn", "Rosalind", "Sam", "Tom", "Uma",
          "Vic", "Wen", "Maximiliane-Charlotte", "Yara"]


@pytest.fixture(scope="module")
def screen_party(base_url: str) -> dict:  # noqa: F811
    """25 guests seated 9, 8 and 8; two rounds at table 1, one at table 2, none at table 3."""
    status, made = api(base_url, "/api/games", {"game": "lowest-unique", "players": GUESTS})
    assert status == 201, made
    status, public = api(base_url, f"/api/games/{made['id']}/public.json")
    tables = [t["players"] for t in public["tables"]]
    assert [len(t) for t in tables] == [9, 8, 8]
    for table, winner in ((1, 3), (1, 4), (2, 2)):  # the winner: the only one to write 1
        names = tables[table - 1]
        choices = {name: 1 if k == winner else 2 + k // 2 for k, name in enumerate(names)}
        status, answer = api(base_url, f"/api/games/{made['id']}/tables/{table}/rounds",
                             {"choices": choices}, made["gm_token"])
        assert status == 201 and answer["tally"]["winner"] == names[winner], answer
    return {**made, "tables": tables}


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800)], ids=["1920x1080", "1280x800"])
def test_the_big_screen_fills_its_height_and_marks_each_tables_leader(
        browser, base_url: str, screen_party: dict, size: tuple[int, int]):  # noqa: F811
    width, height = size
    page = open_page(browser, width, height)
    page.goto(f"{base_url}/console/{screen_party['id']}/standings")
    # the script sized the text (a style set by script, which the page's policy allows)
    expect(page.locator("body")).to_have_attribute("style", re.compile("font-size"))
    for name in GUESTS:
        cell = page.locator(".board th[scope=row]", has_text=re.compile(rf"^{name}$"))
        assert cell.count() == 1, name
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (name, box)
        assert cell.evaluate("e => e.scrollWidth <= e.clientWidth"), name  # not cut
        lines = cell.evaluate("e => Math.round(e.getBoundingClientRect().height / "
                              "parseFloat(getComputedStyle(e).lineHeight))")
        assert lines == 1, name  # on one line
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    size_px = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size_px > height * 0.031, size_px  # above what the stylesheet alone gives (3.1vh)
    # as large as fits: a tenth larger and the screen overflows
    larger = page.evaluate(f"""() => {{ document.body.style.fontSize = '{size_px * 1.1}px';
        const root = document.documentElement;
        return root.scrollHeight > innerHeight || root.scrollWidth > innerWidth ||
            [...document.querySelectorAll('.board')].some(b => b.scrollWidth > b.clientWidth);
        }}""")
    assert larger is True
    page.evaluate(f"document.body.style.fontSize = '{size_px}px'")
    # each table's leader: table 1's Dee and Eve (one round each), table 2's Ned; none at 3
    marked = {}
    for board in range(1, 4):
        rows = page.locator(f"#board-{board} ~ table tbody tr.table-lead")
        marked[board] = rows.locator("th").all_inner_texts()
        for k in range(rows.count()):
            star = rows.nth(k).locator("th").evaluate(
                "e => getComputedStyle(e, '::after').content")
            assert "★" in star, star
            assert rows.nth(k).locator("td").first.inner_text().startswith("1")
            assert f"(leads table {board})" in rows.nth(k).locator("td").first.text_content()
    tables = screen_party["tables"]
    assert marked == {1: [tables[0][3], tables[0][4]], 2: [tables[1][2]], 3: []}
    plain = page.locator(".board tbody tr:not(.table-lead) th").first
    assert plain.evaluate("e => getComputedStyle(e, '::after').content") in ("none", "normal")
    assert page.problems == []  # type: ignore[attr-defined]
    page.context.close()


# --- a scorer at each table ---------------------------------------------------------------------

def test_scorers_links_printed_with_qr_codes_and_a_scorers_phone(browser, base_url: str):  # noqa: F811
    import io

    from PIL import Image

    zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp is not installed: pip "
                                   "install '.[test]'")
    party = new_party(base_url, [(2, {"Eve": 1, "Fay": 2, "Gus": 2, "Hal": 4, "Ivy": 5})])
    host = open_page(browser, 1280, 800, device_scale_factor=2)
    gm_login(host, base_url, party["id"], party["gm_token"])
    host.get_by_role("button", name="Make a link for each table").click()
    host.wait_for_url(re.compile(r"/gm/links"))
    cards = host.locator(".link-card")
    assert cards.locator("h2").all_inner_texts() == ["Table 1", "Table 2", "Table 3"]
    links = cards.locator(".link-text a").all_inner_texts()
    assert all(f"/console/{party['id']}/t/" in link for link in links)
    assert not set(links) & set(party["table_links"].values())  # new links
    read = []
    for k in range(3):
        shot = cards.nth(k).locator(".qr-box").screenshot()
        image = Image.open(io.BytesIO(shot)).convert("L")
        read += [r.text for r in zxingcpp.read_barcodes(
            image, formats=zxingcpp.BarcodeFormat.QRCode)]
    assert read == links  # each card's code reads back as its own link
    status, _ = api(base_url, f"/api/games/{party['id']}/tables/2/rounds",
                    {"choices": {"Eve": 1}}, party["table_tokens"]["2"])
    assert status == 403  # the links made at the start stopped working
    # table 2's scorer, on a phone
    phone = open_page(browser, 390, 844, is_mobile=True, has_touch=True)
    phone.goto(links[1])
    assert phone.locator("h1").inner_text() == "Table 2"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.locator(".choice > label").all_inner_texts() == TABLES[1]
    assert phone.locator("#table-2 legend").inner_text() == "Round 2"
    assert "Eve wins with 1" in phone.locator(".tally").inner_text()
    for k, value in enumerate(["3", "3", "", "2", "6"]):
        if value:
            phone.fill(f"#t2-c{k}", value)
    phone.check("#t2-p2")  # Gus passes
    phone.get_by_role("button", name="Save round 2").click()
    phone.wait_for_url(re.compile(r"round=2"))
    assert "Round 2 tally: read it back" in phone.locator("#table-2").inner_text()
    shown = dict(zip(phone.locator(".tally dt").all_inner_texts(),
                     phone.locator(".tally dd").all_inner_texts(), strict=True))
    assert shown == {"Sorted choices": "2, 3, 3, 6 (1 pass)", "Cancelled": "3",
                     "Singles": "2, 6", "Result": "Hal wins with 2"}
    assert phone.locator("#table-2 legend").inner_text() == "Round 3"
    for box in ("#t2-c0", "#t2-p2", "form[data-grid] button[type=submit]"):
        size = phone.locator(box).bounding_box()
        assert size["x"] + size["width"] <= 390 and size["height"] >= 24, box  # tap targets
    # the scorer corrects the table's last round: Ivy wrote 7, not 6
    phone.get_by_role("link", name="Correct round 2").click()
    assert phone.locator("h1").inner_text() == "Correct table 2, round 2"
    phone.fill("#t2-c4", "7")
    phone.get_by_role("button", name="Save the correction of round 2").click()
    phone.wait_for_url(re.compile(r"amended=2-2"))
    assert "Round 2 corrected: read its tally back" in phone.locator("#table-2").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # the host sees it, and so does the big screen
    host.goto(f"{base_url}/console/{party['id']}/gm")
    assert "Hal wins with 2" in host.locator("#table-2 .tally").inner_text()
    assert host.locator("#table-2 legend").inner_text() == "Round 3"
    assert host.locator("#table-1 legend").inner_text() == "Round 1"  # untouched
    screen = open_page(browser, 1920, 1080)
    screen.goto(f"{base_url}/console/{party['id']}/standings")
    assert "2 rounds" in screen.locator("#board-2").inner_text()
    lead = screen.locator("#board-2 ~ table tbody tr.table-lead th").all_inner_texts()
    assert sorted(lead) == ["Eve", "Hal"]  # a round each
    rounds = [r for r in rounds_of(base_url, party) if r["table"] == 2]
    assert rounds[1]["choices"] == {"Eve": 3, "Fay": 3, "Gus": "pass", "Hal": 2, "Ivy": 7}
    for page in (host, phone, screen):
        assert page.problems == []  # type: ignore[attr-defined]
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "de", "es", "ru"])
def test_the_new_pages_pass_axe_in_every_language(browser, base_url: str, lang: str):  # noqa: F811
    from support.helpers import axe_source, check_page

    party = new_party(base_url, [(1, {"Ann": 1, "Bob": 2, "Cy": 2, "Dee": "pass"})])
    context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    source = axe_source()
    q = f"?lang={lang}"
    try:
        gm_login(page, base_url, party["id"], party["gm_token"])
        pages = [f"/console/{party['id']}/gm{q}", f"/console/{party['id']}/gm{q}&amend=1-1",
                 party["table_links"]["3"][party["table_links"]["3"].index("/console/"):] + q,
                 f"/console/{party['id']}/standings{q}"]
        scorer = party["table_links"]["1"]
        pages.append(scorer[scorer.index("/console/"):] + f"{q}&amend=1-1")
        for path in pages:
            page.goto(base_url + path)
            page.wait_for_load_state("load")
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.locator("h1").count() == 1, path
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
            check_page(page, source)
        page.goto(f"{base_url}/console/{party['id']}/gm{q}")
        page.locator("form:has(input[name=seat][value=tables]) button").click()
        page.wait_for_url(re.compile(r"/gm/links"))
        assert page.locator(".link-card").count() == 3
        check_page(page, source)
        # an error page of a scorer's form: its problems beside the boxes, in the language
        link = page.locator(".link-text a").nth(1).inner_text()
        page.goto(base_url + link[link.index("/console/"):] + q)
        page.fill("#t2-c0", "x")
        page.locator("form[data-grid] button[type=submit]").click()
        expect(page.locator("#table-2-problems li")).to_have_count(5)  # Eve's x, four empty boxes
        check_page(page, source)
    finally:
        context.close()
