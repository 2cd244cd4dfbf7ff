"""Render layout models as inline SVG for the HTML kit: the same items the PDF draws.

The SVG's user unit is the millimetre (``viewBox`` = the page), text sizes are converted from
points, and kerning and ligatures are switched off (in ``print.css``) because ReportLab uses
neither: each glyph then lands where the PDF puts it. A run the PDF draws from shaped glyphs
(a complex or right-to-left script, combining marks) has the class ``s``, which keeps the
browser's shaping on (the same HarfBuzz features, the same font); a right-to-left run is
written right to left (``direction="rtl"``), anchored at its right end, ``x`` + its width.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from html import escape
from itertools import groupby

from .. import fonts
from .model import MM_PER_PT, Box, Item, Line, Text, pt


@lru_cache(maxsize=65536)  # a page repeats its coordinates many times
def _num(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def _path(items: Sequence[Item]) -> str:
    parts = []
    for item in items:
        if isinstance(item, Line):
            parts.append(f"M{_num(item.x1)} {_num(item.y1)}L{_num(item.x2)} {_num(item.y2)}")
        elif isinstance(item, Box):
            parts.append(f"M{_num(item.x)} {_num(item.y)}h{_num(item.w)}v{_num(item.h)}"
                         f"h{_num(-item.w)}z")
    return "".join(parts)


def _items(items: Sequence[Item]) -> str:
    out = []
    strokes = sorted((i for i in items if not isinstance(i, Text)),
                     key=lambda i: (i.width, i.dash))
    for (width, dash), group in groupby(strokes, key=lambda i: (i.width, i.dash)):
        dashes = f' stroke-dasharray="{" ".join(_num(d) for d in dash)}"' if dash else ""
        out.append(f'<path stroke-width="{_num(width)}"{dashes} d="{_path(list(group))}"/>')
    for item in items:
        if isinstance(item, Text):
            out.append(_text(item))
    return "".join(out)


def _text(item: Text) -> str:
    cls = f"f-{item.face}"
    x = item.x
    extra = ""
    if fonts.needs_shaping(item.text, item.face, item.rtl):
        cls += " s"
    if item.rtl:
        x += fonts.run_width_pt(item.text, item.face, item.size, True) * MM_PER_PT
        extra = ' direction="rtl"'
    if item.place is not None:  # read in the page's table or list instead (``kit.layout.reading``)
        extra += ' aria-hidden="true"'
    return (f'<text class="{cls}" x="{_num(x)}" y="{_num(item.y)}" '
            f'font-size="{_num(pt(item.size))}"{extra}>{escape(item.text, quote=False)}</text>')


_BODIES: dict[int, tuple[Sequence[Item], str]] = {}


def _body(items: Sequence[Item]) -> str:
    """A page body's markup; a body shared by many pages (the same tuple) is written once."""
    key = id(items)
    found = _BODIES.get(key)
    if found is not None and found[0] is items:
        return found[1]
    if len(_BODIES) > 512:
        _BODIES.clear()
    markup = _items(items)
    _BODIES[key] = (items, markup)  # holding the tuple keeps its id from being reused
    return markup


def render(width_mm: float, height_mm: float, body: Sequence[Item], chrome: Sequence[Item],
           label: str = "") -> str:
    """One ``<svg>`` the size of the page: its body, then its chrome."""
    return (f'<svg class="sheet" xmlns="http://www.w3.org/2000/svg" '
            f'width="{_num(width_mm)}mm" height="{_num(height_mm)}mm" '
            f'viewBox="0 0 {_num(width_mm)} {_num(height_mm)}"'
            + (f' aria-label="{escape(label)}"' if label else "") + ">"
            + _body(body) + _items(chrome) + "</svg>")


def figure(width_mm: float, height_mm: float, items: Sequence[Item], label: str) -> str:
    """A drawing on its own (a chart on a web page): as wide as its box, its words in
    ``label`` for those who cannot see it."""
    return (f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'viewBox="0 0 {_num(width_mm)} {_num(height_mm)}" aria-label="{escape(label)}">'
            + _items(items) + "</svg>")
