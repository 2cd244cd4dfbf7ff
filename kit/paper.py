"""Paper sizes and the page frame every page shares (tested on numbers alone)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ConfigError
from .i18n import N_, Words

PAPERS = ("a4", "letter")
MARGIN_MM = 10.0  # printers cannot print the outer ~5 mm; 10 mm leaves room for that and more
HEADER_MM = 11.0  # game, page label and range on one line, the event on a second
FOOTER_MM = 11.0  # the scale ruler and its label, the folio, a table stamp


@dataclass(frozen=True)
class Frame:
    """A rectangle on the page in mm, from the top-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True)
class Paper:
    name: str
    label: str
    width_mm: float
    height_mm: float
    css_size: str  # exact CSS @page size, so no unit conversion blurs the page box

    @property
    def content_width_mm(self) -> float:
        return self.width_mm - 2 * MARGIN_MM

    @property
    def body_height_mm(self) -> float:
        """Height between the page header and the footer."""
        return self.height_mm - 2 * MARGIN_MM - HEADER_MM - FOOTER_MM

    @property
    def body(self) -> Frame:
        """Where a page's own content goes: inside the margins, between header and footer."""
        return Frame(MARGIN_MM, MARGIN_MM + HEADER_MM, self.content_width_mm,
                     self.body_height_mm)

    def turned(self) -> Paper:
        """The same sheet in landscape."""
        return Paper(self.name, self.label, self.height_mm, self.width_mm,
                     " ".join(reversed(self.css_size.split())))

    def oriented(self, landscape: bool) -> Paper:
        return self.turned() if landscape else self


_PAPERS = {
    "a4": Paper("a4", "A4", 210.0, 297.0, "210mm 297mm"),
    "letter": Paper("letter", "US Letter", 215.9, 279.4, "8.5in 11in"),
}


PAPER_LABELS = {"a4": N_("A4"), "letter": N_("US Letter")}  # as forms offer them, translated


def paper_label(name: str, w: Words) -> str:
    """The paper's name in the words of ``w`` (a form's choice, a kit's summary)."""
    return w.gettext(PAPER_LABELS[name]) if name in PAPER_LABELS else paper(name).label


def paper(name: str) -> Paper:
    """The paper called ``name``; unknown names are an error, never a default."""
    try:
        return _PAPERS[name]
    except KeyError:
        raise ConfigError(
            "paper", f"unknown paper size {name!r}; choose {' or '.join(PAPERS)}"
        ) from None


def chunks(items: list, size: int) -> list[list]:
    """Split ``items`` into pages of ``size``; an empty list still gives one empty page."""
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]
