"""``kit report`` for Lowest Unique Number: the log's rules, the scoring, the files and text."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from support.helpers import LUN_ONE_TABLE_LOG, LUN_TWO_TABLES_LOG, texts

from kit.cli import main
from kit.errors import ConfigError, GameLogError, Problems
from kit.games.lowest_unique.report.reports import leaders_line, text_report
from kit.games.lowest_unique.rules.log import parse_party_log
from kit.i18n import words

EN = words("en")

ONE_TABLE = LUN_ONE_TABLE_LOG
TWO_TABLES = LUN_TWO_TABLES_LOG


def log(text: str):
    return parse_party_log(tomllib.loads(text))


def test_rounds_are_scored_by_the_rule() -> None:
    table = log(ONE_TABLE).tables[0]
    first, second = table.rounds
    assert first.result.choices == (1, 1, 3) and first.result.passes == 1
    assert first.result.cancelled == (1,) and first.winner == "Ann"
    assert second.result.singles == (4, 5) and second.winner == "Dee"
    assert table.totals == {"Ann": 1, "Bob": 0, "Cy": 0, "Dee": 1}
    assert table.places == {"Ann": 1, "Dee": 1, "Bob": 3, "Cy": 3}  # equal totals share


def test_party_standings_and_the_winner_line() -> None:
    party = log(TWO_TABLES)
    assert party.standings() == [(1, "Ann", 1, 1), (1, "Dee", 1, 1), (1, "Eve", 2, 1),
                                 (4, "Bob", 1, 0), (4, "Cy", 1, 0), (4, "Fay", 2, 0),
                                 (4, "Gus", 2, 0)]
    assert leaders_line(party, EN) == "Ann, Dee and Eve share first place with 1 point."
    single = log(ONE_TABLE.replace("Dee = 4", "Dee = 5"))  # round 2: all cancel
    assert leaders_line(single, EN) == "Ann wins with 1 point."


def test_text_output_is_markdown_and_ends_with_the_winner() -> None:
    text = text_report(log(TWO_TABLES), EN)
    assert text.startswith("Table 1\n\n| Round | All choices | Cancelled | Surviving singles | "
                           "Winner |\n|---|---|---|---|---|\n| 1 | 1, 1, 3 (1 pass) | 1 | 3 | "
                           "Ann (3) |\n")
    assert "| Player | R1 | R2 | Total | Place |\n|---|---|---|---|---|\n| Ann | 1 | 0 | 1 | 1 |" \
        in text
    assert "| 2 | 8, 8, 8 | 8 | none | no winner |" in text
    assert "Party standings\n\n| Place | Player | Table | Points |\n|---|---|---|---|\n" in text
    assert text.endswith("\nAnn, Dee and Eve share first place with 1 point.\n")


ERRORS = [
    (ONE_TABLE.replace('Dee = "pass"', 'Dee = "skip"'),
     GameLogError, 'table 1, round 1: \'Dee\' wrote \'skip\'; give a whole number from 1 to 10, '
     'or "pass"'),
    (ONE_TABLE.replace("Cy = 5", "Cy = 11"),
     GameLogError, "table 1, round 2: 'Cy' wrote '11'; give a whole number from 1 to 10, or "
     '"pass"'),
    (ONE_TABLE.replace("Cy = 5\n", ""),
     GameLogError, 'table 1, round 2: no choice for Cy; every player writes a number or "pass" '
     "in every round"),
    (ONE_TABLE.replace("Ann = 2", "Zed = 2"),  # no name close to Zed: the players, and who is left
     GameLogError, ["table 1, round 2: 'Zed' does not sit at this table; its players are Ann, "
                    "Bob, Cy, Dee", "table 1, round 2: no choice for Ann; every player writes a "
                    'number or "pass" in every round']),
    (ONE_TABLE.replace('"Cy", "Dee"]', '"Cy", "Dee", "ann"]'),
     GameLogError, "table 1: 'ann' is listed twice (this table); give every player a different "
     "name"),
    (ONE_TABLE.replace('["Ann", "Bob", "Cy", "Dee"]', '["Ann", "Bob"]'),
     GameLogError, "table 1: 2 players; a table seats 3 to 12"),
    (ONE_TABLE.replace("rounds = 2", "rounds = 1"),  # fewer is fine now: provisional standings
     GameLogError, "table 1, round 2: the game has 1 round (set rounds = 2 if the party plays "
     "that many)"),
    (TWO_TABLES.replace('"Eve", "Fay"', '"Eve", "Bob"'),
     GameLogError, "table 2: 'Bob' is listed twice (tables 1 and 2); give every player a "
     "different name"),
    (ONE_TABLE.replace("Ann = 3", "Ann = true"),
     GameLogError, "table 1, round 1: 'Ann' wrote 'True'; give a whole number from 1 to 10, or "
     '"pass"'),
    (ONE_TABLE.replace('game = "lowest-unique"', 'game = "lowest-unique"\nrange = "1-3"'),
     ConfigError, "range: 1-3 holds fewer than 4 numbers; the game needs at least 4, e.g. 1-10"),
    ('game = "lowest-unique"\n', ConfigError, "table: give one or more [[table]] entries, each "
     "with its players"),
]


@pytest.mark.parametrize(("text", "kind", "message"), ERRORS)
def test_rule_breaks_name_the_table_and_round(text: str, kind: type,
                                              message: str | list[str]) -> None:
    with pytest.raises(Problems) as caught:  # every problem at once
        log(text)
    messages = [message] if isinstance(message, str) else message
    assert [(type(p), str(p)) for p in caught.value.problems] == [(kind, m) for m in messages]


def test_a_custom_range_and_its_rounds(tmp_path: Path) -> None:
    custom = ONE_TABLE.replace('game = "lowest-unique"', 'game = "lowest-unique"\nrange = "1-20"'
                               ).replace("Cy = 5", "Cy = 17")
    party = log(custom)
    assert party.range == (1, 20)
    assert party.tables[0].rounds[1].result.choices == (2, 2, 4, 17)


def test_files_for_a_party(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "party.toml"
    path.write_text(TWO_TABLES)
    assert main(["report", str(path), "--out", str(tmp_path / "out")]) == 0
    written = capsys.readouterr().out.split()
    folder = tmp_path / "out" / "party-reports"
    assert written == [str(folder / "results.html"), str(folder / "results.pdf")]
    pages = texts(folder / "results.pdf")
    assert "Party standings" in pages[0] and "Ann, Dee and Eve share first place" in pages[0]
    assert "Table 1 · Round tally" in pages[1] and "1, 1, 3 (1 pass)" in pages[1]
    assert "Table 2 · Score sheet" in pages[4]
    assert len(pages) == 6 and "The night in charts" in pages[5]
    assert "Eve" in (folder / "results.html").read_text()


def test_a_broken_log_is_one_line_and_writes_nothing(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(TWO_TABLES.replace("Gus = 2", "Gus = 0"))
    assert main(["report", str(path), "--out", str(tmp_path / "out")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("Error: line 25, table 2, round 1: 'Gus' wrote '0'; give a whole number "
                   'from 1 to 10, or "pass"\n')  # the line of the file, since kit report has it
    assert not (tmp_path / "out").exists()
