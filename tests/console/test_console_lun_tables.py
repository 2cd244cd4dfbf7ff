"""Lowest Unique Number's tables in the console (SQLite and PostgreSQL): a table's earlier round
corrected on its own (the API and the host's page), its tally shown back, the standings counted
again and every other round untouched; a round's form shows its own problems and the engine's
at once."""

from __future__ import annotations

import json
import re
import tomllib
from html import unescape

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402

from kit.console.pages import auth as guard  # noqa: E402
from kit.console.service import Console  # noqa: E402

TABLES = [["Ann", "Bob", "Cy", "Dee"], ["Eve", "Fay", "Gus", "Hal"], ["Jo", "Kim", "Lee"]]
ROUNDS = [  # (table, choices): table 2's round 2 was mistyped (Gus wrote 3, not 2)
    (1, {"Ann": 3, "Bob": 1, "Cy": 1, "Dee": "pass"}),
    (2, {"Eve": 1, "Fay": 1, "Gus": 4, "Hal": 5}),
    (2, {"Eve": 3, "Fay": 4, "Gus": 2, "Hal": 2}),
    (3, {"Jo": 1, "Kim": 2, "Lee": 2}),
    (3, {"Jo": 5, "Kim": 5, "Lee": 6}),
]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def party(client: TestClient) -> dict:
    made = client.post("/api/games", json={"game": "lowest-unique", "tables": TABLES,
                                           "rounds": 4})
    assert made.status_code == 201, made.text
    party = made.json()
    for table, choices in ROUNDS:
        answer = client.post(f"/api/games/{party['id']}/tables/{table}/rounds",
                             json={"choices": choices}, headers=bearer(party["gm_token"]))
        assert answer.status_code == 201, answer.text
    return party


def rounds_of(client: TestClient, party: dict) -> list[dict]:
    text = client.get(f"/api/games/{party['id']}/log.toml",
                      headers=bearer(party["gm_token"])).text
    return tomllib.loads(text)["round"]


def points(client: TestClient, party: dict) -> dict[str, int]:
    public = client.get(f"/api/games/{party['id']}/public.json").json()
    return {s["player"]: s["points"] for s in public["standings"]}


def test_a_tables_earlier_round_is_corrected_on_its_own(client: TestClient, party: dict) -> None:
    before_rounds, before_points = rounds_of(client, party), points(client, party)
    assert before_points["Gus"] == 1 and before_points["Eve"] == 1  # Gus's 4, then Eve's 3
    url = f"/api/games/{party['id']}/tables/2/rounds/2/amend"
    fixed = {"Eve": 3, "Fay": 4, "Gus": 3, "Hal": 2}  # the 3s cancel: Hal's 2 wins, not Eve
    answer = client.post(url, json={"choices": fixed}, headers=bearer(party["gm_token"]))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["table"], body["round"]) == (2, 2)
    assert body["tally"]["tally"] == {"choices": [2, 3, 3, 4], "passes": 0, "cancelled": [3],
                                      "singles": [2, 4], "winning_number": 2, "winner": "Hal"}
    assert body["was"]["winner"] == "Eve"
    assert body["changes"] == [{"player": "Gus", "was": 2, "now": 3}]
    after = rounds_of(client, party)
    assert [r for r in after if (r["table"], r["round"]) != (2, 2)] == \
        [r for r in before_rounds if (r["table"], r["round"]) != (2, 2)]  # the rest untouched
    assert next(r for r in after if (r["table"], r["round"]) == (2, 2))["choices"] == fixed
    now = points(client, party)
    assert now == {**before_points, "Eve": 0, "Hal": 1}
    assert {s["player"]: s["points"] for s in body["standings"]} == now
    state = client.get(f"/api/games/{party['id']}/state.json",
                       headers=bearer(party["gm_token"])).json()
    assert state["entries"][-1]["text"] == "table 2, round 2: choices corrected"
    assert client.post(f"/api/games/{party['id']}/tables/2/rounds",  # round 3 comes next
                       json={"choices": {"Eve": 1, "Fay": 2, "Gus": 3, "Hal": 4}},
                       headers=bearer(party["gm_token"])).json()["round"] == 3


def test_a_correction_is_refused_with_every_problem_and_nothing_changes(
        client: TestClient, party: dict) -> None:
    gm = bearer(party["gm_token"])
    before = rounds_of(client, party)
    base = f"/api/games/{party['id']}/tables"
    cases = [
        (f"{base}/1/rounds/2/amend", {"Ann": 1, "Bob": 2, "Cy": 3, "Dee": 4}, 422,
         ["round: table 1 has no round 2 to correct; its rounds entered are 1 to 1"]),
        (f"{base}/9/rounds/1/amend", {}, 422, ["table: no table 9; tables are 1 to 3"]),
        (f"{base}/2/rounds/1/amend", {"Eve": 1, "Fay": 1, "Gus": 4, "Hal": 5}, 422,
         ["choices: these are the choices already entered for table 2, round 1; nothing to "
          "correct"]),
        (f"{base}/3/rounds/1/amend", {"Jo": 11, "Kim": "x", "Lee": 2}, 422,
         ["table 3, round 1: 'Jo' wrote '11'; give a whole number from 1 to 10, or \"pass\"",
          "table 3, round 1: 'Kim' wrote 'x'; give a whole number from 1 to 10, or \"pass\""]),
    ]
    for url, choices, status, errors in cases:
        answer = client.post(url, json={"choices": choices}, headers=gm)
        assert answer.status_code == status, (url, answer.text)
        assert [e["text"] for e in answer.json()["errors"]] == errors
    assert client.post(f"{base}/2/rounds/1/amend", json={"choices": {"Eve": 2}}
                       ).status_code == 401
    assert client.post(f"{base}/2/rounds/1/amend", json={"choices": {"Eve": 2}},
                       headers=bearer("x" * 43)).status_code == 403
    assert rounds_of(client, party) == before


def test_a_round_given_as_text_is_refused_naming_the_field(client: TestClient,
                                                          party: dict) -> None:
    url = f"/api/games/{party['id']}/tables/1/rounds"
    gm = bearer(party["gm_token"])
    for given in ("2", 2.0, True):
        answer = client.post(url, json={"choices": {"Ann": 1, "Bob": 2, "Cy": 3, "Dee": 4},
                                        "round": given}, headers=gm)
        assert answer.status_code == 422, answer.text
        [error] = answer.json()["errors"]
        assert error["field"] == "round"
        assert error["message"] == ("must be a whole number, the round you mean (the next one "
                                    f"of table 1 is 2); got {json.dumps(given)}")
    assert len([r for r in rounds_of(client, party) if r["table"] == 1]) == 1  # none entered


def test_undo_takes_back_a_correction_first(client: TestClient, party: dict) -> None:
    gm = bearer(party["gm_token"])
    before = rounds_of(client, party)
    client.post(f"/api/games/{party['id']}/tables/1/rounds/1/amend",
                json={"choices": {"Ann": 3, "Bob": 2, "Cy": 1, "Dee": "pass"}}, headers=gm)
    assert rounds_of(client, party) != before
    assert client.post(f"/api/games/{party['id']}/undo", headers=gm).status_code == 200
    assert rounds_of(client, party) == before


# --- the host's pages ---------------------------------------------------------------------------

def host(client: TestClient, console: Console, party: dict) -> str:
    """Log the client in with the host link; the CSRF token of its forms."""
    client.get(f"/console/{party['id']}/gm/{party['gm_token']}", follow_redirects=False)
    return guard.csrf_token(party["id"], party["gm_token"])


def summary(html: str, table: int) -> list[str]:
    found = re.search(rf'id="table-{table}-problems".*?</ul>', html, re.S)
    return [unescape(re.sub(r"<[^>]+>", "", item)) for item in
            re.findall(r"<li>(.*?)</li>", found[0], re.S)] if found else []


def test_the_correction_page_shows_the_round_and_saves_it(client: TestClient, console: Console,
                                                          party: dict) -> None:
    csrf = host(client, console, party)
    gm_page = client.get(f"/console/{party['id']}/gm").text
    assert re.search(r'<a href="/console/[^"]+/gm\?amend=2-2"[^>]*>2</a>', gm_page)
    page = client.get(f"/console/{party['id']}/gm?amend=2-2").text
    assert "<h1>Correct table 2, round 2</h1>" in page
    values = dict(re.findall(r'name="(c\d)" value="([^"]*)"', page))
    assert values == {"c0": "3", "c1": "4", "c2": "2", "c3": "2"}  # as entered
    assert "<dd>2, 2, 3, 4</dd>" in page and "<strong>Eve wins with 3</strong>" in page
    version = console.state(party["id"]).version
    saved = client.post(f"/console/{party['id']}/gm/amend", follow_redirects=False, data={
        "csrf": csrf, "version": str(version), "table": "2", "round": "2",
        "c0": "3", "c1": "4", "c2": "3", "c3": "2"})
    assert saved.status_code == 303, saved.text
    assert saved.headers["location"].endswith("?amended=2-2#table-2")
    back = client.get(saved.headers["location"]).text
    assert "Table 2, round 2 corrected: the standings are counted again." in back
    card = re.search(r'id="table-2".*?</section>', back, re.S)[0]
    assert "Round 2 corrected: read its tally back" in card
    assert "Hal wins with 2" in unescape(card)
    assert next(r for r in tomllib.loads(console.export_log(party["id"]))["round"]
                if (r["table"], r["round"]) == (2, 2))["choices"]["Gus"] == 3
    assert "Undo the correction of table 2, round 2" in back
    same = client.post(f"/console/{party['id']}/gm/amend", follow_redirects=False, data={
        "csrf": csrf, "version": str(version + 1), "table": "2", "round": "2",
        "c0": "3", "c1": "4", "c2": "3", "c3": "2"})
    assert same.status_code == 303 and "same=1" in same.headers["location"]


def test_a_correction_form_shows_its_own_and_the_engines_problems_at_once(
        client: TestClient, console: Console, party: dict) -> None:
    csrf = host(client, console, party)
    version = console.state(party["id"]).version
    posted = client.post(f"/console/{party['id']}/gm/amend", data={
        "csrf": csrf, "version": str(version), "table": "3", "round": "1",
        "c0": "5O", "c1": "11", "p2": "1", "c2": "4"})
    assert posted.status_code == 422
    assert summary(posted.text, 3) == [  # by row: the form's and the engine's
        "Jo: 5O is not a whole number.",
        "'Kim' wrote '11'; give a whole number from 1 to 10, or \"pass\"",
        "Lee: a number and a pass; keep one."]
    assert "<h1>Correct table 3, round 1</h1>" in posted.text  # still the correction page
    assert console.state(party["id"]).version == version  # nothing recorded


def test_a_round_form_shows_its_own_and_the_engines_problems_at_once(
        client: TestClient, console: Console, party: dict) -> None:
    csrf = host(client, console, party)
    version = console.state(party["id"]).version
    posted = client.post(f"/console/{party['id']}/gm/round", data={
        "csrf": csrf, "version": str(version), "table": "1",
        "c0": "x", "c1": "11", "c2": "", "c3": "0"})
    assert posted.status_code == 422
    assert summary(posted.text, 1) == [  # by row: the form's and the engine's
        "Ann: x is not a whole number.",
        "'Bob' wrote '11'; give a whole number from 1 to 10, or \"pass\"",
        "Cy: no number; type it, or tick Pass.",
        "'Dee' wrote '0'; give a whole number from 1 to 10, or \"pass\""]
    links = re.findall(r'<li><a href="#(t1-c\d)">', posted.text)
    assert sorted(links) == ["t1-c0", "t1-c1", "t1-c2", "t1-c3"]  # each beside its box
    assert console.state(party["id"]).version == version


# --- each table's scorer's link -----------------------------------------------------------------

def test_each_table_gets_a_random_token_and_a_link_only_its_hash_stored(
        client: TestClient, console: Console, party: dict) -> None:
    import base64
    import hashlib

    import sqlalchemy as sa

    tokens, links = party["table_tokens"], party["table_links"]
    assert list(tokens) == ["1", "2", "3"] and list(links) == ["1", "2", "3"]
    for table, token in tokens.items():
        assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8 >= 128
        assert links[table] == f"http://testserver/console/{party['id']}/t/{token}"
        assert console.seat_of(party["id"], token) == ("table", table)
        assert not console.authorize(party["id"], token)
    assert len({*tokens.values(), party["gm_token"]}) == 4
    with console.store.engine.connect() as conn:
        stored = dict(conn.execute(sa.text(
            "SELECT seat, token_hash FROM seat_tokens WHERE game_id = :id AND kind = 'table'"),
            {"id": party["id"]}).all())
    assert stored == {t: hashlib.sha256(token.encode()).hexdigest()
                      for t, token in tokens.items()}
    log = client.get(f"/api/games/{party['id']}/log.toml",
                     headers=bearer(party["gm_token"])).text
    again = client.post("/api/games/import", content=log,
                        headers={"content-type": "application/toml"}).json()
    assert list(again["table_tokens"]) == ["1", "2", "3"]  # an imported party gets links too
    assert not set(again["table_tokens"].values()) & set(tokens.values())


def test_a_tables_token_reaches_its_own_tables_rounds_and_nothing_else(
        client: TestClient, console: Console, party: dict) -> None:
    game = party["id"]
    players = dict(enumerate(TABLES, start=1))
    for table, token in party["table_tokens"].items():
        mine = int(table)
        me = bearer(token)
        before = console.export_log(game)
        for other in (1, 2, 3):
            choices = {name: k + 1 for k, name in enumerate(players[other])}
            urls = [f"/api/games/{game}/tables/{other}/rounds",
                    f"/api/games/{game}/tables/{other}/rounds/1/amend"]
            for url in urls:
                if other == mine:
                    continue
                answer = client.post(url, json={"choices": choices}, headers=me)
                assert answer.status_code == 403, (table, url, answer.text)
                assert answer.json()["errors"][0]["field"] == "authorization"
        refused = [
            client.post(f"/api/games/{game}/undo", headers=me),
            client.get(f"/api/games/{game}/log.toml", headers=me),
            client.get(f"/api/games/{game}/state.json", headers=me),
            client.post(f"/api/games/{game}/rotate", headers=me),
            client.post(f"/api/games/{game}/players/Ann/rotate", headers=me),
            client.get(f"/api/games/{game}/me.json", headers=me),
            client.post(f"/api/games/{game}/orders", json={"guesses": [1]}, headers=me),
        ]
        assert [r.status_code for r in refused] == [403] * len(refused), \
            [(r.url, r.status_code) for r in refused]
        assert console.export_log(game) == before  # nothing changed
        # its own table: the next round, then a correction of that (last) round
        choices = {name: k + 1 for k, name in enumerate(players[mine])}
        entered = client.post(f"/api/games/{game}/tables/{mine}/rounds",
                              json={"choices": choices}, headers=me)
        assert entered.status_code == 201, entered.text
        last = entered.json()["round"]
        fixed = {**choices, players[mine][0]: "pass"}
        amended = client.post(f"/api/games/{game}/tables/{mine}/rounds/{last}/amend",
                              json={"choices": fixed}, headers=me)
        assert amended.status_code == 200, amended.text
        earlier = client.post(f"/api/games/{game}/tables/{mine}/rounds/1/amend",
                              json={"choices": choices}, headers=me)
        assert earlier.status_code == 422  # a scorer corrects the table's last round only
        assert "ask the host" in earlier.json()["errors"][0]["message"]
    assert client.post(f"/api/games/{game}/tables/1/rounds/1/amend",  # the host may
                       json={"choices": {"Ann": 1, "Bob": 2, "Cy": 3, "Dee": 4}},
                       headers=bearer(party["gm_token"])).status_code == 200


def test_a_round_entered_meanwhile_is_refused_not_entered_twice(client: TestClient,
                                                                party: dict) -> None:
    table_1 = bearer(party["table_tokens"]["1"])
    url = f"/api/games/{party['id']}/tables/1/rounds"
    choices = {"Ann": 1, "Bob": 2, "Cy": 2, "Dee": 3}
    first = client.post(url, json={"choices": choices, "round": 2}, headers=table_1)
    assert first.status_code == 201 and first.json()["round"] == 2
    again = client.post(url, json={"choices": choices, "round": 2},
                        headers=bearer(party["gm_token"]))
    assert again.status_code == 409
    assert again.json()["errors"][0]["message"] == (
        "round 2 of table 1 was entered meanwhile (from another page or device); the table's "
        "next round is round 3")
    assert len([r for r in rounds_of(client, party) if r["table"] == 1]) == 2


def test_the_scorers_page_shows_its_own_table_and_posts_for_it_alone(
        client: TestClient, console: Console, party: dict) -> None:
    link = party["table_links"]["2"].removeprefix("http://testserver")
    page = client.get(link)
    assert page.status_code == 200
    labels = re.findall(r'<label for="t\d-c\d">([^<]+)</label>', page.text)
    assert labels == TABLES[1]  # table 2's players, no one else's
    # a name as a word of the page, not letters inside a random token or nonce ("Cy", "Jo")
    assert not any(re.search(rf"(?<![\w-]){name}(?![\w-])", page.text)
                   for name in TABLES[0] + TABLES[2])
    assert "Round 2 tally: read it back" in page.text and "<legend>Round 3</legend>" in page.text
    assert party["gm_token"] not in page.text
    before = console.export_log(party["id"])
    other = client.post(f"{link}/round", follow_redirects=False, data={
        "table": "1", "round": "2", "c0": "1", "c1": "2", "c2": "3", "c3": "4"})
    assert other.status_code == 403 and console.export_log(party["id"]) == before
    saved = client.post(f"{link}/round", follow_redirects=False, data={
        "table": "2", "round": "3", "c0": "1", "c1": "2", "c2": "3", "c3": "4"})
    assert saved.status_code == 303 and saved.headers["location"].startswith(link + "?round=")
    back = client.get(saved.headers["location"]).text
    assert "Round 3 tally: read it back" in back and "Eve wins with 1" in back
    wrong = client.get(link[:-4] + "abcd")
    assert wrong.status_code == 404 and "This link does not work" in wrong.text
    assert client.get(f"/console/{party['id']}/gm", headers={
        "cookie": f"kit_gm={party['table_tokens']['2']}"}).status_code == 403


def test_scorer_links_are_redacted_in_the_logs(party: dict) -> None:
    from kit.console.tokens import redact
    from kit.server.guard import redact_path

    token = party["table_tokens"]["3"]
    path = f"/console/{party['id']}/t/{token}"
    assert redact_path(path + "/round") == f"/console/{party['id']}/t/[redacted]/round"
    assert token not in redact(f'"POST {path}/round HTTP/1.1" 303')


def test_the_host_makes_new_links_for_every_table_and_the_old_ones_stop(
        client: TestClient, console: Console, party: dict) -> None:
    csrf = host(client, console, party)
    assert "Make a link for each table" in client.get(f"/console/{party['id']}/gm").text
    made = client.post(f"/console/{party['id']}/gm/links", data={"csrf": csrf, "seat": "tables"})
    assert made.status_code == 200
    links = re.findall(r'class="link-text"><a href="([^"]+)"', made.text)
    assert len(links) == 3 and made.text.count('<svg viewBox="0 0') == 3
    for table, (old, new) in enumerate(zip(party["table_links"].values(), links, strict=True),
                                       start=1):
        assert old != new
        assert client.get(old.removeprefix("http://testserver")).status_code == 404
        assert console.seat_of(party["id"], new.rsplit("/", 1)[1]) == ("table", str(table))
    assert client.post(f"/console/{party['id']}/gm/links",  # without the signed form token
                       data={"seat": "tables"}).status_code == 403
    assert client.post(f"/console/{party['id']}/gm/links",
                       data={"csrf": csrf, "seat": "table:9"}).status_code == 404
