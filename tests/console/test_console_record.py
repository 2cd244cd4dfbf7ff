"""What's My Number?'s kept record of published turns (``console.record``): the public view
and the game master's page made from it equal the ones a full replay makes, after every
entry (orders, publish, undo, an amendment of an earlier turn), and the public view never
shows an unpublished entry."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("sqlalchemy", reason="the console needs the web extra")

from support.console_db import console  # noqa: E402,F401

from kit.console.journal import replay  # noqa: E402
from kit.console.service import GM, PUBLIC, Console  # noqa: E402
from kit.console.specs import console_of  # noqa: E402
from kit.errors import KitError  # noqa: E402
from kit.games.whats_my_number.console import record as console_record  # noqa: E402
from kit.games.whats_my_number.console import state as wmn  # noqa: E402
from kit.games.whats_my_number.console import turns as console_turns
from kit.i18n import words  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SECRETS = {"Ann": 3, "Bob": 9, "Cy": 14, "Dee": 20}
OPEN_GUESS = 23  # guessed in the open turn only, by nobody's secret


def new_game(console: Console) -> str:  # noqa: F811
    return console.create_game({"game": "whats-my-number", "players": PLAYERS,
                                "secrets": SECRETS, "range": "1-24"}).id


def forget() -> None:
    """Nothing kept: the next view replays the whole game."""
    with console_record._lock:
        console_record._records.clear()
        console_record._cells = 0
    with console_turns._played_lock:
        console_turns._played_kept.clear()


def rebuilt(console: Console, game_id: str):  # noqa: ANN201,F811
    """The state replayed from the stored journal, and its public data made by the engine's
    full replay (no record kept)."""
    row, rows = console.store.load(game_id)
    state = replay(console_of(row.kind), row.public, rows).state
    full = wmn.shared(state, row.public, wmn.play(wmn.handed_out(state)))
    return row, state, full


def gm_context(console: Console, game_id: str) -> dict:  # noqa: F811
    seen = console.state(game_id).seen()
    made = console_of("whats-my-number").gm_page(seen, words("en"), {}, None, None)
    return {k: made.context[k] for k in ("turn", "reports", "rows", "older_turns")}


def same_as_full(console: Console, game_id: str) -> None:  # noqa: F811
    row, state, full = rebuilt(console, game_id)
    kept_public = console.view(game_id, PUBLIC).data
    assert {k: v for k, v in kept_public.items() if k in full} == full
    assert wmn.public_view(state, row.public).data == full
    # the public view says nothing of the open turn: its entries are in no answer
    assert len(kept_public["turns"]) == state.published
    assert console.view(game_id, PUBLIC).log.get("turn", [])[state.published:] == []
    kept_gm = gm_context(console, game_id)
    assert console.view(game_id, GM).data["log"].get("turn", []) == state.log.get("turn", [])
    forget()
    assert gm_context(console, game_id) == kept_gm
    assert wmn.public_view(state, row.public).data == full


def act(console: Console, game_id: str, rng: random.Random) -> None:  # noqa: F811
    """One random entry: orders, a publish, an undo or an amendment of a published turn."""
    state = console.load(game_id).played.state
    pick = rng.random()
    try:
        if pick < 0.45:
            player = rng.choice(PLAYERS)
            guesses = [rng.randint(1, 22) for _ in range(rng.randint(1, 3))]
            if rng.random() < 0.3:
                guesses.append(OPEN_GUESS)
            console.enter(game_id, "orders", {"orders": {player: guesses}})
        elif pick < 0.7:
            console.enter(game_id, "publish", {}, {"turn": state.open_turn})
        elif pick < 0.85:
            console.undo(game_id)
        elif state.published:
            turn = rng.randint(1, state.published)
            player = rng.choice(PLAYERS)
            console.enter(game_id, "amend", {"orders": {player: [rng.randint(1, 22)]},
                                             "confirm": True}, {"turn": turn})
    except KitError:
        pass  # refused (nothing to undo, a game already won): nothing recorded


@pytest.mark.parametrize("seed", range(6))
def test_kept_views_equal_a_full_replay_after_every_entry(console: Console,  # noqa: F811
                                                          seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(console)
    for _ in range(40):
        act(console, game, rng)
        same_as_full(console, game)


def test_an_amendment_of_an_earlier_turn_changes_that_turn_and_those_after(
        console: Console) -> None:  # noqa: F811
    game = new_game(console)
    for turn, guesses in enumerate(([1, 2], [4, 5], [6, 7]), start=1):
        console.enter(game, "orders", {"orders": {"Ann": guesses, "Bob": [10, 11]}})
        console.enter(game, "publish", {}, {"turn": turn})
    before = console.view(game, PUBLIC).data["turns"]
    console.enter(game, "amend", {"orders": {"Ann": [9, 14]}, "confirm": True}, {"turn": 1})
    after = console.view(game, PUBLIC).data
    assert after["amended"] == [1]
    assert after["turns"][0] != before[0]  # Ann hit Bob and Cy in turn 1 now
    assert after["turns"][1]["allowance"]["Ann"] == 4 != before[1]["allowance"]["Ann"]
    assert after["identified"]["Ann"] == 2
    same_as_full(console, game)


def test_an_unpublished_entry_leaves_the_public_answer_as_it_was(
        console: Console) -> None:  # noqa: F811
    game = new_game(console)
    console.enter(game, "orders", {"orders": {"Ann": [1, 2]}})
    console.enter(game, "publish", {}, {"turn": 1})
    first = console.public_json(game)
    console.enter(game, "orders", {"orders": {"Ann": [OPEN_GUESS], "Bob": [OPEN_GUESS]}})
    again = console.public_json(game)
    assert again.body == first.body and again.etag == first.etag
    assert f":{OPEN_GUESS}" not in again.body.decode()
    assert json.loads(again.body)["turns"][0]["number"] == 1


def test_a_new_published_turn_plays_that_turn_only(console: Console) -> None:  # noqa: F811
    game = new_game(console)
    for turn in (1, 2, 3):
        console.enter(game, "orders", {"orders": {"Ann": [turn, turn + 4]}})
        console.enter(game, "publish", {}, {"turn": turn})
    kept = console.view(game, PUBLIC).data["turns"]
    state = console.load(game).played.state
    shown = console_record.record(wmn.handed_out(state))
    console.enter(game, "orders", {"orders": {"Bob": [12]}})
    console.enter(game, "publish", {}, {"turn": 4})
    now = console.view(game, PUBLIC).data["turns"]
    assert all(a is b for a, b in zip(kept, now[:3], strict=False))  # made once, kept
    later = console_record.record(wmn.handed_out(console.load(game).played.state))
    assert later.reports[:3] == shown.reports and later.reports[3] is not None
    assert all(a is b for a, b in zip(shown.reports, later.reports[:3], strict=False))
