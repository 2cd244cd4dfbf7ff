"""The download site: every ready-made kit with a first-page thumbnail, as plain static files.

``kit site --out DIR`` writes::

    DIR/index.html                 every registered game x allowed player count (capped at 12)
    DIR/site.css, DIR/fonts/       x paper size, each with links to the player kit and the host
    DIR/kits/<folder>/...          answers (PDF and HTML); kit folders exactly as ``kit build``
    DIR/thumbs/<folder>.png        writes them (``render.build_files`` + ``render.write_folder``)

Every link is relative, nothing is loaded from elsewhere, so the folder works offline, from
``file://`` and from any static host. ``kit.server`` (``kit serve``) renders the same index with
the same templates and adds the custom-kit form; the command-line glue for both lives here so
that ``kit build`` never imports the web dependencies.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from . import __version__
from .build import build_files
from .cache import default_cache
from .config import KitConfig, resolve
from .errors import ConfigError, KitError
from .fonts import FONT_FILES, LICENCE_FILES
from .options import PAPERS
from .output import KitFiles, write_kits
from .paper import paper as paper_by_name
from .resources import fonts_dir, templates_dir

READY_MAX_PLAYERS = 12  # ready-made kits stop here even when a game allows bigger tables
THUMB_WIDTH_PX = 320  # shown at 160 CSS px: sharp on high-density screens, small in grey PNG
PREVIEW_PAGES = 40  # a custom kit's preview shows at most this many pages per document
SITE_CSS = "site/site.css"
SITE_ICON = "site/favicon.svg"

_pdfium_lock = threading.Lock()  # PDFium is not thread-safe; one render at a time per process


# --- which kits -------------------------------------------------------------------------------

def ready_configs(games: Iterable[str] | None = None, players: Iterable[int] | None = None,
                  papers: Iterable[str] | None = None) -> list[KitConfig]:
    """The ready-made kits: every registered game, each allowed count up to 12, every paper.

    ``games``, ``players`` and ``papers`` narrow the set (for tests and quick previews); a count
    a game does not allow is skipped for that game, an unknown game or paper is an error.
    """
    from .registry import GAMES, game_spec

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
            configs += [resolve({"game": name, "players": count, "paper": p}) for p in sheets]
    if not configs:
        raise ConfigError("players", "no ready-made kit matches --games/--players/--paper")
    return configs


# --- rendering one kit (also the worker function of kit.server's pool) -------------------------

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


@dataclass(frozen=True)
class Failure:
    """A ``KitError`` as plain data: it crosses process boundaries (KitError does not pickle)."""

    field: str
    message: str

    def error(self) -> KitError:
        return KitError(self.field, self.message)


def document_label(stem: str) -> str:
    """'player-kit' -> 'Player kit', 'player-kit-table-2' -> 'Player kit table 2'.

    From the file name only: titles can carry the event title, which is user text.
    """
    text = stem.replace("-", " ").replace("_", " ")
    return text[:1].upper() + text[1:]


def kit_documents(kit: KitFiles) -> list[str]:
    """Stems of the kit's top-level PDFs, in the order the kit lists them."""
    return [name.removesuffix(".pdf") for name in kit.files
            if name.endswith(".pdf") and "/" not in name]


def render_kit(config: KitConfig, preview_pages: int = 1) -> Rendered | Failure:
    """Build one kit in memory, with thumbnails of the first ``preview_pages`` of each PDF."""
    try:
        kit = build_files(config, default_cache())
    except KitError as exc:
        return Failure(exc.field, exc.message)
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
    import io

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
    import io

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


# --- the pages -------------------------------------------------------------------------------

@cache
def site_environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        autoescape=select_autoescape(["html"], default_for_string=True),
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
    )
    env.filters["size"] = human_size
    env.globals.update(version=__version__)
    return env


def human_size(n: int) -> str:
    return f"{n / 1024:.0f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.1f} MB"


def site_css() -> bytes:
    return (templates_dir() / SITE_CSS).read_bytes()


@dataclass
class KitCard:
    """One ready-made kit on the index."""

    config: KitConfig
    documents: Sequence[DocumentInfo | PlannedDocument]
    thumb: str | None  # relative URL of the first-page thumbnail, None if not rendered (yet)

    @property
    def folder(self) -> str:
        return self.config.folder_name

    @property
    def paper_label(self) -> str:
        return paper_by_name(self.config.paper).label


@dataclass(frozen=True)
class PlannedDocument:
    """A document of a kit not rendered yet: what its plan says (no file size)."""

    stem: str
    pages: int
    pdf_bytes: None = None
    html: bool = True

    @property
    def label(self) -> str:
        return document_label(self.stem)


@lru_cache(maxsize=256)
def planned_documents(config: KitConfig) -> tuple[PlannedDocument, ...]:
    from .registry import game_spec

    plan = game_spec(config.game).plan(config)
    return tuple(PlannedDocument(d.stem, len(d.pages)) for d in plan.documents)


def kit_card(config: KitConfig, rendered: Rendered | None, thumb: str | None) -> KitCard:
    """The index card of a kit; without ``rendered`` its plan names the documents."""
    if rendered is not None:
        return KitCard(config, rendered.documents, thumb)
    return KitCard(config, planned_documents(config), thumb)


def index_groups(cards: Sequence[KitCard]) -> list[dict[str, object]]:
    """Cards grouped game -> paper, in registry order, papers in PAPERS order."""
    from .registry import GAMES

    groups = []
    for name, spec in GAMES.items():
        mine = [c for c in cards if c.config.game == name]
        if not mine:
            continue
        papers = []
        for p in PAPERS:
            kits = sorted((c for c in mine if c.config.paper == p), key=lambda c: c.config.players)
            if kits:
                papers.append({"name": p, "label": paper_by_name(p).label, "kits": kits,
                               "id": f"{name}-{p}"})
        top = spec.max_players
        groups.append({"name": name, "title": spec.title, "papers": papers,
                       "players": f"{spec.min_players} to {top}" if top
                       else f"{spec.min_players} or more",
                       "capped": top is None or top > READY_MAX_PLAYERS})
    return groups


def render_index(cards: Sequence[KitCard], *, root: str, home: str,
                 form: dict[str, object] | None = None) -> str:
    """The index page; ``root`` prefixes every link ('' for the static site, '/' for serve)."""
    return site_environment().get_template("site/index.html").render(
        groups=index_groups(cards), root=root, home=home, form=form, kit_count=len(cards),
        ready_max=READY_MAX_PLAYERS,
    )


# --- the static site -------------------------------------------------------------------------

def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _render_all(configs: Sequence[KitConfig], jobs: int) -> Iterable[Rendered | Failure]:
    if jobs <= 1 or len(configs) <= 1:
        yield from (render_kit(c) for c in configs)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("forkserver")  # a clean worker, not a forked copy
    pool = ProcessPoolExecutor(min(jobs, len(configs)), mp_context=context)
    try:
        yield from pool.map(render_kit, configs)
    finally:  # on a failure, drop the kits not started yet instead of rendering them all
        pool.shutdown(wait=True, cancel_futures=True)


def build_site(out: str | Path, configs: Sequence[KitConfig], jobs: int = 1,
               progress: Callable[[str], None] | None = None) -> Path:
    """Build every kit, write kit folders and thumbnails, then the index; returns index.html.

    Kit folders go through ``write_folder`` (each appears whole or not at all) and the index is
    written last, so a failure never leaves an index pointing at missing files.
    """
    out = Path(out)
    cards = []
    for config, result in zip(configs, _render_all(configs, jobs), strict=True):
        if isinstance(result, Failure):
            raise KitError(result.field, f"{config.folder_name}: {result.message}")
        write_kits([(out / "kits", result.kit)])
        thumb = None
        first = result.thumb_names(result.documents[0].stem)[:1] if result.documents else []
        if first:
            thumb = f"thumbs/{config.folder_name}.png"
            _write_atomic(out / thumb, result.thumbs[first[0]])
        cards.append(kit_card(config, result, thumb))
        if progress:
            progress(str(out / "kits" / config.folder_name))
    for name in FONT_FILES + LICENCE_FILES:
        _write_atomic(out / "fonts" / name, (fonts_dir() / name).read_bytes())
    _write_atomic(out / "site.css", site_css())
    _write_atomic(out / "favicon.svg", (templates_dir() / SITE_ICON).read_bytes())
    index = out / "index.html"
    _write_atomic(index, render_index(cards, root="", home="index.html").encode("utf-8"))
    return index


# --- command line (``kit site`` and ``kit serve``; wired into kit.cli) -------------------------

def _int_list(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of whole "
                                         "numbers") from None


def _name_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=_name_list, metavar="A,B",
                        help="only these games (default: every registered game)")
    parser.add_argument("--players", type=_int_list, metavar="N,M",
                        help=f"only these player counts (default: every allowed count up to "
                        f"{READY_MAX_PLAYERS})")
    parser.add_argument("--paper", type=_name_list, metavar="|".join(PAPERS),
                        help="only these paper sizes (default: all)")


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add the ``site`` and ``serve`` subcommands to the ``kit`` parser."""
    site = sub.add_parser("site", help="write the static download site of ready-made kits",
                          description="Build every ready-made kit (each game, each allowed "
                          f"player count up to {READY_MAX_PLAYERS}, each paper size) with a "
                          "thumbnail, and an index.html linking them all. Works offline.")
    site.add_argument("--out", default="build/site", metavar="DIR",
                      help="folder to write the site into (default: build/site)")
    site.add_argument("--jobs", type=int, default=min(os.cpu_count() or 1, 4), metavar="N",
                      help="kits rendered at once, in worker processes (default: CPU count)")
    _filters(site)
    site.add_argument("--json", action="store_true", help="print a JSON summary")

    serve = sub.add_parser("serve", help="serve the download page and a custom-kit form",
                           description="Serve the ready-made kits and a form that builds a "
                           "custom kit (names, paper, rounds, variants) on demand.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve.add_argument("--workers", type=int, default=min(os.cpu_count() or 1, 4), metavar="N",
                       help="kits rendered at once, in worker processes (default: CPU count)")
    serve.add_argument("--queue", type=int, default=None, metavar="N",
                       help="renders allowed to wait for a worker before new ones get 503 "
                       "(default: 2 per worker)")
    serve.add_argument("--cache-mb", type=int, default=256, metavar="MB",
                       help="memory for built kits, least recently used dropped first "
                       "(default: 256)")
    serve.add_argument("--no-prewarm", dest="prewarm", action="store_false",
                       help="do not render the ready-made kits in the background at start")
    _filters(serve)


def run_command(args: argparse.Namespace) -> int:
    """Dispatch ``kit site`` / ``kit serve``; ``KitError`` propagates to the CLI."""
    if args.command == "site":
        if args.jobs < 1:
            raise ConfigError("jobs", f"must be at least 1; got {args.jobs}")
        configs = ready_configs(args.games, args.players, args.paper)
        start = time.monotonic()
        index = build_site(args.out, configs, jobs=args.jobs,
                           progress=None if args.json else print)
        seconds = time.monotonic() - start
        if args.json:
            print(json.dumps({"index": str(index), "kits": [c.folder_name for c in configs],
                              "seconds": round(seconds, 1)}, indent=2))
        else:
            print(index)
            print(f"{len(configs)} kits in {seconds:.1f} s", file=sys.stderr)
        return 0
    try:
        from .server import serve
    except ImportError as exc:
        raise ConfigError("serve", f"needs the web extra ({exc.name} is missing): "
                          "pip install 'number-party-kit[web]'") from None
    ready_configs(args.games, args.players, args.paper)  # filter errors before binding a port
    serve(host=args.host, port=args.port, workers=args.workers, queue=args.queue,
          cache_mb=args.cache_mb, prewarm=args.prewarm, games=args.games,
          players=args.players, papers=args.paper)
    return 0
