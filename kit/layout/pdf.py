"""Draw layout models into a PDF with ReportLab.

Each page is a body (shared by every page that shows the same one: it is drawn once, as a
Form XObject) under its own chrome (header, footer, folio, table stamp). Fonts are the bundled
TrueType files, embedded as subsets; viewers are asked to print at actual size; the same pages
give the same bytes (ReportLab's invariant mode).
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from .. import __version__, fonts
from .model import Box, Item, Items, Line, Text

MM = 72 / 25.4
PRODUCER = "number-party-kit"


@dataclass(frozen=True)
class PdfPage:
    """One page to draw: its size, an optional shared body, and its own chrome."""

    width_mm: float
    height_mm: float
    chrome: Items
    body: Items = ()


def _draw(canvas, items: Items, height_mm: float) -> None:
    """Rules and boxes first (grouped by line style), then every text run in one text object."""
    strokes = sorted((i for i in items if not isinstance(i, Text)),
                     key=lambda i: (i.width, i.dash))
    for (width, dash), group in groupby(strokes, key=lambda i: (i.width, i.dash)):
        canvas.setLineWidth(width * MM)
        canvas.setDash([d * MM for d in dash] if dash else [])
        path = canvas.beginPath()
        for item in group:
            if isinstance(item, Line):
                path.moveTo(item.x1 * MM, (height_mm - item.y1) * MM)
                path.lineTo(item.x2 * MM, (height_mm - item.y2) * MM)
            elif isinstance(item, Box):
                path.rect(item.x * MM, (height_mm - item.y - item.h) * MM, item.w * MM,
                          item.h * MM)
        canvas.drawPath(path, stroke=1, fill=0)
    texts = [i for i in items if isinstance(i, Text)]
    if texts:
        run = canvas.beginText()
        current = None
        for item in texts:
            if (item.face, item.size) != current:
                run.setFont(item.face, item.size)
                current = (item.face, item.size)
            run.setTextOrigin(item.x * MM, (height_mm - item.y) * MM)
            run.textOut(item.text)
        canvas.drawText(run)


def draw(pages: Sequence[PdfPage], title: str, lang: str = "en") -> bytes:
    """One PDF of ``pages``: version 1.7, fonts embedded, print at actual size."""
    from reportlab.pdfgen.canvas import Canvas

    fonts.register_all()
    out = io.BytesIO()
    first = pages[0] if pages else PdfPage(210, 297, ())
    canvas = Canvas(out, pagesize=(first.width_mm * MM, first.height_mm * MM), invariant=1,
                    pdfVersion=(1, 7), lang=lang, pageCompression=1,
                    initialFontName="regular", initialFontSize=10)
    canvas.setTitle(title)
    canvas.setAuthor(PRODUCER)
    canvas.setCreator(f"{PRODUCER} {__version__}")
    canvas.setProducer(PRODUCER)
    canvas.setSubject(title)
    canvas.setViewerPreference("PrintScaling", "None")
    # A body shared by several pages is the same tuple (planners cache their pages), so
    # sharing is found by identity: comparing hundreds of items per page would cost more.
    repeated = {key for key, count in Counter(id(p.body) for p in pages if p.body).items()
                if count > 1}
    forms: dict[int, str] = {}
    for page in pages:
        canvas.setPageSize((page.width_mm * MM, page.height_mm * MM))
        canvas.setLineCap(2)  # square ends, so ruled lines meet at the corners
        if id(page.body) in repeated:
            name = forms.get(id(page.body))
            if name is None:
                name = forms[id(page.body)] = f"body{len(forms)}"
                canvas.beginForm(name, 0, 0, page.width_mm * MM, page.height_mm * MM)
                canvas.setLineCap(2)
                _draw(canvas, page.body, page.height_mm)
                canvas.endForm()
            canvas.doForm(name)
        elif page.body:
            _draw(canvas, page.body, page.height_mm)
        _draw(canvas, page.chrome, page.height_mm)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def items_bounds(items: Sequence[Item]) -> tuple[float, float, float, float] | None:
    """(left, top, right, bottom) in mm of the rules and boxes (text is measured elsewhere)."""
    xs: list[float] = []
    ys: list[float] = []
    for item in items:
        if isinstance(item, Line):
            xs += [item.x1, item.x2]
            ys += [item.y1, item.y2]
        elif isinstance(item, Box):
            xs += [item.x, item.x + item.w]
            ys += [item.y, item.y + item.h]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None
