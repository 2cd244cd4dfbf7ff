"""The site's pages: the index of ready-made kits, the custom-kit form and the result page.

One Jinja2 environment (autoescaped, ``StrictUndefined``) renders ``templates/site/`` for both
the static site and the server. The form is built from the option declarations
(``kit.registry.all_options``: ``kit.options.COMMON`` plus each game's own), so a new option is a
form field by itself; its parameter type picks the widget (``IntRange``: a number input with
its bounds, ``Choice``: a select, ``Flag``: a checkbox, ``Names``: a textarea, ``Text``: a text
input with its length cap, anything else: a text input). ``out`` (a ``Folder``) is never a
field: the server decides where files go.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from .. import __version__
from ..config import KitConfig, resolve
from ..errors import KitError
from ..options import NAME_MAX, Choice, Flag, Folder, IntRange, Names, NumberRange, Option, Text
from ..paper import PAPERS
from ..paper import paper as paper_by_name
from ..resources import templates_dir
from .kits import READY_MAX_PLAYERS, DocumentInfo, Rendered, document_label, download_name

SITE_CSS = "site/site.css"
SITE_ICON = "site/favicon.svg"
WEB_MAX_PLAYERS = 120  # one request may not ask for an unbounded render; bigger: `kit build`

LABELS = {"names": "Player names", "range": "Custom number range", "title": "Event title",
          "date": "Event date", "players": "Number of players"}
HELP = {"names": f"One name per line, 1 to {NAME_MAX} characters each. Names set the number of "
        "players and are printed on the slips.",
        "range": "Two whole numbers LO-HI, e.g. 1-20. Leave empty for the game’s own range.",
        "players": f"A whole number; the web form makes kits for up to {WEB_MAX_PLAYERS} "
        "players (use the command line for more). Leave empty for the game’s own default."}
RANGE_WARNING = ("a custom range changes the odds the rules were tuned for. It is printed on every "
                 "player page; announce it before the first round.")


# --- environment ------------------------------------------------------------------------------

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


def site_icon() -> bytes:
    return (templates_dir() / SITE_ICON).read_bytes()


def render_page(template: str, *, root: str = "/", home: str = "/", **context: object) -> str:
    """A page of the site; ``root`` prefixes every link ('' for the static site)."""
    return site_environment().get_template(template).render(root=root, home=home, **context)


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
        return paper_by_name(self.config.paper).label


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


def index_groups(cards: Sequence[KitCard]) -> list[dict[str, object]]:
    """Cards grouped game -> paper, in registry order, papers in PAPERS order."""
    from ..registry import GAMES

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
    return render_page("site/index.html", root=root, home=home, groups=index_groups(cards),
                       form=form, kit_count=len(cards), ready_max=READY_MAX_PLAYERS)


# --- the custom-kit form ----------------------------------------------------------------------

def form_options() -> list[tuple[Option, tuple[str, ...]]]:
    """Every option but the output folder, with the games it belongs to (empty: all)."""
    from ..registry import all_options

    return [(o, games) for o, games in all_options() if not isinstance(o.type, Folder)]


def widget(option: Option) -> dict[str, object]:
    """The input for an option, from its parameter type."""
    kind = option.type
    if isinstance(kind, Flag):
        return {"widget": "checkbox"}
    if isinstance(kind, Choice):
        labels = {p: paper_by_name(p).label for p in PAPERS} if option.key == "paper" else {}
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


@cache
def form_formats() -> list[tuple[str, str]]:
    """'zip' and one PDF per document stem any registered game makes (from its default plan)."""
    from ..registry import GAMES

    stems: dict[str, str] = {}
    for name, spec in GAMES.items():
        try:
            plan = spec.plan(resolve({"game": name}))
        except KitError:  # a game whose defaults do not plan still gets the zip choice
            continue
        for document in plan.documents:
            stems.setdefault(document.stem, document_label(document.stem))
    return [("zip", "The whole kit folder (.zip): PDFs, HTML and fonts")] + [
        (stem, f"{label} (PDF)") for stem, label in stems.items()]


def _game_field(values: Mapping[str, str], error: str) -> dict[str, object]:
    from ..registry import GAMES

    return {"key": "game", "id": "f-game", "widget": "select", "label": "Game",
            "choices": [(name, spec.title) for name, spec in GAMES.items()],
            "help": "Which game the kit is for.", "warning": "",
            "value": values.get("game", ""), "error": error}


def _field(option: Option, values: Mapping[str, str], error: str) -> dict[str, object]:
    shape = widget(option)
    if option.key in values:
        value: object = values[option.key]
        if shape["widget"] == "checkbox":
            value = str(value).lower() in ("true", "on", "yes")
    else:
        value = False if shape["widget"] == "checkbox" else default_text(option)
    return {"choices": [], **shape, "key": option.key, "id": f"f-{option.key}",
            "label": LABELS.get(option.key, option.key.replace("_", " ").capitalize()),
            "help": HELP.get(option.key, option.help[:1].upper() + option.help[1:] + "."),
            "warning": RANGE_WARNING if isinstance(option.type, NumberRange) else "",
            "value": value, "error": error}


def build_form(values: Mapping[str, str] | None = None,
               errors: Iterable[KitError] = (), format_error: str = "") -> dict[str, object]:
    """The form's fields, one per option (but ``out``), grouped by the games they belong to.

    New options appear by themselves: their type picks the widget, their help is the CLI's.
    """
    from ..registry import GAMES

    values = dict(values or {})
    errors = list(errors)
    by_field: dict[str, str] = {}
    for error in errors:
        by_field.setdefault(error.field, error.message)
    groups: dict[tuple[str, ...], list[dict[str, object]]] = {
        (): [_game_field(values, by_field.get("game", ""))]}
    for option, games in form_options():
        groups.setdefault(games, []).append(_field(option, values, by_field.get(option.key, "")))
    legend_groups = []
    for games, fields in groups.items():
        if not games:
            legend, note = "Your game", ""
        else:
            titles = " and ".join(GAMES[g].title for g in games if g in GAMES) or ", ".join(games)
            legend, note = f"Only for {titles}", "Ignored for other games unless changed."
        legend_groups.append({"legend": legend, "note": note, "fields": fields})
    keys = {"game"} | {o.key for o, _ in form_options()}
    summary = [{"text": str(e), "anchor": f"f-{e.field}" if e.field in keys else ""}
               for e in errors]
    formats = list(form_formats())
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

def result_context(key: str, rendered: Rendered, chosen: str) -> dict[str, object]:
    """What ``site/result.html`` shows: downloads (the chosen one first) and page previews."""
    from ..registry import GAMES

    config = rendered.config
    base = f"/custom/{key}/"
    folder = download_name(rendered.kit.folder, key)
    stems = [doc.stem for doc in rendered.documents]
    downloads = [{"href": base + "kit.zip", "text": "Whole kit folder (.zip)",
                  "meta": "PDFs, HTML pages and fonts", "download": folder + ".zip",
                  # e.g. a split party has per-table files instead of the chosen stem
                  "primary": chosen == "zip" or (bool(chosen) and chosen not in stems)}]
    previews = []
    sheet = paper_by_name(config.paper)
    height = round(160 * sheet.height_mm / sheet.width_mm)
    for doc in rendered.documents:
        downloads.append({"href": f"{base}{doc.stem}.pdf", "text": f"{doc.label} (PDF)",
                          "meta": f"{doc.pages} pages, {doc.pdf_bytes // 1024} KB",
                          "download": f"{folder}-{doc.stem}.pdf", "primary": chosen == doc.stem})
        if doc.html:
            downloads.append({"href": f"{base}{doc.stem}.html", "text": f"{doc.label} (HTML)",
                              "meta": "opens in the browser", "download": "", "primary": False})
        previews.append({"stem": doc.stem, "label": doc.label, "pages": doc.pages,
                         "thumbs": [{"src": f"{base}thumbs/{n}", "height": height}
                                    for n in rendered.thumb_names(doc.stem)]})
    downloads.sort(key=lambda d: not d["primary"])
    spec = GAMES.get(config.game)
    return {"config": config, "downloads": downloads, "previews": previews,
            "autostart": next((d["href"] for d in downloads if d["primary"]), ""),
            "paper_label": sheet.label, "game_title": spec.title if spec else config.game}
