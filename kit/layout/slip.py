"""The fold-up slip both games use: the number stays inside, the name stays outside.

A slip has three bands. The top band carries the name. The bottom band (the flap) carries the
number box; folded up along the dashed line it lies on the middle band, printed side in, so the
number is hidden while the name stays readable. The middle band holds the instructions, read
before folding. A shared cut grid puts eight slips on a page.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..paper import Frame
from .fit import paragraph
from .model import Item, Text, hline, text, text_width

PAD_MM = 3.5
FOLD_PT = 8.0
FLAP_MIN_MM = 19.0  # room for a 13 mm number box and its label


@dataclass(frozen=True)
class SlipGrid:
    """How a game cuts a page into slips: columns x rows of one size, in mm."""

    columns: int
    rows: int
    width_mm: float
    height_mm: float

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


@dataclass(frozen=True)
class SlipBands:
    """Where the three bands of one slip are, in mm."""

    head: Frame
    middle: Frame
    flap: Frame

    @property
    def fold_y(self) -> float:
        return self.flap.y


def bands(left: float, top: float, width: float, height: float,
          flap_min: float = FLAP_MIN_MM) -> SlipBands:
    """The flap and the middle band are equal; the middle is 1 mm taller so the folded flap
    never covers the name. ``flap_min``: a flap that carries more than the number box."""
    flap = max(flap_min, round((height - 20.0) / 2, 2))
    head = height - 2 * flap - 1.0
    return SlipBands(Frame(left, top, width, head),
                     Frame(left, top + head, width, flap + 1.0),
                     Frame(left, top + head + flap + 1.0, width, flap))


def fold(b: SlipBands, label: str, size: float | None = None) -> list[Item]:
    """The dashed fold line, its label at the right end in the line's place (``size``: the
    label's, FOLD_PT unless given)."""
    size = size or FOLD_PT
    y = b.fold_y
    right = b.flap.right - PAD_MM
    gap_left = right - text_width(label, size) - 1.5
    # the baseline just below the line, as far as the size asks: the label sits on it
    return [hline(b.flap.x + 0.6, gap_left, y, 0.35, (1.6, 1.0)),
            *text(right, y + size / FOLD_PT, label, size, "regular", "right")]


def instructions(b: SlipBands, words: str, size: float = 8.5) -> list[Text]:
    """The slip's instructions in its middle band (hidden once the flap is folded)."""
    items, _ = paragraph(b.middle.x + PAD_MM, b.middle.y + 1.2, b.middle.w - 2 * PAD_MM,
                         [(words, "regular")], size, 1.2)
    return items
