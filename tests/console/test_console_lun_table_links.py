"""A Lowest Unique Number party's tables' links kept for the host: sealed when made (and again
when made anew, or when the host's own link changes), so the host reopens the tables' cards
behind the host cookie without making new links, and prints each table's tally sheet with
its scorer's link (QR code and address) in ``tally-sheets.pdf``."""

from __future__ import annotations

import io
import re

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.testclient import TestClient  # noqa: E402

from kit.console.pages import auth as guard  # noqa: E402
from kit.console.service import Console  # noqa: E402

TABLES = [["Ann", "Bob", "Cy", "Dee"], ["Eve", "Fay", "Gus", "Hal"], ["Jo", "Kim", "Lee"]]
SHEETS = "gm/sheets/tally-sheets.pdf"


@pytest.fixture
def party(client: TestClient) -> dict:
    made = client.post("/api/games", json={"game": "lowest-unique", "tables": TABLES,
                                           "rounds": 4})
    assert made.status_code == 201, made.text
    party = made.json()
    client.get(f"/console/{party['id']}/gm/{party['gm_token']}")  # the host's cookie
    return party


def card_links(client: TestClient, party: dict) -> list[str]:
    cards = client.get(f"/console/{party['id']}/gm/links/tables")
    assert cards.status_code == 200 and cards.headers["cache-control"] == "no-store"
    assert cards.text.count('<svg viewBox="0 0') == len(TABLES)
    return re.findall(r'class="link-text"><a href="([^"]+)"', cards.text)


def make_links(client: TestClient, party: dict, seat: str) -> str:
    made = client.post(f"/console/{party['id']}/gm/links", data={
        "csrf": guard.csrf_token(party["id"], party["gm_token"]), "seat": seat})
    assert made.status_code == 200
    return made.text


def test_the_host_reopens_the_tables_cards_with_the_same_working_links(
        client: TestClient, console: Console, party: dict) -> None:
    page = client.get(f"/console/{party['id']}/gm").text
    assert f'href="/console/{party["id"]}/gm/links/tables"' in page
    assert f'href="/console/{party["id"]}/{SHEETS}"' in page
    links = list(party["table_links"].values())
    assert card_links(client, party) == links  # the links made with the party, in order
    assert card_links(client, party) == links  # again: nothing was made anew
    for table, link in enumerate(links, start=1):
        assert console.seat_of(party["id"], link.rsplit("/", 1)[1]) == ("table", str(table))
        scorer = client.get(link.removeprefix("http://testserver"))
        assert scorer.status_code == 200 and f"Table {table}" in scorer.text


def test_links_made_anew_are_the_ones_the_cards_give_even_under_a_new_host_link(
        client: TestClient, party: dict) -> None:
    shown = make_links(client, party, "tables")
    new = re.findall(r'class="link-text"><a href="([^"]+)"', shown)
    assert len(new) == len(TABLES) and not set(new) & set(party["table_links"].values())
    assert card_links(client, party) == new
    make_links(client, party, "gm")  # the host's new link: the cookie is the new token
    assert card_links(client, party) == new
    for link in party["table_links"].values():  # the old ones stopped
        assert client.get(link.removeprefix("http://testserver")).status_code == 404


def test_without_the_host_cookie_the_cards_and_sheets_are_refused(client: TestClient,
                                                                  party: dict) -> None:
    client.cookies.clear()
    for path in ("gm/links/tables", SHEETS):
        refused = client.get(f"/console/{party['id']}/{path}")
        assert refused.status_code == 403 and "/t/" not in refused.text
    token = party["table_tokens"]["1"]  # a table's own token opens neither
    client.get(f"/console/{party['id']}/gm/{token}")
    for path in ("gm/links/tables", SHEETS):
        assert client.get(f"/console/{party['id']}/{path}").status_code == 403


def sheet_texts(client: TestClient, party: dict) -> list[str]:
    from pypdf import PdfReader

    pdf = client.get(f"/console/{party['id']}/{SHEETS}")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.headers["cache-control"] == "no-store"
    return ["".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(
        pdf.content)).pages]


def test_each_tally_sheet_carries_its_own_tables_link_and_no_other(client: TestClient,
                                                                 party: dict) -> None:
    pages = sheet_texts(client, party)
    assert len(pages) == len(TABLES)
    tokens = party["table_tokens"]
    for table, text in enumerate(pages, start=1):
        assert text.startswith(f"Table{table}") and "Roundtally" in text
        assert "".join(TABLES[table - 1][:2]) in text.replace(",", "")  # its players
        assert party["table_links"][str(table)] in text  # the address, its lines joined
        assert [t for t in tokens.values() if t in text] == [tokens[str(table)]]
    new = re.findall(r'class="link-text"><a href="([^"]+)"', make_links(client, party,
                                                                          "tables"))
    again = sheet_texts(client, party)
    assert all(link in text for link, text in zip(new, again, strict=True))
    assert not any(t in text for t in tokens.values() for text in again)


def test_the_tally_sheets_pass_the_print_lint_and_their_codes_read_back(
        client: TestClient, party: dict) -> None:
    from support.helpers import decoded
    from support.print_lint import lint_pdf

    pdf = client.get(f"/console/{party['id']}/{SHEETS}").content
    assert lint_pdf(pdf, "tally sheets") == []
    assert decoded(pdf) == [party["table_links"]["1"]]  # the first page's code


def test_a_tables_token_still_reaches_only_its_table(client: TestClient, console: Console,
                                                    party: dict) -> None:
    card_links(client, party)  # the cards opened: the tokens are as they were
    token = {"Authorization": f"Bearer {party['table_tokens']['2']}"}
    own = client.post(f"/api/games/{party['id']}/tables/2/rounds", headers=token,
                      json={"choices": {"Eve": 1, "Fay": 2, "Gus": 2, "Hal": 3}})
    assert own.status_code == 201, own.text
    before = console.load(party["id"])
    other = client.post(f"/api/games/{party['id']}/tables/1/rounds", headers=token,
                        json={"choices": {"Ann": 1, "Bob": 2, "Cy": 2, "Dee": 3}})
    assert other.status_code == 403
    after = console.load(party["id"])  # the refused entry left the journal as it was
    assert after.row.version == before.row.version and list(after.rows) == list(before.rows)
    assert after.played.state == before.played.state


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "fr", "de", "es", "ru"])
def test_the_longest_tally_sheets_pass_the_print_lint(lang: str, paper_name: str) -> None:
    from support.print_lint import lint_pdf

    from kit.games.lowest_unique.console.state import Party
    from kit.games.lowest_unique.console.tally_sheets import tally_sheets
    from kit.games.lowest_unique.options import MAX_ROUNDS

    tables = [[f"Player {t}-{n}" for n in range(1, 13)] for t in (1, 2)]  # 12 a table
    state = Party({"game": "lowest-unique", "rounds": MAX_ROUNDS, "range": "1-100",
                   "table": [{"players": t} for t in tables]})
    facts = {"lang": lang, "paper": paper_name, "rounds": MAX_ROUNDS, "tables": tables}
    link = "http://192.168.100.200:8000/console/AbCdEfGhIjKl/t/" + "x" * 43
    pdf = tally_sheets(state, facts, {"1": link})  # table 2 without a link
    assert lint_pdf(pdf, f"tally sheets {lang} {paper_name}") == []
    assert tally_sheets(state, facts, {"1": link}) == pdf  # the same bytes every time
