"""The console's caps, checked before any work, each a 422 naming its field: guesses per row,
a game's answers (guesses x players), an imported log's size, games created per client and
hour (API and start page), and names given through the API or an imported log."""

from __future__ import annotations

import itertools
import re
from html import unescape

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402
from support.console_db import client, console, console_url  # noqa: E402,F401

from kit.console import quota  # noqa: E402
from kit.console.service import IMPORT_MAX_CHARS, Console  # noqa: E402
from kit.errors import Problems  # noqa: E402
from kit.games.whats_my_number.console import limits as console_limits  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def new_game(client: TestClient) -> dict:  # noqa: F811
    made = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                           "range": "1-40"})
    assert made.status_code == 201
    return made.json()


def post(client: TestClient, game: dict, orders: dict):  # noqa: ANN201,F811
    return client.post(f"/api/games/{game['id']}/turns", json={"orders": orders},
                       headers={"Authorization": f"Bearer {game['gm_token']}"})


def version(client: TestClient, game: dict) -> int:  # noqa: F811
    return client.get(f"/api/games/{game['id']}/state.json", headers={
        "Authorization": f"Bearer {game['gm_token']}"}).json()["version"]


def texts(answer) -> list[str]:  # noqa: ANN001
    return [e["text"] for e in answer.json()["errors"]]


def test_a_row_takes_the_largest_allowance_and_three_more(client: TestClient) -> None:  # noqa: F811
    game = new_game(client)
    assert post(client, game, {"Ann": list(range(1, 9))}).status_code == 201  # 2 + 3 + 3
    refused = post(client, game, {"Bob": list(range(1, 10)), "Cy": [1, 2]})
    assert refused.status_code == 422
    assert texts(refused) == ["turn 1, player Bob: 9 guesses in one row; a row takes at most 8 "
                              "(the largest allowance with 4 players, and 3 more)"]
    huge = post(client, game, {"Ann": list(range(1, 9001))})
    assert huge.status_code == 422 and texts(huge)[0].startswith(
        "turn 1, player Ann: 9000 guesses in one row; a row takes at most 8")
    assert version(client, game) == 2  # only the first entry was recorded


def test_a_game_holds_at_most_its_answers(client: TestClient,  # noqa: F811
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console_limits, "MAX_ANSWERS", 40)
    game = new_game(client)
    assert post(client, game, {"Ann": [1, 2], "Bob": [3, 4, 5]}).status_code == 201  # 5 x 4
    assert post(client, game, {"Ann": [1, 2, 3, 4, 5]}).status_code == 201  # replaces: 8 x 4
    refused = post(client, game, {"Cy": [1, 2, 3]})
    assert refused.status_code == 422
    assert texts(refused) == ["orders: the game would hold 11 guesses for 4 players, 44 "
                              "answers; the console takes at most 40 answers in a game "
                              "(guesses x players)"]


LOG = 'game = "whats-my-number"\nplayers = ["A", "B", "C", "D"]\nrange = "1-40"\n' \
      'published = 1\n[secrets]\nA = 1\nB = 2\nC = 3\nD = 4\n[[turn]]\n'


RANGES = itertools.count(41)


def test_an_imported_log_is_capped_before_the_engine_reads_it(
        client: TestClient, console: Console, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    from kit.games.whats_my_number.rules import engine

    played: list[int] = []  # the engine's turns played: none for a log over its caps
    real = engine._play_turn
    monkeypatch.setattr(engine, "_play_turn", lambda log, number, *rest, **kw: (
        played.append(number), real(log, number, *rest, **kw))[1])
    toml = {"Content-Type": "application/toml"}
    # a log of its own (a range no other run used): a state already known is not played again
    fresh = LOG.replace('range = "1-40"', f'range = "1-{next(RANGES)}"')
    made = client.post("/api/games/import", content=fresh + "A = [5, 6]\n", headers=toml)
    assert made.status_code == 201
    gm = {"Authorization": f"Bearer {made.json()['gm_token']}"}
    assert client.get(f"/api/games/{made.json()['id']}/state.json", headers=gm).status_code == 200
    assert played  # the recorder sees the engine when it does play
    played.clear()
    rows = client.post("/api/games/import", content=LOG + f"A = {list(range(5, 9005))}\n"
                       "B = [5, 6]\n", headers=toml)
    assert rows.status_code == 422
    assert texts(rows) == ["turn 1, player A: 9000 guesses in one row; a row takes at most 8 "
                           "(the largest allowance with 4 players, and 3 more)"]
    monkeypatch.setattr(console_limits, "MAX_ANSWERS", 12)
    work = client.post("/api/games/import", content=LOG + "A = [5, 6]\nB = [5, 6]\n"
                       "[[turn]]\nC = [7]\n", headers=toml)
    assert work.status_code == 422
    assert texts(work) == ["turn: the game would hold 5 guesses for 4 players, 20 answers; "
                           "the console takes at most 12 answers in a game (guesses x players)"]
    assert played == []  # both refused before the engine played a turn
    with pytest.raises(Problems) as long:  # past the API's body limit: the console's own cap
        console.import_log(LOG + "#" * IMPORT_MAX_CHARS)
    assert [str(p) for p in long.value.problems] == [
        f"log: the log has {len(LOG) + IMPORT_MAX_CHARS} characters; the console imports at "
        f"most {IMPORT_MAX_CHARS}"]


def test_games_per_client_and_hour(client: TestClient, console: Console,  # noqa: F811
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    console.quota = quota.GameQuota(per_hour=3)
    for _ in range(2):
        new_game(client)
    imported = client.post("/api/games/import", content=LOG + "A = [5, 6]\n",
                           headers={"Content-Type": "application/toml"})
    assert imported.status_code == 201  # the third game, imported
    refused = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS})
    assert refused.status_code == 422
    assert texts(refused) == ["game: this address made 3 games in the last hour; the console "
                              "makes at most 3 an hour for one address: try again in 60 "
                              "minutes"]
    page = client.post("/console/new/wmn?lang=fr", data={"names": "Ann\nBob\nCy\nDee",
                                                         "draw": "random"})
    assert page.status_code == 422
    said = " ".join(unescape(re.sub(r"<[^>]+>", " ", page.text)).split())
    assert ("cette adresse a créé 3 parties dans la dernière heure ; la console en crée au plus "
            "3 par heure pour une adresse : réessayez dans 60 minutes") in said
    other = quota.GameQuota(per_hour=1)
    other.take("10.0.0.1", now=0.0)
    other.take("10.0.0.2", now=0.0)  # another address has its own hour
    other.take("10.0.0.1", now=3600.5)  # an hour later: counted afresh


def test_names_from_the_api_and_an_import_are_checked_like_the_forms(
        client: TestClient) -> None:  # noqa: F811
    party = client.post("/api/games", json={"game": "lowest-unique",
                                            "tables": [["a\u202eb", "a\u200bc", "Cy"]]})
    assert party.status_code == 422
    assert texts(party) == [
        "tables: 'a\\u202eb' holds a control, direction or zero-width character; a name is "
        "printable text only",
        "tables: 'a\\u200bc' holds a control, direction or zero-width character; a name is "
        "printable text only"]
    log = ('game = "lowest-unique"\nrounds = 2\n[[table]]\n'
           'players = ["Ann", "B\\u0000b", "Cy"]\n')
    imported = client.post("/api/games/import", content=log,
                           headers={"Content-Type": "application/toml"})
    assert imported.status_code == 422
    assert texts(imported) == ["players: 'B\\x00b' holds a control, direction or zero-width "
                               "character; a name is printable text only"]
    wmn = client.post("/api/games", json={"game": "whats-my-number",
                                          "players": ["An\u202en", "Bob", "Cy", "Dee"]})
    assert wmn.status_code == 422
