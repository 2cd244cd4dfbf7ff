"""The game master's console in Chromium (Playwright): nothing typed is lost.

Publishing a typed, unsaved grid saves it first and names who has no orders; a page with unsaved
entries asks before it is left; Enter on the Amend page moves on as on the turn grid and the
changes are shown before anything is recorded; a stale form's 409 page applies the entry again
on the current version; undo after publishing says why not on the game's page. At 1280x800 and
390x844.
"""

from __future__ import annotations

import re
import tomllib

import pytest
from support.helpers import require_browser
from test_console_browser import api, base_url, browser, fill_grid, gm_login, open_page  # noqa: F401

pytestmark = pytest.mark.slow

require_browser()

from playwright.sync_api import expect  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def new_game(base: str) -> tuple[str, str]:
    status, made = api(base, "/api/games", {
        "game": "whats-my-number", "players": PLAYERS,
        "secrets": {"Ann": 5, "Bob": 12, "Cy": 20, "Dee": 27}, "range": "1-30"})
    assert status == 201, made
    return made["id"], made["gm_token"]


def log_of(base: str, game_id: str, token: str) -> dict:
    status, text = api(base, f"/api/games/{game_id}/log.toml", token=token)
    assert status == 200
    return tomllib.loads(text)


@pytest.fixture(params=[(1280, 800), (390, 844)], ids=["desktop", "phone"])
def page(browser, request):  # noqa: F811
    width, height = request.param
    page = open_page(browser, width, height, has_touch=width < 500)
    yield page
    problems = page.problems  # type: ignore[attr-defined]
    page.context.close()
    assert problems == [], problems


def test_publish_saves_a_typed_grid_and_names_who_has_no_orders(page, base_url):  # noqa: F811
    game_id, token = new_game(base_url)
    gm_login(page, base_url, game_id, token)
    fill_grid(page, {"Ann": [10, 25], "Bob": [5, 21]}, PLAYERS)
    page.click("text=Publish turn 1")  # not saved first
    page.wait_for_url(re.compile("published=1"))
    turn = log_of(base_url, game_id, token)["turn"][0]
    assert turn["Ann"] == [10, 25] and turn["Bob"] == [5, 21]
    assert "No orders from Cy and Dee." in page.inner_text("p.notice-ok")
    expect(page.locator("#g0_1")).to_be_focused()  # back in the new turn's grid
    # undo right after publishing: no button; posted anyway, the game's page says why
    assert page.locator("text=Undo last entry").count() == 0
    assert "Nothing to undo since turn 1 was published" in page.inner_text("#grid")


def test_a_page_with_unsaved_entries_asks_before_it_is_left(page, base_url):  # noqa: F811
    game_id, token = new_game(base_url)
    gm_login(page, base_url, game_id, token)
    page.click("#g0_1")
    page.keyboard.type("7")
    asked: list[str] = []

    def dialog(d) -> None:
        asked.append(d.type)
        d.dismiss()  # stay on the page

    page.on("dialog", dialog)
    page.click("header .brand a")
    page.wait_for_timeout(500)
    assert asked == ["beforeunload"]
    assert page.url.endswith("/gm") and page.input_value("#g0_1") == "7"
    page.remove_listener("dialog", dialog)
    page.click("text=Save entries")  # a save is no leaving without saving
    page.wait_for_url(re.compile("saved=1"))
    page.click("header .brand a")
    page.wait_for_url(re.compile(r"/console$"))


def test_undo_refused_stays_on_the_games_page(page, base_url):  # noqa: F811
    game_id, token = new_game(base_url)
    gm_login(page, base_url, game_id, token)
    # no Undo button with nothing to undo: post one as a stale page would
    with page.expect_response(re.compile(r"/gm/undo")) as info:
        page.evaluate("""() => { const f = document.createElement("form");
            f.method = "post"; f.action = location.pathname + "/undo";
            for (const n of ["csrf", "version"]) { const i = document.createElement("input");
              i.type = "hidden"; i.name = n; i.value = document.querySelector(
                `input[name=${n}]`).value; f.appendChild(i); }
            document.body.appendChild(f); f.submit(); }""")
    assert info.value.status == 422
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Turn 1: enter the orders"
    assert page.inner_text("p.warning[role=alert]").startswith("Not undone: ")


def test_enter_on_the_amend_page_moves_on_and_changes_show_first(page, base_url):  # noqa: F811
    game_id, token = new_game(base_url)
    gm_login(page, base_url, game_id, token)
    fill_grid(page, {"Ann": [10, 25], "Bob": [5, 21]}, PLAYERS)
    page.click("text=Publish turn 1")
    page.wait_for_url(re.compile("published=1"))
    page.goto(f"{base_url}/console/{game_id}/gm?amend=1")
    page.click("#g1_1")
    page.keyboard.press("Control+a")
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    assert page.url.endswith("?amend=1")  # not submitted
    assert page.evaluate("document.activeElement.id") == "g1_2"
    page.keyboard.type("3")
    page.click("text=Check what changes")
    assert page.locator("#changes li").count() > 0
    assert log_of(base_url, game_id, token)["turn"][0]["Bob"] == [5, 21]  # nothing recorded
    page.click("text=Confirm the amendment of turn 1")
    page.wait_for_url(re.compile("amended=1"))
    assert log_of(base_url, game_id, token)["turn"][0]["Bob"] == [12, 3]


def test_the_409_page_applies_the_entry_again_on_the_current_version(page, base_url):  # noqa: F811
    game_id, token = new_game(base_url)
    gm_login(page, base_url, game_id, token)
    other = page.context.new_page()
    other.goto(f"{base_url}/console/{game_id}/gm")
    # typed before the first window saves: a grid being typed in is never swapped live
    fill_grid(other, {"Dee": [7, 8], "Ann": [1, 2]}, PLAYERS)
    fill_grid(page, {"Cy": [3, 4]}, PLAYERS)
    page.click("text=Save entries")
    page.wait_for_url(re.compile("saved=1"))
    with other.expect_response(re.compile(r"/gm/turn")) as info:
        other.click("text=Save entries")
    assert info.value.status == 409
    other.click("text=Apply my entry again")
    other.wait_for_url(re.compile("saved=1"))
    turn = log_of(base_url, game_id, token)["turn"][0]
    assert turn == {"Cy": [3, 4], "Dee": [7, 8], "Ann": [1, 2]}  # the other window's Cy kept
    other.close()


def test_rulings_are_marked_on_their_boxes_and_extra_guesses_get_boxes(page, base_url):  # noqa: F811
    game_id, token = new_game(base_url)
    gm_login(page, base_url, game_id, token)
    page.fill("#g0_1", "0")  # a typo out of the range 1-30: void
    page.fill("#g0_2", "7")
    page.fill("#g1_1", "4")
    page.fill("#g1_2", "5")
    page.fill("#g1_3", "6")  # the dashed box: a third guess, 2 allowed
    page.fill("#g1_4", "9")  # a box appeared for the fourth one written
    page.click("text=Save entries")
    page.wait_for_url(re.compile("saved=1"))
    assert "2 rulings to check: their boxes are marked." in page.inner_text("p.notice-ok")
    ruled = page.eval_on_selector_all(".box.ruled input", "els => els.map(e => e.id)")
    assert ruled == ["g0_1", "g1_3", "g1_4"]
    assert log_of(base_url, game_id, token)["turn"][0]["Bob"] == [4, 5, 6, 9]
    assert page.locator("#row-1 .guess-boxes input").count() == 5  # 4 written, one more
    public = api(base_url, f"/api/games/{game_id}/public.json")[1]
    assert public["published"] == 0


def test_the_start_page_lists_the_games_this_browser_holds(page, base_url):  # noqa: F811
    game_id, token = new_game(base_url)
    other_id, other_token = new_game(base_url)
    gm_login(page, base_url, game_id, token)
    gm_login(page, base_url, other_id, other_token)
    page.goto(base_url + "/console")
    links = page.locator("section[aria-labelledby=held-heading] a")
    assert links.all_inner_texts() == [f"Game {other_id}", f"Game {game_id}"]  # newest first
    links.last.click()
    page.wait_for_url(re.compile(rf"/console/{game_id}/gm$"))
    assert page.locator("h1").inner_text() == "Turn 1: enter the orders"  # its cookie opens it


def test_a_guess_in_box_2_with_box_1_empty_keeps_its_place(page, base_url):  # noqa: F811
    game_id, token = new_game(base_url)
    gm_login(page, base_url, game_id, token)
    page.fill("#g2_2", "12")  # Cy's slip: line 1 blank, Bob's number on line 2
    page.fill("#g3_1", "12")  # Dee: on line 1
    page.click("text=Save entries")
    page.wait_for_url(re.compile("saved=1"))
    turn = log_of(base_url, game_id, token)["turn"][0]
    assert turn == {"Cy": ["", 12], "Dee": [12]}
    assert page.input_value("#g2_1") == "" and page.input_value("#g2_2") == "12"
    page.click("text=Publish turn 1")
    page.wait_for_url(re.compile("published=1"))
    rows = page.locator("#reports table tbody th").all_inner_texts()
    assert "Cy 2" in rows and "Cy 1" not in rows and "Dee 1" in rows


def test_none_records_no_orders_apart_from_not_entered_yet(page, base_url):  # noqa: F811
    game_id, token = new_game(base_url)
    gm_login(page, base_url, game_id, token)
    page.fill("#g0_1", "10")
    page.check("#n3")  # Dee: nothing entered, None ticked
    page.click("text=Save entries")
    page.wait_for_url(re.compile("saved=1"))
    status = page.locator("ul.status li")
    assert status.nth(0).locator(".tag").all_inner_texts() == ["Ann", "Dee · no orders"]
    assert status.nth(1).locator(".tag").all_inner_texts() == ["Bob", "Cy"]
    assert page.is_checked("#n3")
    seen = api(base_url, f"/api/games/{game_id}/state.json", token=token)[1]
    assert seen["no_orders"] == ["Dee"] and "Dee" not in seen["missing"]
    assert "Dee" not in log_of(base_url, game_id, token).get("turn", [{}])[0]  # as kit report reads
    # a guess typed with None ticked (the boxes are hidden then; a page without script shows
    # them) is refused, never dropped without a word
    page.evaluate("document.getElementById('g3_1').value = '7'")
    page.click("text=Save entries")
    assert "Guesses or a list, and “None”: keep one" in page.inner_text("#row-3")
    # None unticked on an empty row: Dee is missing again
    page.goto(f"{base_url}/console/{game_id}/gm")
    page.uncheck("#n3")
    page.click("text=Save entries")
    page.wait_for_url(re.compile("saved=1"))
    assert page.locator("ul.status li").nth(1).locator(".tag").all_inner_texts() == [
        "Bob", "Cy", "Dee"]
