"""Fitting text into boxes: shrink first, then wrap between words, never inside one.

Widths come from the bundled fonts' own metrics (``kit.fonts``), exactly as drawn, so a text
that fits here fits on paper and in the browser.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..fonts import lines as fonts_lines
from .model import Text, place_runs, pt, text_width

STEP = 0.5  # pt between the sizes tried
LEADING = 1.22  # line height as a multiple of the size
ELLIPSIS = "…"


@dataclass(frozen=True)
class Fitted:
    """Text fitted to a box: its lines and the size they print at (pt)."""

    lines: tuple[str, ...]
    size: float

    @property
    def cut(self) -> bool:
        return any(line.endswith(ELLIPSIS) for line in self.lines)


def sizes(largest: float, smallest: float) -> list[float]:
    out = []
    size = largest
    while size >= smallest - 1e-9:
        out.append(round(size, 2))
        size -= STEP
    return out


def fits(text: str, width: float, size: float, style: str = "regular") -> bool:
    return text_width(text, size, style) <= width + 1e-6


def wrap(text: str, width: float, size: float, style: str = "regular") -> list[str]:
    """Words of ``text`` in lines no wider than ``width``; an over-wide word keeps its own line."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        joined = f"{current} {word}" if current else word
        if current and not fits(joined, width, size, style):
            lines.append(current)
            current = word
        else:
            current = joined
    if current:
        lines.append(current)
    return lines


def ellipsize(text: str, width: float, size: float, style: str = "regular") -> str:
    """``text`` cut at the end with "…" so it fits ``width`` (unchanged when it fits)."""
    if fits(text, width, size, style):
        return text
    cut = text
    while cut and not fits(cut.rstrip() + ELLIPSIS, width, size, style):
        cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS


def fit(text: str, width: float, height: float, largest: float, smallest: float,
        style: str = "regular", max_lines: int = 3) -> Fitted:
    """The largest size at which ``text`` fits the box, on one line if possible.

    One line is tried at every size first (a name stays whole on one line when it can), then
    lines broken between words. Text that fits at no size is cut with "…" at ``smallest``.
    """
    if not text:
        return Fitted((), largest)
    for size in sizes(largest, smallest):
        if fits(text, width, size, style) and pt(size) * LEADING <= height + 1e-6:
            return Fitted((text,), size)
    for size in sizes(largest, smallest):
        lines = wrap(text, width, size, style)
        tall = len(lines) * pt(size) * LEADING
        if (1 < len(lines) <= max_lines and tall <= height + 1e-6
                and all(fits(line, width, size, style) for line in lines)):
            return Fitted(tuple(lines), size)
    rows = max(1, min(max_lines, int(height / (pt(smallest) * LEADING) + 1e-6)))
    lines = wrap(text, width, smallest, style)
    if len(lines) > rows:
        lines = lines[:rows - 1] + [" ".join(lines[rows - 1:])]
    return Fitted(tuple(ellipsize(line, width, smallest, style) for line in lines), smallest)


def place(fitted: Fitted, x: float, top: float, width: float, height: float,
          style: str = "regular", align: str = "left") -> list[Text]:
    """Draw fitted lines centred vertically in the box; ``align`` within its width."""
    step = pt(fitted.size) * LEADING
    first = top + (height - step * len(fitted.lines)) / 2
    anchor = x + width / 2 if align == "center" else x + width if align == "right" else x
    out: list[Text] = []
    laid = fonts_lines(tuple(((line, style),) for line in fitted.lines))  # one paragraph
    for i, runs in enumerate(laid):
        base = first + i * step + step / 2 + pt(fitted.size) * 0.668 / 2
        out += place_runs(anchor, base, runs, fitted.size, align)
    return out


def fit_in(content: str, x: float, top: float, width: float, height: float, largest: float,
           smallest: float, style: str = "regular", align: str = "left",
           max_lines: int = 3) -> list[Text]:
    """``fit`` and ``place`` in one call."""
    fitted = fit(content, width, height, largest, smallest, style, max_lines)
    return place(fitted, x, top, width, height, style, align)


Part = tuple[str, str]  # (text, style)


def paragraph(x: float, top: float, width: float, parts: Sequence[Part], size: float,
              leading: float = LEADING) -> tuple[list[Text], float]:
    """Styled text wrapped between words into ``width``; returns the runs and the height used.

    The first baseline sits one ascent below ``top``.
    """
    lines = break_lines(tuple(parts), round(width, 3), size)
    step = pt(size) * leading
    out: list[Text] = []
    for i, runs in enumerate(fonts_lines(tuple(tuple(p for p in line if p[0]) for line in lines))):
        out += place_runs(x, top + pt(size) * 0.95 + i * step, runs, size)
    return out, len(lines) * step


@lru_cache(maxsize=4096)
def break_lines(parts: tuple[Part, ...], width: float, size: float
                ) -> tuple[tuple[Part, ...], ...]:
    """The lines of a styled paragraph (cached: slips repeat the same text many times)."""
    words: list[list[Part]] = [[]]
    for content, style in parts:
        pieces = content.split(" ")
        for i, piece in enumerate(pieces):
            if i > 0:
                words.append([])
            if piece:
                words[-1].append((piece, style))
    words = [w for w in words if w]
    lines: list[list[Part]] = []
    current: list[Part] = []
    widths: list[float] = []  # each part's width: a trial measures only what it adds
    for word in words:
        trial = _join(current, word)
        trial_widths = (widths[:-1] + [_width(trial[len(current) - 1:len(current)], size)]
                        if current else []) + [_width((part,), size) for part in word]
        # summed in order, as _width sums a line: the same float, whatever is cached
        if current and sum(trial_widths) > width + 1e-6:
            lines.append(current)
            current, widths = list(word), [_width((part,), size) for part in word]
        else:
            current, widths = trial, trial_widths
    if current:
        lines.append(current)
    return tuple(tuple(line) for line in lines)


def _join(line: list[Part], word: list[Part]) -> list[Part]:
    if not line:
        return list(word)
    last_text, last_style = line[-1]
    joined = list(line[:-1]) + [(last_text + " ", last_style)]
    return joined + list(word)


def _width(parts: Sequence[Part], size: float) -> float:
    return sum(text_width(content, size, style) for content, style in parts)


def hyphen_wrap(name: str, width: float, size: float) -> list[str]:
    """Lines of ``name`` broken between words and, where a word is too long for a line, after
    a hyphen it already has ("Jean-" / "Christophe"); a word is never cut elsewhere."""
    lines: list[str] = []
    current = ""
    for word in name.split():
        pieces = re.findall(r"[^-]+-*|-+", word)
        for i, piece in enumerate(pieces):
            joined = current + (" " if current and i == 0 else "") + piece
            if current and not fits(joined, width, size):
                lines.append(current)
                current = piece
            else:
                current = joined
    if current:
        lines.append(current)
    return lines


def letter_wrap(line: str, width: float, size: float) -> list[str]:
    """A line too wide for ``width`` broken between letters (a combining mark stays with its
    letter), as full lines as fit."""
    lines = [""]
    for char in line:
        if (lines[-1] and not unicodedata.combining(char)
                and not fits(lines[-1] + char, width, size)):
            lines.append("")
        lines[-1] += char
    return lines
