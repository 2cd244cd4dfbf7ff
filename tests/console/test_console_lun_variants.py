"""Lowest Unique Number's announced variants in the console (SQLite and PostgreSQL): a cooperative
party and a sudden-death tie-break played through the API give what ``kit report`` of the
exported log gives, files byte for byte; a tie-break is taken only when one is due, from the
tied players alone; the host's, the scorer's and the public pages work without scripts."""

from __future__ import annotations

import re
import tomllib
from html import unescape
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402
from support.helpers import check_export_matches_kit_report  # noqa: E402

from kit.console.pages import auth as guard  # noqa: E402
from kit.console.service import Console  # noqa: E402
from kit.games.lowest_unique.report.reports import text_report  # noqa: E402
from kit.games.lowest_unique.rules.log import read_party_log  # noqa: E402
from kit.i18n import words  # noqa: E402

TABLES = [["Ann", "Bob", "Cy", "Dee"], ["Eve", "Fay", "Gus"]]
ROUNDS = [  # table 1: Ann's 3, then Cy's 4 (Ann and Cy share the top); table 2: Eve's 1,
    # then every number cancels (Eve alone at the top)
    (1, {"Ann": 3, "Bob": 1, "Cy": 1, "Dee": "pass"}),
    (2, {"Eve": 1, "Fay": 2, "Gus": 2}),
    (1, {"Ann": 2, "Bob": 2, "Cy": 4, "Dee": 5}),
    (2, {"Eve": 3, "Fay": 3, "Gus": 3}),
]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_party(client: TestClient, **variant: object) -> dict:
    made = client.post("/api/games", json={"game": "lowest-unique", "tables": TABLES,
                                           "rounds": 2, **variant})
    assert made.status_code == 201, made.text
    return made.json()


def play_rounds(client: TestClient, party: dict, rounds: list = ROUNDS) -> None:
    for table, choices in rounds:
        answer = client.post(f"/api/games/{party['id']}/tables/{table}/rounds",
                             json={"choices": choices}, headers=bearer(party["gm_token"]))
        assert answer.status_code == 201, answer.text


def tiebreak(client: TestClient, party: dict, table: int, choices: dict, **extra: object):
    return client.post(f"/api/games/{party['id']}/tables/{table}/tiebreaks",
                       json={"choices": choices, **extra}, headers=bearer(party["gm_token"]))


def public(client: TestClient, party: dict) -> dict:
    return client.get(f"/api/games/{party['id']}/public.json").json()


def exported(client: TestClient, party: dict) -> str:
    return client.get(f"/api/games/{party['id']}/log.toml",
                      headers=bearer(party["gm_token"])).text


def refusal(answer) -> str:  # noqa: ANN001
    assert answer.status_code == 422, answer.text
    (error,) = answer.json()["errors"]
    return error["text"]


def test_a_sudden_death_tiebreak_through_the_api_and_kit_report(
        client: TestClient, console: Console, tmp_path: Path) -> None:
    party = new_party(client, sudden_death_announced=True)
    play_rounds(client, party, ROUNDS[:2])
    assert refusal(tiebreak(client, party, 1, {"Ann": 1, "Cy": 2})) == (
        "table: table 1 plays a tie-break round only after its last round (round 2)")
    play_rounds(client, party, ROUNDS[2:])
    seen = public(client, party)
    assert seen["sudden_death"] and not seen["over"] and seen["winners"] == []
    assert [t["due"] for t in seen["tables"]] == [["Ann", "Cy"], []]
    assert refusal(tiebreak(client, party, 2, {"Eve": 1})) == (
        "table: nobody shares the top of table 2; there is no tie to break")
    assert refusal(tiebreak(client, party, 1, {"Ann": 1, "Cy": 2, "Bob": 3})) == (
        "table 1, tie-break 1: 'Bob' does not share the top; only Ann, Cy play the tie-break")
    both_two = tiebreak(client, party, 1, {"ann": 2, "Cy": 2})  # names match without case
    assert both_two.status_code == 201, both_two.text
    assert both_two.json()["round"] == 1 and both_two.json()["decider"] is None
    assert public(client, party)["tables"][0]["due"] == ["Ann", "Cy"]  # they play again
    stale = tiebreak(client, party, 1, {"Ann": 1, "Cy": 3}, round=1)
    assert stale.status_code == 409
    decided = tiebreak(client, party, 1, {"Ann": 1, "Cy": 3}, round=2)
    assert decided.status_code == 201 and decided.json()["decider"] == "Ann"
    assert decided.json()["tally"]["result"]["winner"] == 1
    assert refusal(tiebreak(client, party, 1, {"Ann": 1, "Cy": 3})) == (
        "table: table 1’s tie-break is decided: Ann scored")
    seen = public(client, party)
    assert seen["over"] and seen["winners"] == ["Ann", "Eve"]
    assert [(s["place"], s["player"]) for s in seen["standings"]][:3] == [
        (1, "Ann"), (1, "Eve"), (3, "Cy")]  # Cy lost the tie-break; Eve led table 2 alone
    text = exported(client, party)
    log = tomllib.loads(text)
    assert log["sudden_death_announced"] is True
    assert log["tiebreak"] == [{"table": 1, "round": 1, "choices": {"Ann": 2, "Cy": 2}},
                               {"table": 1, "round": 2, "choices": {"Ann": 1, "Cy": 3}}]
    reported = read_party_log(text)  # what kit report reads: the same result
    assert [(p, s, t, n) for p, s, t, n in reported.standings()] == [
        (s["place"], s["player"], s["table"], s["points"]) for s in seen["standings"]]
    assert text_report(reported, words("en")).endswith(
        "\nAnn and Eve share first place with 1 point.\n")
    check_export_matches_kit_report(client, console, party, tmp_path, "game-reports")
    copy = client.post("/api/games/import", json={"log": text}).json()
    mirrored = public(client, copy)
    assert mirrored["standings"] == seen["standings"] and mirrored["tables"] == seen["tables"]


def test_a_cooperative_party_through_the_api_and_kit_report(
        client: TestClient, console: Console, tmp_path: Path) -> None:
    party = new_party(client, cooperative=True)
    play_rounds(client, party)
    seen = public(client, party)
    assert seen["cooperative"] and seen["over"]
    assert seen["standings"] == [] and seen["winners"] == []  # no points, no winner
    assert [t["score"] for t in seen["tables"]] == [1, 1]  # round 1 left one single, not 2
    assert refusal(tiebreak(client, party, 1, {"Ann": 1, "Cy": 2})) == (
        "table: no tie-break round: sudden death was not announced before round one")
    text = exported(client, party)
    assert tomllib.loads(text)["cooperative"] is True
    assert text_report(read_party_log(text), words("en")).endswith(
        "\nTable scores: table 1, 1 of 2 rounds left exactly one single; table 2, 1 of 2 "
        "rounds left exactly one single.\n")
    check_export_matches_kit_report(client, console, party, tmp_path, "game-reports")


def test_a_party_without_the_announcement_keeps_a_shared_top_shared(client: TestClient) -> None:
    party = new_party(client)
    play_rounds(client, party)
    seen = public(client, party)
    assert seen["over"] and seen["winners"] == ["Ann", "Cy", "Eve"]
    assert refusal(tiebreak(client, party, 1, {"Ann": 1, "Cy": 2})) == (
        "table: no tie-break round: sudden death was not announced before round one")
    assert "tiebreak" not in tomllib.loads(exported(client, party))
    assert "sudden_death_announced" not in exported(client, party)


@pytest.mark.parametrize(("variant", "message"), [
    ({"cooperative": True, "sudden_death_announced": True},
     "sudden_death_announced: the cooperative variant keeps no score, so there is no tie to "
     "break; choose one or the other"),
    ({"cooperative": "yes"}, 'cooperative: must be true or false; got "yes"'),
])
def test_a_new_party_refuses_a_variant_it_cannot_play(client: TestClient, variant: dict,
                                                      message: str) -> None:
    answer = client.post("/api/games", json={"game": "lowest-unique", "tables": TABLES,
                                             **variant})
    assert refusal(answer) == message


def page_text(html: str) -> str:
    body = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def test_the_pages_take_a_tiebreak_without_scripts(client: TestClient, console: Console) -> None:
    made = client.post("/console/new/lun", data={"tables": "Ann, Bob, Cy, Dee\nEve, Fay, Gus",
                                                 "rounds": "2", "variant": "sudden-death"},
                       follow_redirects=False)
    assert made.status_code == 303
    game, token = re.search(r"/console/([\w-]+)/gm/([\w-]+)", made.headers["location"]).groups()
    party = {"id": game, "gm_token": token}
    assert tomllib.loads(console.export_log(game))["sudden_death_announced"] is True
    client.get(made.headers["location"], follow_redirects=False)
    csrf = guard.csrf_token(game, party["gm_token"])
    play_rounds(client, party)
    page = client.get(f"/console/{game}/gm").text
    assert "<legend>Tie-break 1</legend>" in page
    labels = re.findall(r'<label for="t1-c\d">([^<]+)</label>', page)
    assert labels == ["Ann", "Cy"]  # the tied players alone
    assert "<legend>Tie-break" not in page.split('id="table-2"')[1]  # table 2 has no tie
    saved = client.post(f"/console/{game}/gm/tiebreak", data={
        "csrf": csrf, "table": "1", "round": "1", "c0": "3", "c1": "", "p1": "1"},
                        follow_redirects=False)
    assert saved.status_code == 303 and "tiebreak=1" in saved.headers["location"]
    back = page_text(client.get(saved.headers["location"]).text)
    assert "Tie-break round saved" in back and "Tie-break 1 tally: read it back" in back
    assert "Ann won the tie-break." in back and "Tie-break 2" not in back
    screen = page_text(client.get(f"/console/{game}/standings").text)
    assert "Tie-break 1 revealed" in screen and "Ann wins the tie-break." in screen
    assert "Sudden death: Ann won the tie-break." in screen


def test_the_start_form_refuses_a_variant_it_does_not_offer(client: TestClient) -> None:
    page = client.post("/console/new/lun", data={"names": "Ann\nBob\nCy", "variant": "both"})
    assert page.status_code == 422
    assert "Choose one of the variants offered." in page_text(page.text)


def test_the_cooperative_pages_show_the_table_score(client: TestClient, console: Console) -> None:
    made = client.post("/console/new/lun", data={"tables": "Ann, Bob, Cy, Dee\nEve, Fay, Gus",
                                                 "rounds": "2", "variant": "cooperative"},
                       follow_redirects=False)
    game, token = re.search(r"/console/([\w-]+)/gm/([\w-]+)", made.headers["location"]).groups()
    party = {"id": game, "gm_token": token}
    client.get(made.headers["location"], follow_redirects=False)
    play_rounds(client, party)
    host = page_text(client.get(f"/console/{game}/gm").text)
    assert "Table scores Table Rounds played Table score Table 1 2 1 Table 2 2 1" in host
    assert "Not exactly one single: the table does not score" in host
    assert "<legend>Tie-break" not in client.get(f"/console/{game}/gm").text
    screen = page_text(client.get(f"/console/{game}/standings").text)
    assert "Table score: 1 of 2 rounds left exactly one single" in screen
    assert "Not exactly one single: the table does not score this round." in screen
    assert "Points after each round" not in page_text(client.get(f"/console/{game}").text)


def test_a_tables_scorer_enters_its_tiebreak_and_the_host_can_undo_it(
        client: TestClient) -> None:
    party = new_party(client, sudden_death_announced=True)
    play_rounds(client, party)
    link = party["table_links"]["1"].removeprefix("http://testserver")
    page = client.get(link).text
    assert "<legend>Tie-break 1</legend>" in page
    assert re.findall(r'<label for="t1-c\d">([^<]+)</label>', page) == ["Ann", "Cy"]
    other = client.get(party["table_links"]["2"].removeprefix("http://testserver")).text
    assert "<legend>Tie-break" not in other and "All rounds played." in other
    saved = client.post(f"{link}/tiebreak", follow_redirects=False, data={
        "table": "1", "round": "1", "c0": "1", "c1": "2"})
    assert saved.status_code == 303
    back = page_text(client.get(saved.headers["location"]).text)
    assert "Tie-break 1 tally: read it back" in back and "Ann wins with 1" in back
    assert public(client, party)["tables"][0]["decider"] == "Ann"
    undone = client.post(f"/api/games/{party['id']}/undo", headers=bearer(party["gm_token"]))
    assert undone.status_code == 200, undone.text
    seen = public(client, party)["tables"][0]
    assert seen["tiebreaks"] == [] and seen["due"] == ["Ann", "Cy"] and seen["decider"] is None
