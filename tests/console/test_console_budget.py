"""The console's report renders under the render pool's page budget: the game estimates a
folder's pages before it is rendered; one over the cap is refused with a page saying so (in
its language), never rendered; a client whose renders in line add up past its page budget is
asked to come back, while another client's render starts at once."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from test_console_served import PLAYERS, played  # noqa: E402

from kit.console.report_render import BeingMade, Queued  # noqa: E402
from kit.console.service import PUBLIC  # noqa: E402
from kit.games.whats_my_number.console.report_pages import report_pages  # noqa: E402


@pytest.fixture
def site(make_site):
    """A server with a console (renders in threads of the render pool), and its client."""
    from starlette.testclient import TestClient

    console, app = make_site(workers=2, queue=10, per_client=10)
    with TestClient(app, follow_redirects=False) as client:
        yield console, client


def test_the_games_estimate_grows_with_players_and_handed_out_turns() -> None:
    small = {"players": PLAYERS, "published": 1}
    assert report_pages(small, None) == 1 + 1 + 2  # a report, a page of slips, the register
    big = {"players": [f"P{n}" for n in range(100)], "published": 200}
    assert report_pages(big, None) == 200 * 4 + 2500 + 1 + 500
    assert report_pages(big, 7) == 4 + 13  # one turn's report and slips
    assert report_pages({"players": PLAYERS, "published": 0}, None) == 1


def test_a_folder_over_the_page_cap_is_refused_in_the_pages_language(site, held_renders) -> None:
    console, client = site
    calls, _ = held_renders
    game, _ = played(client)
    console.folders.max_pages = 3  # the game's folder has about 4
    refused = client.get(f"/console/{game}/files/turn-reports.pdf")
    assert refused.status_code == 413
    assert "would have about 4 pages" in refused.text and "at most 3" in refused.text
    french = client.get(f"/console/{game}/files/turn-reports.pdf?lang=fr")
    assert french.status_code == 413 and "environ 4 pages" in french.text
    assert calls == []  # never rendered


def test_a_client_past_its_page_budget_waits_and_another_does_not(site, held_renders) -> None:
    console, client = site
    calls, release = held_renders
    pool = console.folders.pool
    pool.page_budget = 5  # one 4-page folder at a time
    games = [played(client)[0] for _ in range(3)]
    with pytest.raises(BeingMade):
        console.report_folder(games[0], PUBLIC, client="10.0.0.1")
    with pytest.raises(Queued):  # 4 + 4 pages past 5: asked to come back
        console.report_folder(games[1], PUBLIC, client="10.0.0.1")
    with pytest.raises(BeingMade) as other:  # another client: started at once
        console.report_folder(games[1], PUBLIC, client="10.0.0.2")
    keys = [key for key in list(pool._jobs) if games[1] in key]
    assert len(keys) == 1 and pool.owner(keys[0]) == "10.0.0.2" and pool.place(keys[0]) == 0
    release.set()
    other.value.future.result(60)
    for _ in range(200):  # once the first client's render is done, its next one starts
        try:
            console.report_folder(games[2], PUBLIC, client="10.0.0.1")
        except Queued:
            threading.Event().wait(0.05)
            continue
        except BeingMade as making:
            making.future.result(60)
        break
    assert (console.files / games[2]).is_dir() and len(calls) == 3


def test_folders_an_earlier_run_left_are_pruned_on_first_use(tmp_path) -> None:
    import shutil

    from kit.console.service import open_console

    def console_at():  # noqa: ANN202
        return open_console(str(tmp_path / "c.db"), tmp_path / "files")

    console = console_at()
    try:
        game = console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                    "secrets": dict(zip(PLAYERS, (17, 22, 8, 25), strict=True)),
                                    "range": "1-30"}).id
        console.enter(game, "orders", {"orders": {p: [1, 2] for p in PLAYERS}})
        console.enter(game, "publish", {}, {"turn": 1})
        made = console.report_folder(game, PUBLIC)
    finally:
        console.close()
    content = made.parent
    left = content.with_name("public-" + "0" * 16)  # an older version's, left behind
    shutil.copytree(content, left)
    again = console_at()  # the next run
    try:
        assert again.report_folder(game, PUBLIC) == made
        names = sorted(p.name for p in (tmp_path / "files" / game).iterdir()
                       if not p.name.startswith("."))
        assert names == [content.name] and not left.exists() and made.is_dir()
        assert again.folders.prune(game, PUBLIC) == 0
    finally:
        again.close()
