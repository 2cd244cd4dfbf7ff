"""Headings, paragraphs and notes for the text parts of form pages."""

from __future__ import annotations

from collections.abc import Sequence

from ..fonts import ASCENT, DESCENT
from .fit import Part, paragraph
from .model import Item, box, pt, text

TITLE_PT = 20.0
HEADING_PT = 12.5
BODY_PT = 10.5


def title(x: float, top: float, words: str, size: float = TITLE_PT) -> tuple[list[Item], float]:
    """A page title; returns its items and the height it takes (with the space below).

    The baseline sits one ascent below ``top``, so even an accented capital stays below it."""
    base = top + pt(size) * ASCENT
    return list(text(x, base, words, size, "bold")), pt(size) * (ASCENT + DESCENT) + 1.5


def heading(x: float, top: float, words: str) -> tuple[list[Item], float]:
    base = top + 3.5 + pt(HEADING_PT) * ASCENT
    return (list(text(x, base, words, HEADING_PT, "bold")),
            3.5 + pt(HEADING_PT) * (ASCENT + DESCENT) + 1.0)


def para(x: float, top: float, width: float, parts: Sequence[Part] | str,
         size: float = BODY_PT) -> tuple[list[Item], float]:
    """A paragraph and the height it takes, with 1.6 mm below it."""
    if isinstance(parts, str):
        parts = [(parts, "regular")]
    items, height = paragraph(x, top, width, parts, size)
    return list(items), height + 1.6


def note(x: float, top: float, width: float, paragraphs: Sequence[Sequence[Part]],
         size: float = BODY_PT, pad: float = 2.5) -> tuple[list[Item], float]:
    """Paragraphs in a ruled box (an end-of-game note, say)."""
    items: list[Item] = []
    y = top + pad
    for parts in paragraphs:
        more, height = para(x + pad, y, width - 2 * pad, parts, size)
        items += more
        y += height
    y += pad - 1.6
    items.append(box(x, top, width, y - top, 0.3))
    return items, y - top
