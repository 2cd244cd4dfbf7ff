"""What the console's browser pages do with what they are sent, without a browser: the signed
CSRF token and the same-origin rule, the GM link's cookie, the start forms (every problem at
once, name suggestions, the kit's seating), the entry grid and the host's round form read into
orders and problems, and the standings' places and progress line.
"""

from __future__ import annotations

import re
import time
import tomllib

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")

from starlette.requests import Request  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from kit.console.pages import auth as guard  # noqa: E402
from kit.errors import GameLogError, Problems  # noqa: E402
from kit.game.start_form import common, suggest  # noqa: E402
from kit.games.lowest_unique.console import start as lun_start  # noqa: E402
from kit.games.lowest_unique.console.host import read_round  # noqa: E402
from kit.games.lowest_unique.console.start import lun_form  # noqa: E402
from kit.games.whats_my_number.console import start as wmn_start  # noqa: E402
from kit.games.whats_my_number.console.grid import absorb, read_grid  # noqa: E402
from kit.games.whats_my_number.console.start import wmn_form  # noqa: E402
from kit.i18n import words  # noqa: E402

W = words("en")
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def request(headers: dict[str, str]) -> Request:
    raw = [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    return Request({"type": "http", "method": "POST", "path": "/", "headers": raw})


def test_csrf_token_is_tied_to_the_game_and_the_gm_token():
    token = guard.csrf_token("game1", "secret-one")
    assert guard.csrf_ok("game1", "secret-one", token)
    assert not guard.csrf_ok("game2", "secret-one", token)  # another game
    assert not guard.csrf_ok("game1", "secret-two", token)  # another GM cookie
    assert not guard.csrf_ok("game1", "", token)  # no cookie
    assert not guard.csrf_ok("game1", "secret-one", "")
    assert not guard.csrf_ok("game1", "secret-one", token[:-2] + "AA")
    assert "secret-one" not in token


@pytest.mark.parametrize(("headers", "allowed"), [
    ({"sec-fetch-site": "same-origin", "origin": "null", "host": "a:1"}, True),
    ({"sec-fetch-site": "cross-site", "origin": "http://a:1", "host": "a:1"}, False),
    ({"sec-fetch-site": "same-site", "host": "a:1"}, False),
    ({"origin": "http://evil.example", "host": "a:1"}, False),
    ({"origin": "http://a:1", "host": "a:1"}, True),
    ({"host": "a:1"}, True),  # curl: the cookie and the CSRF token still decide
])
def test_same_origin(headers, allowed):
    assert guard.same_origin(request(headers)) is allowed


def test_gm_link_sets_a_strict_http_only_cookie_for_the_game_only(make_site):
    console, app = make_site()
    made = console.create_game({"game": "whats-my-number", "players": PLAYERS})
    client = TestClient(app, follow_redirects=False)
    wrong = client.get(f"/console/{made.id}/gm/{'x' * 43}")
    assert wrong.status_code == 403 and "set-cookie" not in wrong.headers
    right = client.get(f"/console/{made.id}/gm/{made.gm_token}?new=1")
    assert right.status_code == 303
    assert right.headers["location"] == f"/console/{made.id}/gm?new=1"
    cookie = right.headers["set-cookie"]
    assert cookie.startswith(f"kit_gm={made.gm_token};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert f"Path=/console/{made.id}" in cookie
    page = client.get(f"/console/{made.id}/gm")
    assert page.status_code == 200
    assert re.search(r"script-src 'self' 'nonce-[\w-]+'; connect-src 'self'",
                     page.headers["content-security-policy"])
    public = client.get(f"/console/{made.id}")
    # the public page runs no inline script: only the live pages' file, from this site
    assert public.headers["content-security-policy"].endswith(
        "; script-src 'self'; connect-src 'self'")
    console.close()


def test_grid_reads_only_changed_rows_and_every_problem():
    current = {"Ann": [3, 4], "Bob": [5, 6]}
    allowance = {"Ann": 2, "Bob": 2, "Cy": 3, "Dee": 2}
    values = {"g0_1": "3", "g0_2": "4",  # Ann unchanged
              "n1": "1",  # Bob: no orders after all
              "g2_1": "7", "g2_2": "", "g2_3": "9", "g2_4": "11",  # Cy: a blank, an extra
              "t3": "1", "l3_0": "12", "l3_2": "x"}  # Dee: a list with a bad number
    grid = read_grid(values, PLAYERS, allowance, current, W)
    assert grid.orders == {"Bob": None, "Cy": [7, "", 9, 11]}  # the blank keeps its place
    assert grid.rows == {3: ["“x” for Cy is not a whole number."]}
    assert grid.boxes == {"l3_2"}
    emptied = read_grid({"g0_1": "", "g0_2": ""}, PLAYERS, allowance, current, W)
    assert emptied.rows[0][0].startswith("The row was emptied")
    listed = read_grid({"t2": "1"}, PLAYERS, allowance, {}, W)
    assert listed.rows == {2: ["List ticked, but no numbers in it: fill the list, or untick it."]}
    assert listed.orders == {}


def test_engine_problems_land_on_their_rows():
    grid = read_grid({}, PLAYERS, {}, {}, W)
    absorb(grid, Problems([GameLogError("turn 2, player Cy", "guess 1 is 'x'"),
                           GameLogError("turn 2", "something else")]), PLAYERS)
    assert grid.rows == {2: ["guess 1 is 'x'"]}
    assert grid.general == ["turn 2: something else"]


def test_new_game_form_shows_every_problem_with_suggestions():
    form = wmn_form({"names": "Ann\nBob\nann\nFay", "players": "5", "range": "50-10",
                     "draw": "typed", "secrets": "Ann = 3\nFey = 9\nBob 4\nnonsense"}, W)
    assert form.problems["names"] == [
        "ann is there twice; give each player a different name (e.g. ann 2)."]
    assert form.problems["players"] == [
        "5 players, but 4 names; give a count or names, or make them agree."]
    assert form.problems["range"][0].startswith("50-10 ")
    assert form.problems["secrets"] == ["Fey is not a player; did you mean Fay?",
                                        "nonsense: write a name and a number, e.g. Ann = 17."]
    assert suggest("gus", ["Gus", "Ann"]) == "Gus"
    assert suggest("Zed", ["Gus", "Ann"]) is None
    good = wmn_form({"players": "5", "draw": "random", "lang": "fr", "paper": "letter"}, W)
    common(good, W)  # the console reads every game's title, language and paper
    assert good.ok
    assert good.spec == {"game": "whats-my-number", "players": ["A", "B", "C", "D", "E"],
                         "lang": "fr", "paper": "letter"}


def test_party_form_seats_names_by_the_kits_rule():
    names = "\n".join(f"P{i}" for i in range(1, 26))
    form = lun_form({"names": names, "rounds": "4"}, W)
    assert form.ok, form.problems
    assert [len(t) for t in form.spec["tables"]] == [9, 8, 8]
    assert form.spec["tables"][0][:2] == ["P1", "P2"]
    assert form.spec["rounds"] == 4
    given = lun_form({"tables": "Ann, Bob, Cy\nDee, Eve", "rounds": "30"}, W)
    assert given.problems == {"rounds": ["From 1 to 20 rounds."],
                              "tables": ["Table 2 has 2 players; a table seats 3 to 12."]}
    both = lun_form({"tables": "Ann, Bob, Cy", "names": "Dee"}, W)
    assert both.problems == {"tables": ["Give names or tables, not both."]}


def test_round_form_reads_numbers_and_passes():
    names = ["Ann", "Bob", "Cy", "Dee"]
    ok = read_round({"c0": "3", "c1": "1", "c2": " 1 ", "p3": "1"}, 1, names, W)
    assert ok.ok and ok.choices == {"Ann": 3, "Bob": 1, "Cy": 1, "Dee": "pass"}
    bad = read_round({"c0": "x", "c1": "2", "p1": "1"}, 1, names, W)
    assert bad.players == {0: ["Ann: x is not a whole number."],
                           1: ["Bob: a number and a pass; keep one."],
                           2: ["Cy: no number; type it, or tick Pass."],
                           3: ["Dee: no number; type it, or tick Pass."]}


def test_boards_share_places_and_say_how_far_each_table_is():
    public = {"tables": [{"table": 1, "rounds": [{}, {}]}, {"table": 2, "rounds": [{}]},
                         {"table": 3, "rounds": []}],
              "standings": [{"place": 1, "player": "Ann", "table": 1, "points": 2},
                            {"place": 2, "player": "Eve", "table": 2, "points": 1},
                            {"place": 2, "player": "Bob", "table": 1, "points": 1},
                            {"place": 4, "player": "Cy", "table": 1, "points": 1},
                            {"place": 5, "player": "Jo", "table": 3, "points": 0}]}
    boards = lun_start.boards(public)
    assert [(r["place"], r["player"]) for r in boards[0]["rows"]] == [
        (1, "Ann"), (2, "Bob"), (2, "Cy")]
    assert lun_start.progress_text(boards, 5, W) == (
        "Provisional: after round 2 at table 1, after round 1 at table 2 and no round yet at "
        "table 3.")
    done = [{"table": 1, "played": 5}, {"table": 2, "played": 5}]
    assert lun_start.progress_text(done, 5, W) == "Final standings (5 rounds)."
    wmn = wmn_start.standings({"players": ["A", "B", "C"], "identified": {"A": 1, "B": 2},
                               "winners": ["A"], "next_allowance": {"A": 3}})
    assert [(r["place"], r["player"]) for r in wmn] == [(1, "A"), (2, "B"), (3, "C")]


@pytest.fixture
def site(make_site):
    """A server with a console, and a client of it that follows no redirect."""
    console, app = make_site()
    return console, TestClient(app, follow_redirects=False)


def boxes(html: str) -> dict[str, list[str]]:
    """The start page's problem boxes: field id -> its messages (tags and 'Error:' dropped)."""
    from html import unescape

    found: dict[str, list[str]] = {}
    for key, body in re.findall(r'class="field-error" id="([^"]+)-error">(.*?)</div>', html,
                                re.S):
        for item in re.findall(r"<p>(.*?)</p>", body, re.S):
            text = " ".join(unescape(re.sub(r"<[^>]+>", " ", item)).split())
            found.setdefault(key, []).append(text.removeprefix("Error: "))
    return found


def test_an_imported_log_that_is_not_toml_says_where_and_what_in_plain_words(site):
    _, client = site
    page = client.post("/console/new/import",
                       data={"log": 'game = "whats-my-number"\nplayers = ["Ann", "Bob"\n'})
    assert page.status_code == 422
    assert boxes(page.text)["import-log"] == [
        "not valid TOML: line 2, column 24: a [ ... ] list is not closed, or two of its values "
        "have no comma between them; write lists like [17, 33] (TOML: Unclosed array)"]
    assert "end of document" not in page.text


def test_the_start_forms_show_every_problem_in_one_pass(site):
    _, client = site
    twice = client.post("/console/new/wmn", data={"names": "Ann, Bob, ann", "draw": "random"})
    assert boxes(twice.text)["wmn-names"] == [
        "ann is there twice; give each player a different name (e.g. ann 2).",
        "3 players listed; What's My Number? needs at least 4"]
    secret = client.post("/console/new/wmn", data={
        "names": "Ann, Bob, Cy", "range": "1-40", "draw": "typed",
        "secrets": "Ann = 500\nBob = 3\nCy = 4"})
    assert boxes(secret.text) == {
        "wmn-names": ["3 players listed; What's My Number? needs at least 4"],
        "wmn-secrets": ["500 is outside the range 1 to 40; secrets are whole numbers from 1 "
                        "to 40"]}
    party = client.post("/console/new/lun", data={"names": "Ann, Bob", "rounds": "50"})
    assert boxes(party.text) == {
        "lun-names": ["Lowest Unique Number needs 3 to 12 players per table; got 2"],
        "lun-rounds": ["From 1 to 20 rounds."]}


def test_the_api_returns_every_problem_of_a_new_game_at_once(site):
    console, client = site
    answer = client.post("/api/games", json={
        "game": "whats-my-number", "players": ["Ann", "Bob", "Cy", "Ann"], "range": "9-2",
        "secrets": {"Bob": 500}})
    assert answer.status_code == 422
    assert [(e["field"], e["message"]) for e in answer.json()["errors"]] == [
        ("players", "“Ann” is given twice (names 1 and 4); every player needs a different name, "
                    "e.g. add an initial"),
        ("range", "9-2 cannot be used: give the lowest and the highest number, e.g. 1-20, the "
                  "lowest at least 1 and the highest above it, at most 999"),
        ("secrets.Bob", "500 is outside the range 2 to 9; secrets are whole numbers from 2 to 9")]
    made = client.post("/api/games", json={"game": "whats-my-number",
                                           "players": ["Ann", "Bob", "Cy", "Dee"],
                                           "range": "1-40", "secrets": {"ann": 7}})
    assert made.status_code == 201
    log = console.export_log(made.json()["id"])
    assert 'range = "1-40"' in log and "Ann = 7" in log


def test_names_that_look_alike_are_refused_side_by_side(site):
    """Cyrillic А, a full-width Ａ: the same name to the eye, refused in every way in."""
    _, client = site
    alike = "“Ann” and “%s” look alike; give every player a name that differs at a glance, " \
            "e.g. add an initial"
    for twin in ("\u0410nn", "\uff21nn"):
        answer = client.post("/api/games", json={"game": "whats-my-number",
                                                 "players": ["Ann", "Bob", "Cy", twin]})
        assert answer.status_code == 422
        assert [(e["field"], e["message"]) for e in answer.json()["errors"]] == [
            ("players", alike % twin)]
        party = client.post("/api/games", json={"game": "lowest-unique",
                                                "tables": [["Ann", "Bob", twin]]})
        assert party.status_code == 422
        assert [(e["field"], e["message"]) for e in party.json()["errors"]] == [
            ("table 1", alike % twin)]
        page = client.post("/console/new/wmn", data={"names": f"Ann\nBob\nCy\n{twin}",
                                                     "draw": "random"})
        assert boxes(page.text)["wmn-names"] == [alike % twin]
    assert client.post("/api/games", json={"game": "whats-my-number", "players": [
        "Ali", "All", "Léa", "Lea"]}).status_code == 201  # different at a glance


def test_the_email_box_refuses_a_name_given_twice_even_by_case(site):
    _, client = site
    page = client.post("/console/new/wmn", data={
        "names": "Ann\nBob\nCy\nDee", "draw": "random",
        "emails": "Ann = ann@example.org\nann = someone@example.org"})
    assert page.status_code == 422
    assert boxes(page.text)["wmn-emails"] == ["Ann has two addresses."]


def gm_client(site, **spec):
    """A What's My Number? game made on the start page, and the GM page it opens on."""
    console, client = site
    made = client.post("/console/new/wmn", data={"names": "Ann\nBob\nCy\nDee", "range": "1-30",
                                                 "draw": "random", **spec})
    assert made.status_code == 303
    link = made.headers["location"]
    game_id, token = re.search(r"/console/([\w-]+)/gm/([\w-]+)", link).groups()
    opened = client.get(link)
    assert opened.headers["location"].endswith("/gm?new=1")
    return console, client, game_id, token


def test_the_gm_link_is_shown_once_then_only_behind_a_disclosure(site):
    _, client, game_id, token = gm_client(site)
    first = client.get(f"/console/{game_id}/gm?new=1").text
    shown, _, hidden = first.partition('<details class="gm-link">')
    assert f"/gm/{token}" in shown and "Keep the game master link" in shown
    assert not hidden  # no second copy on that page
    later = client.get(f"/console/{game_id}/gm").text
    before, _, disclosure = later.partition('<details class="gm-link">')
    assert token not in before and "Keep the game master link" not in before
    assert "<summary>Show the game master link</summary>" in disclosure
    assert f"/gm/{token}" in disclosure.partition("</details>")[0]


def test_turn_report_links_only_once_a_turn_is_published(site):
    console, client, game_id, _ = gm_client(site)

    def gm_page() -> str:
        for _ in range(200):  # meanwhile the page says the files are being made
            text = client.get(f"/console/{game_id}/gm").text
            if "being made" not in text:
                return text
            time.sleep(0.1)
        raise AssertionError("the files are still being made")

    before = gm_page()
    assert "gm-register.pdf" in before  # the secret numbers, before turn 1
    assert "turn-reports" not in before and "report.txt" not in before
    version = console.state(game_id).version
    entry = console.enter(game_id, "orders", {"orders": {"Ann": [1, 2]}}, version=version)
    console.enter(game_id, "publish", {}, {"turn": 1}, version=entry.version)
    after = gm_page()
    assert "/files/turn-reports.pdf" in after and "/files/report.txt" in after


def test_the_error_summary_links_to_the_box_at_fault(site):
    console, client, game_id, token = gm_client(site)
    posted = client.post(f"/console/{game_id}/gm/turn", data={
        "csrf": guard.csrf_token(game_id, token), "version": str(console.state(game_id).version),
        "g0_2": "x", "t3": "1", "l3_0": "5", "l3_1": "99", "l3_2": "7"})
    assert posted.status_code == 422
    summary = re.search(r'<div class="error-summary".*?</ul>', posted.text, re.S)[0]
    links = re.findall(r'<a href="#([\w-]+)">([^<]*)</a>', summary)
    assert [href for href, _ in links] == ["g0_2", "l3_1"]  # the form's and the engine's
    posted = client.post(f"/console/{game_id}/gm/turn", data={
        "csrf": guard.csrf_token(game_id, token), "version": str(console.state(game_id).version),
        "t3": "1", "l3_0": "5", "l3_1": "99", "l3_2": "7"})
    summary = re.search(r'<div class="error-summary".*?</ul>', posted.text, re.S)[0]
    links = re.findall(r'<a href="#([\w-]+)">([^<]*)</a>', summary)
    assert links == [("l3_1", "Dee: the list gives Bob 99, outside the range 1 to 30")]
    assert re.search(r'id="l3_1" name="l3_1" value="99"[^>]*aria-invalid="true"', posted.text)


def test_an_amendment_that_changes_no_cell_says_so(site):
    console, client, game_id, token = gm_client(site)
    entry = console.enter(game_id, "orders", {"orders": {"Ann": [3, 7]}},
                          version=console.state(game_id).version)
    console.enter(game_id, "publish", {}, {"turn": 1}, version=entry.version)
    same = client.post(f"/console/{game_id}/gm/amend", data={
        "csrf": guard.csrf_token(game_id, token), "version": str(console.state(game_id).version),
        "turn": "1", "g0_1": "3", "g0_2": "7"})
    assert same.status_code == 303 and "unchanged=1" in same.headers["location"]
    page = client.get(same.headers["location"]).text
    assert "No cell changes: nothing to amend." in page
    assert "no entry saved" not in page


def test_the_party_undo_button_names_the_table_and_round_it_takes_back(site):
    console, client = site
    made = console.create_game({"game": "lowest-unique",
                                "tables": [["Ann", "Bob", "Cy"], ["Dee", "Eve", "Fay"]]})
    client.get(f"/console/{made.id}/gm/{made.gm_token}")
    assert "Undo" not in client.get(f"/console/{made.id}/gm").text  # nothing to take back
    saved = client.post(f"/console/{made.id}/gm/round", data={
        "csrf": guard.csrf_token(made.id, made.gm_token),
        "version": str(console.state(made.id).version), "table": "2", "c0": "1", "c1": "2",
        "c2": "2"})
    assert saved.status_code == 303
    page = client.get(f"/console/{made.id}/gm").text
    assert re.search(r'<button type="submit" class="secondary">Undo table 2, round 1</button>',
                     page)


def test_the_footer_says_where_games_are_kept_only_for_a_local_sqlite_file(site, monkeypatch):
    console, client = site
    local = client.get("/console").text
    assert "in a SQLite file on the computer that runs it" in local
    monkeypatch.setattr(type(console), "stored_locally", property(lambda self: False))
    elsewhere = client.get("/console").text
    assert "SQLite" not in elsewhere and "this computer" not in elsewhere
    assert re.search(r"number-party-kit [0-9.]+\.</p>", elsewhere)


def test_players_learn_of_an_amended_turn_on_the_public_page_and_in_the_text(site):
    import io

    from pypdf import PdfReader

    console, client = site
    made = console.create_game({"game": "whats-my-number", "players": PLAYERS, "range": "1-30",
                                "secrets": {"Ann": 3, "Bob": 5, "Cy": 7, "Dee": 9}})
    entry = console.enter(made.id, "orders", {"orders": {"Ann": [5, 6]}},
                          version=console.state(made.id).version)
    console.enter(made.id, "publish", {}, {"turn": 1}, version=entry.version)
    assert "was amended" not in client.get(f"/console/{made.id}").text
    console.enter(made.id, "amend", {"orders": {"Ann": [5, 7]}, "confirm": True}, {"turn": 1},
                  version=console.state(made.id).version)
    page = client.get(f"/console/{made.id}").text
    notice = re.search(r'<p class="warning amended">(.*?)</p>', page, re.S)[1]
    assert notice.startswith("Turn 1 was amended after it was handed out.")
    links = re.findall(r'<a href="([^"]+)">', notice)
    assert links == [f"/console/{made.id}/files/erratum.pdf",
                     f"/console/{made.id}/files/erratum.html"]
    erratum = client.get(links[0])
    assert erratum.status_code == 200
    text = PdfReader(io.BytesIO(erratum.content)).pages[0].extract_text()
    assert "Ann 2" in text and "Cy" in text  # the cell the amendment changed
    assert client.get(links[1]).status_code == 200
    report = client.get(f"/console/{made.id}/files/report.txt").text
    assert report.splitlines()[0] == ("Turn 1 was amended after it was handed out. Erratum: "
                                      f"http://testserver/console/{made.id}/files/erratum.pdf")


def test_a_grid_shows_its_own_and_the_engines_problems_at_once(site):
    console, client, game_id, token = gm_client(site)
    posted = client.post(f"/console/{game_id}/gm/turn", data={
        "csrf": guard.csrf_token(game_id, token), "version": str(console.state(game_id).version),
        "g0_1": "5O", "t3": "1", "l3_0": "5", "l3_1": "99", "l3_2": "7"})
    assert posted.status_code == 422
    summary = re.search(r'<div class="error-summary".*?</ul>', posted.text, re.S)[0]
    links = re.findall(r'<a href="#([\w-]+)">([^<]*)</a>', summary)
    assert [href for href, _ in links] == ["g0_1", "l3_1"]  # the form's and the engine's
    assert "Nothing was saved: 2 problems" in posted.text
    assert "turn" not in tomllib.loads(console.export_log(game_id))  # nothing recorded
