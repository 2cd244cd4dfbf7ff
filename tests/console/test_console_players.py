"""Players' own links (SQLite and PostgreSQL): a new What's My Number? game gives each player a
random token and a link, only the tokens' hashes are stored, each token names its own player
alone, a Lowest Unique Number party gets none, and no player's link reaches the access log."""

from __future__ import annotations

import base64
import hashlib
import logging
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

import sqlalchemy as sa  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from kit.console.service import Console  # noqa: E402
from kit.console.tokens import redact  # noqa: E402
from kit.server.guard import redact_path  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SECRETS = {"Ann": 941, "Bob": 953, "Cy": 967, "Dee": 978, "Eve": 989}


@pytest.fixture
def game(client: TestClient) -> dict:
    answer = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                             "secrets": SECRETS, "range": "1-999"})
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_each_player_gets_a_random_token_and_a_link(client: TestClient, game: dict) -> None:
    tokens, links = game["player_tokens"], game["player_links"]
    assert list(tokens) == PLAYERS and list(links) == PLAYERS
    for name, token in tokens.items():
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128, name
        assert links[name] == f"http://testserver/console/{game['id']}/p/{token}"
    assert len({*tokens.values(), game["gm_token"]}) == len(PLAYERS) + 1
    again = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                            "secrets": SECRETS, "range": "1-999"}).json()
    assert not set(again["player_tokens"].values()) & set(tokens.values())


def test_a_token_names_its_own_player_only(console: Console, game: dict) -> None:
    for name, token in game["player_tokens"].items():
        assert console.player_of(game["id"], token) == name
        assert not console.authorize(game["id"], token)  # a player's token is not the GM's
    assert console.player_of(game["id"], game["gm_token"]) is None
    assert console.player_of(game["id"], "") is None
    assert console.player_of(game["id"], game["player_tokens"]["Ann"][:-1]) is None


def test_only_the_tokens_hashes_are_stored(console: Console, game: dict,
                                           console_url: str) -> None:
    with console.store.engine.connect() as conn:
        stored = dict(conn.execute(sa.text(
            "SELECT seat, token_hash FROM seat_tokens WHERE game_id = :id AND kind = 'player'"),
            {"id": game["id"]}).all())
    assert stored == {name: hashlib.sha256(token.encode()).hexdigest()
                      for name, token in game["player_tokens"].items()}
    if "://" not in console_url:  # SQLite: the file itself (and its write-ahead log)
        files = list(Path(console_url).parent.glob(Path(console_url).name + "*"))
        assert files
        for path in files:
            data = path.read_bytes()
            for token in game["player_tokens"].values():
                assert token.encode() not in data, path


def test_an_imported_game_gets_player_tokens_too(client: TestClient, game: dict) -> None:
    log = client.get(f"/api/games/{game['id']}/log.toml",
                     headers={"Authorization": f"Bearer {game['gm_token']}"}).text
    imported = client.post("/api/games/import", content=log,
                           headers={"content-type": "application/toml"})
    assert imported.status_code == 201, imported.text
    assert list(imported.json()["player_tokens"]) == PLAYERS


def test_a_party_without_player_views_gets_no_tokens(client: TestClient) -> None:
    answer = client.post("/api/games", json={"game": "lowest-unique", "tables": [
        ["Ann", "Bob", "Cy"], ["Dee", "Eve", "Fay"]]})
    assert answer.status_code == 201, answer.text
    assert "player_tokens" not in answer.json() and "player_links" not in answer.json()


def test_player_links_are_redacted_in_the_logs(client: TestClient, game: dict,
                                               caplog: pytest.LogCaptureFixture) -> None:
    token = game["player_tokens"]["Bob"]
    path = f"/console/{game['id']}/p/{token}"
    assert redact_path(path, b"x=1") == f"/console/{game['id']}/p/[redacted]?x="
    assert token not in redact(f'"GET {path} HTTP/1.1" 404')
    assert redact(f"/console/{game['id']}/p") == f"/console/{game['id']}/p"
    assert redact_path("/api/games/import") == "/api/games/import"
    caplog.set_level(logging.DEBUG)
    client.get(path, headers={"Authorization": f"Bearer {token}"})
    server = [r for r in caplog.records if r.name != "httpx"]  # httpx: the test's own client
    assert not any(token in r.getMessage() for r in server)
