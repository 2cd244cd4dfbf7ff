"""What's My Number? deduction sheets two to a page: a small game's sheets each fit half a
page, so two players' sheets share one, cut apart across the middle (each is private)."""

from __future__ import annotations

from collections.abc import Sequence

from ....errors import LayoutError
from ....i18n import Words
from ....layout.model import Item, hline
from ....layout.table import CUT_LINE_MM, CUT_MARK_MM
from ....paper import Frame, Paper
from .people import Person
from .player_sheets import DEDUCTION, LARGE_DEDUCTION, Pages, deduction_pages, deduction_parts

DED_CUT_GAP_MM = 10.0  # between two half-page sheets, the cut line in its middle


def halves(body: Frame) -> tuple[Frame, Frame]:
    """The body's top and bottom halves, a cut's room apart."""
    h = (body.h - DED_CUT_GAP_MM) / 2
    return Frame(body.x, body.y, body.w, h), Frame(body.x, body.bottom - h, body.w, h)


def deduction_sheets(sheet: Paper, people: Sequence[Person], turns: int,
                     number_range: tuple[int, int], words: Words, large: bool = False
                     ) -> Pages:
    """Every player's deduction sheet: two to a page, one above the other with a cut line
    between them, when each fits half a page (a small game); else each on pages of its
    own. A sheet is private, so the two halves are for two players, cut apart."""
    sizes = LARGE_DEDUCTION if large else DEDUCTION
    frames = halves(sheet.body)  # the same size: a player's sheet in the half it will take
    try:
        parts = [deduction_parts(frames[i % 2], person, people, turns, number_range, words,
                                 sizes) for i, person in enumerate(people)]
        fits = all(len(sheet_parts) == 1 for sheet_parts in parts)
    except LayoutError:  # half a page cannot hold a block at all
        fits = False
    if not fits:
        return [page for person in people
                for page in deduction_pages(sheet, person, people, turns, number_range, words,
                                            large)]
    pages: Pages = []
    for i in range(0, len(people), 2):
        pair = people[i:i + 2]
        items: list[Item] = [item for (part,) in parts[i:i + 2] for item in part]
        if len(pair) == 2:
            cut = sheet.body.y + sheet.body.h / 2
            items.append(hline(sheet.body.x - CUT_MARK_MM, sheet.body.right + CUT_MARK_MM, cut,
                               CUT_LINE_MM))
            label = words.gettext("Deduction sheets %(first)s and %(second)s",
                                  first=pair[0].letter, second=pair[1].letter)
        else:
            label = words.gettext("Deduction sheet %(letter)s", letter=pair[0].letter)
        pages.append((label, items))
    return pages
