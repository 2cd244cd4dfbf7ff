"""A bar chart as layout model (mm), drawn by the PDF and the SVG backends alike.

Pages print in black and white and a box has no fill, so a bar's kind shows by its outline
and its inside, never by colour: a plain bar is a solid outline, a ``cancelled`` one has
dashed sides, a ``marked`` one (a winning number, say) a thick outline filled with close rules.
Each bar carries its count above it and its label below; labels are thinned out when the
bars are too narrow for all of them (the chart's text equivalent gives every one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .model import Item, box, hline, pt, text, text_width, vline

PLAIN, CANCELLED, MARKED = "plain", "cancelled", "marked"
LABEL_PT = 8.0  # the smallest text a printed page may carry
DASH = (1.0, 0.7)
HATCH_MM = 0.6  # between the rules that fill a marked bar


@dataclass(frozen=True)
class Bar:
    """One bar: its label (a number or a range of numbers), its height and its kind."""

    label: str
    value: int
    kind: str = PLAIN


def _every(labels: Sequence[str], slot: float) -> int:
    """Label every n-th bar so that no two labels touch."""
    widest = max((text_width(label, LABEL_PT) for label in labels), default=0.0)
    step = 1
    while step < len(labels) and widest + 1.0 > slot * step:
        step += 1
    return step


def bar_chart(x: float, y: float, w: float, h: float, bars: Sequence[Bar]) -> list[Item]:
    """The bars side by side in the box (x, y, w, h): counts above, labels below, a base line;
    the tallest bar fills the height left between them."""
    items: list[Item] = []
    if not bars:
        return items
    line = pt(LABEL_PT) * 1.3
    base = y + h - line
    top = y + line
    most = max((b.value for b in bars), default=0) or 1
    slot = w / len(bars)
    gap = min(slot * 0.2, 1.5)
    step = _every([b.label for b in bars], slot)
    for i, bar in enumerate(bars):
        left = x + i * slot + gap / 2
        width = slot - gap
        centre = x + (i + 0.5) * slot
        height = (base - top) * bar.value / most
        if bar.value:
            items += _bar(left, base - height, width, height, bar.kind)
            items += text(centre, base - height - 0.8, str(bar.value), LABEL_PT, "bold",
                          "center")
        if i % step == 0 or bar.kind == MARKED:
            items += text(centre, base + line - 0.6, bar.label, LABEL_PT, "regular", "center")
    items.append(hline(x, x + w, base, 0.4))
    return items


def _bar(x: float, y: float, w: float, h: float, kind: str) -> list[Item]:
    """One bar's outline, and its inside for a marked one."""
    if kind == CANCELLED:  # dashed sides, each ending on a whole dash (a dashed box's dashes
        # would start where each backend begins its rectangle), under a solid top
        return [hline(x, x + w, y, 0.4), vline(x, y, y + h, 0.4, DASH),
                vline(x + w, y, y + h, 0.4, DASH)]
    if kind != MARKED:
        return [box(x, y, w, h, 0.4)]
    rules: list[Item] = [box(x, y, w, h, 0.8)]
    at = y + HATCH_MM
    while at < y + h - HATCH_MM / 2:
        rules.append(hline(x, x + w, at, 0.25))
        at += HATCH_MM
    return rules
