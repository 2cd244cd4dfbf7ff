"""What's My Number? player form pages as layout models: order forms, deduction sheets (the
secret-number slips are ``number_slips``).

Every function returns ``(label, items)`` pages whose items lie in the paper's body frame (mm).
The layout maths (slip and form grids, how many list entries a row holds, rows per page, how a
deduction table is cut into blocks and pages) is in small pure functions tested on numbers
alone; the drawing functions only place what those give them.

Layout decisions:

* Order forms: two columns; a form's height follows from the player count (the list part has a
  labelled box per opponent, as many a line as fit), as many rows a page as fit, the cells
  stretched to share the page evenly. Forms run player by player, turn by turn.
* Deduction sheets: a table per block; a block holds as many turns as fit the width (a
  "Start" pair first, "So far" on later blocks) and as many opponents as fit a page (more
  opponents continue in a further block with the "My guesses" row repeated); blocks fill a
  page, then the next. Rows are 7 mm (8 mm when a label needs two lines) and grow up to 12 mm
  when the page has room. The row labels take one line at 9 pt, two lines at 9 pt or one
  line at 8 pt, whichever needs the fewest pages and blocks (in that order on a tie). When
  every player's sheet fits half a page, two share a page (``deduction_pairs``).
* Large print (``LARGE_FORM``, ``LARGE_DEDUCTION``): the same layouts with every word at 12 pt,
  the hand-writing boxes, cells and rows 1.3 times the usual, and one order form across the
  page (at 12 pt, half an A4 page is too narrow for the Russian guess line, and leaves the
  bonus line's hint 8 to 18 mm for 37 to 70 mm of words).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ....errors import LayoutError
from ....i18n import LANGUAGES, Words, words
from ....layout.blocks import para
from ....layout.fit import fit, fit_in
from ....layout.fit import place as place_fitted
from ....layout.fit import sizes as font_sizes
from ....layout.model import Item, Place, baseline_in, box, hline, pt, text, text_width, vline
from ....layout.table import cut_grid, in_cell
from ....paper import Frame, Paper
from .people import LARGE_PT, MIN_CELL_MM, MIN_TEXT_PT, Person, labels, one_line, split

Pages = list[tuple[str, list[Item]]]

PAD_MM = 1.2  # between a cell's text and its rules
HAND_DIGIT_MM = 2.5  # a handwritten digit, small (table cells)
HAND_MARGIN_MM = 2.0  # room around a handwritten number in its cell


def digits(number_range: tuple[int, int]) -> int:
    """Digits of the range's largest number."""
    return len(str(number_range[1]))


def hand_mm(number_range: tuple[int, int]) -> float:
    """Width the range's largest number takes written by hand in a table cell."""
    return HAND_MARGIN_MM + HAND_DIGIT_MM * digits(number_range)


# --- order forms ----------------------------------------------------------------------------------

FORM_COLUMNS = 2
FORM_PAD_MM = 3.0  # left and right, inside the cut lines
FORM_TOP_MM = 2.5
FORM_HEAD_MM = 7.0  # the player's label and "order form · turn N"
FORM_LINE_MM = 10.0  # the guess line, the bonus line
FORM_OR_MM = 6.0  # "— or a list ... —"
FORM_BOTTOM_MM = 1.5
FORM_FIXED_MM = FORM_TOP_MM + FORM_HEAD_MM + 2 * FORM_LINE_MM + FORM_OR_MM + FORM_BOTTOM_MM
FORM_NAME_PT = (12.0, 8.0)
FORM_TURN_PT = (9.0, 12.0)  # "order form · turn", then the turn's number in bold
FORM_LABEL_PT = 9.5
FORM_HINT_PT = 8.0
FORM_BOX_H_MM = 8.0
GUESS_BOX_MIN_MM = 15.0
BONUS_BOX_MIN_MM = 12.0
BONUS_BOXES = 3
GUESS_GAP_MM = 6.0  # between the first guess box and "Guess 2"
LIST_LETTER_PT = 10.0
LIST_ROW_MM = 9.0
LIST_BOX_H_MM = 7.5
LIST_BOX_MIN_MM = 11.0
LIST_GAP_MM = 2.5  # between two entries of a list line
LIST_INDENT_MM = 1.0


@dataclass(frozen=True)
class FormSizes:
    """The type sizes (pt) and heights (mm) of an order form: the usual ones or large print."""

    columns: int
    head_mm: float
    line_mm: float
    or_mm: float
    name_pt: tuple[float, float]  # the player's label, shrunk from the first to the second
    turn_pt: tuple[float, float]
    label_pt: float
    least_pt: float  # no word of the form smaller
    hint_pt: float
    box_h_mm: float
    letter_pt: float
    row_mm: float  # a line of the list
    list_box_h_mm: float
    box_scale: float  # the hand-writing boxes' widths, times this

    @property
    def fixed_mm(self) -> float:
        return FORM_TOP_MM + self.head_mm + 2 * self.line_mm + self.or_mm + FORM_BOTTOM_MM


FORM = FormSizes(FORM_COLUMNS, FORM_HEAD_MM, FORM_LINE_MM, FORM_OR_MM, FORM_NAME_PT,
                 FORM_TURN_PT, FORM_LABEL_PT, MIN_TEXT_PT, FORM_HINT_PT, FORM_BOX_H_MM,
                 LIST_LETTER_PT, LIST_ROW_MM, LIST_BOX_H_MM, 1.0)
# large print: one form across the page (its 12 pt guess and bonus lines need the width), every
# word at 12 pt or more, the hand-writing boxes 1.3 times the usual
LARGE_FORM = FormSizes(1, 9.0, 13.0, 8.0, (16.0, LARGE_PT), (LARGE_PT, 16.0), LARGE_PT,
                       LARGE_PT, LARGE_PT, 10.4, LARGE_PT, 11.7, 9.8, 1.3)


def list_box_mm(number_range: tuple[int, int], sizes: FormSizes = FORM) -> float:
    return round(max(LIST_BOX_MIN_MM, hand_mm(number_range) + 1.5) * sizes.box_scale, 2)


def guess_box_mm(number_range: tuple[int, int], sizes: FormSizes = FORM) -> float:
    return round(max(GUESS_BOX_MIN_MM, hand_mm(number_range) + 4.0) * sizes.box_scale, 2)


def bonus_box_mm(number_range: tuple[int, int], sizes: FormSizes = FORM) -> float:
    return round(max(BONUS_BOX_MIN_MM, hand_mm(number_range) + 2.0) * sizes.box_scale, 2)


def letter_slot_mm(count: int, letter_pt: float = LIST_LETTER_PT) -> float:
    """Room left of a list box for the widest opponent letter (AA and on need more)."""
    widest = max(text_width(label, letter_pt, "bold")  # the same grid in every language
                 for lang in LANGUAGES for label in labels(count, words(lang)))
    return round(widest + PAD_MM + 0.3, 2)


@dataclass(frozen=True)
class FormGrid:
    """Order forms on a page: the cut grid and the list part of each form."""

    columns: int
    rows: int
    width_mm: float
    height_mm: float  # the cell, stretched to share the page evenly
    needed_mm: float  # what the form needs
    slot_mm: float  # an opponent's letter
    box_mm: float  # an opponent's number box
    per_line: int  # list entries a line
    list_lines: int
    sizes: FormSizes = FORM

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


def form_height_mm(list_lines: int, sizes: FormSizes = FORM) -> float:
    return sizes.fixed_mm + list_lines * sizes.row_mm


def form_grid(body: Frame, count: int, number_range: tuple[int, int],
              sizes: FormSizes = FORM) -> FormGrid:
    """Columns of forms (two, one in large print) for ``count`` players; as many rows as fit
    the body."""
    width = math.floor(body.w / sizes.columns * 100) / 100
    inner = width - 2 * FORM_PAD_MM - LIST_INDENT_MM
    slot = letter_slot_mm(count, sizes.letter_pt)
    box_w = list_box_mm(number_range, sizes)
    per_line = int((inner + LIST_GAP_MM) // (slot + box_w + LIST_GAP_MM))
    if per_line < 1:
        raise LayoutError("paper", "the page is too narrow for the order forms")
    lines = -(-(count - 1) // per_line)
    needed = form_height_mm(lines, sizes)
    rows = int(body.h // needed)
    if rows < 1:
        raise LayoutError("paper", f"the page is too small for an order form with {count - 1} "
                          "list entries")
    height = math.floor(body.h / rows * 100) / 100
    return FormGrid(sizes.columns, rows, width, height, needed, slot, box_w, per_line, lines,
                    sizes)


def turn_parts(turn: int, words: Words) -> tuple[str, str, str]:
    """"order form · turn N" as (before, the number, after): the number prints large and bold
    wherever the language puts it."""
    message = words.gettext("order form · turn %(turn)s")
    before, _, after = message.partition("%(turn)s")
    return before, str(turn), after


def form_labels(words: Words) -> tuple[str, str, str]:
    _ = words.gettext
    return _("Guess 1"), _("Guess 2"), _("Bonus")


def form_label_size(inner: float, number_range: tuple[int, int], words: Words,
                    sizes: FormSizes = FORM) -> float:
    """The guess labels' size: 9.5 pt, smaller (not below 8 pt) when longer labels would push
    the second guess box out of the form (12 pt in large print)."""
    labels = form_labels(words)
    guess_w = guess_box_mm(number_range, sizes)
    for size in font_sizes(sizes.label_pt, sizes.least_pt):
        label_w = max(text_width(w, size) for w in labels) + 1.5
        if 2 * (label_w + guess_w) + GUESS_GAP_MM <= inner:
            return size
    return sizes.least_pt


def form_head(person: Person, turn: int, x: float, right: float, top: float,
              sizes: FormSizes, words: Words) -> list[Item]:
    """The player's label, "order form · turn N" at the right."""
    items: list[Item] = []
    base = baseline_in(top, sizes.head_mm, sizes.turn_pt[1])
    before, number, after = turn_parts(turn, words)
    number_w = text_width(number, sizes.turn_pt[1], "bold")
    after_w = text_width(after, sizes.turn_pt[0])
    turn_w = number_w + text_width(before, sizes.turn_pt[0]) + after_w + 2.0
    items += fit_in(person.text, x, top, right - x - turn_w, sizes.head_mm, sizes.name_pt[0],
                    sizes.name_pt[1], "bold", max_lines=2)
    if after:
        items += text(right, base, after, sizes.turn_pt[0], "regular", "right")
    if before:
        items += text(right - after_w - number_w, base, before, sizes.turn_pt[0], "regular",
                      "right")
    items += text(right - after_w, base, number, sizes.turn_pt[1], "bold", "right")
    return items


def form_items(person: Person, opponents: Sequence[Person], turn: int, left: float, top: float,
               grid: FormGrid, number_range: tuple[int, int], words: Words) -> list[Item]:
    _ = words.gettext
    sz = grid.sizes
    x = left + FORM_PAD_MM
    right = left + grid.width_mm - FORM_PAD_MM
    inner = right - x
    head_top = top + FORM_TOP_MM
    items = form_head(person, turn, x, right, head_top, sz, words)
    # guess line
    first, second_label, bonus = form_labels(words)
    size = form_label_size(inner, number_range, words, sz)
    label_w = max(text_width(w, size) for w in (first, second_label, bonus)) + 1.5
    y = head_top + sz.head_mm
    box_top = y + (sz.line_mm - sz.box_h_mm) / 2
    base = baseline_in(box_top, sz.box_h_mm, size)
    guess_w = guess_box_mm(number_range, sz)
    items += one_line(x, base, first, label_w - 1.5, size, sz.least_pt)
    items.append(box(x + label_w, box_top, guess_w, sz.box_h_mm, 0.4))
    second = x + label_w + guess_w + GUESS_GAP_MM
    items += one_line(second, base, second_label, label_w - 1.5, size, sz.least_pt)
    items.append(box(second + label_w, box_top, guess_w, sz.box_h_mm, 0.4))
    # bonus line
    y += sz.line_mm
    box_top = y + (sz.line_mm - sz.box_h_mm) / 2
    base = baseline_in(box_top, sz.box_h_mm, size)
    items += one_line(x, base, bonus, label_w - 1.5, size, sz.least_pt)
    bonus_w = bonus_box_mm(number_range, sz)
    at = x + label_w
    for _n in range(BONUS_BOXES):
        items.append(box(at, box_top, bonus_w, sz.box_h_mm, 0.4))
        at += bonus_w + 2.0
    items += fit_in(_("one per hit last turn"), at + 0.5, box_top, right - at - 0.5,
                    sz.box_h_mm, sz.hint_pt, sz.hint_pt, max_lines=2)
    # the list
    y += sz.line_mm
    items += fit_in(_("— or a list: a number for every other player —"), x, y, inner,
                    sz.or_mm, sz.label_pt, sz.least_pt, "bold", max_lines=1)
    y += sz.or_mm
    step = grid.slot_mm + grid.box_mm + LIST_GAP_MM
    for i, other in enumerate(opponents):
        line, col = divmod(i, grid.per_line)
        entry = x + LIST_INDENT_MM + col * step
        box_top = y + line * sz.row_mm + (sz.row_mm - sz.list_box_h_mm) / 2
        base = baseline_in(box_top, sz.list_box_h_mm, sz.letter_pt)
        items += text(entry + grid.slot_mm - PAD_MM, base, other.letter, sz.letter_pt, "bold",
                      "right")
        items.append(box(entry + grid.slot_mm, box_top, grid.box_mm, sz.list_box_h_mm, 0.4))
    return items


def order_form_pages(sheet: Paper, people: Sequence[Person], turns: int,
                     number_range: tuple[int, int], words: Words, large: bool = False) -> Pages:
    body = sheet.body
    grid = form_grid(body, len(people), number_range, LARGE_FORM if large else FORM)
    forms = [(person, turn) for person in people for turn in range(1, turns + 1)]
    chunks = [forms[i:i + grid.per_page] for i in range(0, len(forms), grid.per_page)]
    pages: Pages = []
    for n, chunk in enumerate(chunks, start=1):
        def draw(i: int, left: float, top: float,
                 chunk: list[tuple[Person, int]] = chunk) -> list[Item]:
            person, turn = chunk[i]
            opponents = [o for o in people if o is not person]
            return form_items(person, opponents, turn, left, top, grid, number_range, words)

        items = cut_grid(body.x, body.y, grid.columns, grid.rows, grid.width_mm,
                         grid.height_mm, len(chunk), draw)
        pages.append((words.gettext("Order forms %(page)s of %(pages)s", page=n,
                                    pages=len(chunks)), items))
    return pages


# --- deduction sheets -----------------------------------------------------------------------------

DED_TITLE_PT = (16.0, 11.0)
DED_TEXT_PT = 9.0
DED_HEAD_MM = (6.0, 5.5)  # "Turn N" over a pair, then "low" / "high"
DED_HEAD_PT = 9.0
DED_SUB_PT = 8.0
DED_LABEL_PT = 9.0
DED_GAP_MM = 5.0  # between two blocks on a page
DED_ROW_MM = 7.0  # a row whose label fits one line
DED_ROW_TWO_MM = 8.0  # a row whose label needs two lines
DED_MAX_ROW_MM = 12.0
DED_MAX_SUB_MM = 12.0
DED_LABEL_WIDE_MM = 45.0  # a wider label column only when it saves pages or blocks
DED_LABEL_MAX_MM = 42.0  # the last resort: labels cut with "…" if they must be


@dataclass(frozen=True)
class DeductionSizes:
    """The type sizes (pt) and heights (mm) of a deduction sheet: the usual or large print."""

    title_pt: tuple[float, float]
    text_pt: float
    head_mm: tuple[float, float]
    head_pt: float
    sub_pt: float
    label_pt: float
    least_pt: float  # no word of the sheet smaller
    row_mm: float
    row_two_mm: float
    max_row_mm: float
    max_sub_mm: float
    label_max_mm: float
    cell_scale: float  # the hand-writing cells' least width, times this


DEDUCTION = DeductionSizes(DED_TITLE_PT, DED_TEXT_PT, DED_HEAD_MM, DED_HEAD_PT, DED_SUB_PT,
                           DED_LABEL_PT, MIN_TEXT_PT, DED_ROW_MM, DED_ROW_TWO_MM,
                           DED_MAX_ROW_MM, DED_MAX_SUB_MM, DED_LABEL_MAX_MM, 1.0)
# large print: every word at 12 pt, rows and hand-writing cells 1.3 times the usual
LARGE_DEDUCTION = DeductionSizes((18.0, 14.0), LARGE_PT, (8.0, 7.5), LARGE_PT, LARGE_PT,
                                 LARGE_PT, LARGE_PT, 9.1, 10.4, 15.6, 15.6, 56.0, 1.3)


def mine(words: Words) -> str:
    """The first row of a deduction table: the player's own guesses."""
    return words.gettext("My guesses")


def low_high(words: Words) -> tuple[str, str]:
    """The two columns of a turn on the deduction sheet."""
    return (words.pgettext("deduction sheet: lowest possible number", "low"),
            words.pgettext("deduction sheet: highest possible number", "high"))


def sub_mm(number_range: tuple[int, int], words: Words, sizes: DeductionSizes = DEDUCTION
           ) -> float:
    """A "low" or "high" column: a handwriting cell wide enough for the largest number, and
    for its header."""
    header = max(text_width(head, sizes.sub_pt) for head in low_high(words)) + 2 * PAD_MM
    cell = max(MIN_CELL_MM, hand_mm(number_range)) * sizes.cell_scale
    return math.ceil(max(cell, header) * 10) / 10


def two_line_mm(words: str, size: float) -> float:
    """The narrowest width that holds ``words`` on two lines broken between words."""
    parts = words.split()
    best = text_width(words, size)
    for i in range(1, len(parts)):
        best = min(best, max(text_width(" ".join(parts[:i]), size),
                             text_width(" ".join(parts[i:]), size)))
    return best


@dataclass(frozen=True)
class LabelColumn:
    width_mm: float
    lines: int  # 1, or 2 when some label needs two lines


def label_columns(labels: Sequence[str], words: Words, sizes: DeductionSizes = DEDUCTION
                  ) -> list[LabelColumn]:
    """The ways to print the row labels, most legible first: every label on one line at 9 pt,
    on two lines (broken between words) at 9 pt, on one line at 8 pt, and a last resort capped
    at ``DED_LABEL_MAX_MM`` (two lines that may shrink to 8 pt and be cut with "…"); in large
    print the same at 12 pt."""
    least = text_width(mine(words), sizes.label_pt) + 2 * PAD_MM

    def one(size: float) -> float:
        return max([text_width(label, size) for label in labels] + [0.0])

    widths = [(one(sizes.label_pt), 1),
              (max([two_line_mm(label, sizes.label_pt) for label in labels] + [0.0]), 2),
              (one(sizes.least_pt), 1)]
    out: list[LabelColumn] = []
    for width, lines in widths:
        column = LabelColumn(math.ceil(max(least, width + 2 * PAD_MM) * 10) / 10, lines)
        if column not in out:
            out.append(column)
    two = next(column for column in out if column.lines == 2)
    last = LabelColumn(min(sizes.label_max_mm, two.width_mm), 2)
    if last not in out:
        out.append(last)
    return out


@dataclass(frozen=True)
class DeductionLayout:
    label_mm: float
    label_lines: int
    sub_mm: float  # one "low" or "high" column
    row_mm: float
    turn_parts: tuple[tuple[int, int], ...]  # turns [start, stop), 1-based
    opponent_parts: tuple[tuple[int, int], ...]  # opponents [start, stop)
    blocks_per_page: int  # on a full page (at most every block)
    sizes: DeductionSizes = DEDUCTION

    @property
    def head_mm(self) -> float:
        return sum(self.sizes.head_mm)

    @property
    def blocks(self) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """(turns, opponents) of every block in order: all turns of the first opponents, ..."""
        return [(t, o) for o in self.opponent_parts for t in self.turn_parts]

    @property
    def pages(self) -> int:
        return -(-len(self.blocks) // self.blocks_per_page)

    def block_width_mm(self, turns: int) -> float:
        return self.label_mm + 2 * self.sub_mm * (turns + 1)

    def block_height_mm(self, opponents: int) -> float:
        return self.head_mm + (opponents + 1) * self.row_mm


def deduction_layout(width: float, height: float, opponents: int, turns: int,
                     number_range: tuple[int, int], label: LabelColumn, words: Words,
                     sizes: DeductionSizes = DEDUCTION) -> DeductionLayout:
    """Cut one player's table into blocks that fit ``width`` x ``height`` mm (the body below
    the title and the instructions)."""
    least = sub_mm(number_range, words, sizes)
    pairs = int((width - label.width_mm) // (2 * least))
    per_block = min(turns, pairs - 1)
    if per_block < 1:
        raise LayoutError("paper", "the page is too narrow for a deduction sheet")
    turn_parts = [(a + 1, b + 1) for a, b in split(turns, -(-turns // per_block))]
    widest = max(b - a for a, b in turn_parts)
    sub = min(sizes.max_sub_mm, math.floor((width - label.width_mm) / (2 * (widest + 1)) * 10)
              / 10)
    row_min = sizes.row_two_mm if label.lines == 2 else sizes.row_mm
    head = sum(sizes.head_mm)
    rows_fit = int((height - head) // row_min) - 1  # less the "My guesses" row
    if rows_fit < 1:
        raise LayoutError("paper", "the page is too small for a deduction sheet")
    opponent_parts = split(opponents, -(-opponents // rows_fit))
    tallest = max(b - a for a, b in opponent_parts) + 1
    per_page = max(1, int((height + DED_GAP_MM) // (head + tallest * row_min + DED_GAP_MM)))
    on_page = min(per_page, len(turn_parts) * len(opponent_parts))
    room = height - on_page * (head + DED_GAP_MM) + DED_GAP_MM
    row = min(sizes.max_row_mm, max(row_min, math.floor(room / (on_page * tallest) * 10) / 10))
    return DeductionLayout(label.width_mm, label.lines, sub, row, tuple(turn_parts),
                           tuple(opponent_parts), on_page, sizes)


def best_deduction_layout(width: float, height: float, labels: Sequence[str], turns: int,
                          number_range: tuple[int, int], words: Words,
                          sizes: DeductionSizes = DEDUCTION) -> DeductionLayout:
    """The layout with the fewest pages, then the fewest blocks, then no needlessly wide
    label column, over the label columns (the most legible first on a tie)."""
    options = []
    for column in label_columns(labels, words, sizes):
        try:
            lay = deduction_layout(width, height, len(labels), turns, number_range, column,
                                   words, sizes)
        except LayoutError:
            continue
        options.append(lay)
    if not options:
        raise LayoutError("paper", "the page is too small for a deduction sheet")
    return min(options, key=lambda lay: (lay.pages, len(lay.blocks),
                                         lay.label_mm if lay.label_mm > DED_LABEL_WIDE_MM
                                         else 0.0))


def deduction_words(words: Words) -> str:
    return words.gettext("Keep it private. After each turn report, write the lowest and "
                         "highest number each other player can still hold. Low = high: you "
                         "know it.")


def deduction_top(frame: Frame, person: Person, words: Words,
                  sizes: DeductionSizes = DEDUCTION) -> tuple[list[Item], float]:
    """The title and the line of instructions at the top of ``frame`` (a page's body, or
    half of it); returns the items and the height they take."""
    heading = words.gettext("Deduction sheet · %(player)s", player=person.text)
    most, least = sizes.title_pt
    fitted = fit(heading, frame.w, pt(most) * 1.25, most, least, "bold", max_lines=1)
    band = pt(most) * 1.25
    items: list[Item] = list(place_fitted(fitted, frame.x, frame.y, frame.w, band, "bold"))
    y = band + 1.5
    more, used = para(frame.x, frame.y + y, frame.w, deduction_words(words), sizes.text_pt)
    items += more
    return items, y + used + 1.5


def deduction_block(x: float, y: float, lay: DeductionLayout, turns: tuple[int, int],
                    opponents: Sequence[Person], number_range: tuple[int, int], words: Words
                    ) -> list[Item]:
    """One block of the table at (x, y): header, "My guesses", one row per opponent; its
    words placed in a table of the same rows and columns for screen readers."""
    _ = words.gettext
    first_turn, stop = turns
    pairs = [_("Start") if first_turn == 1 else _("So far")]
    pairs += [_("Turn %(turn)s", turn=t) for t in range(first_turn, stop)]
    sub, sz = lay.sub_mm, lay.sizes
    table = Place((x, y), 3 + len(opponents), 1 + 2 * len(pairs), 0, 0)
    right = x + lay.label_mm + 2 * sub * len(pairs)
    h1, h2 = sz.head_mm
    head_bottom = y + h1 + h2
    mine_bottom = head_bottom + lay.row_mm
    bottom = mine_bottom + len(opponents) * lay.row_mm
    items: list[Item] = [hline(x, right, y), hline(x + lay.label_mm, right, y + h1),
                         hline(x, right, head_bottom), hline(x, right, mine_bottom, 0.6)]
    for r in range(1, len(opponents) + 1):
        items.append(hline(x, right, mine_bottom + r * lay.row_mm))
    items += [vline(x, y, bottom), vline(x + lay.label_mm, y, bottom)]
    for p, pair in enumerate(pairs):
        left = x + lay.label_mm + 2 * sub * p
        items.append(vline(left + 2 * sub, y, bottom, 0.45 if p < len(pairs) - 1 else 0.3))
        items.append(vline(left + sub, y + h1, head_bottom, 0.2))
        if opponents:
            items.append(vline(left + sub, mine_bottom, bottom, 0.2, (0.8, 0.6)))
        items += in_cell(fit_in(pair, left + PAD_MM, y, 2 * sub - 2 * PAD_MM, h1, sz.head_pt,
                              sz.least_pt, "bold", "center", max_lines=1), table, 0, 1 + 2 * p, 2)
        for k, sub_words in enumerate(low_high(words)):
            items += in_cell(one_line(left + sub * k + sub / 2, baseline_in(y + h1, h2, sz.sub_pt),
                                    sub_words, sub - 2 * PAD_MM, sz.sub_pt, sz.least_pt,
                                    align="center"), table, 1, 1 + 2 * p + k)
    items += in_cell(fit_in(_("Player"), x + PAD_MM, y, lay.label_mm - 2 * PAD_MM, h1 + h2,
                          sz.head_pt, sz.least_pt, "bold", max_lines=1), table, 0, 0)
    items += in_cell(fit_in(mine(words), x + PAD_MM, head_bottom, lay.label_mm - 2 * PAD_MM,
                          lay.row_mm, sz.label_pt, sz.least_pt, max_lines=1), table, 2, 0)
    start = x + lay.label_mm
    for r, other in enumerate(opponents):
        top = mine_bottom + r * lay.row_mm
        items += in_cell(fit_in(other.text, x + PAD_MM, top + 0.5, lay.label_mm - 2 * PAD_MM,
                              lay.row_mm - 1.0, sz.label_pt, sz.least_pt,
                              max_lines=lay.label_lines), table, 3 + r, 0)
        if first_turn == 1:
            base = baseline_in(top, lay.row_mm, sz.label_pt)
            for k, bound in enumerate(number_range):
                items += in_cell(text(start + sub * k + sub / 2, base, str(bound), sz.label_pt,
                                    "regular", "center"), table, 3 + r, 1 + k)
    return items


def deduction_parts(frame: Frame, person: Person, people: Sequence[Person], turns: int,
                    number_range: tuple[int, int], words: Words,
                    sizes: DeductionSizes = DEDUCTION) -> list[list[Item]]:
    """One player's deduction table in ``frame``: the items of each frame it fills."""
    opponents = [o for o in people if o is not person]
    top_items, top_h = deduction_top(frame, person, words, sizes)
    lay = best_deduction_layout(frame.w, frame.h - top_h, [o.text for o in opponents], turns,
                                number_range, words, sizes)
    blocks = lay.blocks
    parts = []
    for n in range(lay.pages):
        items = list(top_items)
        y = frame.y + top_h
        for turn_part, (o0, o1) in blocks[n * lay.blocks_per_page:(n + 1) * lay.blocks_per_page]:
            items += deduction_block(frame.x, y, lay, turn_part, opponents[o0:o1], number_range,
                                     words)
            y += lay.block_height_mm(o1 - o0) + DED_GAP_MM
        parts.append(items)
    return parts


def deduction_pages(sheet: Paper, person: Person, people: Sequence[Person], turns: int,
                    number_range: tuple[int, int], words: Words, large: bool = False
                    ) -> Pages:
    """One player's deduction sheet on pages of its own."""
    sizes = LARGE_DEDUCTION if large else DEDUCTION
    parts = deduction_parts(sheet.body, person, people, turns, number_range, words, sizes)
    count = len(parts)
    pages: Pages = []
    for n, items in enumerate(parts):
        if count > 1:
            label = words.gettext("Deduction sheet %(letter)s %(page)s of %(pages)s",
                                  letter=person.letter, page=n + 1, pages=count)
        else:
            label = words.gettext("Deduction sheet %(letter)s", letter=person.letter)
        pages.append((label, items))
    return pages
