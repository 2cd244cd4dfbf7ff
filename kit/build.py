"""The build pipeline: validated configs -> page plans -> sheets -> HTML and PDF bytes.

Every kit of a build is planned first; the prose pages of all of them render in one pass
(through the persistent cache, in worker processes when asked) while the form pages are drawn;
then each PDF is completed and every folder is written, all or nothing (``kit.output``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from . import __version__, seating
from .cache import RenderCache, digest
from .config import seat
from .fonts import Face, isolate, licence_of
from .game import GameSpec, KitConfig
from .layout.chrome import ChromeText, chrome_text
from .output import KitFiles, write_kits
from .paper import Paper, paper
from .pdftags import parsing
from .plan import Document, Form, KitPlan, Page, in_large_print
from .prose import ProseJob, Rendered, Renderer, fit_style
from .prose import render as render_prose
from .prose import start as start_prose
from .registry import game_spec
from .render import (
    Sheet,
    assemble,
    cut,
    draw,
    faces_used,
    html_document,
    marks_of,
    prose_jobs,
    prose_sections,
    sheets,
    whole,
)
from .resources import fonts_dir

Progress = Callable[[int, int], None]


@dataclass
class Drawing:
    """Pages drawn together once: one PDF file is all of them (``whole``), others are cuts."""

    base: Paper
    sheets: list[Sheet] = field(default_factory=list)
    prose: dict[int, ProseJob] = field(default_factory=dict)
    whole: tuple[str, str, bool] | None = None  # (file name, title, one-sided)
    # file name: (title, page indices, one-sided)
    cuts: dict[str, tuple[str, list[int], bool]] = field(default_factory=dict)

    def add(self, pages: Sequence[Sheet], jobs: dict[int, ProseJob]) -> list[int]:
        """Append pages and their prose jobs (by page index); returns their indices."""
        start = len(self.sheets)
        self.sheets += pages
        self.prose.update({start + i: job for i, job in jobs.items()})
        return list(range(start, start + len(pages)))


@dataclass
class KitRecipe:
    """A kit folder before its PDFs exist: HTML and fonts are bytes already; the PDFs are
    drawings of sheets (each page drawn once, even when two files show it)."""

    config: KitConfig
    folder: str
    files: dict[str, bytes] = field(default_factory=dict)
    drawings: list[Drawing] = field(default_factory=list)
    # each HTML file's prose pages (page index: job), to give them the scale their PDF needed
    fits: dict[str, dict[int, ProseJob]] = field(default_factory=dict)

    def jobs(self) -> list[ProseJob]:
        return [job for drawing in self.drawings for job in drawing.prose.values()]


def font_files(faces: Iterable[Face]) -> dict[str, bytes]:
    """The font files (and their licences) the kit's HTML needs beside it, in ``fonts/``."""
    names = {face.file for face in faces} | {licence_of(face) for face in faces}
    return {f"fonts/{name}": (fonts_dir() / name).read_bytes() for name in sorted(names)}


def event_text(config: KitConfig, title: str = "") -> str:
    """The host's title (or the plan's, ``title``) and date for the header, each isolated
    (either may be right to left)."""
    return " · ".join(isolate(part) for part in (config.title or title, config.date) if part)


def html_title(document: Document, config: KitConfig, table: str = "", title: str = "") -> str:
    parts = [document.title, table, config.title or title]
    return " · ".join(part for part in parts if part)


def add_document(recipe: KitRecipe, plan: KitPlan, document: Document, config: KitConfig,
                 stem: str, words: ChromeText, shared: Drawing | None = None) -> None:
    """One document's HTML, and its PDF: a drawing of its own, or a cut of ``shared``."""
    base = paper(config.paper)
    pages = sheets(document, base, words)
    title = html_title(document, config, words.table, plan.title)
    sections = prose_sections(plan, pages)
    faces = faces_used(plan, pages, sections)
    recipe.files[f"{stem}.html"] = html_document(plan, title, pages, base, faces).encode(
        "utf-8")
    recipe.files.update(font_files(faces))
    jobs = prose_jobs(plan, pages, base, faces, sections)
    recipe.fits[f"{stem}.html"] = jobs
    if shared is None:
        drawing = Drawing(base, whole=(f"{stem}.pdf", title, document.one_sided))
        drawing.add(pages, jobs)
        recipe.drawings.append(drawing)
    else:
        shared.cuts[f"{stem}.pdf"] = (title, shared.add(pages, jobs), document.one_sided)


def plan_recipe(plan: KitPlan, config: KitConfig, folder: str | None = None) -> KitRecipe:
    """A one-table kit: each document of the plan as HTML and PDF."""
    recipe = KitRecipe(config, folder or plan.folder, {})
    words = chrome_text(config.words, plan.game_title, plan.banner,
                        event_text(config, plan.title), host=plan.host_notice)
    for document in plan.documents:
        add_document(recipe, plan, document, config, document.stem, words)
    return recipe


def seating_document(config: KitConfig, tables: Sequence[KitConfig], host: Document
                     ) -> Document:
    """The host file of a split party: the seating list first, then the usual host pages."""
    body = paper(config.paper).body
    words = config.words
    seated = [(t.table_label, list(t.names) or [words.ngettext(
        "%(num)s player, names on their slips", "%(num)s players, names on their slips",
        t.players)]) for t in tables]
    chunks = seating.paginate(body, seated, config.players, words)
    pages = tuple(
        Page(words.gettext("Seating %(page)s of %(pages)s", page=i, pages=len(chunks))
             if len(chunks) > 1 else words.gettext("Seating"),
             Form(tuple(seating.seating_page(body, chunk, config.players, len(tables), words))),
             audience="host")
        for i, chunk in enumerate(chunks, start=1))
    return Document(host.stem, host.title, pages + host.pages, host.one_sided)


def planned(spec: GameSpec, config: KitConfig) -> KitPlan:
    """The game's plan of a kit, in large print when the config asks for it."""
    plan = spec.plan(config)
    return in_large_print(plan) if config.large_print else plan


def plan_kit(config: KitConfig) -> KitRecipe:
    """config -> plan(s) -> sheets and HTML: everything but drawing the PDFs."""
    spec = game_spec(config.game)
    tables = seat(config)
    if len(tables) == 1:
        return plan_recipe(planned(spec, config), config)
    recipe = KitRecipe(config, config.folder_name, {})
    plans = [planned(spec, t) for t in tables]
    host_plan = plans[0]
    # Every table's player pages, drawn once: all-tables.pdf is the whole drawing, and each
    # table's own file is cut from it.
    every = Drawing(paper(config.paper), whole=("all-tables.pdf", config.words.gettext(
        "%(game)s — every table, in print order", game=host_plan.game_title), all(
            d.one_sided for d in host_plan.documents if d.audience != "host")))
    recipe.drawings.append(every)
    for table, plan in zip(tables, plans, strict=True):
        words = chrome_text(config.words, plan.game_title, plan.banner, event_text(config),
                            table.table_label)
        for document in plan.documents:
            if document.audience != "host":
                add_document(recipe, plan, document, table,
                             f"{document.stem}-table-{table.table}", words, every)
    words = chrome_text(config.words, host_plan.game_title, host_plan.banner,
                        event_text(config), host=host_plan.host_notice)
    for document in host_plan.documents:
        if document.audience == "host":
            add_document(recipe, host_plan, seating_document(config, tables, document),
                         config, document.stem, words)
    return recipe


def fitted_html(html: bytes, jobs: dict[int, ProseJob], rendered: dict[str, Rendered]
                ) -> bytes:
    """The HTML with each prose page at the scale its PDF page needed to fit."""
    text = html.decode("utf-8")
    for index, job in jobs.items():
        text = text.replace(f'data-fit="p{index}"',
                            f'data-fit="p{index}"' + fit_style(rendered[job.key].scale,
                                                               job.body), 1)
    return text.encode("utf-8")


def draw_recipe(recipe: KitRecipe) -> list[bytes]:
    """Each drawing of the kit drawn once by ReportLab (prose pages wait for their text)."""
    return [draw(drawing.sheets, recipe.folder, recipe.config.lang)
            for drawing in recipe.drawings]


def finish(recipe: KitRecipe, rendered: dict[str, Rendered], drawn: list[bytes] | None = None
           ) -> KitFiles:
    """Each drawing completed with its prose: written whole, the other files cut from it."""
    lang = recipe.config.lang
    files = dict(recipe.files)
    for name, jobs in recipe.fits.items():
        files[name] = fitted_html(files[name], jobs, rendered)
    drawn = draw_recipe(recipe) if drawn is None else drawn
    with parsing():  # each prose page parsed once for the assembly and every file's tags
        for drawing, pdf in zip(recipe.drawings, drawn, strict=True):
            prose = {i: rendered[job.key].pdf for i, job in drawing.prose.items()}
            writer = assemble(pdf, prose)
            for name, (title, indices, one_sided) in drawing.cuts.items():
                files[name] = cut(writer, indices, title, lang,
                                  marks_of(drawing.sheets, indices), one_sided, prose)
            if drawing.whole is not None:
                name, title, one_sided = drawing.whole
                files[name] = whole(writer, title, lang, marks_of(drawing.sheets), one_sided,
                                    prose)
    return KitFiles(recipe.folder, dict(sorted(files.items())))


def build_files(config: KitConfig, store: RenderCache | None = None) -> KitFiles:
    """config -> plan -> HTML -> PDF; nothing is written to disk."""
    recipe = plan_kit(config)
    return finish(recipe, render_prose(recipe.jobs(), store))


def _index_key(config: KitConfig) -> str:
    """Where the cache lists the prose pages a config needed last time."""
    text = json.dumps(asdict(replace(config, out="")), sort_keys=True, default=str)
    return digest(["prose-index", __version__, text])


def _known(store: RenderCache, config: KitConfig) -> bool:
    """The config was built before and every prose page it needed is still cached (so no
    renderer process need be started for it)."""
    index = store.get(_index_key(config))
    return index is not None and all(store.has(key) for key in index.decode().split())


def build(configs: Iterable[KitConfig], store: RenderCache | None = None,
          progress: Progress = lambda done, total: None,
          recipes: Iterable[KitRecipe] = (), renderer: Renderer | None = None,
          keep: str = "none") -> list[Path]:
    """Plan, render and draw every kit first, then write them: a failure leaves no folder.

    With a ``renderer`` (started by the caller, so that it loads WeasyPrint while the kits are
    planned), the prose pages missing from the cache render there while this process draws the
    form pages; without one, here. The renderer is stopped at once when every page is cached.
    """
    configs, given = list(configs), list(recipes)
    cached = (store is not None and all(_known(store, config) for config in configs)
              and all(store.has(job.key) for recipe in given for job in recipe.jobs()))
    if cached and renderer is not None:
        renderer.stop()
    recipes = [plan_kit(config) for config in configs] + given
    total = 2 * len(recipes) + 1
    progress(0, total)
    pending = start_prose([job for recipe in recipes for job in recipe.jobs()], store, renderer)
    drawn = []
    for n, recipe in enumerate(recipes, start=1):
        drawn.append(draw_recipe(recipe))
        progress(n, total)
    rendered = pending.result()
    if store is not None:
        for config, recipe in zip(configs, recipes, strict=False):
            store.put(_index_key(config), "\n".join(j.key for j in recipe.jobs()).encode())
    progress(len(recipes) + 1, total)
    kits = []
    for n, (recipe, pdfs) in enumerate(zip(recipes, drawn, strict=True), start=len(recipes) + 2):
        kits.append((Path(recipe.config.out), finish(recipe, rendered, pdfs)))
        progress(n, total)
    return write_kits(kits, keep)  # keep: see ``kit.output.write_kits``


__all__ = ["KitRecipe", "build", "build_files", "plan_kit", "plan_recipe"]
