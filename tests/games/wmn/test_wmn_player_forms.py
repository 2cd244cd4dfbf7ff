"""What's My Number? player form pages (kit/games/whats_my_number/sheets/player_sheets.py): the
layout maths on numbers alone, the items of every page checked directly, and one real kit read
back."""

from __future__ import annotations

import io
import math
import re
from functools import cache
from pathlib import Path

import pytest
from pypdf import PdfReader
from support.helpers import plain

from kit import fonts
from kit.cli import main
from kit.games.whats_my_number import rules
from kit.games.whats_my_number.sheets import deduction_pairs as pairs
from kit.games.whats_my_number.sheets import number_slips
from kit.games.whats_my_number.sheets import player_sheets as forms
from kit.games.whats_my_number.sheets.people import MIN_CELL_MM, MIN_TEXT_PT, Person
from kit.i18n import words as language
from kit.layout import slip
from kit.layout.fit import ELLIPSIS, paragraph
from kit.layout.model import Box, Item, Line, Text, pt, text_width
from kit.paper import Frame, Paper, paper

EN = language("en")

PAPERS = ("a4", "letter")
COUNTS = (4, 6, 12, 20, 30)
EPS = 1e-3
GUIDE = re.compile(r"\b(fold|cut)\b", re.IGNORECASE)
LONG_NAMES = ("Ångström-Øre sund Müller", "Bartholomew Fitzgerald-X", "Çağlar Şenyürek-Dąbrowsk",
              "Maximilianeoberwachtmeis", "Wolfgang Wiesenwühlerwit", "Ann", "Bob Li", "Zoë")


def default_range(count: int) -> tuple[int, int]:
    return rules.default_range(count)


def ranges(count: int) -> list[tuple[int, int]]:
    return [default_range(count), (1, 999), (5, 60)]


def people(count: int, named: bool = False) -> list[Person]:
    letters = rules.player_labels(count)
    names = [f"{LONG_NAMES[i % len(LONG_NAMES)][:19].rstrip()} {i:03d}" if named else ""
             for i in range(count)]
    if named:  # the real long names first, each at most 24 characters and all different
        names[:len(LONG_NAMES)] = LONG_NAMES[:count]
    pairs = zip(letters, names, strict=True)
    return [Person(i, letter, name) for i, (letter, name) in enumerate(pairs)]


def text_right(t: Text) -> float:
    return t.x + fonts.run_width_pt(t.text, t.face, t.size) * 25.4 / 72


def outside(items: list[Item], frame: Frame, margin: float = 0.0) -> list[Item]:
    """Items not inside ``frame`` shrunk by ``margin`` mm (text by its ink: width, capitals)."""
    left, top = frame.x + margin - EPS, frame.y + margin - EPS
    right, bottom = frame.right - margin + EPS, frame.bottom - margin + EPS
    bad: list[Item] = []
    for item in items:
        if isinstance(item, Text):
            ok = (item.x >= left and text_right(item) <= right and item.y <= bottom
                  and item.y - pt(item.size) * fonts.CAP_HEIGHT >= top)
        elif isinstance(item, Box):
            ok = (item.x >= left and item.y >= top and item.x + item.w <= right
                  and item.y + item.h <= bottom)
        else:
            ok = all(left <= x <= right for x in (item.x1, item.x2)) and all(
                top <= y <= bottom for y in (item.y1, item.y2))
        if not ok:
            bad.append(item)
    return bad


def check_page(items: list[Item], sheet: Paper) -> None:
    """Every item inside the body, but for the cut lines across, which run 3 mm into the side
    margins; every text at least 8 pt (fold and cut guides 7 pt), never cut with "…"."""
    assert items
    body = sheet.body
    assert outside(items, Frame(body.x - 3.0, body.y, body.w + 6.0, body.h)) == []
    assert all(isinstance(i, Line) and i.y1 == i.y2 and i.x1 == body.x - 3.0
               for i in outside(items, body))
    for t in (i for i in items if isinstance(i, Text)):
        least = 7.0 if GUIDE.search(t.text) else MIN_TEXT_PT
        assert t.size >= least, t
        assert ELLIPSIS not in t.text, t


# --- helpers -------------------------------------------------------------------------------------


def test_hand_widths_grow_with_the_largest_number() -> None:
    assert forms.digits((1, 9)) == 1 and forms.digits((1, 50)) == 2
    assert forms.digits((5, 999)) == 3
    assert forms.hand_mm((1, 50)) < forms.hand_mm((1, 999))
    for number_range in ((1, 9), (1, 50), (1, 999)):
        assert forms.sub_mm(number_range, EN) >= max(MIN_CELL_MM, forms.hand_mm(number_range))
        assert forms.list_box_mm(number_range) >= forms.hand_mm(number_range)
        assert forms.guess_box_mm(number_range) >= forms.hand_mm(number_range)
        assert number_slips.slip_box_mm(number_range) >= 4 * forms.digits(number_range)


def test_two_line_width_breaks_between_words_only() -> None:
    size = 9.0
    assert forms.two_line_mm("Ann", size) == pytest.approx(text_width("Ann", size))
    whole = text_width("B · Bartholomew Fitzgerald-X", size)
    two = forms.two_line_mm("B · Bartholomew Fitzgerald-X", size)
    assert two < whole
    assert two == pytest.approx(max(text_width("B · Bartholomew", size),
                                    text_width("Fitzgerald-X", size)))


# --- secret-number slips -------------------------------------------------------------------------


@pytest.mark.parametrize("paper_name", PAPERS)
def test_slip_grid_fills_the_body_eight_a_page(paper_name: str) -> None:
    body = paper(paper_name).body
    grid = number_slips.slip_grid(body)
    assert (grid.columns, grid.rows, grid.per_page) == (2, 4, 8)
    assert grid.columns * grid.width_mm <= body.w + EPS
    assert grid.rows * grid.height_mm <= body.h + EPS
    assert body.h - grid.rows * grid.height_mm < 0.1
    assert (grid.width_mm, grid.height_mm) >= number_slips.SLIP_MIN_MM
    b = slip.bands(0, 0, grid.width_mm, grid.height_mm)
    assert b.flap.h >= slip.FLAP_MIN_MM
    # the instructions (longest range) end well above the fold line and its label
    inner = grid.width_mm - 2 * slip.PAD_MM
    _, used = paragraph(0, 0, inner, [(number_slips.slip_words((100, 999), EN), "regular")],
                        number_slips.SLIP_TEXT_PT, 1.2)
    assert 1.2 + used <= b.middle.h - 2.0
    # the box sits in the flap, and its label clears the fold line
    assert 5.6 + min(number_slips.SLIP_BOX_H_MM, b.flap.h - 7.5) <= b.flap.h - 1.5
    assert number_slips.slip_box_mm((1, 999)) <= inner


def test_slip_grid_refuses_a_tiny_page() -> None:
    from kit.errors import LayoutError

    with pytest.raises(LayoutError):
        number_slips.slip_grid(Frame(10, 10, 120, 150))


@pytest.mark.parametrize("paper_name", PAPERS)
@pytest.mark.parametrize("count", COUNTS)
def test_slip_pages(paper_name: str, count: int) -> None:
    sheet = paper(paper_name)
    everyone = people(count, named=True)
    pages = number_slips.slip_pages(sheet, everyone, default_range(count), EN)
    total = math.ceil(count / 8)
    assert [label for label, _ in pages] == [f"Secret-number slips {i} of {total}"
                                             for i in range(1, total + 1)]
    texts = []
    for _, items in pages:
        check_page(items, sheet)
        texts += [t for t in items if isinstance(t, Text)]
    words = " ".join(" ".join(t.text for t in texts).split())
    lo, hi = default_range(count)
    for person in everyone:
        assert f"Secret number slip · player {person.letter}" in words
        # the label prints whole, bold, between 15 and 9 pt
        (name,) = [t for t in texts if t.text == plain(person.text)]
        assert name.face == "bold" and 9.0 <= name.size <= 15.0
    assert words.count(f"Secret number, {lo} to {hi}") == count
    assert words.count("fold the strip up") == count
    assert words.count("Another player may hold the same number: that is allowed.") == count
    bold = [t for t in texts if t.face == "bold"]
    assert all(t.size >= 9.0 for t in bold)


# --- order forms ---------------------------------------------------------------------------------


@pytest.mark.parametrize("paper_name", PAPERS)
def test_form_grid_on_numbers(paper_name: str) -> None:
    body = paper(paper_name).body
    previous = 0.0
    for count in range(4, 31):
        for number_range in ranges(count):
            g = forms.form_grid(body, count, number_range)
            assert g.columns == 2 and g.rows >= 2
            assert g.columns * g.width_mm <= body.w + EPS
            assert g.rows * g.height_mm <= body.h + EPS
            assert g.needed_mm <= g.height_mm
            # pinned, not recomputed: 37 mm of heading and guess boxes, 9 mm a list line
            assert g.needed_mm == pytest.approx(37 + 9 * g.list_lines)
            # every opponent gets a box; the lines are as few as the width allows
            assert g.per_line * g.list_lines >= count - 1 > g.per_line * (g.list_lines - 1)
            inner = g.width_mm - 2 * forms.FORM_PAD_MM
            used = forms.LIST_INDENT_MM + g.per_line * (g.slot_mm + g.box_mm) + (
                g.per_line - 1) * forms.LIST_GAP_MM
            assert used <= inner
            assert used + g.slot_mm + g.box_mm + forms.LIST_GAP_MM > inner
            # the widest letter (AA.. with more than 26 players) fits left of its box
            widest = max(text_width(label, forms.LIST_LETTER_PT, "bold")
                         for label in rules.player_labels(count))
            assert widest + forms.PAD_MM <= g.slot_mm
            assert g.box_mm >= forms.hand_mm(number_range)
            assert min(forms.LIST_BOX_H_MM, forms.FORM_BOX_H_MM) >= MIN_CELL_MM
        # the form grows with the player count, never shrinks
        g = forms.form_grid(body, count, default_range(count))
        assert g.needed_mm >= previous
        previous = g.needed_mm


@pytest.mark.parametrize("paper_name", PAPERS)
def test_forms_per_page(paper_name: str) -> None:
    body = paper(paper_name).body
    per_page = {count: forms.form_grid(body, count, default_range(count)).per_page
                for count in COUNTS}
    assert per_page[4] == 10
    assert per_page[30] == 4
    assert list(per_page.values()) == sorted(per_page.values(), reverse=True)


@pytest.mark.parametrize("paper_name", PAPERS)
@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("named", [False, True])
def test_order_form_pages(paper_name: str, count: int, named: bool) -> None:
    sheet = paper(paper_name)
    everyone = people(count, named)
    number_range = (1, 999) if named else default_range(count)
    turns = 3
    pages = forms.order_form_pages(sheet, everyone, turns, number_range, EN)
    grid = forms.form_grid(sheet.body, count, number_range)
    total = math.ceil(count * turns / grid.per_page)
    assert [label for label, _ in pages] == [f"Order forms {i} of {total}"
                                             for i in range(1, total + 1)]
    for _, items in pages:
        check_page(items, sheet)
    words = " ".join(" ".join(t.text for _, items in pages for t in items
                              if isinstance(t, Text)).split())
    assert words.count("order form · turn") == count * turns
    assert words.count("Guess 1") == count * turns
    assert words.count("one per hit last turn") == count * turns
    assert words.count("— or a list: a number for every other player —") == count * turns
    assert all(plain(person.text) in words for person in everyone)


@pytest.mark.parametrize("paper_name", PAPERS)
@pytest.mark.parametrize("count", (4, 27, 30))
def test_one_order_form_stays_in_its_cell(paper_name: str, count: int) -> None:
    sheet = paper(paper_name)
    everyone = people(count, named=True)
    number_range = (1, 999)
    grid = forms.form_grid(sheet.body, count, number_range)
    for person in everyone[:3] + everyone[-1:]:
        opponents = [o for o in everyone if o is not person]
        items = forms.form_items(person, opponents, 30, 50.0, 40.0, grid, number_range,
                                 EN)
        cell = Frame(50.0, 40.0, grid.width_mm, grid.needed_mm)
        assert outside(items, cell, 1.0) == []  # 1 mm clear of the cut lines
        letters = [t.text for t in items if isinstance(t, Text) and t.face == "bold"
                   and t.size == forms.LIST_LETTER_PT]
        assert letters == [o.letter for o in opponents]
        boxes = [b for b in items if isinstance(b, Box)]
        assert len(boxes) == 2 + forms.BONUS_BOXES + len(opponents)
        assert all(b.h >= MIN_CELL_MM and b.w >= forms.hand_mm(number_range) for b in boxes)
        assert not any(isinstance(t, Text) and ELLIPSIS in t.text for t in items)


# --- deduction sheets ----------------------------------------------------------------------------


@cache
def top_height(paper_name: str) -> float:
    return forms.deduction_top(paper(paper_name).body, Person(0, "AD", LONG_NAMES[0]), EN)[1]


def check_deduction_layout(lay: forms.DeductionLayout, width: float, height: float,
                           opponents: int, turns: int, number_range: tuple[int, int]) -> None:
    assert lay.sub_mm >= max(MIN_CELL_MM, forms.hand_mm(number_range))
    assert lay.sub_mm >= text_width(forms.low_high(EN)[1], forms.DED_SUB_PT) + 2 * forms.PAD_MM
    assert lay.row_mm >= (forms.DED_ROW_TWO_MM if lay.label_lines == 2 else MIN_CELL_MM)
    assert lay.row_mm <= forms.DED_MAX_ROW_MM
    # turns and opponents covered in order, nothing twice
    assert [t for a, b in lay.turn_parts for t in range(a, b)] == list(range(1, turns + 1))
    assert [o for a, b in lay.opponent_parts for o in range(a, b)] == list(range(opponents))
    for a, b in lay.turn_parts:
        assert lay.block_width_mm(b - a) <= width + EPS
    tallest = max(lay.block_height_mm(b - a) for a, b in lay.opponent_parts)
    per_page = lay.blocks_per_page
    assert per_page * tallest + (per_page - 1) * forms.DED_GAP_MM <= height + EPS
    assert lay.pages == math.ceil(len(lay.blocks) / per_page)


@pytest.mark.parametrize("paper_name", PAPERS)
def test_deduction_layout_on_numbers(paper_name: str) -> None:
    body = paper(paper_name).body
    for count in range(4, 31):
        labels = rules.player_labels(count)[1:]
        for number_range in ranges(count):
            height = body.h - top_height(paper_name)
            for turns in range(1, 31):
                lay = forms.best_deduction_layout(body.w, height, labels, turns, number_range,
                                                  EN)
                check_deduction_layout(lay, body.w, height, count - 1, turns, number_range)
                assert lay.label_lines == 1
                if turns <= 8:  # the default game: one page a player, even for 30 players
                    assert lay.pages == 1


@pytest.mark.parametrize("paper_name", PAPERS)
@pytest.mark.parametrize("count", COUNTS)
def test_deduction_layout_with_long_names(paper_name: str, count: int) -> None:
    body = paper(paper_name).body
    labels = [plain(p.text) for p in people(count, named=True)[1:]]
    for number_range in ranges(count):
        height = body.h - top_height(paper_name)
        for turns in (1, 8, 30):
            lay = forms.best_deduction_layout(body.w, height, labels, turns, number_range,
                                                  EN)
            check_deduction_layout(lay, body.w, height, count - 1, turns, number_range)
            # every label fits its column whole: one line at 8 pt or more, or two lines
            # broken between words
            room = lay.label_mm - 2 * forms.PAD_MM
            for label in labels:
                if lay.label_lines == 1:
                    assert text_width(label, MIN_TEXT_PT) <= room + EPS
                else:
                    assert forms.two_line_mm(label, MIN_TEXT_PT) <= room + EPS


def test_label_columns_most_legible_first() -> None:
    short = forms.label_columns(["B", "C", "D"], EN)
    assert short[0].lines == 1
    assert short[0].width_mm == pytest.approx(18.7)  # "Mine" at 8 pt and its padding, measured
    named = forms.label_columns(["B · Bartholomew Fitzgerald-X", "C · Cy"], EN)
    assert [c.lines for c in named] == [1, 2, 1]
    assert named[1].width_mm < named[0].width_mm
    assert named[2].width_mm < named[0].width_mm


def test_best_layout_prefers_fewer_pages_then_legibility() -> None:
    body = paper("a4").body
    labels = [plain(p.text) for p in people(6, named=True)[1:]]
    lay = forms.best_deduction_layout(body.w, body.h - 20, labels, 8, (1, 50), EN)
    assert (lay.pages, len(lay.blocks)) == (1, 1)
    assert lay.label_lines == 2  # 9 pt on two lines beats 8 pt on one
    labels = [plain(p.text) for p in people(30, named=True)[1:]]
    lay = forms.best_deduction_layout(body.w, body.h - 20, labels, 8, (1, 290), EN)
    assert lay.label_lines == 1  # 7 mm rows: every opponent in one block
    assert len(lay.opponent_parts) == 1


@pytest.mark.parametrize("paper_name", PAPERS)
@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("turns", (1, 8, 30))
def test_deduction_pages(paper_name: str, count: int, turns: int) -> None:
    sheet = paper(paper_name)
    everyone = people(count, named=turns != 1)
    number_range = (1, 999) if turns == 30 else default_range(count)
    lo, hi = number_range
    for person in (everyone[0], everyone[-1]):
        pages = forms.deduction_pages(sheet, person, everyone, turns, number_range, EN)
        labels = [label for label, _ in pages]
        if len(pages) == 1:
            assert labels == [f"Deduction sheet {person.letter}"]
        else:
            assert labels == [f"Deduction sheet {person.letter} {i} of {len(pages)}"
                              for i in range(1, len(pages) + 1)]
        texts = []
        for _, items in pages:
            check_page(items, sheet)
            page_texts = [t.text for t in items if isinstance(t, Text)]
            assert f"Deduction sheet · {plain(person.text)}" in page_texts
            texts += page_texts
        for t in range(1, turns + 1):
            assert f"Turn {t}" in texts
        # the pre-printed range sits in the Start columns, once per opponent
        assert texts.count(str(lo)) >= count - 1 and texts.count(str(hi)) >= count - 1
        assert texts.count("Start") == len({o for (_, o) in _blocks(sheet, person, everyone,
                                                                     turns, number_range)})
        assert "My guesses" in texts
        assert plain(person.text) not in texts  # no row for the sheet's owner


def _blocks(sheet: Paper, person: Person, everyone: list[Person], turns: int,
            number_range: tuple[int, int]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    body = sheet.body
    top = forms.deduction_top(sheet.body, person, EN)[1]
    lay = forms.best_deduction_layout(body.w, body.h - top,
                                      [plain(o.text) for o in everyone if o is not person], turns,
                                      number_range, EN)
    return lay.blocks


def owner(title: Text) -> str:
    """The player letter a deduction sheet's title names."""
    return title.text.split(" · ", 1)[1]


@pytest.mark.parametrize("paper_name", PAPERS)
@pytest.mark.parametrize(("count", "turns", "large", "expected"), [
    (4, 8, False, 2), (5, 8, False, 3), (6, 8, False, 3), (12, 8, False, 6),
    (14, 8, False, 14), (30, 8, False, 30),  # a sheet fills a page: a page each
    (4, 30, False, 4), (12, 30, False, 24),  # two blocks a sheet: no room for two sheets
    (4, 8, True, 4), (5, 2, True, 3), (12, 2, True, 12),
])
def test_deduction_sheets_two_to_a_page_when_each_fits_half(
        paper_name: str, count: int, turns: int, large: bool, expected: int) -> None:
    """Every player's sheet once, in order; two to a page, one in each half with a cut line
    across the middle, when every sheet fits half a page; else a page (or more) each."""
    sheet = paper(paper_name)
    everyone = people(count)
    pages = pairs.deduction_sheets(sheet, everyone, turns, default_range(count), EN, large)
    assert len(pages) == expected
    paired = expected <= -(-count // 2)
    titles = []
    middle = sheet.body.y + sheet.body.h / 2
    for label, items in pages:
        check_page(items, sheet)
        heads = [t for t in items if isinstance(t, Text)
                 and t.text.startswith("Deduction sheet · ")]
        titles += [t.text for t in heads]
        cuts = [i for i in items if isinstance(i, Line) and i.x1 < sheet.body.x]
        if len(heads) == 2:
            (cut,) = cuts
            assert cut.y1 == pytest.approx(middle)
            assert cut.x2 - cut.x1 == pytest.approx(sheet.body.w + 6.0)  # into the margins
            assert heads[0].y < middle < heads[1].y
            assert label == f"Deduction sheets {owner(heads[0])} and {owner(heads[1])}"
            lower = [t for t in items if isinstance(t, Text) and t.y > middle]
            upper = [t for t in items if isinstance(t, Text) and t.y < middle]
            assert all(t.y - pt(t.size) > middle + 2.0 for t in lower)  # clear of the cut
            assert all(t.y < middle - 2.0 for t in upper)
        else:
            assert cuts == [] and label.startswith(f"Deduction sheet {owner(heads[0])}")
            assert not paired or owner(heads[0]) == everyone[-1].letter  # an odd one out
    # a long sheet repeats its title on each of its pages
    assert list(dict.fromkeys(titles)) == [f"Deduction sheet · {p.text}" for p in everyone]
    assert sum("Deduction sheets" in label for label, _ in pages) == (
        count // 2 if paired else 0)


def test_deduction_cells_stay_big_enough() -> None:
    sheet = paper("letter")
    everyone = people(30)
    (label, items), = forms.deduction_pages(sheet, everyone[0], everyone, 8, (1, 999), EN)
    assert label == "Deduction sheet A"
    lines = [i for i in items if isinstance(i, Line)]
    xs = sorted({round(line.x1, 2) for line in lines if line.x1 == line.x2})
    ys = sorted({round(line.y1, 2) for line in lines if line.y1 == line.y2})
    assert min(b - a for a, b in zip(xs, xs[1:], strict=False)) >= forms.sub_mm((1, 999), EN) - EPS
    heights = [b - a for a, b in zip(ys, ys[1:], strict=False)]
    assert min(heights) >= min(forms.DED_HEAD_MM) - EPS
    assert sorted(heights)[len(forms.DED_HEAD_MM)] >= MIN_CELL_MM - EPS


# --- a real kit, read back -----------------------------------------------------------------------


def test_kit_pdf_reads_back(tmp_path: Path) -> None:
    names = "Ann,Bartholomew Fitzgerald-X,Cy,Ångström-Øre sund Müller,Eve,Fay"
    assert main(["build", "whats-my-number", "--names", names, "--turns", "3",
                 "--out", str(tmp_path), "--no-cache"]) == 0
    (folder,) = [p for p in tmp_path.iterdir() if not p.name.startswith(".")]
    data = (folder / "player-kit.pdf").read_bytes()
    pages = [" ".join((page.extract_text() or "").split())
             for page in PdfReader(io.BytesIO(data)).pages]
    everything = " ".join(pages)
    for letter, name in zip("ABCDEF", names.split(","), strict=True):
        assert f"Secret number slip · player {letter}" in everything
        assert f"{letter} · {name}" in everything
        assert f"Deduction sheet · {letter} · {name}" in everything
    assert "Secret number, 1 to 50" in everything
    assert "fold the strip up · number inside" in everything
    assert len(re.findall(r"order form · turn ?3", everything)) == 6
    assert everything.count("— or a list: a number for every other player —") == 18
    deduction = [p for p in pages if "Deduction sheet ·" in p]
    assert len(deduction) == 3  # six players' sheets, two to a page
    assert all(page.count("Deduction sheet ·") == 2 for page in deduction)
    for page in deduction:
        assert all(w in page for w in ("Start", "Turn 1", "Turn 3", "low", "high",
                                       "My guesses"))
        assert page.count(" 50") >= 5
    slips = [p for p in pages if "Secret number slip ·" in p]
    forms_pages = [p for p in pages if "order form ·" in p]
    assert len(slips) == 1 and len(forms_pages) == 2  # 18 forms, 10 a page

    from support.print_lint import lint_pdf

    mine = {i for i, p in enumerate(pages, 1) if p in slips + forms_pages + deduction}
    assert [d for d in lint_pdf(data) if d.page in mine] == []


@pytest.mark.parametrize("label", ["fold the strip up · number inside",
                                   "dobla la tira hacia arriba · número dentro"])
def test_dashed_fold_line_ends_on_a_whole_dash(label: str) -> None:
    """Browsers and PDF viewers agree where a dashed line's ink stops only if it ends on a
    whole dash (a cut-off last dash printed 0.8 mm shorter in Chromium)."""
    items = slip.fold(slip.bands(10.0, 20.0, 92.6, 65.0), label)
    (line,) = [item for item in items if isinstance(item, Line)]
    on, off = line.dash
    periods = (line.x2 - line.x1 - on) / (on + off)
    assert periods == pytest.approx(round(periods), abs=1e-3)
    first = min(item.x for item in items if isinstance(item, Text))
    # the line stops short of its label, by its 1.5 mm gap and at most one dash more
    assert first - 1.5 - (on + off) < line.x2 <= first - 1.5 + 1e-3
