"""Rendering and files: page plan -> HTML (Jinja2) -> PDF (WeasyPrint), written atomically.

This is the one module that touches templates, fonts and the output folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlparse

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from . import __version__
from .config import KitConfig
from .errors import LayoutError
from .paper import FOOTER_MM, HEADER_MM, MARGIN_MM, paper
from .plan import Document, KitPlan, Page
from .resources import asset_root, fonts_dir, templates_dir
from .tables import seating_pages

AUTHOR = "number-party-kit"
FONT_FILES = (
    "AtkinsonHyperlegible-Regular.ttf",
    "AtkinsonHyperlegible-Bold.ttf",
    "AtkinsonHyperlegible-Italic.ttf",
    "KitSymbols-Regular.ttf",
)
LICENCE_FILES = ("AtkinsonHyperlegible-OFL.txt", "KitSymbols-LICENSE.txt")


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        autoescape=select_autoescape(["html", "css"], default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(margin_mm=MARGIN_MM, header_mm=HEADER_MM, footer_mm=FOOTER_MM)
    return env


def render_html(plan: KitPlan, document: Document, config: KitConfig,
                table_label: str = "", page_numbers: Sequence[int] | None = None,
                total_pages: int | None = None, layer: str = "all") -> str:
    """One self-contained HTML file: CSS inline, fonts beside it in ``fonts/``.

    ``page_numbers`` and ``total_pages`` number the pages when ``document`` holds some pages of
    a longer one; ``layer`` ("all", "body" or "chrome") selects what is drawn (see ``_layers``).
    """
    sheet = paper(config.paper)
    env = environment()
    css = "\n".join(env.get_template(name).render(paper=sheet)
                    for name in ("print.css", *plan.styles))
    return env.get_template("document.html").render(
        plan=plan, document=document, config=config, paper=sheet, css=css,
        author=AUTHOR, version=__version__, table_label=table_label, layer=layer,
        page_numbers=list(page_numbers or range(1, len(document.pages) + 1)),
        total_pages=len(document.pages) if total_pages is None else total_pages,
    )


class AssetFetcher:
    """Lets WeasyPrint read our fonts and templates and nothing else: no network, no other file."""

    def __init__(self) -> None:
        from weasyprint.urls import URLFetcher

        class _Fetcher(URLFetcher):
            def fetch(inner, url: str, headers: object = None):  # noqa: N805 - closure over self
                parsed = urlparse(url)
                if parsed.scheme == "file" and parsed.netloc in ("", "localhost"):
                    target = Path(unquote(parsed.path)).resolve()  # no ../ or symlink escapes
                    if any(target.is_relative_to(d) for d in (templates_dir(), fonts_dir())):
                        return super().fetch(url, headers)
                self.refused.append(url)
                raise ValueError(f"refused to fetch {url}: only the kit's own assets are read")

        self.refused: list[str] = []
        self.fetcher = _Fetcher()


def _viewer_preferences(document: object, pdf: object) -> None:
    """Ask viewers to print at actual size (100%), merged into WeasyPrint's catalog."""
    import pydyf

    prefs = pdf.catalog.get("ViewerPreferences") or pydyf.Dictionary()  # type: ignore[attr-defined]
    prefs["PrintScaling"] = "/None"
    pdf.catalog["ViewerPreferences"] = prefs  # type: ignore[attr-defined]


def _boxes(box: object):
    """Every layout box below ``box``, looking inside absolutely placed ones too."""
    inner = getattr(box, "_box", None)  # WeasyPrint wraps absolute boxes in a placeholder
    if inner is not None:
        box = inner
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def check_fit(document: object, labels: list[str]) -> None:
    """Raise ``LayoutError`` if content runs past the bottom of a page's body block.

    Page blocks have a fixed size, so overflow would be cut off silently on paper.
    """
    for number, page in enumerate(document.pages, start=1):  # type: ignore[attr-defined]
        for box in _boxes(page._page_box):
            element = getattr(box, "element", None)
            if element is None or "page-body" not in (element.get("class") or "").split():
                continue
            limit = box.content_box_y() + box.height
            lowest = max((b.position_y + b.margin_height() for b in _boxes(box)
                          if b is not box), default=limit)
            if lowest > limit + 0.5:
                over_mm = (lowest - limit) * 25.4 / 96
                label = labels[number - 1] if number <= len(labels) else "?"
                raise LayoutError("layout", f"page {number} ({label}) runs {over_mm:.1f} mm past "
                                  "its printable area")
            break


def html_to_pdf(html: str, labels: list[str] | None = None) -> bytes:
    """Render our HTML with the bundled fonts only, at 100% scale."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    fetcher = AssetFetcher()
    font_config = FontConfiguration()
    document = HTML(
        string=html, base_url=asset_root().as_uri() + "/", url_fetcher=fetcher.fetcher
    ).render(font_config=font_config)
    if labels is not None:
        if len(document.pages) != len(labels):
            raise LayoutError("layout", f"{len(labels)} pages planned but "
                              f"{len(document.pages)} rendered")
        check_fit(document, labels)
    return document.write_pdf(finisher=_viewer_preferences, pdf_identifier=b"number-party-kit")


@dataclass(frozen=True)
class RenderJob:
    """One WeasyPrint render: the HTML and the label of every page it must produce."""

    html: str
    labels: tuple[str, ...]


Layer = tuple[RenderJob, int]  # page ``int`` of a render job's PDF


@dataclass(frozen=True)
class Stacked:
    """A PDF put together from rendered pages, each drawn as layers (see ``kit.pdf.stack``)."""

    title: str
    pages: tuple[tuple[Layer, ...], ...]


Part = bytes | Stacked


@dataclass(frozen=True)
class KitFiles:
    """The bytes of one kit folder, keyed by path inside the folder."""

    folder: str
    files: dict[str, bytes]


@dataclass(frozen=True)
class KitRecipe:
    """A kit folder before rendering: each file is bytes already, or a stack of rendered pages."""

    config: KitConfig
    folder: str
    parts: dict[str, Part]

    def jobs(self) -> list[RenderJob]:
        return [job for part in self.parts.values() if isinstance(part, Stacked)
                for layers in part.pages for job, _ in layers]


SLICE_PAGES = 4  # fixed, so the output never depends on how many cores rendered it
CHROME_SLICE_PAGES = 16  # headers and footers are quick to lay out


def _layers(plan: KitPlan, document: Document, config: KitConfig) -> list[tuple[Layer, ...]]:
    """Render jobs for a document's PDF, as (chrome, body) layers for each page.

    A page body (everything but header, footer and folio) is rendered once however often it
    recurs, e.g. identical pages of blank slips, or the pages of identical tables.
    """
    def body_of(page: Page) -> str:
        return render_html(plan, replace(document, pages=(page,)), config, layer="body")

    bodies: dict[str, Page] = {}
    keys = []
    for page in document.pages:
        key = body_of(page)
        bodies.setdefault(key, page)
        keys.append(key)
    where: dict[str, Layer] = {}
    unique = list(bodies.items())
    for start in range(0, len(unique), SLICE_PAGES):
        chunk = unique[start:start + SLICE_PAGES]
        pages = tuple(page for _, page in chunk)
        job = RenderJob(render_html(plan, replace(document, pages=pages), config, layer="body"),
                        tuple(p.label for p in pages))
        for i, (key, _) in enumerate(chunk):
            where[key] = (job, i)
    chrome: list[Layer] = []
    total = len(document.pages)
    for start in range(0, total, CHROME_SLICE_PAGES):
        pages = document.pages[start:start + CHROME_SLICE_PAGES]
        html = render_html(plan, replace(document, pages=pages), config, layer="chrome",
                           page_numbers=range(start + 1, start + len(pages) + 1),
                           total_pages=total)
        job = RenderJob(html, tuple(p.label for p in pages))
        chrome += [(job, i) for i in range(len(pages))]
    return [(chrome[n], where[key]) for n, key in enumerate(keys)]


def _stacked(title: str, layers: list[tuple[Layer, ...]], stamps: RenderJob | None = None,
             stamp_index: Callable[[int], int] = lambda page: 0) -> Stacked:
    """A stacked PDF of these page layers, each page topped by its stamp when there are stamps."""
    if stamps is None:
        return Stacked(title, tuple(layers))
    return Stacked(title, tuple((*page, (stamps, stamp_index(n)))
                                for n, page in enumerate(layers)))


def _static_files() -> dict[str, Part]:
    return {f"fonts/{name}": (fonts_dir() / name).read_bytes()
            for name in FONT_FILES + LICENCE_FILES}


def stamp_job(config: KitConfig, labels: list[str], sides: tuple[bool, ...]) -> RenderJob:
    """A page per label and orientation in ``sides`` (False: portrait) holding only the label."""
    sheet = paper(config.paper)
    env = environment()
    css = env.get_template("print.css").render(paper=sheet)
    html = env.get_template("stamps.html").render(labels=labels, css=css, paper=sheet,
                                                  sides=sides)
    return RenderJob(html, tuple(f"{label} ({'landscape' if side else 'portrait'})"
                                 for label in labels for side in sides))


def plan_recipe(plan: KitPlan, config: KitConfig) -> KitRecipe:
    """Any page plan -> its folder: each document as HTML and as a PDF rendered in slices."""
    parts = _static_files()
    for document in plan.documents:
        parts[f"{document.stem}.html"] = render_html(plan, document, config).encode("utf-8")
        parts[f"{document.stem}.pdf"] = _stacked(document.title, _layers(plan, document, config))
    return KitRecipe(config, plan.folder, parts)


def plan_kit(config: KitConfig) -> KitRecipe:
    """config -> plan -> HTML: everything but the PDF rendering itself."""
    from .config import seat
    from .registry import game_spec

    spec = game_spec(config.game)
    parts = _static_files()
    tables = seat(config)
    if len(tables) == 1:
        return plan_recipe(spec.plan(config), config)

    # A split party: per-table player files, one host file, and one print file of every table.
    everything: list[tuple[Layer, ...]] = []
    plans = [spec.plan(t) for t in tables]
    sides = tuple(sorted({page.landscape for plan in plans for document in plan.documents
                          for page in document.pages if document.audience == "player"}))
    stamps = stamp_job(config, [t.table_label for t in tables], sides)
    for table, plan in zip(tables, plans, strict=True):
        for document in plan.documents:
            if document.audience == "host":
                continue
            with_label = render_html(plan, document, table, table_label=table.table_label)
            parts[f"{document.stem}-table-{table.table}.html"] = with_label.encode("utf-8")
            # Rendered without the label, so identical tables share the same render jobs.
            stacked = _stacked(
                f"{document.title} — {table.table_label}", _layers(plan, document, table), stamps,
                lambda page, t=table, d=document: len(sides) * (t.table - 1)
                + sides.index(d.pages[page].landscape))
            parts[f"{document.stem}-table-{table.table}.pdf"] = stacked
            everything += stacked.pages
    parts["all-tables.pdf"] = Stacked(f"{plans[0].game_title} — every table, in print order",
                                      tuple(everything))
    host_plan = plans[0]
    for document in host_plan.documents:
        if document.audience != "host":
            continue
        seated = [(t.table_label, list(t.names) or [f"{t.players} players, names on their slips"])
                  for t in tables]
        chunks = seating_pages(seated)
        seating = tuple(
            Page("seating.html", f"Seating {i} of {len(chunks)}" if len(chunks) > 1 else "Seating",
                 {"tables": chunk, "table_count": len(tables), "players": config.players},
                 audience="host")
            for i, chunk in enumerate(chunks, start=1))
        party_doc = Document(document.stem, document.title, (*seating, *document.pages))
        parts[f"{document.stem}.html"] = render_html(host_plan, party_doc, config).encode("utf-8")
        parts[f"{document.stem}.pdf"] = _stacked(document.title,
                                                 _layers(host_plan, party_doc, config))
    return KitRecipe(config, config.folder_name, parts)


def _render(job: RenderJob) -> bytes:
    return html_to_pdf(job.html, list(job.labels))


def render_all(
    jobs: list[RenderJob], workers: int = 1,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> dict[RenderJob, bytes]:
    """Render each distinct job once; with ``workers`` > 1, on that many processes."""
    unique = list(dict.fromkeys(jobs))
    done: dict[RenderJob, bytes] = {}
    # Forking a process that runs other threads (a server, a test harness) can deadlock the
    # child on a lock held by another thread, so such callers render in-process.
    if workers <= 1 or len(unique) <= 1 or threading.active_count() > 1:
        for job in unique:
            done[job] = _render(job)
            progress(len(done), len(unique))
        return done
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    # Biggest first, so the long renders start at once and the small ones fill in.
    ordered = sorted(unique, key=lambda j: -len(j.labels))
    context = multiprocessing.get_context("fork")  # children inherit the loaded WeasyPrint
    with ProcessPoolExecutor(min(workers, len(ordered)), mp_context=context) as pool:
        futures = {pool.submit(_render, job): job for job in ordered}
        for future in as_completed(futures):
            done[futures[future]] = future.result()
            progress(len(done), len(unique))
    return {job: done[job] for job in unique}


def finish(recipe: KitRecipe, rendered: dict[RenderJob, bytes]) -> KitFiles:
    """Fill a recipe's files from rendered PDFs."""
    from .pdf import PageRef, stack

    files: dict[str, bytes] = {}
    readers: dict[bytes, object] = {}  # each rendered PDF is parsed once for all stacks
    for name, part in recipe.parts.items():
        if isinstance(part, bytes):
            files[name] = part
        else:
            jobs = list(dict.fromkeys(job for layers in part.pages for job, _ in layers))
            keys = {job: f"r{i}" for i, job in enumerate(jobs)}
            refs = [PageRef(tuple((keys[job], i) for job, i in layers)) for layers in part.pages]
            files[name] = stack({keys[j]: rendered[j] for j in jobs}, refs, part.title,
                                readers)  # type: ignore[arg-type]
    return KitFiles(recipe.folder, files)


def build_files(config: KitConfig, workers: int = 1) -> KitFiles:
    """config -> plan -> HTML -> PDF; nothing is written to disk."""
    recipe = plan_kit(config)
    return finish(recipe, render_all(recipe.jobs(), workers))


def write_folder(kit: KitFiles, out_dir: str | Path) -> list[Path]:
    """Write a kit folder all at once: into a temporary folder, then renamed into place."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    final = out / kit.folder
    staging = Path(tempfile.mkdtemp(prefix=f".{kit.folder}.", dir=out))
    try:
        for rel, data in sorted(kit.files.items()):
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            os.chmod(path, 0o644)
        os.chmod(staging, 0o755)
        if final.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{kit.folder}.old.", dir=out))
            final.rename(old / "kit")
            staging.rename(final)
            shutil.rmtree(old)
        else:
            staging.rename(final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return [final / rel for rel in sorted(kit.files) if not rel.startswith("fonts/")]


def build(
    configs: Iterable[KitConfig], workers: int = 1,
    progress: Callable[[int, int], None] = lambda done, total: None,
    recipes: Iterable[KitRecipe] = (),
) -> list[Path]:
    """Plan and render every kit first, then write them, so a failure leaves no partial folder.

    Renders are pooled across kits: pages shared by several tables or kits render once.
    ``recipes`` adds folders planned elsewhere (e.g. filled turn reports).
    """
    recipes = [plan_kit(config) for config in configs] + list(recipes)
    rendered = render_all([job for recipe in recipes for job in recipe.jobs()], workers, progress)
    kits = [(recipe.config, finish(recipe, rendered)) for recipe in recipes]
    written: list[Path] = []
    for config, kit in kits:
        written += write_folder(kit, config.out)
    return written
