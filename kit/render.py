"""Render page plans: HTML (Jinja2, forms as inline SVG) and PDF (ReportLab, prose merged in).

Both outputs come from the same ``Sheet``s: a page's chrome and form are layout-model items,
drawn by ReportLab for the PDF and written as SVG into the HTML, so the two cannot drift. A
prose page's text is HTML in both: the browser lays it out in the HTML file, WeasyPrint (via
``kit.prose`` and its cache) for the PDF, where pypdf lays it under the page's chrome.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import stat
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import jinja2
from jinja2 import (
    ChoiceLoader,
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    PrefixLoader,
    StrictUndefined,
    select_autoescape,
)
from markupsafe import Markup

from . import __version__, fonts, pdftags
from .i18n import words
from .layout import pdf as pdf_backend
from .layout import reading, svg
from .layout.chrome import ChromeText, chrome
from .layout.model import Items, Text
from .paper import Paper
from .plan import Document, Form, KitPlan, Prose
from .prose import LEAST_SCALE, ProseJob
from .resources import templates_dir

if TYPE_CHECKING:
    from pypdf import PdfWriter

AUTHOR = "number-party-kit"


class _CompiledTemplates(FileSystemBytecodeCache):
    """Jinja2's compiled templates, kept next to the render cache: compiling the templates a
    kit uses is about a tenth of a warm build (measured in the README). Compiled code is code
    this process runs, so the folder is used only while it is private: owned by this user and
    writable by nobody else (checked at every load and store, as Jinja2's own default cache
    does). A folder that fails the check, or cannot be written, is skipped, never an error."""

    def _private(self) -> bool:
        try:
            os.makedirs(self.directory, mode=0o700, exist_ok=True)
            info = os.lstat(self.directory)
        except OSError:
            return False
        return (stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()
                and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if not self._private():
            return
        try:
            super().load_bytecode(bucket)
        except (OSError, ValueError, EOFError):
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if not self._private():
            return
        with contextlib.suppress(OSError, ValueError):
            super().dump_bytecode(bucket)


class _Whitespace(TypedDict):
    trim_blocks: bool
    lstrip_blocks: bool
    keep_trailing_newline: bool


# what the compiled code depends on besides a template's own text
_ENVIRONMENT: _Whitespace = {"trim_blocks": True, "lstrip_blocks": True,
                             "keep_trailing_newline": True}


def _compiled_templates() -> _CompiledTemplates:
    """The compiled-template folder, keyed by everything that decides the compiled code: the
    Jinja2 and Python versions, this program's version and the source of this module (which
    sets autoescape, the extensions and the options)."""
    from .cache import default_folder, digest

    setup = digest([jinja2.__version__, sys.version, __version__, repr(sorted(
        _ENVIRONMENT.items())), "i18n newstyle", Path(__file__).read_text(encoding="utf-8")])
    return _CompiledTemplates(str(default_folder() / f"templates-{setup[:16]}"))


@cache
def environment(lang: str = "en") -> Environment:
    """Shared templates by their own name; a game's as "<package>/<file>" (its templates/).

    Templates speak ``lang``: Jinja2's i18n extension with the language's catalog (``_``,
    ``ngettext``, ``pgettext`` and ``{% trans %}``), and ``w`` for its formats.
    """
    from .registry import GAMES

    games = {g.package: FileSystemLoader(str(g.templates)) for g in GAMES.values() if g.templates}
    env = Environment(
        loader=ChoiceLoader([FileSystemLoader(str(templates_dir())), PrefixLoader(games)]),
        autoescape=select_autoescape(["html", "css"], default_for_string=True),
        undefined=StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        bytecode_cache=_compiled_templates(),
        **_ENVIRONMENT,
    )
    env.policies["ext.i18n.trimmed"] = True  # as babel.cfg extracts them
    # the i18n extension adds this method when the environment is made; Jinja2's types cannot
    # say so
    env.install_gettext_translations(  # type: ignore[attr-defined]
        words(lang).translations, newstyle=True)
    env.globals["w"] = words(lang)
    env.filters["bdi"] = fonts.bdi  # a player's name inside a sentence keeps its direction
    return env


@dataclass(frozen=True)
class Sheet:
    """A page ready to draw: paper (turned for landscape), chrome, and its body."""

    label: str
    audience: str
    landscape: bool
    paper: Paper
    chrome: Items
    form: Items = ()
    prose: Prose | None = None
    bookmark: str | None = None  # the PDF outline entry opening at this page
    anchor: str | None = None  # the id of this page's section in the HTML


def sheets(document: Document, sheet: Paper, words: ChromeText) -> list[Sheet]:
    """Every page of ``document`` with its chrome: numbered, headed, stamped."""
    total = len(document.pages)
    out = []
    for number, page in enumerate(document.pages, start=1):
        oriented = sheet.oriented(page.landscape)
        player = page.audience == "player"
        out.append(Sheet(
            page.label, page.audience, page.landscape, oriented,
            chrome(oriented, words, page.label, number, total, player,
                   document.one_sided and number == 1),
            page.body.items if isinstance(page.body, Form) else (),
            page.body if isinstance(page.body, Prose) else None, page.bookmark, page.anchor))
    return out


def stylesheet(plan: KitPlan, sheet: Paper, faces: Sequence[fonts.Face]) -> str:
    """print.css (and the game's styles) for ``faces``, the fonts the document uses."""
    env = environment()
    families = list(dict.fromkeys(face.family for face in faces))
    return "\n".join(env.get_template(name).render(paper=sheet, body=sheet.body, faces=faces,
                                                   families=families)
                     for name in ("print.css", *plan.styles))


def prose_sections(plan: KitPlan, pages: Sequence[Sheet]) -> dict[int, str]:
    """WeasyPrint's copy of each prose page's ``<section>``, by page index."""
    return {i: _section(plan, sheet, for_pdf=True) for i, sheet in enumerate(pages)
            if sheet.prose is not None}


def faces_used(plan: KitPlan, pages: Sequence[Sheet],
               sections: Mapping[int, str] | None = None) -> tuple[fonts.Face, ...]:
    """The faces a document needs: those its drawn text runs use, those its prose's words
    need (the language, a name), and the base faces."""
    keys = {item.face for sheet in pages for layer in (sheet.form, sheet.chrome)
            for item in layer if isinstance(item, Text)}
    for section in (prose_sections(plan, pages) if sections is None else sections).values():
        keys |= fonts.faces_in(section)
    return fonts.kit_faces(keys)


def _section(plan: KitPlan, sheet: Sheet, for_pdf: bool, index: int = 0) -> str:
    counter = itertools.count(1)

    def end_mark() -> Markup:
        # WeasyPrint reports where each mark lands (``Page.anchors``): the fit check reads it.
        if not for_pdf:
            return Markup("")
        return Markup(f'<span class="end-mark" id="end-mark-{next(counter)}"></span>')


    markup = Markup("") if for_pdf else Markup(svg.render(
        sheet.paper.width_mm, sheet.paper.height_mm, sheet.form, sheet.chrome)
        + reading.alternative(sheet.form, sheet.label))
    # Where a prose page's shrink-to-fit goes (``kit.prose.fit_style``): WeasyPrint's copy
    # carries a bare mark (the page's key must not depend on where it sits), the HTML's names
    # its page, so the build can give each page the scale its PDF needed.
    fit = Markup("data-fit") if for_pdf else Markup(f'data-fit="p{index}"')
    # the anchor only in the HTML: WeasyPrint's copy stays the same wherever the page sits
    view = {"label": sheet.label, "audience": sheet.audience, "landscape": sheet.landscape,
            "svg": markup, "prose": sheet.prose, "fit": fit,
            "anchor": None if for_pdf else sheet.anchor}
    return environment(plan.lang).get_template("_page.html").render(
        sheet=view, plan=plan, end_mark=end_mark)


def html_document(plan: KitPlan, title: str, pages: Sequence[Sheet], base: Paper,
                  faces: Sequence[fonts.Face]) -> str:
    """One self-contained HTML file: CSS inline, fonts beside it in ``fonts/``."""
    body = "".join(_section(plan, sheet, False, index) for index, sheet in enumerate(pages))
    env = environment()
    return env.get_template("document.html").render(
        title=title, lang=plan.lang, css=Markup(stylesheet(plan, base, faces)), author=AUTHOR,
        version=__version__, body=Markup(body))


def prose_jobs(plan: KitPlan, pages: Sequence[Sheet], base: Paper,
               faces: Sequence[fonts.Face], sections: Mapping[int, str] | None = None
               ) -> dict[int, ProseJob]:
    """The WeasyPrint work of a document: its prose pages, by page index."""
    css = stylesheet(plan, base, faces)
    sections = prose_sections(plan, pages) if sections is None else sections
    least = 1.0 if plan.large_print else LEAST_SCALE
    return {i: ProseJob(css, section, pages[i].label, pages[i].paper.body, least, plan.lang)
            for i, section in sections.items()}


def draw(pages: Sequence[Sheet], title: str, lang: str = "en") -> bytes:
    """Every page drawn by ReportLab: form pages whole, prose pages their chrome only."""
    return pdf_backend.draw(
        [pdf_backend.PdfPage(s.paper.width_mm, s.paper.height_mm, s.chrome, s.form)
         for s in pages], title, lang)


def assemble(drawn: bytes, prose: Mapping[int, bytes]) -> PdfWriter:
    """The drawn pages with the prose pages completed: a ``PdfWriter`` that files are cut
    from.

    A prose page is WeasyPrint's page with its drawn chrome laid on top: the chrome is the
    small stream, so it is the one pypdf merges (merging parses the merged page's content).
    The chrome of a prose page is marked as an artifact, a drawn page's content as the one
    element the file's structure tree gives it (``kit.pdftags``).
    """
    # pypdf is imported here, not at the top: a build imports it while prose pages render
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, NameObject

    writer = PdfWriter(clone_from=io.BytesIO(drawn))
    for index, page in enumerate(writer.pages):
        (pdftags.mark_artifact if index in prose else pdftags.mark_drawn)(page)
    for index, data in sorted(prose.items()):
        page = writer.insert_page(pdftags.reader(data).pages[0], index)
        # Copies of one page share their content stream (fonts too, which is what we want):
        # give this copy a stream of its own before its chrome is merged into it.
        own = page.get_contents()
        page[NameObject("/Contents")] = ArrayObject()
        page.replace_contents(own)
        page.merge_page(writer.pages[index + 1])
        page.compress_content_streams()
        # pypdf types ``pages`` as a Sequence; a writer's supports ``del`` (pypdf's docs)
        del writer.pages[index + 1]  # type: ignore[attr-defined]
    return writer


def _finish(writer: PdfWriter, title: str, lang: str, marks: Sequence[tuple[int, str]] = (),
            one_sided: bool = False, prose: Sequence[bytes | None] = ()) -> bytes:
    from pypdf.generic import BooleanObject, NameObject, TextStringObject

    pdf_backend.outline(writer, marks)
    pdftags.tag(writer, list(prose) or [None] * len(writer.pages))

    writer.add_metadata({"/Title": title, "/Author": AUTHOR, "/Subject": title,
                         "/Creator": f"{AUTHOR} {__version__}", "/Producer": AUTHOR})
    # pypdf makes its viewer preferences' properties at run time: its types see a property
    preferences = writer.create_viewer_preferences()
    preferences.print_scaling = NameObject("/None")  # type: ignore[assignment]
    # a screen reader announces the file by its title, not its file name
    preferences[NameObject("/DisplayDocTitle")] = BooleanObject(True)
    if one_sided:  # the print dialog starts one-sided: its pages are cut apart
        preferences.duplex = NameObject("/Simplex")  # type: ignore[assignment]
    writer.root_object[NameObject("/Lang")] = TextStringObject(lang)
    writer.pdf_header = "%PDF-1.7"
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def cut(source: PdfWriter, indices: Sequence[int], title: str, lang: str = "en",
        marks: Sequence[tuple[int, str]] = (), one_sided: bool = False,
        prose: Mapping[int, bytes] | None = None) -> bytes:
    """One PDF file of pages ``indices`` of an assembled writer: version 1.7, fonts embedded,
    metadata set, viewers asked to print at actual size, tagged; the same pages give the same
    bytes. ``marks``: (page index in this file, title) of its outline entries; ``one_sided``:
    the print dialog is asked to print one side only (/Duplex /Simplex); ``prose``:
    WeasyPrint's PDF of each prose page of the source (by page index), whose tags it keeps."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    for index in indices:
        writer.add_page(source.pages[index])
    return _finish(writer, title, lang, marks, one_sided,
                   [(prose or {}).get(index) for index in indices])


def whole(source: PdfWriter, title: str, lang: str = "en", marks: Sequence[tuple[int, str]] = (),
          one_sided: bool = False, prose: Mapping[int, bytes] | None = None) -> bytes:
    """Every page of an assembled writer as one file (after its cuts: it is changed here)."""
    return _finish(source, title, lang, marks, one_sided,
                   [(prose or {}).get(index) for index in range(len(source.pages))])


def marks_of(pages: Sequence[Sheet], indices: Sequence[int] | None = None
             ) -> list[tuple[int, str]]:
    """The outline entries of a file made of ``pages`` (or of those at ``indices``, in that
    order): (page index in the file, title)."""
    chosen = range(len(pages)) if indices is None else indices
    return [(n, mark) for n, i in enumerate(chosen) if (mark := pages[i].bookmark)]
