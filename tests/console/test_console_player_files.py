"""A player's own files by their link (``/console/ID/p/TOKEN/files/slips-turn-N.pdf``): each
handed-out turn's slip of that player alone, made from a folder holding nothing else, fetched
with their real token and read back; another player's token, a wrong one, a turn not handed
out or a name outside the set gets a 404, and the browser never keeps the file."""

from __future__ import annotations

import io
import re
import threading

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from pypdf import PdfReader  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from support.console_db import console_app  # noqa: E402
from support.helpers import writes_number  # noqa: E402

from kit.console.service import open_console  # noqa: E402
from kit.games.whats_my_number.console.report_pages import report_pages  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SECRETS = {"Ann": 401, "Bob": 413, "Cy": 427, "Dee": 439}
TURNS = [{"Ann": [101, 102], "Bob": [211, 212, 213], "Cy": [221, 777],
          "Dee": {"list": {"Ann": 341, "Bob": 342}}},
         {"Ann": [103, 104, 105], "Bob": [214, 215], "Cy": [222, 223],
          "Dee": [343, 344]}]
OPEN = {"Ann": [161, 162], "Bob": [371, 373]}
UNPUBLISHED = {161, 162, 371, 373}


def guessed(player: str) -> set[int]:
    """Every number ``player`` sent in a handed-out turn (a list's values too)."""
    out: set[int] = set()
    for turn in TURNS:
        order = turn[player]
        out |= set(order["list"].values()) if isinstance(order, dict) else set(order)
    return out


def has(number: int, text: str) -> bool:
    """Whether ``number`` is written in ``text`` (not as part of a longer number or an id)."""
    return writes_number(number, text)


def read_pdf(body: bytes) -> tuple[PdfReader, str]:
    reader = PdfReader(io.BytesIO(body))
    return reader, "\n".join(page.extract_text() or "" for page in reader.pages)


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory):
    """Two turns handed out, a third open: (console, client, game id, players' tokens)."""
    folder = tmp_path_factory.mktemp("own-files")
    console = open_console(str(folder / "console.sqlite3"), folder / "files")
    app = console_app()
    app.state.console = console
    made = console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                "secrets": SECRETS, "range": "1-500", "title": "Own files"})
    for number, orders in enumerate(TURNS, start=1):
        console.enter(made.id, "orders", {"orders": orders})
        console.enter(made.id, "publish", {}, {"turn": number})
    console.enter(made.id, "orders", {"orders": OPEN})
    other = console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                 "secrets": SECRETS, "range": "1-500"})
    console.enter(other.id, "orders", {"orders": TURNS[0]})
    console.enter(other.id, "publish", {}, {"turn": 1})
    with TestClient(app) as client:
        yield console, client, made.id, made.tokens("player"), made.gm_token, other
    console.close()


def test_each_player_fetches_their_own_slip_of_each_turn_and_nothing_of_another(night) -> None:
    console, client, game, tokens, gm, other = night
    for player, token in tokens.items():
        page = client.get(f"/console/{game}/p/{token}").text
        links = re.findall(rf'href="(/console/{game}/p/[^"]+/files/[^"]+)"', page)
        assert links == [f"/console/{game}/p/{token}/files/slips-turn-{n}.pdf"
                         for n in (2, 1)], (player, links)
        for turn, link in ((2, links[0]), (1, links[1])):
            answer = client.get(link)
            assert answer.status_code == 200 and answer.content.startswith(b"%PDF")
            assert answer.headers["cache-control"] == "private, no-store"
            reader, text = read_pdf(answer.content)
            flat = " ".join(text.split())
            assert f"{player} · turn {turn} · private" in flat, (player, turn)
            assert f"for {player} alone" in flat
            order = TURNS[turn - 1][player]
            mine = order["list"].values() if isinstance(order, dict) else order
            assert all(has(n, text) for n in mine), (player, turn)
            for other in PLAYERS:
                if other != player:
                    assert f"{other} · turn" not in flat, (player, other)
                    assert not has(SECRETS[other], text), (player, other)
                    assert not any(has(n, text) for n in guessed(other) - guessed(player)), \
                        (player, other)
            assert not has(SECRETS[player], text)  # a slip never prints a secret
            assert not any(has(n, text) for n in UNPUBLISHED), player
            assert len(reader.pages) == 1


def test_another_players_token_a_wrong_one_or_another_name_gets_a_404(night) -> None:
    console, client, game, tokens, gm, other = night
    ann, bob = tokens["Ann"], tokens["Bob"]
    wrong = client.get(f"/console/{game}/p/{ann}x/files/slips-turn-1.pdf")
    page = client.get(f"/console/{game}/p/{ann}x")
    assert wrong.status_code == page.status_code == 404
    assert wrong.text == page.text  # the same page: a wrong link, nothing said of the file
    # Bob's link reads Bob's own slip, never Ann's, whatever the name
    bobs = read_pdf(client.get(f"/console/{game}/p/{bob}/files/slips-turn-1.pdf").content)[1]
    assert "Bob · turn 1" in " ".join(bobs.split()) and not has(101, bobs)
    # the game master's token, or a player's token of another game, opens no player's file
    another = other.tokens("player")["Ann"]
    for token, of in ((gm, game), (another, game), (ann, other.id)):
        answer = client.get(f"/console/{of}/p/{token}/files/slips-turn-1.pdf")
        assert answer.status_code == 404 and answer.text == page.text, token
    for name in ("slips-turn-3.pdf", "turn-1.pdf", "private-slips.pdf", "gm-register.pdf",
                 "slips-turn-1.html", "slips-turn-1.md", "published.json",
                 "../slips-turn-1.pdf", "fonts/x.ttf", "slips-turn-0.pdf"):
        answer = client.get(f"/console/{game}/p/{ann}/files/{name}")
        assert answer.status_code == 404, name
        assert not answer.content.startswith(b"%PDF"), name


def test_a_players_folder_holds_their_own_slips_alone(night) -> None:
    console, client, game, tokens, gm, other = night
    client.get(f"/console/{game}/p/{tokens['Cy']}/files/slips-turn-2.pdf")
    target = console.report_folder(game, "player:Cy", turn=2)
    names = sorted(p.name for p in target.iterdir() if p.is_file() and p.name[0] != ".")
    assert names == ["slips-turn-2.html", "slips-turn-2.md", "slips-turn-2.pdf"]
    text = (target / "slips-turn-2.md").read_text(encoding="utf-8")
    assert "Cy" in text and "Ann · turn" not in text and not has(103, text)
    # the render line charges it a page, not the turn's report and every player's slips
    log = {"players": [f"P{n}" for n in range(100)], "published": 30}
    assert report_pages(log, 2, "P7") == 1 and report_pages(log, None, "P7") == 30


def test_a_players_slip_is_rendered_once_however_many_ask(tmp_path) -> None:
    console = open_console(str(tmp_path / "c.db"), tmp_path / "files")
    try:
        assert console.folders.pool is None  # renders here, in the askers' threads
        made = console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                    "secrets": SECRETS, "range": "1-500"})
        console.enter(made.id, "orders", {"orders": TURNS[0]})
        console.enter(made.id, "publish", {}, {"turn": 1})
        bodies: list[bytes] = []
        askers = [threading.Thread(target=lambda: bodies.append(console.read_own(
            made.id, "slips-turn-1.pdf", "Bob").body)) for _ in range(4)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join(120)
        assert console.folders.started == 1 and len(set(bodies)) == 1 and len(bodies) == 4
        console.read_own(made.id, "slips-turn-1.pdf", "Bob")  # made: read, not made again
        assert console.folders.started == 1
        console.read_own(made.id, "slips-turn-1.pdf", "Cy")  # Cy's own folder
        assert console.folders.started == 2
        assert "Cy · turn 1" in " ".join(read_pdf(console.read_own(
            made.id, "slips-turn-1.pdf", "Cy").body)[1].split())
    finally:
        console.close()
