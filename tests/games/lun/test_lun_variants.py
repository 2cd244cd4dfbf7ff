"""``kit report`` for Lowest Unique Number's announced variants: the cooperative party (no points;
each table counts its rounds with exactly one single) and sudden death (a table's shared top
after the last round plays tie-break rounds until one of them scores); without the announcement
neither, and the log's refusals in the kit's words."""

from __future__ import annotations

import csv
import io
import tomllib
from pathlib import Path

import pytest
from support.helpers import texts

from kit.cli import main
from kit.errors import ConfigError, GameLogError, Problems
from kit.games.lowest_unique.report.reports import csv_report, text_report
from kit.games.lowest_unique.rules.log import parse_party_log, read_party_log
from kit.i18n import words

EN = words("en")

# Round 1: the ones cancel, Ann's 3 scores. Round 2: the twos cancel, Cy's 4 scores. Ann and Cy
# share the top with 1 point each.
HEAD = """game = "lowest-unique"
rounds = 2
{variant}
[[table]]
players = ["Ann", "Bob", "Cy", "Dee"]

[[round]]
table = 1
round = 1
choices = {{ Ann = 3, Bob = 1, Cy = 1, Dee = "pass" }}

[[round]]
table = 1
round = 2
choices = {{ Ann = 2, Bob = 2, Cy = 4, Dee = 5 }}
"""
SUDDEN = HEAD.format(variant="sudden_death_announced = true\n")
PLAIN = HEAD.format(variant="")
COOP = HEAD.format(variant="cooperative = true\n")
# Tie-break 1: both write 2, so nobody scores and they play again; tie-break 2: Ann's 1 scores.
TIEBREAKS = """
[[tiebreak]]
table = 1
round = 1
choices = { Ann = 2, Cy = 2 }

[[tiebreak]]
table = 1
round = 2
choices = { Ann = 1, Cy = 3 }
"""


def test_the_reference_examples_score_the_cooperative_table() -> None:
    """1,1,2,3,3,8 leaves two singles (2 and 8): not the one single the table aims for;
    2,2,5,5,9,9 leaves none; 1,1,2,3,3,3 leaves exactly one (2)."""
    log = COOP.replace("rounds = 2", "rounds = 3").replace(
        '[["Ann", "Bob", "Cy", "Dee"]]', "") + "\n".join(
        f"[[round]]\ntable = 2\nround = {n}\nchoices = {{ {picks} }}\n"
        for n, picks in enumerate(("A = 1, B = 1, C = 2, D = 3, E = 3, F = 8",
                                   "A = 2, B = 2, C = 5, D = 5, E = 9, F = 9",
                                   "A = 1, B = 1, C = 2, D = 3, E = 3, F = 3"), start=1))
    log = log.replace('[[table]]\nplayers = ["Ann", "Bob", "Cy", "Dee"]\n',
                      '[[table]]\nplayers = ["Ann", "Bob", "Cy", "Dee"]\n\n[[table]]\n'
                      'players = ["A", "B", "C", "D", "E", "F"]\n')
    log += ("[[round]]\ntable = 1\nround = 3\nchoices = { Ann = 5, Bob = 6, Cy = 6, "
            "Dee = 6 }\n")
    party = read_party_log(log)
    first, second = party.tables
    assert [len(r.result.singles) for r in second.rounds] == [2, 0, 1]
    assert second.score == 1 and first.score == 2  # table 1: rounds 1 and 3
    assert party.cooperative and party.finished
    text = text_report(party, EN)
    assert "| 1 | 1, 1, 2, 3, 3, 8 | 1, 3 | 2, 8 | no |" in text
    assert "| 3 | 1, 1, 2, 3, 3, 3 | 1, 3 | 2 | yes |" in text
    assert ("Table scores\n\n| Table | Rounds played | Table score |\n|---|---|---|\n"
            "| 1 | 3 | 2 |\n| 2 | 3 | 1 |\n") in text
    assert "Points" not in text and "Place" not in text
    assert text.endswith("\nTable scores: table 1, 2 of 3 rounds left exactly one single; "
                         "table 2, 1 of 3 rounds left exactly one single.\n")


def test_one_cooperative_table_ends_with_its_score_and_its_csv_says_so() -> None:
    party = read_party_log(COOP)
    text = text_report(party, EN)
    assert "| Round | All choices | Cancelled | Surviving singles | Exactly one single? |" in text
    assert text.endswith("\nThe table’s score: 1 of 2 rounds left exactly one single.\n")
    rows = list(csv.reader(io.StringIO(csv_report(party))))
    assert rows[0] == ["table", "round", "player", "choice", "cancelled", "one_single"]
    assert {(r[1], r[5]) for r in rows[1:]} == {("1", "yes"), ("2", "no")}


def test_a_shared_top_without_the_announcement_stays_shared() -> None:
    party = read_party_log(PLAIN)
    table = party.tables[0]
    assert table.tied == ("Ann", "Cy") and party.due(table) == () and party.finished
    assert table.places == {"Ann": 1, "Cy": 1, "Bob": 3, "Dee": 3}
    assert text_report(party, EN).endswith("\nAnn and Cy share first place with 1 point.\n")
    assert csv_report(party).startswith("table,round,player,choice,cancelled,point\n")


def test_an_announced_tie_is_due_after_the_last_round_only() -> None:
    early = read_party_log(SUDDEN.replace("rounds = 2", "rounds = 3"))
    assert early.due(early.tables[0]) == ()  # a round is still to play
    party = read_party_log(SUDDEN)
    assert party.due(party.tables[0]) == ("Ann", "Cy") and not party.finished
    assert text_report(party, EN).endswith(
        "\nAnn and Cy share the top of table 1 with 1 point: sudden death was announced, so "
        "they play a tie-break round.\n")


def test_tiebreak_rounds_repeat_until_one_tied_player_scores() -> None:
    again = read_party_log(SUDDEN + TIEBREAKS.split("\n[[tiebreak]]\ntable = 1\nround = 2")[0])
    assert again.due(again.tables[0]) == ("Ann", "Cy")  # tie-break 1 left no single
    assert text_report(again, EN).endswith(
        "\nTie-break 1 left no single: Ann and Cy stay tied with 1 point, and play another "
        "tie-break round.\n")
    party = read_party_log(SUDDEN + TIEBREAKS)
    table = party.tables[0]
    assert [r.winner for r in table.tiebreaks] == [None, "Ann"] and table.decider == "Ann"
    assert party.finished and party.due(table) == ()
    assert table.totals == {"Ann": 1, "Bob": 0, "Cy": 1, "Dee": 0}  # a tie-break adds no point
    assert table.places == {"Ann": 1, "Cy": 2, "Bob": 3, "Dee": 3}
    assert party.standings() == [(1, "Ann", 1, 1), (2, "Cy", 1, 1), (3, "Bob", 1, 0),
                                 (3, "Dee", 1, 0)]
    text = text_report(party, EN)
    assert ("Tie-break\n\nSudden death (announced before round one): only Ann and Cy play, by "
            "the same rules, until one of them scores.\n\n| Round | All choices | Cancelled | "
            "Surviving singles | Winner |\n|---|---|---|---|---|\n| 1 | 2, 2 | 2 | none | "
            "no winner |\n| 2 | 1, 3 | none | 1, 3 | Ann (1) |\n") in text
    assert "| Cy | 0 | 1 | 1 | 2 |" in text
    assert text.endswith("\nAnn wins with 1 point, after a tie-break.\n")
    rows = list(csv.reader(io.StringIO(csv_report(party))))
    assert rows[0][-1] == "tiebreak" and rows[-2:] == [["1", "2", "Ann", "1", "no", "1", "yes"],
                                                       ["1", "2", "Cy", "3", "no", "0", "yes"]]


def test_a_tie_shared_by_three_is_played_by_the_three() -> None:
    three = SUDDEN.replace("Dee = 5 }", "Dee = 6 }\n\n[[round]]\ntable = 1\nround = 3\n"
                           "choices = { Ann = 7, Bob = 7, Cy = 7, Dee = 6 }").replace(
        "rounds = 2", "rounds = 3")
    party = read_party_log(three)
    assert party.due(party.tables[0]) == ("Ann", "Cy", "Dee")
    decided = read_party_log(three + "\n[[tiebreak]]\ntable = 1\nround = 1\n"
                             "choices = { Ann = 1, Cy = 1, Dee = 4 }\n")
    assert decided.tables[0].places == {"Dee": 1, "Ann": 2, "Cy": 2, "Bob": 4}


REFUSALS = [
    (PLAIN + TIEBREAKS, GameLogError, [
        "line 17, [[tiebreak]] #1: a tie-break round is played only when sudden death was "
        "announced before round one; this log has no sudden_death_announced = true",
        "line 22, [[tiebreak]] #2: a tie-break round is played only when sudden death was "
        "announced before round one; this log has no sudden_death_announced = true"]),
    (COOP + TIEBREAKS, GameLogError, [
        "line 18, [[tiebreak]] #1: a tie-break round is played only when sudden death was "
        "announced before round one; this log has no sudden_death_announced = true",
        "line 23, [[tiebreak]] #2: a tie-break round is played only when sudden death was "
        "announced before round one; this log has no sudden_death_announced = true"]),
    (SUDDEN.replace("sudden_death_announced = true", "sudden_death_announced = true\n"
                    "cooperative = true"), ConfigError,
     ["sudden_death_announced: the cooperative variant keeps no score, so there is no tie to "
      "break; choose one or the other"]),
    (COOP.replace("cooperative = true", 'cooperative = "yes"'), ConfigError,
     ["cooperative: must be true or false; got 'yes'"]),
    (SUDDEN.replace("rounds = 2", "rounds = 3") + TIEBREAKS, GameLogError, [
        "line 18, table 1, tie-break 1: table 1 has played 2 of 3 rounds; a tie-break round "
        "comes after the last round"]),
    (SUDDEN.replace("Ann = 2, Bob = 2, Cy = 4", "Ann = 1, Bob = 2, Cy = 2") + TIEBREAKS,
     GameLogError, ["line 18, table 1, tie-break 1: Ann alone has the most points at table 1; "
                    "there is no tie to break"]),
    (SUDDEN + TIEBREAKS.replace("Ann = 2, Cy = 2", "Ann = 2, Cy = 2, Bob = 3"), GameLogError, [
        "line 21, table 1, tie-break 1: 'Bob' does not share the top; only Ann, Cy play the "
        "tie-break"]),
    (SUDDEN + TIEBREAKS.replace("Ann = 2, Cy = 2", "Ann = 2"), GameLogError, [
        'line 18, table 1, tie-break 1: no choice for Cy; every player writes a number or '
        '"pass" in every round']),
    (SUDDEN + TIEBREAKS.replace("Ann = 2, Cy = 2", "Ann = 1, Cy = 2"), GameLogError, [
        "line 23, table 1, tie-break 2: tie-break 1 already decided it (Ann scored); no "
        "tie-break round follows"]),
    (SUDDEN + TIEBREAKS.replace("round = 1\n", "round = 3\n"), GameLogError, [
        "line 23, table 1, tie-break 2: round 1 is not logged; log every round of a table, 1, "
        "2, 3, ..."]),
]


@pytest.mark.parametrize(("text", "kind", "messages"), REFUSALS)
def test_variant_refusals_name_the_field_and_line(text: str, kind: type,
                                                  messages: list[str]) -> None:
    with pytest.raises(Problems) as caught:
        read_party_log(text)
    assert [(type(p), str(p)) for p in caught.value.problems] == [(kind, m) for m in messages]


def test_both_variants_are_refused_as_the_kit_refuses_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "lowest-unique", "--players", "4", "--cooperative",
                 "--sudden-death-announced", "--out", str(tmp_path / "kit")]) != 0
    kit_says = capsys.readouterr().err
    log = tmp_path / "party.toml"
    log.write_text(COOP.replace("cooperative = true", "cooperative = true\n"
                                "sudden_death_announced = true"), encoding="utf-8")
    assert main(["report", str(log), "--out", str(tmp_path / "report")]) != 0
    assert capsys.readouterr().err == kit_says
    assert "the cooperative variant keeps no score" in kit_says


def test_the_printed_report_reveals_the_tiebreak_on_its_own_page(tmp_path: Path) -> None:
    log = tmp_path / "party.toml"
    log.write_text(SUDDEN + TIEBREAKS, encoding="utf-8")
    assert main(["report", str(log), "--out", str(tmp_path)]) == 0
    pages = texts(tmp_path / "party-reports" / "results.pdf")
    tiebreak = next(p for p in pages if p.startswith("Tie-break"))
    assert "only Ann and Cy play" in tiebreak and "Ann (1)" in tiebreak
    sheet = next(p for p in pages if p.startswith("Score sheet"))
    assert ("Sudden death: Ann and Cy shared the top; Ann scored in tie-break 2 with 1 and "
            "comes first at table 1.") in sheet
    assert "Ann wins with 1 point, after a tie-break." in sheet


def test_the_printed_cooperative_report_has_a_table_score_and_no_points(tmp_path: Path) -> None:
    log = tmp_path / "party.toml"
    log.write_text(COOP, encoding="utf-8")
    assert main(["report", str(log), "--out", str(tmp_path)]) == 0
    pages = texts(tmp_path / "party-reports" / "results.pdf")
    assert not any("Score sheet" in p or "Points" in p for p in pages)
    score = next(p for p in pages if p.startswith("Table score"))
    assert "Table score: 1 of 2 rounds left exactly one single" in score
    tally = next(p for p in pages if p.startswith("Round tally"))
    assert "Exactly one single?" in tally


def test_the_log_format_reads_the_same_from_toml_data_or_text() -> None:
    assert parse_party_log(tomllib.loads(SUDDEN + TIEBREAKS)) == read_party_log(SUDDEN
                                                                                 + TIEBREAKS)
