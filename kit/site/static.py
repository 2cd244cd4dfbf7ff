"""The download site: every ready-made kit with a first-page thumbnail, as plain static files.

``kit site --out DIR [--lang xx]`` writes, in one language (default English)::

    DIR/index.html                 every registered game x allowed player count (capped at 12)
    DIR/site.css, DIR/fonts/       x paper size, each with links to the player kit and the host
    DIR/kits/<folder>/...          answers (PDF and HTML); kit folders exactly as ``kit build``
    DIR/thumbs/<folder>.png        writes them (``build_files`` + ``write_kits``)

The index is in the site's language and lists that language's kits (their folder names end in
``-xx`` but for English). With several languages (``--lang all``, ``--lang en,fr``) each has
its own index: the root language's (English when built, else the first asked for) stays
``DIR/index.html``, every other one is ``DIR/<xx>/index.html``; the kits of all of them share
``kits/`` and ``thumbs/``. Each index then carries a language switch to the others and their
``<link rel="alternate" hreflang>`` (``x-default``: the root's). Every link is relative,
nothing is loaded from elsewhere, so the folder works offline, from ``file://`` and from any
static host. Kits come from the persistent render cache when an earlier ``kit site`` or ``kit
serve`` kept them; the others are rendered (in worker processes with ``jobs`` > 1) and kept for
next time.
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
from ..i18n import LANGUAGES
from ..output import check_out, write_kits
from ..resources import fonts_dir
from ..server.pool import process_pool, stop_executor
from .kits import PREVIEW_PAGES, Rendered, keep_kit, load_kit, render_kit
from .pages import KitCard, kit_card, render_index, site_css, site_icon, thumb_url


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


def root_language(langs: Sequence[str]) -> str:
    """The language of a site's root index: English when built, else the first of ``langs``."""
    return DEFAULT_LANGUAGE if DEFAULT_LANGUAGE in langs or not langs else langs[0]


def index_paths(langs: Sequence[str], root: str) -> dict[str, str]:
    """Where each language's index goes in the site: ``root``'s at ``index.html``, every other
    one at ``<xx>/index.html``; in the order of ``langs``, the root's first."""
    return {lang: "index.html" if lang == root else f"{lang}/index.html"
            for lang in [root, *(lang for lang in langs if lang != root)]}


def relative(page: str, target: str) -> str:
    """The link from the index at ``page`` to the site's file ``target``."""
    return "../" * page.count("/") + target


def language_switch(paths: dict[str, str], page: str) -> tuple[list[dict[str, object]],
                                                                 list[dict[str, str]]]:
    """The language switch of the index at ``page`` (each language named in itself) and its
    head's alternates (each language, then ``x-default``: the root's page)."""
    current = next(lang for lang, path in paths.items() if path == page)
    links: list[dict[str, object]] = [
        {"code": lang, "name": LANGUAGES[lang], "current": lang == current,
         "href": relative(page, path)} for lang, path in paths.items()]
    alternates = [{"code": str(link["code"]), "href": str(link["href"])} for link in links]
    alternates.append({"code": "x-default", "href": relative(page, "index.html")})
    return links, alternates


def _write_indexes(out: Path, cards: Sequence[KitCard], lang: str) -> Path:
    """One index per language of ``cards`` (``index_paths``); ``lang``'s is the root's when
    there is one language only (its words, whatever the kits' language)."""
    langs = list(dict.fromkeys(card.config.lang for card in cards))
    if len(langs) <= 1:
        html = render_index(cards, root="", home="index.html", lang=lang)
        _write_atomic(out / "index.html", html.encode("utf-8"))
        return out / "index.html"
    paths = index_paths(langs, root_language(langs))
    for page_lang, page in reversed(paths.items()):  # the root's last: all or nothing
        links, alternates = language_switch(paths, page)
        html = render_index([c for c in cards if c.config.lang == page_lang],
                            root=relative(page, ""), home="index.html", lang=page_lang,
                            languages=links, alternates=alternates)
        _write_atomic(out / page, html.encode("utf-8"))
    return out / "index.html"


def build_site(out: str | Path, configs: Sequence[KitConfig], jobs: int = 1,
               progress: Callable[[str], None] | None = None,
               store: RenderCache | None = None, lang: str = DEFAULT_LANGUAGE) -> Path:
    """Build every kit, write kit folders and thumbnails, then the indexes; returns the root's
    index.html.

    With the configs in one language, one index, in ``lang``'s words (``kit site`` makes them
    agree); with several, one index per language, each in its own (``index_paths``).

    ``out`` is checked before any kit is rendered. Kit folders go through ``write_kits`` (each
    appears whole or not at all) and the indexes are written last, so a failure never leaves an
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
    return _write_indexes(out, cards, lang)
