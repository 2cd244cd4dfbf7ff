"""The bundled fonts: which file draws which style, what each can print, and text widths.

Every page is drawn with these files only, in the PDF (ReportLab, WeasyPrint) and in the HTML
(``@font-face`` pointing at the copies in the kit's ``fonts/`` folder). A character the text face
lacks falls back along the style's chain (``CHAINS``); both backends get the same runs, so they
print the same glyphs.

Names may be in any script the faces cover: Latin with any diacritics, Greek and Cyrillic (Kit
Sans), Hebrew, Arabic, Devanagari, Thai, and Chinese, Japanese and Korean (Kit CJK). A line of
text is cut into runs by face and by direction (``line``; ``lines`` for a wrapped paragraph):
the Unicode bidirectional algorithm (python-bidi) on the paragraph, its direction set by its first
strong character, so a name in a right-to-left script reads right to left inside the
left-to-right page (``isolate`` marks a name inside a longer line as a paragraph of its own).
A run in a script that needs shaping (``Face.shaped``), or right to left, or carrying combining
marks, is shaped with HarfBuzz:
its width is the shaped advance, and the PDF draws its glyphs' outlines (``shape``,
``outline``) over its text drawn invisibly, so that text extraction reads it; the browser
shapes the same run with the same font.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from .resources import font_path

if TYPE_CHECKING:
    import uharfbuzz
    from markupsafe import Markup
    from reportlab.pdfbase.ttfonts import TTFont


@dataclass(frozen=True)
class Face:
    """One font file as both backends name it."""

    key: str  # ReportLab's registered name, also the CSS class suffix in the HTML
    file: str
    family: str  # the CSS font-family
    weight: int = 400
    italic: bool = False
    shaped: bool = False  # a script that needs shaping: runs are drawn from shaped glyphs


FACES: dict[str, Face] = {face.key: face for face in (
    Face("regular", "AtkinsonHyperlegible-Regular.ttf", "Atkinson Hyperlegible"),
    Face("bold", "AtkinsonHyperlegible-Bold.ttf", "Atkinson Hyperlegible", 700),
    Face("italic", "AtkinsonHyperlegible-Italic.ttf", "Atkinson Hyperlegible", 400, True),
    Face("symbols", "KitSymbols-Regular.ttf", "Kit Symbols"),
    # Noto Sans subsets (Latin, Greek, Cyrillic), renamed: the letters Atkinson lacks
    Face("sans", "KitSans-Regular.ttf", "Kit Sans"),
    Face("sans-bold", "KitSans-Bold.ttf", "Kit Sans", 700),
    Face("sans-italic", "KitSans-Italic.ttf", "Kit Sans", 400, True),
    Face("hebrew", "KitHebrew-Regular.ttf", "Kit Hebrew", shaped=True),
    Face("hebrew-bold", "KitHebrew-Bold.ttf", "Kit Hebrew", 700, shaped=True),
    Face("arabic", "KitArabic-Regular.ttf", "Kit Arabic", shaped=True),
    Face("arabic-bold", "KitArabic-Bold.ttf", "Kit Arabic", 700, shaped=True),
    Face("devanagari", "KitDevanagari-Regular.ttf", "Kit Devanagari", shaped=True),
    Face("devanagari-bold", "KitDevanagari-Bold.ttf", "Kit Devanagari", 700, shaped=True),
    Face("thai", "KitThai-Regular.ttf", "Kit Thai", shaped=True),
    Face("thai-bold", "KitThai-Bold.ttf", "Kit Thai", 700, shaped=True),
    # Droid Sans Fallback subset: Han ideographs, kana, every Hangul syllable (no bold file)
    Face("cjk", "KitCJK-Regular.ttf", "Kit CJK"),
)}

# A style is drawn by the first face in its chain that has the character. Scripts without an
# italic (or, for CJK, a bold) file use their regular file in that style.
CHAINS: dict[str, tuple[str, ...]] = {
    "regular": ("regular", "symbols", "sans", "hebrew", "arabic", "devanagari", "thai", "cjk"),
    "bold": ("bold", "symbols", "sans-bold", "hebrew-bold", "arabic-bold", "devanagari-bold",
             "thai-bold", "cjk"),
    "italic": ("italic", "symbols", "sans-italic", "hebrew", "arabic", "devanagari", "thai",
               "cjk"),
}
STYLES = tuple(CHAINS)

LICENCE_FILES = ("AtkinsonHyperlegible-OFL.txt", "KitSymbols-LICENSE.txt", "KitNoto-OFL.txt",
                 "KitCJK-LICENSE.txt")
FONT_FILES = tuple(dict.fromkeys(face.file for face in FACES.values()))
BASE_FACES = ("regular", "bold", "italic", "symbols")  # every kit's HTML and prose use them


def licence_of(face: Face) -> str:
    """The licence file that goes with a face's font file."""
    if face.file.startswith("Atkinson"):
        return LICENCE_FILES[0]
    if face.file.startswith("KitSymbols"):
        return LICENCE_FILES[1]
    return LICENCE_FILES[3] if face.file.startswith("KitCJK") else LICENCE_FILES[2]


def faces_in(text: str) -> set[str]:
    """The faces that draw ``text`` in any style (the fonts a page with it needs)."""
    keys: set[str] = set()
    for ch in set(text):
        if not ch.isspace() and unicodedata.category(ch) != "Cf":  # marks are never drawn
            keys.update(face_of(ch, style) for style in STYLES)
    return keys


def kit_faces(keys: set[str] | frozenset[str]) -> tuple[Face, ...]:
    """The faces a kit carries: the base faces, and every face of a family it uses."""
    families = {FACES[key].family for key in keys if key in FACES}
    return tuple(face for key, face in FACES.items()
                 if key in BASE_FACES or face.family in families)

ZWNJ, ZWJ = "\u200c", "\u200d"
JOINERS = frozenset((ZWNJ, ZWJ))  # allowed inside words of shaped scripts (Persian, Hindi)
FSI, PDI = "\u2068", "\u2069"
_ISOLATES = frozenset("\u2066\u2067\u2068\u2069")  # direction marks of ours, never drawn


@cache
def _ttf(key: str) -> TTFont:
    """The ReportLab font for ``key``, registered once per process."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    font = TTFont(key, str(font_path(FACES[key].file)))
    pdfmetrics.registerFont(font)
    return font


def register(key: str) -> None:
    """Make one face known to ReportLab (drawing looks fonts up by key)."""
    _ttf(key)


@cache
def coverage(key: str) -> frozenset[int]:
    return frozenset(_ttf(key).face.charToGlyph)


def isolate(text: str) -> str:
    """``text`` marked as a paragraph of its own inside a longer line (a name in "A · name").

    The marks (FSI ... PDI) give the name its own direction, from its first strong letter, and
    keep its neighbours out of it; they are never drawn and take no width.
    """
    return f"{FSI}{text}{PDI}" if text else text


def bdi(text: str) -> Markup:
    """A name for an HTML template, isolated from its sentence (escaped).

    ``<bdi>`` isolates it in browsers; WeasyPrint ignores ``<bdi>`` and ``unicode-bidi`` but
    honours the isolate marks inside it, so prose pages in the PDF read the same. Register as a
    Jinja filter (``env.filters["bdi"] = fonts.bdi``) and write ``{{ name|bdi }}`` wherever a
    player's name sits inside other text.
    """
    from markupsafe import Markup, escape

    return Markup("<bdi>" + FSI) + escape(text) + Markup(PDI + "</bdi>")


# --- faces: which face draws each character ----------------------------------------------------

def _attaches(ch: str) -> bool:
    """Whether ``ch`` belongs to the cluster of the character before it (marks, joiners)."""
    return (ch in JOINERS or unicodedata.category(ch)[0] == "M"
            or 0xFE00 <= ord(ch) <= 0xFE0F)


def _neutral(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "ZP"


def face_of(ch: str, style: str) -> str:
    chain = CHAINS[style]
    code = ord(ch)
    for key in chain:
        if code in coverage(key):
            return key
    return chain[0]  # unprintable: validation refuses such text before it gets here


@cache
def _plain(key: str) -> frozenset[int]:
    """The characters of a face that are neither marks nor joiners (each a cluster alone)."""
    return frozenset(c for c in coverage(key) if not _attaches(chr(c)))


def _covers(key: str, chars: str) -> bool:
    have = coverage(key)
    return all(ord(ch) in have or ch in JOINERS for ch in chars)


Cluster = tuple[int, int, str]  # start, stop, face key


@lru_cache(maxsize=65536)
def assign(text: str, style: str) -> tuple[str | None, ...]:
    """The face of each character of ``text`` (None for the direction marks, not drawn).

    A base character and its combining marks (a cluster) share the first face that has them
    all. Punctuation and spaces between (or beside) letters of one script face take that face,
    so a Hebrew or Arabic name is one run. Words that need Kit Sans for some letters (with the
    words one space apart from them: a name) are set wholly in Kit Sans rather than mixing two
    designs inside a name; a direction mark (``isolate``) or punctuation standing alone ends
    such a run of words.
    """
    chain = CHAINS[style]
    first = chain[0]
    plain = _plain(first)
    if all(ord(ch) in plain for ch in text):  # the usual case: the text face has it all
        return (first,) * len(text)
    clusters = _clusters(text, style)
    _one_design(text, clusters, first, chain[2])
    _join_neighbours(text, clusters, first)
    faces: list[str | None] = [None] * len(text)
    for start, stop, key in clusters:
        faces[start:stop] = [key] * (stop - start)
    return tuple(faces)


def _clusters(text: str, style: str) -> list[Cluster]:
    """Base characters with their combining marks, each with the first face that has them."""
    chain = CHAINS[style]
    clusters: list[Cluster] = []
    i = 0
    while i < len(text):
        if text[i] in _ISOLATES:
            i += 1
            continue
        j = i + 1
        while j < len(text) and _attaches(text[j]):
            j += 1
        chars = text[i:j]
        if chars == " ":
            key = chain[0]
        else:
            key = next((k for k in chain if _covers(k, chars)), None) or face_of(chars[0], style)
        clusters.append((i, j, key))
        i = j
    return clusters


def _gap(clusters: list[Cluster], n: int) -> bool:
    """A direction mark (an isolated name's edge) stands before cluster ``n``."""
    return clusters[n][0] != clusters[n - 1][1]


def _words(text: str, clusters: list[Cluster]) -> list[tuple[int, int]]:
    """First and last cluster of each word: no space and no direction mark inside."""
    words: list[tuple[int, int]] = []
    n = 0
    while n < len(clusters):
        if text[clusters[n][0]].isspace():
            n += 1
            continue
        begin = n
        while (n + 1 < len(clusters) and not text[clusters[n + 1][0]].isspace()
               and not _gap(clusters, n + 1)):
            n += 1
        words.append((begin, n))
        n += 1
    return words


def _one_design(text: str, clusters: list[Cluster], first: str, sans: str) -> None:
    """Words one space apart that Atkinson cannot set alone go wholly to Kit Sans (in place)."""

    def latin(word: tuple[int, int]) -> bool:
        chars = text[clusters[word[0]][0]:clusters[word[1]][1]]
        return (any(ch.isalpha() for ch in chars)
                and {clusters[m][2] for m in range(word[0], word[1] + 1)} <= {first, sans})

    phrases: list[list[tuple[int, int]]] = []
    for word in _words(text, clusters):
        last = phrases[-1][-1] if phrases else None
        if (last is not None and latin(last) and latin(word) and word[0] == last[1] + 2
                and text[clusters[last[1] + 1][0]] == " " and not _gap(clusters, last[1] + 1)
                and not _gap(clusters, word[0])):
            phrases[-1].append(word)
        else:
            phrases.append([word])
    for phrase in phrases:
        first_cluster, last_cluster = phrase[0][0], phrase[-1][1]
        used = {clusters[m][2] for m in range(first_cluster, last_cluster + 1)}
        chars = text[clusters[first_cluster][0]:clusters[last_cluster][1]]
        if used == {first, sans} and latin(phrase[0]) and _covers(sans, chars):
            for m in range(first_cluster, last_cluster + 1):
                clusters[m] = (clusters[m][0], clusters[m][1], sans)


def _join_neighbours(text: str, clusters: list[Cluster], first: str) -> None:
    """Punctuation and spaces take the script face of their neighbours (in place)."""
    script = [c[2] if not _neutral(text[c[0]]) else None for c in clusters]
    for n, (start, stop, _) in enumerate(clusters):
        if script[n] is not None:
            continue
        before = next((script[m] for m in range(n - 1, -1, -1) if script[m]), None)
        after = next((script[m] for m in range(n + 1, len(clusters)) if script[m]), None)
        sides = {s for s in (before, after) if s}
        if len(sides) == 1:
            (side,) = sides
            if side not in (first, "symbols") and _covers(side, text[start:stop]):
                clusters[n] = (start, stop, side)


def printable(text: str, style: str = "regular") -> str:
    """The characters of ``text`` that no face of ``style`` can draw (empty: all printable)."""
    bad = set()
    for ch, key in zip(text, assign(text, style), strict=True):
        if key is None or ch in " \u00a0":
            continue
        if ch in JOINERS:
            if not FACES[key].shaped:  # a joiner means something only inside shaped scripts
                bad.add(ch)
        elif ord(ch) not in coverage(key):
            bad.add(ch)
    return "".join(sorted(bad))


@lru_cache(maxsize=65536)
def runs(text: str, style: str) -> tuple[tuple[str, str], ...]:
    """``text`` cut into (text, face key) runs in logical order, each drawn by one face."""
    out: list[tuple[str, str]] = []
    for ch, key in zip(text, assign(text, style), strict=True):
        if key is None:
            continue
        if out and out[-1][1] == key:
            out[-1] = (out[-1][0] + ch, key)
        else:
            out.append((ch, key))
    return tuple(out)


# --- direction: the Unicode bidirectional algorithm (UAX #9) -----------------------------------
#
# The levels come from python-bidi, which wraps the Rust unicode-bidi crate: a maintained UAX #9
# with bracket pairs (N0) and isolates, shipped as a wheel for every platform we run on. GNU
# FriBidi is loaded by Pango inside WeasyPrint, but it has no maintained Python binding: using it
# would mean ctypes declarations of our own against whichever libfribidi the system carries, and
# a PDF that changes with it. python-bidi's one public call lays out a whole paragraph as one line;
# its debug form gives the levels it resolved for the paragraph (one per UTF-8 byte, before the
# line rules). That is what wrapped text needs: levels from the whole paragraph, then each line
# reordered on its own by rules L1 and L2 (below).

_RTL_CLASSES = frozenset(("R", "AL", "AN", "RLI", "RLE", "RLO"))  # without: all left to right
_LEVELS = re.compile(r"levels: \[(.*?)\],\s*paragraphs", re.S)
_LEVEL = re.compile(r"Level\(\s*(\d+)")
_TRAILING = frozenset(("WS", "FSI", "LRI", "RLI", "PDI", "BN"))  # rule L1's white space


@lru_cache(maxsize=16384)
def paragraph_levels(text: str) -> tuple[int, tuple[int, ...]]:
    """The paragraph level (0 left to right, 1 right to left) and each character's level.

    The levels are resolved on ``text`` as one paragraph (rules P2 to I2), before the line rules.
    """
    if not any(unicodedata.bidirectional(ch) in _RTL_CLASSES for ch in text):
        return 0, (0,) * len(text)
    from bidi import get_base_level, get_display

    found = _LEVELS.search(get_display(text, debug=True))
    per_byte = [int(n) for n in _LEVEL.findall(found.group(1))] if found else []
    if len(per_byte) != len(text.encode()):
        raise RuntimeError("python-bidi gave no level for each byte; is it version 0.6?")
    levels, at = [], 0
    for ch in text:
        levels.append(per_byte[at])
        at += len(ch.encode())
    return get_base_level(text), tuple(levels)


def _line_levels(text: str, base: int, levels: tuple[int, ...]) -> list[int]:
    """Rule L1 on one line: separators, and white space before them or at the line's end,
    take the paragraph's level."""
    out = list(levels)
    trailing = True
    for i in range(len(text) - 1, -1, -1):
        kind = unicodedata.bidirectional(text[i])
        if kind in ("S", "B"):
            out[i] = base
            trailing = True
        elif trailing and kind in _TRAILING:
            out[i] = base
        else:
            trailing = False
    return out


def _visual(indices: list[int], levels: list[int]) -> list[int]:
    """Rule L2: ``indices`` (logical order) in visual order, left to right."""
    order = list(indices)
    lv = [levels[i] for i in order]
    odd = [v for v in lv if v % 2]
    if not odd:
        return order
    for level in range(max(lv), min(odd) - 1, -1):
        k = 0
        while k < len(order):
            if lv[k] >= level:
                m = k
                while m < len(order) and lv[m] >= level:
                    m += 1
                order[k:m] = order[k:m][::-1]
                lv[k:m] = lv[k:m][::-1]
                k = m
            else:
                k += 1
    return order


@dataclass(frozen=True)
class Run:
    """A piece of a line drawn by one face in one direction; ``start`` is its logical place."""

    text: str  # logical order
    face: str
    rtl: bool
    start: int  # in the line
    part: int  # which of the line's styled parts it comes from


Part = tuple[str, str]  # (text, style)


@lru_cache(maxsize=16384)
def lines(paragraph: tuple[tuple[Part, ...], ...]) -> tuple[tuple[Run, ...], ...]:
    """The lines of one wrapped paragraph, each styled ``(text, style)`` parts, as runs.

    The levels are resolved on the whole paragraph (its lines joined by the spaces they were
    broken at; its direction from its first strong character), then each line is reordered on
    its own (rules L1, L2): runs in visual order, left to right. A run never spans two parts,
    two faces or two directions.
    """
    texts = ["".join(content for content, _ in parts) for parts in paragraph]
    base, levels = paragraph_levels(" ".join(texts))
    out, at = [], 0
    for parts, text in zip(paragraph, texts, strict=True):
        out.append(_runs(parts, _line_levels(text, base, levels[at:at + len(text)])))
        at += len(text) + 1
    return tuple(out)


def line(parts: tuple[Part, ...]) -> tuple[Run, ...]:
    """Styled ``(text, style)`` parts of one line (a paragraph) as runs in visual order."""
    return lines((parts,))[0]


def _ltr_runs(parts: tuple[Part, ...]) -> tuple[Run, ...]:
    """``_runs`` of a line that is left to right throughout (every level 0, the usual line):
    visual order is logical order, so a run is a stretch of one part in one face."""
    out: list[Run] = []
    at = 0
    for n, (content, style) in enumerate(parts):
        faces = assign(content, style)
        if faces and faces[0] is not None and faces.count(faces[0]) == len(faces):
            out.append(Run(content, faces[0], False, at, n))  # one face: the whole part
        else:
            chars: list[str] = []
            face, start = "regular", at
            for i, (ch, key) in enumerate(zip(content, faces, strict=True)):
                if key is None:  # a direction mark: not drawn, not a break
                    continue
                if chars and key != face:
                    out.append(Run("".join(chars), face, False, start, n))
                    chars = []
                if not chars:
                    face, start = key, at + i
                chars.append(ch)
            if chars:
                out.append(Run("".join(chars), face, False, start, n))
        at += len(content)
    return tuple(out)


def _runs(parts: tuple[Part, ...], levels: list[int]) -> tuple[Run, ...]:
    """One line's runs in visual order, from its characters' levels."""
    if not any(levels):
        return _ltr_runs(parts)
    text = "".join(content for content, _ in parts)
    faces: list[str | None] = []
    part_of: list[int] = []
    for n, (content, style) in enumerate(parts):
        faces += assign(content, style)
        part_of += [n] * len(content)
    visible = [i for i, key in enumerate(faces) if key is not None]
    rank = {i: n for n, i in enumerate(visible)}  # neighbours, the unprinted marks skipped
    groups: list[list[int]] = []
    for i in _visual(visible, levels):
        last = groups[-1][-1] if groups else None
        if (last is not None and abs(rank[last] - rank[i]) == 1 and levels[last] == levels[i]
                and faces[last] == faces[i] and part_of[last] == part_of[i]):
            groups[-1].append(i)
        else:
            groups.append([i])
    return tuple(Run("".join(text[i] for i in sorted(group)), faces[min(group)] or "regular",
                     levels[min(group)] % 2 == 1, min(group), part_of[min(group)])
                 for group in groups)


# --- shaping and outlines ----------------------------------------------------------------------

@lru_cache(maxsize=65536)
def needs_shaping(text: str, key: str, rtl: bool = False) -> bool:
    """Whether a run is drawn from HarfBuzz-shaped glyphs rather than one glyph per character."""
    return (FACES[key].shaped or rtl
            or any(unicodedata.category(ch)[0] == "M" for ch in text))


@dataclass(frozen=True)
class Shaped:
    """A shaped run: (glyph id, x, y) in font units from its left end, left to right."""

    glyphs: tuple[tuple[int, int, int], ...]
    advance: int
    upem: int


@cache
def _hb_font(key: str) -> tuple[uharfbuzz.Font, int]:
    import uharfbuzz as hb

    face = hb.Face(hb.Blob.from_file_path(str(font_path(FACES[key].file))))
    return hb.Font(face), face.upem


@lru_cache(maxsize=16384)
def shape(text: str, key: str, rtl: bool = False) -> Shaped:
    """``text`` shaped by HarfBuzz with the face's default features, glyphs in visual order."""
    import uharfbuzz as hb

    font, upem = _hb_font(key)
    buffer = hb.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    buffer.direction = "rtl" if rtl else "ltr"
    buffer.language = "en"  # the documents' language, as the browser shapes them
    hb.shape(font, buffer, {})
    glyphs = []
    x = 0
    for info, pos in zip(buffer.glyph_infos, buffer.glyph_positions, strict=True):
        glyphs.append((info.codepoint, x + pos.x_offset, pos.y_offset))
        x += pos.x_advance
    return Shaped(tuple(glyphs), x, upem)


# One path operation of a glyph's outline: a verb ("m" move, "l" line, "c" cubic curve, "z"
# close) and its points' coordinates, x y after x y.
PathOp = tuple[str, tuple[float, ...]]


class _OutlinePen:
    """Collects a glyph's outline as moves, lines and cubic curves (quadratics converted)."""

    def __init__(self) -> None:
        self.ops: list[PathOp] = []
        self.at: tuple[float, float] = (0.0, 0.0)

    def moveTo(self, p: tuple[float, float]) -> None:  # noqa: N802 - fontTools pen protocol
        self.ops.append(("m", tuple(p)))
        self.at = p

    def lineTo(self, p: tuple[float, float]) -> None:  # noqa: N802
        self.ops.append(("l", tuple(p)))
        self.at = p

    def qCurveTo(self, *points: tuple[float, float]) -> None:  # noqa: N802
        (x0, y0) = self.at
        controls, end = points[:-1], points[-1]
        for n, (cx, cy) in enumerate(controls):  # implied on-curve points between controls
            to = end if n == len(controls) - 1 else (
                (cx + controls[n + 1][0]) / 2, (cy + controls[n + 1][1]) / 2)
            self.ops.append(("c", (x0 + 2 / 3 * (cx - x0), y0 + 2 / 3 * (cy - y0),
                                   to[0] + 2 / 3 * (cx - to[0]), to[1] + 2 / 3 * (cy - to[1]),
                                   *to)))
            x0, y0 = to
        self.at = end

    def curveTo(self, *points: tuple[float, float]) -> None:  # noqa: N802
        self.ops.append(("c", (*points[0], *points[1], *points[2])))
        self.at = points[2]

    def closePath(self) -> None:  # noqa: N802
        self.ops.append(("z", ()))

    def endPath(self) -> None:  # noqa: N802
        pass


@lru_cache(maxsize=16384)
def outline(key: str, glyph: int) -> tuple[PathOp, ...]:
    """Glyph ``glyph`` of a face as path operations in font units, y up (empty: no ink)."""
    pen = _OutlinePen()
    _hb_font(key)[0].draw_glyph_with_pen(glyph, pen)
    return tuple(pen.ops)


def units_per_em(key: str) -> int:
    return _hb_font(key)[1]


# --- widths ------------------------------------------------------------------------------------

@cache
def _widths(key: str) -> tuple[dict[int, int], int]:
    face = _ttf(key).face
    return face.charWidths, face.defaultWidth


def metric_width_pt(text: str, key: str, size: float) -> float:
    """The width of ``text`` drawn one glyph per character (no shaping, no kerning)."""
    widths, default = _widths(key)
    return sum(widths.get(ord(ch), default) for ch in text) * size / 1000


@lru_cache(maxsize=65536)
def run_width_pt(text: str, key: str, size: float, rtl: bool = False) -> float:
    """How wide one run of one face prints: shaped advances where the run is shaped."""
    if needs_shaping(text, key, rtl):
        shaped = shape(text, key, rtl)
        return shaped.advance * size / shaped.upem
    return metric_width_pt(text, key, size)


@lru_cache(maxsize=65536)
def width_pt(text: str, size: float, style: str = "regular") -> float:
    """How wide ``text`` prints in ``style`` at ``size`` points (as drawn: runs, shaping)."""
    return sum(run_width_pt(r.text, r.face, size, r.rtl) for r in line(((text, style),)))


CAP_HEIGHT = 0.668  # of the em, Atkinson Hyperlegible: centres text in a box
ASCENT = 0.95
DESCENT = 0.29
