"""Lowest Unique Number's reveal on the public page and the big screen (SQLite and
PostgreSQL): each table's last round, its numbers grouped, cancelled groups struck through, the
scoring single with its player and "+1", passes as passes; and the podium once every table has
played every round. Everything is read back from the HTML and checked against the rules
engine (``rules.tally``)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402

from kit.games.lowest_unique.rules import tally  # noqa: E402

GROUP = re.compile(r'<li class="group (\w+)"(?: data-number="(\d+)")? data-count="(\d+)" '
                   r'data-state="(\w+)">(.*?)</li>', re.S)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def party(client: TestClient, tables: list[list[str]], rounds: int = 5,
          lang: str = "en") -> dict:
    made = client.post("/api/games", json={"game": "lowest-unique", "tables": tables,
                                           "rounds": rounds, "lang": lang})
    assert made.status_code == 201, made.text
    return made.json()


def enter(client: TestClient, game: dict, table: int, choices: dict) -> None:
    answer = client.post(f"/api/games/{game['id']}/tables/{table}/rounds",
                         json={"choices": choices}, headers=bearer(game["gm_token"]))
    assert answer.status_code == 201, answer.text


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def reveals(html: str) -> list[dict]:
    """Every reveal on a page: its round, groups (number, count, state, text) and result."""
    out = []
    for block in re.findall(r'<div class="reveal".*?</div>', html, re.S):
        groups = [{"number": int(n) if n else None, "count": int(c), "state": s,
                   "text": text(inner)} for _, n, c, s, inner in GROUP.findall(block)]
        result = re.search(r'<p class="reveal-result">(.*?)</p>', block, re.S)
        assert result is not None
        out.append({"round": int(re.search(r'data-round="(\d+)"', block)[1]),
                    "groups": groups, "result": text(result[1])})
    return out


def expected(choices: dict) -> dict:
    """The reveal the rules engine's tally of ``choices`` makes."""
    t = tally(choices)
    groups = [{"number": n, "count": t.choices.count(n),
               "state": "won" if n == t.winning_number else
               "cancelled" if n in t.cancelled else "single"} for n in sorted(set(t.choices))]
    return {"groups": groups, "winner": t.winner, "passes": t.passes,
            "singles": {n: next(p for p, c in choices.items() if c == n) for n in t.singles}}


def check(shown: dict, choices: dict) -> None:
    """One reveal read back against the engine: every group, the names of singles, the
    struck numbers of cancelled groups, the passes and the result line."""
    want = expected(choices)
    numbered = [g for g in shown["groups"] if g["state"] != "pass"]
    assert [{k: g[k] for k in ("number", "count", "state")} for g in numbered] == want["groups"]
    for g in numbered:
        if g["state"] == "cancelled":
            assert g["text"].startswith(" ".join([str(g["number"])] * g["count"]))
            assert f"cancelled ({g['count']} players)" in g["text"]
        else:
            assert g["text"].startswith(f"{g['number']} {want['singles'][g['number']]}")
            assert g["text"].endswith("+1") == (g["state"] == "won")
    passes = [g for g in shown["groups"] if g["state"] == "pass"]
    assert [g["count"] for g in passes] == ([want["passes"]] if want["passes"] else [])
    if want["winner"]:
        won = next(g["number"] for g in numbered if g["state"] == "won")
        assert shown["result"] == f"Lowest single: {won}. {want['winner']} +1"
    else:
        assert shown["result"] == "No single: no point this round."


RULES_ONE = {"Ann": 1, "Bob": 1, "Cy": 2, "Dee": 3, "Eve": 3, "Fay": 8}
RULES_TWO = {"Ann": 2, "Bob": 2, "Cy": 5, "Dee": 5, "Eve": 9, "Fay": 9}


@pytest.mark.parametrize("page", ["", "/standings"])
def test_the_rules_examples_are_revealed_as_the_rules_read_them(client: TestClient,
                                                               page: str) -> None:
    game = party(client, [list(RULES_ONE), ["Gus", "Hal", "Ida"]])
    enter(client, game, 1, RULES_ONE)
    enter(client, game, 2, {"Gus": 4, "Hal": "pass", "Ida": 4})
    html = client.get(f"/console/{game['id']}{page}").text
    one, two = reveals(html)
    check(one, RULES_ONE)
    assert [(g["number"], g["state"]) for g in one["groups"]] == [
        (1, "cancelled"), (2, "won"), (3, "cancelled"), (8, "single")]
    assert one["result"] == "Lowest single: 2. Cy +1"
    assert "<s class=\"n\">1 1</s>" in html and "<s class=\"n\">3 3</s>" in html
    check(two, {"Gus": 4, "Hal": "pass", "Ida": 4})
    assert two["groups"][-1]["text"] == "Pass: Hal"
    enter(client, game, 1, RULES_TWO)
    one = reveals(client.get(f"/console/{game['id']}{page}").text)[0]
    assert one["round"] == 2  # a table's reveal is its last round, until the next
    check(one, RULES_TWO)
    assert all(g["state"] == "cancelled" for g in one["groups"])
    assert one["result"] == "No single: no point this round."


NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lee"]


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(3, 12).flatmap(lambda n: st.lists(
    st.one_of(st.integers(1, 10), st.just("pass")), min_size=n, max_size=n)))
def test_random_rounds_are_revealed_as_the_engine_scores_them(client: TestClient,
                                                              picks: list) -> None:
    choices = dict(zip(NAMES, picks, strict=False))
    game = party(client, [list(choices)], rounds=1)
    enter(client, game, 1, choices)
    for page in ("", "/standings"):
        (shown,) = reveals(client.get(f"/console/{game['id']}{page}").text)
        check(shown, choices)


def test_no_reveal_before_a_tables_first_round(client: TestClient) -> None:
    game = party(client, [["Ann", "Bob", "Cy"], ["Dee", "Eve", "Fay"]])
    assert reveals(client.get(f"/console/{game['id']}/standings").text) == []
    enter(client, game, 2, {"Dee": 1, "Eve": 2, "Fay": 2})
    assert [r["round"] for r in reveals(client.get(f"/console/{game['id']}").text)] == [1]


def test_the_podium_comes_at_the_end_and_a_shared_first_place_stays_shared(
        client: TestClient) -> None:
    game = party(client, [["Ann", "Bob", "Cy"], ["Dee", "Eve", "Fay"]], rounds=2)
    enter(client, game, 1, {"Ann": 1, "Bob": 2, "Cy": 2})
    enter(client, game, 2, {"Dee": 1, "Eve": 1, "Fay": 3})
    enter(client, game, 1, {"Ann": 1, "Bob": 1, "Cy": 2})
    assert 'class="podium"' not in client.get(f"/console/{game['id']}/standings").text
    enter(client, game, 2, {"Dee": 3, "Eve": 1, "Fay": 3})
    for page in ("", "/standings"):
        html = client.get(f"/console/{game['id']}{page}").text
        podium = re.search(r'<section class="podium".*?</section>', html, re.S)
        assert podium is not None
        steps = re.findall(r'<li class="step step-(\d)" data-place="\d">(.*?)</li>',
                           podium[0], re.S)
        # Ann and Cy won table 1's rounds, Fay and Eve table 2's: four share first place,
        # and the next place, 5, is off the podium (the standings below show it)
        assert [(p, text(t).replace(" ,", ",")) for p, t in steps] == [
            ("1", "Place 1 Ann, Cy, Eve, Fay 1 point")]
        assert "The winners" in text(podium[0])


def test_the_reveal_speaks_the_page_language(
        client: TestClient) -> None:
    made = client.post("/api/games", json={"game": "lowest-unique", "range": "1-999",
                                           "tables": [["Ann", "Bob", "Cy", "Dee"]]})
    assert made.status_code == 201, made.text
    game = made.json()
    enter(client, game, 1, {"Ann": 150, "Bob": 150, "Cy": 999, "Dee": "pass"})
    html = client.get(f"/console/{game['id']}/standings?lang=fr").text
    (shown,) = reveals(html)
    assert [g["text"] for g in shown["groups"]] == [
        "150 150 annulé (2 joueurs)", "999 Cy +1", "Passe : Dee"]
    assert shown["result"] == "Plus petit nombre unique : 999. Cy +1"
    assert shown["round"] == 1 and "Manche 1 dévoilée" in html
