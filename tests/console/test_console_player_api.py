"""Players' own calls (SQLite and PostgreSQL): me.json and orders with a player's token, the
forecast of the rulings, every problem at once, 409 once the turn is closed or over, who
entered each row in the GM's state.json, link rotation, and every player's token against
every other call (nothing changes, nothing of another player's is read)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402

from kit.console.quota import POSTS_PER_MINUTE, SeatPace, TooFast  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SECRETS = {"Ann": 417, "Bob": 523, "Cy": 608, "Dee": 719, "Eve": 836}
GUESSES = {"Ann": [111, 112], "Bob": [221, 222, 223], "Cy": [331, 2000],
           "Dee": {"list": {"Ann": 441, "Bob": 442}}, "Eve": [551]}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def has(number: int, text: str) -> bool:
    return re.search(rf"(?<![\d.]){number}(?![\d.])", text) is not None


@pytest.fixture
def game(client: TestClient) -> dict:
    answer = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                             "secrets": SECRETS, "range": "1-999"})
    assert answer.status_code == 201, answer.text
    return answer.json()


def post(client: TestClient, game: dict, player: str, body: dict):
    return client.post(f"/api/games/{game['id']}/orders", json=body,
                       headers=bearer(game["player_tokens"][player]))


def me(client: TestClient, game: dict, player: str) -> dict:
    answer = client.get(f"/api/games/{game['id']}/me.json",
                        headers=bearer(game["player_tokens"][player]))
    assert answer.status_code == 200, answer.text
    return answer.json()


def send(client: TestClient, game: dict, player: str, order) -> dict:
    body = order if isinstance(order, dict) else {"guesses": order}
    answer = post(client, game, player, body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def gm(client: TestClient, game: dict, path: str, body: dict | None = None):
    return client.post(f"/api/games/{game['id']}/{path}", json=body or {},
                       headers=bearer(game["gm_token"]))


def test_me_before_any_orders(client: TestClient, game: dict) -> None:
    data = me(client, game, "Cy")
    assert {k: data[k] for k in ("player", "turn", "allowance", "orders", "deadline", "slips",
                                 "published", "secret", "closed")} == {
        "player": "Cy", "turn": 1, "allowance": 2, "orders": None, "deadline": None,
        "slips": [], "published": 0, "secret": 608, "closed": False}


def test_the_forecast_says_which_rulings_the_orders_will_get(client: TestClient,
                                                            game: dict) -> None:
    over = send(client, game, "Bob", [221, 222, 223])
    assert over["turn"] == 1 and over["orders"] == [221, 222, 223] and over["allowance"] == 2
    assert [r["text"] for r in over["rulings"]] == [
        ["3 guesses, 2 allowed: guess 3 will be ignored"]]
    void = send(client, game, "Cy", [331, 2000])
    assert [(r["kind"], r["positions"], r["text"]) for r in void["rulings"]] == [
        ("out-of-range", [2], ["2000 is outside 1 to 999: void"])]
    partial = send(client, game, "Dee", {"list": {"ann": 441, "Bob": 442}})
    assert partial["orders"] == {"list": {"Ann": 441, "Bob": 442}}  # names spelt as the game's
    assert [r["text"] for r in partial["rulings"]] == [
        ["your list leaves out Cy, Eve: its right numbers count, but it cannot win"]]
    assert send(client, game, "Eve", [551])["rulings"] == []
    seen = me(client, game, "Bob")
    assert seen["orders"] == [221, 222, 223] and seen["rulings"] == over["rulings"]
    assert seen["entered"]["by"] == "player"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", seen["entered"]["at"])
    # an answer before the turn is published would be a free guess: none is given
    assert "cells" not in repr(seen["rulings"]) and "turns" not in seen


def test_a_repost_replaces_and_every_problem_comes_at_once(client: TestClient,
                                                         game: dict) -> None:
    send(client, game, "Ann", [111, 112])
    assert send(client, game, "Ann", [113])["orders"] == [113]
    assert me(client, game, "Ann")["orders"] == [113]
    bad = post(client, game, "Ann", {"list": {"Bob": "x", "Zed": 4, "Cy": 5000}, "extra": 1})
    assert bad.status_code == 422
    texts = [e["text"] for e in bad.json()["errors"]]
    assert texts[0] == "extra: is not a field here; give guesses or a list"
    assert any("Zed" in t and "not a player" in t for t in texts), texts
    assert any('"x", not a whole number' in t for t in texts), texts
    assert any("5000, outside the range 1 to 999" in t for t in texts), texts
    for body, field in (({}, "orders"), ({"guesses": [1], "list": {}}, "orders"),
                        ({"guesses": "12"}, "guesses"), ({"guesses": list(range(41))},
                                                          "guesses"),
                        ({"list": [1, 2]}, "list"), ({"guesses": [1], "turn": "1"}, "turn")):
        answer = post(client, game, "Ann", body)
        assert answer.status_code == 422, (body, answer.text)
        assert answer.json()["errors"][0]["field"] == field, (body, answer.text)
    assert me(client, game, "Ann")["orders"] == [113]  # nothing refused was recorded


def test_a_players_reposts_are_paced_and_the_gm_never_is(client: TestClient,
                                                        game: dict) -> None:
    for n in range(POSTS_PER_MINUTE):
        send(client, game, "Ann", [200 + n])
    refused = post(client, game, "Ann", {"guesses": [300]})
    assert refused.status_code == 429, refused.text
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    [error] = refused.json()["errors"]
    assert error["field"] == "orders"
    assert error["message"] == (
        f"{POSTS_PER_MINUTE} posts from your link in the last minute; wait "
        f"{refused.headers['retry-after']} seconds, then send again (your last orders are kept)")
    assert me(client, game, "Ann")["orders"] == [200 + POSTS_PER_MINUTE - 1]
    send(client, game, "Bob", [5])  # another player's link is paced on its own
    for n in range(POSTS_PER_MINUTE + 2):  # the game master enters Ann's row as often as needed
        assert gm(client, game, "turns", {"orders": {"Ann": [400 + n]}}).status_code == 201
    assert me(client, game, "Ann")["orders"] == [400 + POSTS_PER_MINUTE + 1]


def test_the_pace_counts_only_entered_posts_over_a_sliding_minute() -> None:
    pace = SeatPace(per_minute=2, window=60.0)
    seat = ("g", "player", "Ann")
    pace.check(seat, now=0.0)
    pace.note(seat, now=0.0)
    pace.check(seat, now=10.0)  # a refused post is checked, never noted: it costs nothing
    pace.check(seat, now=10.0)
    pace.note(seat, now=10.0)
    with pytest.raises(TooFast) as fast:
        pace.check(seat, now=30.0)
    assert (fast.value.count, fast.value.retry_after) == (2, 30)
    pace.check(("g", "player", "Bob"), now=30.0)
    pace.check(seat, now=60.5)  # the first post has left the minute


def test_a_closed_or_past_turn_takes_no_more_orders(client: TestClient, game: dict) -> None:
    send(client, game, "Ann", [111])
    closed = gm(client, game, "turns/1/close")
    assert closed.status_code == 200, closed.text
    refused = post(client, game, "Ann", {"guesses": [112]})
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["message"] == \
        "turn 1 is closed: the game master takes no more changes"
    assert me(client, game, "Ann")["orders"] == [111] and me(client, game, "Ann")["closed"]
    assert gm(client, game, "turns", {"orders": {"Bob": [5]}}).status_code == 201  # the GM can
    assert gm(client, game, "turns/1/reopen").status_code == 200
    send(client, game, "Ann", [112])
    assert gm(client, game, "turns/1/publish").status_code == 200
    stale = post(client, game, "Ann", {"guesses": [7], "turn": 1})  # a form of turn 1
    assert stale.status_code == 409
    assert stale.json()["errors"][0]["message"] == \
        "your orders were for turn 1, which is over; turn 2 is open"
    assert gm(client, game, "turns/1/close").status_code == 409  # not the open turn
    assert me(client, game, "Ann")["closed"] is False  # a new turn opens for everyone


def test_a_deadline_per_turn(client: TestClient, game: dict) -> None:
    answer = gm(client, game, "turns/1/deadline", {"deadline": "2026-12-04T20:00"})
    assert answer.status_code == 200 and answer.json()["deadline"] == "2026-12-04T20:00"
    assert me(client, game, "Eve")["deadline"] == "2026-12-04T20:00"
    bad = gm(client, game, "turns/1/deadline", {"deadline": "Friday"})
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "deadline"
    left_out = gm(client, game, "turns/1/deadline", {})  # only asked for is it removed
    assert left_out.status_code == 200 and left_out.json()["deadline"] == "2026-12-04T20:00"
    assert me(client, game, "Eve")["deadline"] == "2026-12-04T20:00"
    assert gm(client, game, "turns/1/deadline", {"deadline": None}).status_code == 200
    assert me(client, game, "Eve")["deadline"] is None


def test_the_gm_state_says_who_entered_each_row_and_when(client: TestClient,
                                                        game: dict) -> None:
    send(client, game, "Ann", [111])
    gm(client, game, "turns", {"orders": {"Bob": [221]}})
    state = client.get(f"/api/games/{game['id']}/state.json",
                       headers=bearer(game["gm_token"])).json()
    assert {p: m["by"] for p, m in state["entered"].items()} == {"Ann": "player", "Bob": "gm"}
    assert all(isinstance(m["at"], float) for m in state["entered"].values())
    assert [e["text"] for e in state["entries"][-2:]] == [
        "turn 1: orders sent by Ann", "turn 1: orders for Bob"]
    gm(client, game, "turns", {"orders": {"Ann": [112]}})  # the GM overwrites a player's row
    state = client.get(f"/api/games/{game['id']}/state.json",
                       headers=bearer(game["gm_token"])).json()
    assert state["entered"]["Ann"]["by"] == "gm" and state["log"]["turn"][0]["Ann"] == [112]


def test_slips_after_each_publish_are_the_players_own(client: TestClient, game: dict) -> None:
    for player, order in GUESSES.items():
        send(client, game, player, order)
    assert gm(client, game, "turns/1/publish").status_code == 200
    send(client, game, "Ann", [417 - 1])
    for player in PLAYERS:
        data = me(client, game, player)
        assert data["published"] == 1 and [s["turn"] for s in data["slips"]] == [1]
        assert data["slips"][0]["orders"] == GUESSES[player]
        assert player in data["slips"][0]["text"].splitlines()[0]
        text = repr(data)
        others = [p for p in PLAYERS if p != player]
        for other in others:
            assert not has(SECRETS[other], text), (player, other)
            for number in re.findall(r"\d{3,}", repr(GUESSES[other])):
                assert not has(int(number), text), (player, other, number)
        if player != "Ann":
            assert not has(416, text)  # Ann's orders of the open turn


def test_every_players_token_on_every_other_call(client: TestClient, game: dict) -> None:
    gid = game["id"]
    send(client, game, "Ann", [111])
    version = client.get(f"/api/games/{gid}/state.json", headers=bearer(game["gm_token"])
                         ).json()["version"]
    gm_posts = ["turns", "turns/1/publish", "turns/1/close", "turns/1/reopen",
                "turns/1/deadline", "turns/1/amend", "undo", "rotate", "players/Bob/rotate"]
    for player, token in game["player_tokens"].items():
        for path in gm_posts:
            answer = client.post(f"/api/games/{gid}/{path}", headers=bearer(token),
                                 json={"orders": {player: [1]}, "deadline": None})
            assert answer.status_code == 403, (player, path, answer.text)
        for path in ("log.toml", "state.json"):
            answer = client.get(f"/api/games/{gid}/{path}", headers=bearer(token))
            assert answer.status_code == 403, (player, path)
            assert not any(has(n, answer.text) for n in SECRETS.values())
        assert me(client, game, player)["player"] == player  # a token reads its own only
    for headers, status in (({}, 401), (bearer(game["gm_token"]), 403),
                            (bearer(game["player_tokens"]["Ann"] + "x"), 403)):
        assert client.get(f"/api/games/{gid}/me.json", headers=headers).status_code == status
        assert client.post(f"/api/games/{gid}/orders", headers=headers,
                           json={"guesses": [1]}).status_code == status
    state = client.get(f"/api/games/{gid}/state.json", headers=bearer(game["gm_token"])).json()
    assert state["version"] == version and state["log"]["turn"] == [{"Ann": [111]}]
    assert client.get(f"/api/games/{gid}/me.json",
                      headers=bearer(game["player_tokens"]["Ann"])).status_code == 200


def test_rotation_stops_the_old_link_at_once(client: TestClient, game: dict) -> None:
    gid, old = game["id"], game["player_tokens"]["Bob"]
    answer = gm(client, game, "players/Bob/rotate")
    assert answer.status_code == 200
    new = answer.json()
    assert new["link"] == f"http://testserver/console/{gid}/p/{new['token']}"
    assert new["token"] != old
    assert client.get(f"/api/games/{gid}/me.json", headers=bearer(old)).status_code == 403
    assert client.get(f"/api/games/{gid}/me.json",
                      headers=bearer(new["token"])).json()["player"] == "Bob"
    assert gm(client, game, "players/Zed/rotate").status_code == 404
    rotated = gm(client, game, "rotate")
    assert rotated.status_code == 200
    token = rotated.json()["token"]
    assert rotated.json()["link"] == f"http://testserver/console/{gid}/gm/{token}"
    assert client.get(f"/api/games/{gid}/state.json",
                      headers=bearer(game["gm_token"])).status_code == 403
    assert client.get(f"/api/games/{gid}/state.json", headers=bearer(token)).status_code == 200
    assert me(client, game, "Ann")["player"] == "Ann"  # other links keep working
