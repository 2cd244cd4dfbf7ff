"""The download site: every ready-made kit with a first-page thumbnail, as plain static files.

``kit site --out DIR [--lang xx]`` writes, in one language (default English)::

    DIR/index.html                 every registered game x allowed player count (capped at 12)
    DIR/site.css, DIR/fonts/       x paper size, each with links to the player kit and the host
    DIR/kits/<folder>/...          answers (PDF and HTML); kit folders exactly as ``kit build``
    DIR/thumbs/<folder>.png        writes them (``build_files`` + ``write_kits``)

The index is in the site's language and lists that language's kits (their folder names end in
``-xx`` but for English). Every link is relative, nothing is loaded from elsewhere, so the
folder works offline, from ``file://`` and from any static host. Kits come from the persistent
render cache when an earlier ``kit site`` or ``kit serve`` kept them; the others are rendered
(in worker processes with ``jobs`` > 1) and kept for next time.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Generator, Iterator, Sequence
from functools import partial
from pathlib import Path

from ..cache import RenderCache
from ..config import KitConfig
from ..errors import KitError
from ..fonts import FONT_FILES, LICENCE_FILES
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..output import check_out, write_kits
from ..resources import fonts_dir
from ..server.pool import process_pool, stop_executor
from .kits import PREVIEW_PAGES, Rendered, keep_kit, load_kit, render_kit
from .pages import kit_card, render_index, site_css, site_icon, thumb_url


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


def _render_all(configs: Sequence[KitConfig], jobs: int,
                store: RenderCache | None) -> Generator[Rendered, None, None]:
    """Render ``configs`` in order; in ``jobs`` worker processes when more than one."""
    render = partial(render_kit, preview_pages=1, store=store)
    if jobs <= 1 or len(configs) <= 1:
        yield from (render_kit(c, 1, store) for c in configs)
        return
    pool = process_pool(min(jobs, len(configs)))
    try:
        yield from pool.map(render, configs)
    finally:  # on a failure, drop the kits not started yet instead of rendering them all
        stop_executor(pool)


def site_kits(configs: Sequence[KitConfig], jobs: int,
              store: RenderCache | None) -> Iterator[Rendered]:
    """Each config's kit, in order: kept ones from ``store``, the rest rendered and kept."""
    kept = [load_kit(store, c, 1) or load_kit(store, c, PREVIEW_PAGES) for c in configs]
    fresh = _render_all([c for c, k in zip(configs, kept, strict=True) if k is None], jobs,
                        store)
    try:
        for config, rendered in zip(configs, kept, strict=True):
            if rendered is None:
                try:
                    rendered = next(fresh)
                except KitError as exc:
                    raise KitError(exc.field, f"{config.folder_name}: {exc.message}") from None
                keep_kit(store, rendered, 1, evict=False)
            yield rendered
    finally:
        fresh.close()  # stops the worker processes at once if we stop early
    if store is not None:
        store.evict()


def build_site(out: str | Path, configs: Sequence[KitConfig], jobs: int = 1,
               progress: Callable[[str], None] | None = None,
               store: RenderCache | None = None, lang: str = DEFAULT_LANGUAGE) -> Path:
    """Build every kit, write kit folders and thumbnails, then the index; returns index.html.

    The index's words are in ``lang``; the kits are in their configs' language (``kit site``
    makes them agree).

    ``out`` is checked before any kit is rendered. Kit folders go through ``write_kits`` (each
    appears whole or not at all) and the index is written last, so a failure never leaves an
    index pointing at missing files.
    """
    out = check_out(out)
    cards = []
    for config, rendered in zip(configs, site_kits(configs, jobs, store), strict=True):
        write_kits([(out / "kits", rendered.kit)])
        if rendered.first_thumb is not None:
            _write_atomic(out / thumb_url(config), rendered.first_thumb)
        cards.append(kit_card(config, rendered))
        if progress:
            progress(str(out / "kits" / config.folder_name))
    for name in FONT_FILES + LICENCE_FILES:
        _write_atomic(out / "fonts" / name, (fonts_dir() / name).read_bytes())
    _write_atomic(out / "site.css", site_css())
    _write_atomic(out / "favicon.svg", site_icon())
    index = out / "index.html"
    html = render_index(cards, root="", home="index.html", lang=lang)
    _write_atomic(index, html.encode("utf-8"))
    return index
