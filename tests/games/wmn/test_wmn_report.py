"""`kit report`: filled What's My Number? turn reports from a game log, in-process."""

from __future__ import annotations

import json
import re
import tomllib
from functools import cache
from pathlib import Path

import pdfplumber
import pytest
from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTFont
from pypdf import PdfReader
from support.helpers import A4, REFERENCE_LOG_TURN_1, page_sizes
from support.print_lint import lint_pdf

from kit import fonts
from kit.cli import main
from kit.game import KitConfig
from kit.games.whats_my_number import rules
from kit.games.whats_my_number.report.gm_register import (
    register_widths,
    still_to_find,
    wrap_entries,
)
from kit.games.whats_my_number.report.report_plan import plan_reports
from kit.games.whats_my_number.report.reports import (
    LABEL_MAX_MM,
    ROW_MM,
    cell_width,
    column_note,
    game_layout,
    label_width,
    report_layout,
    row_pages,
)
from kit.games.whats_my_number.sheets.people import MIN_CELL_MM
from kit.i18n import LANGUAGES
from kit.i18n import words as language
from kit.layout.model import Line, Text, pt
from kit.paper import paper
from kit.plan import Form, KitPlan
from kit.resources import font_path

EN = language("en")

# The reference example: A guessed 17 and 33, B hit C with its first guess, C's list had three
# right. Then B finds A and D (turn 2) and E and F (turn 3), and wins.
LOG = REFERENCE_LOG_TURN_1 + """\
[[turn]]
B = [5, 45, 20]
A = [10, 38]
[[turn]]
B = [22, 30, 45]
"""

TURN_1 = """\
Turn 1

| Guess | A | B | C | D | E | F |
|---|---|---|---|---|---|---|
| A 1 | X | L | H | H | H | H |
| A 2 | X | L | H | L | L | L |
| B 1 | H | X | ✓ | L | L | L |
| B 2 | H | X | X | L | L | H |
| C List - 3 correct. | | | | | | |
"""

EPS = 0.002  # positions are rounded to 0.001 mm
NAMES = ("Ångström-Øre sund Müller", "Bob", "Ann Lee", "Zoë Çelik-Þórsdóttir",
         "Maximilian Alexander Wol")


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.toml"
    path.write_text(LOG)
    return path


def big_log(count: int, named: bool = False, turns: int = 1) -> str:
    """A legal game log: every player guesses twice a turn (the first guess hits the next
    player's number), and the third player submits a list in turn 1 that is all wrong."""
    if named:
        labels = [f"{i:02d} {NAMES[i % len(NAMES)]}"[:24].strip() for i in range(count)]
    else:
        labels = rules.player_labels(count)
    secrets = {label: i * 9 + 1 for i, label in enumerate(labels)}
    lines = ['game = "whats-my-number"', f"players = {json.dumps(labels)}", "[secrets]"]
    lines += [f"{json.dumps(label)} = {value}" for label, value in secrets.items()]
    for turn in range(turns):
        lines.append("[[turn]]")
        for i, label in enumerate(labels):
            if i == 2 and turn == 0:
                entries = ", ".join(f"{json.dumps(other)} = 2" for other in labels
                                    if other != label)
                lines.append(f"{json.dumps(label)} = {{ list = {{ {entries} }} }}")
                continue
            target = labels[(i + 1 + turn) % count]
            lines.append(f"{json.dumps(label)} = [{secrets[target]}, {i + 3 + turn}]")
    return "\n".join(lines) + "\n"


def planned(text: str, name: str = "a4") -> tuple[rules.GameLog, rules.GameResult, KitPlan]:
    log = rules.parse_game_log(tomllib.loads(text))
    result = rules.play(log)
    config = KitConfig(game=rules.NAME, players=len(log.players), names=(), paper=name,
                       range=log.range, custom_range=False, party="game-reports")
    return log, result, plan_reports(log, result, config)


def page_texts(path: Path) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(path).pages]


def words_of(pages) -> str:
    """The texts of planned pages, in drawing order, single-spaced."""
    return " ".join(" ".join(item.text for page in pages for item in page.body.items
                             if isinstance(item, Text)).split())


def header_label(page_text: str) -> str:
    """The page label from the header ("What's My Number? · Turn 1 report")."""
    found = re.search(r"What's My Number\? · (.+?) (?:Secret numbers|GAME MASTER ONLY)", page_text)
    assert found, page_text
    return found.group(1)


# --- the Markdown reports ---------------------------------------------------------------------


def test_text_reports_follow_the_reference_layout(capsys: pytest.CaptureFixture[str],
                                                  log_file: Path) -> None:
    assert main(["report", str(log_file), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(TURN_1)
    # a bonus guess after two hits in turn 2, labelled as on the printed report
    assert "| B 3 (bonus) | X | X | X | ✓ | H | H |" in out
    assert out.count("|---|---|---|---|---|---|---|\n") == 3  # a delimiter row per table
    assert "\nB wins in turn 3, by identifying every other number.\n" in out
    assert out.endswith("\nH higher · L lower · ✓ the guess is that player’s number · X no "
                        "information: own number or one already found\n")  # the legend


def test_a_correct_list_wins_over_guesses_in_the_same_turn(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "list.toml"
    path.write_text(LOG.split("[[turn]]")[0] + "[[turn]]\n"
                    "A = { list = { B = 5, C = 40, D = 20, E = 22, F = 30 } }\n"
                    "B = [45, 40]\n")
    assert main(["report", str(path), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "| A List - 5 correct. | | | | | | |" in out
    assert "\nA wins in turn 1, by a fully correct list.\n" in out


def test_too_many_guesses_is_a_one_line_error_when_strict(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(LOG.replace("A = [10, 38]", "A = [10, 38, 12]"))
    out_dir = tmp_path / "out"
    assert main(["report", str(path), "--out", str(out_dir), "--strict"]) == 2
    assert ("Error: turn 2, player A: 3 guesses, but 2 are allowed this turn (2 + 0 hits last "
            "turn)\n") in capsys.readouterr().err
    assert not out_dir.exists()
    # without --strict the house ruling applies: the third guess is ignored, and says so
    assert main(["report", str(path), "--format", "text"]) == 0
    assert "| A 3 (ignored) |" in capsys.readouterr().out


# --- the report files -------------------------------------------------------------------------


def test_report_files_for_players_and_for_the_gm(capsys: pytest.CaptureFixture[str],
                                                 log_file: Path, tmp_path: Path) -> None:
    assert main(["report", str(log_file), "--out", str(tmp_path), "--no-cache"]) == 0
    folder = tmp_path / "game-reports"
    assert capsys.readouterr().out.splitlines() == [str(folder / f) for f in (
        "gm-register.html", "gm-register.pdf", "private-slips.html", "private-slips.pdf",
        "turn-reports.html", "turn-reports.pdf")]
    reports = page_texts(folder / "turn-reports.pdf")
    assert [header_label(t) for t in reports] == ["Turn 1 report", "Turn 2 report",
                                                  "Turn 3 report"]
    assert [t.split(" Each row")[0] for t in reports] == [
        "Turn 1 report", "Turn 2 report", "Turn 3 report"]  # the page titles
    assert "Guess A B C D E F A 1 X L H H H H" in reports[0]
    assert "B 1 H X ✓ L L L" in reports[0]
    assert "(40)" not in reports[0]  # a guessed number would tell everyone C's secret
    assert "C List 3 correct." in reports[0]
    assert "B 3 (bonus) X X X ✓ H H" in reports[1]
    assert "H higher · L lower · ✓ the guess is that player’s number · X no information" \
        in reports[0]
    assert "Secret" not in " ".join(reports).replace("Secret numbers from", "")
    winner = "B wins in turn 3, by identifying every other number."
    assert [winner in t for t in reports] == [False, False, True]  # the turn's last page only
    register = " ".join(page_texts(folder / "gm-register.pdf"))
    assert header_label(register) == "Secret register"
    assert winner in register
    assert "Range 1 to 50 · 3 turns reported." in register
    assert "Player Secret Has identified (turn.guess) Still to find Guesses next turn" in register
    assert "B 5 A (2.2); C (1.1); D (2.3); E (3.1); F (3.2) nobody –" in register
    assert "A 45 nobody yet all 5 others –" in register
    assert "Lists submitted Turn Player Correct 1 C 3" in register
    assert "GAME MASTER ONLY" in register  # the game master's words, not the host's
    html = (folder / "turn-reports.html").read_text()
    assert html.count("<svg") == 3 and "✓" in html  # the same layout model, as inline SVG


def test_register_without_a_winner_counts_guesses_for_next_turn() -> None:
    log, result, plan = planned(REFERENCE_LOG_TURN_1)
    register = plan.documents[1]
    assert register.stem == "gm-register" and register.audience == "host"
    words = words_of(register.pages)
    assert "No winner yet after 1 turn." in words
    assert result.next_allowance["B"] == 3 and "B 5 C (1.1)" in words
    # each row ends with the guesses next turn: B 3 (one hit: a bonus guess), the others 2
    assert "B 5 C (1.1) A, D, E, F 3 C 40" in words
    assert "A 45 nobody yet all 5 others 2 B" in words


def test_a_log_without_turns_still_gets_its_pages() -> None:
    _, _, plan = planned(REFERENCE_LOG_TURN_1.split("[[turn]]")[0])
    reports, register = plan.documents
    assert [page.label for page in reports.pages] == ["No turns yet"]
    words = words_of(register.pages[:1])
    assert "No winner yet after 0 turns." in words


def test_rows_that_do_not_fit_continue_on_further_pages() -> None:
    # 30 players, two guesses each: 59 rows and a list row in one turn.
    log, _, plan = planned(big_log(30))
    layout = game_layout(log, rules.play(log), paper("a4"), EN)
    assert layout.landscape and not layout.split
    pages = plan.documents[0].pages
    assert layout.rows_per_page == 18  # 60 rows at 18 a landscape A4 page: 4 pages
    assert [p.label for p in pages] == [f"Turn 1 report ({i} of 4)" for i in range(1, 5)]
    assert all(p.landscape for p in pages)


# --- the layout maths, on numbers -------------------------------------------------------------


# how many column parts each report needs, measured on the pages (1: the whole width)
PARTS = {"a4": {4: 1, 6: 1, 20: 1, 30: 1, 36: 2, 60: 2, 100: 4},
         "letter": {4: 1, 6: 1, 20: 1, 30: 2, 36: 2, 60: 3, 100: 4}}


@pytest.mark.parametrize("name", ["a4", "letter"])
@pytest.mark.parametrize("players", [4, 6, 20, 30, 36, 60, 100])
def test_report_layout_portrait_then_landscape_then_split(name: str, players: int) -> None:
    sheet = paper(name)
    label = LABEL_MAX_MM
    layout = report_layout(players, sheet, EN, label)
    assert layout.landscape == (players >= 30)  # measured: 20 columns fit portrait, 30 do not
    assert layout.split == (PARTS[name][players] > 1)
    # the parts cover every column once, in order, as equal as possible
    flat = [i for start, stop in layout.parts for i in range(start, stop)]
    assert flat == list(range(players))
    sizes = [stop - start for start, stop in layout.parts]
    assert max(sizes) - min(sizes) <= 1
    assert len(layout.parts) == PARTS[name][players]  # measured, not recomputed
    body = sheet.oriented(layout.landscape).body
    assert MIN_CELL_MM <= layout.cell_mm <= 14.0
    assert layout.width_mm(max(sizes)) <= body.w + 1e-6
    assert layout.rows_per_page >= 14
    # the rows fill the page, leaving room for the title, the intro line and the legend
    assert body.h - 45 < layout.head_mm + layout.rows_per_page * ROW_MM <= body.h - 25


def test_small_games_print_portrait_with_wide_cells() -> None:
    layout = report_layout(6, paper("a4"), EN)
    assert not layout.landscape and not layout.split and layout.cell_mm == 14.0
    assert report_layout(4, paper("letter"), EN, 50.0, 40.0).cell_mm == 36.4  # room for names


def test_split_parts_for_a_hundred_players() -> None:
    a4 = report_layout(100, paper("a4"), EN, 20.0)  # 257 mm of room: 36 columns a page
    assert a4.landscape and a4.parts == ((0, 34), (34, 67), (67, 100))
    assert a4.cell_mm == 7.5
    letter = report_layout(100, paper("letter"), EN, 20.0)  # 239.4 mm: 34 a page
    assert letter.parts == ((0, 34), (34, 67), (67, 100)) and letter.cell_mm == 7.0


def test_cell_width_rounds_down_and_is_capped() -> None:
    assert cell_width(170.0, 6) == 14.0
    assert cell_width(257.0, 36) == 7.1
    assert cell_width(252.0, 36) == 7.0
    assert cell_width(100.0, 2, 40.0) == 40.0


def test_label_column_grows_with_the_labels() -> None:
    assert label_width(["A 1", "B 3 (bonus)", "C List"]) == 20.0
    assert 30.0 < label_width(["Maximilian 3 (bonus)"]) < 40.0
    assert label_width(["Ångström-Øre sund Müller 12 (bonus)"]) == LABEL_MAX_MM


@pytest.mark.parametrize(("rows", "per_page", "last", "runs"), [
    (0, 30, 30, [(0, 0)]),
    (5, 30, 28, [(0, 5)]),
    (30, 30, 30, [(0, 30)]),
    (31, 30, 30, [(0, 30), (30, 31)]),
    (29, 30, 27, [(0, 28), (28, 29)]),  # the winner box leaves room for 27 on the last page
    (60, 17, 14, [(0, 17), (17, 34), (34, 51), (51, 60)]),
])
def test_row_pages(rows: int, per_page: int, last: int, runs: list[tuple[int, int]]) -> None:
    assert row_pages(rows, per_page, last) == runs


def test_column_note_names_the_first_and_last_player_of_a_part() -> None:
    labels = rules.player_labels(60)
    assert column_note(labels, (0, 35), EN) == "columns A–AI"
    assert column_note(["Ann Lee", "Bob", "Cy Roe"], (0, 3), EN) == "columns Ann Lee – Cy Roe"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_register_columns_fill_the_body_and_fit_their_headers(lang: str) -> None:
    from kit.games.whats_my_number.report.gm_register import REG_HEAD_PT, register_header
    from kit.layout.model import text_width
    from kit.layout.table import PAD_MM

    w = language(lang)
    for name in ("a4", "letter"):
        body = paper(name).body
        for labels in (["A", "B"], list(NAMES)):
            widths = register_widths(body.w, labels, w)
            assert sum(widths) == pytest.approx(body.w, abs=0.2)
            assert min(widths) >= 16.0
            for caption, width in zip(register_header(w), widths, strict=True):
                # a header wraps between words only: its longest word fits whole ("Geheimzahl")
                assert all(text_width(part, REG_HEAD_PT, "bold") <= width - 2 * PAD_MM
                           for part in caption.split()), (lang, caption, width)


def test_wrapped_entries_break_between_entries_never_inside_a_label() -> None:
    entries = [f"{name} ({turn}.{guess})" for turn, name in enumerate(NAMES, 1)
               for guess in (1, 2)]
    lines = wrap_entries(entries, ";", 80.0)
    assert " ".join(lines) == "; ".join(entries)
    for line in lines:
        assert all(piece.rstrip(";") in entries for piece in re.split(r"(?<=;) ", line))
    assert wrap_entries(["A", "B", "C"], ",", 50.0) == ["A, B, C"]
    # a single label wider than the column breaks between its words
    assert wrap_entries(["Ångström-Øre sund Müller"], ",", 30.0, 9.5) == [
        "Ångström-Øre sund", "Müller"]


def test_still_to_find_lists_names_near_the_end_and_counts_them_before() -> None:
    assert still_to_find([], True, EN) == ["nobody"]
    assert still_to_find(["B", "C"], False, EN) == ["all 2 others"]
    assert still_to_find(["B", "C"], True, EN) == ["B", "C"]
    assert still_to_find(rules.player_labels(13), True, EN) == ["13 others"]


# --- every page inside the frame, big parties ------------------------------------------------


@cache
def glyph_bounds(face: str) -> tuple[dict[str, tuple[float, float]], int]:
    """Each character's ink (bottom, top) in font units, and the units per em."""
    font = TTFont(font_path(fonts.FACES[face].file))
    glyphs = font.getGlyphSet()
    out = {}
    for code, name in font.getBestCmap().items():
        pen = BoundsPen(glyphs)
        glyphs[name].draw(pen)
        if pen.bounds:
            out[chr(code)] = (pen.bounds[1], pen.bounds[3])
    return out, font["head"].unitsPerEm


def ink_mm(item: Text) -> tuple[float, float]:
    """The top and bottom of a text's ink on the page, in mm."""
    bounds, units = glyph_bounds(item.face)
    inked = [bounds[ch] for ch in item.text if ch in bounds]
    top = max((b[1] for b in inked), default=0.0) / units
    bottom = min((b[0] for b in inked), default=0.0) / units
    return item.y - pt(item.size) * top, item.y - pt(item.size) * bottom


def check_items(plan: KitPlan, name: str) -> None:
    """Every text at least 8 pt and inside the body frame; player cells at least 7 mm."""
    for document in plan.documents:
        for page in document.pages:
            assert isinstance(page.body, Form)
            body = paper(name).oriented(page.landscape).body
            for item in page.body.items:
                if isinstance(item, Text):
                    assert item.size >= 8.0, item
                    width = fonts.run_width_pt(item.text, item.face, item.size) * 25.4 / 72
                    assert body.x - EPS <= item.x, item
                    assert item.x + width <= body.right + EPS, item
                    top, bottom = ink_mm(item)
                    assert body.y - EPS <= top and bottom <= body.bottom + EPS, item
                elif isinstance(item, Line):
                    assert body.x - 0.5 <= min(item.x1, item.x2)
                    assert max(item.x1, item.x2) <= body.right + 0.5
                    assert body.y - 0.5 <= min(item.y1, item.y2)
                    assert max(item.y1, item.y2) <= body.bottom + 0.5


@pytest.mark.parametrize("name", ["a4", "letter"])
@pytest.mark.parametrize(("players", "named"), [(4, False), (4, True), (36, False),
                                                (36, True), (60, False), (100, True)])
def test_every_text_is_legible_and_inside_the_body(name: str, players: int, named: bool
                                                   ) -> None:
    log, result, plan = planned(big_log(players, named), name)
    check_items(plan, name)
    layout = game_layout(log, result, paper(name), EN)
    texts = [item.text for page in plan.documents[0].pages for item in page.body.items
             if isinstance(item, Text)]
    lists = [t for t in texts if t == "0 correct."]
    assert len(lists) == len(layout.parts)  # the (all wrong) list row, on every part


def test_reference_pages_are_legible_and_inside_the_body() -> None:
    for name in ("a4", "letter"):
        _, _, plan = planned(LOG, name)
        check_items(plan, name)


def test_a_row_taller_than_a_page_continues_on_the_next() -> None:
    # Player 00 finds every other number, two more each turn: 99 named entries in one row.
    count = 100
    labels = [f"{i:02d} {NAMES[i % len(NAMES)]}"[:24].strip() for i in range(count)]
    secrets = {label: i * 9 + 1 for i, label in enumerate(labels)}
    turns, todo, allowed = [], labels[1:], 2
    while todo:
        take, todo = todo[:allowed], todo[allowed:]
        turns.append(f"[[turn]]\n{json.dumps(labels[0])} = "
                     f"{json.dumps([secrets[t] for t in take])}\n")
        allowed = 2 + len(take)
    text = (f'game = "whats-my-number"\nplayers = {json.dumps(labels)}\n[secrets]\n'
            + "".join(f"{json.dumps(k)} = {v}\n" for k, v in secrets.items()) + "".join(turns))
    _, result, plan = planned(text)
    assert result.winners == (labels[0],)
    check_items(plan, "a4")
    pages = plan.documents[1].pages
    words = [[item.text for item in page.body.items if isinstance(item, Text)]
             for page in pages]
    assert len(pages) > 2 and "(continued)" in words[1]
    assert pages[0].label == f"Secret register (1 of {len(pages)})"


def test_forty_named_players_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    log_path = tmp_path / "forty.toml"
    log_path.write_text(big_log(40, named=True, turns=2))
    assert main(["report", str(log_path), "--out", str(tmp_path), "--no-cache"]) == 0
    assert capsys.readouterr().err == ""
    folder = tmp_path / "forty-reports"
    log = rules.parse_game_log(tomllib.loads(log_path.read_text()))
    result = rules.play(log)
    for name in ("a4",):
        layout = game_layout(log, result, paper(name), EN)
        assert layout.landscape and layout.split  # 40 named columns: split in landscape
        # turn 1: 79 rows at 17 a page = 5 pages, each in 2 column parts; turn 2 the same
        assert (layout.rows_per_page, len(layout.parts)) == (17, 2)
        reports = page_texts(folder / "turn-reports.pdf")
        assert len(reports) == 20
        assert header_label(reports[0]) == "Turn 1 report (1 of 10)"
        first, last = log.players[0], log.players[-1]
        assert f"columns {first} – " in reports[0]
        assert f" – {last}" in reports[1]
        assert any(f"{last} 2" in t for t in reports)  # the last row made it
        assert "List 0 correct." in reports[0] and "List 0 correct." in reports[1]  # each part
    assert page_sizes(folder / "turn-reports.pdf") == {(A4[1], A4[0])}  # all landscape
    with pdfplumber.open(folder / "turn-reports.pdf") as pdf:
        for page in pdf.pages[:2]:  # both parts of a turn's first rows; the lint reads them all
            assert page.width > page.height
            assert min(c["size"] for c in page.chars) >= 8 - 0.01
            edges = sorted({round(line["x0"], 1) for line in page.lines  # the table's
                            if abs(line["x0"] - line["x1"]) < 0.01  # rules, not the ruler's
                            and line["bottom"] - line["top"] > 15})  # 3 mm ticks
            gaps = [b - a for a, b in zip(edges, edges[1:], strict=False)]
            assert gaps and min(gaps) * 25.4 / 72 >= MIN_CELL_MM - 0.05
    register = " ".join(page_texts(folder / "gm-register.pdf"))
    assert f"{log.players[0]} 1 {log.players[1]} (1.1)" in register
    for pdf_name in ("turn-reports.pdf", "gm-register.pdf"):
        assert lint_pdf((folder / pdf_name).read_bytes(), pdf_name) == []
