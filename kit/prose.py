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
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlparse

from . import __version__
from .cache import RenderCache, digest
from .errors import KitError, LayoutError, RenderError
from .fonts import FONT_FILES
from .loader import import_weasyprint
from .paper import Frame
from .resources import asset_root, fonts_dir, templates_dir

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    # untyped: mypy takes them as Any
    from weasyprint.document import Document, Page
    from weasyprint.urls import URLFetcher, URLFetcherResponse

PX_PER_MM = 96 / 25.4
_TEMP_LOCK = threading.Lock()
_holding = 0  # private temporary folders open in this process
# Tagged: the kit's files keep each prose page's structure tree (``kit.pdftags``). The version
# is the kit's: WeasyPrint would otherwise tag for PDF 2.0 (its namespaces).
WRITE_OPTIONS: dict[str, object] = {"pdf_identifier": b"number-party-kit", "pdf_tags": True,
                                    "pdf_version": "1.7"}
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
    least: float = LEAST_SCALE  # the smallest scale its text may shrink to (1.0: none)
    lang: str = "en"  # the page's language, which its tags declare

    @property
    def key(self) -> str:
        return digest(["prose", __version__, self.css, self.section, fonts_digest(),
                       weasyprint_version(), f"{self.least:.2f}", self.lang, repr(sorted(
                           WRITE_OPTIONS.items()))])


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


def url_fetcher(refused: _Refusals) -> URLFetcher:
    """A WeasyPrint fetcher that reads our fonts and templates and nothing else."""
    from weasyprint.urls import URLFetcher

    class Fetcher(URLFetcher):
        def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
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
    global _holding
    with _TEMP_LOCK:
        folder = tempfile.mkdtemp(prefix="kit-render-")
        previous = tempfile.tempdir
        tempfile.tempdir = folder
        _holding += 1
        try:
            yield
        finally:
            tempfile.tempdir = previous
            shutil.rmtree(folder, ignore_errors=True)
            _holding -= 1


# WeasyPrint reports no anchor it clipped away: its copy lets text run on, to be measured;
# text that runs off the sheet is measured once more on a sheet long enough to hold it.
MEASURE_CSS = ".page, .page-body { overflow: visible; }"
TALL_CSS = ("@page { size: 300mm 3000mm; } @page landscape { size: 300mm 3000mm; } "
            ".page, .page.landscape { height: 3000mm; }")


def _page_html(job: ProseJob, scale: float) -> str:
    section = job.section.replace("data-fit", "data-fit" + fit_style(scale, job.body), 1)
    return (f'<!DOCTYPE html><html lang="{job.lang}"><head><meta charset="utf-8"></head>'
            f'<body>{section}</body></html>')


class _Session:
    """What the pages of one ``render`` call share: WeasyPrint's font configuration (our
    fonts, loaded once) and the parsed stylesheets. A page's bytes do not depend on the pages
    rendered before it in the session (each is still its own document)."""

    def __init__(self) -> None:
        import_weasyprint()
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

    def layout(self, job: ProseJob, scale: float, tall: bool = False) -> Document:
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


def _overflow_mm(page: Page, job: ProseJob) -> float | None:
    """How far the lowest end mark of the page's text runs past the bottom of its body; None
    when a mark ran off the sheet (WeasyPrint then reports none of it)."""
    marks = [position[1] for name, position in page.anchors.items()
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
            return Rendered(document.write_pdf(**WRITE_OPTIONS), scale)
        # the text's height shrinks with the scale: aim just under the body, then step
        wanted = min(scale - SCALE_STEP, scale * job.body.h / (job.body.h + over))
        scale = math.floor(wanted * 100) / 100
        if scale < job.least:
            raise LayoutError("layout", f"the page “{job.label}” runs {over:.1f} mm past "
                              "its printable area, even with its text at the smallest "
                              "legible size")


def _render_all(jobs: Sequence[ProseJob]) -> list[Rendered]:
    """Pages in one session, in this process (or a worker's)."""
    out = []
    with private_tempdir():
        session = _Session()
        for job in jobs:
            try:
                out.append(_render_one(job, session))
            except OSError as exc:  # WeasyPrint's temporary font files, on a full disk
                reason = "the disk is full" if exc.errno == errno.ENOSPC else (
                    exc.strerror or str(exc))
                raise RenderError("render", f"cannot render the page “{job.label}”: "
                                  f"{reason}") from None
        del session  # WeasyPrint's font copies go with it, before the folder does
    return out


STOP_WAIT_S = 10.0


def _can_fork() -> bool:
    # forking copies one thread only: never from a process running others (a server, a test
    # runner's worker); the kernel counts threads that ``threading`` does not know of
    if sys.platform != "linux" or "fork" not in multiprocessing.get_all_start_methods():
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _stop(*_: object) -> None:
    if not _holding:
        os._exit(1)  # nothing of ours to remove (and an import may swallow SystemExit)
    raise SystemExit(1)  # unwinds: the finally blocks remove our temporary folder


def _quiet_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops us
    signal.signal(signal.SIGTERM, _stop)


def _run_child(ours: Connection, theirs: Connection, target: Callable[..., object],
               *args: object) -> None:
    ours.close()  # the parent's end: closing it there must reach us as the end of the pipe
    target(theirs, *args)


class _Child:
    """A forked process running ``target(conn, *args)``, and our end of its pipe."""

    def __init__(self, target: Callable[..., object], *args: object) -> None:
        context = multiprocessing.get_context("fork")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_run_child, args=(self.conn, theirs, target,
                                                                *args))
        self.process.start()
        theirs.close()

    def result(self) -> list[Rendered]:
        try:
            reply = self.conn.recv()
        except EOFError:
            raise RenderError("render", "a page renderer stopped unexpectedly") from None
        if isinstance(reply, BaseException):
            raise reply
        return reply

    def stop(self) -> None:
        # one with nothing left to do may still be importing: it has no files yet, so stop it
        self.conn.close()  # one waiting for pages sees the end of the pipe
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(STOP_WAIT_S)
        if self.process.is_alive():  # never seen; never wait for ever either
            self.process.kill()
            self.process.join()


def _attempt(render: Callable[..., list[Rendered]], *args: object
             ) -> list[Rendered] | KitError:
    """The pages, or the error that crosses to the parent as a one-line error."""
    try:
        return render(*args)
    except KitError as exc:
        return exc
    except Exception as exc:  # noqa: BLE001
        return RenderError("render", f"cannot render a prose page: {exc}")


def _reply(conn: Connection, jobs: Sequence[ProseJob]) -> None:
    _quiet_signals()
    conn.send(_attempt(_render_all, jobs))


def _render_spread(jobs: Sequence[ProseJob], cores: int) -> list[Rendered]:
    """The pages over ``cores`` processes: this one and children forked from it."""
    count = max(1, min(cores, len(jobs)))
    children = [_Child(_reply, list(jobs[i::count])) for i in range(1, count)]
    try:
        chunks = [_render_all(jobs[0::count])] + [child.result() for child in children]
    finally:
        for child in children:
            child.stop()
    return [chunks[i % count][i // count] for i in range(len(jobs))]


def _serve(conn: Connection, cores: int) -> None:
    """The renderer process: import WeasyPrint (the slow part of a first render) while the
    parent plans its pages, then render the pages it is sent, over ``cores`` processes forked
    from here (WeasyPrint loaded once), and reply with them or with the error."""
    _quiet_signals()
    import_weasyprint()
    try:
        jobs = conn.recv()
    except EOFError:  # the parent is gone
        return
    if jobs is None:
        return
    conn.send(_attempt(_render_spread, jobs, cores))


def prose_workers() -> int:
    """Processes that render prose pages while the form pages are drawn: one per core, up
    to four (a kit has a handful of prose pages). None in a process that has WeasyPrint
    loaded already: it renders faster itself, with its caches warm."""
    if "weasyprint" in sys.modules:
        return 0
    return min(os.cpu_count() or 1, 4)


class Renderer:
    """A process forked at once, so that it loads WeasyPrint while the caller plans its
    pages; ``start`` sends it the pages missing from the cache, which it renders over
    ``cores`` processes. A context manager: the process is stopped on the way out, or as
    soon as ``stop`` is called (a warm cache never needs it)."""

    def __init__(self, cores: int = 0) -> None:
        self.child = _Child(_serve, cores) if cores > 0 and _can_fork() else None

    def __enter__(self) -> Renderer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop the process (if any): no page will be sent to it."""
        if self.child is not None:
            self.child.stop()
            self.child = None


class Pending:
    """Prose pages on their way: the cached ones read, the missing ones rendering in the
    renderer process (or, without one, rendered by ``result``) while the caller draws its
    form pages."""

    def __init__(self, done: dict[str, Rendered], missing: dict[str, ProseJob],
                 store: RenderCache | None, renderer: Renderer | None) -> None:
        self._done, self._missing, self._store = done, missing, store
        self._child = renderer.child if renderer is not None and missing else None
        if self._child is not None:
            self._child.conn.send(list(missing.values()))

    def result(self) -> dict[str, Rendered]:
        """Every page by job key; the new ones stored in the cache."""
        if self._missing:
            jobs = list(self._missing.values())
            pages = self._child.result() if self._child is not None else _render_all(jobs)
            for key, page in zip(self._missing, pages, strict=True):
                self._done[key] = page
                if self._store is not None:
                    self._store.put(key, page.pack())
            if self._store is not None:
                self._store.evict()
            self._missing = {}
        return self._done


def start(jobs: Sequence[ProseJob], store: RenderCache | None,
          renderer: Renderer | None = None) -> Pending:
    """Begin rendering: pages found in ``store`` are read now; the others go to the
    ``renderer`` (none: rendered here when the result is asked for)."""
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
    return Pending(done, missing, store, renderer)


def render(jobs: Sequence[ProseJob], store: RenderCache | None) -> dict[str, Rendered]:
    """Single-page PDFs by job key, from ``store`` when there, else rendered here (and
    stored)."""
    return start(jobs, store).result()
