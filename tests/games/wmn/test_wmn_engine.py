"""What's My Number? engine: house rulings, finishers, every problem at once, loose names,
published snapshots and TOML explanations, on the shared 7-player, 4-turn log
(tests/data/wmn-7p-4t.toml: Ann 17, Bob 42, Cy 8, Dee 55, Eve 29, Fay 36, Gus 3; 1-60)."""

from __future__ import annotations

import copy
import csv
import io
import tomllib
import unicodedata
from pathlib import Path

import pytest

from kit.errors import GameLogError, KitError, Problems
from kit.games.whats_my_number import rules
from kit.games.whats_my_number.report import report_plan
from kit.games.whats_my_number.report.snapshot import snapshot_turn, snapshots
from kit.published import Amendment, CellChange, check_published, diff_snapshots
from kit.tomlhelp import explain

LOG_PATH = Path(__file__).parents[2] / "data" / "wmn-7p-4t.toml"
PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


def seven() -> dict:
    """A fresh copy of the shared log's data."""
    return tomllib.loads(LOG_PATH.read_text(encoding="utf-8"))


def played(data: dict | None = None, **kwargs) -> rules.GameResult:
    return rules.play(rules.parse_game_log(seven() if data is None else data, **kwargs))


def row(report: rules.TurnReport, label: str) -> rules.Row:
    """The row labelled like the snapshot ("Bob 1", "Fay List")."""
    return next(r for r in report.rows if
                (f"{r.player} {r.index}" if isinstance(r, rules.GuessRow)
                 else f"{r.player} List") == label)


def problems_of(data: dict, **kwargs) -> list[str]:
    with pytest.raises(KitError) as caught:
        rules.parse_game_log(data, **kwargs)
    return [str(p) for p in getattr(caught.value, "problems", (caught.value,))]


# --- the seven-player game, turn by turn -------------------------------------------------------


def test_turn_1_a_hit_a_wrong_list_and_an_ignored_guess() -> None:
    turn = played().turns[0]
    assert row(turn, "Bob 1").cells == ("L", "X", "L", "H", "✓", "H", "L")  # Bob finds Eve
    gus = row(turn, "Gus List")
    assert (gus.correct, gus.partial) == (1, False)
    cy3 = row(turn, "Cy 3")
    assert (cy3.status, cy3.number, cy3.bonus, cy3.cells) == ("ignored", 10, False, ("",) * 7)
    assert turn.rulings == (rules.Ruling(1, "Cy", "extra-guesses", numbers=(10,),
                                         positions=(3,), allowed=2),)
    assert turn.hits["Cy"] == 0  # an ignored guess is never answered
    assert {k: v for k, v in turn.next_allowance.items() if v != 2} == {"Bob": 3, "Eve": 4}
    assert turn.no_orders == () and turn.finishers == ()


def test_turn_2_a_bonus_guess_and_no_orders() -> None:
    turn = played().turns[1]
    bob3 = row(turn, "Bob 3")
    assert (bob3.bonus, bob3.status) == (True, "ok")
    assert turn.allowance["Bob"] == 3 and turn.hits["Bob"] == 2
    assert turn.no_orders == ("Cy",)
    assert [r.kind for r in turn.rulings] == ["no-orders"]
    assert not any(r.player == "Cy" for r in turn.rows)
    assert turn.next_allowance["Cy"] == 2


def test_turn_3_void_guess_partial_list_and_extra_guess() -> None:
    result = played()
    turn = result.turns[2]
    eve3 = row(turn, "Eve 3")
    assert (eve3.status, eve3.number, eve3.cells) == ("void", 63, ("",) * 7)
    fay = row(turn, "Fay List")
    assert (fay.correct, fay.partial, fay.listed) == (5, True, 5)  # all right, cannot win
    assert turn.winners == ()
    assert row(turn, "Gus 4").status == "ignored"
    assert [(r.player, r.kind, r.positions, r.missing) for r in turn.rulings] == [
        ("Eve", "out-of-range", (3,), ()), ("Fay", "partial-list", (), ("Gus",)),
        ("Gus", "extra-guesses", (4,), ())]
    assert turn.next_allowance["Dee"] == 5 and turn.next_allowance["Eve"] == 3


def test_turn_4_a_list_beats_three_finishers_by_guesses() -> None:
    result = played()
    turn = result.turns[3]
    assert (result.winners, result.winning_turn, result.reason) == (("Fay",), 4, "list")
    assert turn.finishers == (
        rules.Finisher("Fay", "list", None, True), rules.Finisher("Bob", "guesses", 1, False),
        rules.Finisher("Dee", "guesses", 2, False), rules.Finisher("Eve", "guesses", 3, False))
    assert len(result.rulings) == 5  # every ruling of the game, for the register


def test_without_the_list_the_earliest_guess_position_wins() -> None:
    data = seven()
    data["turn"][3]["Fay"] = [1, 2]
    turn = played(data).turns[3]
    assert turn.winners == ("Bob",) and turn.reason == "guesses"
    assert [(f.player, f.position, f.won) for f in turn.finishers] == [
        ("Bob", 1, True), ("Dee", 2, False), ("Eve", 3, False)]


def test_equal_positions_share_and_a_void_guess_keeps_its_slot() -> None:
    data = seven()
    data["turn"][3]["Fay"] = [1, 2]
    data["turn"][3]["Bob"] = [61, 17]  # void first guess: the hit stays at position 2
    turn = played(data).turns[3]
    assert turn.winners == ("Bob", "Dee")
    assert [(f.player, f.position, f.won) for f in turn.finishers][:2] == [
        ("Bob", 2, True), ("Dee", 2, True)]
    assert played(data).identified["Bob"]["Ann"] == rules.Identification(turn=4, guess=2)


def test_a_blank_line_keeps_the_later_guess_in_its_place() -> None:
    """Bob's slip leaves line 1 blank and finds Ann on line 2: he ties with Dee at place 2 (a
    compacted row would put him first, alone); the blank makes no row and no ruling."""
    data = seven()
    data["turn"][3]["Fay"] = [1, 2]
    data["turn"][3]["Bob"] = [rules.BLANK, 17]
    result = played(data)
    turn = result.turns[3]
    assert turn.winners == ("Bob", "Dee")
    assert [(f.player, f.position) for f in turn.finishers][:2] == [("Bob", 2), ("Dee", 2)]
    assert [r.index for r in turn.rows if r.player == "Bob"] == [2]
    assert not [r for r in turn.rulings if r.player == "Bob"]
    assert result.identified["Bob"]["Ann"] == rules.Identification(turn=4, guess=2)
    # blank lines count as lines: a guess after the allowance's last line is beyond it
    allowed = turn.allowance["Bob"]
    data["turn"][3]["Bob"] = [17, *[rules.BLANK] * (allowed - 1), 9, rules.BLANK]
    bob = [r for r in played(data).turns[3].rulings if r.player == "Bob"]
    assert [(r.kind, r.positions, r.numbers) for r in bob] == [
        ("extra-guesses", (allowed + 1,), (9,))]
    data["turn"][3]["Bob"] = [rules.BLANK, rules.BLANK]  # nothing written: no guesses
    with pytest.raises(KitError, match="no guesses"):
        played(data)


# --- strict: every ruling an error, all at once --------------------------------------------------


def test_strict_gives_every_break_in_one_run() -> None:
    assert problems_of(seven(), strict=True) == [
        "turn 1, player Cy: 3 guesses, but 2 are allowed this turn (2 + 0 hits last turn)",
        "turn 2, player Cy: no orders; with --strict every player gives orders every turn",
        "turn 3, player Eve: guess 63 is outside the range 1 to 60",
        "turn 3, player Fay: the list is missing Gus; a list names every other player exactly "
        "once (Ann, Bob, Cy, Dee, Eve, Gus)",
        "turn 3, player Gus: 4 guesses, but 3 are allowed this turn (2 + 1 hit last turn)"]


def test_every_problem_of_a_log_in_one_pass() -> None:
    data = seven()
    data["secrets"]["Cy"] = 61
    data["turn"][1]["Fey"] = data["turn"][1].pop("Fay")
    data["turn"][2]["Gus"] = [55, "x"]
    data["turn"][3]["Fay"]["list"]["Zed"] = 4
    assert problems_of(data) == [
        "secrets.Cy: 61 is outside the range 1 to 60; secrets are whole numbers from 1 to 60",
        'turn 2, player Fey: "Fey" is not a player; did you mean Fay? players are Ann, Bob, Cy, '
        "Dee, Eve, Fay, Gus",
        'turn 4, player Fay: the list names "Zed" is not a player; players are Ann, Bob, Cy, '
        "Dee, Eve, Fay, Gus"]
    del data["secrets"]["Cy"]  # the log now plays: the bad guess is found too
    data["secrets"]["Cy"] = 8
    data["turn"][1]["Fay"] = data["turn"][1].pop("Fey")
    del data["turn"][3]["Fay"]["list"]["Zed"]
    assert problems_of(data) == [
        'turn 3, player Gus: guess 2 is "x", not a whole number; guesses are whole numbers '
        "from 1 to 60"]


def test_a_single_problem_is_raised_as_itself() -> None:
    data = seven()
    data["turn"][0]["Ann"] = []
    with pytest.raises(GameLogError) as caught:
        rules.parse_game_log(data)
    assert not isinstance(caught.value, Problems)
    assert caught.value.field == "turn 1, player Ann"


# --- names ---------------------------------------------------------------------------------------


def test_names_match_after_case_folding_and_nfc() -> None:
    data = seven()
    data["players"][4] = "Zoë"  # composed ë
    data["secrets"]["Zoë"] = data["secrets"].pop("Eve")
    for turn in data["turn"]:
        turn["zoe\u0308"] = turn.pop("Eve")  # lower case, decomposed: still Zoë
        for orders in turn.values():
            if isinstance(orders, dict) and "Eve" in orders["list"]:
                orders["list"]["ZOË"] = orders["list"].pop("Eve")
    data["turn"][0]["ANN"] = data["turn"][0].pop("Ann")
    loose = played(data)
    assert unicodedata.normalize("NFD", "Zoë") != "Zoë"
    assert [r.player for r in loose.turns[0].rows][:2] == ["Ann", "Ann"]
    assert loose.winners == ("Fay",)
    assert [f.player for f in loose.turns[3].finishers] == ["Fay", "Bob", "Dee", "Zoë"]


def test_names_match_exactly_when_folding_is_ambiguous() -> None:
    names = rules.Names(["Ann", "ANN", "Bob", "Cy"])
    assert names.match("ANN") == "ANN" and names.match("Ann") == "Ann"
    assert names.match("ann") is None
    assert names.match("bob") == "Bob"


def test_the_same_player_twice_in_one_turn() -> None:
    data = seven()
    data["turn"][0]["ann"] = [1, 2]
    assert problems_of(data) == [
        'turn 1, player Ann: orders given twice (also as "ann"); keep one entry a turn']


def test_unknown_secret_suggests_the_nearest_player() -> None:
    data = seven()
    data["secrets"]["Guss"] = data["secrets"].pop("Gus")
    assert problems_of(data) == [
        'secrets.Guss: "Guss" is not a player; did you mean Gus? players are Ann, Bob, Cy, '
        "Dee, Eve, Fay, Gus",
        "secrets.Gus: no secret number given; secrets are whole numbers from 1 to 60"]


# --- published snapshots and amendments -----------------------------------------------------------


def test_a_correction_of_turn_2_changes_cells_of_turns_2_and_3() -> None:
    before = snapshots(played())
    data = seven()
    data["turn"][1]["Ann"] = [8, 45]  # Ann wrote 8; 10 was typed
    after = snapshots(played(data))
    assert diff_snapshots(before[1], after[1]) == []
    assert [str(c) for c in diff_snapshots(before[2], after[2])] == [
        "turn 2, row Ann 1, column Cy: L -> ✓", "turn 2, row Ann 2, column Cy: L -> X",
        "turn 2, row Next turn, column Ann: 2 -> 3"]
    assert [str(c) for c in diff_snapshots(before[3], after[3])] == [
        "turn 3, row Ann 1, column Cy: H -> X", "turn 3, row Ann 2, column Cy: L -> X"]


def test_published_turns_refuse_a_change_unless_amended() -> None:
    record, new = check_published({"turns": {}}, snapshots(played()), 3, amend=False)
    assert new == () and list(record["turns"]) == ["1", "2", "3"]
    data = seven()
    data["turn"][1]["Ann"] = [8, 45]
    changed = snapshots(played(data))
    with pytest.raises(Problems) as caught:
        check_published(record, changed, 3, amend=False)
    assert [p.field for p in caught.value.problems][:2] == [
        "turn 2, row Ann 1, column Cy", "turn 2, row Ann 2, column Cy"]
    assert len(caught.value.problems) == 5
    # published = 1: turns 2 and 3 were never handed out, so nothing is refused
    assert check_published({"turns": {"1": record["turns"]["1"]}}, changed, 1, False)[1] == ()
    amended, found = check_published(record, changed, 3, amend=True)
    assert [a.turn for a in found] == [2, 3]
    assert found[0] == Amendment(2, (CellChange(2, "Ann 1", "Cy", "L", "✓"),
                                     CellChange(2, "Ann 2", "Cy", "L", "X"),
                                     CellChange(2, "Next turn", "Ann", "2", "3")))
    assert amended["turns"]["2"] == changed[2] and len(amended["amendments"]) == 2


def test_a_snapshot_marks_rulings() -> None:
    turn = played().turns[2]
    shot = snapshot_turn(turn, PLAYERS)
    assert shot["rows"]["Eve 3"]["status"] == "void"
    assert shot["rows"]["Fay List"] == {"correct": 5, "status": "partial"}
    assert shot["rows"]["Result"] == {"no orders": "", "winners": ""}


# --- csv ---------------------------------------------------------------------------------------


def test_csv_one_row_per_guess_and_answer() -> None:
    log = rules.parse_game_log(seven())
    rows = list(csv.reader(io.StringIO(report_plan.csv_text(log))))
    assert rows[0] == list(report_plan.CSV_COLUMNS)
    turn1 = [r for r in rows[1:] if r[0] == "1"]
    assert turn1[:2] == [["1", "Ann", "1", "30", "ok", "no", "Bob", "H"],
                         ["1", "Ann", "1", "30", "ok", "no", "Cy", "L"]]
    assert ["1", "Bob", "1", "29", "ok", "no", "Eve", "✓"] in turn1
    assert ["1", "Cy", "3", "10", "ignored", "", "", ""] in turn1
    assert ["1", "Gus", "list", "", "ok", "", "", "1"] in turn1
    assert ["2", "Cy", "", "", "no-orders", "", "", ""] in rows
    assert ["2", "Bob", "3", "20", "ok", "yes", "Ann", "L"] in rows
    assert ["3", "Eve", "3", "63", "void", "", "", ""] in rows
    assert ["3", "Fay", "list", "", "partial", "", "", "5"] in rows
    answered = sum(1 for t in played().turns for r in t.rows
                   if isinstance(r, rules.GuessRow) and r.status == "ok")
    assert len([r for r in rows[1:] if r[4] == "ok" and r[2] != "list"]) == answered * 6


# --- TOML explained ------------------------------------------------------------------------------


def _toml_error(text: str) -> str:
    with pytest.raises(tomllib.TOMLDecodeError) as caught:
        tomllib.loads(text)
    return explain(text, str(caught.value))


def test_toml_a_table_split_over_lines() -> None:
    text = '[[turn]]\nFay = { list = { Ann = 17, Bob = 42,\n  Cy = 8 } }\n'
    assert _toml_error(text) == (
        "line 2, column 37: the { ... } of a list or table must be on one line; join this "
        "line with the next (a [ ... ] list may be split over lines, a { ... } may not) "
        "(TOML: Invalid initial character for a key part)")


def test_toml_the_same_player_twice() -> None:
    assert _toml_error("[[turn]]\nAnn = [1]\nAnn = [2]\n") == (
        "line 3, column 10: a name is given twice in one table; in a game log that is usually "
        "the same player twice in one turn: keep one entry (orders that arrive late belong to "
        "the next turn) (TOML: Cannot overwrite a value)")


def test_toml_names_without_quotes() -> None:
    assert _toml_error('players = [Ann, Bob]\n').startswith(
        'line 1, column 12: a value must be a number, "text in quotes"')


def test_copy_of_the_log_is_untouched() -> None:
    data = seven()
    kept = copy.deepcopy(data)
    played(data)
    assert data == kept
