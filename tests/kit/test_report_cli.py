"""``kit report`` on the command line: --turn, --strict, --amend, published turns, csv, the
report folder's name and the files a user keeps in it, every error line exact."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from kit.cli import main
from kit.report import plain_text, report_folder, slug

LOG = Path(__file__).parents[1] / "data" / "wmn-7p-4t.toml"
ISOLATES = str.maketrans("", "", "\u2066\u2067\u2068\u2069")  # invisible direction marks


def plain(text: str) -> str:
    return text.translate(ISOLATES)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """The shared log, copied: its title names the folder "Friday-night-reports"."""
    path = tmp_path / "game.toml"
    shutil.copy(LOG, path)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["report", *argv])
    out, err = capsys.readouterr()
    return code, plain(out), err


def pdf_text(path: Path) -> str:
    return plain("\n".join(page.extract_text() for page in PdfReader(path).pages))


# --- the folder ----------------------------------------------------------------------------------


def test_folder_named_after_the_title_else_the_file_name() -> None:
    assert report_folder({"title": "Friday night"}, "x.toml") == "Friday-night-reports"
    assert report_folder({}, "/a/Friday night.toml") == "Friday-night-reports"
    assert report_folder({"title": "?!"}, "Zoë's game.toml") == "Zoë-s-game-reports"
    assert report_folder({}, "???.toml") == "game-reports"
    assert slug("a" * 60) == "a" * 40


def test_user_files_in_the_report_folder_are_kept(capsys, game: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run(capsys, str(game), "--out", str(out))[0] == 0
    folder = out / "Friday-night-reports"
    (folder / "turn-4-for-email.pdf").write_bytes(b"mine")
    assert run(capsys, str(game), "--out", str(out))[0] == 0
    assert (folder / "turn-4-for-email.pdf").read_bytes() == b"mine"
    # a file of the user's that the kit would write over is refused, never replaced
    (folder / "turn-2.md").write_text("my notes")
    code, _, err = run(capsys, str(game), "--out", str(out), "--turn", "2")
    assert code == 2
    assert err == (f"Error: out: {folder} holds turn-2.md, which the kit did not write and "
                   "would replace; move or rename it\n")
    assert (folder / "turn-2.md").read_text() == "my notes"


# --- one turn at a time --------------------------------------------------------------------------


def test_turn_writes_only_that_turn_and_says_so(capsys, game: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run(capsys, str(game), "--out", str(out))[0] == 0
    folder = out / "Friday-night-reports"
    whole = (folder / "turn-reports.pdf").read_bytes()
    code, said, _ = run(capsys, str(game), "--out", str(out), "--turn", "2")
    assert code == 0
    assert said == ("Turn 2: 1 page; No orders: Cy; Next turn: Bob 4 guesses, Dee 4, Eve 3, "
                    f"Fay 4, Gus 3, everyone else 2 ({folder / 'turn-2.pdf'})\n")
    assert {p.name for p in folder.glob("turn-2.*")} == {"turn-2.pdf", "turn-2.html",
                                                         "turn-2.md"}
    assert (folder / "turn-reports.pdf").read_bytes() == whole  # the rest is kept as it was
    text = pdf_text(folder / "turn-2.pdf")
    assert "Turn 2 report" in text and "Turn 1 report" not in text
    md = plain((folder / "turn-2.md").read_text(encoding="utf-8"))
    assert md.startswith("Turn 2\n\n| Guess | Ann | Bob | Cy | Dee | Eve | Fay | Gus |\n")
    assert "| Bob 3 (bonus) | L | X | L | H | X | X | X |\n" in md
    assert "\nNo orders: Cy\n" in md and "Turn 1" not in md
    slips = plain((folder / "slips-turn-2.md").read_text(encoding="utf-8"))
    assert slips.startswith("Ann · turn 2 · private\nOrders received: guesses 10, 45.\n")
    assert "\n---\n\nCy · turn 2 · private\nOrders received: none.\n" in slips
    assert slips.count(" · private\n") == 7  # a block per player, to mail one each
    code, said, _ = run(capsys, str(game), "--out", str(out), "--turn", "4")
    assert said.startswith("Turn 4: 1 page; Fay wins in turn 4, by a fully correct list. (")


def test_turn_out_of_the_log(capsys, game: Path, tmp_path: Path) -> None:
    code, _, err = run(capsys, str(game), "--out", str(tmp_path / "o"), "--turn", "5")
    assert (code, err) == (2, "Error: turn: 5 is not a turn of this log; it reports turns 1 "
                              "to 4\n")
    assert not (tmp_path / "o").exists()


# --- text and csv --------------------------------------------------------------------------------


def test_text_has_rulings_allowances_legend_and_why_the_winner_won(capsys, game: Path) -> None:
    code, out, _ = run(capsys, str(game), "--format", "text")
    assert code == 0
    assert "| Cy 3 (ignored) |" in out and "| Eve 3 (void) |" in out
    assert "| Fay List (partial) - 5 correct of 5 listed; cannot win. |" in out
    assert "\nNo orders: Cy\n" in out
    assert "Next turn: Bob 3 guesses, Eve 4, everyone else 2\n" in out
    assert ("Finished this turn: Fay by a fully correct list, Bob with guess 1, Dee with guess 2 "
            "and Eve with guess 3. A fully correct list beats guesses.\n") in out
    assert out.endswith("X no information: own number or one already found\n")
    code, only, _ = run(capsys, str(game), "--format", "text", "--turn", "3")
    assert only.startswith("Turn 3\n") and "Turn 2" not in only and "Turn 4" not in only


def test_terminal_text_drops_direction_marks_only_around_left_to_right_names(
        capsys, game: Path) -> None:
    main(["report", str(game), "--format", "text", "--turn", "2"])
    raw = capsys.readouterr().out
    assert "No orders: Cy\n" in raw and "\u2068" not in raw and "\u2069" not in raw
    assert plain_text("No orders: \u2068Cy\u2069 and \u2068שרה\u2069") == (
        "No orders: Cy and \u2068שרה\u2069")  # a Hebrew name keeps its marks


def test_csv_rows_for_a_spreadsheet(capsys, game: Path) -> None:
    code, out, _ = run(capsys, str(game), "--format", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0
    assert rows[0] == ["turn", "player", "guess", "number", "status", "bonus", "column",
                       "answer"]
    assert ["4", "Fay", "list", "", "ok", "", "", "6"] in rows
    assert all(len(r) == 8 for r in rows)


# --- strict and errors ---------------------------------------------------------------------------


def test_strict_lists_every_break_and_writes_nothing(capsys, game: Path, tmp_path: Path) -> None:
    code, out, err = run(capsys, str(game), "--strict", "--out", str(tmp_path / "o"))
    assert (code, out) == (2, "")
    assert err == (
        "Error: turn 1, player Cy: 3 guesses, but 2 are allowed this turn (2 + 0 hits last "
        "turn)\n"
        "Error: turn 2, player Cy: no orders; with --strict every player gives orders every "
        "turn\n"
        "Error: turn 3, player Eve: guess 63 is outside the range 1 to 60\n"
        "Error: turn 3, player Fay: the list is missing Gus; a list names every other player "
        "exactly once (Ann, Bob, Cy, Dee, Eve, Gus)\n"
        "Error: turn 3, player Gus: 4 guesses, but 3 are allowed this turn (2 + 1 hit last "
        "turn)\n")
    assert not (tmp_path / "o").exists()


def test_typos_all_at_once_with_suggestions(capsys, game: Path, tmp_path: Path) -> None:
    text = game.read_text().replace("Fay = [17, 8]", "Fey = [17, 8]").replace(
        "Gus = [42, 10]", "gus = [42, 10]").replace("Cy = [17, 42]", "Cy = [17, 4.5]")
    game.write_text(text)
    code, _, err = run(capsys, str(game), "--out", str(tmp_path / "o"))
    assert code == 2
    assert err == (
        'Error: turn 2, player Fey: "Fey" is not a player; did you mean Fay? players are Ann, '
        "Bob, Cy, Dee, Eve, Fay, Gus\n"
        "Error: turn 3, player Cy: guess 2 is 4.5, not a whole number; guesses are whole "
        "numbers from 1 to 60\n")


def test_toml_traps_are_explained(capsys, game: Path) -> None:
    game.write_text(game.read_text().replace(
        "Fay = { list = { Ann = 17, Bob = 42, Cy = 8, Dee = 55, Eve = 29, Gus = 3 } }",
        "Fay = { list = { Ann = 17, Bob = 42, Cy = 8,\n  Dee = 55, Eve = 29, Gus = 3 } }"))
    code, _, err = run(capsys, str(game), "--format", "text")
    line = game.read_text().splitlines().index("Fay = { list = { Ann = 17, Bob = 42, Cy = 8,")
    assert code == 2
    assert err == (f"Error: log: {game} is not valid TOML: line {line + 1}, column 45: the "
                   "{ ... } of a list or table must be on one line; join this line with the "
                   "next (a [ ... ] list may be split over lines, a { ... } may not) (TOML: "
                   "Invalid initial character for a key part)\n")
    game.write_text(shutil.copy(LOG, game) and game.read_text() + "Ann = [1, 2]\n")
    code, _, err = run(capsys, str(game), "--format", "text")
    assert code == 2 and "the same player twice in one turn" in err
    assert "(TOML: Cannot overwrite a value)" in err


# --- published turns and amendments --------------------------------------------------------------


def test_a_change_to_a_published_turn_is_refused_then_amended(capsys, game: Path,
                                                              tmp_path: Path) -> None:
    out = tmp_path / "out"
    game.write_text(game.read_text().replace("published = 0", "published = 3"))
    assert run(capsys, str(game), "--out", str(out))[0] == 0
    folder = out / "Friday-night-reports"
    record = json.loads((folder / "published.json").read_text())
    assert (record["published"], list(record["turns"]), record["amendments"]) == (
        3, ["1", "2", "3"], [])
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    game.write_text(game.read_text().replace("Ann = [10, 45]", "Ann = [8, 45]"))
    code, said, err = run(capsys, str(game), "--out", str(out))
    assert (code, said) == (2, "")
    tail = " in a report already handed out (published = 3); run again with --amend to print " \
           "an erratum\n"
    assert err == "".join(f"Error: {cell}{tail}" for cell in (
        "turn 2, row Ann 1, column Cy: L -> ✓", "turn 2, row Ann 2, column Cy: L -> X",
        "turn 2, row Next turn, column Ann: 2 -> 3", "turn 3, row Ann 1, column Cy: H -> X",
        "turn 3, row Ann 2, column Cy: L -> X"))
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before
    assert run(capsys, str(game), "--out", str(out), "--amend")[0] == 0
    record = json.loads((folder / "published.json").read_text())
    assert [a["turn"] for a in record["amendments"]] == [2, 3]
    assert record["amendments"][0]["changes"][0] == {
        "turn": 2, "row": "Ann 1", "column": "Cy", "old": "L", "new": "✓"}
    # amended: the record follows the log, so the next run is quiet
    assert run(capsys, str(game), "--out", str(out))[0] == 0


def test_published_past_the_log(capsys, game: Path, tmp_path: Path) -> None:
    game.write_text(game.read_text().replace("published = 0", "published = 7"))
    code, _, err = run(capsys, str(game), "--out", str(tmp_path / "o"))
    assert (code, err) == (2, "Error: published: 7 turns handed out, but the log reports 4; "
                              "published counts the turns whose reports the players have\n")
