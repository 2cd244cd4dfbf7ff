"""The GM page's cost does not grow with the game: the published turns it lays out are the
latest ones within an answer budget, and a big grid's list boxes are the boxes it needs."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the console needs the web extra")

from kit.games.whats_my_number import console_turns  # noqa: E402
from kit.games.whats_my_number.console_grid import grid_rows  # noqa: E402
from kit.i18n import words  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def log(turns: int) -> dict:
    """A game of ``turns`` published turns, two guesses a player each, nobody hit."""
    return {"game": "whats-my-number", "players": PLAYERS, "range": "1-30",
            "secrets": {"Ann": 21, "Bob": 22, "Cy": 23, "Dee": 24}, "published": turns,
            "turn": [{p: [turn, turn + 5] for p in PLAYERS} for turn in range(1, turns + 1)]}


def test_the_latest_turns_within_the_answer_budget_newest_first() -> None:
    game = log(6)
    # each turn: 8 guess rows of 4 answers = 32 answers
    shown, _ = console_turns.published_reports(game, 6, words("en"), recent=10, cells=70)
    assert [t["number"] for t in shown] == [6, 5]
    shown, _ = console_turns.published_reports(game, 6, words("en"), recent=3, cells=10_000)
    assert [t["number"] for t in shown] == [6, 5, 4]
    # the latest turn is shown even alone past the budget
    shown, _ = console_turns.published_reports(game, 6, words("en"), recent=10, cells=5)
    assert [t["number"] for t in shown] == [6]
    assert len(shown[0]["rows"]) == 8 and all(len(r["cells"]) == 4 for r in shown[0]["rows"])


def test_the_gm_page_says_where_the_turns_it_leaves_out_are(monkeypatch) -> None:
    from kit.console.specs import console_of

    monkeypatch.setattr(console_turns, "RECENT_CELLS", 70)
    game = log(6)
    seen = {"published": 6, "log": game, "players": PLAYERS, "secrets": game["secrets"],
            "lang": "en"}
    page = console_of("whats-my-number").gm_page(seen, words("en"), {}, None, None)
    assert [t["number"] for t in page.context["reports"]] == [6, 5]
    assert page.context["older_turns"] == 4


def test_list_boxes_escape_names_and_keep_typed_values() -> None:
    players = ["A&B", "<Cy>", "Dee"]
    rows = grid_rows(players, {p: 2 for p in players}, {"Dee": {"list": {"A&B": 7}}},
                     words("en"), posted={"l2_1": "9<", "t2": "1"})
    html = str(rows[2]["list"])
    assert 'for="l2_0">A&amp;B<' in html and 'for="l2_1">&lt;Cy&gt;<' in html
    assert 'value=""' in html and 'value="9&lt;"' in html  # posted values win over entries
    assert html.count("<input") == 2 and 'data-enter="row"' in html.split("\n")[-1]
    entered = grid_rows(players, {p: 2 for p in players}, {"Dee": {"list": {"A&B": 7}}},
                        words("en"))
    assert 'id="l2_0" name="l2_0" value="7"' in str(entered[2]["list"])
    assert "<script" not in html
