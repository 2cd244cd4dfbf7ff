"""The console's kept state (``kit.console.kept``): a game's state stays in memory between
requests, is stepped forward by the entries since, is checked against the stored version on
every load (two servers on one database), and is bounded in bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the console needs the web extra")

from console_db import client, console, console_url  # noqa: E402,F401

from kit.console.journal import replay  # noqa: E402
from kit.console.kept import Kept, build  # noqa: E402
from kit.console.service import Console, open_console  # noqa: E402
from kit.console.specs import console_of  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def new_game(console: Console) -> str:  # noqa: F811
    return console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                "secrets": {"Ann": 3, "Bob": 9, "Cy": 14, "Dee": 20},
                                "range": "1-24"}).id


def full(console: Console, game_id: str):  # noqa: ANN201,F811
    """The game replayed from its whole journal, as stored."""
    row, rows = console.store.load(game_id)
    return row, rows, replay(console_of(row.kind), row.public, rows)


def test_a_load_steps_the_kept_state_forward(console: Console) -> None:  # noqa: F811
    game = new_game(console)
    first = console.load(game)
    console.enter(game, "orders", {"orders": {"Ann": [5, 6]}})
    calls: list[int] = []
    since = console.store.since
    console.store.since = lambda game_id, seen: calls.append(seen) or since(game_id, seen)
    try:
        second = console.load(game)
    finally:
        del console.store.since
    assert calls == [first.row.version]  # only the entries since were read
    row, rows, played = full(console, game)
    assert second.row == row and list(second.rows) == rows
    assert second.played.state == played.state and second.played.since == played.since
    assert console.load(game).played is second.played  # same version: the kept state itself


def test_two_consoles_on_one_database_see_each_others_entries(
        console: Console, console_url: str, tmp_path: Path) -> None:  # noqa: F811
    game = new_game(console)
    other = open_console(console_url, tmp_path / "other-files")
    try:
        assert other.load(game).row.version == 1
        console.enter(game, "orders", {"orders": {"Ann": [5, 6]}})
        console.enter(game, "publish", {}, {"turn": 1})
        seen = other.load(game)  # kept at version 1 there: the version check finds 3
        assert seen.row.version == 3 and seen.played.state.published == 1
        other.enter(game, "orders", {"orders": {"Bob": [2, 4]}})
        assert console.public_state(game)["version"] == 4
        assert console.load(game).played.state.orders(2) == {"Bob": [2, 4]}
    finally:
        other.close()


def test_an_undo_on_another_server_is_seen(console: Console, console_url: str,  # noqa: F811
                                           tmp_path: Path) -> None:
    game = new_game(console)
    console.enter(game, "orders", {"orders": {"Ann": [5, 6]}})
    console.load(game)
    other = open_console(console_url, tmp_path / "other-files")
    try:
        other.undo(game)
    finally:
        other.close()
    after = console.load(game)
    assert after.played.state.orders(1) == {} and after.played.since == ()
    assert after.played.state == full(console, game)[2].state


def test_kept_games_stay_within_their_byte_budget(console: Console) -> None:  # noqa: F811
    games = [new_game(console) for _ in range(4)]
    one = build(console_of("whats-my-number"), *console.store.load(games[0])).size
    kept = Kept(budget=int(one * 2.5))
    console.kept = kept
    for game in games:
        console.load(game)
    assert len(kept) == 2 and kept.size <= kept.budget
    assert kept.get(games[0]) is None and kept.get(games[3]) is not None
    console.load(games[0])  # dropped: rebuilt from the journal, and kept again
    assert kept.get(games[0]) is not None and kept.get(games[1]) is None
    tiny = Kept(budget=one // 2)  # a game larger than the budget is served, not kept
    console.kept = tiny
    assert console.load(games[0]).row.version == 1 and len(tiny) == 0
