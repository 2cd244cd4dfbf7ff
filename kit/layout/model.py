"""The layout model of a form page: plain data in millimetres, drawn by two backends.

Coordinates run from the page's top-left corner, y downwards, in mm. A ``Text`` is one run of
one font face placed by its left end on its baseline; text that mixes faces (a ✓ from the
symbol font, a bold word, a name in another script) is already cut into runs with their
positions worked out here, so the PDF (``kit.layout.pdf``, ReportLab) and the HTML
(``kit.layout.svg``, inline SVG) place every run at the same spot and cannot drift apart.

A line is laid out by ``kit.fonts.line``: runs in visual order, right-to-left ones (``rtl``)
placed right to left, shaped runs measured by their shaped advances. The items of a line come
in logical (reading) order, so the PDF's text layer reads back in the order it was written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import fonts

MM_PER_PT = 25.4 / 72


@dataclass(frozen=True)
class Line:
    """A straight rule; ``dash`` is (on, off) in mm, empty for a solid line."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 0.3
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Box:
    """A stroked rectangle (no fill: pages print in black and white)."""

    x: float
    y: float
    w: float
    h: float
    width: float = 0.3
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Place:
    """Where a run of text belongs in what a screen reader is given of a form (never drawn):
    a cell of a ruled table, or one piece of a cut grid (a slip, an order form), read whole."""

    origin: tuple[float, float]  # the table's or grid's top-left corner: which one on the page
    rows: int
    columns: int
    row: int
    column: int
    span: int = 1  # columns the cell covers
    piece: bool = False  # a piece of a cut grid, not a table cell


@dataclass(frozen=True)
class Text:
    """One run of text in one face: left end at ``x``, baseline at ``y``; ``size`` in pt."""

    x: float
    y: float
    text: str  # logical order, even when the run reads right to left
    size: float
    face: str = "regular"
    rtl: bool = False  # a right-to-left run: shaped and drawn right to left from x + width
    place: Place | None = None  # its table cell or grid piece, for the HTML's screen readers


Item = Line | Box | Text
Items = tuple[Item, ...]


def pt(size: float) -> float:
    """Points to millimetres."""
    return size * MM_PER_PT


def text_width(text: str, size: float, style: str = "regular") -> float:
    """Printed width of ``text`` in mm."""
    return fonts.width_pt(text, size, style) * MM_PER_PT


def text(x: float, y: float, content: str, size: float, style: str = "regular",
         align: str = "left") -> list[Text]:
    """``content`` on one line at baseline ``y``; ``x`` is its left end, centre or right end."""
    return rich(x, y, [(content, style)], size, align)


def rich(x: float, y: float, parts: Sequence[tuple[str, str]], size: float,
         align: str = "left") -> list[Text]:
    """Several styled pieces on one line, e.g. ``[("H", "bold"), (" higher", "regular")]``.

    The pieces are one bidirectional paragraph: a line whose first letter is right to left is
    laid out right to left (wrap a name inside other text in ``fonts.isolate``).
    """
    return place_runs(x, y, fonts.line(tuple((c, s) for c, s in parts if c)), size, align)


def place_runs(x: float, y: float, runs: Sequence[fonts.Run], size: float,
               align: str = "left") -> list[Text]:
    """One line's runs (``fonts.line``, ``fonts.lines``) placed left to right from ``x``.

    The items come in reading order. A run of spaces is kept (it prints nothing): without it
    the text layer would join the words on either side of it.
    """
    widths = [fonts.run_width_pt(r.text, r.face, size, r.rtl) * MM_PER_PT for r in runs]
    total = sum(widths)
    start = x - total / 2 if align == "center" else x - total if align == "right" else x
    placed = []
    for run, width in zip(runs, widths, strict=True):
        placed.append((run.start, Text(round(start, 3), round(y, 3), run.text, size,
                                       run.face, run.rtl)))
        start += width
    return [item for _, item in sorted(placed, key=lambda p: p[0])]


def baseline_in(top: float, height: float, size: float) -> float:
    """The baseline that centres a line of capitals of ``size`` pt in a band."""
    return top + height / 2 + pt(size) * fonts.CAP_HEIGHT / 2


def whole_dashes(start: float, end: float, dash: tuple[float, ...]) -> float:
    """The end of a dashed line shortened so that it ends on a whole dash: the ink stops
    where the line says, in the PDF and in every browser alike."""
    if len(dash) != 2 or end - start <= dash[0]:
        return end
    on, period = dash[0], dash[0] + dash[1]
    return start + ((end - start - on) // period) * period + on


def hline(x1: float, x2: float, y: float, width: float = 0.3,
          dash: tuple[float, ...] = ()) -> Line:
    x2 = whole_dashes(x1, x2, dash)
    return Line(round(x1, 3), round(y, 3), round(x2, 3), round(y, 3), width, dash)


def vline(x: float, y1: float, y2: float, width: float = 0.3,
          dash: tuple[float, ...] = ()) -> Line:
    y2 = whole_dashes(y1, y2, dash)
    return Line(round(x, 3), round(y1, 3), round(x, 3), round(y2, 3), width, dash)


def box(x: float, y: float, w: float, h: float, width: float = 0.3,
        dash: tuple[float, ...] = ()) -> Box:
    return Box(round(x, 3), round(y, 3), round(w, 3), round(h, 3), width, dash)

