"""The GM page's cost does not grow with the game: the published turns it lays out are the
latest ones within an answer budget, and a big grid's list boxes are the boxes it needs."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from kit.games.whats_my_number import console_turns  # noqa: E402
from kit.games.whats_my_number.console_grid import grid_rows  # noqa: E402
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
    from kit.games.whats_my_number import checking, console_record

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

    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from kit.console import page_kit
    from kit.console.routes import routes
    from kit.console.service import open_console
    from kit.games.whats_my_number import console_pages

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
    app = Starlette(routes=routes())
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
