"""Draw layout models into a PDF with ReportLab.

Each page is a body (shared by every page that shows the same one: it is drawn once, as a
Form XObject) under its own chrome (header, footer, folio, table stamp). Fonts are the bundled
TrueType files, embedded as subsets; viewers are asked to print at actual size; the same pages
give the same bytes (ReportLab's invariant mode).

A run that needs shaping (a complex or right-to-left script, combining marks: see
``kit.fonts``) is drawn twice at the same place: its HarfBuzz-shaped glyphs as filled outlines
(each glyph and each run a Form XObject, defined once per document), and its text, invisibly
(text render mode 3) in the same font, stretched to the same width; the text state is
restored after the last such run, since it outlives the text object. The runs of a line come in
reading order; a right-to-left run's characters lie left to right as on the page (reversed),
which is what extraction tools (pypdf, poppler) expect and turn back into reading order, so the
name is found, searched and copied as it was written.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING

from .. import __version__, fonts
from .model import Box, Items, Line, Text

if TYPE_CHECKING:
    from pypdf import PdfWriter
    from reportlab.pdfgen.canvas import Canvas

MM = 72 / 25.4
PRODUCER = "number-party-kit"


@dataclass(frozen=True)
class PdfPage:
    """One page to draw: its size, an optional shared body, and its own chrome."""

    width_mm: float
    height_mm: float
    chrome: Items
    body: Items = ()


class _Glyphs:
    """Shaped runs and their glyph outlines, each a Form XObject defined once per document.

    A glyph's form draws its outline in font units; a run's form places its glyph forms along
    the run, in font units too. A name printed on fifty pages is one small ``Do`` each time.
    """

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.glyphs: dict[tuple[str, int], tuple[str, tuple[float, ...]] | None] = {}
        self.runs: dict[tuple[str, str, bool], str | None] = {}

    def glyph(self, face: str, glyph: int) -> tuple[str, tuple[float, ...]] | None:
        """A glyph's form and its box (None for a glyph without ink)."""
        key = (face, glyph)
        if key in self.glyphs:
            return self.glyphs[key]
        ops = fonts.outline(face, glyph)
        if not ops:
            self.glyphs[key] = None
            return None
        # types-reportlab's canvas stub leaves out the module's fill-mode constants
        from reportlab.pdfgen.canvas import FILL_NON_ZERO  # type: ignore[attr-defined]

        canvas = self.canvas
        xs = [v for _, points in ops for v in points[0::2]]
        ys = [v for _, points in ops for v in points[1::2]]
        box = (min(xs), min(ys), max(xs), max(ys))
        name = f"G{len(self.glyphs)}"
        self.glyphs[key] = (name, box)
        # types-reportlab has a form's corners as ints; ReportLab takes any number
        canvas.beginForm(name, *box)  # type: ignore[arg-type]
        canvas.setFillGray(0)
        path = canvas.beginPath()
        for verb, points in ops:
            if verb == "m":
                path.moveTo(*points)
            elif verb == "l":
                path.lineTo(*points)
            elif verb == "c":
                path.curveTo(*points)
            else:
                path.close()
        canvas.drawPath(path, stroke=0, fill=1, fillMode=FILL_NON_ZERO)
        canvas.endForm()
        return self.glyphs[key]

    def run(self, item: Text) -> str | None:
        """The form drawing a shaped run at its origin, in font units (None: no ink)."""
        key = (item.face, item.text, item.rtl)
        if key in self.runs:
            return self.runs[key]
        shaped = fonts.shape(item.text, item.face, item.rtl)
        placed = []
        for glyph, dx, dy in shaped.glyphs:
            found = self.glyph(item.face, glyph)
            if found is not None:
                placed.append((found, dx, dy))
        if not placed:
            self.runs[key] = None
            return None
        canvas = self.canvas
        name = self.runs[key] = f"R{len(self.runs)}"
        box = (min(b[0] + dx for (_, b), dx, _ in placed),
               min(b[1] + dy for (_, b), _, dy in placed),
               max(b[2] + dx for (_, b), dx, _ in placed),
               max(b[3] + dy for (_, b), _, dy in placed))
        canvas.beginForm(name, *box)  # type: ignore[arg-type]  # as above: ints in the stubs
        for (glyph_name, _), dx, dy in placed:
            canvas.saveState()
            canvas.translate(dx, dy)
            canvas.doForm(glyph_name)
            canvas.restoreState()
        canvas.endForm()
        return name


def _outlines(canvas: Canvas, glyphs: _Glyphs, item: Text, height_mm: float) -> None:
    """A shaped run's glyphs: its run form, scaled from font units to the run's size."""
    name = glyphs.run(item)
    if name is None:
        return
    scale = item.size / fonts.units_per_em(item.face)
    canvas.saveState()
    canvas.transform(scale, 0, 0, scale, item.x * MM, (height_mm - item.y) * MM)
    canvas.doForm(name)
    canvas.restoreState()


def _draw(canvas: Canvas, items: Items, height_mm: float, glyphs: _Glyphs) -> None:
    """Rules and boxes first (grouped by line style), then shaped runs' outlines, then every
    text run in one text object (shaped runs' text invisible there)."""
    strokes = sorted((i for i in items if not isinstance(i, Text)),
                     key=lambda i: (i.width, i.dash))
    for (width, dash), group in groupby(strokes, key=lambda i: (i.width, i.dash)):
        canvas.setLineWidth(width * MM)
        canvas.setDash([d * MM for d in dash] if dash else [])
        path = canvas.beginPath()
        for stroke in group:
            if isinstance(stroke, Line):
                path.moveTo(stroke.x1 * MM, (height_mm - stroke.y1) * MM)
                path.lineTo(stroke.x2 * MM, (height_mm - stroke.y2) * MM)
            elif isinstance(stroke, Box):
                path.rect(stroke.x * MM, (height_mm - stroke.y - stroke.h) * MM, stroke.w * MM,
                          stroke.h * MM)
        canvas.drawPath(path, stroke=1, fill=0)
    texts = [i for i in items if isinstance(i, Text)]
    shaped = {id(i) for i in texts if fonts.needs_shaping(i.text, i.face, i.rtl)}
    for item in texts:
        if id(item) in shaped:
            _outlines(canvas, glyphs, item, height_mm)
    if texts:
        run = canvas.beginText()
        current = None
        hidden = False
        for item in texts:
            if (item.face, item.size) != current:
                fonts.register(item.face)
                run.setFont(item.face, item.size)
                current = (item.face, item.size)
            if id(item) in shaped:
                natural = fonts.metric_width_pt(item.text, item.face, item.size)
                drawn = fonts.run_width_pt(item.text, item.face, item.size, item.rtl)
                run.setTextRenderMode(3)
                run.setHorizScale(round(100 * drawn / natural, 3) if natural > 0 else 100)
                hidden = True
            elif hidden:
                run.setTextRenderMode(0)
                run.setHorizScale(100)
                hidden = False
            run.setTextOrigin(item.x * MM, (height_mm - item.y) * MM)
            # right to left: the characters as they lie on the page, left to right, which is
            # the order text extraction (pypdf, poppler) expects and turns back into reading order
            run.textOut(item.text[::-1] if item.rtl else item.text)
        if hidden:
            # render mode and scale outlive the text object: the chrome drawn next must show
            run.setTextRenderMode(0)
            run.setHorizScale(100)
        canvas.drawText(run)


def draw(pages: Sequence[PdfPage], title: str, lang: str = "en") -> bytes:
    """One PDF of ``pages``: version 1.7, fonts embedded, print at actual size."""
    from reportlab.pdfgen.canvas import Canvas

    fonts.register("regular")  # the canvas's initial font; the others as runs use them
    out = io.BytesIO()
    first = pages[0] if pages else PdfPage(210, 297, ())
    canvas = Canvas(out, pagesize=(first.width_mm * MM, first.height_mm * MM), invariant=1,
                    pdfVersion=(1, 7), lang=lang, pageCompression=1,
                    # types-reportlab has the font name as a float; Canvas takes a font's name
                    initialFontName="regular",  # type: ignore[arg-type]
                    initialFontSize=10)
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
    glyphs = _Glyphs(canvas)
    for page in pages:
        canvas.setPageSize((page.width_mm * MM, page.height_mm * MM))
        canvas.setLineCap(2)  # square ends, so ruled lines meet at the corners
        if id(page.body) in repeated:
            name = forms.get(id(page.body))
            if name is None:
                name = forms[id(page.body)] = f"body{len(forms)}"
                canvas.beginForm(name, 0, 0, page.width_mm * MM, page.height_mm * MM)
                canvas.setLineCap(2)
                _draw(canvas, page.body, page.height_mm, glyphs)
                canvas.endForm()
            canvas.doForm(name)
        elif page.body:
            _draw(canvas, page.body, page.height_mm, glyphs)
        _draw(canvas, page.chrome, page.height_mm, glyphs)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def outline(writer: PdfWriter, marks: Sequence[tuple[int, str]]) -> None:
    """Bookmarks: one top-level outline entry per (page index, title) of a pypdf writer, in
    page order, and the viewer asked to open with the outline shown. No marks, no outline."""
    from pypdf.generic import NameObject

    for index, title in sorted(marks, key=lambda mark: mark[0]):
        writer.add_outline_item(title=title, page_number=index)
    if marks:
        writer.root_object[NameObject("/PageMode")] = NameObject("/UseOutlines")
