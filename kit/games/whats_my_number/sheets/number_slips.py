"""What's My Number? secret-number slips as layout models: the fold-up slip of
``kit.layout.slip`` (as Lowest Unique Number's), eight a page in a 2 x 4 cut grid filling the
body; four a page (2 x 2) in large print, where the instructions at 12 pt need a taller middle
band (at 2 x 3 they would run past the fold line in every language). The name band carries
the player's label, the middle band the instructions, the flap the number box. The whole slip
goes to the game master, so a player's private link is never on it: it goes on the card the
player keeps (``player_cards``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ....errors import LayoutError
from ....i18n import Words
from ....layout import slip
from ....layout.fit import fit_in, paragraph, sizes
from ....layout.model import Item, box
from ....layout.slip import SlipGrid
from ....layout.table import cut_grid
from ....paper import Frame, Paper
from .people import LARGE_PT, MIN_TEXT_PT, Person, one_line, range_words
from .player_sheets import Pages, digits

SLIP_COLUMNS = 2
SLIP_ROWS = 4
LARGE_SLIP_ROWS = 2  # large print: four slips a page
SLIP_MIN_MM = (80.0, 55.0)
SLIP_NAME_PT = (15.0, 9.0)  # the player's label shrinks from 15 pt to 9 pt before anything else
SLIP_WHAT_PT = 10.0
SLIP_TEXT_PT = 8.5
SLIP_LABEL_PT = 9.0
SLIP_BOX_MIN_MM = 24.0
SLIP_DIGIT_MM = 6.0  # a digit written large in the slip's number box
SLIP_BOX_H_MM = 13.0
LARGE_BOX_SCALE = 1.3  # large print: the number box, for a bigger hand


def slip_grid(body: Frame, rows: int = SLIP_ROWS) -> SlipGrid:
    """The body cut into equal slips, two across and ``rows`` down (eight a page)."""
    width = math.floor(body.w / SLIP_COLUMNS * 100) / 100
    height = math.floor(body.h / rows * 100) / 100
    if width < SLIP_MIN_MM[0] or height < SLIP_MIN_MM[1]:
        raise LayoutError("paper", "the page is too small for the secret-number slips")
    return SlipGrid(SLIP_COLUMNS, rows, width, height)


def slip_box_mm(number_range: tuple[int, int], large: bool = False) -> float:
    """The flap's number box: wide enough for the largest number written large."""
    width = max(SLIP_BOX_MIN_MM, 4.0 + SLIP_DIGIT_MM * digits(number_range))
    return round(width * LARGE_BOX_SCALE, 1) if large else width


def slip_words(number_range: tuple[int, int], words: Words) -> str:
    return words.gettext(
        "Write one whole number from %(range)s. Fold the bottom strip up along the dashed "
        "line, so your number is inside and your name outside, and give the slip to the GM. "
        "Show it to nobody. Another player may hold the same number: that is allowed.",
        range=range_words(number_range, words))


SLIP_LEADING = 1.2  # as ``slip.instructions`` sets them


def slip_text_size(b: slip.SlipBands, words: str, large: bool = False) -> float:
    """The instructions' size: 8.5 pt, smaller (not below 8 pt) when a longer translation
    would run out of the middle band; in ``large`` print 12 pt, never shrunk (a large-print
    slip's band holds them in every language)."""
    if large:
        return LARGE_PT
    room = b.middle.h - 1.2 - 2.0  # below the band's top; clear of the fold line's label
    for size in sizes(SLIP_TEXT_PT, MIN_TEXT_PT):
        _, height = paragraph(0.0, 0.0, b.middle.w - 2 * slip.PAD_MM, [(words, "regular")],
                              size, SLIP_LEADING)
        if height <= room:
            return size
    return MIN_TEXT_PT


def slip_items(person: Person, left: float, top: float, width: float, height: float,
               number_range: tuple[int, int], words: Words, large: bool = False) -> list[Item]:
    """One secret-number slip: the label outside, the number box inside once folded; in
    ``large`` print every word at 12 pt or more and a bigger number box."""
    _ = words.gettext
    b = slip.bands(left, top, width, height)
    x = left + slip.PAD_MM
    inner = width - 2 * slip.PAD_MM
    name_top = top + 2.0
    items: list[Item] = list(fit_in(person.text, x, name_top, inner, 7.0, SLIP_NAME_PT[0],
                                    LARGE_PT if large else SLIP_NAME_PT[1], "bold",
                                    max_lines=1))
    least = LARGE_PT if large else MIN_TEXT_PT
    items += one_line(x, name_top + 12.5, _("Secret number slip · player %(letter)s",
                                            letter=person.letter), inner,
                      LARGE_PT if large else SLIP_WHAT_PT, least)
    instructions = slip_words(number_range, words)
    items += slip.instructions(b, instructions, slip_text_size(b, instructions, large))
    items += slip.fold(b, _("fold the strip up · number inside"), LARGE_PT if large else None)
    flap = b.flap
    label_y = flap.y + (6.0 if large else 4.2)
    items += one_line(x, label_y, _("Secret number, %(range)s",
                                    range=range_words(number_range, words)),
                      inner, LARGE_PT if large else SLIP_LABEL_PT,
                      least)
    box_top = label_y + 1.4
    box_h = SLIP_BOX_H_MM * LARGE_BOX_SCALE if large else SLIP_BOX_H_MM
    box_h = min(box_h, flap.y + flap.h - 1.9 - box_top)
    items.append(box(x, box_top, slip_box_mm(number_range, large), box_h, 0.5))
    return items


def slip_pages(sheet: Paper, people: Sequence[Person], number_range: tuple[int, int],
               words: Words, large: bool = False) -> Pages:
    """The slips, eight a page (four in ``large`` print)."""
    body = sheet.body
    grid = slip_grid(body, LARGE_SLIP_ROWS if large else SLIP_ROWS)
    chunks = [list(people[i:i + grid.per_page]) for i in range(0, len(people), grid.per_page)]
    pages: Pages = []
    for n, chunk in enumerate(chunks, start=1):
        def draw(i: int, left: float, top: float, chunk: list[Person] = chunk) -> list[Item]:
            return slip_items(chunk[i], left, top, grid.width_mm, grid.height_mm, number_range,
                              words, large)

        items = cut_grid(body.x, body.y, grid.columns, grid.rows, grid.width_mm,
                         grid.height_mm, len(chunk), draw)
        pages.append((words.gettext("Secret-number slips %(page)s of %(pages)s", page=n,
                                    pages=len(chunks)), items))
    return pages
