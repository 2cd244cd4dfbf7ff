"""The site's pages: the index of ready-made kits, the custom-kit form and the result page.

One Jinja2 environment per language (autoescaped, ``StrictUndefined``, ``jinja2.ext.i18n`` with
the language's catalog) renders ``templates/site/`` for both the static site and the server.
Every word a page shows goes through the page language's ``Words``: the templates' own text,
and what this module puts on a page (field labels and help, legends, download texts, sizes).
Field error messages are the CLI's ``KitError`` words and stay English.

The form is built from the option declarations (``kit.registry.all_options``:
``kit.options.COMMON`` plus each game's own), so a new option is a form field by itself; its
parameter type picks the widget (``IntRange``: a number input with its bounds, ``Choice``: a
select, ``Flag``: a checkbox, ``Names``: a textarea, ``Text``: a text input with its length
cap, anything else: a text input). Its label and help come from ``LABELS`` and ``HELP``
(translated), else from the option's key and its CLI help (English). ``out`` (a ``Folder``) is
never a field: the server decides where files go.

The page language (``negotiate``): ``?lang=xx`` when it names one of ``kit.i18n.LANGUAGES``,
else the best match of the request's ``Accept-Language``, else English.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from .. import __version__
from ..config import KitConfig, resolve
from ..errors import KitError
from ..i18n import DEFAULT as DEFAULT_LANGUAGE
from ..i18n import LANGUAGES, N_, Words, words
from ..options import (
    NAME_MAX,
    Choice,
    Flag,
    Folder,
    IntRange,
    Names,
    NumberRange,
    Option,
    Text,
)
from ..paper import PAPERS
from ..paper import paper as paper_by_name
from ..resources import templates_dir
from .kits import (
    READY_MAX_PLAYERS,
    DocumentInfo,
    Rendered,
    document_label,
    document_name,
    download_name,
)

SITE_CSS = "site/site.css"
SITE_ICON = "site/favicon.svg"
WEB_MAX_PLAYERS = 120  # one request may not ask for an unbounded render; bigger: `kit build`

# The form's words: each field's label and help, in English (the msgid) and translated where
# shown. An option missing here gets a label from its key and its CLI help (English).
LABELS = {
    "game": N_("Game"),
    "players": N_("Number of players"),
    "names": N_("Player names"),
    "paper": N_("Paper"),
    "range": N_("Custom number range"),
    "title": N_("Event title"),
    "date": N_("Event date"),
    "tables": N_("Tables"),
    "shuffle": N_("Shuffle"),
    "lang": N_("Kit language"),
    "rounds": N_("Rounds"),
    "spare_slips": N_("Spare slips"),
    "cooperative": N_("Cooperative"),
    "sudden_death_announced": N_("Sudden death announced"),
    "host_plays": N_("Host plays"),
    "turns": N_("Turns"),
}
HELP = {
    "game": N_("Which game the kit is for."),
    "players": N_("A whole number; the web form makes kits for up to %(max)s players (use the "
                  "command line for more). Leave empty for the game’s own default."),
    "names": N_("One name per line, 1 to %(max)s characters each. Names set the number of "
                "players and are printed on the slips."),
    "paper": N_("Paper size."),
    "range": N_("Two whole numbers LO-HI, e.g. 1-20. Leave empty for the game’s own range."),
    "title": N_("Event title printed small on every page (up to %(max)s characters)."),
    "date": N_("Event date printed small on every page, as you write it (up to %(max)s "
               "characters)."),
    "tables": N_("Split the party over exactly this many tables (default: the fewest that fit, "
                 "for games with a per-table limit)."),
    "shuffle": N_("Seat the named players at tables in a shuffled order, repeatable with the "
                  "same SEED (default: in the order given)."),
    "lang": N_("The language every page of the kit is written in."),
    "rounds": N_("Rounds in the game (%(lo)s to %(hi)s)."),
    "spare_slips": N_("Spare slips for replayed rounds, 0 to three rounds' worth (default: one "
                      "round's worth, one per player)."),
    "cooperative": N_("Print the cooperative variant (no scores; aim for exactly one single "
                      "each round)."),
    "sudden_death_announced": N_("A sudden-death round was announced before round one: print "
                                 "its rule."),
    "host_plays": N_("The host plays too: print how the host locks their own slip first."),
    "turns": N_("Turns to print order forms and report grids for (%(lo)s to %(hi)s)."),
}
RANGE_WARNING = N_("a custom range changes the odds the rules were tuned for. It is printed on "
                   "every player page; announce it before the first round.")
PAPER_LABELS = {"a4": N_("A4"), "letter": N_("US Letter")}


# --- the page language ------------------------------------------------------------------------

_LANGUAGE_RANGE = re.compile(r"\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*"
                             r"([0-9](?:\.[0-9]{0,3})?))?\s*")


def accept_language(header: str | None) -> str | None:
    """The best of ``LANGUAGES`` an ``Accept-Language`` header asks for; None if none fits.

    Ranges are tried by their ``q`` (highest first, in the order given among equals); a range
    matches by its primary subtag (``fr-CH`` is French), ``*`` takes English; ``q=0`` and
    malformed entries are skipped.
    """
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header[:1000].split(",")[:50]):
        found = _LANGUAGE_RANGE.fullmatch(part)
        if found is None:
            continue
        quality = float(found[2]) if found[2] is not None else 1.0
        if quality <= 0 or quality > 1:
            continue
        ranked.append((-quality, position, found[1].split("-")[0].lower()))
    for _, _, primary in sorted(ranked):
        if primary == "*":
            return DEFAULT_LANGUAGE
        if primary in LANGUAGES:
            return primary
    return None


def negotiate(query: str | None, header: str | None) -> tuple[str, bool]:
    """The page language and whether it was asked for by ``?lang=`` (links then carry it on).

    ``query`` is the ``lang`` query parameter (used when it is one of ``LANGUAGES``),
    ``header`` the ``Accept-Language`` header; English when neither says.
    """
    chosen = (query or "").strip().lower()
    if chosen in LANGUAGES:
        return chosen, True
    return accept_language(header) or DEFAULT_LANGUAGE, False


def language_links(current: str) -> list[dict[str, object]]:
    """The language switcher: each language, named in itself, as a link to the same page."""
    return [{"code": code, "name": name, "href": f"?lang={code}", "current": code == current}
            for code, name in LANGUAGES.items()]


# --- environment ------------------------------------------------------------------------------

@cache
def site_environment(lang: str = DEFAULT_LANGUAGE):
    """The site's templates in ``lang``: ``_``, ``ngettext``, ``pgettext``, ``{% trans %}``."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    w = words(lang)
    env = Environment(
        loader=FileSystemLoader(str(templates_dir())),
        autoescape=select_autoescape(["html"], default_for_string=True),
        undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.policies["ext.i18n.trimmed"] = True  # as babel.cfg extracts them
    env.install_gettext_translations(w.translations, newstyle=True)
    env.filters["size"] = lambda n: human_size(n, w)
    env.globals.update(version=__version__, w=w)
    return env


def _decimal(value: float, pattern: str, w: Words) -> str:
    from babel.numbers import format_decimal

    return format_decimal(value, pattern, locale=w.locale)


def human_size(n: int, w: Words | None = None) -> str:
    """'12 KB', '1.5 MB' in the language's words and digits."""
    w = w or words()
    if n < 1024 * 1024:
        return w.gettext("%(size)s KB", size=_decimal(round(n / 1024), "0", w))
    return w.gettext("%(size)s MB", size=_decimal(n / 1024 / 1024, "0.0", w))


def site_css() -> bytes:
    return (templates_dir() / SITE_CSS).read_bytes()


def site_icon() -> bytes:
    return (templates_dir() / SITE_ICON).read_bytes()


def render_page(template: str, *, root: str = "/", home: str = "/", lang: str = DEFAULT_LANGUAGE,
                languages: Sequence[Mapping[str, object]] = (), keep: str = "",
                **context: object) -> str:
    """A page of the site in ``lang``; ``root`` prefixes every link ('' for the static site).

    ``languages`` is the language switcher (``language_links``; none on the static site),
    ``keep`` the query that carries a chosen language on to the site's other pages.
    """
    return site_environment(lang).get_template(template).render(
        root=root, home=home, lang=lang, languages=list(languages), keep=keep, **context)


def paper_label(name: str, w: Words) -> str:
    return w.gettext(PAPER_LABELS[name]) if name in PAPER_LABELS else paper_by_name(name).label


def game_title(name: str, w: Words) -> str:
    from ..registry import GAMES

    spec = GAMES.get(name)
    return w.gettext(spec.title) if spec else name


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
    thumb: str | None  # relative URL of the first-page thumbnail, None if not rendered (yet)

    @property
    def folder(self) -> str:
        return self.config.folder_name

    @property
    def paper_label(self) -> str:
        return paper_label(self.config.paper, self.config.words)

    def view(self, w: Words) -> dict[str, object]:
        """What the index shows of this kit, in ``w``'s language."""
        config = self.config
        return {"folder": self.folder, "players": config.players, "paper": config.paper,
                "paper_label": paper_label(config.paper, w), "thumb": self.thumb,
                "documents": [{"stem": d.stem, "label": document_label(d.stem, w),
                               "name": document_name(d.stem, w),
                               "pages": d.pages, "pdf_bytes": d.pdf_bytes, "html": d.html}
                              for d in self.documents]}


@lru_cache(maxsize=256)
def planned_documents(config: KitConfig) -> tuple[PlannedDocument, ...]:
    from ..registry import game_spec

    plan = game_spec(config.game).plan(config)
    return tuple(PlannedDocument(d.stem, len(d.pages)) for d in plan.documents)


def thumb_url(config: KitConfig) -> str:
    return f"thumbs/{config.folder_name}.png"


def kit_card(config: KitConfig, rendered: Rendered | None) -> KitCard:
    """The index card of a kit; without ``rendered`` its plan names the documents."""
    if rendered is None:
        return KitCard(config, planned_documents(config), None)
    thumb = thumb_url(config) if rendered.first_thumb is not None else None
    return KitCard(config, rendered.documents, thumb)


def index_groups(cards: Sequence[KitCard], w: Words | None = None) -> list[dict[str, object]]:
    """Cards grouped game -> paper, in registry order, papers in PAPERS order; in ``w``'s
    language (default English)."""
    from ..registry import GAMES

    w = w or words()
    groups = []
    for name, spec in GAMES.items():
        mine = [c for c in cards if c.config.game == name]
        if not mine:
            continue
        papers = []
        for p in PAPERS:
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
                 languages: Sequence[Mapping[str, object]] = (), keep: str = "") -> str:
    """The index page in ``lang``; ``root`` prefixes every link ('' for the static site, '/'
    for serve). ``languages`` and ``keep``: as ``render_page``."""
    return render_page("site/index.html", root=root, home=home, lang=lang, languages=languages,
                       keep=keep, groups=index_groups(cards, words(lang)), form=form,
                       kit_count=len(cards), ready_max=READY_MAX_PLAYERS)


# --- the custom-kit form ----------------------------------------------------------------------

def form_options() -> list[tuple[Option, tuple[str, ...]]]:
    """Every option but the output folder, with the games it belongs to (empty: all)."""
    from ..registry import all_options

    return [(o, games) for o, games in all_options() if not isinstance(o.type, Folder)]


def widget(option: Option, w: Words | None = None) -> dict[str, object]:
    """The input for an option, from its parameter type (choices shown in ``w``'s words)."""
    w = w or words()
    kind = option.type
    if isinstance(kind, Flag):
        return {"widget": "checkbox"}
    if isinstance(kind, Choice):
        if option.key == "paper":
            labels = {p: paper_label(p, w) for p in PAPERS}
        elif option.key == "lang":
            labels = dict(LANGUAGES)  # each language named in itself
        else:
            labels = {}
        return {"widget": "select", "choices": [(c, labels.get(c, c)) for c in kind.choices]}
    if isinstance(kind, Names):
        return {"widget": "textarea"}
    if isinstance(kind, IntRange):
        top = min(kind.hi, WEB_MAX_PLAYERS) if option.key == "players" else kind.hi
        return {"widget": "number", "min": kind.lo, "max": top}
    if isinstance(kind, Text):
        return {"widget": "text", "maxlength": kind.limit}
    return {"widget": "text"}


def default_text(option: Option) -> str:
    if isinstance(option.type, Flag) or option.default in (None, "", ()):
        return ""
    return str(option.default)


def field_label(option: Option, w: Words) -> str:
    if option.key in LABELS:
        return w.gettext(LABELS[option.key])
    return option.key.replace("_", " ").capitalize()


def field_help(option: Option, w: Words) -> str:
    """The field's help: ``HELP``'s, translated, with the option's own bounds; else the CLI's
    help (English), as a sentence."""
    if option.key not in HELP:
        return option.help[:1].upper() + option.help[1:] + "."
    kind = option.type
    values: dict[str, object] = {}
    if isinstance(kind, IntRange):
        values.update(lo=w.number(kind.lo), hi=w.number(kind.hi))
    if isinstance(kind, Text):
        values["max"] = w.number(kind.limit)
    if option.key == "players":
        values["max"] = w.number(WEB_MAX_PLAYERS)
    elif option.key == "names":
        values["max"] = w.number(NAME_MAX)
    return w.gettext(HELP[option.key], **values)


@cache
def form_formats(w: Words | None = None) -> list[tuple[str, str]]:
    """'zip' and one PDF per document stem any registered game makes (from its default plan),
    labelled in ``w``'s words (default English)."""
    from ..registry import GAMES

    w = w or words()
    stems: dict[str, str] = {}
    for name, spec in GAMES.items():
        try:
            plan = spec.plan(resolve({"game": name}))
        except KitError:  # a game whose defaults do not plan still gets the zip choice
            continue
        for document in plan.documents:
            stems.setdefault(document.stem, document_label(document.stem, w))
    return [("zip", w.gettext("The whole kit folder (.zip): PDFs, HTML and fonts"))] + [
        (stem, w.gettext("%(document)s (PDF)", document=label)) for stem, label in stems.items()]


def _game_field(values: Mapping[str, str], error: str, w: Words) -> dict[str, object]:
    from ..registry import GAMES

    return {"key": "game", "id": "f-game", "widget": "select", "label": w.gettext(LABELS["game"]),
            "choices": [(name, game_title(name, w)) for name in GAMES],
            "help": w.gettext(HELP["game"]), "warning": "",
            "value": values.get("game", ""), "error": error}


def _field(option: Option, values: Mapping[str, str], error: str, w: Words,
           defaults: Mapping[str, str]) -> dict[str, object]:
    shape = widget(option, w)
    if option.key in values:
        value: object = values[option.key]
        if shape["widget"] == "checkbox":
            value = str(value).lower() in ("true", "on", "yes")
    else:
        value = False if shape["widget"] == "checkbox" else defaults.get(
            option.key, default_text(option))
    return {"choices": [], **shape, "key": option.key, "id": f"f-{option.key}",
            "label": field_label(option, w), "help": field_help(option, w),
            "warning": w.gettext(RANGE_WARNING) if isinstance(option.type, NumberRange) else "",
            "value": value, "error": error}


def build_form(values: Mapping[str, str] | None = None,
               errors: Iterable[KitError] = (), format_error: str = "",
               lang: str = DEFAULT_LANGUAGE) -> dict[str, object]:
    """The form's fields, one per option (but ``out``), grouped by the games they belong to,
    in ``lang`` (the page language, also the kit language the form offers first).

    New options appear by themselves: their type picks the widget, their help is the CLI's.
    The error messages stay the CLI's (English).
    """
    from ..registry import GAMES

    w = words(lang)
    values = dict(values or {})
    errors = list(errors)
    by_field: dict[str, str] = {}
    for error in errors:
        by_field.setdefault(error.field, error.message)
    defaults = {"lang": lang}
    groups: dict[tuple[str, ...], list[dict[str, object]]] = {
        (): [_game_field(values, by_field.get("game", ""), w)]}
    for option, games in form_options():
        groups.setdefault(games, []).append(
            _field(option, values, by_field.get(option.key, ""), w, defaults))
    legend_groups = []
    for games, fields in groups.items():
        if not games:
            legend, note = w.gettext("Your game"), ""
        else:
            titles = [game_title(g, w) for g in games if g in GAMES]
            legend = w.gettext("Only for %(games)s", games=w.join(titles) or ", ".join(games))
            note = w.gettext("Ignored for other games unless changed.")
        legend_groups.append({"legend": legend, "note": note, "fields": fields})
    keys = {"game"} | {o.key for o, _ in form_options()}
    summary = [{"text": str(e), "anchor": f"f-{e.field}" if e.field in keys else ""}
               for e in errors]
    formats = list(form_formats(w))
    if format_error:
        summary.append({"text": f"format: {format_error}", "anchor": f"f-format-{formats[0][0]}"})
    chosen = values.get("format", "zip")
    return {"groups": legend_groups, "errors": summary, "formats": formats,
            "format": chosen if chosen in dict(formats) else "zip",
            "format_error": format_error}


def raw_from_form(values: Mapping[str, str]) -> dict[str, object]:
    """Form values -> the raw settings ``resolve`` takes, as the CLI would pass them.

    Empty fields are left out (the game's default applies); names come one per line; an option
    of another game is left out while it still shows its default, and passed on (so ``resolve``
    names the problem) once changed.
    """
    game = values.get("game", "").strip()
    raw: dict[str, object] = {"game": game} if "game" in values else {}  # "": as the CLI says
    for option, games in form_options():
        text = values.get(option.key, "")
        if isinstance(option.type, Flag):
            if text == "":
                continue
            value: object = "true" if text.lower() in ("true", "on", "yes") else text
        elif isinstance(option.type, Names):
            value = [line.strip() for line in text.splitlines() if line.strip()]
            if not value:
                continue
        else:
            value = text.strip()
            if value == "":
                continue
        if games and game not in games and value == default_text(option):
            continue  # another game's option, untouched
        raw[option.key] = value
    return raw


def check_web_limits(config: KitConfig) -> None:
    """What the web form refuses that ``kit build`` allows: more than 120 players."""
    if config.players > WEB_MAX_PLAYERS:
        raise KitError("players", f"the web form makes kits for up to {WEB_MAX_PLAYERS} "
                       f"players; got {config.players}. For a bigger party use the command "
                       "line: kit build")


# --- the result page --------------------------------------------------------------------------

def result_context(key: str, rendered: Rendered, chosen: str,
                   lang: str = DEFAULT_LANGUAGE) -> dict[str, object]:
    """What ``site/result.html`` shows: downloads (the chosen one first) and page previews,
    in the page language ``lang`` (the kit itself is in its own ``config.lang``)."""
    w = words(lang)
    _ = w.gettext
    config = rendered.config
    base = f"/custom/{key}/"
    folder = download_name(rendered.kit.folder, key)
    stems = [doc.stem for doc in rendered.documents]
    downloads = [{"href": base + "kit.zip", "text": _("Whole kit folder (.zip)"),
                  "meta": _("PDFs, HTML pages and fonts"), "download": folder + ".zip",
                  # e.g. a split party has per-table files instead of the chosen stem
                  "primary": chosen == "zip" or (bool(chosen) and chosen not in stems)}]
    previews = []
    sheet = paper_by_name(config.paper)
    height = round(160 * sheet.height_mm / sheet.width_mm)
    for doc in rendered.documents:
        label = document_label(doc.stem, w)
        size = _("%(size)s KB", size=_decimal(doc.pdf_bytes // 1024, "0", w))
        downloads.append({"href": f"{base}{doc.stem}.pdf",
                          "text": _("%(document)s (PDF)", document=label),
                          "meta": w.ngettext("%(num)s page, %(size)s", "%(num)s pages, %(size)s",
                                             doc.pages, size=size),
                          "download": f"{folder}-{doc.stem}.pdf", "primary": chosen == doc.stem})
        if doc.html:
            downloads.append({"href": f"{base}{doc.stem}.html",
                              "text": _("%(document)s (HTML)", document=label),
                              "meta": _("opens in the browser"), "download": "",
                              "primary": False})
        previews.append({"stem": doc.stem, "label": label, "pages": doc.pages,
                         "thumbs": [{"src": f"{base}thumbs/{n}", "height": height}
                                    for n in rendered.thumb_names(doc.stem)]})
    downloads.sort(key=lambda d: not d["primary"])
    return {"config": config, "downloads": downloads, "previews": previews,
            "autostart": next((d["href"] for d in downloads if d["primary"]), ""),
            "paper_label": paper_label(config.paper, w),
            "game_title": game_title(config.game, w),
            "range_text": _("%(lo)s to %(hi)s", lo=config.range[0], hi=config.range[1]),
            "kit_lang": config.lang, "kit_language": LANGUAGES.get(config.lang, config.lang)}
