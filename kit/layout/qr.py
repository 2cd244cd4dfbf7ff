"""QR codes as layout items: the symbol from ``segno``, drawn as black squares in mm.

``segno`` (a maintained, pure-Python QR encoder) makes the module matrix; this module only
places it. A row's run of dark modules is one ``Box`` whose stroke, half a module wide and
inset a quarter module, covers the run whole: the backends draw line art only (``Box`` is
stroked, never filled), and a stroke with mitred corners is as crisp a square in the PDF as in
the SVG. Light modules and the quiet zone (4 modules, as ISO/IEC 18004 asks) are the paper.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import LayoutError
from .model import Box, text_width

QUIET_MODULES = 4
# the whole code, quiet zone included: a phone reads it at arm's length, and a 100 dpi scan
# of a 90-character link (modules of 0.6 mm) still reads back; at 20 mm it did not
MIN_MM = 25.0
MIN_MODULE_MM = 0.4  # below this, printers smear modules together
URL_MAX = 200  # characters of a link a slip prints


@dataclass(frozen=True)
class QrCode:
    """A QR code's modules, row by row (True: dark), without the quiet zone."""

    rows: tuple[tuple[bool, ...], ...]

    @classmethod
    def of(cls, data: str) -> QrCode:
        """The code of ``data`` (error correction M, the smallest version that holds it)."""
        import segno

        if not data or len(data) > URL_MAX:
            raise LayoutError("links", f"a link must be 1 to {URL_MAX} characters")
        symbol = segno.make(data, error="m", micro=False, boost_error=False)
        return cls(tuple(tuple(bool(m) for m in row) for row in symbol.matrix))

    @property
    def modules(self) -> int:
        """Modules across, without the quiet zone."""
        return len(self.rows)

    def module_mm(self, size_mm: float) -> float:
        """A module's side when the whole code (quiet zone included) is ``size_mm`` across."""
        return size_mm / (self.modules + 2 * QUIET_MODULES)

    def items(self, x: float, y: float, size_mm: float) -> list[Box]:
        """The dark modules of the code whose top-left corner (of its quiet zone) is at
        (x, y) and whose side is ``size_mm``; ``LayoutError`` if that is too small."""
        module = self.module_mm(size_mm)
        if size_mm < MIN_MM or module < MIN_MODULE_MM:
            raise LayoutError("links", f"a QR code needs at least {MIN_MM:g} mm and modules of "
                              f"{MIN_MODULE_MM:g} mm; this link needs a shorter address")
        edges = [round(x + (QUIET_MODULES + i) * module, 3) for i in range(self.modules + 1)]
        tops = [round(y + (QUIET_MODULES + i) * module, 3) for i in range(self.modules + 1)]
        inset = module / 4
        out = []
        for r, row in enumerate(self.rows):
            c = 0
            while c < len(row):
                if not row[c]:
                    c += 1
                    continue
                end = c
                while end < len(row) and row[end]:
                    end += 1
                out.append(Box(round(edges[c] + inset, 3), round(tops[r] + inset, 3),
                               round(edges[end] - edges[c] - 2 * inset, 3),
                               round(tops[r + 1] - tops[r] - 2 * inset, 3),
                               round(2 * inset, 3)))
                c = end
        return out


def wrap_url(url: str, width_mm: float, size: float, lines: int) -> list[str]:
    """``url`` cut into at most ``lines`` lines of ``width_mm`` at ``size`` pt: after a ``/``
    in a line's second half, else where the line is full (an address has no spaces);
    ``LayoutError`` if it needs more lines."""
    out: list[str] = []
    rest = url
    while rest:
        n = len(rest)
        while n > 1 and text_width(rest[:n], size) > width_mm:
            n -= 1
        slash = rest.rfind("/", 0, n)
        if n < len(rest) and slash > n // 2:
            n = slash + 1
        out.append(rest[:n])
        rest = rest[n:]
    if len(out) > lines:
        raise LayoutError("links", f"a link must fit {lines} lines on the slip; give a shorter "
                          "address")
    return out
