"""The seating list of a split party (host file): which names sit at which table.

A form page, measured by the fonts' metrics: each table's names wrap between names, and a
page takes as many tables as fit.
"""

from __future__ import annotations

from collections.abc import Sequence

from .fonts import isolate
from .fonts import lines as fonts_lines
from .i18n import Words
from .layout.blocks import para, title
from .layout.fit import LEADING, fit_in, fits, wrap
from .layout.model import Item, place_runs, pt
from .layout.table import PAD_MM, Cell, ruled_table
from .paper import Frame

NAMES_PT = 10.0
LABEL_SHARE = 0.22
HEAD_MM = 8.0


def _rows(names: Sequence[str], width: float) -> list[str]:
    """A table's names joined by " · " in lines that break between names, never inside one
    (a name wider than the whole line wraps between its own words, on lines of its own)."""
    inner = width - 2 * PAD_MM

    def alone(line: str) -> list[str]:
        return [line] if fits(line, inner, NAMES_PT) else wrap(line, inner, NAMES_PT)

    lines: list[str] = []
    current = ""
    for n, name in enumerate(names):
        unit = isolate(name) + (" ·" if n < len(names) - 1 else "")  # in its own direction
        joined = f"{current} {unit}" if current else unit
        if current and not fits(joined, inner, NAMES_PT):
            lines += alone(current)
            current = unit
        else:
            current = joined
    return lines + alone(current) if current else lines or [""]


def row_height(lines: int) -> float:
    return max(8.0, lines * pt(NAMES_PT) * LEADING + 2 * PAD_MM)


def _intro(body: Frame, players: int, table_count: int, words: Words
           ) -> tuple[list[Item], float]:
    """The title and the line under it; returns the items and the height they take."""
    items, used = title(body.x, body.y, words.gettext("Seating"))
    more, height = para(body.x, body.y + used, body.w, words.gettext(
        "%(players)s players at %(tables)s tables. Each table plays its own game with its own "
        "slips, tally and score sheet; every one of those pages names its table at the foot.",
        players=players, tables=table_count))
    return items + more, used + height + 1.0


def paginate(body: Frame, tables: Sequence[tuple[str, Sequence[str]]], players: int,
             words: Words) -> list[list[tuple[str, Sequence[str]]]]:
    """Tables per page: each page holds as many whole table rows as its height allows."""
    start = _intro(body, players, len(tables), words)[1] + HEAD_MM
    names_w = body.w * (1 - LABEL_SHARE)
    pages: list[list[tuple[str, Sequence[str]]]] = [[]]
    used = start
    for label, names in tables:
        height = row_height(len(_rows(names, names_w)))
        if pages[-1] and used + height > body.h:
            pages.append([])
            used = start
        pages[-1].append((label, names))
        used += height
    return pages


def seating_page(body: Frame, tables: Sequence[tuple[str, Sequence[str]]], players: int,
                 table_count: int, words: Words) -> list[Item]:
    x, w = body.x, body.w
    items, used = _intro(body, players, table_count, words)
    y = body.y + used
    widths = [w * LABEL_SHARE, w * (1 - LABEL_SHARE)]
    rows = [_rows(names, widths[1]) for _, names in tables]
    heights = [HEAD_MM] + [row_height(len(r)) for r in rows]
    cells = [[Cell(words.gettext("Table"), "bold", size=9.5),
              Cell(words.gettext("Players"), "bold", size=9.5)]]
    items += ruled_table(x, y, widths, heights, cells)
    top = y + HEAD_MM
    step = pt(NAMES_PT) * LEADING
    for (label, _), lines, height in zip(tables, rows, heights[1:], strict=True):
        # each row's label, then its names: the order a reader (or screen reader) meets them
        items += fit_in(label, x + PAD_MM, top, widths[0] - 2 * PAD_MM, height, 10.0, 8.0,
                        "bold")
        first = top + (height - step * len(lines)) / 2 + step / 2 + pt(NAMES_PT) * 0.334
        # the names are one paragraph: levels over all its lines, each line reordered alone
        for i, runs in enumerate(fonts_lines(tuple(((line, "regular"),) for line in lines))):
            items += place_runs(x + widths[0] + PAD_MM, first + i * step, runs, NAMES_PT)
        top += height
    return items
