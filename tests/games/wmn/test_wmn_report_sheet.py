"""The players' turn report of What's My Number?: the blank form in the player kit, and the
one `kit report` fills from a game log, read back with pdftotext for a 6-player game."""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import pytest
from support.helpers import REFERENCE_LOG_TURN_1

from kit.cli import main

LETTERS = "ABCDEF"
# pdftotext may set "A 1" tight as "A1"
LABEL = re.compile(r"^\s*([A-F]) ?(\d|List)( \(bonus\))?(?=\s|$)")
SPARE = "____ __ (bonus)"
# turn 2 of the reference game: B finds A and D, then E and F in turn 3
LOG = REFERENCE_LOG_TURN_1 + "[[turn]]\nB = [5, 45, 20]\nA = [10, 38]\n" \
    "[[turn]]\nB = [22, 30, 45]\n"
SECRETS = {"A": 45, "B": 5, "C": 40, "D": 20, "E": 22, "F": 30}
GUESSES = {17, 33, 40, 25, 5, 45, 20, 10, 38, 22, 30, 1, 2}


def pdf_pages(path: Path, *options: str) -> list[str]:
    """Each page's text as pdftotext reads it (``-layout``: columns kept in place)."""
    out = subprocess.run(["pdftotext", *(options or ("-layout",)), str(path), "-"], check=True,
                         capture_output=True, text=True).stdout
    return out.split("\f")[:-1]


def table(page: str) -> tuple[dict[str, int], list[tuple[str, str]]]:
    """The header's column of each player letter, and each row's label and the rest."""
    lines = page.splitlines()
    head = next(line for line in lines if line.lstrip().startswith("Guess "))
    columns = {m.group(): m.start() for m in re.finditer(r"\b[A-F]\b", head)}
    rows = []
    for line in lines:
        found = LABEL.match(line)
        if found:
            label = f"{found.group(1)} {found.group(2)}{found.group(3) or ''}"
            rows.append((label, line[found.end():]))
        elif line.strip().startswith(SPARE):
            rows.append((SPARE, line.strip()[len(SPARE):]))
    return columns, rows


def column_of(columns: dict[str, int], at: int) -> str:
    """The player whose header letter is nearest to a mark's column."""
    return min(columns, key=lambda letter: abs(columns[letter] - at))


def word_boxes(path: Path, page: int) -> list[tuple[float, float, str]]:
    """(x centre, y, word) of every word of a page, from ``pdftotext -bbox``."""
    out = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(path),
                          "-"], check=True, capture_output=True, text=True).stdout
    return [((float(a) + float(c)) / 2, float(b), html.unescape(w)) for a, b, c, w in
            re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                       r'yMax="[\d.]+">([^<]*)</word>', out)]


def marks_by_column(path: Path, page: int, label: str) -> list[tuple[str, str]]:
    """The marks of a row (found by its label) and the player column each sits under."""
    words = word_boxes(path, page)
    head = next(y for x, y, w in words if w == "Guess")
    columns = {w: x for x, y, w in words if abs(y - head) < 1 and w in LETTERS}
    first, second = label.split(" ", 1)[0], label.split(" ")[1]
    row = next(y for (x, y, w), nxt in zip(words, words[1:], strict=False)
               if w == first and nxt[2] == second and abs(nxt[1] - y) < 1)
    label_end = max(x for x, y, w in words if abs(y - row) < 1 and x < min(columns.values())
                    - 10)
    return [(w, min(columns, key=lambda c: abs(columns[c] - x))) for x, y, w in words
            if abs(y - row) < 4 and x > label_end]  # a ✓ sits a little higher


@pytest.fixture(scope="module")
def kit_pages(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[str], Path]:
    out = tmp_path_factory.mktemp("kit")
    assert main(["build", "whats-my-number", "--players", "6", "--out", str(out),
                 "--no-cache"]) == 0
    folder = out / "whats-my-number-6p-a4"
    return (pdf_pages(folder / "player-kit.pdf"), pdf_pages(folder / "host-answers.pdf"),
            folder / "player-kit.pdf")


def test_blank_report_has_a_page_a_turn_at_the_end_of_the_player_kit(kit_pages) -> None:
    players, _host, _path = kit_pages
    reports = [i for i, page in enumerate(players) if re.search(r"^Turn \d+ report$", page,
                                                                 re.M)]
    assert [i + 1 for i in reports] == list(range(12, 20)) == [len(players) - 7 + i
                                                               for i in range(8)]
    for turn, i in enumerate(reports, start=1):
        assert f"What's My Number? · Turn {turn} report" in players[i]
        assert "GAME MASTER ONLY" not in players[i]


@pytest.mark.parametrize("turn", [1, 2, 8])
def test_blank_report_rows_columns_and_only_the_own_x(kit_pages, turn: int) -> None:
    players, _host, _path = kit_pages
    page = players[11 + turn - 1]
    columns, rows = table(page)
    assert list(columns) == list(LETTERS)
    kinds = ["1", "2", "3 (bonus)", "List"] if turn > 1 else ["1", "2", "List"]
    expected = [f"{p} {kind}" for p in LETTERS for kind in kinds]
    assert [label for label, _rest in rows if label != SPARE] == expected
    assert (SPARE in [label for label, _rest in rows]) == (turn > 1)  # no bonus in turn 1
    for label, rest in rows:
        marks = [(m.group(), m.start()) for m in re.finditer(r"\S+", rest)]
        if label.endswith("List"):
            assert rest.split() == ["______", "correct"]
        elif label == SPARE:
            assert marks == []
        else:  # the guesser's own column only: no number, no other answer
            assert [mark for mark, _at in marks] == ["X"], (label, rest)
            path = kit_pages[2]
            assert marks_by_column(path, 12 + turn - 1, label) == [("X", label[0])]
    assert not re.search(r"\b\d{2,}\b", "\n".join(rest for _label, rest in rows))


def test_gm_card_names_the_report_pages(kit_pages, tmp_path: Path) -> None:
    assert main(["build", "whats-my-number", "--players", "6", "--out", str(tmp_path),
                 "--no-cache"]) == 0
    host = pdf_pages(tmp_path / "whats-my-number-6p-a4" / "host-answers.pdf", "-raw")
    card = " ".join(host[0].split())
    assert ("onto the players’ “Turn N report” page of the player kit (pages 12 to 19, in "
            "turn order)") in card


def test_filled_report_from_the_log_has_answers_only(tmp_path: Path) -> None:
    log = tmp_path / "game.toml"
    log.write_text(LOG)
    assert main(["report", str(log), "--out", str(tmp_path), "--no-cache"]) == 0
    pages = pdf_pages(tmp_path / "game-reports" / "turn-reports.pdf")
    assert len(pages) == 3
    filled: dict[str, list[tuple[str, str]]] = {}
    for page in pages:
        columns, rows = table(page)
        assert list(columns) == list(LETTERS)
        for label, rest in rows:
            line = next(ln for ln in page.splitlines() if LABEL.match(ln)
                        and ln.endswith(rest))
            start = len(line) - len(rest)
            marks = [(m.group(), column_of(columns, start + m.start()))
                     for m in re.finditer(r"\S+", rest)]
            turn = re.search(r"Turn (\d+) report", page)
            assert turn
            filled[f"{turn.group(1)} {label}"] = marks
            if not label.endswith("List"):
                assert {mark for mark, _col in marks} <= {"H", "L", "✓", "X"}, label
                assert (("X", label[0]) in marks), label  # own column
    assert [m for m, _c in filled["1 A 1"]] == ["X", "L", "H", "H", "H", "H"]
    turns = tmp_path / "game-reports" / "turn-reports.pdf"
    assert marks_by_column(turns, 1, "B 1") == [("H", "A"), ("X", "B"), ("✓", "C"),
                                                 ("L", "D"), ("L", "E"), ("L", "F")]
    assert [m for m, _c in filled["1 C List"]] == ["3", "correct."]
    assert [m for m, _c in filled["2 B 3 (bonus)"]] == ["X", "X", "X", "✓", "H", "H"]
    # no secret and no guessed number anywhere in the tables
    cells = " ".join(m for marks in filled.values() for m, _c in marks)
    assert not set(re.findall(r"\d+", cells)) & {str(n) for n in GUESSES | set(SECRETS.values())
                                                 if n != 3}
