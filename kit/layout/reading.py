"""What a screen reader is given of a form page in the HTML kit: its tables and grids as HTML.

A form page is one ``<svg>`` drawing, whose text runs a screen reader would read one by one in
drawing order, a table's cells mixed with its neighbours'. Each run that ``ruled_table`` or
``cut_grid`` placed (``Text.place``) is hidden from screen readers in the drawing and read
here instead: a ruled table as a real ``<table>`` (its first row the column headers, every
empty cell kept, where players write), a cut grid as a list, one item per piece (a slip, an
order form), all hidden from sight and from print (``.sr-only`` in print.css).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .model import Item, Place, Text

Part = tuple[tuple[float, float], bool]  # a table's or grid's origin, and whether a grid


def _parts(items: Sequence[Item]) -> dict[Part, dict[tuple[int, int], list[Text]]]:
    """The placed runs of each table and grid, by (row, column), in drawing order."""
    parts: dict[Part, dict[tuple[int, int], list[Text]]] = {}
    for item in items:
        if isinstance(item, Text) and item.place is not None:
            key = (item.place.origin, item.place.piece)
            cells = parts.setdefault(key, {})
            cells.setdefault((item.place.row, item.place.column), []).append(item)
    return parts


def _words(runs: Sequence[Text]) -> str:
    return escape(" ".join(" ".join(run.text.split()) for run in runs))


def _table(cells: dict[tuple[int, int], list[Text]], shape: Place, label: str) -> str:
    rows = []
    for r in range(shape.rows):
        tag, scope = ("th", ' scope="col"') if r == 0 else ("td", "")
        out, c = [], 0
        while c < shape.columns:
            runs = cells.get((r, c), [])
            span = runs[0].place.span if runs and runs[0].place else 1
            colspan = f' colspan="{span}"' if span > 1 else ""
            out.append(f"<{tag}{scope}{colspan}>{_words(runs)}</{tag}>")
            c += span
        rows.append("<tr>" + "".join(out) + "</tr>")
    return (f'<table class="sr-only" aria-label="{escape(label)}"><thead>{rows[0]}</thead>'
            f'<tbody>{"".join(rows[1:])}</tbody></table>')


def _grid(cells: dict[tuple[int, int], list[Text]], label: str) -> str:
    pieces = "".join(f"<li>{_words(runs)}</li>" for _, runs in sorted(cells.items()))
    return f'<ul class="sr-only" aria-label="{escape(label)}">{pieces}</ul>'


LEAST_HEADING_PT = 11.0  # a bold run this large or larger heads what is drawn under it


def _heading(items: Sequence[Item], origin: tuple[float, float], right: float) -> str | None:
    """The words of the nearest heading line drawn above a part whose top-left corner is
    ``origin``, those between its left edge and ``right`` (the next part's beside it)."""
    x, top = origin
    above = [i for i in items if isinstance(i, Text) and i.place is None and i.face == "bold"
             and i.size >= LEAST_HEADING_PT and i.y < top and x - 1 <= i.x < right]
    if not above:
        return None
    line = max(i.y for i in above)
    return " ".join(" ".join(i.text.split()) for i in above if i.y == line)


def alternative(items: Sequence[Item], label: str) -> str:
    """The HTML a screen reader reads for the tables and grids of a form page's ``items``
    (none: ""): one is named ``label`` (the page's); of several, each by the heading above it
    (a page that holds a tally and a score sheet reads as two tables with their own names)."""
    parts = _parts(items)
    out = []
    for (origin, _), cells in parts.items():
        shape = next(iter(cells.values()))[0].place
        assert shape is not None  # only placed runs are gathered
        beside = [o[0] for o, _ in parts if abs(o[1] - origin[1]) < 1 and o[0] > origin[0]]
        name = label if len(parts) == 1 else _heading(
            items, origin, min(beside, default=float("inf"))) or label
        out.append(_grid(cells, name) if shape.piece else _table(cells, shape, name))
    return "".join(out)
