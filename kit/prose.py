"""Prose pages (rules sheets, cards, examples): HTML rendered by WeasyPrint, through a cache.

Each prose page is rendered on its own paper size with nothing but its text (the chrome is
drawn over it later, from the layout model). A page's key is the digest of its HTML and CSS,
the bundled font files and the WeasyPrint version, so a cached page is reused by any kit,
process or server that would render the same bytes. Each page renders on its own, so its bytes
depend on its key alone; WeasyPrint reads only our fonts and templates, and its temporary
files go in a folder of ours that is removed afterwards.
"""

from __future__ import annotations

import contextlib
import errno
import math
import shutil
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlparse

from . import __version__
from .cache import RenderCache, digest
from .errors import LayoutError, RenderError
from .fonts import FONT_FILES
from .paper import Frame
from .resources import asset_root, fonts_dir, templates_dir

PX_PER_MM = 96 / 25.4
_TEMP_LOCK = threading.Lock()
LEAST_SCALE = 0.89  # a prose page shrinks to fit down to this: its 9 pt small print stays 8 pt
SCALE_STEP = 0.01


@dataclass(frozen=True)
class Rendered:
    """A prose page as WeasyPrint drew it, and the scale its text needed to fit."""

    pdf: bytes
    scale: float = 1.0

    def pack(self) -> bytes:
        return f"%scale={self.scale:.2f}\n".encode() + self.pdf

    @classmethod
    def unpack(cls, data: bytes) -> Rendered | None:
        head, _, pdf = data.partition(b"\n")
        if not head.startswith(b"%scale=") or not pdf.startswith(b"%PDF"):
            return None
        return cls(pdf, float(head[7:]))


def fit_style(scale: float, body: Frame) -> str:
    """The attribute that shrinks a prose page's text to ``scale``: laid out in a box as much
    larger, then scaled into the body, so both engines break every line the same way."""
    if scale >= 1.0:
        return ""
    return (f' style="transform: scale({scale:.2f}); transform-origin: 0 0; '
            f'width: {body.w / scale:.3f}mm; height: {body.h / scale:.3f}mm"')


@dataclass(frozen=True)
class ProseJob:
    """One prose page to render: its stylesheet and its ``<section>`` (without chrome)."""

    css: str
    section: str
    label: str
    body: Frame  # where the page's text must stay

    @property
    def key(self) -> str:
        return digest(["prose", __version__, self.css, self.section, fonts_digest(),
                       weasyprint_version()])


@cache
def fonts_digest() -> str:
    return digest((fonts_dir() / name).read_bytes() for name in FONT_FILES)


@cache
def weasyprint_version() -> str:
    from importlib.metadata import version

    return version("weasyprint")


class _Refusals:
    """The URLs WeasyPrint asked for and was refused (anything but our fonts and templates)."""

    def __init__(self) -> None:
        self.urls: list[str] = []


def url_fetcher(refused: _Refusals):
    """A WeasyPrint fetcher that reads our fonts and templates and nothing else."""
    from weasyprint.urls import URLFetcher

    class Fetcher(URLFetcher):
        def fetch(self, url: str, headers: object = None):
            parsed = urlparse(url)
            if parsed.scheme == "file" and parsed.netloc in ("", "localhost"):
                target = Path(unquote(parsed.path)).resolve()  # no ../ or symlink escapes
                if any(target.is_relative_to(d) for d in (templates_dir(), fonts_dir())):
                    return super().fetch(url, headers)
            refused.urls.append(url)
            raise ValueError(f"refused to fetch {url}: only the kit's own assets are read")

    return Fetcher()


@contextlib.contextmanager
def private_tempdir() -> Iterator[None]:
    """Point ``tempfile`` at a folder of ours while WeasyPrint runs, then remove it.

    WeasyPrint keeps font copies in ``mkdtemp`` folders that it removes only when its objects
    are collected, which a process that exits early never does.
    """
    with _TEMP_LOCK:
        folder = tempfile.mkdtemp(prefix="kit-render-")
        previous = tempfile.tempdir
        tempfile.tempdir = folder
        try:
            yield
        finally:
            tempfile.tempdir = previous
            shutil.rmtree(folder, ignore_errors=True)


# WeasyPrint reports no anchor it clipped away: its copy lets text run on, to be measured;
# text that runs off the sheet is measured once more on a sheet long enough to hold it.
MEASURE_CSS = ".page, .page-body { overflow: visible; }"
TALL_CSS = ("@page { size: 300mm 3000mm; } @page landscape { size: 300mm 3000mm; } "
            ".page, .page.landscape { height: 3000mm; }")


def _page_html(job: ProseJob, scale: float) -> str:
    section = job.section.replace("data-fit", "data-fit" + fit_style(scale, job.body), 1)
    return f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>{section}</body></html>'


class _Session:
    """What the pages of one ``render`` call share: WeasyPrint's font configuration (our
    fonts, loaded once) and the parsed stylesheets. A page's bytes do not depend on the pages
    rendered before it in the session (each is still its own document)."""

    def __init__(self) -> None:
        from weasyprint.text.fonts import FontConfiguration

        self.refused = _Refusals()
        self.fetcher = url_fetcher(self.refused)
        self.fonts = FontConfiguration()
        self._sheets: dict[str, object] = {}

    def stylesheet(self, css: str) -> object:
        if css not in self._sheets:
            from weasyprint import CSS

            self._sheets[css] = CSS(string=css, base_url=_base_url(), url_fetcher=self.fetcher,
                                    font_config=self.fonts)
        return self._sheets[css]

    def layout(self, job: ProseJob, scale: float, tall: bool = False):
        """The page laid out at ``scale`` (on a very tall sheet with ``tall``)."""
        from weasyprint import HTML

        sheets = [self.stylesheet(job.css),
                  self.stylesheet(MEASURE_CSS + (TALL_CSS if tall else ""))]
        document = HTML(string=_page_html(job, scale), base_url=_base_url(),
                        url_fetcher=self.fetcher).render(stylesheets=sheets,
                                                         font_config=self.fonts)
        if len(document.pages) != 1:
            raise LayoutError("layout", f"the page “{job.label}” takes "
                              f"{len(document.pages)} pages")
        return document


@cache
def _base_url() -> str:
    return asset_root().as_uri() + "/"


def _overflow_mm(page: object, job: ProseJob) -> float | None:
    """How far the lowest end mark of the page's text runs past the bottom of its body; None
    when a mark ran off the sheet (WeasyPrint then reports none of it)."""
    marks = [position[1] for name, position in page.anchors.items()  # type: ignore
             if name.startswith("end-mark")]
    if len(marks) < job.section.count('class="end-mark"'):
        return None
    limit = job.body.bottom * PX_PER_MM
    return max(0.0, (max(marks, default=0.0) - limit) / PX_PER_MM)


def _render_one(job: ProseJob, session: _Session | None = None) -> Rendered:
    """One page, as its own document (a batch would share font subsets between pages, and a
    cached page would then differ from a fresh one). Text that runs past the body is shrunk to
    fit, never below ``LEAST_SCALE``: the scale follows from the page alone, so its key decides
    it."""
    if session is None:
        with private_tempdir():
            return _render_one(job, _Session())
    scale = 1.0
    while True:
        document = session.layout(job, scale)
        over = _overflow_mm(document.pages[0], job)
        if over is None:
            over = _overflow_mm(session.layout(job, scale, tall=True).pages[0], job) or 0.0
        elif over <= 0.2:
            return Rendered(document.write_pdf(pdf_identifier=b"number-party-kit"), scale)
        # the text's height shrinks with the scale: aim just under the body, then step
        wanted = min(scale - SCALE_STEP, scale * job.body.h / (job.body.h + over))
        scale = math.floor(wanted * 100) / 100
        if scale < LEAST_SCALE:
            raise LayoutError("layout", f"the page “{job.label}” runs {over:.1f} mm past "
                              "its printable area, even with its text at the smallest "
                              "legible size")


def render(jobs: Sequence[ProseJob], store: RenderCache | None) -> dict[str, Rendered]:
    """Single-page PDFs by job key, from ``store`` when there, else rendered (and stored)."""
    done: dict[str, Rendered] = {}
    missing: dict[str, ProseJob] = {}
    for job in jobs:
        key = job.key
        if key in done or key in missing:
            continue
        cached = store.get(key) if store is not None else None
        found = Rendered.unpack(cached) if cached is not None else None
        if found is not None:
            done[key] = found
        else:
            missing[key] = job
    if missing:
        with private_tempdir():
            session = _Session()
            for key, job in missing.items():
                try:
                    done[key] = _render_one(job, session)
                except OSError as exc:  # WeasyPrint's temporary font files, on a full disk
                    reason = "the disk is full" if exc.errno == errno.ENOSPC else (
                        exc.strerror or str(exc))
                    raise RenderError("render", f"cannot render the page “{job.label}”: "
                                      f"{reason}") from None
                if store is not None:
                    store.put(key, done[key].pack())
            del session  # WeasyPrint's font copies go with it, before the folder does
    if missing and store is not None:
        store.evict()
    return done
