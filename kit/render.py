"""Rendering and files: page plan -> HTML (Jinja2) -> PDF (WeasyPrint), written atomically.

This is the one module that touches templates, fonts and the output folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlparse

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from . import __version__
from .config import KitConfig
from .errors import LayoutError
from .paper import FOOTER_MM, HEADER_MM, MARGIN_MM, paper
from .plan import Document, KitPlan
from .resources import asset_root, fonts_dir, templates_dir

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


def render_html(plan: KitPlan, document: Document, config: KitConfig) -> str:
    """One self-contained HTML file: CSS inline, fonts beside it in ``fonts/``."""
    sheet = paper(config.paper)
    env = environment()
    css = "\n".join(env.get_template(name).render(paper=sheet)
                    for name in ("print.css", *plan.styles))
    return env.get_template("document.html").render(
        plan=plan, document=document, config=config, paper=sheet, css=css,
        author=AUTHOR, version=__version__,
    )


class AssetFetcher:
    """Lets WeasyPrint read our fonts and templates and nothing else: no network, no other file."""

    def __init__(self) -> None:
        from weasyprint.urls import URLFetcher

        class _Fetcher(URLFetcher):
            def fetch(inner, url: str, headers: object = None):  # noqa: N805 - closure over self
                parsed = urlparse(url)
                root = asset_root()
                if parsed.scheme == "file":
                    target = Path(unquote(parsed.path)).resolve()
                    if target.is_relative_to(root):
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
class KitFiles:
    """The bytes of one kit folder, keyed by path inside the folder."""

    folder: str
    files: dict[str, bytes]


def build_files(config: KitConfig) -> KitFiles:
    """config -> plan -> HTML -> PDF; nothing is written to disk."""
    from .registry import game_spec

    plan = game_spec(config.game).plan(config)
    files: dict[str, bytes] = {}
    for document in plan.documents:
        html = render_html(plan, document, config)
        files[f"{document.stem}.html"] = html.encode("utf-8")
        files[f"{document.stem}.pdf"] = html_to_pdf(html, [p.label for p in document.pages])
    for name in FONT_FILES + LICENCE_FILES:
        files[f"fonts/{name}"] = (fonts_dir() / name).read_bytes()
    return KitFiles(plan.folder, files)


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


def build(configs: Iterable[KitConfig]) -> list[Path]:
    """Render every kit first, then write them, so a failure leaves no partial folder."""
    kits = [(config, build_files(config)) for config in configs]
    written: list[Path] = []
    for config, kit in kits:
        written += write_folder(kit, config.out)
    return written
