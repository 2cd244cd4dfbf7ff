"""Players choosing their own secret numbers (SQLite and PostgreSQL): ``"secrets": "players"``,
each player's ``POST /api/games/ID/secret`` (201, changed, 422 outside the range), turn 1
refused while one is missing, the game master's number or draw for a player on paper, who has
chosen in the GM's state.json and never a number anywhere else before the end; the end
revealing every secret in public.json and me.json."""

from __future__ import annotations

import html
import json
import re

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402

from kit.console.pages import auth as guard  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
CHOSEN = {"Ann": 417, "Bob": 523, "Cy": 608}  # Dee plays on paper: the GM types hers


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def has(number: int, text: str) -> bool:
    return re.search(rf"(?<![\d.]){number}(?![\d.])", text) is not None


@pytest.fixture
def game(client: TestClient) -> dict:
    answer = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                             "secrets": "players", "range": "1-999"})
    assert answer.status_code == 201, answer.text
    return answer.json()


def choose(client: TestClient, game: dict, player: str, body: object):
    return client.post(f"/api/games/{game['id']}/secret", json=body,
                       headers=bearer(game["player_tokens"][player]))


def gm(client: TestClient, game: dict, path: str, body: dict | None = None):
    return client.post(f"/api/games/{game['id']}/{path}", json=body or {},
                       headers=bearer(game["gm_token"]))


def gm_state(client: TestClient, game: dict) -> dict:
    answer = client.get(f"/api/games/{game['id']}/state.json", headers=bearer(game["gm_token"]))
    assert answer.status_code == 200, answer.text
    return answer.json()


def me(client: TestClient, game: dict, player: str) -> dict:
    answer = client.get(f"/api/games/{game['id']}/me.json",
                        headers=bearer(game["player_tokens"][player]))
    assert answer.status_code == 200, answer.text
    return answer.json()


def public(client: TestClient, game: dict) -> dict:
    answer = client.get(f"/api/games/{game['id']}/public.json")
    assert answer.status_code == 200, answer.text
    return answer.json()


def everyone_chooses(client: TestClient, game: dict) -> None:
    for player, number in CHOSEN.items():
        assert choose(client, game, player, {"secret": number}).status_code == 201
    assert gm(client, game, "secrets", {"secrets": {"Dee": 523}}).status_code == 200


def test_a_player_chooses_changes_and_is_told_the_range(client: TestClient, game: dict) -> None:
    before = me(client, game, "Ann")
    assert (before["secret"], before["choosing"], before["secret_open"]) == (None, True, True)
    first = choose(client, game, "Ann", {"secret": 12})
    assert first.status_code == 201, first.text
    assert {k: v for k, v in first.json().items() if k != "version"} == {
        "player": "Ann", "secret": 12, "waiting": True}
    assert choose(client, game, "Ann", {"secret": 417}).status_code == 201
    mine = me(client, game, "Ann")
    assert (mine["secret"], mine["choosing"]) == (417, False)
    for bad, got in ((1000, "1000"), (0, "0"), ("12", "'12'"), (True, "'True'")):
        answer = choose(client, game, "Bob", {"secret": bad})
        assert answer.status_code == 422, answer.text
        assert [(e["field"], e["message"]) for e in answer.json()["errors"]] == [
            ("secret", f"give a whole number from 1 to 999; got {got}")]
    wrong = choose(client, game, "Bob", {"number": 5})
    assert wrong.status_code == 422
    assert [p["field"] for p in wrong.json()["errors"]] == ["number"]
    assert me(client, game, "Bob")["secret"] is None


def test_turn_one_waits_for_every_secret(client: TestClient, game: dict) -> None:
    choose(client, game, "Ann", {"secret": 417})
    orders = client.post(f"/api/games/{game['id']}/orders", json={"guesses": [1, 2]},
                         headers=bearer(game["player_tokens"]["Ann"]))
    assert orders.status_code == 409, orders.text
    said = orders.json()["errors"][0]
    assert said["field"] == "secrets"
    assert said["message"] == ("turn 1 opens once every player has a secret number; still to "
                               "choose: Bob, Cy, Dee")
    assert gm(client, game, "turns", {"orders": {"Bob": [1, 2]}}).status_code == 409
    assert gm(client, game, "turns/1/publish").status_code == 409
    everyone_chooses(client, game)
    sent = client.post(f"/api/games/{game['id']}/orders", json={"guesses": [1, 2]},
                       headers=bearer(game["player_tokens"]["Ann"]))
    assert sent.status_code == 201, sent.text
    late = choose(client, game, "Bob", {"secret": 5})  # turn 1 has begun
    assert late.status_code == 409
    assert late.json()["errors"][0]["message"] == (
        "turn 1 has begun: the secret numbers can no longer change")
    assert me(client, game, "Bob")["secret"] == 523


def test_the_gm_sees_who_chose_and_sets_a_paper_players(client: TestClient, game: dict) -> None:
    choose(client, game, "Bob", {"secret": 523})
    state = gm_state(client, game)
    assert (state["secrets_by"], state["chosen"], state["choosing"]) == (
        "players", ["Bob"], ["Ann", "Cy", "Dee"])
    assert state["secrets"] == {"Bob": 523}  # a number drawn while waiting is nobody's
    drawn = gm(client, game, "secrets", {"secrets": {"dee": "draw", "Cy": 523}})
    assert drawn.status_code == 200, drawn.text
    assert drawn.json()["choosing"] == ["Ann"]
    assert drawn.json()["secrets"]["Cy"] == 523  # two players may hold one number
    state = gm_state(client, game)
    assert state["chosen"] == ["Bob", "Cy", "Dee"] and 1 <= state["secrets"]["Dee"] <= 999
    bad = gm(client, game, "secrets", {"secrets": {"Cy": 1000, "Zed": 3}})
    assert bad.status_code == 422
    assert [p["field"] for p in bad.json()["errors"]] == ["secrets.Cy", "secrets.Zed"]


def test_no_number_leaks_before_the_end(client: TestClient, game: dict) -> None:
    everyone_chooses(client, game)
    seen = {"public": json.dumps(public(client, game))}
    seen.update({p: json.dumps(me(client, game, p)) for p in PLAYERS})
    for viewer, text in seen.items():
        for player, number in {**CHOSEN, "Dee": 523}.items():
            if player != viewer and not (viewer == "Dee" and number == 523) \
                    and not (viewer == "Bob" and number == 523):
                assert not has(number, text), (viewer, player)


def test_the_end_reveals_every_secret(client: TestClient, game: dict) -> None:
    everyone_chooses(client, game)
    assert public(client, game)["over"] is False
    gm(client, game, "turns", {"orders": {"Ann": [523, 1]}})
    assert gm(client, game, "turns/1/publish").status_code == 200
    gm(client, game, "turns", {"orders": {"Ann": [1, 2], "Bob": {"list": {
        "Ann": 417, "Cy": 608, "Dee": 523}}}})
    assert gm(client, game, "turns/2/publish").status_code == 200
    shown = public(client, game)
    secrets = {**CHOSEN, "Dee": 523}
    assert (shown["over"], shown["winners"], shown["won_by"], shown["winning_turn"],
            shown["secrets"]) == (True, ["Bob"], "list", 2, secrets)
    for player in PLAYERS:
        mine = me(client, game, player)
        assert (mine["over"], mine["winners"], mine["won_by"], mine["secrets"]) == (
            True, ["Bob"], "list", secrets)
    how = "Bob wins in turn 2, by a fully correct list."
    pages = {"public": f"/console/{game['id']}", "screen": f"/console/{game['id']}/standings",
             **{p: page_of(game, p) for p in PLAYERS}}
    for name, address in pages.items():
        seen = text(client.get(address).text)
        assert how in seen, name
        assert "The secret numbers Ann 417 Bob 523 Cy 608 Dee 523" in seen, name
        assert "Guesses next turn" not in seen, name  # no next turn after the end
        assert ("You won!" in seen) == (name == "Bob"), name
    standings = text(client.get(pages["screen"]).text)
    # the winner first, having found every other number by the list
    assert "Place Player Found 1 Bob ★ winner 3 2 Ann 2 3 Cy 0" in standings


def text(page: str) -> str:
    """The page's main text, tags removed."""
    main = page[page.index("<main"):page.index("</main>")]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", main)))


def page_of(game: dict, player: str) -> str:
    return f"/console/{game['id']}/p/{game['player_tokens'][player]}"


def gm_page(client: TestClient, game: dict) -> str:
    answer = client.get(f"/console/{game['id']}/gm/{game['gm_token']}")
    assert answer.status_code == 200
    return answer.text


def gm_form(client: TestClient, game: dict, action: str, values: dict, **kw):
    found = re.search(r'name="version" value="(\d+)"', gm_page(client, game))
    assert found is not None
    version = found.group(1)
    data = {"csrf": guard.csrf_token(game["id"], game["gm_token"]), "version": version,
            **values}
    return client.post(f"/console/{game['id']}/gm/{action}", data=data, **kw)


def test_a_player_chooses_on_their_page(client: TestClient, game: dict) -> None:
    first = text(client.get(page_of(game, "Cy")).text)
    assert "Choose your secret number" in first and "Your secret number, from 1 to 999" in first
    assert "Your secret number:" not in first
    assert "Turn 1 opens once every player has chosen their secret number." in first
    assert "Send my guesses" not in first
    bad = client.post(page_of(game, "Cy"), data={"send": "secret", "secret": "6O8"})
    assert bad.status_code == 422
    assert "Your secret number: 6O8 is not a whole number" in text(bad.text)
    assert 'value="6O8"' in bad.text  # what was typed stays in its box
    out = client.post(page_of(game, "Cy"), data={"send": "secret", "secret": "1000"})
    assert out.status_code == 422
    assert "give a whole number from 1 to 999; got 1000" in text(out.text)
    saved = client.post(page_of(game, "Cy"), data={"send": "secret", "secret": "608"},
                        follow_redirects=False)
    assert saved.status_code == 303
    assert saved.headers["location"] == page_of(game, "Cy") + "?secret=1#secret"
    seen = text(client.get(saved.headers["location"]).text)
    assert "Your secret number was saved." in seen and "Your secret number: 608" in seen
    assert me(client, game, "Cy")["secret"] == 608


def test_the_gm_page_says_who_chose_never_the_numbers(client: TestClient, game: dict) -> None:
    choose(client, game, "Ann", {"secret": 417})
    choose(client, game, "Bob", {"secret": 523})
    seen = text(gm_page(client, game))
    assert "Chosen: Ann Bob" in seen and "Still to choose: Cy Dee" in seen
    assert not has(417, seen) and not has(523, seen)
    saved = gm_form(client, game, "secrets", {"s2": "608", "d3": "1"}, follow_redirects=False)
    assert saved.status_code == 303, saved.text
    state = gm_state(client, game)
    assert state["choosing"] == [] and state["secrets"]["Cy"] == 608
    assert saved.headers["location"].endswith("?secrets=1#secrets")
    seen = text(client.get(saved.headers["location"]).text)
    assert "The secret numbers are saved." in seen and not has(608, seen)
    assert "Still to choose: nobody" in seen and "Save secret numbers" not in seen
    refused = gm_form(client, game, "secrets", {"s0": "x1"})
    assert refused.status_code in (409, 422)


def test_the_start_page_offers_the_players_choice(client: TestClient) -> None:
    form = client.get("/console").text
    assert 'id="wmn-draw-players"' in form
    assert "Each player chooses their own on their page" in text(form)
    made = client.post("/console/new/wmn", data={"names": "Ann\nBob\nCy\nDee",
                                                 "range": "1-30", "draw": "players"},
                       follow_redirects=False)
    assert made.status_code == 303
    link = re.search(r"/console/([\w-]+)/gm/([\w-]+)", made.headers["location"])
    assert link is not None
    state = client.get(f"/api/games/{link[1]}/state.json", headers=bearer(link[2])).json()
    assert (state["secrets_by"], state["choosing"], state["secrets"]) == (
        "players", ["Ann", "Bob", "Cy", "Dee"], {})


def test_a_number_guessed_twice_is_pointed_out(client: TestClient, game: dict) -> None:
    everyone_chooses(client, game)
    sent = client.post(f"/api/games/{game['id']}/orders", json={"guesses": [20, 20]},
                       headers=bearer(game["player_tokens"]["Ann"]))
    assert sent.status_code == 201, sent.text
    assert sent.json()["hints"] == ["20 is guessed twice: the second tells you nothing new"]
    assert "20 is guessed twice: the second tells you nothing new" in text(
        client.get(page_of(game, "Ann")).text)
    once = client.post(f"/api/games/{game['id']}/orders", json={"guesses": [20, 21]},
                       headers=bearer(game["player_tokens"]["Ann"]))
    assert once.json()["hints"] == []
