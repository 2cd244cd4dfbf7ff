"""The game master's side of the players' links (SQLite and PostgreSQL), through the GM page:
the status board (sent by the player at a time, entered by you, missing), Close turn and
Reopen, the deadline, new links shown once (a player's, every player's, the GM's own), the
address the links carry, and a GM form that stays good while players post their own rows."""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from datetime import UTC

from starlette.testclient import TestClient  # noqa: E402

from kit.console.pages import auth as guard  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SECRETS = {"Ann": 17, "Bob": 42, "Cy": 8, "Dee": 55, "Eve": 29}


def text(page: str) -> str:
    main = page[page.index("<main"):page.index("</main>")]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", main)))


@pytest.fixture
def game(client: TestClient) -> dict:
    made = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                           "secrets": SECRETS, "range": "1-60"}).json()
    assert client.get(f"/console/{made['id']}/gm/{made['gm_token']}").status_code == 200
    return made


def gm_form(client: TestClient, game: dict, action: str, values: dict, **kw):
    page = client.get(f"/console/{game['id']}/gm").text
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    data = {"csrf": guard.csrf_token(game["id"], game["gm_token"]), "version": version,
            **values}
    return client.post(f"/console/{game['id']}/gm/{action}", data=data, **kw)


def player_post(client: TestClient, game: dict, player: str, guesses: list[int]) -> None:
    answer = client.post(f"/api/games/{game['id']}/orders", json={"guesses": guesses},
                         headers={"Authorization": f"Bearer {game['player_tokens'][player]}"})
    assert answer.status_code == 201, answer.text


def test_the_board_says_who_sent_who_was_entered_and_who_is_missing(client: TestClient,
                                                                    game: dict) -> None:
    player_post(client, game, "Ann", [5, 6])
    saved = gm_form(client, game, "turn", {"g1_1": "7"}, follow_redirects=False)
    assert saved.status_code == 303, saved.text
    seen = text(client.get(f"/console/{game['id']}/gm").text)
    assert re.search(r"Ann sent by the player at \d\d:\d\d", seen), seen
    assert "Bob entered by you" in seen and "Cy missing" in seen
    assert "Players’ links carry the address http://testserver." in seen


def test_a_gm_form_stays_good_while_players_post(client: TestClient, game: dict) -> None:
    page = client.get(f"/console/{game['id']}/gm").text
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    player_post(client, game, "Ann", [5, 6])
    player_post(client, game, "Cy", [9])
    saved = client.post(f"/console/{game['id']}/gm/turn", follow_redirects=False, data={
        "csrf": guard.csrf_token(game["id"], game["gm_token"]), "version": version,
        "g1_1": "7"})
    assert saved.status_code == 303, saved.text
    log = client.get(f"/api/games/{game['id']}/log.toml",
                     headers={"Authorization": f"Bearer {game['gm_token']}"}).text
    assert "Ann = [\n    5,\n    6,\n]" in log or "Ann = [5, 6]" in log, log
    assert "Bob = [" in log and "Cy = [" in log
    # an entry of the GM's own since the page was loaded still makes it stale
    gm_form(client, game, "turn", {"g3_1": "3"})
    stale = client.post(f"/console/{game['id']}/gm/turn", data={
        "csrf": guard.csrf_token(game["id"], game["gm_token"]), "version": version,
        "g4_1": "4"})
    assert stale.status_code == 409


def test_close_reopen_and_the_deadline(client: TestClient, game: dict) -> None:
    player_page = f"/console/{game['id']}/p/{game['player_tokens']['Dee']}"
    closed = gm_form(client, game, "close", {"turn": "1"})
    assert closed.status_code == 200
    seen = text(closed.text)
    assert "Turn 1 is closed: the players’ pages take no more changes." in seen
    assert "Reopen turn 1 to the players" in seen
    assert "This turn is closed" in text(client.get(player_page).text)
    gm_form(client, game, "reopen", {"turn": "1"})
    assert "This turn is closed" not in text(client.get(player_page).text)
    saved = gm_form(client, game, "deadline", {"turn": "1", "deadline": "2026-12-04T20:00"})
    assert "The deadline of turn 1 is saved." in text(saved.text)
    seen = text(client.get(player_page).text)
    # the page's language gives the weekday, the offset and the time left (the live script
    # counts it down from the instant in data-deadline)
    assert "Deadline: Friday 20:00 (GMT" in seen and "Numbers from 1 to" in seen
    assert re.search(r"\((in \d+ h \d+ min|in \d+ min|the deadline has passed)\)", seen)
    far = gm_form(client, game, "deadline", {"turn": "1", "deadline": "2099-12-04T20:00+01:00"})
    assert far.status_code == 200
    page = client.get(player_page).text
    assert "Deadline: Friday 20:00 (GMT+01:00)" in text(page)
    assert re.search(r"\(in \d+ h \d+ min\)", text(page))
    assert 'data-deadline="2099-12-04T20:00+01:00"' in page
    bad = gm_form(client, game, "deadline", {"turn": "1", "deadline": "soon"})
    assert bad.status_code == 422 and "is not a date and time" in text(bad.text)


def test_new_links_are_shown_once_and_the_old_ones_stop(client: TestClient,
                                                       game: dict) -> None:
    csrf = guard.csrf_token(game["id"], game["gm_token"])
    old = f"/console/{game['id']}/p/{game['player_tokens']['Bob']}"
    made = client.post(f"/console/{game['id']}/gm/links", data={"csrf": csrf,
                                                                 "seat": "player:Bob"})
    assert made.status_code == 200 and "A new link for Bob" in text(made.text)
    (link,) = re.findall(rf'href="(http://testserver/console/{game["id"]}/p/[^"]+)"',
                         made.text)
    assert client.get(old).status_code == 404
    assert client.get(link.replace("http://testserver", "")).status_code == 200
    every = client.post(f"/console/{game['id']}/gm/links", data={"csrf": csrf,
                                                                  "seat": "players"})
    links = re.findall(rf'href="http://testserver(/console/{game["id"]}/p/[^"]+)"', every.text)
    assert "New links for 5 players" in text(every.text) and len(set(links)) == 5
    assert client.get(link.replace("http://testserver", "")).status_code == 404
    assert all(client.get(one).status_code == 200 for one in links)
    assert client.post(f"/console/{game['id']}/gm/links", data={"csrf": csrf, "seat": "x"}
                       ).status_code == 404
    mine = client.post(f"/console/{game['id']}/gm/links", data={"csrf": csrf, "seat": "gm"})
    (gm_link,) = re.findall(rf'href="(http://testserver/console/{game["id"]}/gm/[^"]+)"',
                            mine.text)
    assert client.get(f"/console/{game['id']}/gm").status_code == 200  # the new cookie
    assert client.get(f"/api/games/{game['id']}/state.json", headers={
        "Authorization": f"Bearer {game['gm_token']}"}).status_code == 403
    token = gm_link.rsplit("/", 1)[1]
    assert client.get(f"/api/games/{game['id']}/state.json", headers={
        "Authorization": f"Bearer {token}"}).status_code == 200
    # without the GM cookie nobody makes links
    client.cookies.clear()
    assert client.post(f"/console/{game['id']}/gm/links", data={"csrf": csrf,
                                                                 "seat": "players"}
                       ).status_code == 403


def test_the_time_left_to_a_deadline_in_each_language() -> None:
    from datetime import datetime, timedelta

    from kit.games.whats_my_number.console.player_page import deadline_said, time_left
    from kit.i18n import words

    now = datetime(2026, 12, 6, 19, 20, tzinfo=UTC)
    assert time_left(now + timedelta(hours=2, minutes=10), words("en"), now) == "in 2 h 10 min"
    assert time_left(now + timedelta(minutes=5), words("en"), now) == "in 5 min"
    assert time_left(now - timedelta(seconds=1), words("en"), now) == "the deadline has passed"
    said = deadline_said("2026-12-06T21:30+01:00", words("fr"), now)
    assert said["text"] == "dimanche 21:30 (UTC+01:00)" and said["left"] == "dans 1 h 10 min"
    assert said["at"] == "2026-12-06T21:30+01:00" and said["words"].count("|") == 2
