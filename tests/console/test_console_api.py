"""The console's JSON API on SQLite and PostgreSQL: a What's My Number? game of 7 players and
4 turns (export read back by ``kit report``, byte for byte), a 3-table Lowest Unique Number party
at different rounds, a stale version (409), imports and undo."""

from __future__ import annotations

import io
import tomllib
from pathlib import Path

import pytest
from pypdf import PdfReader

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402
from support.helpers import check_export_matches_kit_report  # noqa: E402

from kit.console.service import Console  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
SECRETS = {"Ann": 17, "Bob": 42, "Cy": 8, "Dee": 55, "Eve": 29, "Fay": 36, "Gus": 3}
TURNS = [
    {"Ann": [20, 30], "Bob": [29, 50], "Cy": [10, 40], "Dee": [5, 45], "Eve": [15, 35],
     "Fay": [25, 44], "Gus": {"list": {"Ann": 17, "Bob": 1, "Cy": 2, "Dee": 4, "Eve": 5,
                                       "Fay": 6}}},
    # Bob has 3 guesses (1 hit) and hits 3; Cy sends nothing
    {"Bob": [36, 3, 8], "Ann": [40, 10], "Dee": [29, 33], "Eve": [42, 12], "Fay": [60, 1],
     "Gus": [50, 55]},
    {"Bob": [11, 12], "Ann": [45, 46], "Cy": [18, 19], "Dee": [1, 2], "Eve": [21, 22],
     "Fay": [23, 24], "Gus": [26, 27]},
    # Bob completes by guesses, Fay by a fully correct list: the list wins
    {"Fay": {"list": {"Ann": 17, "Bob": 42, "Cy": 8, "Dee": 55, "Eve": 29, "Gus": 3}},
     "Bob": [17, 55], "Ann": [5, 6]},
]
TABLES = [["Ann", "Bob", "Cy", "Dee"], ["Eve", "Fay", "Gus", "Hal", "Ivy"],
          ["Jo", "Kim", "Lee", "Max"]]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_wmn(client: TestClient, **extra: object) -> dict:
    body = {"game": "whats-my-number", "players": PLAYERS, "secrets": SECRETS, "range": "1-60",
            **extra}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def post_turn(client: TestClient, game: dict, orders: dict, **extra: object):
    return client.post(f"/api/games/{game['id']}/turns", json={"orders": orders, **extra},
                       headers=bearer(game["gm_token"]))


def publish(client: TestClient, game: dict, turn: int):
    return client.post(f"/api/games/{game['id']}/turns/{turn}/publish",
                       headers=bearer(game["gm_token"]))


def public(client: TestClient, game: dict) -> dict:
    answer = client.get(f"/api/games/{game['id']}/public.json")
    assert answer.status_code == 200
    return answer.json()


def test_created_game_links(client: TestClient) -> None:
    game = new_wmn(client)
    assert set(game) == {"id", "gm_token", "gm_url", "public_url", "version",
                         "player_tokens", "player_links"}
    assert len(game["gm_token"]) >= 43  # 32 random bytes, URL-safe: 256 bits
    assert game["gm_url"].endswith(f"/console/{game['id']}/gm/{game['gm_token']}")
    assert game["public_url"].endswith(f"/console/{game['id']}")


def test_secrets_drawn_when_not_given(client: TestClient) -> None:
    game = client.post("/api/games", json={"game": "whats-my-number", "players": 5}).json()
    log = tomllib.loads(client.get(f"/api/games/{game['id']}/log.toml",
                                   headers=bearer(game["gm_token"])).text)
    lo, hi = (int(x) for x in log["range"].split("-"))
    assert sorted(log["secrets"]) == sorted(log["players"]) and len(log["players"]) == 5
    assert all(lo <= n <= hi for n in log["secrets"].values())
    assert len(set(log["secrets"].values())) == 5


def test_new_game_problems_all_at_once(client: TestClient) -> None:
    answer = client.post("/api/games", json={"game": "whats-my-number", "players": PLAYERS,
                                             "lang": "xx", "paper": "a9", "colour": 1})
    assert answer.status_code == 422
    fields = {e["field"] for e in answer.json()["errors"]}
    assert {"lang", "paper", "colour"} <= fields


def test_seven_players_four_turns(client: TestClient, console: Console, tmp_path: Path) -> None:
    game = new_wmn(client, title="Friday night")
    # turn 1 in two posts; Ann posted again replaces her first orders
    first = post_turn(client, game, {"Ann": [1, 2], "Bob": TURNS[0]["Bob"]})
    assert first.status_code == 201 and first.json()["turn"] == 1
    rest = {k: v for k, v in TURNS[0].items() if k != "Bob"}
    answer = post_turn(client, game, rest)
    assert answer.status_code == 201
    assert answer.json()["received"] == PLAYERS and answer.json()["missing"] == []
    assert public(client, game)["turns"] == []  # nothing handed out before publish
    assert publish(client, game, 1).status_code == 200
    for number, orders in enumerate(TURNS[1:], start=2):
        answer = post_turn(client, game, orders)
        assert answer.status_code == 201, answer.text
        assert answer.json()["turn"] == number
        if number == 2:
            assert answer.json()["missing"] == ["Cy"]
        if number == 4:
            assert public(client, game)["winners"] == []  # turn 4 not handed out yet
        assert publish(client, game, number).status_code == 200
    seen = public(client, game)
    assert seen["published"] == 4 and [t["number"] for t in seen["turns"]] == [1, 2, 3, 4]
    ann = seen["turns"][0]["rows"][0]
    assert ann["player"] == "Ann" and "number" not in ann  # guessed numbers stay private
    log = tomllib.loads(client.get(f"/api/games/{game['id']}/log.toml",
                                   headers=bearer(game["gm_token"])).text)
    assert log["turn"][0]["Ann"] == [20, 30]  # the replacement, not [1, 2]
    assert ann["cells"] == ["X", "H", "L", "H", "H", "H", "L"]
    bob = next(r for r in seen["turns"][0]["rows"] if r["player"] == "Bob" and r["index"] == 1)
    assert bob["cells"][PLAYERS.index("Eve")] == "✓"
    assert seen["turns"][1]["allowance"]["Bob"] == 3
    assert not any(r["player"] == "Cy" for r in seen["turns"][1]["rows"])
    assert seen["winners"] == ["Fay"] and seen["winning_turn"] == 4
    assert seen["title"] == "Friday night"
    text = client.get(f"/api/games/{game['id']}/log.toml", headers=bearer(game["gm_token"])).text
    assert tomllib.loads(text)["published"] == 4
    check_export_matches_kit_report(client, console, game, tmp_path, "Friday-night-reports")


def test_a_french_game_on_letter_reports_as_kit_report_does(client: TestClient,
                                                             console: Console,
                                                             tmp_path: Path) -> None:
    game = new_wmn(client, lang="fr", paper="letter", title="Soirée")
    for number, orders in enumerate(TURNS[:2], start=1):
        assert post_turn(client, game, orders).status_code == 201
        assert publish(client, game, number).status_code == 200
    reports = console.report_file(game["id"], "turn-reports.html").read_text(encoding="utf-8")
    assert 'lang="fr"' in reports and "rapports de tour" in reports
    check_export_matches_kit_report(client, console, game, tmp_path, "Soirée-reports",
                                    "--lang", "fr", "--paper", "letter")


def test_an_amendment_with_a_stale_version_is_refused(client: TestClient) -> None:
    game = new_wmn(client)
    post_turn(client, game, TURNS[0])
    publish(client, game, 1)
    gm = bearer(game["gm_token"])
    seen = client.get(f"/api/games/{game['id']}/state.json", headers=gm).json()["version"]
    post_turn(client, game, {"Ann": [20, 30]})  # another window enters first
    url = f"/api/games/{game['id']}/turns/1/amend"
    for confirm in (False, True):
        stale = client.post(url, json={"orders": {"Ann": [8, 30]}, "confirm": confirm,
                                       "version": seen}, headers=gm)
        assert stale.status_code == 409, stale.text
    assert public(client, game)["amended"] == []
    assert client.post(url, json={"orders": {"Ann": [8, 30]}, "confirm": True,
                                  "version": seen + 1}, headers=gm).status_code == 200
    assert public(client, game)["amended"] == [1]


def test_stale_version_gets_409_with_what_changed(client: TestClient) -> None:
    game = new_wmn(client)
    seen = game["version"]  # both GMs loaded the game at this version
    first = post_turn(client, game, {"Ann": [20, 30]}, version=seen)
    assert first.status_code == 201
    stale = post_turn(client, game, {"Ann": [40, 50], "Bob": [1, 2]}, version=seen)
    assert stale.status_code == 409
    body = stale.json()
    assert body["version"] == first.json()["version"]
    assert [c["text"] for c in body["changes"]] == ["turn 1: orders for Ann"]
    log = tomllib.loads(client.get(f"/api/games/{game['id']}/log.toml",
                                   headers=bearer(game["gm_token"])).text)
    assert log["turn"] == [{"Ann": [20, 30]}]  # the stale form changed nothing
    again = post_turn(client, game, {"Bob": [1, 2]}, version=body["version"])
    assert again.status_code == 201


def test_every_problem_at_once(client: TestClient) -> None:
    game = new_wmn(client)
    answer = post_turn(client, game, {"Zed": [1, 2], "Ann": "soon"})
    assert answer.status_code == 422
    errors = answer.json()["errors"]
    assert all(set(e) == {"field", "message", "text"} for e in errors)
    assert any("Zed" in e["text"] for e in errors)
    assert client.get(f"/api/games/{game['id']}/state.json",
                      headers=bearer(game["gm_token"])).json()["version"] == game["version"]


def test_names_match_without_case(client: TestClient) -> None:
    game = new_wmn(client)
    answer = post_turn(client, game, {"ann": [20, 30], " FAY ": [1, 2]})
    assert answer.status_code == 201 and answer.json()["received"] == ["Ann", "Fay"]


def test_undo_the_last_entry(client: TestClient) -> None:
    game = new_wmn(client)
    post_turn(client, game, {"Ann": [20, 30]})
    post_turn(client, game, {"Bob": [1, 2]})
    gm = bearer(game["gm_token"])
    assert client.post(f"/api/games/{game['id']}/undo", headers=gm).status_code == 200
    state = client.get(f"/api/games/{game['id']}/state.json", headers=gm).json()
    assert state["received"] == ["Ann"] and state["version"] == 4
    publish(client, game, 1)
    nothing = client.post(f"/api/games/{game['id']}/undo", headers=gm)
    assert nothing.status_code == 422  # a published turn is amended, not undone


def test_amend_shows_changed_cells_then_records(client: TestClient) -> None:
    game = new_wmn(client)
    post_turn(client, game, TURNS[0])
    publish(client, game, 1)
    gm = bearer(game["gm_token"])
    url = f"/api/games/{game['id']}/turns/1/amend"
    preview = client.post(url, json={"orders": {"Ann": [8, 30]}}, headers=gm)
    assert preview.status_code == 200 and preview.json()["changes"]
    assert preview.json()["amended"] is False
    cy = PLAYERS.index("Cy")
    assert public(client, game)["turns"][0]["rows"][0]["cells"][cy] == "L"  # 20: Cy is lower
    done = client.post(url, json={"orders": {"Ann": [8, 30]}, "confirm": True}, headers=gm)
    assert done.status_code == 200 and done.json()["amended"] is True
    row = public(client, game)["turns"][0]["rows"][0]
    assert row["cells"][cy] == "✓" and "number" not in row  # 8 is Cy's number


def test_a_turn_amended_twice_has_one_erratum_page_of_its_net_change(client: TestClient) -> None:
    """Ann's 20 corrected to 8 (Cy found), then her 30 to 42 (Bob found): the players' erratum
    has one page for turn 1, each cell as first handed out and as it is now."""
    game = new_wmn(client)
    post_turn(client, game, TURNS[0])
    publish(client, game, 1)
    gm = bearer(game["gm_token"])
    url = f"/api/games/{game['id']}/turns/1/amend"
    for orders in ({"Ann": [8, 30]}, {"Ann": [8, 42]}):
        done = client.post(url, json={"orders": orders, "confirm": True}, headers=gm)
        assert done.status_code == 200 and done.json()["amended"] is True
    html = client.get(f"/console/{game['id']}/files/erratum.html")
    assert html.status_code == 200 and html.text.count('id="erratum-') == 1
    pdf = client.get(f"/console/{game['id']}/files/erratum.pdf")
    reader = PdfReader(io.BytesIO(pdf.content))
    assert [entry.title for entry in reader.outline] == ["Erratum, turn 1"]
    (page,) = [" ".join(p.extract_text().split()) for p in reader.pages]
    assert "Ann 1 Cy L ✓" in page  # as printed, then now
    assert "Ann 2 Bob H ✓" in page  # H as handed out (the 30), not the first erratum's "now"


def test_none_records_no_orders_apart_from_not_entered_yet(client: TestClient) -> None:
    game = new_wmn(client)
    answer = post_turn(client, game, {"Ann": [20, 30], "Cy": "none"})
    assert answer.status_code == 201, answer.text
    got = answer.json()
    assert got["received"] == ["Ann", "Cy"] and "Cy" not in got["missing"]
    assert got["no_orders"] == ["Cy"]
    gm = bearer(game["gm_token"])
    state = client.get(f"/api/games/{game['id']}/state.json", headers=gm).json()
    assert state["no_orders"] == ["Cy"] and state["entered"]["Cy"]["none"] is True
    log = tomllib.loads(client.get(f"/api/games/{game['id']}/log.toml", headers=gm).text)
    assert log["turn"] == [{"Ann": [20, 30]}]  # kit report reads an absent player as no orders
    taken = post_turn(client, game, {"Cy": None})  # taken out: not entered yet again
    assert taken.status_code == 201 and "Cy" in taken.json()["missing"]
    post_turn(client, game, {"Cy": "none"})
    publish(client, game, 1)
    assert "Cy" in public(client, game)["turns"][0]["no_orders"]


def test_publish_only_the_open_turn(client: TestClient) -> None:
    game = new_wmn(client)
    assert publish(client, game, 2).status_code == 422
    assert publish(client, game, 1).status_code == 200
    assert publish(client, game, 1).status_code == 422


def test_import_reproduces_the_log(client: TestClient) -> None:
    game = new_wmn(client)
    for number, orders in enumerate(TURNS[:2], start=1):
        post_turn(client, game, orders)
        publish(client, game, number)
    post_turn(client, game, {"Ann": [45, 46]})  # the open turn goes along
    gm = bearer(game["gm_token"])
    text = client.get(f"/api/games/{game['id']}/log.toml", headers=gm).text
    copy = client.post("/api/games/import", content=text.encode(),
                       headers={"content-type": "application/toml"})
    assert copy.status_code == 201
    copied = copy.json()
    again = client.get(f"/api/games/{copied['id']}/log.toml", headers=bearer(copied["gm_token"]))
    assert tomllib.loads(again.text) == tomllib.loads(text)
    assert public(client, copied)["turns"] == public(client, game)["turns"]
    bad = client.post("/api/games/import", json={"log": "game = 'whats-my-number'\nplayers = 3"})
    assert bad.status_code == 422


def test_unknown_game_is_404(client: TestClient) -> None:
    assert client.get("/api/games/nosuchgame/public.json").status_code == 404
    answer = client.post("/api/games/nosuchgame/turns", json={"orders": {}},
                         headers=bearer("x" * 43))
    assert answer.status_code == 404


# --- Lowest Unique Number ------------------------------------------------------------------------

ROUNDS = [  # (table, choices, cancelled, winning number, winner): tables at different rounds
    (1, {"Ann": 3, "Bob": 1, "Cy": 1, "Dee": "pass"}, [1], 3, "Ann"),
    (2, {"Eve": 2, "Fay": 2, "Gus": 5, "Hal": 4, "Ivy": 4}, [2, 4], 5, "Gus"),
    (1, {"Ann": 2, "Bob": 2, "Cy": 2, "Dee": 7}, [2], 7, "Dee"),
    (3, {"Jo": 1, "Kim": 2, "Lee": 3, "max": "pass"}, [], 1, "Jo"),
    (1, {"Ann": 1, "Bob": 3, "Cy": 4, "Dee": 5}, [], 1, "Ann"),
    (2, {"Eve": 1, "Fay": 1, "Gus": 1, "Hal": 1, "Ivy": 1}, [1], None, None),
]


def test_three_table_party_at_different_rounds(client: TestClient, console: Console,
                                               tmp_path: Path) -> None:
    answer = client.post("/api/games", json={"game": "lowest-unique", "tables": TABLES,
                                             "rounds": 3})
    assert answer.status_code == 201
    party = answer.json()
    gm = bearer(party["gm_token"])
    played: dict[int, int] = {}
    for table, choices, cancelled, number, winner in ROUNDS:
        answer = client.post(f"/api/games/{party['id']}/tables/{table}/rounds",
                             json={"choices": choices}, headers=gm)
        assert answer.status_code == 201, answer.text
        played[table] = played.get(table, 0) + 1
        tally = answer.json()["tally"]
        assert answer.json()["round"] == played[table]
        assert tally["result"]["cancelled"] == cancelled
        assert tally["result"]["winner"] == number and tally["winner"] == winner
    seen = public(client, party)
    assert seen["rounds_entered"] == {"1": 3, "2": 2, "3": 1}
    points = {row["player"]: row["points"] for row in seen["standings"]}
    assert points["Ann"] == 2 and seen["standings"][0]["player"] == "Ann"
    assert {p for p, n in points.items() if n == 1} == {"Dee", "Gus", "Jo"}
    assert sum(points.values()) == 5
    fourth = client.post(f"/api/games/{party['id']}/tables/1/rounds",
                         json={"choices": {"Ann": 1, "Bob": 2, "Cy": 3, "Dee": 4}}, headers=gm)
    assert fourth.status_code == 422  # the party plays 3 rounds
    nobody = client.post(f"/api/games/{party['id']}/tables/3/rounds",
                         json={"choices": {"Jo": 1, "Kim": 2, "Lee": 3, "Zed": 4}}, headers=gm)
    assert nobody.status_code == 422 and len(nobody.json()["errors"]) >= 1
    assert client.post(f"/api/games/{party['id']}/tables/9/rounds", json={"choices": {}},
                       headers=gm).status_code == 422
    text = client.get(f"/api/games/{party['id']}/log.toml", headers=gm).text
    copy = client.post("/api/games/import", json={"log": text, "lang": "de"}).json()
    mirrored = public(client, copy)
    assert mirrored["standings"] == seen["standings"] and mirrored["tables"] == seen["tables"]
    assert mirrored["lang"] == "de"
    check_export_matches_kit_report(client, console, party, tmp_path, "game-reports")


def test_party_seated_from_names(client: TestClient) -> None:
    names = [f"P{i}" for i in range(1, 15)]
    answer = client.post("/api/games", json={"game": "lowest-unique", "players": names})
    assert answer.status_code == 201
    seen = public(client, answer.json())
    seated = [p for t in seen["tables"] for p in t["players"]]
    assert sorted(seated) == sorted(names) and len(seen["tables"]) == 2


def test_public_json_rulings_carry_positions_never_a_guessed_number(client: TestClient) -> None:
    game = new_wmn(client)
    orders = {"Ann": [20, 30, 13], "Bob": [61, 50]}  # Ann's 13 ignored, Bob's 61 void
    assert post_turn(client, game, orders).status_code == 201
    assert publish(client, game, 1).status_code == 200
    rulings = {r["player"]: r for r in public(client, game)["turns"][0]["rulings"]
               if r["kind"] != "no-orders"}
    assert rulings["Ann"]["positions"] == [3] and rulings["Bob"]["positions"] == [1]
    assert all("numbers" not in r for r in public(client, game)["turns"][0]["rulings"])
    register = client.get(f"/api/games/{game['id']}/state.json",
                          headers=bearer(game["gm_token"])).text
    assert "61" in register  # the GM's own view keeps what was written


def test_every_problem_of_an_entry_at_once(client: TestClient) -> None:
    game = new_wmn(client)
    answer = post_turn(client, game, {"Ann": ["5O", 3], "Bob": {"list": {"Ann": 70}}})
    assert answer.status_code == 422, answer.text
    text = answer.text
    assert "5O" in text and "70" in text, text  # the form's kind and the engine's, in one answer


def test_the_gm_page_lays_out_the_latest_ten_published_turns(client: TestClient) -> None:
    game = new_wmn(client)
    for turn in range(1, 13):
        post_turn(client, game, {"Ann": [60 - turn, 61 - turn]})
        assert publish(client, game, turn).status_code == 200
    client.get(f"/console/{game['id']}/gm/{game['gm_token']}")
    page = client.get(f"/console/{game['id']}/gm").text
    shown = [n for n in range(1, 13) if f"Turn {n} report" in page or f"id=\"turn-{n}\"" in page]
    assert "The reports of turns 1 to 2 are in the game’s report files above." in page
    assert 3 in shown and 12 in shown and 1 not in shown and 2 not in shown
