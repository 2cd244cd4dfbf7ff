"""Who may do what in the console (SQLite and PostgreSQL): nothing public shows a secret number
or an unpublished entry; a missing or wrong token is 401/403 and changes nothing; cross-site
posts and oversized bodies are refused; only the token's hash is stored; the access log never
holds a GM link's token."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

import sqlalchemy as sa  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from support.helpers import writes_number  # noqa: E402

from kit.console.pages import auth as guard  # noqa: E402
from kit.console.routes import routes  # noqa: E402
from kit.console.service import Console  # noqa: E402
from kit.console.tokens import RedactTokens, redact  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SECRETS = {"Ann": 941, "Bob": 953, "Cy": 967, "Dee": 978, "Eve": 989}
PUBLISHED = {"Ann": [100, 200], "Bob": [300, 400], "Cy": [500, 600]}
UNPUBLISHED = {"Ann": [613, 617], "Bob": {"list": {"Ann": 771, "Cy": 773, "Dee": 775,
                                                   "Eve": 777}}}
HIDDEN = [*SECRETS.values(), 613, 617, 771, 773, 775, 777]


def gm(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def game(client: TestClient) -> dict:
    made = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                           "secrets": SECRETS, "range": "1-999"}).json()
    assert client.post(f"/api/games/{made['id']}/turns", json={"orders": PUBLISHED},
                       headers=gm(made["gm_token"])).status_code == 201
    assert client.post(f"/api/games/{made['id']}/turns/1/publish",
                       headers=gm(made["gm_token"])).status_code == 200
    assert client.post(f"/api/games/{made['id']}/turns", json={"orders": UNPUBLISHED},
                       headers=gm(made["gm_token"])).status_code == 201
    return made


def numbers_in(value: object) -> set[int]:
    if isinstance(value, dict):
        return set().union(*(numbers_in(v) for v in value.values()), set())
    if isinstance(value, list):
        return set().union(*(numbers_in(v) for v in value), set())
    return {value} if isinstance(value, int) and not isinstance(value, bool) else set()


def assert_nothing_hidden(text: str, where: str) -> None:
    for number in HIDDEN:
        assert not writes_number(number, text), f"{number} in {where}"
    assert "secret" not in text.lower() or where.endswith(".html"), where


def test_public_json_shows_only_published_turns(client: TestClient, game: dict) -> None:
    answer = client.get(f"/api/games/{game['id']}/public.json")
    data = answer.json()
    assert data["published"] == 1 and len(data["turns"]) == 1
    assert not numbers_in(data) & set(HIDDEN)
    assert "secrets" not in json.dumps(data)
    assert_nothing_hidden(answer.text, "public.json")
    # the published turn is there, as the players' sheet shows it: answers without the numbers
    # guessed (a number beside a check mark would be that player's secret)
    rows = data["turns"][0]["rows"]
    assert [(r["player"], r["index"]) for r in rows][:2] == [("Ann", 1), ("Ann", 2)]
    assert all("number" not in row and len(row["cells"]) == len(PLAYERS) for row in rows)
    assert not numbers_in(data) & {100, 200, 300, 400, 500, 600}


def test_a_published_hit_does_not_give_the_secret_away(client: TestClient) -> None:
    made = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                           "secrets": SECRETS, "range": "1-999"}).json()
    headers = gm(made["gm_token"])
    hit = {"Ann": [SECRETS["Cy"], 123]}  # Ann finds Cy's number
    assert client.post(f"/api/games/{made['id']}/turns", json={"orders": hit},
                       headers=headers).status_code == 201
    assert client.post(f"/api/games/{made['id']}/turns/1/publish",
                       headers=headers).status_code == 200
    answer = client.get(f"/api/games/{made['id']}/public.json")
    assert answer.json()["turns"][0]["rows"][0]["cells"][PLAYERS.index("Cy")] == "✓"
    assert_nothing_hidden(answer.text, "public.json")
    for path in (f"/console/{made['id']}", f"/console/{made['id']}/standings"):
        assert_nothing_hidden(client.get(path).text, path)


def test_public_pages_and_files_hide_secrets(client: TestClient, game: dict) -> None:
    """Every public page the console serves, and the public report files."""
    paths = [f"/console/{game['id']}", f"/console/{game['id']}/standings",
             f"/console/{game['id']}/files/turn-reports.html",
             f"/console/{game['id']}/files/report.txt"]
    for path in paths:
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert_nothing_hidden(answer.text, path if path.endswith(".txt") else path + ".html")
    for name in ("gm-register.html", "gm-register.pdf", "private-slips.pdf"):
        private = client.get(f"/console/{game['id']}/files/{name}")
        assert private.status_code == 403, name
        assert not any(str(number) in private.text for number in SECRETS.values())


def gm_cookie(client: TestClient, game: dict) -> None:
    """The browser's GM link: its token becomes the game's cookie."""
    link = client.get(f"/console/{game['id']}/gm/{game['gm_token']}", follow_redirects=False)
    assert link.status_code == 303 and guard.COOKIE in link.cookies


def test_gm_only_files_need_the_gm_cookie(client: TestClient, game: dict) -> None:
    url = f"/console/{game['id']}/files/private-slips.pdf"
    assert client.get(url).status_code == 403
    client.cookies.set(guard.COOKIE, "x" * 43)  # a forged cookie
    assert client.get(url).status_code == 403
    client.cookies.clear()
    gm_cookie(client, game)
    answer = client.get(url)
    assert answer.status_code == 200 and answer.content.startswith(b"%PDF")


def test_gm_pages_without_the_cookie_are_refused(client: TestClient, console: Console,
                                                 game: dict) -> None:
    version = console.state(game["id"]).version
    page = client.get(f"/console/{game['id']}/gm")
    assert page.status_code == 403
    assert not any(str(number) in page.text for number in SECRETS.values())
    assert client.get(f"/console/{game['id']}/log.toml").status_code == 403
    for action in ("turn", "publish", "undo", "amend"):
        answer = client.post(f"/console/{game['id']}/gm/{action}",
                             data={"version": str(version), "turn": "2", "g2_1": "5"},
                             headers={"sec-fetch-site": "same-origin"})
        assert answer.status_code == 403, action
    assert console.state(game["id"]).version == version


def test_gm_posts_need_this_games_signed_csrf_token(client: TestClient,
                                                    console: Console) -> None:
    game, other = (client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                                   "range": "1-999"}).json() for _ in range(2))
    gm_cookie(client, game)
    version = console.state(game["id"]).version
    url = f"/console/{game['id']}/gm/turn"
    form = {"version": str(version), "g2_1": "5", "g2_2": "6"}
    good = guard.csrf_token(game["id"], game["gm_token"])
    for csrf in ("", "forged", guard.csrf_token(other["id"], game["gm_token"]),
                 guard.csrf_token(game["id"], other["gm_token"]), good[:-2] + "xx"):
        answer = client.post(url, data={**form, guard.CSRF_FIELD: csrf},
                             headers={"sec-fetch-site": "same-origin"}, follow_redirects=False)
        assert answer.status_code == 403, csrf
    assert console.state(game["id"]).version == version
    answer = client.post(url, data={**form, guard.CSRF_FIELD: good},
                         headers={"sec-fetch-site": "same-origin"}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    assert console.state(game["id"]).version == version + 1


GM_CALLS = [("post", "/turns", {"orders": {"Cy": [1, 2]}}),
            ("post", "/turns/2/publish", None),
            ("post", "/turns/1/amend", {"orders": {"Ann": [941, 2]}, "confirm": True}),
            ("post", "/undo", None),
            ("get", "/log.toml", None),
            ("get", "/state.json", None)]


@pytest.mark.parametrize(("method", "path", "body"), GM_CALLS)
def test_missing_or_wrong_token_changes_nothing(client: TestClient, console: Console,
                                                game: dict, method: str, path: str,
                                                body: dict | None) -> None:
    other = client.post("/api/games", json={"game": "whats-my-number", "players": 4}).json()
    before = console.state(game["id"])
    before_public = client.get(f"/api/games/{game['id']}/public.json").json()
    url = f"/api/games/{game['id']}{path}"
    send = getattr(client, method)
    extra = {"json": body} if body is not None else {}
    for headers, status in (({}, 401), ({"Authorization": "Basic eDp5"}, 401),
                            ({"Authorization": "Bearer "}, 401),
                            (gm("x" * 43), 403), (gm(other["gm_token"]), 403),
                            (gm(game["gm_token"][:-1]), 403)):
        answer = send(url, headers=headers, **extra)
        assert answer.status_code == status, (headers, answer.text)
        assert answer.json()["errors"][0]["field"] == "authorization"
        assert game["gm_token"] not in answer.text
    after = console.state(game["id"])
    assert (after.version, after.view.data["log"]) == (before.version, before.view.data["log"])
    assert client.get(f"/api/games/{game['id']}/public.json").json() == before_public


def count_games(console: Console) -> int:
    with console.store.engine.connect() as conn:
        return conn.execute(sa.text("SELECT count(*) FROM games")).scalar()


def test_cross_site_posts_are_refused(client: TestClient, console: Console, game: dict) -> None:
    games = count_games(console)
    version = console.state(game["id"]).version
    new = {"game": "lowest-unique", "tables": [["A", "B", "C"]]}
    for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
                    {"Sec-Fetch-Site": "same-site"},  # a sibling subdomain is another site
                    {"Origin": "http://testserver.evil.example"}, {"Origin": "null"}):
        assert client.post("/api/games", json=new, headers=headers).status_code == 403
        answer = client.post(f"/api/games/{game['id']}/turns", json={"orders": {"Cy": [1, 2]}},
                             headers={**gm(game["gm_token"]), **headers})
        assert answer.status_code == 403
    # what an HTML form on another site can send without a preflight: not JSON, so refused
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        answer = client.post("/api/games", content=json.dumps(new).encode(),
                             headers={"content-type": kind})
        assert answer.status_code == 415
        assert client.post("/api/games/import", content=b'game = "lowest-unique"',
                           headers={"content-type": kind}).status_code == 415
    assert count_games(console) == games
    assert console.state(game["id"]).version == version
    same = client.post("/api/games", json=new, headers={"Origin": "http://testserver"})
    assert same.status_code == 201


def test_bodies_are_capped(client: TestClient, console: Console, game: dict) -> None:
    games = count_games(console)
    big = b'{"game": "lowest-unique", "pad": "' + b"x" * 70_000 + b'"}'
    assert client.post("/api/games", content=big,
                       headers={"content-type": "application/json"}).status_code == 413
    chunks = (b"x" * 8192 for _ in range(10))  # no Content-Length: counted as it streams
    answer = client.post("/api/games/import", content=chunks,
                         headers={"content-type": "application/toml"})
    assert answer.status_code == 413
    assert count_games(console) == games


def test_only_the_token_hash_is_stored(client: TestClient, console: Console, game: dict,
                                       console_url: str) -> None:  # noqa: F811
    with console.store.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT gm_hash FROM games WHERE id = :id"),
                            {"id": game["id"]}).all()
        journal = conn.execute(sa.text("SELECT payload FROM journal")).scalars().all()
    assert rows[0][0] == hashlib.sha256(game["gm_token"].encode()).hexdigest()
    assert not any(game["gm_token"] in payload for payload in journal)
    if "://" not in console_url:  # SQLite: the file itself (and its write-ahead log)
        for path in Path(console_url).parent.glob(Path(console_url).name + "*"):
            assert game["gm_token"].encode() not in path.read_bytes(), path


def test_gm_links_are_redacted_in_the_access_log() -> None:
    token = "Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg"
    line = f'127.0.0.1:5000 - "GET /console/abc123/gm/{token} HTTP/1.1" 303'
    assert token not in redact(line) and "/console/abc123/gm/[redacted]" in redact(line)
    assert redact("/console/abc123/gm") == "/console/abc123/gm"
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d', ("127.0.0.1:5000", "GET",
                               f"/console/abc123/gm/{token}?x=1", "1.1", 303), None)
    assert RedactTokens().filter(record)
    assert token not in record.getMessage()
    routes()  # mounting the console installs the filter on the access log
    assert any(isinstance(f, RedactTokens) for f in logging.getLogger("uvicorn.access").filters)
