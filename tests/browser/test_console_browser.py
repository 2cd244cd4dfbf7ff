"""The game-night console's pages in Debian's Chromium (Playwright), against ``kit serve``'s app.

A 7-player, 4-turn What's My Number? game (the shared log ``tests/data/wmn-7p-4t.toml``) is
played through the pages, turn 2 by keyboard only; every published report on the GM page and
the public page is compared with the engine's. A 3-table Lowest Unique Number party is entered
table by table in the log's own order (tables at different rounds), each tally compared with the
rules'. Then: the big screen (36 names at 1920x1080, body text >= 28 px, updated without a
reload after an entry, refreshing itself without script), the phone viewport, CSRF and
cross-site refusals, an amendment with its confirm step, a stale form's 409, and a scan of every
public page, file and JSON for secrets, unpublished entries and the GM token.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from support.helpers import ROOT, require_browser, served

pytestmark = pytest.mark.slow

require_browser()

from playwright.sync_api import Page, expect  # noqa: E402

from kit.cache import RenderCache  # noqa: E402
from kit.console.service import open_console  # noqa: E402
from kit.games.lowest_unique.rules import tally  # noqa: E402
from kit.games.whats_my_number.report.reports import row_label  # noqa: E402
from kit.games.whats_my_number.report.turn_notes import list_text  # noqa: E402
from kit.games.whats_my_number.rules.engine import play  # noqa: E402
from kit.games.whats_my_number.rules.logfile import parse_game_log  # noqa: E402
from kit.games.whats_my_number.sheets.people import answer  # noqa: E402
from kit.i18n import words  # noqa: E402
from kit.serve.app import create_app  # noqa: E402

DATA = ROOT / "tests" / "data"
WMN_LOG = tomllib.loads((DATA / "wmn-7p-4t.toml").read_text(encoding="utf-8"))
LUN_LOG = tomllib.loads((DATA / "lun-three-tables.toml").read_text(encoding="utf-8"))
NAMES_36 = ["Alexandra", "Bartholomew", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo",
            "Kim", "Lee", "Max", "Ned", "Olga", "Pat", "Quinn", "Rosalind", "Sam", "Tom", "Uma",
            "Vic", "Wen", "Xavier", "Yara", "Zoe", "Abe", "Bea", "Cal", "Dot", "Eli", "Flo",
            "Gil", "Hana", "Ivo", "Jan"]
EXPECTED_STATUS = ("status of 422", "status of 409", "status of 403")  # refusals we provoke


# --- the server, the browser, API calls ---------------------------------------------------------

@pytest.fixture(scope="module")
def base_url(render_cache, tmp_path_factory):
    folder = tmp_path_factory.mktemp("console")
    console = open_console(str(folder / "console.db"), folder / "files")
    app = create_app(executor="thread", workers=1, queue=2, prewarm=False,
                     games=["lowest-unique"], players=[4], papers=["a4"],
                     store=RenderCache(render_cache), console=console)
    with served(app) as url:
        yield url
    console.close()


@pytest.fixture(scope="module")
def browser(chromium_printer):
    """The session's one Chromium (two sync Playwrights cannot run in one process)."""
    return chromium_printer.browser


def open_page(browser, width: int = 1280, height: int = 800, **options: Any) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    page = context.new_page()
    page.set_default_timeout(60_000)
    problems: list[str] = []

    def console(message) -> None:
        if message.type == "error" and not any(s in message.text for s in EXPECTED_STATUS):
            problems.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.problems = problems  # type: ignore[attr-defined]
    return page


@pytest.fixture
def page(browser):
    page = open_page(browser)
    yield page
    problems = page.problems  # type: ignore[attr-defined]
    page.context.close()
    assert problems == [], problems  # no CSP violation, missing file or script error


def api(base: str, path: str, body: object | None = None, token: str = "",
        method: str | None = None) -> tuple[int, Any]:
    """A JSON API call (urllib: no browser, no cookie)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method or (
        "POST" if data is not None else "GET"))
    if data is not None:
        request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request) as response:
            raw = response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        raw, status = error.read(), error.code
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode("utf-8", "replace")


def post_form(base: str, path: str, fields: Mapping[str, str], headers: Mapping[str, str]
              ) -> int:
    """A urlencoded post without following redirects; its status."""
    from urllib.parse import urlencode

    request = urllib.request.Request(base + path, data=urlencode(fields).encode(),
                                     method="POST", headers={
                                         "content-type": "application/x-www-form-urlencoded",
                                         **headers})

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(request) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def gm_login(page: Page, base: str, game_id: str, token: str) -> None:
    page.goto(f"{base}/console/{game_id}/gm/{token}")
    assert page.url.endswith(f"/console/{game_id}/gm"), page.url
    assert token not in page.url


# --- driving the pages --------------------------------------------------------------------------

def start_wmn(page: Page, base: str, log: Mapping[str, Any]) -> str:
    """The start page's What's My Number? form, secrets typed; returns the game id."""
    page.goto(base + "/console")
    page.fill("#wmn-names", "\n".join(log["players"]))
    page.fill("#wmn-range", log["range"])
    page.check("#wmn-draw-typed")
    page.fill("#wmn-secrets", "\n".join(f"{k} = {v}" for k, v in log["secrets"].items()))
    page.fill("#wmn-title", log.get("title", ""))
    page.click("section[aria-labelledby=wmn] button[type=submit]")
    found = re.search(r"/console/([^/]+)/gm\?new=1$", page.url)
    assert found, page.url
    assert "Keep the game master link" in page.inner_text("main")
    return found[1]


def fill_grid(page: Page, orders: Mapping[str, Any], players: Sequence[str]) -> None:
    """Type a turn's orders into the grid with the mouse and keyboard mixed (fill/check)."""
    for i, name in enumerate(players):
        order = orders.get(name)
        if isinstance(order, Mapping):
            page.check(f"#t{i}")
            for j, other in enumerate(players):
                if other in order["list"]:
                    page.fill(f"#l{i}_{j}", str(order["list"][other]))
        elif order:
            for k, number in enumerate(order, start=1):
                page.fill(f"#g{i}_{k}", str(number))


def keyboard_grid(page: Page, orders: Mapping[str, Any], players: Sequence[str]) -> int:
    """The same by keyboard only, from the box that has the focus when the page opens (the
    first row still missing): type, Enter to move on; Enter on an empty box goes to the next
    row; a list: Tab to its toggle, Space, Enter, its numbers, Enter after the last goes on;
    Enter on the last row reaches Save, Enter saves. Returns the keys pressed besides digits."""
    keys = 0

    def press(key: str) -> None:
        nonlocal keys
        keys += 1
        page.keyboard.press(key)

    def focused() -> str:
        return page.evaluate("document.activeElement.id")

    assert focused() == "g0_1"  # the page opens on the grid: no Tab to reach it
    for i, name in enumerate(players):
        order = orders.get(name)
        boxes = page.locator(f"#row-{i} .guess-boxes input").count()
        assert focused() == f"g{i}_1", name
        if isinstance(order, Mapping):
            for _ in range(boxes):
                press("Tab")
            assert focused() == f"t{i}"
            press("Space")
            press("Enter")
            for j, other in enumerate(players):
                if j == i:
                    continue
                assert focused() == f"l{i}_{j}"
                if other in order["list"]:
                    page.keyboard.type(str(order["list"][other]))
                press("Enter")
            continue
        guesses = order or []
        for k, number in enumerate(guesses, start=1):
            assert focused() == f"g{i}_{k}"
            page.keyboard.type(str(number))
            press("Enter")
        if len(guesses) < boxes:
            press("Enter")  # on the empty box after the last guess: the next row
        else:
            assert focused() == f"t{i}"
            press("Enter")
            press("Enter")
    assert page.evaluate("document.activeElement.textContent") == "Save entries"
    press("Enter")
    page.wait_for_url(re.compile(r"saved=1"))
    return keys


def press_button_by_keyboard(page: Page, text: str) -> None:
    for _ in range(200):
        if page.evaluate("document.activeElement.textContent.trim()") == text:
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == text
    page.keyboard.press("Enter")


def table_cells(page: Page, selector: str) -> list[list[str]]:
    return page.evaluate("""sel => [...document.querySelector(sel).tBodies[0].rows]
        .map(r => [...r.cells].map(c => c.textContent.trim()))""", selector)


def engine_rows(log: Mapping[str, Any], turns: int, *, numbers: bool) -> list[list[str]]:
    """The engine's report of turn ``turns`` as table rows (label[, number], answers)."""
    data = {k: v for k, v in log.items() if k not in ("published", "title")}
    data["turn"] = log["turn"][:turns]
    result = play(parse_game_log(data))
    w = words("en")
    rows = []
    for row in result.turns[turns - 1].rows:  # in the printed report's words
        if hasattr(row, "cells"):
            rows.append([row_label(row, w), *([str(row.number)] if numbers else []),
                         *[answer(c, w) for c in row.cells]])
        else:
            rows.append([row_label(row, w), list_text(row, w)])
    return rows


# --- What's My Number?: seven players, four turns ---------------------------------------------

def test_seven_player_game_through_the_pages(page: Page, base_url: str):
    players = WMN_LOG["players"]
    game_id = start_wmn(page, base_url, WMN_LOG)
    gm = page.url.split("?")[0]
    public = page.context.new_page()
    for turn, orders in enumerate(WMN_LOG["turn"], start=1):
        assert page.locator("h1").inner_text() == f"Turn {turn}: enter the orders"
        allowance = [int(t) for t in page.locator(".grid td.allow").all_inner_texts()]
        expected = play(parse_game_log({**{k: v for k, v in WMN_LOG.items()
                                           if k not in ("published", "title")},
                                        "turn": WMN_LOG["turn"][:turn - 1]})).next_allowance
        assert allowance == [expected[p] for p in players]
        if turn == 2:
            keys = keyboard_grid(page, orders, players)
        else:
            fill_grid(page, orders, players)
            page.click("#grid button[type=submit]")
            page.wait_for_url(re.compile(r"saved=1"))
        received = page.locator(".tag-done").all_inner_texts()
        assert received == [p for p in players if p in orders]
        assert page.locator(".tag-missing").all_inner_texts() == [
            p for p in players if p not in orders]
        if turn == 1:
            assert "Cy wrote more guesses than the 2 allowed: 10 ignored." in page.inner_text(
                ".rulings")
        if turn == 2:
            # the focus is back in the grid after the save; Ctrl+Enter goes to Publish
            assert page.evaluate("document.activeElement.closest('form[data-grid]') !== null")
            page.keyboard.press("Control+Enter")
            assert page.evaluate("document.activeElement.textContent.trim()") == "Publish turn 2"
            page.keyboard.press("Enter")
            keys += 2
            assert keys <= 40, keys  # a 7-player turn by keyboard, digits aside
        else:
            page.click(f"text=Publish turn {turn}")
        page.wait_for_url(re.compile(rf"published={turn}"))
        assert table_cells(page, "#reports table.report") == engine_rows(
            WMN_LOG, turn, numbers=True)
        public.goto(f"{base_url}/console/{game_id}")
        assert table_cells(public, "table.report") == engine_rows(WMN_LOG, turn, numbers=False)
    assert page.locator("h1").inner_text() == "The game is over"
    assert "Won by Fay." in page.inner_text("main")
    assert "Won by Fay." in public.inner_text("main")
    # why the winner won, as the printed report says it
    why = "Finished this turn: Fay by a fully correct list"
    for shown in (page.inner_text("main"), public.inner_text("main")):
        assert why in re.sub("[\u2068\u2069]", "", shown)  # names in their own direction
    exported = tomllib.loads(page.request.get(f"{gm.rsplit('/gm', 1)[0]}/log.toml").text())
    assert exported["turn"] == WMN_LOG["turn"]
    assert exported["secrets"] == WMN_LOG["secrets"]
    assert exported["published"] == 4
    # the report files of the published game: the PDF to print, HTML, text for an email
    for name in ("turn-reports.pdf", "turn-reports.html", "report.txt"):
        response = public.request.get(f"{base_url}/console/{game_id}/files/{name}")
        assert response.status == 200, name
    assert "Turn 4" in public.request.get(
        f"{base_url}/console/{game_id}/files/report.txt").text()


def test_problems_shown_at_once_beside_their_boxes(page: Page, base_url: str):
    page.goto(base_url + "/console")
    page.fill("#wmn-names", "Ann\nBob\nCy\nann\nEve")
    page.fill("#wmn-range", "5-3")
    page.check("#wmn-draw-typed")
    page.fill("#wmn-secrets", "Ann = 17\nFey = 36")
    page.click("section[aria-labelledby=wmn] button[type=submit]")
    assert page.title().startswith("Error:")
    summary = page.locator("#wmn-problems li").all_inner_texts()
    assert "ann is there twice; give each player a different name (e.g. ann 2)." in summary
    assert any(s.startswith("5-3 ") for s in summary)
    assert "Fey is not a player; the players are Ann, Bob, Cy, ann and Eve." in summary
    for field in ("#wmn-names", "#wmn-range", "#wmn-secrets"):
        assert page.get_attribute(field, "aria-invalid") == "true", field
    assert page.input_value("#wmn-names") == "Ann\nBob\nCy\nann\nEve"  # nothing typed is lost

    page.fill("#wmn-names", "Ann\nBob\nCy\nDee\nFay")
    page.fill("#wmn-range", "1-50")
    page.fill("#wmn-secrets", "Ann = 17\nBob = 4\nCy = 9\nDee = 30\nFey = 36")
    page.click("section[aria-labelledby=wmn] button[type=submit]")
    assert "Fey is not a player; did you mean Fay?" in page.locator(
        "#wmn-secrets-error").inner_text()
    page.fill("#wmn-secrets", "Ann = 17\nBob = 4\nCy = 9\nDee = 30\nfay = 36")
    page.click("section[aria-labelledby=wmn] button[type=submit]")
    page.wait_for_url(re.compile(r"/gm\?new=1"))
    page.fill("#g0_1", "x")
    page.fill("#g1_1", "12")
    page.fill("#g1_2", "1o")
    page.check("#t2")
    page.click("#grid button[type=submit]")
    assert page.title().startswith("Error:")
    rows = page.locator("#grid-problems li").all_inner_texts()
    assert rows == ["Ann: Guess 1: “x” is not a whole number.",
                    "Bob: Guess 2: “1o” is not a whole number.",
                    "Cy: List ticked, but no numbers in it: fill the list, or untick it."]
    assert page.get_attribute("#g0_1", "aria-invalid") == "true"
    assert page.get_attribute("#g1_2", "aria-invalid") == "true"
    assert page.get_attribute("#g1_1", "aria-invalid") is None
    assert page.input_value("#g1_1") == "12"
    assert page.locator(".tag-done").count() == 0  # nothing was saved


def test_amend_a_published_turn_and_a_stale_form(page: Page, base_url: str):
    status, made = api(base_url, "/api/games", {
        "game": "whats-my-number", "players": ["Ann", "Bob", "Cy", "Dee"],
        "secrets": {"Ann": 5, "Bob": 12, "Cy": 20, "Dee": 27}, "range": "1-30"})
    assert status == 201, made
    game_id, token = made["id"], made["gm_token"]
    gm_login(page, base_url, game_id, token)
    fill_grid(page, {"Ann": [10, 25], "Bob": [5, 21]}, ["Ann", "Bob", "Cy", "Dee"])
    page.click("#grid button[type=submit]")
    page.click("text=Publish turn 1")
    page.wait_for_url(re.compile("published=1"))
    page.click("text=Amend turn 1")
    assert page.input_value("#g0_1") == "10"
    page.fill("#g0_1", "12")  # Ann wrote 12, not 10: Bob's column changes
    page.click("text=Check what changes")
    changes = page.locator("#changes li").all_inner_texts()
    assert changes and all(c.startswith("Turn 1") for c in changes)
    status, before = api(base_url, f"/api/games/{game_id}/log.toml", token=token)
    assert tomllib.loads(before)["turn"][0]["Ann"] == [10, 25]  # not recorded before confirm
    page.click("text=Confirm the amendment of turn 1")
    page.wait_for_url(re.compile("amended=1"))
    status, after = api(base_url, f"/api/games/{game_id}/log.toml", token=token)
    assert tomllib.loads(after)["turn"][0]["Ann"] == [12, 25]

    other = page.context.new_page()  # a second window on the same game
    other.goto(f"{base_url}/console/{game_id}/gm")
    # typed before the first window saves: a grid being typed in is never swapped live
    fill_grid(other, {"Dee": [7, 8]}, ["Ann", "Bob", "Cy", "Dee"])
    fill_grid(page, {"Cy": [3, 4]}, ["Ann", "Bob", "Cy", "Dee"])
    page.click("#grid button[type=submit]")
    page.wait_for_url(re.compile("saved=1"))
    with other.expect_response(re.compile(r"/gm/turn")) as info:
        other.click("#grid button[type=submit]")
    assert info.value.status == 409
    assert other.locator("h1").inner_text() == "The game changed since this page was loaded"
    assert "turn 2: orders for Cy" in other.locator(".changes").first.inner_text()
    assert other.locator(".changes").last.inner_text() == "Dee: 7, 8"  # to enter again
    status, log = api(base_url, f"/api/games/{game_id}/log.toml", token=token)
    assert "Dee" not in tomllib.loads(log)["turn"][1]  # the stale form saved nothing
    other.close()


def test_import_undo_and_the_grid_without_script(browser, base_url: str):
    page = open_page(browser, java_script_enabled=False)
    page.goto(base_url + "/console")
    page.fill("#import-log", "game = 'whats-my-number'\nplayers = [")
    page.click("section[aria-labelledby=import] button[type=submit]")
    assert page.get_attribute("#import-log", "aria-invalid") == "true"
    assert "TOML" in page.locator("#import-log-error").inner_text()
    two_turns = (DATA / "wmn-7p-4t.toml").read_text(encoding="utf-8")
    head, *turns = two_turns.split("[[turn]]")
    log = head.replace("published = 0", "published = 2") + "[[turn]]" + "[[turn]]".join(turns[:2])
    page.fill("#import-log", log)
    page.click("section[aria-labelledby=import] button[type=submit]")
    page.wait_for_url(re.compile(r"/gm\?new=1"))
    assert page.locator("h1").inner_text() == "Turn 3: enter the orders"
    assert page.locator("table.report caption").all_inner_texts() == [
        "Turn 2 report", "Turn 1 report"]
    # without script, Enter in a box saves the grid (the browser's own implicit submission)
    page.fill("#g0_1", "3")
    page.fill("#g0_2", "42")
    page.focus("#g0_2")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile("saved=1"))
    assert page.locator(".tag-done").all_inner_texts() == ["Ann"]
    page.fill("#g1_1", "8")
    page.click("text=Save entries")
    page.wait_for_url(re.compile("saved=1"))
    assert page.locator(".tag-done").all_inner_texts() == ["Ann", "Bob"]
    page.click("text=Undo last entry")
    page.wait_for_url(re.compile("undone=1"))
    assert page.locator(".tag-done").all_inner_texts() == ["Ann"]
    assert page.input_value("#g1_1") == ""
    assert page.input_value("#g0_2") == "42"
    page.context.close()


# --- Lowest Unique Number: three tables --------------------------------------------------------

def test_three_table_party_in_any_order(page: Page, base_url: str):
    tables = [t["players"] for t in LUN_LOG["table"]]
    page.goto(base_url + "/console")
    page.fill("#lun-tables", "\n".join(", ".join(t) for t in tables))
    page.fill("#lun-title", LUN_LOG["title"])
    page.click("section[aria-labelledby=lun] button[type=submit]")
    page.wait_for_url(re.compile(r"/gm\?new=1"))
    game_id = page.url.split("/console/")[1].split("/")[0]
    queues = {t: sorted((r for r in LUN_LOG["round"] if r["table"] == t),
                        key=lambda r: r["round"]) for t in (1, 2, 3)}
    # tables in the log's interleaved order; each table's own rounds come one after another
    for logged in LUN_LOG["round"]:
        entry = queues[logged["table"]].pop(0)
        number, choices = entry["table"], entry["choices"]
        card = f"#table-{number}"
        assert page.locator(f"{card} legend").inner_text() == f"Round {entry['round']}"
        for k, name in enumerate(tables[number - 1]):
            if choices[name] == "pass":
                page.check(f"#t{number}-p{k}")
            else:
                page.fill(f"#t{number}-c{k}", str(choices[name]))
        page.click(f"{card} form[data-grid] button[type=submit]")
        page.wait_for_url(re.compile(rf"round={number}"))
        expected = tally(choices)
        shown = dict(zip(page.locator(f"{card} .tally dt").all_inner_texts(),
                         page.locator(f"{card} .tally dd").all_inner_texts(), strict=True))
        choices_text = ", ".join(str(n) for n in expected.choices) or "—"
        if expected.passes:
            choices_text += f" ({expected.passes} pass" + ("es)" if expected.passes > 1 else ")")
        assert shown["Sorted choices"] == choices_text
        assert shown["Cancelled"] == (", ".join(map(str, expected.cancelled)) or "—")
        assert shown["Singles"] == (", ".join(map(str, expected.singles)) or "—")
        assert shown["Result"] == (f"{expected.winner} wins with {expected.winning_number}"
                                   if expected.winner else "No single number: nobody scores")
    # a refused round: every problem at once, beside its player
    page.fill("#t3-c0", "x")
    page.check("#t3-p1")
    page.fill("#t3-c1", "4")
    page.click("#table-3 form[data-grid] button[type=submit]")
    assert page.locator("#table-3-problems li").all_inner_texts() == [
        "Jo: x is not a whole number.", "Kim: a number and a pass; keep one.",
        "Lee: no number; type it, or tick Pass.", "Max: no number; type it, or tick Pass."]
    last = LUN_LOG["round"][-1]["table"]
    played = sum(1 for r in LUN_LOG["round"] if r["table"] == last)
    page.goto(f"{base_url}/console/{game_id}/gm")
    page.click(f"text=Undo table {last}, round {played}")  # it says what it takes back
    page.wait_for_url(re.compile("undone=1"))
    assert page.locator(f"#table-{last} legend").inner_text() == f"Round {played}"
    # the same round again, as it was
    page.click(f"#table-{last} form[data-grid] button[type=submit]")
    assert page.locator(f"#table-{last}-problems li").count() >= 1  # every box is empty
    entry = max((r for r in LUN_LOG["round"] if r["table"] == last), key=lambda r: r["round"])
    for k, name in enumerate(tables[last - 1]):
        if entry["choices"][name] == "pass":
            page.check(f"#t{last}-p{k}")
        else:
            page.fill(f"#t{last}-c{k}", str(entry["choices"][name]))
    page.click(f"#table-{last} form[data-grid] button[type=submit]")
    page.wait_for_url(re.compile(rf"round={last}"))
    status, public = api(base_url, f"/api/games/{game_id}/public.json")
    page.goto(f"{base_url}/console/{game_id}/standings")
    boards = page.locator(".board")
    assert boards.count() == 3
    played = {t: sum(1 for r in LUN_LOG["round"] if r["table"] == t) for t in (1, 2, 3)}
    assert page.locator("#as-of").inner_text().startswith("Provisional: after round")
    for s in public["standings"]:
        row = page.locator(f"#board-{s['table']} ~ table tbody tr", has_text=s["player"])
        assert row.locator("td.num").last.inner_text() == str(s["points"])
    assert f"{played[1]} rounds" in page.locator("#board-1").inner_text()


# --- the big screen -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def party(base_url: str) -> dict[str, Any]:
    """36 players seated by the kit's rule (3 tables of 12), one round at table 1."""
    tables = [NAMES_36[:12], NAMES_36[12:24], NAMES_36[24:]]
    status, made = api(base_url, "/api/games", {"game": "lowest-unique", "tables": tables,
                                                "rounds": 5})
    assert status == 201, made
    choices = {name: (k % 9) + 1 for k, name in enumerate(tables[0])}
    status, entry = api(base_url, f"/api/games/{made['id']}/tables/1/rounds",
                        {"choices": choices}, made["gm_token"])
    assert status == 201, entry
    return {**made, "tables": tables}


def test_start_page_seats_names_by_the_kits_rule(page: Page, base_url: str):
    page.goto(base_url + "/console")
    page.fill("#lun-names", "\n".join(NAMES_36[:25]))
    page.click("section[aria-labelledby=lun] button[type=submit]")
    page.wait_for_url(re.compile(r"/gm\?new=1"))
    sizes = [page.locator(f"#table-{t} .choice").count() for t in (1, 2, 3)]
    assert sizes == [9, 8, 8]  # the fewest tables of at most 12, sizes within one
    assert page.locator("#table-4").count() == 0
    assert page.locator("#table-1 .choice label").first.inner_text() == NAMES_36[0]


def test_big_screen_36_players_readable_from_4_m(browser, base_url: str, party):
    page = open_page(browser, 1920, 1080)
    page.goto(f"{base_url}/console/{party['id']}/standings")
    page.evaluate("document.fonts.ready.then(() => true)")
    for name in NAMES_36:
        box = page.locator(".board th[scope=row]", has_text=re.compile(rf"^{name}$")
                           ).bounding_box()
        assert box is not None, name
        assert box["y"] >= 0 and box["y"] + box["height"] <= 1080, name
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1920, name
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    sizes = page.evaluate("""() => [...document.querySelectorAll('main td, main th, main p')]
        .map(e => parseFloat(getComputedStyle(e).fontSize))""")
    assert min(sizes) >= 28, min(sizes)
    scripts = page.evaluate("[...document.scripts].map(s => s.src)")
    # one inline script (fitting the text) and the live pages' file, from this site only
    assert scripts[0] == "" and [s.split("/", 3)[3] for s in scripts[1:]] == ["console/live.js"]
    assert all(s.startswith(page.url.split("/console/")[0]) for s in scripts[1:])
    fonts = page.evaluate("[...document.fonts].map(f => f.family)")
    assert all("Atkinson" in f or "Kit Sans" in f for f in fonts), fonts
    page.context.close()


def test_standings_follow_an_entry_without_a_reload(browser, base_url: str, party):
    page = open_page(browser, 1920, 1080)
    page.goto(f"{base_url}/console/{party['id']}/standings")
    page.evaluate("window.notReloaded = true")
    before = page.locator("#board-2").inner_text()
    assert "0 rounds" in before
    choices = {name: 1 + (k % 5) * 2 for k, name in enumerate(party["tables"][1])}
    choices[party["tables"][1][0]] = 2  # the only 2: the lowest single
    status, _ = api(base_url, f"/api/games/{party['id']}/tables/2/rounds",
                    {"choices": choices}, party["gm_token"])
    assert status == 201
    # the bar: the screen shows an entry within 5 s
    expect(page.locator("#board-2")).to_contain_text("1 round", timeout=5000)
    first = page.locator("#board-2 ~ table tbody tr").first
    assert party["tables"][1][0] in first.inner_text()
    assert page.evaluate("window.notReloaded") is True
    assert page.problems == []  # type: ignore[attr-defined]
    page.context.close()


def test_standings_refresh_themselves_without_script(browser, base_url: str, party):
    page = open_page(browser, 1920, 1080, java_script_enabled=False)
    page.goto(f"{base_url}/console/{party['id']}/standings")
    refresh = page.locator('meta[http-equiv="refresh"]')
    assert refresh.count() == 1
    assert int(refresh.get_attribute("content")) <= 5
    assert page.locator(".board").count() == 3
    page.context.close()


# --- the phone ----------------------------------------------------------------------------------

def test_phone_viewport(browser, base_url: str, party):
    status, made = api(base_url, "/api/games", {"game": "whats-my-number",
                                                "players": WMN_LOG["players"]})
    assert status == 201
    page = open_page(browser, 390, 844, is_mobile=True, has_touch=True)
    pages = ["/console", f"/console/{made['id']}", f"/console/{party['id']}",
             f"/console/{party['id']}/standings"]
    gm_login(page, base_url, made["id"], made["gm_token"])
    pages += [f"/console/{made['id']}/gm"]
    for path in pages:
        page.goto(base_url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, (path, width)  # the page never scrolls sideways
    # a player's guess boxes side by side across the row, not stacked in a narrow column
    for i in range(len(WMN_LOG["players"])):
        boxes = [page.locator(f"#g{i}_{k}").bounding_box() for k in (1, 2, 3)]
        assert len({round(b["y"]) for b in boxes}) == 1, (i, boxes)
        assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]
        assert page.locator(f"#row-{i}").bounding_box()["height"] < 110  # was ~160 px
    # the grid scrolls inside its own box; its boxes and Save stay reachable
    page.locator("#g6_1").scroll_into_view_if_needed()
    page.fill("#g6_1", "7")
    page.get_by_role("button", name="Save entries").click()
    page.wait_for_url(re.compile("saved=1"))
    assert page.locator(".tag-done").all_inner_texts() == ["Gus"]
    page.context.close()


# --- who may do what ----------------------------------------------------------------------------

def _csrf_of(page: Page) -> str:
    return page.locator('input[name="csrf"]').first.get_attribute("value") or ""


def test_posts_without_the_right_token_are_refused(browser, base_url: str):
    made = [api(base_url, "/api/games", {"game": "whats-my-number",
                                         "players": ["A", "B", "C", "D"]})[1] for _ in range(2)]
    page = open_page(browser)
    gm_login(page, base_url, made[0]["id"], made[0]["gm_token"])
    cookie = next(c for c in page.context.cookies() if c["name"] == "kit_gm")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert cookie["path"] == f"/console/{made[0]['id']}"
    assert page.evaluate("document.cookie") == ""
    mine = _csrf_of(page)
    gm_login(page, base_url, made[1]["id"], made[1]["gm_token"])
    theirs = _csrf_of(page)
    path = f"/console/{made[0]['id']}/gm/turn"
    jar = {"cookie": f"kit_gm={made[0]['gm_token']}"}
    fields = {"version": "1", "g0_1": "3", "g0_2": "4"}
    same = {"sec-fetch-site": "same-origin", **jar}
    assert post_form(base_url, path, fields, same) == 403  # no CSRF token
    assert post_form(base_url, path, {**fields, "csrf": theirs}, same) == 403  # another game's
    assert post_form(base_url, path, {**fields, "csrf": mine + "x"}, same) == 403  # forged
    assert post_form(base_url, path, {**fields, "csrf": mine},
                     {"sec-fetch-site": "same-origin"}) == 403  # no cookie
    assert post_form(base_url, path, {**fields, "csrf": mine},
                     {**jar, "sec-fetch-site": "cross-site"}) == 403
    status, log = api(base_url, f"/api/games/{made[0]['id']}/log.toml",
                      token=made[0]["gm_token"])
    assert "[[turn]]" not in log  # nothing changed
    # a form on a page of another site (here: of none) posting to the GM page in the browser
    page.goto("about:blank")
    page.set_content(f'<form method="post" action="{base_url}{path}">'
                     f'<input name="csrf" value="{mine}"><input name="g0_1" value="3">'
                     '<button>go</button></form>')
    with page.expect_response(re.compile(r"/gm/turn")) as info:
        page.click("button")
    assert info.value.status == 403
    assert post_form(base_url, path, {**fields, "csrf": mine}, same) == 303  # all right: saved
    page.goto(f"{base_url}/console/{made[1]['id']}/gm")
    page.goto(f"{base_url}/console/{made[0]['id']}/gm/not-the-token")
    assert page.locator("h1").inner_text() == "Link not valid"
    page.context.close()


def _public_texts(page: Page, base: str, game_id: str) -> list[str]:
    """Everything anyone may read about a game: pages (text), JSON (values), report files."""
    texts = []
    for path in (f"/console/{game_id}", f"/console/{game_id}/standings",
                 f"/console/{game_id}/files/turn-reports.html"):
        page.goto(base + path)
        texts.append(page.inner_text("body"))
    public = page.request.get(f"{base}/api/games/{game_id}/public.json").json()
    public.pop("id")
    texts.append(json.dumps(public))
    texts.append(page.request.get(f"{base}/console/{game_id}/files/report.txt").text())
    pdf = page.request.get(f"{base}/console/{game_id}/files/turn-reports.pdf")
    assert pdf.status == 200
    from support.helpers import texts as pdf_texts

    texts += pdf_texts(pdf.body())
    return texts


def test_public_pages_show_no_secret_and_no_unpublished_entry(browser, base_url: str):
    secrets = {"Ann": 731, "Bob": 857, "Cy": 919, "Dee": 643}
    status, made = api(base_url, "/api/games", {"game": "whats-my-number",
                                                "players": list(secrets), "secrets": secrets,
                                                "range": "600-999"})
    assert status == 201, made
    game_id, token = made["id"], made["gm_token"]
    assert api(base_url, f"/api/games/{game_id}/turns",
               {"orders": {"Ann": [700, 800], "Bob": [650, 950]}}, token)[0] == 201
    assert api(base_url, f"/api/games/{game_id}/turns/1/publish", {}, token)[0] == 200
    assert api(base_url, f"/api/games/{game_id}/turns",
               {"orders": {"Cy": [777, 888], "Dee": {"list": {"Ann": 731, "Bob": 857}}}},
               token)[0] == 201  # turn 2: entered, not published
    page = open_page(browser)
    found = "\n".join(_public_texts(page, base_url, game_id))
    for word in [*map(str, secrets.values()), "777", "888", token]:
        assert word not in found, word
    assert "Turn 1" in found
    for name in ("gm-register.pdf", "gm-register.html", "private-slips.pdf", "log.toml",
                 "published.json", "../../console.db"):
        response = page.request.get(f"{base_url}/console/{game_id}/files/{name}")
        assert response.status in (403, 404), name
    assert page.request.get(f"{base_url}/console/{game_id}/log.toml").status == 403
    page.goto(f"{base_url}/console/{game_id}/gm")
    assert page.locator("h1").inner_text() == "Game master only"
    page.context.close()


def test_screenshots_for_the_readme(browser, base_url: str, party, tmp_path: Path):
    """The README's two pictures, made from a live game: into a temporary folder, or into
    docs/ with KIT_SCREENSHOTS=1 (how the committed ones were made)."""
    out = ROOT / "docs" if os.environ.get("KIT_SCREENSHOTS") else tmp_path
    page = open_page(browser, 1280, 800)
    status, made = api(base_url, "/api/games", {k: v for k, v in WMN_LOG.items()
                                                if k in ("players", "secrets", "range", "title")}
                       | {"game": "whats-my-number"})
    assert status == 201
    gm_login(page, base_url, made["id"], made["gm_token"])
    fill_grid(page, WMN_LOG["turn"][0], WMN_LOG["players"])
    page.click("#grid button[type=submit]")
    page.locator("#grid").scroll_into_view_if_needed()
    page.evaluate("document.fonts.ready.then(() => true)")
    page.screenshot(path=str(out / "console-grid.png"))
    screen = open_page(browser, 1920, 1080)
    screen.goto(f"{base_url}/console/{party['id']}/standings")
    screen.evaluate("document.fonts.ready.then(() => true)")
    screen.screenshot(path=str(out / "console-standings.png"))
    for name in ("console-grid.png", "console-standings.png"):
        assert (out / name).stat().st_size > 10_000
    page.context.close()
    screen.context.close()
