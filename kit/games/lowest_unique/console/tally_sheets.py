"""A Lowest Unique Number party's tally sheets from the console, one a table: the kit's round
tally (``table_sheets.tally_page``, as ``kit build`` prints it), headed by the table's name, its
players and its scorer's link as a QR code (``kit.layout.qr``, drawn as vectors) and the
address. Made on a host's request only: the links are opened with the host's token
(``kit.console.sealed_links``), never stored in the clear."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....i18n import N_, Words, words
from ....layout import qr
from ....layout.blocks import para, title
from ....layout.model import Item, pt, text
from ....layout.pdf import PdfPage, draw
from ....layout.qr import QrCode
from ....paper import Frame, paper
from ..planner import check_examples
from ..sheets.table_sheets import Tally, tally_page
from .state import Party, play

SHEET = N_("Tally sheets with each table’s link")
SCORER_HINT = N_("Scorer’s link: open it on a phone to type each round’s choices and read "
                 "the tally back. Keep it at the table.")
QR_MM = 26.0  # the code with its quiet zone, over the 20 mm a phone reads at arm's length
URL_PT = 8.5
URL_LINES = 4
HEAD_GAP_MM = 4.0  # between the head and the tally's title


def _head(body: Frame, number: int, names: list[str], link: str | None, w: Words
          ) -> tuple[list[Item], float]:
    """The table's name, its players and its scorer's link; the height it takes."""
    room = body.w - (QR_MM + 4.0 if link else 0.0)
    items, y = title(body.x, body.y, w.gettext("Table %(table)s", table=number), 16.0)
    more, used = para(body.x, body.y + y, room, w.join(names))
    items += more
    y += used
    if link is None:
        return items, y + HEAD_GAP_MM
    more, used = para(body.x, body.y + y, room, w.gettext(SCORER_HINT), 9.0)
    items += more
    y += used
    step = pt(URL_PT) * 1.25
    lines = qr.wrap_url(link, room, URL_PT, URL_LINES)
    for i, line in enumerate(lines):
        items += text(body.x, body.y + y + pt(URL_PT) + i * step, line, URL_PT)
    y += pt(URL_PT) + (len(lines) - 1) * step + 1.5
    items += QrCode.of(link).items(body.right - QR_MM, body.y, QR_MM)
    return items, max(y, QR_MM) + HEAD_GAP_MM


def tally_sheets(state: Party, facts: Mapping[str, Any], links: Mapping[str, str]) -> bytes:
    """Every table's tally sheet as one PDF; a table in ``links`` (by its number) gets its
    scorer's link on it. The rows are the kit's: each round, then one replay."""
    w = words(str(facts["lang"]))
    sheet = paper(str(facts["paper"]))
    rounds = int(facts["rounds"])
    rows = (*(str(r) for r in range(1, rounds + 1)), w.gettext("Replay"))
    number_range = play(state.log).range
    examples = check_examples(number_range)
    body = sheet.body
    pages = []
    for number, names in enumerate(facts["tables"], start=1):
        items, used = _head(body, number, list(names), links.get(str(number)), w)
        rest = Frame(body.x, body.y + used, body.w, body.h - used)
        tally = Tally(rows, examples, rounds, False, len(names),
                      (number_range[0], number_range[1]))
        items += tally_page(rest, tally, w)
        pages.append(PdfPage(sheet.width_mm, sheet.height_mm, (), tuple(items)))
    return draw(pages, w.gettext(SHEET), w.lang)
