"""The console's pages cost what their new turn costs, not the game: the GM's, the public and a
player's page lay out the latest published turns within an answer budget (the older ones are in
the report files); a player's post and a forecast play the open turn on the kept record; a big
grid's list boxes are written in one pass; the GM page is made off the event loop."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from kit.games.whats_my_number.console import turns as console_turns  # noqa: E402
from kit.games.whats_my_number.console.grid import grid_rows  # noqa: E402
from kit.i18n import words  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def log(turns: int) -> dict:
    """A game of ``turns`` published turns, two guesses a player each, nobody hit."""
    return {"game": "whats-my-number", "players": PLAYERS, "range": "1-30",
            "secrets": {"Ann": 21, "Bob": 22, "Cy": 23, "Dee": 24}, "published": turns,
            "turn": [{p: [turn, turn + 5] for p in PLAYERS} for turn in range(1, turns + 1)]}


def test_the_latest_turns_within_the_answer_budget_newest_first() -> None:
    game = log(6)
    # each turn: 8 guess rows of 4 answers = 32 answers
    shown, _ = console_turns.published_reports(game, 6, words("en"), recent=10, cells=70)
    assert [t["number"] for t in shown] == [6, 5]
    shown, _ = console_turns.published_reports(game, 6, words("en"), recent=3, cells=10_000)
    assert [t["number"] for t in shown] == [6, 5, 4]
    # the latest turn is shown even alone past the budget
    shown, _ = console_turns.published_reports(game, 6, words("en"), recent=10, cells=5)
    assert [t["number"] for t in shown] == [6]
    assert len(shown[0]["rows"]) == 8 and all(len(r["cells"]) == 4 for r in shown[0]["rows"])


def test_the_gm_page_says_where_the_turns_it_leaves_out_are(monkeypatch) -> None:
    from kit.console.specs import console_of

    monkeypatch.setattr(console_turns, "RECENT_CELLS", 70)
    game = log(6)
    seen = {"published": 6, "log": game, "players": PLAYERS, "secrets": game["secrets"],
            "lang": "en"}
    page = console_of("whats-my-number").gm_page(seen, words("en"), {}, None, None)
    assert [t["number"] for t in page.context["reports"]] == [6, 5]
    assert page.context["older_turns"] == 4


def test_list_boxes_escape_names_and_keep_typed_values() -> None:
    players = ["A&B", "<Cy>", "Dee"]
    rows = grid_rows(players, {p: 2 for p in players}, {"Dee": {"list": {"A&B": 7}}},
                     words("en"), posted={"l2_1": "9<", "t2": "1"})
    html = str(rows[2]["list"])
    assert 'for="l2_0">A&amp;B<' in html and 'for="l2_1">&lt;Cy&gt;<' in html
    assert 'value=""' in html and 'value="9&lt;"' in html  # posted values win over entries
    assert html.count("<input") == 2 and 'data-enter="row"' in html.split("\n")[-1]
    entered = grid_rows(players, {p: 2 for p in players}, {"Dee": {"list": {"A&B": 7}}},
                        words("en"))
    assert 'id="l2_0" name="l2_0" value="7"' in str(entered[2]["list"])
    assert "<script" not in html


def toml_log(turns: int) -> str:
    """``log(turns)`` as the TOML an import reads, its last turn open."""
    lines = ['game = "whats-my-number"', f"players = {PLAYERS!r}".replace("'", '"'),
             'range = "1-30"', f"published = {turns - 1}", "", "[secrets]"]
    lines += [f"{p} = {21 + i}" for i, p in enumerate(PLAYERS)]
    for turn in range(1, turns + 1):
        lines += ["", "[[turn]]"] + [f"{p} = [{turn}, {turn + 5}]" for p in PLAYERS[1:]]
        lines += [] if turn == turns else [f"{PLAYERS[0]} = [{turn}, {turn + 6}]"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("page_first", [True, False])
def test_an_entry_after_a_start_resumes_from_the_published_turns_a_page_played(
        tmp_path, monkeypatch, page_first: bool) -> None:
    from kit.console.service import open_console
    from kit.console.specs import console_of
    from kit.games.whats_my_number.console import record as console_record
    from kit.games.whats_my_number.rules import checking

    database = str(tmp_path / "console.sqlite3")
    first = open_console(database, tmp_path / "files")
    made = first.import_log(toml_log(6))
    first.close()
    with console_record._lock:
        console_record._records.clear()  # a new server: nothing kept
    with console_turns._played_lock:
        console_turns._played_kept.clear()
    console = open_console(database, tmp_path / "files")
    try:
        if page_first:
            console_of("whats-my-number").gm_page(console.state(made.id).seen(), words("en"),
                                                  {}, None, None)
        whole: list[int] = []
        checked_whole = checking._whole
        monkeypatch.setattr(checking, "_whole", lambda data, reports=None: (
            whole.append(len(data.get("turn", []))), checked_whole(data, reports))[1])
        console.enter(made.id, "orders", {"orders": {PLAYERS[0]: [3, 4]}})
        # the entry checked the open turn on the page's replay of the five published ones;
        # with no page seen first, it checks the game whole (its six turns)
        assert whole == ([] if page_first else [6])
        assert console.state(made.id).seen()["log"]["turn"][5][PLAYERS[0]] == [3, 4]
    finally:
        console.close()


def test_the_gm_page_is_made_and_rendered_off_the_event_loop(tmp_path, monkeypatch) -> None:
    """A big game's page is a few hundred milliseconds of work: on the event loop it would
    hold every other client's request for that long."""
    import asyncio

    from starlette.testclient import TestClient
    from support.console_db import console_app

    from kit.console.pages import base as page_kit
    from kit.console.service import open_console
    from kit.games.whats_my_number.console import pages as console_pages

    def on_loop() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    seen: list[tuple[str, bool]] = []
    open_turn, environment = console_pages.open_turn, page_kit.site_environment
    monkeypatch.setattr(console_pages, "open_turn", lambda *a: (
        seen.append(("page", on_loop())), open_turn(*a))[1])
    monkeypatch.setattr(page_kit, "site_environment", lambda *a: (
        seen.append(("render", on_loop())), environment(*a))[1])
    console = open_console(str(tmp_path / "console.sqlite3"), tmp_path / "files")
    made = console.import_log(toml_log(3))
    app = console_app()
    app.state.console = console
    try:
        with TestClient(app, base_url="http://localhost") as client:
            client.get(f"/console/{made.id}/gm/{made.gm_token}", follow_redirects=False)
            seen.clear()
            assert client.get(f"/console/{made.id}/gm").status_code == 200
    finally:
        console.close()
    assert ("page", False) in seen and ("render", False) in seen
    assert not [what for what, loop in seen if loop]


def test_the_public_and_player_boards_lay_out_the_latest_turns_and_say_where_the_rest_are(
        monkeypatch) -> None:
    from kit.games.whats_my_number.console.start import board
    from kit.games.whats_my_number.console.state import public_turn

    monkeypatch.setattr(console_turns, "RECENT_CELLS", 70)
    game = log(6)
    played = console_turns.played(game, 6)
    public = {"players": PLAYERS, "published": 6, "lang": "en",
              "turns": [public_turn(t) for t in played.turns[:6]]}
    shown = board(public, words("en"))
    assert [t["number"] for t in shown["turns"]] == [6, 5] and shown["older_turns"] == 4
    monkeypatch.setattr(console_turns, "RECENT_CELLS", 10_000)
    shown = board(public, words("en"))
    assert [t["number"] for t in shown["turns"]] == [6, 5, 4, 3, 2, 1]
    assert shown["older_turns"] == 0


def test_a_players_page_writes_out_the_latest_slips_and_heads_the_older_ones() -> None:
    from kit.games.whats_my_number.console.player_page import player_page, player_text

    slips = [{"turn": n, "orders": [n, n + 1], "rulings": [],
              "text": f"Ann · turn {n} · private\nGuess 1 ({n}): Bob H"} for n in range(1, 13)]
    data = {"id": "g", "player": "Ann", "slips": slips, "turn": 13, "allowance": 2,
            "orders": None, "rulings": []}
    shown = player_page(data, words("en"), {}, own="/console/g/p/T/files/").context["slips"]
    assert [s["turn"] for s in shown] == list(range(12, 0, -1))
    assert all(len(s["lines"]) == 2 for s in shown[:console_turns.RECENT_TURNS])
    assert [s["lines"] for s in shown[console_turns.RECENT_TURNS:]] == [
        ["Ann · turn 2 · private"], ["Ann · turn 1 · private"]]
    # each older slip keeps its files, and the text report keeps every slip whole
    assert shown[-1]["files"][-1]["href"] == "/console/g/p/T/files/slips-turn-1.pdf"
    assert player_text(data, words("en")).count("Guess 1 (") == 12


def test_a_players_post_plays_the_open_turn_not_the_game(tmp_path, monkeypatch) -> None:
    from kit.console.service import open_console
    from kit.errors import Problems
    from kit.games.whats_my_number.rules import engine

    console = open_console(str(tmp_path / "console.sqlite3"), tmp_path / "files")
    try:
        made = console.import_log(toml_log(8))
        player = {"player": PLAYERS[0]}
        console.enter(made.id, "sent", {"guesses": [3, 4]}, player)  # a first post: kept
        console.player_state(made.id, PLAYERS[0])
        turns: list[int] = []
        step = engine.Progress.play
        monkeypatch.setattr(engine.Progress, "play", lambda self, log, *a, **k: (
            turns.append(len(log.turns)), step(self, log, *a, **k))[1])
        entered = console.enter(made.id, "sent", {"guesses": [5, 6]}, player)
        seen = console.player_state(made.id, PLAYERS[0])
        assert entered.answer["orders"] == [5, 6] and seen["orders"] == [5, 6]
        # the entry's check, its answer's forecast and the new view's: the open turn each,
        # never the seven handed-out turns again
        assert turns and len(turns) <= 4, turns
        turns.clear()
        with pytest.raises(Problems, match='guess 2 is "x", not a whole number'):
            console.enter(made.id, "sent", {"guesses": [5, "x"]}, player)
        assert len(turns) <= 1, turns  # a bad post: the open turn once, for every problem
    finally:
        console.close()


def test_the_shared_part_of_the_players_pages_is_laid_out_once_a_public_version(
        tmp_path, monkeypatch) -> None:
    from starlette.testclient import TestClient
    from support.console_db import console_app

    from kit.console.service import open_console
    from kit.games.whats_my_number.console import start as console_start

    laid_out: list[int] = []
    public_turns = console_start.public_turns
    monkeypatch.setattr(console_start, "public_turns", lambda public, w: (
        laid_out.append(int(public["published"])), public_turns(public, w))[1])
    console = open_console(str(tmp_path / "console.sqlite3"), tmp_path / "files")
    made = console.import_log(toml_log(3))
    app = console_app()
    app.state.console = console
    pages = {p: f"/console/{made.id}/p/{made.seat_tokens[('player', p)]}" for p in PLAYERS}
    try:
        with TestClient(app, base_url="http://localhost") as client:
            for player in PLAYERS:
                page = client.get(pages[player])
                assert page.status_code == 200 and 'id="report-2-caption"' in page.text
            # a player's post moves their own view, not the public one
            console.enter(made.id, "sent", {"guesses": [9, 10]}, {"player": PLAYERS[0]})
            assert 'id="report-2-caption"' in client.get(pages[PLAYERS[0]]).text
            assert laid_out == [2]
            console.enter(made.id, "publish", {}, {"turn": 3})
            assert 'id="report-3-caption"' in client.get(pages[PLAYERS[1]]).text
            assert laid_out == [2, 3]
    finally:
        console.close()


def test_the_public_view_is_made_once_a_public_version(tmp_path) -> None:
    """A player's post or a GM entry into the open turn is a new journal version the public
    does not see: the public view is the one made, not made again (and weighed) for it."""
    from kit.console.service import PUBLIC, open_console

    console = open_console(str(tmp_path / "console.sqlite3"), tmp_path / "files")
    try:
        made = console.import_log(toml_log(3))
        first = console.view(made.id, PUBLIC)
        console.enter(made.id, "sent", {"guesses": [9, 10]}, {"player": PLAYERS[0]})
        console.enter(made.id, "orders", {"orders": {PLAYERS[1]: [4, 5]}})
        assert console.view(made.id, PUBLIC) is first
        console.enter(made.id, "publish", {}, {"turn": 3})
        after = console.view(made.id, PUBLIC)
        assert after is not first and after.data["published"] == 3
        assert after.data["version"] == first.data["version"] + 1
    finally:
        console.close()


def test_each_games_declared_private_reports_are_its_views_hidden_ones(tmp_path) -> None:
    """A game's private reports are declared once: the console hides them from every view
    but the GM's (the public's and a player's), and the file lists read the declaration."""
    from kit.console.service import PUBLIC, open_console
    from kit.console.specs import console_of

    console = open_console(str(tmp_path / "console.sqlite3"), tmp_path / "files")
    try:
        wmn = console.import_log(toml_log(3))
        lun = console.create_game({"game": "lowest-unique", "tables": [["A", "B", "C"]],
                                   "rounds": 2})
        for made, kind in ((wmn, "whats-my-number"), (lun, "lowest-unique")):
            assert console.view(made.id, PUBLIC).hidden == console_of(kind).private_reports
        assert console.view(wmn.id, f"player:{PLAYERS[0]}").hidden == \
            console_of("whats-my-number").private_reports == ("register", "slip", "secret")
    finally:
        console.close()


def test_the_gm_page_makes_no_public_view(tmp_path) -> None:
    """The GM page lists the files without the public view (a big game's is megabytes to
    make): its first view after a start costs the GM's own view."""
    from starlette.testclient import TestClient
    from support.console_db import console_app

    from kit.console.service import PUBLIC, open_console

    console = open_console(str(tmp_path / "console.sqlite3"), tmp_path / "files")
    made = console.import_log(toml_log(3))
    app = console_app()
    app.state.console = console
    made_views: list[str] = []
    make = console._make_view
    console._make_view = lambda loaded, who: (made_views.append(who), make(loaded, who))[1]
    try:
        with TestClient(app, base_url="http://localhost") as client:
            client.get(f"/console/{made.id}/gm/{made.gm_token}", follow_redirects=False)
            page = client.get(f"/console/{made.id}/gm")
            assert page.status_code == 200 and "turn-reports.pdf" in page.text
            assert PUBLIC not in made_views and made_views, made_views
    finally:
        console.close()
