"""What's My Number? in large print: the forms a player writes on (secret-number slips, order
forms, deduction sheets, the blank turn report) print every word at 12 pt or more, with bigger
hand-writing boxes and fewer forms a page. The game master's grid and register pages keep
their sizes.

The layout maths is checked on numbers; the sizes are read back from built PDFs (every
character of those pages, inside the body frame), which must pass the print lint too.
"""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from support.helpers import build_kit
from support.print_lint import lint_pdf

from kit.build import planned
from kit.config import resolve
from kit.games.whats_my_number.report import players_sheet
from kit.games.whats_my_number.rules import default_range
from kit.games.whats_my_number.sheets import number_slips
from kit.games.whats_my_number.sheets import player_sheets as forms
from kit.games.whats_my_number.sheets.people import Person
from kit.i18n import LANGUAGES, words
from kit.layout import slip
from kit.layout.fit import paragraph
from kit.paper import paper
from kit.plan import Form, Prose
from kit.registry import game_spec

MM = 72 / 25.4
LARGE_PT = 12.0
EPS = 1e-6
RANGES = [(1, 9), (1, 40), (1, 290), (100, 999)]


def test_large_print_sizes_are_12_pt_or_more() -> None:
    large = forms.LARGE_FORM
    assert min(large.name_pt + large.turn_pt + (large.label_pt, large.least_pt,
                                                 large.hint_pt, large.letter_pt)) == LARGE_PT
    ded = forms.LARGE_DEDUCTION
    assert min(ded.title_pt + (ded.text_pt, ded.head_pt, ded.sub_pt, ded.label_pt,
                               ded.least_pt)) == LARGE_PT
    sheet = players_sheet.LARGE
    assert min(sheet.label_pt, sheet.cell_pt, sheet.intro_pt, sheet.legend_pt,
               sheet.least_pt) == LARGE_PT


@pytest.mark.parametrize("number_range", RANGES)
def test_hand_writing_boxes_grow_by_a_third(number_range: tuple[int, int]) -> None:
    large, usual = forms.LARGE_FORM, forms.FORM
    for size in (forms.list_box_mm, forms.guess_box_mm, forms.bonus_box_mm):
        assert size(number_range, large) >= 1.3 * size(number_range, usual) - 0.01
    assert large.box_h_mm >= 1.3 * usual.box_h_mm - EPS
    assert large.list_box_h_mm >= 1.3 * usual.list_box_h_mm - EPS
    assert (number_slips.slip_box_mm(number_range, True)
            >= 1.3 * number_slips.slip_box_mm(number_range) - 0.1)
    en = words("en")
    assert (forms.sub_mm(number_range, en, forms.LARGE_DEDUCTION)
            >= 1.3 * max(forms.MIN_CELL_MM, forms.hand_mm(number_range)) - EPS)
    assert forms.LARGE_DEDUCTION.row_mm >= 1.3 * forms.DED_ROW_MM - EPS
    assert players_sheet.LARGE.row_mm >= 1.3 * players_sheet.SHEET.row_mm - EPS
    assert players_sheet.LARGE_CELL_MIN_MM >= 1.3 * forms.MIN_CELL_MM - EPS


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_large_slips_hold_their_instructions_four_a_page(paper_name: str) -> None:
    body = paper(paper_name).body
    grid = number_slips.slip_grid(body, number_slips.LARGE_SLIP_ROWS)
    assert grid.per_page == 4
    b = slip.bands(0.0, 0.0, grid.width_mm, grid.height_mm)
    room = b.middle.h - 1.2 - 2.0  # clear of the fold line's label
    for lang in LANGUAGES:
        for number_range in RANGES:
            instructions = number_slips.slip_words(number_range, words(lang))
            height = paragraph(0.0, 0.0, b.middle.w - 2 * slip.PAD_MM,
                               [(instructions, "regular")], LARGE_PT,
                               number_slips.SLIP_LEADING)[1]
            assert height <= room, (lang, number_range)


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_large_order_forms_and_deduction_sheets_fit_every_party(paper_name: str) -> None:
    body = paper(paper_name).body
    for count in (4, 8, 17, 30):
        number_range = default_range(count)
        grid = forms.form_grid(body, count, number_range, forms.LARGE_FORM)
        usual = forms.form_grid(body, count, number_range)
        assert grid.columns == 1 and grid.per_page < usual.per_page
        assert grid.needed_mm * grid.rows <= body.h + EPS
        people = [Person(i, label) for i, label in
                  enumerate(forms.labels(count, words("en")))]
        top = forms.deduction_top(paper(paper_name).body, people[0], words("en"),
                                  forms.LARGE_DEDUCTION)[1]
        lay = forms.best_deduction_layout(body.w, body.h - top, [p.text for p in people[1:]],
                                          4, number_range, words("en"),
                                          forms.LARGE_DEDUCTION)
        assert lay.block_width_mm(max(b - a for a, b in lay.turn_parts)) <= body.w + EPS
        assert lay.row_mm >= forms.LARGE_DEDUCTION.row_mm


def _form_pages(config, stem: str = "player-kit") -> list[tuple[int, bool]]:
    """(1-based page number, landscape) of the document's form pages."""
    plan = planned(game_spec(config.game), config)
    (document,) = [d for d in plan.documents if d.stem == stem]
    return [(n, page.landscape) for n, page in enumerate(document.pages, start=1)
            if isinstance(page.body, Form)]


def _small_or_outside(pdf: Path, paper_name: str, pages: list[tuple[int, bool]]) -> list[str]:
    """The characters under 12 pt inside the body frame of ``pages``, and any outside it but
    for the running head and the footer."""
    found = []
    with pdfplumber.open(pdf) as document:
        for number, landscape in pages:
            body = paper(paper_name).oriented(landscape).body
            top, bottom = body.y * MM, body.bottom * MM
            inside = [c for c in document.pages[number - 1].chars
                      if top <= c["top"] and c["bottom"] <= bottom]
            small = "".join(c["text"] for c in inside if c["size"] < LARGE_PT - 0.01)
            wide = "".join(c["text"] for c in inside
                           if c["x0"] < body.x * MM - 0.5 or c["x1"] > body.right * MM + 0.5)
            if small or wide:
                found.append(f"page {number}: {small[:60]!r} {wide[:60]!r}")
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "paper_name"), [
    ("en", "letter"), ("fr", "a4"), ("de", "letter"), ("es", "a4"), ("ru", "letter"),
])
def test_player_forms_print_every_word_at_12_pt(tmp_path: Path, lang: str,
                                                paper_name: str) -> None:
    folder = build_kit(tmp_path, "whats-my-number", "--players", "9", "--turns", "2",
                       "--lang", lang, "--paper", paper_name, "--names",
                       "Ann,Bartholomew Fitzgerald,Cy,Dee,Eve,Flo,Gus,Hal,Ivy", "--large-print")
    config = resolve({"game": "whats-my-number", "players": 9, "turns": 2, "lang": lang,
                      "paper": paper_name, "large_print": True,
                      "names": "Ann,Bartholomew Fitzgerald,Cy,Dee,Eve,Flo,Gus,Hal,Ivy"})
    pages = _form_pages(config)
    # 3 slip pages (4 a page), 18 order forms, 9 deduction sheets, 2 turns' reports
    assert len(pages) >= 3 + 1 + 9 + 2
    assert _small_or_outside(folder / "player-kit.pdf", paper_name, pages) == []
    data = (folder / "player-kit.pdf").read_bytes()
    assert lint_pdf(data, f"{lang}/player-kit.pdf") == []


@pytest.mark.slow
def test_the_usual_kit_keeps_its_sizes(tmp_path: Path) -> None:
    # the same party without large print: eight slips a page, two order forms across, and
    # the forms' small print (the slip's 8.5 pt instructions, the 8 pt "low"/"high")
    folder = build_kit(tmp_path, "whats-my-number", "--players", "9", "--turns", "2")
    config = resolve({"game": "whats-my-number", "players": 9, "turns": 2})
    plan = planned(game_spec(config.game), config)
    labels = [p.label for p in plan.documents[0].pages]
    assert len([label for label in labels if label.startswith("Secret-number slips")]) == 2
    with pdfplumber.open(folder / "player-kit.pdf") as document:
        first_slips = labels.index("Secret-number slips 1 of 2")
        sizes = {round(c["size"], 1) for c in document.pages[first_slips].chars}
        assert {8.5, 10.0, 15.0} <= sizes
        deduction = labels.index("Deduction sheets A and B")
        assert 8.0 in {round(c["size"], 1) for c in document.pages[deduction].chars}


@pytest.mark.parametrize("large_print", [False, True])
def test_the_game_master_card_gives_the_reports_printed_pages(large_print: bool) -> None:
    # in large print the rules and the report legend take two pages each: the card counts them
    config = resolve({"game": "whats-my-number", "players": 5, "turns": 2,
                      "large_print": large_print})
    plan = planned(game_spec(config.game), config)
    players, hosts = plan.documents
    reports = [n for n, page in enumerate(players.pages, start=1)
               if page.label.startswith("Turn ")]
    card = next(page.body for page in hosts.pages if page.label.startswith("Game master card"))
    assert isinstance(card, Prose)
    assert card.context["report_pages"] == (reports[0], reports[-1]) == (
        (13, 14) if large_print else (8, 8))  # five deduction sheets on three pages
    # (two turns' reports on one but in large print)
