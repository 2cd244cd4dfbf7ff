"""Compare two printouts of one page: its rules (however drawn) and its words.

Our PDF and Chromium's printout of our HTML draw the same layout model in different ways:
ReportLab strokes a dashed line, Chromium fills each dash; both are read here (with PDFium) as
rules along their middle, merged into lines, so the two can be compared to within half a
millimetre.
"""

from __future__ import annotations

import ctypes
import io
import math
from collections import Counter, defaultdict

import pypdfium2 as pdfium
import pypdfium2.raw as c
from pypdf import PdfReader

from kit.paper import FOOTER_MM, HEADER_MM, MARGIN_MM

MM = 72 / 25.4
TOLERANCE_MM = 0.5
THIN_MM = 1.0  # a filled shape no thicker than this is a rule (a dash, a border)

Segment = tuple[str, float, float, float]  # orientation, position, start, end (mm, from top)


def _matrix(obj) -> tuple[float, ...]:
    m = c.FS_MATRIX()
    c.FPDFPageObj_GetMatrix(obj, m)
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _compose(m1: tuple[float, ...], m2: tuple[float, ...]) -> tuple[float, ...]:
    a, b, cc, d, e, f = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (a * a2 + b * c2, a * b2 + b * d2, cc * a2 + d * c2, cc * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _paths(handle, count, get, parent, out: list) -> None:
    for i in range(count(handle)):
        obj = get(handle, i)
        kind = c.FPDFPageObj_GetType(obj)
        full = _compose(_matrix(obj), parent)
        if kind == c.FPDF_PAGEOBJ_FORM:
            _paths(obj, c.FPDFFormObj_CountObjects, c.FPDFFormObj_GetObject, full, out)
        elif kind == c.FPDF_PAGEOBJ_PATH:
            out.append((obj, full))


def segments(page: pdfium.PdfPage) -> list[Segment]:
    """Axis-parallel rules of a page, from stroked paths and thin filled shapes."""
    height = page.get_height()
    found: list[Segment] = []
    paths: list = []
    _paths(page.raw, c.FPDFPage_CountObjects, c.FPDFPage_GetObject, (1, 0, 0, 1, 0, 0), paths)
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    px, py = ctypes.c_float(), ctypes.c_float()
    for obj, m in paths:
        c.FPDFPath_GetDrawMode(obj, fill_mode, stroke)
        subpaths: list[list[tuple[float, float]]] = []
        for s in range(c.FPDFPath_CountSegments(obj)):
            segment = c.FPDFPath_GetPathSegment(obj, s)
            c.FPDFPathSegment_GetPoint(segment, px, py)
            x = m[0] * px.value + m[2] * py.value + m[4]
            y = m[1] * px.value + m[3] * py.value + m[5]
            point = (x / MM, (height - y) / MM)
            if c.FPDFPathSegment_GetType(segment) == c.FPDF_SEGMENT_MOVETO or not subpaths:
                subpaths.append([point])
            else:
                subpaths[-1].append(point)
            if c.FPDFPathSegment_GetClose(segment) and len(subpaths[-1]) > 2:
                subpaths[-1].append(subpaths[-1][0])
        if stroke.value:
            for points in subpaths:
                for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
                    found.append(_segment(x0, y0, x1, y1))
        elif fill_mode.value:
            for points in subpaths:
                found.append(_filled(points))
    return merge([s for s in found if s is not None])


def _filled(points: list[tuple[float, float]]) -> Segment | None:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    if height <= THIN_MM and width > height:
        return ("h", (min(ys) + max(ys)) / 2, min(xs), max(xs))
    if width <= THIN_MM and height > width:
        return ("v", (min(xs) + max(xs)) / 2, min(ys), max(ys))
    return None


def _segment(x0: float, y0: float, x1: float, y1: float) -> Segment | None:
    if abs(y0 - y1) < 0.02 and abs(x0 - x1) > 0.02:
        return ("h", y0, min(x0, x1), max(x0, x1))
    if abs(x0 - x1) < 0.02 and abs(y0 - y1) > 0.02:
        return ("v", x0, min(y0, y1), max(y0, y1))
    return None


def merge(found: list[Segment], gap: float = 1.3) -> list[Segment]:
    """Collinear pieces no more than ``gap`` mm apart (dashes, shared edges) as one rule."""
    lines: list[list[Segment]] = []  # pieces on one line
    for piece in sorted(found, key=lambda s: (s[0], s[1])):
        if lines and lines[-1][0][0] == piece[0] and abs(lines[-1][0][1] - piece[1]) <= 0.15:
            lines[-1].append(piece)
        else:
            lines.append([piece])
    out: list[Segment] = []
    for pieces in lines:
        kind, pos = pieces[0][0], pieces[0][1]
        start = end = None
        for _, _, a, b in sorted(pieces, key=lambda s: s[2]):
            if start is not None and a <= end + gap:
                end = max(end, b)
                continue
            if start is not None:
                out.append((kind, pos, start, end))
            start, end = a, b
        out.append((kind, pos, start, end))
    return out


def unmatched(ours: list[Segment], theirs: list[Segment]) -> list[Segment]:
    """Our rules with no counterpart within the tolerance (position and both ends)."""
    near: dict[tuple[str, int], list[Segment]] = defaultdict(list)  # by kind and position
    for segment in theirs:
        near[segment[0], math.floor(segment[1] / TOLERANCE_MM)].append(segment)
    missing = []
    for kind, pos, start, end in ours:
        cell = math.floor(pos / TOLERANCE_MM)
        candidates = near[kind, cell - 1] + near[kind, cell] + near[kind, cell + 1]
        if not any(abs(p - pos) <= TOLERANCE_MM and abs(s - start) <= TOLERANCE_MM
                   and abs(e - end) <= TOLERANCE_MM for _, p, s, e in candidates):
            missing.append((kind, round(pos, 2), round(start, 2), round(end, 2)))
    return missing


def chrome(found: list[Segment], height_mm: float) -> list[Segment]:
    """The rules of the header and footer bands (outside the body frame)."""
    top, bottom = MARGIN_MM + HEADER_MM, height_mm - MARGIN_MM - FOOTER_MM
    return [s for s in found if (s[0] == "h" and not top <= s[1] <= bottom)
            or (s[0] == "v" and (s[3] <= top or s[2] >= bottom))]


def words(page: pdfium.PdfPage) -> Counter:
    """The page's text as a count of its characters: the same words, whatever spacing an
    extractor guesses between glyphs placed one by one."""
    return Counter(ch for ch in page.get_textpage().get_text_range() if not ch.isspace())


def prose_pages(data: bytes) -> list[bool]:
    """Which pages are prose (WeasyPrint's text under our chrome): they use composite (Type0)
    fonts, where the layout model's pages draw with simple TrueType ones."""
    out = []
    for page in PdfReader(io.BytesIO(data)).pages:
        fonts = page.get("/Resources", {}).get("/Font", {})
        out.append(any(font.get_object().get("/Subtype") == "/Type0"
                       for font in fonts.values()))
    return out


def differences(ours: bytes, theirs: bytes, label: str) -> list[str]:
    """Page by page: the rules (all of a form page's, a prose page's chrome) and the words of
    form pages, described where they differ."""
    a_doc, b_doc = pdfium.PdfDocument(ours), pdfium.PdfDocument(theirs)
    try:
        if len(a_doc) != len(b_doc):
            return [f"{label}: {len(a_doc)} pages, Chromium {len(b_doc)}"]
        problems = []
        for number, prose in enumerate(prose_pages(ours), start=1):
            a, b = a_doc[number - 1], b_doc[number - 1]
            mine, other = segments(a), segments(b)
            if prose:  # laid out by two engines: only the chrome must match
                height = a.get_height() / MM
                mine, other = chrome(mine, height), chrome(other, height)
            missing = unmatched(mine, other) + unmatched(other, mine)
            if missing:
                problems.append(f"{label} page {number}: {len(missing)} rules differ, e.g. "
                                f"{missing[:3]}")
            if not prose and words(a) != words(b):
                diff = (words(a) - words(b)) + (words(b) - words(a))
                problems.append(f"{label} page {number}: the text differs in "
                                f"{dict(list(diff.items())[:6])}")
        return problems
    finally:
        a_doc.close()
        b_doc.close()

