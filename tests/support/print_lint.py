"""Print lint: judge a finished PDF, whatever drew it, on the points a printed kit depends on.

``lint_pdf(data, label)`` reads only the PDF bytes and returns a list of :class:`Defect`
(page, kind, detail); an empty list is a clean file. Positions in details are millimetres from
the page's top-left corner, ``(x, y)``; page 0 means the whole document.

Checks and heuristics
---------------------
``pdf-version``
    The ``%PDF-1.x`` header (searched in the first 1024 bytes) must say 1.6 or later.
``font-not-ours`` / ``font-not-embedded``
    Every font dictionary reachable from a page's ``/Resources /Font``, inside Form XObjects too
    (walked with pypdf), must be embedded (``/FontFile``, ``/FontFile2`` or ``/FontFile3`` in its
    descriptor, or in its descendant font's for Type0) and must be one of the bundled fonts: the
    PostScript names (read with fontTools) of ``fonts/*.ttf``. The ``/BaseFont`` is compared with
    its subset tag (``ABCDEF+``) stripped; as renderers label fonts their own way (WeasyPrint
    writes Pango's ``Atkinson-Hyperlegible-Bold``), a label that is not a bundled name is also
    accepted when the embedded program's own ``name`` table gives a bundled PostScript name.
    Type 3 fonts are never ours. A font listed in the resources counts even if no glyph is drawn
    with it (ReportLab's default Helvetica, say). Each font is reported once per document.
``text-too-small``
    Effective size = the ``Tf`` size x the vertical scale of the character's full matrix (text
    matrix and CTM, Form XObjects included). At least ``MIN_TEXT_PT`` (8 pt); a text line that
    matches ``GUIDE_WORDS`` (the words "fold" and "cut") may be ``MIN_GUIDE_PT`` (7 pt).
``near-edge``
    Ink within ``EDGE_MM`` (6 mm) of the page (crop) box: characters (their tight glyph box),
    stroked paths (with half the line width), non-white filled paths, images and shadings.
    White or fully transparent paint, clip-only paths and invisible text are ignored.
``glyph-crossed``
    A rule crossing a character's *ink core*: the middle 70 % of its advance (``CORE_X``), from
    the baseline up to 0.65 x the size (``CORE_TOP``), i.e. the x-height and cap region, cut
    down to the glyph's tight ink box. Rules touching only the em box (cell borders, underlines
    below the baseline, a rule above the ascenders) do not count. Rules are what renderers draw
    lines with: every segment of a stroked path, with its line width (curves flattened); a
    filled area thinner than ``THIN_RULE_MM`` (1 mm) as a whole; the outline edges of thicker
    filled areas. Fills made of axis-aligned rectangles are resolved exactly under their fill
    rule first: WeasyPrint draws a border as an outer and an inner rectangle filled even-odd,
    which leaves the sides as thin rectangles (sides of zero width vanish). A rule must overlap
    the core by more than ``TOUCH_PT``, and does not count where an opaque fill drawn after it
    hides it (the white background of a "fold here" label on the fold line).
``text-overlap``
    Characters are grouped into lines (same direction and baseline, gaps under one em). Ink
    cores of characters on different lines must not intersect; two characters of one line must
    not overlap by more than ``SAME_LINE_OVERLAP`` (30 %) of the narrower advance (kerning).

Characters and drawing come from PDFium (pypdfium2, fast): Form XObjects are followed with their
matrices; paths far from any character and from the page edge are skipped unread. Clipping,
dash patterns and blend modes are not modelled: a dashed rule counts as solid, clipped-away
ink as drawn. Text direction is handled for multiples of 90 degrees.

``compare_page_counts(ours, chromium)`` compares page count and page sizes (1 pt tolerance:
Chromium rounds page boxes to CSS pixels).
"""

from __future__ import annotations

import atexit
import ctypes
import io
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import cache
from multiprocessing import get_context
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from pypdf import PdfReader
from pypdf.generic import IndirectObject

FONTS_DIR = Path(__file__).resolve().parents[2] / "fonts"

MIN_PDF_VERSION = (1, 6)
MIN_TEXT_PT = 8.0
MIN_GUIDE_PT = 7.0
# A text line with one of these words is a fold or cut guide, allowed down to MIN_GUIDE_PT.
GUIDE_WORDS = re.compile(r"\b(?:fold(?:s|ed|ing)?|cut(?:s|ting)?)\b", re.IGNORECASE)
SIZE_TOLERANCE_PT = 0.01
EDGE_MM = 6.0
THIN_RULE_MM = 1.0
CORE_X = (0.15, 0.85)  # share of the advance that is the ink core
CORE_TOP = 0.65  # core height above the baseline, times the size
TOUCH_PT = 0.05  # overlaps up to this much are contact, not crossing
SAME_LINE_OVERLAP = 0.30
PAGE_SIZE_TOLERANCE_PT = 1.0
PARALLEL_PAGES = 16  # with workers > 1, documents this long are checked in slices

MM_PER_PT = 25.4 / 72
PT_PER_MM = 72 / 25.4
_GRID = 24.0  # spatial hash cell, pt
_BEZIER_STEPS = 8


@dataclass(frozen=True)
class Defect:
    page: int  # 1-based; 0 for the whole document
    kind: str
    detail: str
    document: str = field(default="", compare=False)

    def __str__(self) -> str:
        where = f"{self.document} " if self.document else ""
        where += f"p.{self.page}" if self.page else "document"
        return f"{where} [{self.kind}] {self.detail}"


# --- fonts (pypdf) ------------------------------------------------------------------------------

@cache
def bundled_font_names(folder: Path = FONTS_DIR) -> frozenset[str]:
    """PostScript names of the bundled ``*.ttf`` fonts."""
    from fontTools.ttLib import TTFont

    names = set()
    paths = sorted(folder.glob("*.ttf"))
    if not paths:
        raise FileNotFoundError(f"no bundled fonts (*.ttf) in {folder}")
    for path in paths:
        with TTFont(path, lazy=True) as font:
            name = font["name"].getDebugName(6)
            if name:
                names.add(name)
    return frozenset(names)


def _strip_subset(name: str) -> str:
    return re.sub(r"^[A-Z]{6}\+", "", name.lstrip("/"))


def _embedded_program(font: dict) -> tuple[object | None, str]:
    """The embedded font file stream of a font dictionary (following Type0), and its key."""
    descriptors = []
    if font.get("/Subtype") == "/Type0":
        for descendant in font.get("/DescendantFonts", []):
            descendant = descendant.get_object()
            if "/FontDescriptor" in descendant:
                descriptors.append(descendant["/FontDescriptor"].get_object())
    if "/FontDescriptor" in font:
        descriptors.append(font["/FontDescriptor"].get_object())
    for descriptor in descriptors:
        for key in ("/FontFile2", "/FontFile3", "/FontFile"):
            if key in descriptor:
                return descriptor[key].get_object(), key
    return None, ""


def _program_name(stream: object, key: str) -> str:
    """PostScript name from an embedded TrueType/OpenType program's name table ('' if none)."""
    if key == "/FontFile":  # Type 1: no name table
        return ""
    try:
        from fontTools.ttLib import TTFont

        data = stream.get_data()  # type: ignore[attr-defined]
        if key == "/FontFile3" and not data.startswith((b"OTTO", b"\0\1\0\0", b"true")):
            return ""  # bare CFF or Type1C
        with TTFont(io.BytesIO(data), lazy=True) as font:
            if "name" not in font:
                return ""
            return font["name"].getDebugName(6) or ""
    except Exception:  # a broken program is judged by its label alone
        return ""


def _font_verdicts(reader: PdfReader, allowed: frozenset[str]
                   ) -> dict[str, tuple[int, set[str], int]]:
    """Stripped font label -> (first page, problems, pages using it)."""
    seen_forms: dict[int, list[dict]] = {}
    judged: dict[tuple[int, int] | int, tuple[str, set[str]]] = {}
    result: dict[str, tuple[int, set[str], int]] = {}

    def fonts_in(resources: object, stack: tuple[int, ...] = ()) -> Iterator[object]:
        if resources is None:
            return
        resources = resources.get_object()  # type: ignore[attr-defined]
        fonts = resources.get("/Font")
        if fonts is not None:
            yield from fonts.get_object().values()
        xobjects = resources.get("/XObject")
        if xobjects is None:
            return
        for ref in xobjects.get_object().values():
            key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
            if key in stack:
                continue
            if key not in seen_forms:
                xobject = ref.get_object()
                found = []
                if xobject.get("/Subtype") == "/Form":
                    found = list(fonts_in(xobject.get("/Resources"), (*stack, key)))
                seen_forms[key] = found
            yield from seen_forms[key]

    for number, page in enumerate(reader.pages, 1):
        labels = set()
        for ref in fonts_in(page.get("/Resources")):
            key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
            if key not in judged:
                font = ref.get_object()
                label = _strip_subset(str(font.get("/BaseFont", "(no /BaseFont)")))
                problems = set()
                stream, file_key = _embedded_program(font)
                if font.get("/Subtype") == "/Type3":
                    label = label if "/BaseFont" in font else f"Type3 {font.get('/Name', '')}"
                    problems.add("font-not-ours")
                else:
                    if stream is None:
                        problems.add("font-not-embedded")
                    if label not in allowed and (
                            stream is None or _program_name(stream, file_key) not in allowed):
                        problems.add("font-not-ours")
                judged[key] = (label, problems)
            label, problems = judged[key]
            labels.add(label)
            first, known, count = result.get(label, (number, set(), 0))
            result[label] = (first, known | problems, count)
        for label in labels:
            first, known, count = result[label]
            result[label] = (first, known, count + 1)
    return result


# --- geometry helpers ---------------------------------------------------------------------------

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _compose(m1: Matrix, m2: Matrix) -> Matrix:
    """``m1`` then ``m2`` (PDF row-vector convention)."""
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (a1 * a2 + b1 * c2, a1 * b2 + b1 * d2, c1 * a2 + d1 * c2, c1 * b2 + d1 * d2,
            e1 * a2 + f1 * c2 + e2, e1 * b2 + f1 * d2 + f2)


def _segment_hits_box(x0: float, y0: float, x1: float, y1: float,
                      bx0: float, by0: float, bx1: float, by1: float) -> bool:
    """Whether segment (x0,y0)-(x1,y1) meets the open box (Liang-Barsky clipping)."""
    if bx0 >= bx1 or by0 >= by1:
        return False
    t0, t1 = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    for p, q in ((-dx, x0 - bx0), (dx, bx1 - x0), (-dy, y0 - by0), (dy, by1 - y0)):
        if p == 0:
            if q <= 0:
                return False
        else:
            t = q / p
            if p < 0:
                if t > t1:
                    return False
                t0 = max(t0, t)
            else:
                if t < t0:
                    return False
                t1 = min(t1, t)
    return t0 < t1 or (t0 == t1 and dx == 0 and dy == 0)


def _cells(x0: float, y0: float, x1: float, y1: float) -> Iterator[tuple[int, int]]:
    for i in range(int(math.floor(x0 / _GRID)), int(math.floor(x1 / _GRID)) + 1):
        for j in range(int(math.floor(y0 / _GRID)), int(math.floor(y1 / _GRID)) + 1):
            yield i, j


# --- page content (PDFium) ----------------------------------------------------------------------

@dataclass(slots=True)
class _Char:
    text: str
    size: float  # effective, pt
    origin: tuple[float, float]
    direction: int  # degrees, multiple of 90
    along: float  # position along the text direction (pt)
    baseline: float  # position across it (pt)
    advance: float
    core: tuple[float, float, float, float]  # x0, y0, x1, y1 (page space)
    ink: tuple[float, float, float, float]
    font: str
    z: int = 0  # drawing order of its text object
    line: int = -1


@dataclass
class _Line:
    chars: list[int]
    text: str = ""
    box: tuple[float, float, float, float] | None = None  # union of the ink cores


@dataclass
class _Rule:
    x0: float
    y0: float
    x1: float
    y1: float
    half: float  # half the line width
    what: str
    z: int = 0  # drawing order


_RGBA = tuple(ctypes.c_uint() for _ in range(4))


def _colour(getter: object, obj: object) -> tuple[int, int, int, int] | None:
    if not getter(obj, *_RGBA):
        return None
    return tuple(v.value for v in _RGBA)  # type: ignore[return-value]


def _visible(rgba: tuple[int, int, int, int] | None) -> bool:
    return rgba is not None and rgba[3] > 0 and rgba[:3] != (255, 255, 255)


def _path_points(obj: object, full: tuple[float, ...]
                 ) -> tuple[list[list[tuple[float, float]]], list[bool]]:
    """A path's subpaths in page points (curves flattened), and which of them are closed."""
    c = pdfium_c
    px, py = ctypes.c_float(), ctypes.c_float()
    subpaths: list[list[tuple[float, float]]] = []
    closed: list[bool] = []
    pending: list[tuple[float, float]] = []
    for s in range(c.FPDFPath_CountSegments(obj)):
        segment = c.FPDFPath_GetPathSegment(obj, s)
        c.FPDFPathSegment_GetPoint(segment, px, py)
        point = _apply(full, px.value, py.value)
        kind = c.FPDFPathSegment_GetType(segment)
        if kind == c.FPDF_SEGMENT_MOVETO or not subpaths:
            subpaths.append([point])
            closed.append(False)
            pending = []
        elif kind == c.FPDF_SEGMENT_BEZIERTO:
            pending.append(point)
            if len(pending) == 3:
                subpaths[-1].extend(_flatten(subpaths[-1][-1], *pending))
                pending = []
        else:
            subpaths[-1].append(point)
        if c.FPDFPathSegment_GetClose(segment):
            closed[-1] = True
    return subpaths, closed


class _Page:
    """The characters, lines, rules and inked boxes of one page, in page space (pt)."""

    def __init__(self, page: pdfium.PdfPage) -> None:
        self.page = page
        left, bottom, right, top = page.get_cropbox()
        self.box = (left, bottom, right, top)
        self.chars: list[_Char] = []
        self.lines: list[_Line] = []
        self.rules: list[_Rule] = []
        self.inked: list[tuple[tuple[float, float, float, float], str]] = []
        # opaque fills, which hide what was drawn before them: (box, polygon or None, z)
        self.masks: list[tuple[tuple[float, float, float, float],
                               list[tuple[float, float]] | None, int]] = []
        self._text_z: dict[int | None, int] = {}
        self._paths: list[tuple[object, Matrix, int, tuple[float, float, float, float]]] = []
        self._z = 0
        self._walk_objects()
        self._read_text()
        self._group_lines()
        self.grid = _char_grid(self)
        self._read_paths()
        del self._paths

    # coordinates for messages
    def mm(self, x: float, y: float) -> str:
        return f"({(x - self.box[0]) * MM_PER_PT:.1f}, {(self.box[3] - y) * MM_PER_PT:.1f}) mm"

    def _read_text(self) -> None:
        textpage = pdfium_c.FPDFText_LoadPage(self.page.raw)
        if not textpage:
            return
        try:
            self._read_chars(textpage)
        finally:
            pdfium_c.FPDFText_ClosePage(textpage)

    def _read_chars(self, tp: object) -> None:
        c = pdfium_c
        count = c.FPDFText_CountChars(tp)
        if count <= 0:
            return
        left, right, bottom, top = (ctypes.c_double() for _ in range(4))
        ox, oy = ctypes.c_double(), ctypes.c_double()
        loose = c.FS_RECTF()
        matrix = c.FS_MATRIX()
        buffer = ctypes.create_string_buffer(2 * (count + 1))
        got = c.FPDFText_GetText(tp, 0, count, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)))
        texts = buffer.raw[:2 * max(got - 1, 0)].decode("utf-16-le", "replace")
        if len(texts) != count:  # surrogate pairs: ask character by character
            texts = "".join(chr(c.FPDFText_GetUnicode(tp, i)) for i in range(count))
        text_object = _text_object_address()
        get_origin, get_loose = c.FPDFText_GetCharOrigin, c.FPDFText_GetLooseCharBox
        get_box = c.FPDFText_GetCharBox
        # per text object: visible, font, drawing order, matrix a b c d, effective size
        objects: dict[int, tuple[bool, str, int, tuple[float, ...], float]] = {}
        name_buffer = ctypes.create_string_buffer(256)
        skip = "\u200b\u00ad\ufeff"
        chars = self.chars
        for index, text in enumerate(texts):
            if text.isspace() or text in skip:
                continue
            key = text_object(tp, index)
            info = objects.get(key)
            if info is None:
                obj = ctypes.cast(key, c.FPDF_PAGEOBJECT) if key else None
                visible = bool(key) and c.FPDFTextObj_GetTextRenderMode(obj) not in (
                    c.FPDF_TEXTRENDERMODE_INVISIBLE, c.FPDF_TEXTRENDERMODE_CLIP)
                font_name = ""
                font = c.FPDFTextObj_GetFont(obj) if key else None
                if font:
                    size = c.FPDFFont_GetBaseFontName(font, name_buffer, len(name_buffer))
                    font_name = _strip_subset(name_buffer.raw[:max(size - 1, 0)]
                                              .decode("latin-1"))
                c.FPDFText_GetMatrix(tp, index, matrix)
                abcd = (matrix.a, matrix.b, matrix.c, matrix.d)
                size = c.FPDFText_GetFontSize(tp, index) * math.hypot(matrix.c, matrix.d)
                info = objects[key] = (visible, font_name, self._text_z.get(key or 0, 0),
                                       abcd, size)
            visible, font_name, z, (a, b, cc, d), size = info
            if not visible or size <= 0:
                continue
            get_loose(tp, index, loose)
            if loose.right <= loose.left and loose.top <= loose.bottom:
                continue  # nothing drawn (a generated character)
            get_origin(tp, index, ox, oy)
            get_box(tp, index, left, right, bottom, top)
            x, y = ox.value, oy.value
            if b == 0 and cc == 0 and a > 0 and d > 0:  # upright, the usual case
                angle, ux, uy, vx, vy = 0, 1, 0, 0, 1
            else:
                angle = round(math.degrees(math.atan2(b, a)) / 90) % 4 * 90 if (a or b) else 0
                ux, uy = ((1, 0), (0, 1), (-1, 0), (0, -1))[angle // 90]
                vx, vy = -uy, ux  # "up" for upright text
                if (a * d - b * cc) < 0:  # mirrored: up is the other way
                    vx, vy = -vx, -vy
            advance = max(loose.right - loose.left if ux else loose.top - loose.bottom, 0.0)
            s0, s1 = CORE_X[0] * advance, CORE_X[1] * advance
            t1 = CORE_TOP * size
            xs = (x + ux * s0, x + ux * s1, x + ux * s0 + vx * t1, x + ux * s1 + vx * t1)
            ys = (y + uy * s0, y + uy * s1, y + uy * s0 + vy * t1, y + uy * s1 + vy * t1)
            box = (min(xs), min(ys), max(xs), max(ys))
            ink = (left.value, bottom.value, right.value, top.value)
            if ink[2] > ink[0] and ink[3] > ink[1]:
                core = (max(box[0], ink[0]), max(box[1], ink[1]),
                        min(box[2], ink[2]), min(box[3], ink[3]))
            else:
                core = ink = box
            chars.append(_Char(text, size, (x, y), angle, x * ux + y * uy, x * -uy + y * ux,
                               advance, core, ink, font_name, z))

    def _group_lines(self) -> None:
        groups: dict[int, list[int]] = defaultdict(list)
        for i, ch in enumerate(self.chars):
            groups[ch.direction].append(i)
        for members in groups.values():
            members.sort(key=lambda i: (self.chars[i].baseline, self.chars[i].along))
            # cluster baselines
            rows: list[list[int]] = []
            for i in members:
                ch = self.chars[i]
                if rows:
                    last = self.chars[rows[-1][-1]]
                    tolerance = 0.05 * min(ch.size, last.size) + 0.05
                    if abs(ch.baseline - self.chars[rows[-1][0]].baseline) <= tolerance:
                        rows[-1].append(i)
                        continue
                rows.append([i])
            for row in rows:
                row.sort(key=lambda i: self.chars[i].along)
                current: list[int] = []
                end = -math.inf
                for i in row:
                    ch = self.chars[i]
                    if current and ch.along - end > 1.0 * ch.size:
                        self._add_line(current)
                        current = []
                    current.append(i)
                    end = max(end, ch.along + ch.advance) if len(current) > 1 else (
                        ch.along + ch.advance)
                if current:
                    self._add_line(current)

    def _add_line(self, members: list[int]) -> None:
        number = len(self.lines)
        pieces = []
        previous = None
        for i in members:
            ch = self.chars[i]
            ch.line = number
            if previous is not None and ch.along - (previous.along + previous.advance) > \
                    0.15 * ch.size:
                pieces.append(" ")
            pieces.append(ch.text)
            previous = ch
        cores = [self.chars[i].core for i in members
                 if self.chars[i].core[2] > self.chars[i].core[0]
                 and self.chars[i].core[3] > self.chars[i].core[1]]
        box = (min(c[0] for c in cores), min(c[1] for c in cores),
               max(c[2] for c in cores), max(c[3] for c in cores)) if cores else None
        self.lines.append(_Line(members, "".join(pieces), box))

    def _walk_objects(self) -> None:
        """Drawing order of text objects; paths with their container matrix; images."""
        c = pdfium_c
        matrix = c.FS_MATRIX()
        bl, bb, br, bt = (ctypes.c_float() for _ in range(4))
        get_type, get_bounds = c.FPDFPageObj_GetType, c.FPDFPageObj_GetBounds
        text, path, form = c.FPDF_PAGEOBJ_TEXT, c.FPDF_PAGEOBJ_PATH, c.FPDF_PAGEOBJ_FORM
        z = 0

        def walk(container: object, count: object, get: object, parent: Matrix) -> None:
            nonlocal z
            for k in range(count(container)):
                obj = get(container, k)
                kind = get_type(obj)
                z += 1
                if kind == text:
                    self._text_z[ctypes.cast(obj, ctypes.c_void_p).value] = z
                    continue
                if kind == form:
                    c.FPDFPageObj_GetMatrix(obj, matrix)
                    own = (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f)
                    walk(obj, c.FPDFFormObj_CountObjects, c.FPDFFormObj_GetObject,
                         _compose(own, parent))
                    continue
                if not get_bounds(obj, bl, bb, br, bt):
                    continue
                # bounds are in the container's space (and generous: stroke width, joins)
                x0, y0, x1, y1 = bl.value, bb.value, br.value, bt.value
                if parent != IDENTITY:
                    pts = [_apply(parent, x, y) for x in (x0, x1) for y in (y0, y1)]
                    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
                    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
                if kind == path:
                    self._paths.append((obj, parent, z, (x0, y0, x1, y1)))
                elif kind in (c.FPDF_PAGEOBJ_IMAGE, c.FPDF_PAGEOBJ_SHADING):
                    name = "image" if kind == c.FPDF_PAGEOBJ_IMAGE else "shading"
                    self.inked.append(((x0, y0, x1, y1), name))

        walk(self.page.raw, c.FPDFPage_CountObjects, c.FPDFPage_GetObject, IDENTITY)

    def _near_text(self, box: tuple[float, float, float, float]) -> bool:
        """Whether ``box`` meets the ink core of some character."""
        x0, y0, x1, y1 = box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1
        chars = self.chars
        i0, i1, j0, j1 = int(x0 // _GRID), int(x1 // _GRID), int(y0 // _GRID), int(y1 // _GRID)
        cells = [(i0, j0)] if i0 == i1 and j0 == j1 else _cells(x0, y0, x1, y1)
        for cell in cells:
            for i in self.grid.get(cell, ()):
                core = chars[i].core
                if core[0] < x1 and x0 < core[2] and core[1] < y1 and y0 < core[3]:
                    return True
        return False

    def _read_paths(self) -> None:
        """Rules, masks and inked boxes of the paths that matter: near text or the edge."""
        c = pdfium_c
        matrix = c.FS_MATRIX()
        fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
        width = ctypes.c_float()
        limit = EDGE_MM * PT_PER_MM
        inner = (self.box[0] + limit, self.box[1] + limit,
                 self.box[2] - limit, self.box[3] - limit)
        for obj, parent, z, box in self._paths:
            if (box[0] >= inner[0] and box[1] >= inner[1] and box[2] <= inner[2] and
                    box[3] <= inner[3] and not self._near_text(box)):
                continue
            self._z = z
            c.FPDFPageObj_GetMatrix(obj, matrix)
            full = _compose((matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f), parent)
            c.FPDFPath_GetDrawMode(obj, fill_mode, stroke)
            fill = _colour(c.FPDFPageObj_GetFillColor, obj) if fill_mode.value else None
            filled = _visible(fill)
            stroked = bool(stroke.value) and _visible(
                _colour(c.FPDFPageObj_GetStrokeColor, obj))
            opaque = (fill is not None and fill[3] == 255 and
                      not c.FPDFPageObj_HasTransparency(obj))
            if not (filled or stroked or opaque):
                continue
            subpaths, closed = _path_points(obj, full)
            half = 0.0
            if stroked:
                c.FPDFPageObj_GetStrokeWidth(obj, width)
                scale = math.sqrt(abs(full[0] * full[3] - full[1] * full[2]))
                half = max(width.value * scale, 0.0) / 2
            if any(subpaths):
                self._add_path(subpaths, closed, filled, stroked, opaque, half,
                               fill_mode.value == c.FPDF_FILLMODE_ALTERNATE)

    def _add_path(self, subpaths: list[list[tuple[float, float]]], closed: list[bool],
                  filled: bool, stroked: bool, opaque: bool, half: float,
                  even_odd: bool) -> None:
        """One path's masks (opaque fills hide what is under them), inked box and rules."""
        xs = [p[0] for sub in subpaths for p in sub]
        ys = [p[1] for sub in subpaths for p in sub]
        region = _rect_region(subpaths, even_odd) if filled or opaque else None
        if opaque:
            if region is not None:
                self.masks.extend((cell, None, self._z) for cell in region)
            elif len(subpaths) == 1 and len(subpaths[0]) > 2:  # e.g. a rounded label
                self.masks.append(((min(xs), min(ys), max(xs), max(ys)), subpaths[0],
                                   self._z))
        if not (filled or stroked):
            return
        pad = half if stroked else 0.0
        what = ("stroked" if stroked else "filled") + " path"
        self.inked.append(((min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad),
                           what))
        if stroked:
            for points, is_closed in zip(subpaths, closed, strict=True):
                ring = points + [points[0]] if is_closed and len(points) > 2 else points
                self._segments(ring, half, "stroked line")
        if not filled:
            return
        if region is not None:
            self._region_rules(region)
            return
        for points in subpaths:
            thin = _thin_rect(points)
            if thin is not None:
                self.rules.append(_Rule(*thin, what="filled rule", z=self._z))
            elif len(points) > 1:
                self._segments(points + [points[0]], 0.0, "edge of a filled shape")

    def _segments(self, points: list[tuple[float, float]], half: float, what: str) -> None:
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            if x0 == x1 and y0 == y1:
                continue
            if (x1, y1) < (x0, y0):
                x0, y0, x1, y1 = x1, y1, x0, y0
            self.rules.append(_Rule(x0, y0, x1, y1, half, what, self._z))

    def _region_rules(self, region: list[tuple[float, float, float, float]]) -> None:
        """Rules of a filled region made of cells: thin cells whole, thick ones by outline."""
        limit = THIN_RULE_MM * PT_PER_MM
        cells = set(region)
        for x0, y0, x1, y1 in region:
            w, h = x1 - x0, y1 - y0
            if min(w, h) < limit:
                if w >= h:
                    rule = (x0, (y0 + y1) / 2, x1, (y0 + y1) / 2, h / 2)
                else:
                    rule = ((x0 + x1) / 2, y0, (x0 + x1) / 2, y1, w / 2)
                self.rules.append(_Rule(*rule, what="filled rule", z=self._z))
                continue
            for edge in ((x0, y0, x1, y0), (x1, y0, x1, y1), (x0, y1, x1, y1), (x0, y0, x0, y1)):
                if not _edge_shared(edge, (x0, y0, x1, y1), cells):
                    self._segments([edge[:2], edge[2:]], 0.0, "edge of a filled shape")

    def hidden(self, box: tuple[float, float, float, float], z: int) -> bool:
        """Whether ``box`` is covered by one opaque fill drawn after ``z`` (a rectangle, or a
        simple shape holding the box's four corners)."""
        for m, polygon, mz in self.masks:
            if (mz > z and m[0] <= box[0] + 1e-3 and m[1] <= box[1] + 1e-3 and
                    m[2] >= box[2] - 1e-3 and m[3] >= box[3] - 1e-3 and
                    (polygon is None or all(_inside(polygon, x, y) for x in (box[0], box[2])
                                            for y in (box[1], box[3])))):
                return True
        return False


@cache
def _text_object_address() -> Callable[[object, int], int | None]:
    """``FPDFText_GetTextObject`` returning a plain address: a cheap key per text object."""
    prototype = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)
    return prototype(ctypes.cast(pdfium_c.FPDFText_GetTextObject, ctypes.c_void_p).value)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return (x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5])


def _flatten(p0: tuple[float, float], p1: tuple[float, float], p2: tuple[float, float],
             p3: tuple[float, float]) -> list[tuple[float, float]]:
    out = []
    for step in range(1, _BEZIER_STEPS + 1):
        t = step / _BEZIER_STEPS
        u = 1 - t
        a, b, c, d = u ** 3, 3 * u * u * t, 3 * u * t * t, t ** 3
        out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                    a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def _corners(points: list[tuple[float, float]]) -> list[tuple[float, float]] | None:
    """The four corners of an axis-aligned rectangle drawn by ``points``, else None."""
    corners = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if len(corners) == 5 and corners[0] == corners[-1]:
        corners = corners[:4]
    if len(corners) != 4:
        return None
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        if abs(ax - bx) > 1e-3 and abs(ay - by) > 1e-3:
            return None  # a diagonal edge
    if len({round(p[0], 3) for p in corners}) > 2 or len({round(p[1], 3) for p in corners}) > 2:
        return None
    return corners


def _inside(polygon: list[tuple[float, float]], x: float, y: float) -> bool:
    """Point in polygon (even-odd ray casting); points on the boundary count as inside."""
    inside = False
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if min(ay, by) - 1e-3 <= y <= max(ay, by) + 1e-3 and min(ax, bx) - 1e-3 <= x <= \
                max(ax, bx) + 1e-3:
            cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
            if abs(cross) <= 1e-3 * max(1.0, math.hypot(bx - ax, by - ay)):
                return True  # on this edge
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def _rect_region(subpaths: list[list[tuple[float, float]]], even_odd: bool
                 ) -> list[tuple[float, float, float, float]] | None:
    """The area a fill of axis-aligned rectangles covers, as disjoint cells; None otherwise.

    WeasyPrint fills a border as an outer and an inner rectangle with the even-odd rule: the
    cells between them are the visible sides (sides of zero width vanish).
    """
    if not subpaths or len(subpaths) > 16:
        return None
    rects = []
    for points in subpaths:
        corners = _corners(points)
        if corners is None:
            return None
        area = sum(ax * by - bx * ay for (ax, ay), (bx, by)
                   in zip(corners, corners[1:] + corners[:1], strict=True))
        xs = [p[0] for p in corners]
        ys = [p[1] for p in corners]
        rects.append((min(xs), min(ys), max(xs), max(ys), 1 if area > 0 else -1))
    if len(rects) == 1:
        x0, y0, x1, y1, _ = rects[0]
        return [(x0, y0, x1, y1)] if x1 > x0 and y1 > y0 else []
    xs = _merged(v for r in rects for v in (r[0], r[2]))
    ys = _merged(v for r in rects for v in (r[1], r[3]))
    cells = []
    for x0, x1 in zip(xs, xs[1:], strict=False):
        cx = (x0 + x1) / 2
        for y0, y1 in zip(ys, ys[1:], strict=False):
            cy = (y0 + y1) / 2
            inside = [r[4] for r in rects if r[0] < cx < r[2] and r[1] < cy < r[3]]
            if (len(inside) % 2 == 1) if even_odd else sum(inside) != 0:
                cells.append((x0, y0, x1, y1))
    return cells


def _merged(values: Iterable[float], within: float = 0.01) -> list[float]:
    """Sorted coordinates, those closer than ``within`` merged (no slivers from rounding)."""
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > within:
            out.append(v)
    return out


def _edge_shared(edge: tuple[float, float, float, float], cell: tuple[float, float, float, float],
                 cells: set[tuple[float, float, float, float]]) -> bool:
    """Whether a filled neighbour cell lies across ``edge`` of ``cell`` (an inner edge)."""
    x0, y0, x1, y1 = cell
    for other in cells:
        if other == cell:
            continue
        if edge[0] == edge[2]:  # vertical edge
            side = other[2] if edge[0] == x0 else other[0]
            if side == edge[0] and other[1] <= y0 and other[3] >= y1:
                return True
        else:
            side = other[3] if edge[1] == y0 else other[1]
            if side == edge[1] and other[0] <= x0 and other[2] >= x1:
                return True
    return False


def _thin_rect(points: list[tuple[float, float]]
               ) -> tuple[float, float, float, float, float] | None:
    """An axis-aligned rectangle thinner than THIN_RULE_MM, as a centre line and half width."""
    corners = _corners(points)
    if corners is None:
        return None
    x0, x1 = min(p[0] for p in corners), max(p[0] for p in corners)
    y0, y1 = min(p[1] for p in corners), max(p[1] for p in corners)
    w, h = x1 - x0, y1 - y0
    limit = THIN_RULE_MM * PT_PER_MM
    if min(w, h) >= limit:
        return None
    if w >= h:
        return (x0, (y0 + y1) / 2, x1, (y0 + y1) / 2, h / 2)
    return ((x0 + x1) / 2, y0, (x0 + x1) / 2, y1, w / 2)


# --- checks ------------------------------------------------------------------------------------

def _version(data: bytes) -> tuple[int, int] | None:
    match = re.search(rb"%PDF-(\d+)\.(\d+)", data[:1024])
    return (int(match[1]), int(match[2])) if match else None


def _words(page: _Page, line: _Line, hit: set[int]) -> str:
    """The words of ``line`` that hold the characters ``hit``."""
    words: list[list[int]] = [[]]
    previous = None
    for i in line.chars:
        ch = page.chars[i]
        if previous is not None and ch.along - (previous.along + previous.advance) > \
                0.15 * ch.size:
            words.append([])
        words[-1].append(i)
        previous = ch
    chosen = ["".join(page.chars[i].text for i in word) for word in words
              if any(i in hit for i in word)]
    return " ".join(chosen)


def _check_sizes(page: _Page, number: int) -> Iterator[Defect]:
    for line in page.lines:
        guide = bool(GUIDE_WORDS.search(line.text))
        minimum = MIN_GUIDE_PT if guide else MIN_TEXT_PT
        small = [i for i in line.chars
                 if page.chars[i].size < minimum - SIZE_TOLERANCE_PT]
        if not small:
            continue
        sizes = sorted({round(page.chars[i].size, 2) for i in small})
        first = page.chars[small[0]]
        rule = f"fold/cut guide minimum {MIN_GUIDE_PT:g} pt" if guide else \
            f"minimum {MIN_TEXT_PT:g} pt"
        yield Defect(number, "text-too-small",
                     f"text {line.text!r} at {'/'.join(f'{s:g}' for s in sizes)} pt "
                     f"({rule}) at {page.mm(*first.origin)}")


def _edge_name(page: _Page, box: tuple[float, float, float, float]) -> tuple[str, float] | None:
    left, bottom, right, top = page.box
    limit = EDGE_MM * PT_PER_MM
    gaps = {"left": box[0] - left, "right": right - box[2],
            "bottom": box[1] - bottom, "top": top - box[3]}
    edge = min(gaps, key=gaps.__getitem__)
    if gaps[edge] < limit - 1e-6:
        return edge, gaps[edge] * MM_PER_PT
    return None


def _check_edges(page: _Page, number: int) -> Iterator[Defect]:
    by_line: dict[int, list[tuple[int, str, float]]] = defaultdict(list)
    limit = EDGE_MM * PT_PER_MM
    left, bottom, right, top = page.box
    left, bottom, right, top = left + limit, bottom + limit, right - limit, top - limit
    for i, ch in enumerate(page.chars):
        ink = ch.ink
        if ink[0] >= left and ink[1] >= bottom and ink[2] <= right and ink[3] <= top:
            continue
        near = _edge_name(page, ink)
        if near:
            by_line[ch.line].append((i, *near))
    for line_number, hits in by_line.items():
        i, edge, gap = min(hits, key=lambda h: h[2])
        line = page.lines[line_number]
        yield Defect(number, "near-edge",
                     f"text {_words(page, line, {h[0] for h in hits})!r} {gap:.1f} mm from the "
                     f"{edge} edge (minimum {EDGE_MM:g} mm) at {page.mm(*page.chars[i].origin)}")
    for box, what in page.inked:
        near = _edge_name(page, box)
        if near:
            edge, gap = near
            yield Defect(number, "near-edge",
                         f"{what} {page.mm(box[0], box[3])}-{page.mm(box[2], box[1])} "
                         f"{gap:.1f} mm from the {edge} edge (minimum {EDGE_MM:g} mm)")


def _char_grid(page: _Page) -> dict[tuple[int, int], list[int]]:
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, ch in enumerate(page.chars):
        x0, y0, x1, y1 = ch.core
        if x1 > x0 and y1 > y0:
            i0, i1 = int(x0 // _GRID), int(x1 // _GRID)
            j0, j1 = int(y0 // _GRID), int(y1 // _GRID)
            if i0 == i1 and j0 == j1:
                grid[i0, j0].append(i)
            else:
                for cell in _cells(x0, y0, x1, y1):
                    grid[cell].append(i)
    return grid


def _check_crossings(page: _Page, number: int,
                     grid: dict[tuple[int, int], list[int]]) -> Iterator[Defect]:
    if not grid:
        return
    found: dict[tuple[int, int], tuple[_Rule, set[int]]] = {}
    for r_index, rule in enumerate(page.rules):
        reach = rule.half - TOUCH_PT
        bx0, bx1 = sorted((rule.x0, rule.x1))
        by0, by1 = sorted((rule.y0, rule.y1))
        candidates = set()
        for cell in _cells(bx0 - rule.half, by0 - rule.half, bx1 + rule.half, by1 + rule.half):
            candidates.update(grid.get(cell, ()))
        for i in candidates:
            x0, y0, x1, y1 = page.chars[i].core
            if _segment_hits_box(rule.x0, rule.y0, rule.x1, rule.y1,
                                 x0 - reach, y0 - reach, x1 + reach, y1 + reach):
                if page.masks:
                    met = (max(x0, min(rule.x0, rule.x1) - rule.half),
                           max(y0, min(rule.y0, rule.y1) - rule.half),
                           min(x1, max(rule.x0, rule.x1) + rule.half),
                           min(y1, max(rule.y0, rule.y1) + rule.half))
                    if page.hidden(met, rule.z):
                        continue
                key = (r_index, page.chars[i].line)
                found.setdefault(key, (rule, set()))[1].add(i)
    reported: set[tuple[str, str, str]] = set()
    for (_, line_number), (rule, hits) in sorted(found.items()):
        line = page.lines[line_number]
        words = _words(page, line, hits)
        first = page.chars[min(hits)]
        where = f"{page.mm(rule.x0, rule.y0)}-{page.mm(rule.x1, rule.y1)}"
        key = (words, where, rule.what)
        if key in reported:
            continue
        reported.add(key)
        yield Defect(number, "glyph-crossed",
                     f"{rule.what} {where} (width {2 * rule.half:.2f} pt) crosses {words!r} "
                     f"at {page.mm(*first.origin)} in line {line.text!r}")


def _check_overlaps(page: _Page, number: int) -> Iterator[Defect]:
    chars = page.chars
    pairs: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    # one line (one baseline): neighbours may overlap a little (kerning), not more
    for ln, line in enumerate(page.lines):
        members = line.chars  # in reading order
        for n, i in enumerate(members):
            a = chars[i]
            end = a.along + a.advance
            for j in members[n + 1:]:
                b = chars[j]
                if b.along >= end:
                    break
                overlap = min(end, b.along + b.advance) - max(a.along, b.along)
                narrow = min(a.advance, b.advance)
                if narrow > 0 and overlap > SAME_LINE_OVERLAP * narrow:
                    pairs[ln, ln].append((i, j))
    # different lines: ink cores must not meet; lines first, by their bounding boxes
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    for ln, line in enumerate(page.lines):
        if line.box is not None:
            for cell in _cells(*line.box):
                grid[cell].append(ln)
    checked: set[tuple[int, int]] = set()
    for members in grid.values():
        for n, la in enumerate(members):
            box_a = page.lines[la].box
            for lb in members[n + 1:]:
                if (la, lb) in checked:
                    continue
                checked.add((la, lb))
                box_b = page.lines[lb].box
                if not _meet(box_a, box_b):
                    continue
                for i in page.lines[la].chars:
                    core_a = chars[i].core
                    if not _meet(core_a, box_b):
                        continue
                    for j in page.lines[lb].chars:
                        if _meet(core_a, chars[j].core):
                            pairs[la, lb].append((i, j))
    for (la, lb), hits in sorted(pairs.items()):
        first = chars[hits[0][0]]
        hit = {i for i, _ in hits} | {j for _, j in hits}
        if la == lb:
            what = f"characters of {_words(page, page.lines[la], hit)!r} overlap each other"
        else:
            what = (f"{_words(page, page.lines[la], hit)!r} (line "
                    f"{page.lines[la].text!r}) overlaps "
                    f"{_words(page, page.lines[lb], hit)!r} (line {page.lines[lb].text!r})")
        yield Defect(number, "text-overlap", f"{what} at {page.mm(*first.origin)}")


def _meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two boxes overlap by more than TOUCH_PT both ways."""
    return (min(a[2], b[2]) - max(a[0], b[0]) > TOUCH_PT and
            min(a[3], b[3]) - max(a[1], b[1]) > TOUCH_PT)


def _lint_pages(data: bytes, start: int, stop: int
                ) -> tuple[list[Defect], dict[str, tuple[int, str]]]:
    """Page checks of pages ``start`` to ``stop - 1``; and where each font is first drawn."""
    defects: list[Defect] = []
    font_uses: dict[str, tuple[int, str]] = {}
    document = pdfium.PdfDocument(data)
    try:
        for index in range(start, stop):
            page_obj = document[index]
            try:
                page = _Page(page_obj)
            finally:
                page_obj.close()
            number = index + 1
            for ch in page.chars:
                if ch.font and ch.font not in font_uses:
                    font_uses[ch.font] = (number, f"{page.mm(*ch.origin)} in "
                                                  f"{page.lines[ch.line].text!r}")
            defects += _check_sizes(page, number)
            defects += _check_edges(page, number)
            defects += _check_crossings(page, number, page.grid)
            defects += _check_overlaps(page, number)
    finally:
        document.close()
    return defects, font_uses


_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(workers: int) -> ProcessPoolExecutor:
    """A process pool for long documents, started once (spawn: safe beside threads)."""
    if workers not in _POOLS:
        _POOLS[workers] = ProcessPoolExecutor(workers, mp_context=get_context("spawn"))
        atexit.register(_POOLS[workers].shutdown, cancel_futures=True)
    return _POOLS[workers]


def lint_pdf(data: bytes, label: str = "", *, allowed_fonts: Iterable[str] | None = None,
             workers: int = 1) -> list[Defect]:
    """Every print defect of the PDF ``data`` (see the module docstring); [] when clean.

    ``label`` names the document in each defect; ``allowed_fonts`` replaces the bundled
    PostScript names. With ``workers`` > 1, documents of ``PARALLEL_PAGES`` pages or more are
    checked in slices by a process pool of that many processes (started once, with "spawn":
    the calling program's main module must be import-safe, as for any multiprocessing); the
    result is the same.
    """
    defects: list[Defect] = []
    version = _version(data)
    if version is None or version < MIN_PDF_VERSION:
        shown = "missing" if version is None else "{}.{}".format(*version)
        defects.append(Defect(0, "pdf-version",
                              f"PDF header version {shown}, below "
                              "{}.{}".format(*MIN_PDF_VERSION)))

    reader = PdfReader(io.BytesIO(data))
    count = len(reader.pages)
    futures = []
    if workers > 1 and count >= PARALLEL_PAGES:
        pool = _pool(workers)
        step = max(4, -(-count // (4 * workers)))
        try:
            futures = [pool.submit(_lint_pages, data, start, min(start + step, count))
                       for start in range(0, count, step)]
        except RuntimeError:  # the pool is shut down or broken: check here
            _POOLS.pop(workers, None)
            futures = []
    allowed = bundled_font_names() if allowed_fonts is None else frozenset(allowed_fonts)
    verdicts = _font_verdicts(reader, allowed)
    try:
        parts = [future.result() for future in futures]
    except BrokenProcessPool:
        _POOLS.pop(workers, None)
        parts = []
    if not parts:
        parts = [_lint_pages(data, 0, count)]
    font_uses: dict[str, tuple[int, str]] = {}
    for page_defects, uses in parts:
        defects += page_defects
        for name, use in uses.items():
            font_uses.setdefault(name, use)  # slices come in page order

    for name, (first, problems, pages) in sorted(verdicts.items()):
        use = font_uses.get(name)
        where = f"; first drawn on page {use[0]} at {use[1]}" if use else ""
        for kind in sorted(problems):
            reason = {"font-not-ours": "is not one of the bundled fonts "
                                       f"({', '.join(sorted(allowed)) or 'none'})",
                      "font-not-embedded": "is not embedded"}[kind]
            defects.append(Defect(first, kind,
                                  f"font {name!r} {reason}; used on {pages} page(s){where}"))

    defects.sort(key=lambda d: (d.page, d.kind))
    return [Defect(d.page, d.kind, d.detail, label) for d in defects]


def compare_page_counts(ours: bytes, chromium: bytes, label: str = "") -> list[Defect]:
    """Page count and sizes of our PDF against Chromium's printout of the same HTML."""
    mine = PdfReader(io.BytesIO(ours)).pages
    theirs = PdfReader(io.BytesIO(chromium)).pages
    defects = []
    if len(mine) != len(theirs):
        defects.append(Defect(0, "page-count",
                              f"{len(mine)} pages, but Chromium prints {len(theirs)}", label))
    for number, (a, b) in enumerate(zip(mine, theirs, strict=False), 1):
        wa, ha = float(a.mediabox.width), float(a.mediabox.height)
        wb, hb = float(b.mediabox.width), float(b.mediabox.height)
        if abs(wa - wb) > PAGE_SIZE_TOLERANCE_PT or abs(ha - hb) > PAGE_SIZE_TOLERANCE_PT:
            defects.append(Defect(
                number, "page-size",
                f"{wa * MM_PER_PT:.1f} x {ha * MM_PER_PT:.1f} mm, but Chromium prints "
                f"{wb * MM_PER_PT:.1f} x {hb * MM_PER_PT:.1f} mm", label))
    return defects


__all__ = ["Defect", "GUIDE_WORDS", "bundled_font_names", "compare_page_counts", "lint_pdf"]
