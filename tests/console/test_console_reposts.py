"""A player's reposts within an open turn (SQLite and PostgreSQL): each replaces the player's
earlier post in the journal, so the journal, the GM page and the game's log stay what one post
makes, while versions only grow; a second console stepping its kept state forward over the
replaced rows ends where a full replay does, and the GM's undo takes back what it did before."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the console needs the web extra")

import sqlalchemy as sa  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from support.console_db import client, console, console_url  # noqa: E402,F401

from kit.console.journal import replay  # noqa: E402
from kit.console.quota import SeatPace  # noqa: E402
from kit.console.service import GM, Console, open_console  # noqa: E402
from kit.console.specs import console_of  # noqa: E402
from kit.console.store import journal  # noqa: E402
from kit.console.stream import _what_changed  # noqa: E402
from kit.console.tokens import new_token, token_hash  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SECRETS = {"Ann": 3, "Bob": 9, "Cy": 14, "Dee": 20}
REPOSTS = 40


def new_game(console: Console) -> str:  # noqa: F811
    return console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                "secrets": SECRETS, "range": "1-24"}).id


def sent(console: Console, game: str, player: str, guesses: list[int]) -> int:  # noqa: F811
    """A player's own post of their orders (what their link's API call enters)."""
    return console.enter(game, "sent", {"guesses": guesses}, {"player": player}).version


def stored(console: Console, game: str) -> list[tuple[int, str]]:  # noqa: F811
    """The game's journal rows as the database holds them: (seq, kind)."""
    with console.store.engine.connect() as conn:
        return [(r.seq, r.kind) for r in conn.execute(
            sa.select(journal.c.seq, journal.c.kind).where(journal.c.game_id == game)
            .order_by(journal.c.seq))]


def same_as_full(console: Console, game: str) -> None:  # noqa: F811
    """The console's kept game is the game replayed from the journal as stored."""
    row, rows = console.store.load(game)
    whole = replay(console_of(row.kind), row.public, rows)
    loaded = console.load(game)
    assert loaded.row.version == row.version and list(loaded.rows) == rows
    assert loaded.played == whole


def test_reposts_keep_one_journal_row_per_player(console: Console) -> None:  # noqa: F811
    game = new_game(console)
    sent(console, game, "Ann", [1, 2])
    sent(console, game, "Bob", [5])
    before = stored(console, game)
    versions = [sent(console, game, player, [n % 24 + 1])
                for n in range(REPOSTS) for player in ("Ann", "Bob")]
    assert versions == list(range(4, 4 + 2 * REPOSTS))  # versions only grow
    rows = stored(console, game)
    assert len(rows) == len(before) == 3  # create, Ann's latest, Bob's latest
    assert rows == [(1, "create"), (versions[-2], "sent"), (versions[-1], "sent")]
    assert console.state(game).version == versions[-1]
    assert console.load(game).played.state.orders(1) == {"Ann": [REPOSTS % 24],
                                                         "Bob": [REPOSTS % 24]}
    same_as_full(console, game)


def test_the_gm_page_and_log_after_reposts_are_those_of_one_post(
        client: TestClient, console: Console) -> None:  # noqa: F811
    console.pace = SeatPace(per_minute=10 * REPOSTS)  # the pace is tested on its own
    many, once = new_game(console), new_game(console)
    for n in range(REPOSTS):
        sent(console, many, "Ann", [n % 24 + 1])
    sent(console, once, "Ann", [REPOSTS % 24])
    for game in (many, once):
        sent(console, game, "Bob", [7])
    assert console.export_log(many) == console.export_log(once)  # kit report reads the same
    state_many, state_once = console.state(many), console.state(once)
    assert [(e["kind"], e["text"]) for e in state_many.entries] == [
        (e["kind"], e["text"]) for e in state_once.entries]
    assert state_many.view.data["log"] == state_once.view.data["log"]
    pages = [gm_page(client, console, game) for game in (many, once)]
    assert "Ann" in pages[0] and pages[0] == pages[1]


def gm_page(client: TestClient, console: Console, game: str) -> str:  # noqa: F811
    """The GM page's text, through a GM link made for the test (only a hash is stored)."""
    token = new_token()
    console.store.set_gm_hash(game, token_hash(token))
    page = client.get(f"/console/{game}/gm/{token}")
    assert page.status_code == 200, page.text
    words = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.text)))
    room = re.search(r"Room code: (\w+)", words)
    assert room is not None, words
    words = words.replace(token, "TOKEN").replace(room[1], "ROOM").replace(game, "ID")
    return re.sub(r"\d\d:\d\d", "hh:mm", words)  # when each row was entered


def test_two_consoles_agree_over_replaced_rows(console: Console, console_url: str,  # noqa: F811
                                               tmp_path: Path) -> None:
    game = new_game(console)
    other = open_console(console_url, tmp_path / "other-files")
    try:
        sent(console, game, "Ann", [1])
        assert other.load(game).row.version == 2  # kept there with Ann's first post
        sent(console, game, "Ann", [2])  # replaces the row the other console keeps
        sent(console, game, "Bob", [3])
        sent(console, game, "Ann", [4])  # replaces a row the other console never read
        same_as_full(other, game)
        console.enter(game, "orders", {"orders": {"Cy": [5]}})  # the GM's: ends the run
        sent(console, game, "Ann", [6])
        sent(console, game, "Ann", [7])
        other.load(game)
        sent(other, game, "Bob", [8])
        # Bob's [3] and Ann's [4] stay before the GM's row, which ends their run
        assert [kind for _seq, kind in stored(console, game)] == [
            "create", "sent", "sent", "orders", "sent", "sent"]
        for each in (console, other):
            same_as_full(each, game)
        assert console.load(game).played == other.load(game).played
        assert console.state(game).view.data == other.state(game).view.data
    finally:
        other.close()


def test_the_gms_undo_after_reposts(console: Console, console_url: str,  # noqa: F811
                                    tmp_path: Path) -> None:
    game = new_game(console)
    console.enter(game, "orders", {"orders": {"Ann": [5]}})
    sent(console, game, "Ann", [6])
    sent(console, game, "Ann", [7])
    sent(console, game, "Ann", [8])
    assert [kind for _seq, kind in stored(console, game)] == ["create", "orders", "sent"]
    other = open_console(console_url, tmp_path / "other-files")
    try:
        other.load(game)
        console.undo(game)  # the game master's row: the player's latest post stays
        for each in (console, other):
            state = each.load(game).played.state
            assert state.orders(1) == {"Ann": [8]}
            assert state.entered["Ann"]["replaced"]["orders"] == [7]
            assert state.entered["Ann"]["replaced"]["by"] == "player"
            same_as_full(each, game)
        assert console.state(game).last_entry is None  # nothing more to undo
    finally:
        other.close()


def test_an_undo_of_the_gms_row_between_two_posts_says_the_earlier_post(
        console: Console) -> None:  # noqa: F811
    game = new_game(console)
    sent(console, game, "Ann", [6])
    console.enter(game, "orders", {"orders": {"Ann": [5]}})
    sent(console, game, "Ann", [7])  # the GM's row between: Ann's [6] stays in the journal
    assert len(stored(console, game)) == 4
    assert console.load(game).played.state.entered["Ann"]["replaced"]["by"] == "gm"
    console.undo(game)
    mark = console.load(game).played.state.entered["Ann"]
    assert mark["replaced"]["orders"] == [6] and mark["replaced"]["by"] == "player"
    same_as_full(console, game)


def test_a_resumed_stream_sees_a_publish_after_replaced_rows(console: Console) -> None:  # noqa: F811
    game = new_game(console)
    for n in range(5):
        sent(console, game, "Ann", [n + 1])
    seen = console.state(game).version
    sent(console, game, "Ann", [9])
    console.enter(game, "publish", {}, {"turn": 1})
    view, version, name = _what_changed(console, game, GM, seen)
    assert (name, version) == ("published", seen + 2) and view.data["version"] == version
    assert len(stored(console, game)) == 3


def test_a_changed_secret_replaces_the_players_earlier_choice(console: Console  # noqa: F811
                                                               ) -> None:
    game = console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                "secrets": "players", "range": "1-24"}).id
    for number in range(1, REPOSTS + 1):
        for player in ("Ann", "Bob"):
            console.enter(game, "secret", {"secret": number % 24 + 1}, {"player": player})
    console.enter(game, "secret", {"secret": 7}, {"player": "Ann"})
    assert [kind for _, kind in stored(console, game)] == ["create", "secret", "secret"]
    chosen = console.load(game).played.state.log["secrets"]
    assert (chosen["Bob"], chosen["Ann"]) == (REPOSTS % 24 + 1, 7)
    same_as_full(console, game)
