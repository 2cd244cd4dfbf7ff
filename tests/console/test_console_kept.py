"""The console's kept state (``kit.console.state_cache``): a game's state stays in memory between
requests, is stepped forward by the entries since, is checked against the stored version on
every load (two servers on one database), and is bounded in bytes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("sqlalchemy", reason="the console needs the web extra")

from support.console_db import client, console, console_url  # noqa: E402,F401

from kit.console import engine  # noqa: E402
from kit.console.journal import UNDO, replaced, replay, step  # noqa: E402
from kit.console.service import Console, open_console  # noqa: E402
from kit.console.specs import check_new_game, console_of  # noqa: E402
from kit.console.state_cache import GameCache, build, forward  # noqa: E402
from kit.console.store import GameRow, Row  # noqa: E402
from kit.errors import KitError  # noqa: E402
from kit.games.whats_my_number import rules as wmn_rules  # noqa: E402
from kit.games.whats_my_number.rules.checking import Checked  # noqa: E402
from kit.games.whats_my_number.rules.engine import Progress  # noqa: E402

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
        assert seen.played.state == console.load(game).played.state  # the whole state
        other.enter(game, "orders", {"orders": {"Bob": [2, 4]}})
        assert console.state(game).version == 4
        here, there = console.load(game), other.load(game)
        assert here.played.state.orders(2) == {"Bob": [2, 4]}
        assert here.played.state == there.played.state and list(here.rows) == list(there.rows)
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
    kept = GameCache(budget=int(one * 2.5))
    console.kept = kept
    for game in games:
        console.load(game)
    assert len(kept) == 2 and kept.size <= kept.budget
    assert kept.get(games[0]) is None and kept.get(games[3]) is not None
    console.load(games[0])  # dropped: rebuilt from the journal, and kept again
    assert kept.get(games[0]) is not None and kept.get(games[1]) is None
    tiny = GameCache(budget=one // 2)  # a game larger than the budget is served, not kept
    console.kept = tiny
    assert console.load(games[0]).row.version == 1 and len(tiny) == 0


# --- the kept state and the incremental check against a full replay, over random journals -----

WMN_PLAYERS = ("A", "B", "C", "D")
guesses = st.lists(st.integers(0, 9), max_size=5)  # the range is 1-8: 0 and 9 are void
wmn_actions = st.lists(st.one_of(
    st.tuples(st.just("orders"), st.sampled_from(WMN_PLAYERS), guesses),
    st.tuples(st.just("list"), st.sampled_from(WMN_PLAYERS),
              st.dictionaries(st.sampled_from(WMN_PLAYERS), st.integers(0, 9), max_size=4)),
    st.tuples(st.just("publish"), st.sampled_from((0, 0, 0, 0, -1, 1))),
    st.tuples(st.just("publish"), st.just(0)),  # twice: games of several turns
    st.tuples(st.just("amend"), st.integers(1, 4), st.sampled_from(WMN_PLAYERS),
              st.none() | guesses),
    st.tuples(st.just("undo")),
    # a player's own post (reposts replace the earlier ones in the journal)
    st.tuples(st.just("sent"), st.sampled_from(WMN_PLAYERS), guesses),
    st.tuples(st.just("sent"), st.sampled_from(WMN_PLAYERS[:2]), guesses)),
    min_size=10, max_size=50)
lun_actions = st.lists(st.one_of(
    st.tuples(st.just("round"), st.integers(1, 2),
              st.dictionaries(st.sampled_from(("P1", "P2", "P3", "P4", "P5", "P6")),
                              st.integers(0, 22), max_size=6)),
    st.tuples(st.just("undo"))), max_size=30)


def wmn_entry(state, action: tuple):  # noqa: ANN001,ANN201
    """The (kind, body, params) an action is for a What's My Number? state."""
    kind = action[0]
    if kind == "orders":
        return "orders", {"orders": {action[1]: action[2]}}, {}
    if kind == "list":
        return "orders", {"orders": {action[1]: {"list": action[2]}}}, {}
    if kind == "publish":
        return "publish", {}, {"turn": state.open_turn + action[1]}
    if kind == "sent":
        return "sent", {"guesses": action[2]}, {"player": action[1]}
    return "amend", {"orders": {action[2]: action[3]}}, {"turn": action[1]}


def lun_entry(state, action: tuple):  # noqa: ANN001,ANN201
    return "round", {"choices": action[2]}, {"table": action[1]}


def outcome(check, *args):  # noqa: ANN001,ANN201
    """("ok", result) or ("refused", every problem's field and English text)."""
    try:
        return "ok", check(*args)
    except KitError as exc:
        return "refused", [(str(p.field), str(p)) for p in getattr(exc, "problems", [exc])]


def same_as_full(data: dict, resumed: object, full: object) -> None:
    """The resumed check's log and running state are the full check's and a whole replay's."""
    if not isinstance(resumed, Checked):  # a game checked whole (no resumable check)
        assert resumed == full
        return
    assert resumed.log == full
    result = wmn_rules.play(full)
    assert resumed.after.result(full.players, result.turns) == result
    last = result.turns[-1] if result.turns else None
    expected = last if last is not None and last.number == len(full.turns) else None
    assert resumed.last_report == expected


def drive(name: str, spec: dict, actions: list, entry_of) -> None:  # noqa: ANN001
    """Play ``actions`` as console entries: every candidate is checked whole and resumed
    (same verdict, same problems, same state), and the journal kept step by step is the
    journal replayed, rows replaced by a later one left out as the store deletes them; a
    copy kept at any earlier version and stepped forward by the rows stored since ends the
    same."""
    game = console_of(name)
    kind, facts, log = check_new_game(spec, random.Random(7))
    rows = [Row(1, "create", {"log": log}, 0.0)]
    played = step(game, facts, None, rows[0])
    checked = engine.resume(game.export(played.state))
    kept = build(game, GameRow("g", kind, facts, "", 1), rows)
    earlier = [kept]
    for action in actions:
        if action[0] == "undo":
            last = played.undoable(game)
            if last is None:
                continue
            entry_kind, payload = UNDO, {"undoes": last.seq}
        else:
            entry_kind, body, params = entry_of(played.state, action)
            try:
                payload = game.entry(entry_kind).payload(played.state, body, params)
            except KitError:
                continue
        row = Row(played.version + 1, entry_kind, payload, 0.0)
        after = step(game, facts, played, row)
        data = game.export(after.state)
        full = outcome(engine.check, data)
        resumed = outcome(engine.resume, data, checked)
        assert resumed[0] == full[0]
        if full[0] == "refused":
            assert resumed[1] == full[1]
            continue
        same_as_full(data, resumed[1], full[1])
        gone = replaced(game, played, row)
        rows = [*(r for r in rows if r.seq not in gone), row]
        played, checked = after, resumed[1]
        kept = forward(game, kept, GameRow("g", kind, facts, "", row.seq), [row])
        earlier.append(kept)
    whole = replay(game, facts, rows)
    assert kept.played == whole and kept.rows == tuple(rows)
    assert played.state == whole.state
    for then in earlier[::3]:  # another server's copy, stepped over the gaps since
        new = [r for r in rows if r.seq > then.version]
        if new:
            caught_up = forward(game, then, GameRow("g", kind, facts, "", new[-1].seq), new)
            assert caught_up.played == whole and caught_up.rows == tuple(rows)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(secrets=st.lists(st.integers(1, 8), min_size=4, max_size=4), actions=wmn_actions)
def test_whats_my_number_kept_and_resumed_equal_a_full_replay(secrets: list[int],
                                                              actions: list) -> None:
    spec = {"game": "whats-my-number", "players": list(WMN_PLAYERS), "range": "1-8",
            "secrets": dict(zip(WMN_PLAYERS, secrets, strict=True))}
    drive("whats-my-number", spec, actions, wmn_entry)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=lun_actions)
def test_lowest_unique_kept_and_checked_equal_a_full_replay(actions: list) -> None:
    spec = {"game": "lowest-unique", "tables": [["P1", "P2", "P3"], ["P4", "P5", "P6"]],
            "rounds": 3, "range": "1-20"}
    drive("lowest-unique", spec, actions, lun_entry)


def test_a_resumed_check_plays_only_the_new_turn() -> None:
    """Checking one more turn on a kept check plays that turn, not the game before it."""
    players = [f"P{n:02d}" for n in range(1, 13)]
    data = {"game": "whats-my-number", "players": players, "range": "1-600",
            "secrets": {p: 500 + i for i, p in enumerate(players)},
            "turn": [{p: [1 + t, 2 + t] for p in players} for t in range(30)]}
    checked = engine.resume(data)
    played: list[int] = []
    real = Progress.play

    def counted(self, log, orders, strict, problems):  # noqa: ANN001,ANN202
        played.append(self.turns + 1)
        return real(self, log, orders, strict, problems)

    Progress.play = counted
    try:
        longer = {**data, "turn": [*data["turn"], {"P01": [7, 9]}]}
        again = engine.resume(longer, checked)
        changed = {**data, "turn": [*data["turn"][:-1], {"P01": [7]}]}
        engine.resume(changed, checked)
    finally:
        Progress.play = real
    assert played == [31, 30]
    assert again.last_report.number == 31 and again.log == wmn_rules.parse_game_log(longer)
