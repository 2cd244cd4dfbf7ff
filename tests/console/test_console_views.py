"""The three views of a game (game master, public, one player), tested as an attacker would: a
What's My Number? game with a published turn holding a void guess, an ignored guess and a
partial list, an amendment of it, and an open turn, seen through every channel each viewer
has (page, JSON, text, PDF, HTML, e-mail; a player's own page, me.json and report.txt by their
link). What a viewer may not see is looked for in each."""

from __future__ import annotations

import io
import re
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from pypdf import PdfReader  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from support.console_db import console_app  # noqa: E402
from support.helpers import writes_number  # noqa: E402

from kit.console.service import Console, open_console  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
SECRETS = {"Ann": 401, "Bob": 413, "Cy": 427, "Dee": 439, "Eve": 452}
TURN_1 = {"Ann": [101, 102],
          "Bob": [211, 212, 213],  # allowed 2: the third is ignored
          "Cy": [221, 777],  # 777 is outside 1-500: void
          "Dee": {"list": {"Ann": 341, "Bob": 342}},  # leaves out Cy and Eve: partial
          "Eve": [251, 252]}
AMENDED = {"Eve": [253, 254]}
OPEN = {"Ann": [161, 162], "Bob": {"list": {"Ann": 371, "Cy": 373, "Dee": 375, "Eve": 379}}}
GUESSED = {"Ann": {101, 102}, "Bob": {211, 212, 213}, "Cy": {221, 777}, "Dee": {341, 342},
           "Eve": {251, 252, 253, 254}}
UNPUBLISHED = {161, 162, 371, 373, 375, 379}


def has(number: int, text: str) -> bool:
    """Whether ``number`` is written in ``text`` (not as part of a longer number or an id)."""
    return writes_number(number, text)


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(
        path.read_bytes())).pages)


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory):
    """The game, its console and a client: (console, client, game id, GM token)."""
    folder = tmp_path_factory.mktemp("views")
    console = open_console(str(folder / "console.sqlite3"), folder / "files")
    app = console_app()
    app.state.console = console
    made = console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                "secrets": SECRETS, "range": "1-500", "title": "Views"})
    enter = console.enter
    enter(made.id, "orders", {"orders": TURN_1})
    enter(made.id, "publish", {}, {"turn": 1})
    enter(made.id, "amend", {"orders": AMENDED, "confirm": True}, {"turn": 1})
    enter(made.id, "orders", {"orders": OPEN})
    with TestClient(app) as client:
        client.seats = made.seat_tokens  # type: ignore[attr-defined]  # the players' links
        yield console, client, made.id, made.gm_token
    console.close()


def gm_channels(console: Console, client: TestClient, game: str, token: str) -> dict[str, str]:
    """Everything the game master reads, asked for first (a view cached without its viewer
    would then be served to the others)."""
    client.get(f"/console/{game}/gm/{token}")
    texts = {"page": client.get(f"/console/{game}/gm").text,
             "json": client.get(f"/api/games/{game}/state.json",
                                headers={"Authorization": f"Bearer {token}"}).text,
             "log": client.get(f"/api/games/{game}/log.toml",
                               headers={"Authorization": f"Bearer {token}"}).text,
             "pdf": pdf_text(console.report_file(game, "gm-register.pdf", "gm")),
             "slips": pdf_text(console.report_file(game, "private-slips.pdf", "gm")),
             "html": client.get(f"/console/{game}/files/gm-register.html").text}
    client.cookies.clear()
    return texts


def public_channels(client: TestClient, game: str) -> dict[str, str]:
    texts = {"page": client.get(f"/console/{game}").text,
             "standings": client.get(f"/console/{game}/standings").text,
             "json": client.get(f"/api/games/{game}/public.json").text,
             "text": client.get(f"/console/{game}/files/report.txt").text,
             "html": client.get(f"/console/{game}/files/turn-reports.html").text,
             "erratum": client.get(f"/console/{game}/files/erratum.html").text}
    pdf = client.get(f"/console/{game}/files/turn-reports.pdf")
    assert pdf.status_code == 200
    texts["pdf"] = "\n".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(
        pdf.content)).pages)
    return texts


def test_the_game_master_sees_everything(night) -> None:
    console, client, game, token = night
    seen = gm_channels(console, client, game, token)
    for name in ("page", "json", "log", "pdf"):
        assert all(has(n, seen[name]) for n in SECRETS.values()), name
    assert all(has(n, seen["log"]) for n in UNPUBLISHED)
    assert has(161, seen["page"]) and has(162, seen["page"])  # the open turn's grid
    assert tomllib.loads(seen["log"])["published"] == 1
    assert "Ann" in seen["slips"] and "Eve" in seen["slips"]


def test_the_public_sees_handed_out_answers_only(night) -> None:
    console, client, game, token = night
    gm_channels(console, client, game, token)  # the GM's views are made (and kept) first
    seen = public_channels(client, game)
    for name, text in seen.items():
        for number in [*SECRETS.values(), *UNPUBLISHED]:
            assert not has(number, text), (name, number)
    for name in ("page", "standings", "json"):  # answers, never the numbers guessed
        for number in set().union(*GUESSED.values()):
            assert not has(number, seen[name]), (name, number)
    for name in ("text", "html", "pdf"):  # the reports of the turn handed out, not the open one
        assert re.search(r"\bTurn 1\b", seen[name]), name
        assert not re.search(r"\b[Tt]urn 2\b", seen[name]), name
    assert "Turn 1 was amended after it was handed out." in seen["text"]
    assert seen["json"].count('"number":1') == 1  # turn 1 only, not the open turn 2
    for private in ("gm-register.pdf", "private-slips.html"):
        answer = client.get(f"/console/{game}/files/{private}")
        assert answer.status_code == 403 and not any(has(n, answer.text)
                                                     for n in SECRETS.values())


def test_a_player_sees_their_own_and_the_shared_reports(night) -> None:
    console, client, game, token = night
    gm_channels(console, client, game, token)
    public = console.public_state(game)
    for player in PLAYERS:
        data = console.player_state(game, player)
        text = repr(data)
        assert data["player"] == player and data["secret"] == SECRETS[player]
        # the shared, handed-out reports are the public view's, kept once for every player
        assert "turns" not in data and public["turns"]
        assert {k: data[k] for k in ("identified", "next_allowance", "published")} == \
            {k: public[k] for k in ("identified", "next_allowance", "published")}
        others = [p for p in PLAYERS if p != player]
        open_orders = {p: set(re.findall(r"\d+", repr(o))) for p, o in OPEN.items()}
        for number in [*(SECRETS[p] for p in others),
                       *(int(n) for p in others for n in open_orders.get(p, ())),
                       *set().union(*(GUESSED[p] for p in others))]:
            assert not has(number, text), (player, number)
        own = GUESSED[player] - ({251, 252} if player == "Eve" else set())
        (slip,) = data["slips"]
        assert slip["turn"] == 1 and all(has(n, slip["text"]) for n in own), (player, slip)
        # the open turn's orders: one's own as received, never another's
        assert data["turn"] == 2 and data["orders"] == OPEN.get(player), player

    def kinds(player: str) -> list[str]:
        return [r["kind"] for r in console.player_state(game, player)["slips"][0]["rulings"]]

    assert kinds("Bob") == ["extra-guesses"] and kinds("Cy") == ["out-of-range"]
    assert kinds("Dee") == ["partial-list"] and kinds("Ann") == []


def test_a_players_own_link_shows_their_own_and_the_shared_reports_only(night) -> None:
    console, client, game, token = night
    gm_channels(console, client, game, token)
    for player in PLAYERS:
        seat = client.seats[("player", player)]
        page = client.get(f"/console/{game}/p/{seat}")
        me = client.get(f"/api/games/{game}/me.json", headers={"Authorization": f"Bearer {seat}"})
        text = client.get(f"/console/{game}/p/{seat}/report.txt")
        assert page.status_code == me.status_code == text.status_code == 200, player
        assert has(SECRETS[player], page.text) and has(SECRETS[player], me.text)
        assert 'id="report-1-caption"' in page.text  # the shared report, from the public view
        assert f"\u2068{player}\u2069 · turn 1 · private" in text.text  # their own slip
        others = [p for p in PLAYERS if p != player]
        for number in [*(SECRETS[p] for p in others), *set().union(*(GUESSED[p] for p in others)),
                       *(UNPUBLISHED - ({161, 162} if player == "Ann" else {371, 373, 375, 379}
                                        if player == "Bob" else set()))]:
            for channel, body in (("page", page.text), ("me.json", me.text),
                                  ("report.txt", text.text)):
                assert not has(number, body), (player, channel, number)
        assert client.get(f"/console/{game}/p/{seat}x").status_code in (403, 404)


def test_a_players_page_links_each_handed_out_turns_report_pdf_holding_no_secret(night) -> None:
    console, client, game, token = night
    for player in PLAYERS:
        seat = client.seats[("player", player)]
        page = client.get(f"/console/{game}/p/{seat}").text
        links = re.findall(r'href="(/console/[^"]+/files/turn-\d+\.pdf)"', page)
        assert links == [f"/console/{game}/files/turn-1.pdf"], (player, links)
        answer = client.get(links[0])
        assert answer.status_code == 200 and answer.content.startswith(b"%PDF"), player
        text = "\n".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(
            answer.content)).pages)
        assert "1" in text and player in text
        for number in [*SECRETS.values(), *set().union(*GUESSED.values()), *UNPUBLISHED]:
            assert not has(number, text), (player, number)


def test_each_players_slip_in_the_gm_slips_holds_only_their_own(night) -> None:
    console, _, game, _ = night
    text = pdf_text(console.report_file(game, "private-slips.pdf", "gm"))
    blocks = re.split(r"(?=\b(?:Ann|Bob|Cy|Dee|Eve)\b[^\n]*turn 1)", text)
    for player in PLAYERS:
        mine = [b for b in blocks if b.startswith(player)]
        assert mine, (player, text[:400])
        others = set().union(*(GUESSED[p] for p in PLAYERS if p != player))
        assert not any(has(n, "".join(mine)) for n in others), player


def test_the_views_differ_by_viewer_for_one_version(night) -> None:
    console, _, game, _ = night
    gm = console.view(game, "gm")
    public = console.view(game, "public")
    ann = console.view(game, "player:Ann")
    # the GM's version is the journal's; the public's and a player's count only what all see
    assert public.data["version"] == ann.data["version"] < gm.data["version"]
    assert "secrets" in gm.data and "secrets" not in public.data and "secret" not in public.data
    assert ann.data["secret"] == SECRETS["Ann"] and "secrets" not in ann.data
    assert public.hidden == ann.hidden and gm.hidden == ()
    with pytest.raises(Exception, match="no such player"):
        console.view(game, "player:Zed")


def test_a_public_file_the_viewer_may_not_fetch_is_not_made_for_them(night) -> None:
    console, _, game, _ = night
    from kit.console.service import NotFound

    with pytest.raises(NotFound):
        console.report_file(game, "gm-register.pdf", "public")
    with pytest.raises(NotFound):
        console.report_file(game, "private-slips.html", "player:Ann")


def test_a_partys_rounds_are_public_once_entered(tmp_path: Path) -> None:
    console = open_console(str(tmp_path / "console.sqlite3"), tmp_path / "files")
    try:
        made = console.create_game({"game": "lowest-unique", "tables": [["Ann", "Bob", "Cy"],
                                                                       ["Dee", "Eve", "Fay"]]})
        console.enter(made.id, "round", {"choices": {"Ann": 3, "Bob": 1, "Cy": 1}},
                      {"table": 1})
        public, gm = console.view(made.id, "public"), console.view(made.id, "gm")
        fay = console.view(made.id, "player:Fay")
        assert public.data["rounds_entered"] == {"1": 1, "2": 0}
        assert fay.data["table"] == 2 and fay.data["tables"] == public.data["tables"]
        assert "log" in gm.data and "log" not in public.data and "log" not in fay.data
    finally:
        console.close()


def test_each_players_letter_holds_only_their_own_data(tmp_path: Path) -> None:
    """The e-mail channel: the letters a publish queues (a sender attached, never run), one
    per player with an address, read from the outbox, their links opened as the sender does."""
    import sqlalchemy as sa

    from kit.console.mail.book import Opener
    from kit.mail.outbox import Key, Sender, SenderThread, outbox
    from kit.mail.seal import open_links
    from kit.mail.smtp import SmtpServer

    console = open_console(str(tmp_path / "console.sqlite3"), tmp_path / "files")
    try:
        sender = Sender(console.store.engine, SmtpServer.parse("smtp://127.0.0.1:1"),
                        "gm@example.org")
        console.mail.attach(SenderThread(sender))  # queued on publish; nothing is sent
        made = console.create_game({
            "game": "whats-my-number", "players": PLAYERS, "secrets": SECRETS,
            "range": "1-500", "title": "Views",
            "emails": {p: f"{p.lower()}@example.org" for p in PLAYERS}})
        console.enter(made.id, "orders", {"orders": TURN_1})
        console.enter(made.id, "publish", {}, {"turn": 1},
                      opener=Opener(made.gm_token, "http://192.168.1.20:8000"))
        console.enter(made.id, "orders", {"orders": OPEN})
        with console.store.engine.connect() as conn:
            rows = {row.player: row for row in conn.execute(sa.select(outbox))}
        assert sorted(rows) == sorted(PLAYERS)
        for player, letter in rows.items():
            assert letter.recipient == f"{player.lower()}@example.org"
            assert f"/console/{made.id}/p/" not in letter.body  # kept sealed while it waits
            body = open_links(sender.mail_key, Key(made.id, player, 1, "report").bound,
                              letter.body, letter.sealed)
            assert body is not None
            assert f"{player} · turn 1 · private" in body  # their own slip, no isolates
            assert f"/console/{made.id}/p/" in body  # their link
            others = [p for p in PLAYERS if p != player]
            mine = GUESSED[player] - {253, 254}  # never amended here
            assert all(has(n, body) for n in mine), player
            for number in [*(SECRETS[p] for p in others), *UNPUBLISHED,
                           *set().union(*(GUESSED[p] for p in others))]:
                assert not has(number, body), (player, number)
    finally:
        console.close()
