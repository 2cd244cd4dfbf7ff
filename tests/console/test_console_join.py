"""Joining a game by its room code: a phone asks with the code and a free name, the host
admits it, the phone gets that player's own link; wrong codes are 404 then 429; a taken seat is
not given twice; a seat handed to a new phone stops the old phone's link; and no answer of
joining carries another seat's link."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from kit.console.joins import ALPHABET, CODE_LENGTH, join_desks, join_requests, typed_code

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture
def site(tmp_path):
    from kit.console.service import open_console
    from kit.serve.app import create_app

    console = open_console(str(tmp_path / "c.db"), tmp_path / "files")
    app = create_app(executor="thread", workers=1, queue=1, prewarm=False,
                     games=["lowest-unique"], players=[4], papers=["a4"], console=console)
    yield console, TestClient(app, follow_redirects=False)
    console.close()


def _game(client: TestClient) -> tuple[dict, dict, str]:
    made = client.post("/api/games", json={
        "game": "whats-my-number", "players": PLAYERS, "range": "1-30",
        "secrets": dict(zip(PLAYERS, [3, 9, 14, 20], strict=True))})
    assert made.status_code == 201, made.text
    game = made.json()
    gm = {"authorization": f"Bearer {game['gm_token']}"}
    code = client.get(f"/api/games/{game['id']}/state.json", headers=gm).json()["join_code"]
    return game, gm, code


def _waiting(client, game, gm) -> list[dict]:
    joins = client.get(f"/api/games/{game['id']}/state.json", headers=gm).json()["joins"]
    return [j for j in joins if j["status"] == "waiting"]


def test_a_phone_joins_by_code_and_gets_its_players_link_once_admitted(site):
    console, client = site
    game, gm, code = _game(client)
    assert len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
    asked = client.post("/api/join", json={"code": code.lower(), "name": "Bob"})
    assert asked.status_code == 202 and asked.json()["status"] == "waiting"
    secret = asked.json()["request"]
    assert client.get(f"/api/join/{secret}").json() == {"status": "waiting", "name": "Bob"}
    [waiting] = _waiting(client, game, gm)
    assert waiting["name"] == "Bob" and waiting["request"] not in secret  # a handle, not it
    admitted = client.post(f"/api/games/{game['id']}/joins/{waiting['request']}/admit",
                           headers=gm)
    assert admitted.json() == {"request": waiting["request"], "name": "Bob",
                               "status": "admitted"}
    seen = client.get(f"/api/join/{secret}").json()
    assert seen == {"status": "admitted", "name": "Bob", "link": game["player_links"]["Bob"]}
    # the link is Bob's own: his page and me.json open with it
    me = client.get(f"/api/games/{game['id']}/me.json",
                    headers={"authorization": f"Bearer {game['player_tokens']['Bob']}"})
    assert me.status_code == 200


def test_the_database_holds_no_code_and_no_link_in_clear(site):
    console, client = site
    game, gm, code = _game(client)
    secret = client.post("/api/join", json={"code": code, "name": "Ann"}).json()["request"]
    [waiting] = _waiting(client, game, gm)
    client.post(f"/api/games/{game['id']}/joins/{waiting['request']}/admit", headers=gm)
    with console.store.engine.connect() as conn:
        rows = [*conn.execute(sa.select(join_desks)).all(),
                *conn.execute(sa.select(join_requests)).all()]
    stored = repr(rows)
    for clear in (code, secret, game["player_tokens"]["Ann"], game["gm_token"]):
        assert clear not in stored


def test_a_refused_phone_gets_no_link(site):
    _, client = site
    game, gm, code = _game(client)
    secret = client.post("/api/join", json={"code": code, "name": "Cy"}).json()["request"]
    [waiting] = _waiting(client, game, gm)
    refused = client.post(f"/api/games/{game['id']}/joins/{waiting['request']}/refuse",
                          headers=gm)
    assert refused.json()["status"] == "refused"
    assert client.get(f"/api/join/{secret}").json() == {"status": "refused", "name": "Cy"}
    again = client.post(f"/api/games/{game['id']}/joins/{waiting['request']}/admit", headers=gm)
    assert again.status_code == 404  # settled once


def test_a_wrong_code_is_404_then_429_from_one_client(site):
    _, client = site
    game, _, code = _game(client)
    wrong = next(c * CODE_LENGTH for c in ALPHABET if c * CODE_LENGTH != code)
    answers = [client.post("/api/join", json={"code": wrong, "name": "Ann"})
               for _ in range(40)]
    assert answers[0].status_code == 404
    assert answers[0].json()["errors"][0]["field"] == "code"
    assert answers[-1].status_code == 429 and "retry-after" in answers[-1].headers
    assert {a.status_code for a in answers} == {404, 429}
    assert client.get("/api/join/not-a-request").status_code == 429  # the same count


def test_a_name_not_in_the_game_is_422_naming_the_field(site):
    _, client = site
    _, _, code = _game(client)
    answer = client.post("/api/join", json={"code": code, "name": "Zed"})
    assert answer.status_code == 422 and answer.json()["errors"][0]["field"] == "name"
    assert client.post("/api/join", json={"code": 12345, "name": "Ann"}).json()["errors"][0][
        "field"] == "code"


def test_a_taken_seat_cannot_be_claimed_again_without_the_host(site):
    _, client = site
    game, gm, code = _game(client)
    first = client.post("/api/join", json={"code": code, "name": "Dee"}).json()["request"]
    second = client.post("/api/join", json={"code": code, "name": "Dee"}).json()["request"]
    one, two = _waiting(client, game, gm)
    client.post(f"/api/games/{game['id']}/joins/{one['request']}/admit", headers=gm)
    taken = client.post(f"/api/games/{game['id']}/joins/{two['request']}/admit", headers=gm)
    assert taken.status_code == 409 and "Dee" in taken.json()["errors"][0]["message"]
    third = client.post("/api/join", json={"code": code, "name": "Dee"})
    assert third.status_code == 409 and third.json()["errors"][0]["field"] == "name"
    assert client.get(f"/api/join/{second}").json()["status"] == "waiting"
    assert client.get(f"/api/join/{first}").json()["status"] == "admitted"


def test_a_seat_handed_to_a_new_phone_stops_the_old_link(site):
    _, client = site
    game, gm, code = _game(client)
    secret = client.post("/api/join", json={"code": code, "name": "Ann"}).json()["request"]
    [waiting] = _waiting(client, game, gm)
    client.post(f"/api/games/{game['id']}/joins/{waiting['request']}/admit", headers=gm)
    old = client.get(f"/api/join/{secret}").json()["link"]
    assert client.get(old).status_code == 200
    rotated = client.post(f"/api/games/{game['id']}/players/Ann/rotate", headers=gm).json()
    assert client.get(old).status_code == 404  # the old page is gone
    assert client.get(f"/api/join/{secret}").json() == {"status": "refused", "name": "Ann"}
    # the seat is free again: a new phone asks, the host admits, it gets the new link
    fresh = client.post("/api/join", json={"code": code, "name": "Ann"}).json()["request"]
    [waiting] = _waiting(client, game, gm)
    client.post(f"/api/games/{game['id']}/joins/{waiting['request']}/admit", headers=gm)
    assert client.get(f"/api/join/{fresh}").json()["link"] == rotated["link"]


def test_admit_everyone_and_closing_joining(site):
    _, client = site
    game, gm, code = _game(client)
    desk = client.post(f"/api/games/{game['id']}/joins", json={"admit_all": True}, headers=gm)
    assert desk.json()["admit_all"] is True
    secret = client.post("/api/join", json={"code": code, "name": "Cy"}).json()["request"]
    client.get(f"/api/games/{game['id']}/state.json", headers=gm)  # the host's next call
    assert client.get(f"/api/join/{secret}").json()["link"] == game["player_links"]["Cy"]
    closed = client.post(f"/api/games/{game['id']}/joins", json={"open": False}, headers=gm)
    assert closed.json()["open"] is False
    assert client.post("/api/join", json={"code": code, "name": "Bob"}).status_code == 404
    bad = client.post(f"/api/games/{game['id']}/joins", json={"open": "no"}, headers=gm)
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "open"


def test_no_join_answer_carries_another_seats_link(site):
    _, client = site
    game, gm, code = _game(client)
    secrets_ = {name: client.post("/api/join", json={"code": code, "name": name}
                                  ).json()["request"] for name in ("Ann", "Bob")}
    for waiting in _waiting(client, game, gm):
        client.post(f"/api/games/{game['id']}/joins/{waiting['request']}/admit", headers=gm)
    for name, secret in secrets_.items():
        text = client.get(f"/api/join/{secret}").text
        others = [t for n, t in game["player_tokens"].items() if n != name]
        assert game["player_tokens"][name] in text
        assert not any(t in text for t in others) and game["gm_token"] not in text
    asked = client.post("/api/join", json={"code": code, "name": "Cy"}).text
    assert not any(t in asked for t in game["player_tokens"].values())


def test_typed_codes_ignore_case_and_spaces_but_nothing_else():
    assert typed_code(" acefh ") == "ACEFH" and typed_code("AC-EFH") == "ACEFH"
    assert typed_code("ACEF") is None and typed_code("AC0FH") is None
    assert re.fullmatch(f"[{ALPHABET}]+", ALPHABET) and not set("0O1IL2Z5S8B") & set(ALPHABET)


def test_a_phone_joins_through_the_pages_without_a_script(site):
    _, client = site
    made = client.post("/console/new/wmn", data={"names": "Ann\nBob\nCy\nDee", "range": "1-30",
                                                 "draw": "random"})
    client.get(made.headers["location"])
    game_id = re.search(r"/console/([\w-]+)/gm", made.headers["location"]).group(1)
    host = client.get(f"/console/{game_id}/gm").text
    code = re.search(r'class="join-code">[^<]*<strong>(\w+)</strong>', host).group(1)
    assert f"http://testserver/join/{code}" in host and '<svg' in host
    gm_cookies = dict(client.cookies)
    phone = TestClient(client.app, follow_redirects=False)
    assert phone.get(f"/join?code={code.lower()}").headers["location"] == f"/join/{code.lower()}"
    seats = phone.get(f"/join/{code}").text
    assert all(f'value="{name}"' in seats for name in PLAYERS)
    asked = phone.post(f"/join/{code}", data={"name": "Bob"},
                       headers={"origin": "http://testserver"})
    assert asked.status_code == 303 and asked.headers["location"] == "/join/wait"
    waiting = phone.get("/join/wait")
    assert waiting.status_code == 200 and 'http-equiv="refresh"' in waiting.text
    host = client.get(f"/console/{game_id}/gm").text
    assert "Bob wants to join" in host
    handle = re.search(r'name="admit" value="(\w+)"', host).group(1)
    csrf = re.search(r'name="csrf" value="([^"]+)"', host).group(1)
    client.cookies.update(gm_cookies)
    admitted = client.post(f"/console/{game_id}/gm/joins", data={"csrf": csrf, "admit": handle},
                           headers={"origin": "http://testserver"})
    assert admitted.status_code == 303
    link = phone.get("/join/wait").headers["location"]
    assert link.startswith(f"/console/{game_id}/p/")
    page = phone.get(link)
    assert page.status_code == 200 and "Bob" in page.text
    assert 'value="Bob"' not in phone.get(f"/join/{code}").text  # taken now
    assert phone.get("/join/ZZZZZ").status_code == 404
