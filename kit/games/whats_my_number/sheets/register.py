"""What's My Number? secret register (host): a row per player, filled in as slips come in.

The page function returns the items of one page body in the body frame (mm); the row maths
(rows per page, row heights, header lines) is in small pure functions tested on numbers alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ....errors import LayoutError
from ....i18n import Words
from ....layout.blocks import para, title
from ....layout.fit import fit, place
from ....layout.model import Item, text_width
from ....layout.table import Cell, ruled_table
from ....paper import Frame, Paper
from .host_sheets import EDGE_MM, LINE_MM, PAD_MM, fit_name
from .people import MIN_TEXT_PT, Person, range_words, split

REG_ROW_MM = 7.5
REG_MAX_ROW_MM = 14.0
REG_HEAD_MM = 10.0  # two lines of header text
REG_HEAD_TALL_MM = 13.5  # three lines, when a language's headings need them
REG_SLACK_MM = 1.0
REG_GAP_MM = 1.0  # between the instructions and the table
REG_TEXT_PT = 10.0
REG_HEAD_PT = 9.0
TITLE_DROP_MM = 0.0  # the shared title keeps accents inside the body frame
# Letter | Player | Secret number | Bonus guesses | Identified by (takes the rest) | Found all
REG_WIDTHS = (13.0, 36.0, 18.0, 36.0, None, 26.0)


def register_heads(words: Words) -> tuple[str, ...]:
    _ = words.gettext
    return (_("Letter"), _("Player"), _("Secret number"),
            _("Bonus guesses earned (turn: count)"),
            _("Number identified by (who, turn, guess)"), _("Found all others in turn"))


def register_widths(width: float, words: Words) -> list[float]:
    """The columns' widths; the letter column grows when a language's heading needs it, and
    "Identified by" takes the rest."""
    letter = text_width(register_heads(words)[0], MIN_TEXT_PT, "bold") + 2 * PAD_MM + 0.2
    fixed = [max(REG_WIDTHS[0], math.ceil(letter * 10) / 10), *REG_WIDTHS[1:]]
    rest = width - sum(w for w in fixed if w is not None)
    return [w if w is not None else rest for w in fixed]


def register_head_mm(widths: Sequence[float], words: Words) -> float:
    """The header row: 10 mm, taller when a heading needs a third line to fit uncut."""
    for heading, width in zip(register_heads(words), widths, strict=True):
        inner = width - 2 * PAD_MM
        if fit(heading, inner, REG_HEAD_MM, REG_HEAD_PT, MIN_TEXT_PT, "bold", 2).cut:
            return REG_HEAD_TALL_MM
    return REG_HEAD_MM


def register_instructions(number_range: tuple[int, int], words: Words
                          ) -> list[tuple[str, str]]:
    _ = words.gettext
    return [(_("Fill in as the slips come in, and keep it up to date after every turn. Range "
               "%(range)s; two players may hold the same number.",
               range=range_words(number_range, words)) + " ", "regular"),
            (_("Bonus guesses:"), "bold"),
            (" " + _("write “turn: count” for each turn with hits.") + " ", "regular"),
            (_("Identified:"), "bold"),
            (" " + _("who found this player’s number, and in which turn and guess (e.g. “B t1 "
                     "g1”)."), "regular")]


def register_title(words: Words, page: int = 1, pages: int = 1) -> str:
    if pages > 1:
        return words.gettext("Secret register %(page)s of %(pages)s", page=page, pages=pages)
    return words.gettext("Secret register")


def register_top(body: Frame, number_range: tuple[int, int], words: Words) -> float:
    """Height of the title and the instructions above the table."""
    _items, used = title(body.x, body.y + TITLE_DROP_MM, register_title(words))
    _items, more = para(body.x, body.y, body.w, register_instructions(number_range, words),
                        REG_TEXT_PT)
    return TITLE_DROP_MM + used + more + REG_GAP_MM


def register_room(body: Frame, top: float, head_mm: float = REG_HEAD_MM) -> float:
    return body.h - top - head_mm - REG_SLACK_MM


def register_rows_per_page(body: Frame, top: float, head_mm: float = REG_HEAD_MM) -> int:
    return int(register_room(body, top, head_mm) // REG_ROW_MM)


def register_row_mm(body: Frame, top: float, rows: int, head_mm: float = REG_HEAD_MM) -> float:
    """7.5 mm rows, taller (up to 14 mm) when few players leave room for handwriting."""
    room = register_room(body, top, head_mm)
    return min(REG_MAX_ROW_MM, max(REG_ROW_MM, math.floor(room / max(1, rows) * 10) / 10))


def register_parts(body: Frame, top: float, count: int, head_mm: float = REG_HEAD_MM
                   ) -> list[tuple[int, int]]:
    """The players [start, stop) on each register page, as even as possible."""
    per_page = register_rows_per_page(body, top, head_mm)
    if per_page < 1:
        raise LayoutError("paper", "the paper is too small for the secret register")
    return split(count, math.ceil(count / per_page))


def register_pages(sheet: Paper, people: Sequence[Person], number_range: tuple[int, int],
                   words: Words) -> list[tuple[str, list[Item]]]:
    body = sheet.body
    top = register_top(body, number_range, words)
    x, width = body.x + EDGE_MM, body.w - 2 * EDGE_MM
    widths = register_widths(width, words)
    head_mm = register_head_mm(widths, words)
    lines = 2 if head_mm == REG_HEAD_MM else 3
    parts = register_parts(body, top, len(people), head_mm)
    row = register_row_mm(body, top, max(b - a for a, b in parts), head_mm)
    head = [Cell(heading, "bold", size=REG_HEAD_PT, least=MIN_TEXT_PT, lines=lines)
            for heading in register_heads(words)]
    out = []
    for n, (a, b) in enumerate(parts, start=1):
        label = register_title(words, n, len(parts))
        items, used = title(body.x, body.y + TITLE_DROP_MM, label)
        more, _used = para(body.x, body.y + TITLE_DROP_MM + used, body.w,
                       register_instructions(number_range, words), REG_TEXT_PT)
        items += more
        table = [head] + [[Cell(p.letter, "bold", "center", REG_TEXT_PT + 1)]
                          for p in people[a:b]]
        items += ruled_table(x, body.y + top, widths, [head_mm] + [row] * (b - a), table,
                             LINE_MM, heavy=(1,))
        left = x + widths[0] + PAD_MM
        for i, p in enumerate(people[a:b]):
            if p.name:
                fitted = fit_name(p.name, widths[1] - 2 * PAD_MM, row, REG_TEXT_PT,
                                  MIN_TEXT_PT, 2)
                items += place(fitted, left, body.y + top + head_mm + i * row,
                               widths[1] - 2 * PAD_MM, row)
        out.append((label, items))
    return out


