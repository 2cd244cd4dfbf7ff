"""The Lowest Unique Number log as a host keeps it at a party: rounds appended as they come in,
tables at different rounds (provisional standings), every mistake at once with its line, names
in any case, CSV rows, and the winner line once the party is over."""

from __future__ import annotations

import csv
import io
import re
import tomllib
from pathlib import Path

import pytest
from pypdf import PdfReader
from support.helpers import LUN_ONE_TABLE_LOG, LUN_TWO_TABLES_LOG, plain, texts

from kit.cli import main
from kit.errors import ConfigError, GameLogError, Problems
from kit.games.lowest_unique.report.reports import csv_report, text_report
from kit.games.lowest_unique.rules import Tally, tally
from kit.games.lowest_unique.rules.log import parse_party_log, read_party_log
from kit.i18n import words

EN = words("en")
DATA = Path(__file__).parents[2] / "data"
THREE_TABLES = (DATA / "lun-three-tables.toml").read_text(encoding="utf-8")
FINISHED = (DATA / "lun-finished.toml").read_text(encoding="utf-8")
BROKEN = (DATA / "lun-broken.toml").read_text(encoding="utf-8")
PROGRESS = ("round 3 at table 1, round 2 at table 2, round 1 at table 3; the party plays "
            "5 rounds.")


def problems(text: str, *, lines: bool = True) -> list[str]:
    """Every problem of a log, as the command line words each (without "Error: ")."""
    with pytest.raises(Problems) as caught:
        if lines:
            read_party_log(text)
        else:
            parse_party_log(tomllib.loads(text))
    return [str(p) for p in caught.value.problems]


def round_form(text: str) -> str:
    """The same log with every [[table.round]] rewritten as a top-level [[round]] at the end."""
    data = tomllib.loads(text)
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("[["):
            inside = line.startswith("[[table.round]]")
        if not inside:
            out.append(line)
    for t, table in enumerate(data["table"], start=1):
        for r, choices in enumerate(table.get("round", []), start=1):
            inline = ", ".join(f"{k} = {v!r}".replace("'", '"') for k, v in choices.items())
            out += ["", "[[round]]", f"table = {t}", f"round = {r}", f"choices = {{ {inline} }}"]
    return "\n".join(out) + "\n"


def report(tmp_path: Path, name: str, text: str) -> Path:
    """Run ``kit report`` on ``text``; returns the report folder it wrote."""
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", str(path), "--out", str(out)]) == 0
    (folder,) = [p for p in out.iterdir() if not p.name.startswith(".")]
    return folder


# --- tables at different rounds ---------------------------------------------------------------

def test_three_tables_at_different_rounds_are_provisional() -> None:
    party = read_party_log(THREE_TABLES)
    assert [t.played for t in party.tables] == [3, 2, 1] and party.rounds == 5
    assert not party.finished
    assert party.progress() == [(3, [1]), (2, [2]), (1, [3])]
    assert party.standings()[:6] == [(1, "Ann", 1, 1), (1, "Dee", 1, 1), (1, "Hal", 2, 1),
                                     (1, "Ida", 2, 1), (1, "Max", 3, 1), (6, "Bob", 1, 0)]
    text = text_report(party, EN)
    assert ("\nProvisional standings\n\nAfter " + PROGRESS + "\n\n| Place | Player | Table | "
            "Points |\n") in text
    assert "| Max | 1 |  |  |  |  | 1 | 1 |" in text  # rounds not played yet are empty
    assert "Party standings" not in text
    assert not re.search("wins with|share first place", text)
    assert text.endswith("\nProvisional standings: after " + PROGRESS + "\n")


def test_provisional_standings_in_the_pdf_and_html(tmp_path: Path) -> None:
    folder = report(tmp_path, "friday", THREE_TABLES)
    pdf = folder / "results.pdf"
    pages = [plain(p) for p in texts(pdf)]
    # standings, then each table's tally and score sheet, then the night in charts
    assert len(pages) == 8 and "The night in charts" in pages[7]
    assert "Lowest Unique Number · Provisional standings" in pages[0]  # the running head
    assert "Provisional standings After " + PROGRESS + " Equal points share a place." in pages[0]
    assert "1 Max 3 1" in pages[0] and "6 Lee 3 0" in pages[0]
    assert not any(re.search("wins with|share first place|Party standings", p) for p in pages)
    assert "Table 3 · Round tally" in pages[5] and "2, 2, 3, 5" in pages[5]
    reader = PdfReader(pdf)
    assert [(o.title, reader.get_destination_page_number(o)) for o in reader.outline] == [
        ("Provisional standings", 0), ("Table 1", 1), ("Table 2", 3), ("Table 3", 5),
        ("The night in charts", 7)]
    html = (folder / "results.html").read_text(encoding="utf-8")
    assert all(f'id="{name}"' in html for name in ("standings", "table-1", "table-2", "table-3"))
    assert "Provisional standings" in html


def test_one_table_part_way_and_before_its_first_round() -> None:
    part_way = read_party_log(LUN_ONE_TABLE_LOG.replace("rounds = 2", "rounds = 4"))
    assert text_report(part_way, EN).endswith(
        "| Dee | 0 | 1 |  |  | 1 | 1 |\n\nProvisional standings: after round 2 of 4.\n")
    seated = read_party_log('game = "lowest-unique"\n[[table]]\nplayers = ["Ann", "Bob", "Cy"]\n')
    assert seated.tables[0].played == 0 and not seated.finished
    assert text_report(seated, EN).endswith(
        "| Cy |  |  |  |  |  | 0 | 1 |\n\nProvisional standings: no round played yet; the game "
        "has 5 rounds.\n")


def test_a_finished_party_names_its_winner(tmp_path: Path) -> None:
    party = read_party_log(FINISHED)
    assert party.finished and [t.played for t in party.tables] == [2, 2]
    text = text_report(party, EN)
    assert "\nParty standings\n\n| Place |" in text and "Provisional" not in text
    assert text.endswith("\nAnn wins with 2 points.\n")
    pages = [plain(p) for p in texts(report(tmp_path, "done", FINISHED) / "results.pdf")]
    assert "Party standings 7 players at 2 tables, 2 rounds each." in pages[0]
    assert "1 Ann 1 2 2 Eve 2 1 2 Gus 2 1 4 Bob 1 0" in pages[0]
    assert "4 Fay 2 0 Ann wins with 2 points." in pages[0]  # under the table
    assert not any("Provisional" in p for p in pages)


# --- the append form ----------------------------------------------------------------------------

def test_rounds_may_come_in_any_order_and_place() -> None:
    blocks = THREE_TABLES.split("\n[[round]]\n")
    head, rounds = blocks[0], blocks[1:]
    shuffled = head + "".join("\n[[round]]\n" + b.rstrip("\n") + "\n"
                              for b in [rounds[i] for i in (5, 2, 0, 4, 1, 3)])
    assert shuffled != THREE_TABLES
    assert read_party_log(shuffled) == read_party_log(THREE_TABLES)
    # table 1's rounds as written: 1, 3, 2 in the file; scored as rounds 1, 2, 3
    table = read_party_log(THREE_TABLES).tables[0]
    assert [r.number for r in table.rounds] == [1, 2, 3]
    assert [r.winner for r in table.rounds] == ["Ann", "Dee", None]


def test_the_older_form_is_still_read_and_means_the_same() -> None:
    for text in (LUN_ONE_TABLE_LOG, LUN_TWO_TABLES_LOG, FINISHED):
        rewritten = round_form(text)
        assert "[[table.round]]" not in rewritten and "[[round]]" in rewritten
        assert read_party_log(rewritten) == read_party_log(text)
    assert text_report(read_party_log(round_form(LUN_TWO_TABLES_LOG)), EN) == text_report(
        parse_party_log(tomllib.loads(LUN_TWO_TABLES_LOG)), EN)


# --- errors --------------------------------------------------------------------------------------

BROKEN_PROBLEMS = [
    "table 2, round 1: 'Mxa' does not sit at this table; did you mean Max?",
    "table 2, round 1: 'Lee' wrote '11'; give a whole number from 1 to 10, or \"pass\"",
    "table 1, round 1: logged twice, at {}; keep one",
    "[[round]] #4: table must be the number of a [[table]] above, 1 to 2; got '3'",
    "table 2, round 3: round 2 is not logged; log every round of a table, 1, 2, 3, ...",
    "table 2, round 3: 'Kim' wrote 'skip'; give a whole number from 1 to 10, or \"pass\"",
]
BROKEN_LINES = [19, 19, 21, 27, 31, 34]


def with_lines(messages: list[str]) -> list[str]:
    return [f"line {n}, " + m.format("lines 11 and 21")
            for n, m in zip(BROKEN_LINES, messages, strict=True)]


def test_every_problem_at_once_each_at_its_line() -> None:
    assert problems(BROKEN) == with_lines(BROKEN_PROBLEMS)
    # without the text (the console's dict) the same problems, without lines
    # (in the order they were found: entries, their order, then each round's choices)
    assert problems(BROKEN, lines=False) == [
        BROKEN_PROBLEMS[i].format("[[round]] #1 and [[round]] #3") for i in (3, 2, 4, 0, 1, 5)]


def test_kinds_of_problem() -> None:
    with pytest.raises(Problems) as caught:
        read_party_log(BROKEN)
    kinds = [type(p) for p in caught.value.problems]
    assert kinds == [GameLogError] * 6  # rule breaks of the log (header keys: ConfigError)
    with pytest.raises(Problems) as caught:
        read_party_log(THREE_TABLES.replace('title = "Friday party"', "rounds = 0"))
    assert [(type(p), str(p)) for p in caught.value.problems] == [
        (ConfigError, "rounds: must be a whole number from 1 to 12; got '0'")]


def test_the_command_line_prints_every_problem_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(BROKEN, encoding="utf-8")
    assert main(["report", str(path), "--out", str(tmp_path / "out")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and not (tmp_path / "out").exists()
    assert err.splitlines() == ["Error: " + p for p in with_lines(BROKEN_PROBLEMS)]


STRUCTURE = [
    ('[[round]]\ntable = 1\nround = 6\nchoices = { Ann = 1, Bob = 2, Cy = 3 }\n',
     ["line 7, [[round]] #1: round must be a whole number from 1 to 5 (the game's rounds); "
      "got '6'"]),
    ('[[round]]\ntable = 1\nround = 1\nchoice = { Ann = 1 }\n',
     ['line 5, table 1, round 1: choices must be an inline table, like choices = { Ann = 3, '
      'Dee = "pass" }',
      "line 8, [[round]] #1: unknown key 'choice'; a [[round]] has table, round and choices"]),
    ('[round]\ntable = 1\n',
     ["round: rounds are [[round]] tables (double brackets), one per round, each with table, "
      "round and choices"]),
]


@pytest.mark.parametrize(("tail", "expected"), STRUCTURE)
def test_a_round_block_that_is_not_a_round(tail: str, expected: list[str]) -> None:
    text = 'game = "lowest-unique"\n[[table]]\nplayers = ["Ann", "Bob", "Cy"]\n\n' + tail
    assert problems(text) == expected


def test_the_older_form_names_lines_too() -> None:
    text = LUN_TWO_TABLES_LOG.replace("Gus = 2", "Gus = 0").replace("Cy = 5", "cy = 5\nCY = 6")
    assert problems(text) == [
        "line 17, table 1, round 2: 'cy' and 'CY' both name Cy; give each player once",
        "line 26, table 2, round 1: 'Gus' wrote '0'; give a whole number from 1 to 10, or "
        '"pass"']
    too_many = LUN_TWO_TABLES_LOG.replace("rounds = 2", "rounds = 1")
    assert problems(too_many) == [
        f"line {n}, table {t}, round 2: the game has 1 round (set rounds = 2 if the party "
        "plays that many)" for n, t in ((13, 1), (27, 2))]


# --- names -----------------------------------------------------------------------------------

SEATED = 'game = "lowest-unique"\n[[table]]\nplayers = ["Jo", "Kim", "Lee", "Max", "Zoë"]\n'


def seated(choices: str) -> str:
    return SEATED + f"[[round]]\ntable = 1\nround = 1\nchoices = {{ {choices} }}\n"


def test_names_match_in_any_case_and_normal_form() -> None:
    party = read_party_log(seated('jo = 1, KIM = 2, "lee" = 2, max = 3, "Zoe\u0308" = 5'))
    (r,) = party.tables[0].rounds
    assert r.choices == (("Jo", 1), ("Kim", 2), ("Lee", 2), ("Max", 3), ("Zoë", 5))
    assert r.winner == "Jo"


def test_an_unknown_name_suggests_the_nearest_player() -> None:
    assert problems(seated('Jo = 1, Kim = 2, Lee = 2, Mxa = 3, "Zoë" = 5')) == [
        "line 7, table 1, round 1: 'Mxa' does not sit at this table; did you mean Max?"]
    assert problems(seated('Jo = 1, Kim = 2, Lee = 2, Maxx = 3, Zoe = 5')) == [
        "line 7, table 1, round 1: 'Maxx' does not sit at this table; did you mean Max?",
        "line 7, table 1, round 1: 'Zoe' does not sit at this table; did you mean Zoë?"]
    assert problems(seated('Jo = 1, Kim = 2, Lee = 2, Max = 3, Quentin = 5')) == [
        "line 4, table 1, round 1: no choice for Zoë; every player writes a number or \"pass\" "
        "in every round",
        "line 7, table 1, round 1: 'Quentin' does not sit at this table; its players are Jo, "
        "Kim, Lee, Max, Zoë"]
    assert problems(seated('Jo = 1, Kim = 2, Lee = 2, max = 3, Max = 4, "Zoë" = 5')) == [
        "line 7, table 1, round 1: 'max' and 'Max' both name Max; give each player once"]


# --- tallies and CSV ---------------------------------------------------------------------------

def test_the_round_tally_the_console_shows() -> None:
    shown = tally({"Ann": 3, "Bob": 1, "Cy": 1, "Dee": "PASS"})
    assert shown == Tally(choices=(1, 1, 3), passes=1, cancelled=(1,), singles=(3,),
                          winning_number=3, winner="Ann")
    assert read_party_log(FINISHED).tables[0].rounds[0].tally == shown
    assert tally({"Eve": 8, "Fay": 8, "Gus": None}).winner is None
    with pytest.raises(ValueError, match="Gus"):
        tally({"Eve": 1, "Gus": "x"})


def test_csv_has_a_row_per_player_and_round() -> None:
    rows = list(csv.reader(io.StringIO(csv_report(read_party_log(FINISHED)))))
    assert rows[0] == ["table", "round", "player", "choice", "cancelled", "point"]
    assert rows[1:5] == [["1", "1", "Ann", "3", "no", "1"], ["1", "1", "Bob", "1", "yes", "0"],
                         ["1", "1", "Cy", "1", "yes", "0"], ["1", "1", "Dee", "pass", "", "0"]]
    assert rows[-3:] == [["2", "2", "Eve", "8", "yes", "0"], ["2", "2", "Fay", "8", "yes", "0"],
                         ["2", "2", "Gus", "7", "no", "1"]]
    assert len(rows) == 1 + 4 * 2 + 3 * 2
    provisional = list(csv.reader(io.StringIO(csv_report(read_party_log(THREE_TABLES)))))
    assert len(provisional) == 1 + 4 * 3 + 5 * 2 + 4 * 1  # rounds played so far only
    comma = seated('Jo = 1, Kim = 2, Lee = 2, Max = 3, "Zoë" = 5').replace('"Jo"', '"Jo, Jr."')
    tricky = csv_report(read_party_log(comma.replace("Jo =", '"Jo, Jr." =')))
    assert '1,1,"Jo, Jr.",1,no,1\n' in tricky  # quoted by the csv module


def test_choices_as_a_table_of_their_own_name_their_lines() -> None:
    text = ('game = "lowest-unique"\n[[table]]\nplayers = ["Ann", "Bob", "Cy"]\n\n'
            "[[round]]  # table 1's first\ntable = 1\nround = 1\n[round.choices]\nAnn = 1\n"
            "Bob = 0\nCyy = 2\n")
    assert problems(text) == [
        "line 10, table 1, round 1: 'Bob' wrote '0'; give a whole number from 1 to 10, or "
        '"pass"',
        "line 11, table 1, round 1: 'Cyy' does not sit at this table; did you mean Cy?"]
    fixed = read_party_log(text.replace("Bob = 0", "Bob = 3").replace("Cyy", "cy"))
    assert fixed.tables[0].rounds[0].winner == "Ann"


def test_kit_report_format_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "friday.toml"
    path.write_text(THREE_TABLES, encoding="utf-8")
    assert main(["report", str(path), "--format", "csv", "--out", str(tmp_path / "out")]) == 0
    out, err = capsys.readouterr()
    assert err == "" and not (tmp_path / "out").exists()
    assert out == csv_report(read_party_log(THREE_TABLES))
    assert out.splitlines()[-4:] == ["3,1,Jo,2,yes,0", "3,1,Kim,2,yes,0", "3,1,Lee,5,no,0",
                                     "3,1,Max,3,no,1"]


TRAP = LUN_TWO_TABLES_LOG.replace("rounds = 2", "rounds = 3") + """
[[table.round]]
Ann = 1
Bob = 2
Cy = 2
Dee = 3
"""


def test_an_older_form_round_appended_at_the_end_is_caught_where_it_is() -> None:
    # TOML gives a [[table.round]] to the last [[table]] above it: table 2 here, not table 1
    assert problems(TRAP) == [
        "line 32, table 2, round 3: these are the players of table 1; a [[table.round]] belongs "
        "to the [[table]] above it, so log this round as a [[round]] with table = 1 and its "
        "round number"]
    moved = TRAP.replace("\n[[table.round]]\nAnn = 1", "\n[[round]]\ntable = 1\nround = 3\n"
                         "[round.choices]\nAnn = 1")
    assert [t.played for t in read_party_log(moved).tables] == [3, 2]
    wrong_table = THREE_TABLES.replace("table = 1\nround = 2", "table = 2\nround = 3")
    assert problems(wrong_table) == [  # table 1 now lacks its round 2, too
        "line 34, table 1, round 3: round 2 is not logged; log every round of a table, 1, 2, "
        "3, ...",
        "line 39, table 2, round 3: these are the players of table 1, not of table 2; check "
        "table = 2"]


def test_a_name_from_another_table_says_where_it_sits() -> None:
    text = THREE_TABLES.replace("Jo = 2, Kim = 2", "Jo = 2, Ann = 2")
    assert problems(text) == [
        "line 24, table 3, round 1: no choice for Kim; every player writes a number or \"pass\" "
        "in every round",
        "line 27, table 3, round 1: 'Ann' sits at table 1, not at this table"]


def test_the_log_format_reference_says_what_kit_report_does() -> None:
    reference = Path(__file__).parents[3] / "docs" / "reference" / "log-format.md"
    text = reference.read_text(encoding="utf-8")
    section = text[text.index("**Lowest Unique Number** writes"):]
    example = section[section.index("```toml\n") + 8:]
    example = example[:example.index("\n```")]
    party = read_party_log(example)
    assert [t.played for t in party.tables] == [1, 1] and not party.finished
    errors = section[section.index("```text\n") + 8:]
    errors = errors[:errors.index("\n```")]
    assert errors.splitlines() == ["Error: " + p for p in with_lines(BROKEN_PROBLEMS)]
    rows = section[section.index("table,round,player"):]
    rows = rows[:rows.index("\n```")]
    assert csv_report(read_party_log(THREE_TABLES)).startswith(rows + "\n")


def test_players_named_like_the_keys_of_a_round() -> None:
    text = ('game = "lowest-unique"\n[[table]]\nplayers = ["table", "Round", "Cy"]\n\n'
            "[[round]]\ntable = 1\nround = 1\nchoices = { table = 0, round = 1, Cy = 2 }\n")
    assert problems(text) == [
        "line 8, table 1, round 1: 'table' wrote '0'; give a whole number from 1 to 10, or "
        '"pass"']
    fixed = read_party_log(text.replace("table = 0", "table = 3"))
    assert fixed.tables[0].rounds[0].choices == (("table", 3), ("Round", 1), ("Cy", 2))
