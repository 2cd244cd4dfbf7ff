"""What's My Number? on the big screen and the public page: the latest turn's answers as a big
grid, the race of numbers found (an SVG chart with a text equivalent), bonus guesses and lists,
and at the end how it was won, every secret number and the podium. Read back from the HTML
against the rules engine; and no guessed number or secret on any page or answer, with any
token, before the game ends."""

from __future__ import annotations

import re
from html import unescape

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from starlette.applications import Starlette  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from support.helpers import writes_number  # noqa: E402

from kit.console.routes import routes  # noqa: E402
from kit.console.service import open_console  # noqa: E402
from kit.games.whats_my_number import rules  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

PLAYERS = ["Ann", "Bob", "Цой", "ليلى", "Eve"]
SECRETS = {"Ann": 401, "Bob": 413, "Цой": 427, "ليلى": 439, "Eve": 452}
TURNS = [
    {"Ann": [413, 102], "Bob": [401, 212], "Цой": {"list": {"Ann": 401, "Bob": 301,
                                                              "ليلى": 302, "Eve": 303}},
     "ليلى": [251, 252], "Eve": [427, 261]},
    {"Ann": [427, 439, 110], "Bob": [103, 104, 105], "Eve": [111, 112]},
]
WINNING = {"Bob": {"list": {"Ann": 401, "Цой": 427, "ليلى": 439, "Eve": 452}}}
GUESSED = {n for turn in [*TURNS, WINNING] for order in turn.values()
           for n in (order["list"].values() if isinstance(order, dict) else order)}


@pytest.fixture
def game(tmp_path):
    """(console, client, game id, GM token) of the game with TURNS published."""
    console = open_console(str(tmp_path / "c.sqlite3"), tmp_path / "files")
    app = Starlette(routes=routes())
    app.state.console = console
    made = console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                "secrets": SECRETS, "range": "1-500", "title": "Screen"})
    for number, orders in enumerate(TURNS, 1):
        console.enter(made.id, "orders", {"orders": orders})
        console.enter(made.id, "publish", {}, {"turn": number})
    with TestClient(app) as client:
        client.seats = made.seat_tokens  # type: ignore[attr-defined]
        yield console, client, made.id, made.gm_token
    console.close()


def played(turns: list[dict]) -> rules.GameResult:
    return rules.play(rules.parse_game_log({"game": "whats-my-number", "players": PLAYERS,
                                            "range": [1, 500], "secrets": SECRETS,
                                            "turn": turns}))


def cells(html: str, table_class: str) -> list[list[str]]:
    """A table's body rows as their cells' text."""
    table = re.search(rf'<table class="{table_class}">(.*?)</table>', html, re.S)
    assert table, table_class
    body = table[1].split("<tbody>")[1]
    return [[unescape(re.sub(r"<[^>]+>", "", c)).strip()
             for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_the_big_grid_is_the_latest_turns_marks(game) -> None:
    _, client, game_id, _ = game
    report = played(TURNS).turns[-1]
    for page in ("", "/standings"):
        html = client.get(f"/console/{game_id}{page}").text
        rows = cells(html, "marks")
        assert [r[0] for r in rows] == ["Ann 1", "Ann 2", "Ann 3 (bonus)", "Bob 1", "Bob 2",
                                        "Bob 3 (bonus)", "Eve 1", "Eve 2"]
        guesses = [r for r in report.rows if isinstance(r, rules.GuessRow)]
        assert [r[1:] for r in rows] == [list(g.cells) for g in guesses]
        assert 'id="big-grid-heading">Turn 2 report<' in html


def test_the_race_and_the_tallies_are_the_engines_counts(game) -> None:
    _, client, game_id, _ = game
    result = played(TURNS)
    html = client.get(f"/console/{game_id}").text
    race = {row[0]: row[1:] for row in cells(html, "visually-hidden chart-data")}
    tallies = {row[0]: row[1:] for row in cells(html, "tallies")}
    for player in PLAYERS:
        per_turn = [t.hits[player] for t in result.turns]
        found = sum(per_turn)
        when = [f"turn {n}: +{h}" for n, h in enumerate(per_turn, 1) if h]
        assert race[player][0] == str(found)
        assert race[player][1] == (" and ".join(when) if when else "—")
        lists = [r for t in result.turns for r in t.rows
                 if isinstance(r, rules.ListRow) and r.player == player]
        assert tallies[player] == [str(found), str(found), str(len(lists)), "0"], player
    assert race["Ann"] == ["3", "turn 1: +1 and turn 2: +2"]
    assert '<svg class="chart"' in html and 'aria-label="The race: numbers found after each ' \
        'turn"' in html
    assert "The secret numbers" not in html and "podium" not in html


def test_nothing_secret_on_any_page_or_answer_before_the_end(game) -> None:
    _, client, game_id, token = game
    public = {"page": client.get(f"/console/{game_id}").text,
              "standings": client.get(f"/console/{game_id}/standings").text,
              "json": client.get(f"/api/games/{game_id}/public.json").text}
    for name, text in public.items():
        for number in [*SECRETS.values(), *GUESSED]:
            assert not writes_number(number, text), (name, number)
    for player in PLAYERS:  # each player's token: their own numbers only
        seat = client.seats[("player", player)]
        mine = {n for turn in TURNS for n in (
            turn.get(player, {}).get("list", {}).values() if isinstance(turn.get(player), dict)
            else turn.get(player, []))} | {SECRETS[player]}
        pages = {"page": client.get(f"/console/{game_id}/p/{seat}").text,
                 "me": client.get(f"/api/games/{game_id}/me.json",
                                  headers={"Authorization": f"Bearer {seat}"}).text,
                 "standings": client.get(f"/console/{game_id}/standings",
                                         headers={"Authorization": f"Bearer {seat}"}).text}
        for name, text in pages.items():
            for number in {*SECRETS.values(), *GUESSED} - mine:
                assert not writes_number(number, text), (player, name, number)


def test_the_end_shows_how_it_was_won_every_secret_and_the_podium(game) -> None:
    console, client, game_id, _ = game
    console.enter(game_id, "orders", {"orders": WINNING})
    console.enter(game_id, "publish", {}, {"turn": 3})
    result = played([*TURNS, WINNING])
    assert result.winners == ("Bob",) and result.reason == "list"
    for page in ("", "/standings"):
        html = client.get(f"/console/{game_id}{page}").text
        assert '<p class="won-how">Bob wins in turn 3, by a fully correct list.' in html
        shown = re.findall(r'<li><bdi class="who">(.*?)</bdi> <span class="n">(\d+)</span>',
                           html)
        assert dict(shown) == {p: str(n) for p, n in SECRETS.items()}
        steps = re.findall(r'data-place="(\d)">.*?</li>', html)
        assert steps == ["1", "2", "3"]
        first = re.search(r'data-place="1">(.*?)</li>', html)[1]
        assert re.findall(r'<bdi class="who">(.*?)</bdi>', first) == ["Bob"]
        second = re.search(r'data-place="2">(.*?)</li>', html)[1]
        assert re.findall(r'<bdi class="who">(.*?)</bdi>', second) == ["Ann"]
        assert "3 numbers found" in second


def test_the_screen_speaks_the_pages_language(game) -> None:
    _, client, game_id, _ = game
    html = client.get(f"/console/{game_id}?lang=de").text
    assert "Das Rennen: gefundene Zahlen nach jeder Runde" in html
    assert "Gewonnene Bonustipps" in html and "Runde 1: +1" in html
