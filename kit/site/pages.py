"""The site's pages: the index of ready-made kits and the result page (the form: ``form``).

The server's Jinja2 environment (``kit.server.templates``) renders ``templates/site/`` for both
the static site and the server. Every word a page shows goes through the page language's
``Words``: the templates' own text, and what this module puts on a page (labels, legends,
download texts, sizes, error messages).

The player kit comes first everywhere (on a card, in the downloads, in the previews, as the
thumbnail); the host answers are labelled as the host's only. The page language is
negotiated by ``kit.server.language``; the paper offered first follows the region of
``Accept-Language`` (``form.regional_paper``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..config import KitConfig, resolve, seat
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import LANGUAGES, Words, words
from ..options import Flag
from ..paper import paper as paper_by_name
from ..resources import templates_dir
from ..server import templates
from ..server.templates import decimal_text
from .form import (  # noqa: F401 - the form's names, as the app and tests know them here
    DEFAULT_FORMAT,
    LABELS,
    SETTINGS_URL_MAX,
    WEB_MAX_PLAYERS,
    build_form,
    check,
    config_values,
    field_label,
    form_formats,
    format_problem,
    game_title,
    paper_label,
    papers_in_order,
    raw_from_form,
    regional_paper,
    settings_query,
    url_settings,
    values_from_query,
)
from .kits import (
    READY_MAX_PLAYERS,
    DocumentInfo,
    Rendered,
    config_key,
    document_label,
    document_name,
    download_name,
)

SITE_CSS = "site/site.css"
SITE_ICON = "site/favicon.svg"
PREVIEW_MAX = 12  # pages previewed per document on the result page (the PDF shows them all)


def render_page(template: str, **context: Any) -> str:
    """A page of the site (``kit.server.templates.render_page``), the games' templates too."""
    from ..registry import template_folders

    return templates.render_page(template, folders=template_folders, **context)


def site_css() -> bytes:
    return (templates_dir() / SITE_CSS).read_bytes()


def site_icon() -> bytes:
    return (templates_dir() / SITE_ICON).read_bytes()


# --- documents: the player kit first ----------------------------------------------------------

def player_first(stem: str) -> tuple[int, int, str]:
    """Sort key of a kit's documents: the player kit (all tables, for a split party) first, each
    table's kit next, the host answers last."""
    table = re.fullmatch(r"player-kit-table-([0-9]+)", stem)
    if stem in ("player-kit", "all-tables"):
        return (0, 0, stem)
    if table:
        return (1, int(table[1]), stem)
    return (3, 0, stem) if stem == "host-answers" else (2, 0, stem)


def is_host_only(stem: str) -> bool:
    return stem == "host-answers"


@lru_cache(maxsize=512)
def download_base(config: KitConfig) -> str:
    """The start of a kit's download names: its folder name for a ready-made kit, else the
    folder name (which carries a slug of the title) and a short hash of the config, so kits
    that differ get different names (``<game>-9p-letter-es-club-night-8e02d4-3f9a1c``)."""
    plain = {"game": config.game, "players": config.players, "paper": config.paper,
             "lang": config.lang}
    try:
        ready = resolve(plain) == config
    except Exception:  # noqa: BLE001 - a config no plain request makes is custom
        ready = False
    folder = download_name(config.folder_name, config_key(config))
    if ready:
        return folder
    return f"{folder}-{config_key(config)[:6]}"


# --- the index --------------------------------------------------------------------------------

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


@dataclass
class KitCard:
    """One ready-made kit on the index."""

    config: KitConfig
    documents: Sequence[DocumentInfo | PlannedDocument]
    thumb: str | None  # relative URL of the player kit's first page, None if not rendered yet

    @property
    def folder(self) -> str:
        return self.config.folder_name

    @property
    def paper_label(self) -> str:
        return paper_label(self.config.paper, self.config.words)

    def view(self, w: Words) -> dict[str, object]:
        """What the index shows of this kit, in ``w``'s language: the player kit first."""
        config = self.config
        documents = sorted(self.documents, key=lambda d: player_first(d.stem))
        return {"folder": self.folder, "players": config.players, "paper": config.paper,
                "paper_label": paper_label(config.paper, w), "thumb": self.thumb,
                "first": documents[0].stem if documents else "player-kit",
                "documents": [{"stem": d.stem, "label": document_label(d.stem, w),
                               "name": document_name(d.stem, w), "host_only": is_host_only(d.stem),
                               "pages": d.pages, "pdf_bytes": d.pdf_bytes, "html": d.html}
                              for d in documents]}


@lru_cache(maxsize=256)
def planned_documents(config: KitConfig) -> tuple[PlannedDocument, ...]:
    from ..registry import game_spec

    plan = game_spec(config.game).plan(config)
    return tuple(PlannedDocument(d.stem, len(d.pages)) for d in plan.documents)


def thumb_url(config: KitConfig) -> str:
    return f"thumbs/{config.folder_name}.png"


CARDS_MAX = 2000


def kit_card(config: KitConfig, rendered: Rendered | None,
             cards: dict[KitConfig, KitCard] | None = None) -> KitCard:
    """The index card of a kit. Without ``rendered``: the card it had when last rendered in
    ``cards`` (one server's memory: a kit dropped from memory still shows its sizes and
    thumbnail, which that server reads back from its render cache), else its plan's
    documents."""
    known = {} if cards is None else cards
    if rendered is None:
        return known.get(config) or KitCard(config, planned_documents(config), None)
    thumb = thumb_url(config) if rendered.first_thumb is not None else None
    card = KitCard(config, rendered.documents, thumb)
    if len(known) < CARDS_MAX or config in known:
        known[config] = card
    return card


def index_groups(cards: Sequence[KitCard], w: Words | None = None,
                 paper: str = "a4") -> list[dict[str, object]]:
    """Cards grouped game -> paper, in registry order, ``paper`` first; in ``w``'s language
    (default English)."""
    from ..registry import GAMES

    w = w or words()
    groups = []
    for name, spec in GAMES.items():
        mine = [c for c in cards if c.config.game == name]
        if not mine:
            continue
        papers = []
        for p in papers_in_order(paper):
            kits = sorted((c for c in mine if c.config.paper == p), key=lambda c: c.config.players)
            if kits:
                papers.append({"name": p, "label": paper_label(p, w),
                               "kits": [c.view(w) for c in kits], "id": f"{name}-{p}"})
        top = spec.max_players
        groups.append({"name": name, "title": game_title(name, w), "papers": papers,
                       "min": spec.min_players, "top": top,
                       "capped": top is None or top > READY_MAX_PLAYERS})
    return groups


def render_index(cards: Sequence[KitCard], *, root: str, home: str,
                 form: dict[str, object] | None = None, lang: str = DEFAULT_LANGUAGE,
                 languages: Sequence[Mapping[str, object]] = (), keep: str = "",
                 paper: str = "a4", alternates: Sequence[Mapping[str, str]] = ()) -> str:
    """The index page in ``lang``; ``root`` prefixes every link ('' for the static site, '/'
    for serve); ``paper`` is listed first. ``languages`` and ``keep``: as ``render_page``;
    ``alternates``: the head's ``<link rel="alternate">`` to this page in each language
    (``code`` and ``href``)."""
    kit_langs = sorted({c.config.lang for c in cards})
    return render_page("site/index.html", root=root, home=home, lang=lang, languages=languages,
                       keep=keep, alternates=list(alternates),
                       groups=index_groups(cards, words(lang), paper), form=form,
                       kit_count=len(cards), ready_max=READY_MAX_PLAYERS,
                       kit_language=", ".join(LANGUAGES.get(c, c) for c in kit_langs),
                       kit_lang=kit_langs[0] if len(kit_langs) == 1 else "")


def served_alternates() -> list[dict[str, str]]:
    """The served index's ``<link rel="alternate">``: the page in each language (``?lang=``),
    and ``x-default``, the bare root, which answers in the visitor's language."""
    return [*({"code": code, "href": f"/?lang={code}"} for code in LANGUAGES),
            {"code": "x-default", "href": "/"}]


# --- the result page --------------------------------------------------------------------------

def _summary(config: KitConfig, w: Words) -> list[dict[str, str]]:
    """Every setting of the kit, as the result page confirms it."""
    from ..registry import game_spec

    _ = w.gettext
    rows = [(_("Game"), game_title(config.game, w), "")]
    players = (w.join(list(config.names)) if config.names else
               w.ngettext("%(num)s (no names: players write their own)",
                          "%(num)s (no names: players write their own)", config.players,
                          num=w.number(config.players)))
    rows.append((_("Players"), players, ""))
    rows.append((_("Tables"), w.number(config.table_count), ""))
    if config.shuffle is not None:
        rows.append((field_label("shuffle", w), _("Yes"), ""))
    numbers = _("%(lo)s to %(hi)s", lo=config.range[0], hi=config.range[1])
    rows.append((_("Numbers"), numbers + ("" if not config.custom_range else
                                         " " + _("(custom range)")), ""))
    for option in game_spec(config.game).options:
        value = getattr(config.settings, option.key, None)
        if isinstance(option.type, Flag):
            text = _("Yes") if value else _("No")
        elif value is None:
            text = _("Default")
        else:
            text = w.number(value) if isinstance(value, int) else str(value)
        rows.append((field_label(option.key, w), text, ""))
    rows.append((_("Paper"), paper_label(config.paper, w), ""))
    if config.large_print:
        rows.append((field_label("large_print", w), _("Yes"), ""))
    if config.title:
        rows.append((_("Event title"), config.title, ""))
    if config.date:
        rows.append((_("Event date"), config.date, ""))
    rows.append((_("Language"), LANGUAGES.get(config.lang, config.lang), config.lang))
    return [{"term": t, "value": v, "lang": lang} for t, v, lang in rows]


def _seating(config: KitConfig, w: Words) -> dict[str, object] | None:
    """A split party: how many tables, why, and who sits where."""
    from ..registry import game_spec

    if config.table_count < 2:
        return None
    spec = game_spec(config.game)
    sizes = (w.number(config.sizes[0]) if len(set(config.sizes)) == 1
             else w.join([w.number(n) for n in config.sizes]))
    why = (w.gettext("%(game)s seats %(lo)s to %(hi)s players at a table.",
                     game=game_title(config.game, w), lo=w.number(spec.min_players),
                     hi=w.number(spec.max_players))
           if spec.max_players is not None else "")
    asked = w.gettext("You asked for %(tables)s tables.", tables=w.number(config.tables)) \
        if config.tables is not None else ""
    tables = [{"table": w.number(t.table), "players": t.players, "names": list(t.names)}
              for t in seat(config)]
    return {"count": config.table_count, "sizes": sizes, "why": why, "asked": asked,
            "tables": tables, "named": bool(config.names), "shuffled": config.shuffle is not None}


def _document_link(doc: DocumentInfo, base: str, name: str, w: Words) -> dict[str, object]:
    _ = w.gettext
    size = _("%(size)s KB", size=decimal_text(doc.pdf_bytes // 1024, "0", w))
    return {"stem": doc.stem, "label": document_label(doc.stem, w),
            "open": f"{base}{doc.stem}.pdf", "download": f"{name}-{doc.stem}.pdf",
            "html": f"{base}{doc.stem}.html" if doc.html else "",
            "host_only": is_host_only(doc.stem), "primary": False,
            "meta": w.ngettext("%(num)s page, %(size)s", "%(num)s pages, %(size)s", doc.pages,
                               num=w.number(doc.pages), size=size)}


def primary_stem(chosen: str, stems: Sequence[str]) -> str:
    """The document a chosen download means for this kit: a split party's player kit is
    ``all-tables``; the zip is ``zip``; anything else: the player kit."""
    if chosen == "zip":
        return "zip"
    if chosen in stems:
        return chosen
    return next((s for s in sorted(stems, key=player_first)), "zip")


def result_context(key: str, rendered: Rendered, chosen: str, lang: str = DEFAULT_LANGUAGE,
                   ui: str = "") -> dict[str, Any]:
    """What ``site/result.html`` shows, in the page language ``lang`` (the kit itself is in its
    own ``config.lang``): the kit's settings, a split party's seating, the documents (the
    chosen one first, the player kit before the host's), the previews, and the settings URL
    (``ui``: the page language to keep when it is not the kit's)."""
    w = words(lang)
    _ = w.gettext
    config = rendered.config
    base = f"/custom/{key}/"
    name = download_base(config)
    documents = sorted(rendered.documents, key=lambda d: player_first(d.stem))
    stems = [d.stem for d in documents]
    primary = primary_stem(chosen or DEFAULT_FORMAT, stems)
    links = [_document_link(d, base, name, w) for d in documents]
    for link in links:
        link["primary"] = link["stem"] == primary
    links.sort(key=lambda link: not link["primary"])
    zip_link = {"href": base + "kit.zip", "download": name + ".zip", "primary": primary == "zip",
                "text": _("Whole kit folder (.zip)"), "meta": _("PDFs, HTML pages and fonts")}
    split = "all-tables" in stems
    sheet = paper_by_name(config.paper)
    height = round(160 * sheet.height_mm / sheet.width_mm)
    previews = []
    for doc in documents:
        if split and doc.stem.startswith("player-kit-table-"):
            continue  # its pages are in all-tables already
        label = document_label(doc.stem, w)
        previews.append({"stem": doc.stem, "label": label, "pages": doc.pages,
                         "host_only": is_host_only(doc.stem),
                         "thumbs": [{"src": f"{base}thumbs/{n}", "height": height,
                                     "href": f"{base}{doc.stem}.pdf#page={i}"}
                                    for i, n in enumerate(
                                        rendered.thumb_names(doc.stem)[:PREVIEW_MAX], 1)]})
    values = config_values(config)
    query = settings_query(values)
    extra = f"&ui={ui}" if ui and ui != config.lang else ""
    # settings too long for a URL are edited through a form that posts them back
    edit_fields = [] if len(query) <= SETTINGS_URL_MAX else sorted(values.items())
    return {"config": config, "links": links, "zip": zip_link, "previews": previews,
            "summary": _summary(config, w), "seating": _seating(config, w),
            "edit_href": f"/custom?{query}{extra}", "edit_fields": edit_fields, "split": split,
            "paper_label": paper_label(config.paper, w),
            "game_title": game_title(config.game, w),
            "range_text": _("%(lo)s to %(hi)s", lo=config.range[0], hi=config.range[1]),
            "kit_lang": config.lang, "kit_language": LANGUAGES.get(config.lang, config.lang)}

