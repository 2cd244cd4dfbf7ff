"""Paper sizes and the layout maths that does not need drawing (tested on numbers alone)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ConfigError, LayoutError
from .options import PAPERS

MM_PER_PT = 25.4 / 72
MARGIN_MM = 10.0  # printers cannot print the outer ~5 mm; 10 mm leaves room for that and more
HEADER_MM = 9.0
FOOTER_MM = 11.0  # the scale ruler and page label


@dataclass(frozen=True)
class Paper:
    name: str
    label: str
    width_mm: float
    height_mm: float
    css_size: str  # exact CSS @page size, so no unit conversion blurs the page box

    @property
    def width_pt(self) -> float:
        return self.width_mm / MM_PER_PT

    @property
    def height_pt(self) -> float:
        return self.height_mm / MM_PER_PT

    @property
    def content_width_mm(self) -> float:
        return self.width_mm - 2 * MARGIN_MM

    @property
    def body_height_mm(self) -> float:
        """Height between the page header and the footer."""
        return self.height_mm - 2 * MARGIN_MM - HEADER_MM - FOOTER_MM

    def turned(self) -> Paper:
        """The same sheet in landscape."""
        return Paper(self.name, self.label, self.height_mm, self.width_mm,
                     " ".join(reversed(self.css_size.split())))


_PAPERS = {
    "a4": Paper("a4", "A4", 210.0, 297.0, "210mm 297mm"),
    "letter": Paper("letter", "US Letter", 215.9, 279.4, "8.5in 11in"),
}


def paper(name: str) -> Paper:
    """The paper called ``name``; unknown names are an error, never a default."""
    try:
        return _PAPERS[name]
    except KeyError:
        raise ConfigError(
            "paper", f"unknown paper size {name!r}; choose {' or '.join(PAPERS)}"
        ) from None


@dataclass(frozen=True)
class SlipGrid:
    columns: int
    rows: int
    width_mm: float
    height_mm: float

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


def slip_grid(p: Paper, columns: int = 2, rows: int = 4) -> SlipGrid:
    """Eight slips a page: the printable area (minus the ruler footer) cut into equal cells."""
    width = p.content_width_mm / columns
    height = (p.height_mm - 2 * MARGIN_MM - FOOTER_MM) / rows
    if width < 80 or height < 55:
        raise LayoutError("paper", f"{p.label} is too small for {columns * rows} slips a page")
    return SlipGrid(columns, rows, round(width, 2), round(height, 2))


def chunks(items: list, size: int) -> list[list]:
    """Split ``items`` into pages of ``size``; an empty list still gives one empty page."""
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]
