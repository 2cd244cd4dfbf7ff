"""Which kits are ready-made, rendering one kit with page thumbnails, and keeping built kits.

``render_kit`` is the one function that builds a kit for the web: in memory, through the
persistent render cache (``kit.cache``: prose pages rendered once are reused by every process),
with grey PNG thumbnails of the first pages of each PDF. It runs in the render pool's worker
processes; a ``KitError`` it raises pickles, so it reaches the server as itself.

A built ready-made kit is also kept whole in the render cache (``keep_kit`` / ``load_kit``):
a zip of its files, thumbnails and document list, under a key made of the validated config,
``kit.__version__`` and a digest of the package's templates, fonts and Python sources. A
restarted server or a second ``kit site`` finds it there instead of rendering it again; any
change to the code or the assets makes a new key, so a kept kit never goes stale.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import subprocess
import tempfile
import threading
import zipfile
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

from .. import __version__
from ..cache import RenderCache, digest
from ..config import KitConfig, resolve
from ..errors import ConfigError, Msg
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import N_, Words
from ..output import KitFiles
from ..paper import PAPERS
from ..paper import paper as paper_by_name
from ..resources import fonts_dir, templates_dir

READY_MAX_PLAYERS = 12  # ready-made kits stop here even when a game allows bigger tables
THUMB_WIDTH_PX = 320  # shown at 160 CSS px: sharp on high-density screens, small in grey PNG
PREVIEW_PAGES = 40  # a custom kit's preview shows at most this many pages per document
KEPT_FORMAT = "1"  # the layout of a kept kit's zip; bump it when that layout changes

_pdfium_lock = threading.Lock()  # PDFium is not thread-safe; one render at a time per process


# --- which kits -------------------------------------------------------------------------------

def ready_configs(games: Iterable[str] | None = None, players: Iterable[int] | None = None,
                  papers: Iterable[str] | None = None,
                  langs: Iterable[str] = (DEFAULT_LANGUAGE,)) -> list[KitConfig]:
    """The ready-made kits: every registered game, each allowed count up to 12, every paper,
    in each of ``langs`` (default: English only).

    ``games``, ``players`` and ``papers`` narrow the set (for tests and quick previews); a count
    a game does not allow is skipped for that game, an unknown game, paper or language is an
    error (the CLI's, from ``resolve``).
    """
    from ..registry import GAMES, game_spec

    names = list(GAMES) if games is None else [game_spec(g).name for g in games]
    sheets = list(PAPERS) if papers is None else [paper_by_name(p).name for p in papers]
    wanted = None if players is None else set(players)
    configs = []
    for name in names:
        spec = GAMES[name]
        top = min(spec.max_players or READY_MAX_PLAYERS, READY_MAX_PLAYERS)
        for count in range(spec.min_players, top + 1):
            if wanted is not None and count not in wanted:
                continue
            configs += [resolve({"game": name, "players": count, "paper": p, "lang": lang})
                        for lang in langs for p in sheets]
    if not configs:
        raise ConfigError("players", "no ready-made kit matches --games/--players/--paper")
    return configs


def config_text(config: KitConfig) -> str:
    """The normalized config: every field, sorted keys, ASCII."""
    return json.dumps(asdict(config), sort_keys=True, ensure_ascii=True, separators=(",", ":"))


def config_key(config: KitConfig) -> str:
    """The in-memory cache key and URL part: SHA-256 of the normalized config."""
    return hashlib.sha256(config_text(config).encode("ascii")).hexdigest()[:32]


def download_name(folder: str, key: str) -> str:
    """The kit's folder name for downloads; only if it is plain (game, counts, paper), as today.

    Guards ``Content-Disposition`` and zip paths should a folder name ever carry user text.
    """
    return folder if re.fullmatch(r"[a-z0-9][a-z0-9-]{0,99}", folder) else f"kit-{key[:12]}"


# --- rendering one kit ------------------------------------------------------------------------

DOCUMENT_LABELS = {"player-kit": N_("Player kit"), "host-answers": N_("Host answers"),
                   "all-tables": N_("All tables")}
TABLE_LABELS = {"player-kit": N_("Player kit table %(table)s")}  # one table of a split party


def document_label(stem: str, words: Words | None = None) -> str:
    """'player-kit' -> 'Player kit', 'player-kit-table-2' -> 'Player kit table 2'.

    From the file name only: titles can carry the event title, which is user text. Known
    documents are in ``words``' language; another stem is shown as its file name says.
    """
    words = words or Words()
    if stem in DOCUMENT_LABELS:
        return words.gettext(DOCUMENT_LABELS[stem])
    table = re.fullmatch(r"(.+)-table-([0-9]+)", stem)
    if table and table[1] in TABLE_LABELS:
        return words.gettext(TABLE_LABELS[table[1]], table=words.number(int(table[2])))
    text = stem.replace("-", " ").replace("_", " ")
    return text[:1].upper() + text[1:]


def document_name(stem: str, words: Words | None = None) -> str:
    """The document as named inside a sentence: 'player kit', 'player kit table 2'."""
    words = words or Words()
    names = {"player-kit": words.pgettext("in a sentence", "player kit"),
             "host-answers": words.pgettext("in a sentence", "host answers"),
             "all-tables": words.pgettext("in a sentence", "all tables")}
    if stem in names:
        return names[stem]
    table = re.fullmatch(r"player-kit-table-([0-9]+)", stem)
    if table:
        return words.pgettext("in a sentence", "player kit table %(table)s",
                              table=words.number(int(table[1])))
    return document_label(stem, words).lower()


@dataclass(frozen=True)
class DocumentInfo:
    """One top-level PDF of a kit folder (``<stem>.pdf``), with its HTML twin if there is one."""

    stem: str
    pages: int
    pdf_bytes: int
    html: bool

    @property
    def label(self) -> str:
        return document_label(self.stem)


@dataclass(frozen=True)
class Rendered:
    """A built kit plus what the pages show about it: document list and page thumbnails."""

    config: KitConfig
    kit: KitFiles
    documents: tuple[DocumentInfo, ...]
    thumbs: dict[str, bytes] = field(default_factory=dict)  # "<stem>-<page>.png" -> PNG

    @property
    def nbytes(self) -> int:
        return sum(map(len, self.kit.files.values())) + sum(map(len, self.thumbs.values()))

    def thumb_names(self, stem: str) -> list[str]:
        return sorted((n for n in self.thumbs if n.rsplit("-", 1)[0] == stem),
                      key=lambda n: int(n.rsplit("-", 1)[1].removesuffix(".png")))

    @property
    def first_thumb(self) -> bytes | None:
        """The first page of the player kit (all tables, for a split party), for the index
        card; None if not drawn."""
        stems = [d.stem for d in self.documents]
        first = next((s for s in ("player-kit", "all-tables") if s in stems),
                     stems[0] if stems else "")
        names = self.thumb_names(first) if first else []
        return self.thumbs[names[0]] if names else None


def could_be_file(config: KitConfig, path: str) -> bool:
    """Whether a kit of ``config`` may have the file ``path``, from its plan alone (no render):
    ``kit.zip``, its fonts, a document's PDF or HTML or thumbnail (a split party's per-table
    and all-tables documents included)."""
    from ..fonts import FONT_FILES, LICENCE_FILES
    from ..registry import game_spec

    if path == "kit.zip" or path.removeprefix("fonts/") in FONT_FILES + LICENCE_FILES:
        return True
    stems = {d.stem for d in game_spec(config.game).plan(config).documents} | {"all-tables"}
    found = re.fullmatch(r"(thumbs/)?([a-z0-9-]+?)(-table-[0-9]+)?(\.pdf|\.html|-[0-9]+\.png)",
                         path)
    if found is None or (found[1] is None) != (found[4] in (".pdf", ".html")):
        return False
    return found[2] in stems


def kit_documents(kit: KitFiles) -> list[str]:
    """Stems of the kit's top-level PDFs, in the order the kit lists them."""
    return [name.removesuffix(".pdf") for name in kit.files
            if name.endswith(".pdf") and "/" not in name]


def render_kit(config: KitConfig, preview_pages: int = 1,
               store: RenderCache | None = None, max_pages: int | None = None) -> Rendered:
    """Build one kit in memory, with thumbnails of the first ``preview_pages`` of each PDF.

    ``max_pages``: the page budget (the web's); the planner counts the pages first, and a kit
    over it is a ``ConfigError`` before any page is drawn. Raises ``KitError`` for a kit that
    cannot be made (it pickles across the process pool).
    """
    from ..build import finish, plan_kit  # the pipeline is loaded when a kit is rendered
    from ..prose import render as render_prose

    recipe = plan_kit(config)
    pages = sum(len(drawing.sheets) for drawing in recipe.drawings)
    if max_pages is not None and pages > max_pages:
        raise ConfigError("players", Msg(N_(
            "this kit would have %(pages)s pages, and a kit made here may have at most "
            "%(max)s: choose fewer players, rounds or turns"), pages=pages, max=max_pages))
    kit = finish(recipe, render_prose(recipe.jobs(), store))
    documents = []
    thumbs: dict[str, bytes] = {}
    for stem in kit_documents(kit):
        pdf = kit.files[f"{stem}.pdf"]
        images = pdf_thumbnails(pdf, THUMB_WIDTH_PX, preview_pages)
        for number, png in enumerate(images, start=1):
            thumbs[f"{stem}-{number}.png"] = png
        documents.append(DocumentInfo(stem, pdf_page_count(pdf), len(pdf),
                                      f"{stem}.html" in kit.files))
    return Rendered(config, kit, tuple(documents), thumbs)


def pdf_page_count(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def pdf_thumbnails(pdf: bytes, width_px: int, max_pages: int = 1) -> list[bytes]:
    """Grey PNGs of the first ``max_pages`` pages, ``width_px`` wide.

    PDFium (the pip package pypdfium2, no system library needed) when installed, else poppler's
    ``pdftoppm``; with neither, no thumbnails (the pages then show text instead of a picture).
    """
    try:
        import pypdfium2
    except ImportError:
        return _pdftoppm_thumbnails(pdf, width_px, max_pages)
    pngs = []
    with _pdfium_lock:
        document = pypdfium2.PdfDocument(pdf)
        try:
            for index in range(min(max_pages, len(document))):
                page = document[index]
                scale = width_px / page.get_width()
                image = page.render(scale=scale, grayscale=True).to_pil()
                out = io.BytesIO()
                image.save(out, format="PNG", optimize=True)
                pngs.append(out.getvalue())
                page.close()
        finally:
            document.close()
    return pngs


def _pdftoppm_thumbnails(pdf: bytes, width_px: int, max_pages: int) -> list[bytes]:
    tool = shutil.which("pdftoppm")
    if tool is None:
        return []
    with tempfile.TemporaryDirectory(prefix="kit-thumbs-") as tmp:
        source = Path(tmp) / "in.pdf"
        source.write_bytes(pdf)
        subprocess.run([tool, "-png", "-gray", "-f", "1", "-l", str(max_pages),
                        "-scale-to-x", str(width_px), "-scale-to-y", "-1",
                        str(source), str(Path(tmp) / "page")], check=True, capture_output=True)
        pages = sorted(Path(tmp).glob("page-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        return [p.read_bytes() for p in pages]


# --- built kits kept in the persistent cache ---------------------------------------------------

@cache
def code_digest() -> str:
    """A digest of everything that decides a kit's bytes besides its config: the templates,
    the fonts and the package's files (its Python sources, and the templates a game keeps
    beside its code), names and contents."""
    package = Path(__file__).resolve().parent.parent
    parts: list[bytes | str] = []
    for name, root in (("templates", templates_dir()), ("fonts", fonts_dir()), ("kit", package)):
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            if "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo"):
                continue
            parts += [f"{name}/{path.relative_to(root).as_posix()}", path.read_bytes()]
    return digest(parts)


@cache
def _tool_versions() -> str:
    from importlib.metadata import PackageNotFoundError, version

    found = []
    for package in ("weasyprint", "pypdf", "reportlab", "pypdfium2"):
        try:
            found.append(f"{package}={version(package)}")
        except PackageNotFoundError:
            found.append(f"{package}=none")
    return ",".join(found)


def kept_key(config: KitConfig, preview_pages: int = 1) -> str:
    """The render-cache key of a built kit: config, version, code and assets, thumbnails."""
    return digest(["web-kit", KEPT_FORMAT, __version__, config_text(config), code_digest(),
                   _tool_versions(), str(THUMB_WIDTH_PX), str(preview_pages)])


def pack(rendered: Rendered) -> bytes:
    """A built kit as zip bytes: ``meta.json``, ``files/...`` and ``thumbs/...``."""
    meta = {"format": KEPT_FORMAT, "folder": rendered.kit.folder,
            "files": list(rendered.kit.files), "thumbs": list(rendered.thumbs),
            "documents": [asdict(d) for d in rendered.documents]}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("meta.json", json.dumps(meta))
        for name, data in rendered.kit.files.items():
            deflate = name.endswith((".html", ".txt"))  # PDFs, PNGs and fonts are compressed
            archive.writestr(f"files/{name}", data, compress_type=zipfile.ZIP_DEFLATED
                             if deflate else zipfile.ZIP_STORED, compresslevel=1)
        for name, data in rendered.thumbs.items():
            archive.writestr(f"thumbs/{name}", data)
    return out.getvalue()


def unpack(config: KitConfig, data: bytes) -> Rendered | None:
    """``pack``'s bytes back into a kit of ``config``; None for anything unreadable."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            meta = json.loads(archive.read("meta.json"))
            if meta.get("format") != KEPT_FORMAT or meta.get("folder") != config.folder_name:
                return None
            files = {name: archive.read(f"files/{name}") for name in meta["files"]}
            thumbs = {name: archive.read(f"thumbs/{name}") for name in meta["thumbs"]}
            documents = tuple(DocumentInfo(str(d["stem"]), int(d["pages"]),
                                           int(d["pdf_bytes"]), bool(d["html"]))
                              for d in meta["documents"])
    except (zipfile.BadZipFile, KeyError, TypeError, ValueError, OSError):
        return None
    return Rendered(config, KitFiles(str(meta["folder"]), files), documents, thumbs)


def load_kit(store: RenderCache | None, config: KitConfig,
             preview_pages: int = 1) -> Rendered | None:
    """The kit kept in ``store`` for ``config``, if there is one and it reads back whole."""
    if store is None:
        return None
    data = store.get(kept_key(config, preview_pages))
    return unpack(config, data) if data is not None else None


def keep_kit(store: RenderCache | None, rendered: Rendered, preview_pages: int = 1,
             evict: bool = True) -> None:
    """Keep a built kit in ``store`` (a cache that cannot be written is skipped)."""
    if store is None:
        return
    store.put(kept_key(rendered.config, preview_pages), pack(rendered))
    if evict:
        store.evict()


__all__ = ["DocumentInfo", "Rendered", "config_key", "document_label", "document_name",
           "keep_kit", "load_kit", "pdf_thumbnails", "ready_configs", "render_kit"]


def zip_kit(rendered: Rendered, folder: str) -> bytes:
    """The kit folder as a zip (fixed timestamps: the same kit gives the same bytes)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for rel, data in sorted(rendered.kit.files.items()):
            info = zipfile.ZipInfo(f"{folder}/{rel}", date_time=(2024, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return out.getvalue()
