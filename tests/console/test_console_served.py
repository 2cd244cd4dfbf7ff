"""What the console keeps and how it serves it: views and public answers made once per version
and viewer (never a GM view for the public), bounded in bytes; an ETag and a 304 for every
public answer; a public version that counts no unpublished entry; report files rendered once
however many ask (single flight), in the render pool, with a "being made" page meanwhile; old
report folders pruned."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402

from kit.console.answer_cache import AnswerCache  # noqa: E402
from kit.console.pages import public as pages_public  # noqa: E402
from kit.console.service import GM, PUBLIC, Console, open_console  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SECRETS = {"Ann": 17, "Bob": 22, "Cy": 8, "Dee": 25}


@pytest.fixture
def site(make_site):
    """A server with a console (renders in threads of the render pool), and its client."""
    console, app = make_site(workers=2, queue=10, per_client=10)
    with TestClient(app, follow_redirects=False) as client:
        yield console, client


def new_game(client: TestClient) -> tuple[str, dict[str, str]]:
    made = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                           "secrets": SECRETS, "range": "1-30"})
    assert made.status_code == 201, made.text
    game = made.json()
    return game["id"], {"Authorization": f"Bearer {game['gm_token']}"}


def orders(client: TestClient, game: str, gm: dict, turn: int) -> None:
    answer = client.post(f"/api/games/{game}/turns", headers=gm, json={
        "orders": {p: [1 + (turn + i) % 5, 10 + i] for i, p in enumerate(PLAYERS)}})
    assert answer.status_code == 201, answer.text


def publish(client: TestClient, game: str, gm: dict, turn: int) -> None:
    answer = client.post(f"/api/games/{game}/turns/{turn}/publish", headers=gm)
    assert answer.status_code == 200, answer.text


def played(client: TestClient, turns: int = 1) -> tuple[str, dict[str, str]]:
    game, gm = new_game(client)
    for turn in range(1, turns + 1):
        orders(client, game, gm, turn)
        publish(client, game, gm, turn)
    return game, gm


def until_made(client: TestClient, url: str, tries: int = 200):
    """The answer of ``url`` once its report files are made (not "being made")."""
    for _ in range(tries):
        answer = client.get(url)
        if answer.status_code != 503 and "being made" not in answer.text:
            return answer
        threading.Event().wait(0.1)
    raise AssertionError(f"{url} still being made")


# --- the views: keyed by viewer, bounded in bytes --------------------------------------------

def test_a_game_masters_view_is_never_served_to_the_public(site) -> None:
    console, client = site
    game, gm = played(client)
    orders(client, game, gm, 2)  # the open turn: the GM's alone
    state = client.get(f"/api/games/{game}/state.json", headers=gm).json()  # the GM's, first
    assert state["secrets"] == SECRETS
    public = client.get(f"/api/games/{game}/public.json").json()
    assert "secrets" not in public and "17" not in str(public.get("players"))
    assert public == console.public_state(game) != dict(console.view(game, GM).data)
    assert len(public["turns"]) == 1  # the unpublished turn 2 is not there


def test_the_kept_views_and_answers_stay_within_their_bytes(tmp_path) -> None:
    console = open_console(str(tmp_path / "c.db"), tmp_path / "files")
    try:
        games = [console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                      "secrets": SECRETS, "range": "1-30"}).id
                 for _ in range(12)]

        def seen(game: str) -> None:
            for who in (GM, PUBLIC, "player:Ann"):
                console.view(game, who)
            console.public_json(game)

        seen(games[0])
        one = console.answers.bytes  # one game's views and public.json
        console.answers = AnswerCache(3 * one + 10)  # three games' worth
        for game in games:
            seen(game)
            assert console.answers.bytes <= 3 * one + 10
        # the newest three games' four things, and each one's public view by public version
        assert len(console.answers) == 3 * 5
        first = console.public_json(games[0])  # made again, the same answer
        assert first.body == console.public_json(games[0]).body
    finally:
        console.close()


def test_the_byte_bound_drops_the_least_recently_used_and_keeps_no_giant() -> None:
    kept = AnswerCache(1000)
    for n in range(5):
        kept.put(n, f"value {n}", 200)
    kept.get(0)  # used: kept
    kept.put(5, "value 5", 200)
    assert kept.bytes == 1000 and kept.get(1) is None and kept.get(0) == "value 0"
    kept.put("giant", "x", 251)  # over a quarter of the bound: not kept
    assert kept.get("giant") is None and kept.bytes == 1000


# --- the public version: no count of unpublished entries -------------------------------------

def test_public_json_version_and_etag_do_not_move_with_unpublished_entries(site) -> None:
    _, client = site
    game, gm = played(client)
    before = client.get(f"/api/games/{game}/public.json")
    orders(client, game, gm, 2)
    undone = client.post(f"/api/games/{game}/undo", headers=gm)
    assert undone.status_code == 200
    orders(client, game, gm, 2)
    after = client.get(f"/api/games/{game}/public.json")
    assert after.json()["version"] == before.json()["version"] == 2  # made, turn 1
    assert after.headers["etag"] == before.headers["etag"] and after.content == before.content
    assert client.get(f"/api/games/{game}/version.json").json() == {"version": 2}
    publish(client, game, gm, 2)
    moved = client.get(f"/api/games/{game}/public.json")
    assert moved.json()["version"] == 3 and moved.headers["etag"] != before.headers["etag"]
    page = client.get(f"/console/{game}/standings").text
    assert 'data-version="3"' in page


# --- ETag and 304 on every public answer -----------------------------------------------------

@pytest.mark.parametrize("path", ["/api/games/{id}/public.json", "/api/games/{id}/version.json",
                                  "/console/{id}", "/console/{id}/standings",
                                  "/console/{id}/files/report.txt",
                                  "/console/{id}/files/turn-reports.pdf"])
def test_every_public_answer_has_an_etag_and_answers_304(site, path: str) -> None:
    _, client = site
    game, gm = played(client)
    url = path.format(id=game)
    first = until_made(client, url)
    assert first.status_code == 200 and first.content
    tag = first.headers["etag"]
    # (the compressed form's own tag: the test client takes gzip)
    assert re.fullmatch(r'"[0-9a-f]{32}(?:-gzip)?"', tag)
    assert first.headers["cache-control"] == "no-cache"
    again = client.get(url, headers={"if-none-match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    assert client.get(url, headers={"if-none-match": '"other"'}).status_code == 200
    orders(client, game, gm, 2)
    publish(client, game, gm, 2)
    changed = until_made(client, url) if "files" in url else client.get(
        url, headers={"if-none-match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag


def test_a_page_etag_names_its_language(site) -> None:
    _, client = site
    game, _ = played(client)
    english = client.get(f"/console/{game}/standings")
    french = client.get(f"/console/{game}/standings?lang=fr",
                        headers={"if-none-match": english.headers["etag"]})
    assert french.status_code == 200 and french.headers["content-language"] == "fr"
    assert french.headers["etag"] != english.headers["etag"]


def test_the_standings_script_is_allowed_by_its_hash_and_follows_the_stream(site) -> None:
    _, client = site
    game, _ = played(client)
    page = client.get(f"/console/{game}/standings")
    script = re.search(r"<script>(.*?)</script>", page.text, re.S)[1]
    import base64
    import hashlib

    sha = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    csp = page.headers["content-security-policy"]
    assert f"script-src 'self' 'sha256-{sha}'; connect-src 'self'" in csp
    # no polling: the live pages' script follows the public stream from the shown version
    assert "fetch(" not in script and "version.json" not in script  # no polling: the stream
    assert '<script src="/console/live.js" defer></script>' in page.text
    version = client.get(f"/api/games/{game}/version.json").json()["version"]
    assert f'data-events="/console/{game}/events" data-version="{version}"' in page.text
    live = client.get("/console/live.js")
    assert live.status_code == 200 and live.headers["content-type"].startswith("text/javascript")
    assert "new EventSource(" in live.text


def test_a_standings_hit_at_an_unchanged_version_is_a_version_read_and_a_lookup(
        site, monkeypatch) -> None:
    import jinja2

    console, client = site
    game, gm = played(client)
    first = client.get(f"/console/{game}/standings")
    assert first.status_code == 200
    renders: list[str] = []
    reads: list[str] = []
    render = jinja2.Template.render
    monkeypatch.setattr(jinja2.Template, "render", lambda self, *a, **k: (
        renders.append(str(self.name)), render(self, *a, **k))[1])
    for name in ("game", "load", "since"):
        real = getattr(console.store, name)
        monkeypatch.setattr(console.store, name, lambda *a, _n=name, _r=real, **k: (
            reads.append(_n), _r(*a, **k))[1])
    again = client.get(f"/console/{game}/standings")
    held = client.get(f"/console/{game}/standings",
                      headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 200 and again.content == first.content
    assert again.headers["content-security-policy"] == first.headers["content-security-policy"]
    assert held.status_code == 304 and held.headers["etag"] == first.headers["etag"]
    assert renders == [] and reads == ["game", "game"]
    orders(client, game, gm, 2)
    publish(client, game, gm, 2)
    moved = client.get(f"/console/{game}/standings",
                       headers={"if-none-match": first.headers["etag"]})
    assert moved.status_code == 200 and "console/standings.html" in renders


# --- report files: single flight, being made, pruning ----------------------------------------

def test_six_first_requests_make_one_render(site, held_renders) -> None:
    console, client = site
    calls, release = held_renders
    game, _ = played(client)
    answers: list = []

    def fetch() -> None:
        answers.append(client.get(f"/console/{game}/files/turn-reports.pdf"))

    askers = [threading.Thread(target=fetch) for _ in range(6)]
    for asker in askers:
        asker.start()
    threading.Event().wait(1.0)  # all six asking while the render is held
    release.set()
    for asker in askers:
        asker.join(120)
    assert [a.status_code for a in answers] == [200] * 6
    assert len({a.content for a in answers}) == 1 and answers[0].content.startswith(b"%PDF")
    assert len(calls) == 1 and console.folders.started == 1


def test_a_page_whose_files_are_being_made_says_so_and_does_not_wait(site, held_renders,
                                                                       monkeypatch) -> None:
    _, client = site
    calls, release = held_renders
    monkeypatch.setattr(pages_public, "FILE_WAIT_S", 0.2)
    game, _ = played(client)
    page = client.get(f"/console/{game}")
    assert page.status_code == 200 and "/files/turn-reports.pdf" not in page.text
    assert "The report files are being made" in page.text
    assert page.headers["refresh"] == "5" and 'http-equiv="refresh"' not in page.text
    french = client.get(f"/console/{game}?lang=fr").text
    assert "Les fichiers de rapport sont en cours de fabrication" in french
    link = client.get(f"/console/{game}/files/turn-reports.pdf")
    assert link.status_code == 503 and link.headers["retry-after"] == "5"
    assert "This file is being made" in link.text and link.headers["refresh"] == "5"
    assert len(calls) == 1  # the page, its French and the link: one render
    release.set()
    made = until_made(client, f"/console/{game}")
    assert "/files/turn-reports.pdf" in made.text and "being made" not in made.text
    assert "refresh" not in made.headers  # made: nothing reloads by itself


def test_old_versions_folders_are_pruned_keeping_the_newest_per_viewer(site) -> None:
    console, client = site
    game, gm = played(client)
    until_made(client, f"/console/{game}/files/turn-reports.pdf")
    folders = console.files / game
    first = sorted(p.name for p in folders.iterdir())
    assert len(first) == 1 and first[0].startswith("public-")
    console.report_file(game, "gm-register.pdf", GM)  # the GM's own folder
    orders(client, game, gm, 2)
    publish(client, game, gm, 2)
    until_made(client, f"/console/{game}/files/turn-reports.pdf")
    now = sorted(p.name for p in folders.iterdir() if not p.name.startswith("."))
    assert [n.split("-")[0] for n in now] == ["gm", "public"] and first[0] not in now


def test_a_folder_being_read_is_not_pruned(tmp_path) -> None:
    console = open_console(str(tmp_path / "c.db"), tmp_path / "files")
    try:
        game = console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                    "secrets": SECRETS, "range": "1-30"}).id
        old = _published_folder(console, game, 1)
        with console.folders.holding(old):
            new = _published_folder(console, game, 2)
            assert old.is_dir() and new.is_dir()
        assert console.folders.prune(game, PUBLIC) == 1 and not old.exists() and new.is_dir()
    finally:
        console.close()


def _published_folder(console: Console, game: str, turn: int) -> Path:
    console.enter(game, "orders", {"orders": {p: [1, 2 + turn] for p in PLAYERS}})
    console.enter(game, "publish", {}, {"turn": turn})
    return console.report_folder(game, PUBLIC)


def test_without_a_render_pool_renders_are_single_flight_in_threads(tmp_path) -> None:
    console = open_console(str(tmp_path / "c.db"), tmp_path / "files")
    try:
        assert console.folders.pool is None
        game = console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                    "secrets": SECRETS, "range": "1-30"}).id
        console.enter(game, "orders", {"orders": {p: [1, 2] for p in PLAYERS}})
        console.enter(game, "publish", {}, {"turn": 1})
        askers = [threading.Thread(target=console.report_file,
                                   args=(game, "turn-reports.pdf", PUBLIC)) for _ in range(4)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join(120)
        assert console.folders.started == 1
    finally:
        console.close()


def test_a_render_the_line_cannot_take_now_is_a_page_that_comes_back(site) -> None:
    from kit.server.pool import ClientBusy

    console, client = site

    class Full:
        def submit_work(self, key, work, client="", pages=0):  # noqa: ANN001, ANN201
            raise ClientBusy

    game, _ = played(client)
    console.folders.use(Full())
    assert console.report_listing(game, PUBLIC) is None  # said as being made
    page = client.get(f"/console/{game}")
    assert page.status_code == 200 and "The report files are being made" in page.text
    link = client.get(f"/console/{game}/files/turn-reports.pdf")
    assert link.status_code == 503 and link.headers["retry-after"] == "5"


def test_one_public_version_is_one_public_view(tmp_path) -> None:
    """Along a journal of entries, undos, publishes and an amendment (and a party's rounds),
    each public version shows one public view: an ETag made from it is never stale."""
    console = open_console(str(tmp_path / "c.db"), tmp_path / "files")
    try:
        game = console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                    "secrets": SECRETS, "range": "1-30"}).id
        party = console.create_game({"game": "lowest-unique",
                                     "tables": [["Ann", "Bob", "Cy"]]}).id
        steps = [
            (game, lambda: console.enter(game, "orders", {"orders": {"Ann": [1, 2]}})),
            (game, lambda: console.undo(game)),
            (game, lambda: console.enter(game, "orders", {"orders": {"Bob": [3, 4]}})),
            (game, lambda: console.enter(game, "publish", {}, {"turn": 1})),
            (game, lambda: console.enter(game, "orders", {"orders": {"Cy": [5, 6]}})),
            (game, lambda: console.enter(game, "amend", {"orders": {"Bob": [3, 5]},
                                                         "confirm": True}, {"turn": 1})),
            (party, lambda: console.enter(party, "round", {"choices": {
                "Ann": 3, "Bob": 1, "Cy": 1}}, {"table": 1})),
            (party, lambda: console.undo(party)),
            (party, lambda: console.enter(party, "round", {"choices": {
                "Ann": 2, "Bob": 2, "Cy": 1}}, {"table": 1})),
        ]
        seen: dict[tuple[str, int], dict] = {}
        for which, step in [(game, lambda: None), (party, lambda: None), *steps]:
            step()
            public = console.public_state(which)
            assert seen.setdefault((which, public["version"]), public) == public
        assert len({v for g, v in seen if g == game}) == 3  # made, published, amended
        assert len({v for g, v in seen if g == party}) == 4  # every entry of a party
    finally:
        console.close()
