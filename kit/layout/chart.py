"""A bar chart as layout model (mm), drawn by the PDF and the SVG backends alike.

Pages print in black and white and a box has no fill, so a bar's kind shows by its outline
and its inside, never by colour: a plain bar is a solid outline, a ``cancelled`` one has
dashed sides, a ``marked`` one (a winning number, say) a thick outline filled with close rules.
Each bar carries its count above it and its label below; labels are thinned out when the
bars are too narrow for all of them (the chart's text equivalent gives every one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


@dataclass(frozen=True)
class Series:
    """One line of a step chart: its label and its value after each step (turn)."""

    label: str
    values: tuple[int, ...]


def _inked(on: float, off: float, width: float) -> tuple[tuple[float, ...], float]:
    """A line's look from the dashes and gaps it shows: both backends draw square ends
    (print.css, ``pdf.py``), which lengthen each dash by the line's width and shorten each
    gap as much, so a pattern given as drawn would close up on a thick line."""
    return (round(on - width, 3), round(off + width, 3)), width


# the lines' looks, taken in turn: black and white, so by dash and width, never by colour;
# no wider than 0.8 mm, whose square ends pass a line's end by less than half a millimetre
LINE_STYLES: tuple[tuple[tuple[float, ...], float], ...] = (
    ((), 0.4), _inked(1.6, 1.0, 0.4), _inked(0.6, 0.8, 0.4),
    ((), 0.8), _inked(2.0, 1.0, 0.8), _inked(1.0, 1.0, 0.8))
MOST_NAMES = 3  # names written at a line's end; the others counted ("+5")


def _end_label(names: Sequence[str], room: float = float("inf")) -> str:
    """The names at a line's end, as many as fit ``room`` mm (one at least), the others
    counted."""
    for count in range(min(MOST_NAMES, len(names)), 0, -1):
        shown = ", ".join(names[:count])
        label = shown + (f" +{len(names) - count}" if len(names) > count else "")
        if count == 1 or text_width(label, LABEL_PT) <= room:
            return label
    return ""


def _steps(values: Sequence[int], left: float, slot: float, right: float,
           level: Callable[[int], float], style: tuple[tuple[float, ...], float]
           ) -> list[Item]:
    """One series' line: from 0 at the axis, each value from the middle of its step (where
    its label is) to the next, the last to the right end; a rise stands off the axis, and
    the ink of the square ends stays between the axis and the right end."""
    dash, width = style
    items: list[Item] = []
    before, start = 0, left + width / 2  # a square end's ink starts on the axis
    for i, value in enumerate(values):
        at = left + (i + 0.5) * slot
        if value != before:
            items.append(hline(start, at, level(before), width, dash))
            items.append(vline(at, level(before), level(value), width, dash))
            start = at
        before = value
    items.append(hline(start, right - width / 2, level(before), width, dash))
    return items


def step_chart(x: float, y: float, w: float, h: float, series: Sequence[Series], top: int,
               steps: Sequence[str], value_label: str = "{}") -> list[Item]:
    """Each series as a step line over ``steps`` (their labels below, thinned out), from 0
    up to ``top``; the lines ending on one value share a label at their right end."""
    items: list[Item] = []
    if not series or not steps:
        return items
    line = pt(LABEL_PT) * 1.3
    ends: dict[int, list[str]] = {}
    for s in series:
        ends.setdefault(s.values[-1] if s.values else 0, []).append(s.label)
    label_w = min(w * 0.35, max(text_width(_end_label(n), LABEL_PT) for n in ends.values()))
    scale_w = text_width(value_label.format(top), LABEL_PT) + 1.0
    left, right, base, high = x + scale_w, x + w - label_w - 1.5, y + h - line, y + line / 2
    slot = (right - left) / len(steps)

    def level(value: int) -> float:
        return base - (base - high) * value / (top or 1)

    for value in sorted({0, top // 2, top}):
        items += text(left - 1.0, level(value) + pt(LABEL_PT) * 0.35, value_label.format(value),
                      LABEL_PT, "regular", "right")
    every = _every(list(steps), slot)
    for i, name in enumerate(steps):
        if i % every == 0 or i == len(steps) - 1:
            items += text(left + (i + 0.5) * slot, base + line - 0.6, name, LABEL_PT,
                          "regular", "center")
    items += [hline(left, right, base, 0.4), vline(left, high, base, 0.4)]
    for n, s in enumerate(series):
        items += _steps(s.values, left, slot, right, level, LINE_STYLES[n % len(LINE_STYLES)])
    placed = float("-inf")
    for value in sorted(ends, reverse=True):  # highest first, each label below the one above
        at = max(level(value) + pt(LABEL_PT) * 0.35, placed + line)
        items += text(right + 1.5, at, _end_label(ends[value], label_w), LABEL_PT)
        placed = at
    return items
