"""Ruled tables and cut grids as layout items: the shapes most form pages are made of."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from .fit import fit_in
from .model import Item, Place, Text, hline, vline

PAD_MM = 1.2  # between a cell's text and its rules


@dataclass(frozen=True)
class Cell:
    """A table cell's text: it shrinks from ``size`` to ``least`` and then wraps between words."""

    text: str = ""
    style: str = "regular"
    align: str = "left"
    size: float = 10.0
    least: float = 8.0
    span: int = 1  # columns this cell covers
    lines: int = 2  # most lines it may wrap to


def in_cell(runs: Sequence[Item], table: Place, row: int, column: int, span: int = 1
            ) -> list[Item]:
    """``runs`` as the text of one cell of ``table`` (a table drawn by other means than
    ``ruled_table``): what a screen reader reads of it in the HTML kit."""
    return [replace(run, place=replace(table, row=row, column=column, span=span))
            if isinstance(run, Text) else run for run in runs]


def column_edges(x: float, widths: Sequence[float]) -> list[float]:
    edges = [x]
    for width in widths:
        edges.append(edges[-1] + width)
    return edges


def ruled_table(x: float, y: float, widths: Sequence[float], heights: Sequence[float],
                rows: Sequence[Sequence[Cell]], line: float = 0.3,
                heavy: Sequence[int] = ()) -> list[Item]:
    """A grid of cells with every rule drawn once; ``heavy`` row edges get a thicker rule.

    ``rows[r]`` lists the cells of row ``r`` left to right (a cell with ``span`` > 1 covers
    several columns); a row may be shorter than the columns (the rest stays empty).
    """
    table = Place((x, y), len(heights), len(widths), 0, 0)
    xs = column_edges(x, widths)
    ys = column_edges(y, heights)
    items: list[Item] = []
    for r, edge in enumerate(ys):
        items.append(hline(xs[0], xs[-1], edge, 0.6 if r in heavy else line))
    for r, cells in enumerate(rows):
        col = 0
        starts = {0}
        placed: list[tuple[int, int, Cell]] = []
        for cell in cells:
            placed.append((col, col + cell.span, cell))
            col += cell.span
            starts.add(col)
        starts |= set(range(col, len(widths) + 1))
        for c in sorted(starts):
            items.append(vline(xs[c], ys[r], ys[r + 1], line))
        for first, stop, cell in placed:
            if cell.text:
                left, right = xs[first] + PAD_MM, xs[stop] - PAD_MM
                items += in_cell(fit_in(
                    cell.text, left, ys[r], right - left, heights[r], cell.size, cell.least,
                    cell.style, cell.align, cell.lines), table, r, first, cell.span)
    for r in range(len(rows), len(heights)):
        for edge in xs:
            items.append(vline(edge, ys[r], ys[r + 1], line))
    return items


CUT_MARK_MM = 3.0  # how far a cut line runs into the side margins
CUT_LINE_MM = 0.35  # every cut line's thickness: slips, forms, two sheets a page


def cut_grid(x: float, y: float, columns: int, rows: int, width: float, height: float,
             count: int, draw: Callable[[int, float, float], list[Item]],
             line: float = CUT_LINE_MM) -> list[Item]:
    """``count`` equal cells, row by row, sharing solid cut lines; ``draw(i, left, top)``
    gives the items of cell ``i`` (slips, order forms).

    Each line across runs ``CUT_MARK_MM`` into the side margins: after the first cut down the
    page, every piece still shows where the cuts across go, and a trimmer's blade lines up
    with the mark at the paper's edge."""
    items: list[Item] = []
    used_rows = -(-count // columns) if count else 0
    for r in range(used_rows + 1 if used_rows else 0):
        cells_above = min(columns, count - (r - 1) * columns) if r else 0
        cells_below = min(columns, count - r * columns) if r < used_rows else 0
        reach = max(cells_above, cells_below)
        items.append(hline(x - CUT_MARK_MM, x + reach * width + CUT_MARK_MM, y + r * height,
                           line))
    for r in range(used_rows):
        in_row = min(columns, count - r * columns)
        for c in range(in_row + 1):
            items.append(vline(x + c * width, y + r * height, y + (r + 1) * height, line))
    grid = Place((x, y), used_rows, columns, 0, 0, piece=True)
    for i in range(count):
        r, c = divmod(i, columns)
        items += in_cell(draw(i, x + c * width, y + r * height), grid, r, c)
    return items
