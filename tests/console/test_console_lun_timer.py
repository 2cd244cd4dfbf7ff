"""A Lowest Unique Number table's round timer: started by the host or by the table's scorer
(the API, the scorer's page), shown on the standings page with its start and length (the
page's script counts down to "Locked"), gone once the round is entered; it changes no score,
and a wrong token starts nothing."""

from __future__ import annotations

import datetime
import html
import re

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402

TABLES = [["Ann", "Bob", "Cy"], ["Dee", "Eve", "Fay"]]
SHOWN = re.compile(r'data-timer-end="([^"]+)" data-locked="Locked"><time datetime="([^"]+)">'
                   r"Timer started at (\d\d:\d\d:\d\d) UTC: (\d+) s</time>")


@pytest.fixture
def party(client: TestClient) -> dict:
    made = client.post("/api/games", json={"game": "lowest-unique", "tables": TABLES,
                                           "rounds": 2})
    assert made.status_code == 201, made.text
    return made.json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def shown(client: TestClient, party: dict) -> list[tuple[str, str, str, str]]:
    return SHOWN.findall(html.unescape(client.get(f"/console/{party['id']}/standings").text))


def test_the_host_starts_a_timer_the_standings_show_and_the_round_ends(
        client: TestClient, party: dict) -> None:
    before = client.get(f"/api/games/{party['id']}/public.json").json()
    assert shown(client, party) == []
    started = client.post(f"/api/games/{party['id']}/tables/1/timer", json={"seconds": 30},
                          headers=bearer(party["gm_token"]))
    assert started.status_code == 201, started.text
    answer = started.json()
    assert answer["table"] == 1 and answer["round"] == 1 and answer["seconds"] == 30
    at = datetime.datetime.fromisoformat(answer["started"])
    assert at.tzinfo is not None and at.utcoffset() == datetime.timedelta(0)
    end = (at + datetime.timedelta(seconds=30)).isoformat()
    assert shown(client, party) == [(end, answer["started"], at.strftime("%H:%M:%S"), "30")]
    page = client.get(f"/console/{party['id']}/standings")
    assert '<noscript><meta http-equiv="refresh"' in page.text
    assert "script-src" in page.headers["content-security-policy"]
    after = client.get(f"/api/games/{party['id']}/public.json").json()
    assert after["standings"] == before["standings"]  # nothing entered, no score changed
    assert after["rounds_entered"] == before["rounds_entered"] == {"1": 0, "2": 0}
    # the next one takes the host's length
    again = client.post(f"/api/games/{party['id']}/tables/2/timer", json={},
                        headers=bearer(party["gm_token"]))
    assert again.status_code == 201 and again.json()["seconds"] == 30
    entered = client.post(f"/api/games/{party['id']}/tables/1/rounds",
                          json={"choices": {"Ann": 1, "Bob": 2, "Cy": 2}},
                          headers=bearer(party["gm_token"]))
    assert entered.status_code == 201, entered.text
    assert [s[3] for s in shown(client, party)] == ["30"]  # table 1's round is in: table 2's


def test_the_first_timer_lasts_twenty_seconds_and_a_bad_length_is_named(
        client: TestClient, party: dict) -> None:
    bad = client.post(f"/api/games/{party['id']}/tables/1/timer", json={"seconds": "long"},
                      headers=bearer(party["gm_token"]))
    assert bad.status_code == 422 and "seconds" in bad.text
    started = client.post(f"/api/games/{party['id']}/tables/1/timer", json={},
                          headers=bearer(party["gm_token"]))
    assert started.status_code == 201 and started.json()["seconds"] == 20


def test_the_hosts_page_starts_a_tables_timer(client: TestClient, party: dict) -> None:
    client.get(f"/console/{party['id']}/gm/{party['gm_token']}")  # the host's cookie
    page = client.get(f"/console/{party['id']}/gm")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf is not None and page.text.count("Start the round timer") == len(TABLES)
    posted = client.post(f"/console/{party['id']}/gm/timer",
                         data={"csrf": csrf[1], "table": "2"}, follow_redirects=False)
    assert posted.status_code == 303, posted.text
    assert 'data-timer-end="' in client.get(posted.headers["location"]).text
    assert [s[3] for s in shown(client, party)] == ["20"]


def test_a_tables_scorer_starts_their_tables_timer_and_no_other(
        client: TestClient, party: dict) -> None:
    tokens = party["table_tokens"]
    mine = client.post(f"/api/games/{party['id']}/tables/2/timer", json={},
                       headers=bearer(tokens["2"]))
    assert mine.status_code == 201, mine.text
    other = client.post(f"/api/games/{party['id']}/tables/1/timer", json={},
                        headers=bearer(tokens["2"]))
    assert other.status_code == 403
    wrong = client.post(f"/api/games/{party['id']}/tables/1/timer", json={},
                        headers=bearer("x" * 43))
    assert wrong.status_code in (401, 403)
    assert [s[3] for s in shown(client, party)] == ["20"]  # table 2's only


def test_the_scorers_page_starts_the_timer_and_shows_it(client: TestClient,
                                                         party: dict) -> None:
    address = f"/console/{party['id']}/t/{party['table_tokens']['1']}"
    page = client.get(address)
    assert 'action="' + address + '/timer"' in page.text and 'data-timer-end="' not in page.text
    posted = client.post(address + "/timer", data={"table": "1"}, follow_redirects=False)
    assert posted.status_code == 303, posted.text
    page = client.get(posted.headers["location"])
    assert 'data-locked="Locked"' in page.text and "Timer started at" in page.text
    assert [s[3] for s in shown(client, party)] == ["20"]
    # another table's number in the form: this link starts its own table's timer only
    refused = client.post(address + "/timer", data={"table": "2"}, follow_redirects=False)
    assert refused.status_code == 403
    wrong = client.post(f"/console/{party['id']}/t/{'x' * 43}/timer", data={"table": "1"},
                        follow_redirects=False)
    assert wrong.status_code == 404
    assert len(shown(client, party)) == 1
