"""The chrome of every page: header, footer, folio, the 50 mm scale ruler, a table stamp.

Drawn from the layout model on form and prose pages alike, so the PDF and the HTML put every
footer at the same height and the stamp can never land on the ruler's label.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..i18n import Words
from ..paper import FOOTER_MM, HEADER_MM, MARGIN_MM, Paper
from .fit import ellipsize
from .model import Item, box, hline, pt, rich, text, text_width, vline

RULER_MM = 50.0
HEADER_PT = 9.0
BANNER_PT = 9.5
EVENT_PT = 8.5
FOOT_PT = 8.0
STAMP_PT = 11.0


@dataclass(frozen=True)
class ChromeText:
    """The words of a document's chrome, already in the kit's language."""

    game: str  # the game's title, bold at the top left
    banner: str  # range and limits, on player pages
    event: str  # the host's title and date, or empty
    table: str = ""  # "Table 2 of 3" for one table of a split party
    ruler: tuple[str, str] = ("This bar should measure 50 mm.",
                              "If not, print at 100% (actual size).")
    host: str = "HOST ONLY — keep these pages away from the players."
    folio: str = "page %(number)s of %(total)s"
    one_sided: str = "Print this file one-sided: its pages are cut apart."


def chrome_text(words: Words, game: str, banner: str, event: str, table: str = "",
                host: str = "") -> ChromeText:
    """The chrome's words in ``words``' language; ``host``: the plan's host notice."""
    _ = words.gettext
    return ChromeText(game, banner, event, table,
                      (_("This bar should measure 50 mm."),
                       _("If not, print at 100% (actual size).")),
                      host or _("HOST ONLY — keep these pages away from the players."),
                      _("page %(number)s of %(total)s"),
                      _("Print this file one-sided: its pages are cut apart."))


def header(sheet: Paper, words: ChromeText, label: str, player: bool, one_sided: bool = False
           ) -> list[Item]:
    """Game, page label and banner; below them the event, and with ``one_sided`` (a one-sided
    file's first page) the line asking for one-sided printing, at the right."""
    left = MARGIN_MM
    right = sheet.width_mm - MARGIN_MM
    width = right - left
    top = MARGIN_MM
    base = top + 4.4
    banner = words.banner if player else ""
    size = HEADER_PT
    lead = [(words.game, "bold"), (f" · {label}", "regular")]
    gap = 5.0

    def lead_width(s: float) -> float:
        return sum(text_width(t, s, st) for t, st in lead)

    banner_size = BANNER_PT
    while size > FOOT_PT and lead_width(size) + gap + text_width(banner, banner_size,
                                                                 "bold") > width:
        size -= 0.5
        banner_size -= 0.5
    if lead_width(size) + gap + text_width(banner, banner_size, "bold") > width:
        room = width - gap - text_width(banner, banner_size, "bold") - text_width(
            words.game, size, "bold")
        lead = [(words.game, "bold"), (ellipsize(f" · {label}", room, size), "regular")]
    items: list[Item] = list(rich(left, base, lead, size))
    if banner:
        items += text(right, base, banner, banner_size, "bold", "right")
    event_width = width
    if one_sided:
        items += text(right, base + 4.0, words.one_sided, FOOT_PT, "bold", "right")
        event_width -= text_width(words.one_sided, FOOT_PT, "bold") + gap
    if words.event:
        items += text(left, base + 4.0, ellipsize(words.event, event_width, EVENT_PT), EVENT_PT)
    items.append(hline(left, right, top + HEADER_MM - 1.6, 0.4))
    return items


def ruler(left: float, bottom: float, label: tuple[str, str]) -> list[Item]:
    """The 50 mm scale bar with a tick every 10 mm and its two-line label below."""
    return list(_ruler(left, bottom, label))


@lru_cache(maxsize=64)  # the same on every player page of a paper size and language
def _ruler(left: float, bottom: float, label: tuple[str, str]) -> tuple[Item, ...]:
    top = bottom - FOOTER_MM + 1.0
    bar = top + 3.0
    items: list[Item] = [hline(left, left + RULER_MM, bar, 0.3)]
    items += [vline(left + 10 * i, top, bar, 0.3) for i in range(6)]
    for n, line in enumerate(label):
        items += text(left, bar + 3.6 + n * 3.2, line, FOOT_PT)
    return tuple(items)


def footer(sheet: Paper, words: ChromeText, number: int, total: int, player: bool
           ) -> list[Item]:
    left = MARGIN_MM
    right = sheet.width_mm - MARGIN_MM
    bottom = sheet.height_mm - MARGIN_MM
    base = bottom - 0.8
    items: list[Item] = []
    if player:
        items += ruler(left, bottom, words.ruler)
    else:
        items += text(left, base, words.host, FOOT_PT, "bold")
    items += text(right, base, words.folio % {"number": number, "total": total}, FOOT_PT,
                  "regular", "right")
    if words.table:
        items += stamp(sheet, words.table)
    return items


def stamp(sheet: Paper, label: str) -> list[Item]:
    """"Table 2 of 3" in a box, centred in the footer band between the ruler text and folio."""
    width = text_width(label, STAMP_PT, "bold") + 4.0
    height = 6.5
    x = (sheet.width_mm - width) / 2
    y = sheet.height_mm - MARGIN_MM - height - 0.5
    base = y + height / 2 + pt(STAMP_PT) * 0.668 / 2
    return [box(x, y, width, height, 0.4), *text(sheet.width_mm / 2, base, label, STAMP_PT,
                                                  "bold", "center")]


def chrome(sheet: Paper, words: ChromeText, label: str, number: int, total: int,
           player: bool, one_sided: bool = False) -> tuple[Item, ...]:
    """Everything a page carries besides its body (``one_sided``: see ``header``)."""
    return tuple(header(sheet, words, label, player, one_sided)
                 + footer(sheet, words, number, total, player))


__all__ = ["ChromeText", "chrome", "chrome_text", "ruler", "stamp"]
