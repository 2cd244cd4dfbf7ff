"""A third game added from outside ``kit/``: its package (``tests/support/toy_game``) and a registry
entry made in the test. The console's JSON API, its pages and its start form take it without
a line of ``kit/`` changing: nothing in ``kit/`` names it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402
from support.console_db import console_app  # noqa: E402
from support.toy_game import GAME, NAME  # noqa: E402

import kit.registry  # noqa: E402
from kit.console.pages import auth as guard  # noqa: E402
from kit.console.service import open_console  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(kit.registry.GAMES, NAME, GAME)  # the one line a registry entry is
    console = open_console(str(tmp_path / "console.sqlite3"), tmp_path / "files")
    app = console_app()  # mounted after the game is registered: its paths too
    app.state.console = console
    with TestClient(app) as test_client:
        yield test_client
    console.close()


def test_a_third_game_plays_through_the_console_api(client: TestClient) -> None:
    made = client.post("/api/games", json={"game": NAME, "players": ["Ann", "Bob", "Cy"]})
    assert made.status_code == 201, made.text
    game = made.json()
    gm = {"Authorization": f"Bearer {game['gm_token']}"}
    url = f"/api/games/{game['id']}"
    first = client.post(f"{url}/bids", json={"bids": {"ann": 9, "Bob": 9, "Cy": 4}}, headers=gm)
    assert first.status_code == 201, first.text
    assert first.json() == {"round": 1, "points": {"Ann": 0, "Bob": 0, "Cy": 1},
                            "version": 2}
    bad = client.post(f"{url}/bids", json={"bids": {"Ann": 12, "Zed": 1}}, headers=gm)
    assert bad.status_code == 422 and len(bad.json()["errors"]) == 2  # every problem at once
    client.post(f"{url}/bids", json={"bids": {"Ann": 5}}, headers=gm)
    assert client.post(f"{url}/undo", headers=gm).json() == {"version": 4}
    public = client.get(f"{url}/public.json").json()
    assert public["points"] == {"Ann": 0, "Bob": 0, "Cy": 1} and public["rounds"] == 1
    assert "log" not in public  # the GM's view only
    state = client.get(f"{url}/state.json", headers=gm).json()
    assert state["log"]["round"] == [{"Ann": 9, "Bob": 9, "Cy": 4}]
    assert [e["text"] for e in state["entries"]][1] == "round entered for Ann, Bob, Cy"
    other = client.post("/api/games", json={"game": "lowest-unique",
                                            "tables": [["A", "B", "C"]]}).json()
    wrong = client.post(f"/api/games/{other['id']}/bids", json={"bids": {}},
                        headers={"Authorization": f"Bearer {other['gm_token']}"})
    assert wrong.status_code == 422 and NAME in wrong.text  # a path of another game
    log = client.get(f"{url}/log.toml", headers=gm).text
    copy = client.post("/api/games/import", content=log.encode(),
                       headers={"content-type": "application/toml"})
    assert copy.status_code == 201
    assert client.get(f"/api/games/{copy.json()['id']}/public.json").json()["points"] == \
        public["points"]


def test_a_third_games_pages_are_its_own_templates(client: TestClient) -> None:
    start = client.get("/console")
    assert "New Highest Number game" in start.text and 'action="/console/new/toy' in start.text
    made = client.post("/console/new/toy", data={"names": "Ann\nBob", "lang": "en",
                                                 "paper": "a4"},
                       headers={"sec-fetch-site": "same-origin"}, follow_redirects=False)
    assert made.status_code == 303, made.text
    client.get(made.headers["location"])  # the GM link sets the cookie
    game_id = made.headers["location"].split("/")[2]
    page = client.get(f"/console/{game_id}/gm")
    assert page.status_code == 200 and 'id="toy-gm-points"' in page.text
    csrf = guard.csrf_token(game_id, client.cookies[guard.COOKIE])
    saved = client.post(f"/console/{game_id}/gm/bids",
                        data={"csrf": csrf, "version": "1", "Ann": "3", "Bob": "7"},
                        headers={"sec-fetch-site": "same-origin"}, follow_redirects=False)
    assert saved.status_code == 303, saved.text
    public = client.get(f"/console/{game_id}")
    assert public.status_code == 200 and 'id="toy-points"' in public.text
    assert "<th>Bob</th><td>1</td>" in public.text


def test_nothing_in_kit_names_the_third_game() -> None:
    named = subprocess.run(["git", "grep", "-l", "-e", NAME, "-e", "toy_game", "--", "kit"],
                           cwd=ROOT, capture_output=True, text=True)
    assert named.returncode == 1 and named.stdout == ""  # git grep: 1 is "nothing found"
