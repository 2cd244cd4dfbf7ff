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
from kit.games.whats_my_number.report import players_sheet
from kit.games.whats_my_number.report.reports import turn_title
from kit.games.whats_my_number.sheets.people import Person, labels
from kit.i18n import words
from kit.layout.blocks import TITLE_PT
from kit.layout.model import Line, Text
from kit.paper import paper

LETTERS = "ABCDEF"
A4_WIDTH_PT = 595.28
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


def marks_by_column(path: Path, page: int, label: str, side: int | None = None
                    ) -> list[tuple[str, str]]:
    """The marks of a row (found by its label) and the player column each sits under; of the
    left (``side`` 0) or right (1) half of a page with two turns."""
    words = word_boxes(path, page)
    if side is not None:
        middle = A4_WIDTH_PT / 2
        words = [w for w in words if (w[0] < middle) == (side == 0)]
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


FIRST_REPORT = 12  # the page of turns 1 and 2: after the rules, legend, slips, forms, sheets


def half(path: Path, page: int, side: int) -> str:
    """The left (``side`` 0) or right (1) half of an A4 page, as ``pdftotext -layout`` reads
    it: a page with two turns' reports side by side."""
    left = 0 if side == 0 else int(A4_WIDTH_PT / 2)
    return subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page),
                           "-x", str(left), "-y", "0", "-W", str(int(A4_WIDTH_PT / 2)),
                           "-H", "842", str(path), "-"],
                          check=True, capture_output=True, text=True).stdout


def test_blank_report_has_two_turns_a_page_at_the_end_of_the_player_kit(kit_pages) -> None:
    players, _host, path = kit_pages
    reports = [i for i, page in enumerate(players) if re.search(r"Turn \d+ report", page)]
    assert [i + 1 for i in reports] == list(range(FIRST_REPORT, FIRST_REPORT + 4)) == [
        len(players) - 3 + i for i in range(4)]
    for pair, i in enumerate(reports):
        first = 2 * pair + 1
        assert f"What's My Number? · Turn {first} and {first + 1} reports" in players[i]
        assert "GAME MASTER ONLY" not in players[i]
        assert f"Turn {first} report" in half(path, i + 1, 0)
        assert f"Turn {first + 1} report" in half(path, i + 1, 1)


@pytest.mark.parametrize("turn", [1, 2, 8])
def test_blank_report_rows_columns_and_only_the_own_x(kit_pages, turn: int) -> None:
    path = kit_pages[2]
    number, side = FIRST_REPORT + (turn - 1) // 2, (turn - 1) % 2
    page = half(path, number, side)
    assert f"Turn {turn} report" in page
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
            assert marks_by_column(path, number, label, side) == [("X", label[0])]
    assert not re.search(r"\b\d{2,}\b", "\n".join(rest for _label, rest in rows))


def test_gm_card_names_the_report_pages(kit_pages, tmp_path: Path) -> None:
    assert main(["build", "whats-my-number", "--players", "6", "--out", str(tmp_path),
                 "--no-cache"]) == 0
    host = pdf_pages(tmp_path / "whats-my-number-6p-a4" / "host-answers.pdf", "-raw")
    card = " ".join(host[0].split())
    assert ("onto the players’ “Turn N report” page of the player kit (pages 12 to 15, in "
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


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "fr", "de", "es", "ru"])
def test_two_turns_share_a_page_for_small_games_only(paper_name: str, lang: str) -> None:
    """4 to 6 players: each turn's report in half the page, turn 1 left, turn 2 right, a cut
    line between; an odd last turn alone. 8 players, or large print: a page a turn."""
    w, sheet = words(lang), paper(paper_name)
    body = sheet.body
    middle = body.x + body.w / 2
    for count, turns in ((4, 30), (6, 7)):
        everyone = [Person(i, label) for i, label in enumerate(labels(count, w))]
        pages = players_sheet.report_sheet_pages(sheet, everyone, turns, w)
        assert len(pages) == -(-turns // 2) == players_sheet.report_page_count(
            everyone, sheet, w, turns)
        for n, (label, landscape, items) in enumerate(pages):
            first = 2 * n + 1
            shown = [k for k in (first, first + 1) if k <= turns]
            big = [t for t in items if isinstance(t, Text) and t.size == TITLE_PT]  # in runs
            sides = [side for side in ([t for t in big if t.x < middle],
                                       [t for t in big if t.x > middle]) if side]
            assert ["".join(t.text for t in side) for side in sides] == [
                turn_title(k, w) for k in shown]
            titles = [side[0] for side in sides]
            cuts = [i for i in items if isinstance(i, Line) and i.x1 == i.x2 == middle]
            assert not landscape and len(cuts) == len(shown) - 1
            assert all(c.y1 == body.y and c.y2 == body.bottom for c in cuts)
            assert titles[0].x < middle and all(t.x > middle for t in titles[1:])
            texts_ = [t for t in items if isinstance(t, Text)]
            assert all(body.x - 1e-6 <= t.x <= body.right for t in texts_)
            assert all(abs(t.x - middle) > 2.0 for t in texts_)  # no word on the cut
            assert label == (w.gettext("Turn %(first)s and %(second)s reports", first=first,
                                       second=first + 1) if len(shown) == 2
                             else turn_title(first, w))
    for count, large in ((8, False), (4, True)):
        everyone = [Person(i, label) for i, label in enumerate(labels(count, w))]
        pages = players_sheet.report_sheet_pages(sheet, everyone, 3, w, large)
        alone = [players_sheet.sheets_per_turn(everyone, sheet, w, k, large) for k in (1, 2, 3)]
        assert len(pages) == sum(alone) == players_sheet.report_page_count(
            everyone, sheet, w, 3, large) >= 3
        assert [label for label, _, _ in pages][:alone[0]] == [
            turn_title(1, w, n, alone[0]) for n in range(1, alone[0] + 1)]
        assert not any(isinstance(i, Line) and i.x1 == i.x2 == middle
                       for _, _, items in pages for i in items)
