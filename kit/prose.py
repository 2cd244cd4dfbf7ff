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
from .resources import asset_root, fonts_dir, templates_dir

PX_PER_MM = 96 / 25.4
_TEMP_LOCK = threading.Lock()


@dataclass(frozen=True)
class ProseJob:
    """One prose page to render: its stylesheet and its ``<section>`` (without chrome)."""

    css: str
    section: str
    label: str
    body_bottom_mm: float  # where the page's text must end

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


def _page_html(job: ProseJob) -> str:
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{job.css}</style>'
            f"</head><body>{job.section}</body></html>")


def _check_fit(page: object, job: ProseJob) -> None:
    """Every end mark of the page's text must lie above the bottom of its body."""
    limit = job.body_bottom_mm * PX_PER_MM
    for name, position in page.anchors.items():  # type: ignore[attr-defined]
        if name.startswith("end-mark") and position[1] > limit + 0.5:
            over = (position[1] - limit) / PX_PER_MM
            raise LayoutError("layout", f"the page “{job.label}” runs {over:.1f} mm past its "
                              "printable area")


def _render_one(job: ProseJob) -> bytes:
    """One page, on its own: its bytes depend on its key alone (a batch would share font
    subsets between pages, and a cached page would then differ from a fresh one)."""
    from weasyprint import HTML

    refused = _Refusals()
    with private_tempdir():
        document = HTML(string=_page_html(job), base_url=asset_root().as_uri() + "/",
                        url_fetcher=url_fetcher(refused)).render()
        if len(document.pages) != 1:
            raise LayoutError("layout", f"the page “{job.label}” takes "
                              f"{len(document.pages)} pages")
        _check_fit(document.pages[0], job)
        return document.write_pdf(pdf_identifier=b"number-party-kit")


def render(jobs: Sequence[ProseJob], store: RenderCache | None) -> dict[str, bytes]:
    """Single-page PDFs by job key, from ``store`` when there, else rendered (and stored)."""
    done: dict[str, bytes] = {}
    missing: dict[str, ProseJob] = {}
    for job in jobs:
        key = job.key
        if key in done or key in missing:
            continue
        cached = store.get(key) if store is not None else None
        if cached is not None and cached.startswith(b"%PDF"):
            done[key] = cached
        else:
            missing[key] = job
    for key, job in missing.items():
        try:
            done[key] = _render_one(job)
        except OSError as exc:  # WeasyPrint's temporary font files, say, on a full disk
            reason = "the disk is full" if exc.errno == errno.ENOSPC else (exc.strerror
                                                                           or str(exc))
            raise RenderError("render", f"cannot render the page “{job.label}”: {reason}"
                              ) from None
        if store is not None:
            store.put(key, done[key])
    if missing and store is not None:
        store.evict()
    return done
