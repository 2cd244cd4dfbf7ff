"""What's My Number? player cards as layout models: the part of the console's printed kit a
player keeps, with their private link as a QR code and its address.

The secret-number slip (``number_slips``) goes to the game master whole, so the link is never
on it. When the console already knows every secret (drawn or typed by the game master), a
player writes no number: each gets a card alone, eight a page in the slips' cut grid. When the
players choose their own, each row of the grid holds a player's card (kept) beside their
slip (written, folded and handed over by a player who has no phone), four players a page; a
player without a link gets the slip alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ....errors import LayoutError
from ....i18n import N_, Words
from ....layout import qr
from ....layout.fit import fit_in, paragraph, sizes
from ....layout.model import Item, pt, text
from ....layout.qr import QrCode
from ....layout.table import cut_grid
from ....paper import Frame, Paper
from .number_slips import SLIP_NAME_PT, SLIP_WHAT_PT, slip_grid, slip_items
from .people import MIN_TEXT_PT, Person, one_line

CARD_QR_MM = 32.0  # the code with its quiet zone: modules of 0.78 mm for a 90-character link
CARD_TEXT_PT = 8.5
CARD_LEADING = 1.2
URL_PT = MIN_TEXT_PT
URL_LINES = 4  # a LAN address, a game id and a 43-character token take two
PAD_MM = 3.5

KNOWN_WORDS = N_(
    "Scan the code or type the address above to open your own page of the game: it shows "
    "your secret number and takes your orders each turn. Keep this card and show it to "
    "nobody: the link is yours alone.")
CHOOSE_WORDS = N_(
    "Scan the code or type the address above to open your own page of the game: choose your "
    "secret number there before turn 1, then send your orders each turn. No phone? Write your "
    "number on your slip instead and give the slip to the GM. Keep this card and show it to "
    "nobody.")


@dataclass(frozen=True)
class Seat:
    """Where one player's printed parts are: the card they keep and, when they may write
    their number on paper, the slip they hand to the game master."""

    person: Person
    link: str | None
    page: int
    card: Frame
    slip: Frame | None


def seats(sheet: Paper, players: Sequence[tuple[Person, str | None]], known: bool
          ) -> list[Seat]:
    """Each player's card and slip on the pages, in the players' order; ``known``: the
    console holds every secret, so there are no slips, and no card without a link."""
    body = sheet.body
    grid = slip_grid(body)
    per_page = grid.per_page if known else grid.rows
    out = []
    for n, (person, link) in enumerate((p, link) for p, link in players
                                       if link is not None or not known):
        page, i = divmod(n, per_page)
        r, c = divmod(i, grid.columns) if known else (i, 0)

        def cell(column: int, row: int = r) -> Frame:
            return Frame(body.x + column * grid.width_mm, body.y + row * grid.height_mm,
                         grid.width_mm, grid.height_mm)

        out.append(Seat(person, link, page, cell(c), None if known else cell(1)))
    return out


def card_words(frame: Frame, words: str) -> list[Item]:
    """The card's instructions below its code, at 8.5 pt, smaller (not below 8 pt) when a
    longer translation asks; ``LayoutError`` if they still run off the card."""
    top = frame.y + 2.0 + CARD_QR_MM
    room = frame.bottom - 1.5 - top
    for size in sizes(CARD_TEXT_PT, MIN_TEXT_PT):
        items, height = paragraph(frame.x + PAD_MM, top, frame.w - 2 * PAD_MM,
                                  [(words, "regular")], size, CARD_LEADING)
        if height <= room:
            return list(items)
    raise LayoutError("paper", "the page is too small for the player cards")


def card_items(seat: Seat, known: bool, words: Words) -> list[Item]:
    """One player's card: their label, their link's address and QR code, what to do (none
    without a link)."""
    if seat.link is None:
        return []
    frame = seat.card
    x = frame.x + PAD_MM
    qr_x = frame.right - 1.0 - CARD_QR_MM  # the quiet zone runs to 1 mm of the cut line
    left_w = qr_x - 0.5 - x  # the text stays out of the quiet zone
    items: list[Item] = list(fit_in(seat.person.text, x, frame.y + 2.0, left_w, 7.0,
                                    SLIP_NAME_PT[0], SLIP_NAME_PT[1], "bold", max_lines=1))
    items += one_line(x, frame.y + 14.5, words.gettext(
        "Keep this card · player %(letter)s", letter=seat.person.letter), left_w, SLIP_WHAT_PT)
    step = pt(URL_PT) * CARD_LEADING
    for i, line in enumerate(qr.wrap_url(seat.link, left_w, URL_PT, URL_LINES)):
        items += text(x, frame.y + 19.5 + i * step, line, URL_PT)
    items += QrCode.of(seat.link).items(qr_x, frame.y + 1.0, CARD_QR_MM)
    items += card_words(frame, words.gettext(KNOWN_WORDS if known else CHOOSE_WORDS))
    return items


def card_pages(sheet: Paper, players: Sequence[tuple[Person, str | None]],
               number_range: tuple[int, int], known: bool, words: Words) -> list[list[Item]]:
    """The pages of every player's card (and slip, unless ``known``), in the players' order."""
    placed = seats(sheet, players, known)
    grid = slip_grid(sheet.body)
    pages: list[list[Item]] = []
    for page in range(placed[-1].page + 1 if placed else 0):
        on_page = [s for s in placed if s.page == page]

        def draw(i: int, left: float, top: float, on_page: list[Seat] = on_page) -> list[Item]:
            if known:
                return card_items(on_page[i], known, words)
            seat = on_page[i // 2]
            if i % 2 == 0:
                return card_items(seat, known, words)
            return slip_items(seat.person, left, top, grid.width_mm, grid.height_mm,
                              number_range, words)

        count = len(on_page) if known else 2 * len(on_page)
        pages.append(cut_grid(sheet.body.x, sheet.body.y, grid.columns, grid.rows,
                              grid.width_mm, grid.height_mm, count, draw))
    return pages
