"""The bundled fonts: which file draws which style, what each can print, and text widths.

Every page is drawn with these files only, in the PDF (ReportLab, WeasyPrint) and in the HTML
(``@font-face`` pointing at the copies in the kit's ``fonts/`` folder). A character the text face
lacks falls back along the style's chain (``CHAINS``); both backends get the same runs, so they
print the same glyphs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from .resources import font_path


@dataclass(frozen=True)
class Face:
    """One font file as both backends name it."""

    key: str  # ReportLab's registered name, also the CSS class suffix in the HTML
    file: str
    family: str  # the CSS font-family
    weight: int = 400
    italic: bool = False


FACES: dict[str, Face] = {face.key: face for face in (
    Face("regular", "AtkinsonHyperlegible-Regular.ttf", "Atkinson Hyperlegible"),
    Face("bold", "AtkinsonHyperlegible-Bold.ttf", "Atkinson Hyperlegible", 700),
    Face("italic", "AtkinsonHyperlegible-Italic.ttf", "Atkinson Hyperlegible", 400, True),
    Face("symbols", "KitSymbols-Regular.ttf", "Kit Symbols"),
)}

# A style is drawn by the first face in its chain that has the character.
CHAINS: dict[str, tuple[str, ...]] = {
    "regular": ("regular", "symbols"),
    "bold": ("bold", "symbols"),
    "italic": ("italic", "symbols"),
}
STYLES = tuple(CHAINS)

LICENCE_FILES = ("AtkinsonHyperlegible-OFL.txt", "KitSymbols-LICENSE.txt")
FONT_FILES = tuple(face.file for face in FACES.values())


@cache
def _ttf(key: str):
    """The ReportLab font for ``key``, registered once per process."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    font = TTFont(key, str(font_path(FACES[key].file)))
    pdfmetrics.registerFont(font)
    return font


def register_all() -> None:
    """Make every face known to ReportLab (drawing looks fonts up by key)."""
    for key in FACES:
        _ttf(key)


@cache
def coverage(key: str) -> frozenset[int]:
    return frozenset(_ttf(key).face.charToGlyph)


def printable(text: str, style: str = "regular") -> str:
    """The characters of ``text`` that no face of ``style`` can draw (empty: all printable)."""
    chain = CHAINS[style]
    return "".join(sorted({ch for ch in text if ch not in " \u00a0"
                           and not any(ord(ch) in coverage(k) for k in chain)}))


def face_of(ch: str, style: str) -> str:
    chain = CHAINS[style]
    code = ord(ch)
    for key in chain:
        if code in coverage(key):
            return key
    return chain[0]  # unprintable: validation refuses such text before it gets here


@lru_cache(maxsize=65536)
def runs(text: str, style: str) -> tuple[tuple[str, str], ...]:
    """``text`` cut into (text, face key) runs, each drawn by one face."""
    out: list[tuple[str, str]] = []
    first = CHAINS[style][0]
    for ch in text:
        key = first if ch == " " else face_of(ch, style)
        if out and out[-1][1] == key:
            out[-1] = (out[-1][0] + ch, key)
        else:
            out.append((ch, key))
    return tuple(out)


@cache
def _widths(key: str) -> tuple[dict[int, int], int]:
    face = _ttf(key).face
    return face.charWidths, face.defaultWidth


def run_width_pt(text: str, key: str, size: float) -> float:
    widths, default = _widths(key)
    return sum(widths.get(ord(ch), default) for ch in text) * size / 1000


@lru_cache(maxsize=65536)
def width_pt(text: str, size: float, style: str = "regular") -> float:
    """How wide ``text`` prints in ``style`` at ``size`` points (no kerning, as drawn)."""
    return sum(run_width_pt(part, key, size) for part, key in runs(text, style))


CAP_HEIGHT = 0.668  # of the em, Atkinson Hyperlegible: centres text in a box
ASCENT = 0.95
DESCENT = 0.29
