"""The console's start page: a new What's My Number? game, a new Lowest Unique Number party,
or a game continued from its TOML log. Every problem of a form is shown at once, beside its
field; a made game goes straight to its game master link (which sets the GM cookie)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..errors import KitError
from ..i18n import LANGUAGES, N_, Words, words
from ..web.pages import paper_label
from .pages import PageProblem, call, console, language, render, see_other
from .views import guard
from .views.start import (
    IMPORT_FIELDS,
    LUN_FIELDS,
    WMN_FIELDS,
    Form,
    absorb,
    import_form,
    lun_form,
    precheck,
    wmn_form,
)

KINDS = {"wmn": (wmn_form, WMN_FIELDS), "lun": (lun_form, LUN_FIELDS),
         "import": (import_form, IMPORT_FIELDS)}


def _field(key: str, form: str, name: str, label: str, hint: str, values: Mapping[str, str],
           problems: Mapping[str, list[str]], widget: str = "text", default: str = "",
           **extra: Any) -> dict[str, Any]:
    return {"id": f"{form}-{name}", "name": name, "label": label, "hint": hint,
            "value": values.get(name, default), "errors": problems.get(name, []),
            "widget": widget, **extra}


def _common_fields(key: str, values: Mapping[str, str], problems: Mapping[str, list[str]],
                   w: Words, lang: str) -> list[dict[str, Any]]:
    _ = w.gettext
    return [
        _field(key, key, "title", _("Title (optional)"), _("Printed on the reports and shown "
               "on the public page, up to 80 characters."), values, problems),
        _field(key, key, "lang", _("Report language"), _("The language of the reports and "
               "slips you print."), values, problems, "select", lang,
               choices=list(LANGUAGES.items())),
        _field(key, key, "paper", _("Paper"), _("Paper size of the printed reports."), values,
               problems, "select", "a4",
               choices=[(p, paper_label(p, w)) for p in ("a4", "letter")]),
    ]


def wmn_fields(values: Mapping[str, str], problems: Mapping[str, list[str]], w: Words,
               lang: str) -> list[dict[str, Any]]:
    _ = w.gettext
    return [
        _field("wmn", "wmn", "names", _("Player names"), _("One name per line (or separated by "
               "commas), up to 24 characters each. Leave empty to use letters A, B, C…"),
               values, problems, "textarea"),
        _field("wmn", "wmn", "players", _("Number of players"), _("Only without names: the "
               "players are then called A, B, C… (4 or more)."), values, problems, "number"),
        _field("wmn", "wmn", "range", _("Number range"), _("Two whole numbers LO-HI, e.g. "
               "1-60. Leave empty for the game’s own range (10 per player)."), values,
               problems),
        {"widget": "radios", "id": "wmn-draw", "name": "draw", "label": _("Secret numbers"),
         "hint": _("The console can draw each player’s secret number, or you type the numbers "
                   "the players chose."), "value": values.get("draw", "random"),
         "choices": [("random", _("Draw them at random")), ("typed", _("I type them below"))]},
        _field("wmn", "wmn", "secrets", _("Secret numbers, if you type them"), _("One line per "
               "player: name = number, e.g. Ann = 17."), values, problems, "textarea", rows=4),
        *_common_fields("wmn", values, problems, w, lang),
    ]


def lun_fields(values: Mapping[str, str], problems: Mapping[str, list[str]], w: Words,
               lang: str) -> list[dict[str, Any]]:
    _ = w.gettext
    return [
        _field("lun", "lun", "names", _("Player names"), _("One name per line. The console "
               "seats them as the kit does: 3 to 12 a table, the fewest tables, in the order "
               "given."), values, problems, "textarea"),
        _field("lun", "lun", "tables", _("Or your own tables"), _("One table per line, names "
               "separated by commas. Leave empty to seat the names above."), values, problems,
               "textarea", rows=4),
        _field("lun", "lun", "rounds", _("Rounds"), _("Rounds every table plays (1 to 20; "
               "5 if empty)."), values, problems, "number"),
        *_common_fields("lun", values, problems, w, lang),
    ]


def import_fields(values: Mapping[str, str], problems: Mapping[str, list[str]], w: Words,
                  lang: str) -> list[dict[str, Any]]:
    _ = w.gettext
    return [_field("import", "import", "log", _("Game log (TOML)"), _("Paste the whole log: "
                   "the file kit report reads, or one the console exported."), values,
                   problems, "textarea", rows=10)]


def _summary(form: Form | None, key: str, fields: list[dict[str, Any]]) -> list[dict[str, str]]:
    if form is None:
        return []
    ids = {f["name"]: f["id"] for f in fields if f["widget"] != "radios"}
    return [{"text": message, "anchor": ids.get(name, "")}
            for name, messages in form.problems.items() for message in messages]


def start_forms(w: Words, lang: str, posted: Form | None = None, kind: str = ""
                ) -> list[dict[str, Any]]:
    """The three forms; the posted one keeps its values and shows its problems."""
    _ = w.gettext
    specs = [
        ("wmn", _("New What’s My Number? game"), _("Four or more players, one game master. "
         "Each turn you type the orders into one grid and publish the turn report."),
         _("The game"), _("Start the game"), wmn_fields),
        ("lun", _("New Lowest Unique Number party"), _("Any number of players at tables of 3 "
         "to 12. Each table’s rounds are entered as they are played; a big screen shows the "
         "standings."), _("The party"), _("Start the party"), lun_fields),
        ("import", _("Continue a game from its log"), _("A game kept as a TOML log (by kit "
         "report, or exported from this console) continues here with its turns and rounds."),
         _("The log"), _("Continue this game"), import_fields),
    ]
    forms = []
    for key, title, intro, legend, button, make in specs:
        mine = posted if kind == key else None
        values = mine.values if mine else {}
        problems = mine.problems if mine else {}
        fields = make(values, problems, w, lang)
        forms.append({"key": key, "title": title, "intro": intro, "legend": legend,
                      "button": button, "fields": fields,
                      "problems": _summary(mine, key, fields)})
    return forms


async def start_page(request: Request) -> Response:
    lang = language(request)["lang"]
    return render(request, "console/start.html", forms=start_forms(words(lang), lang),
                  problems=False)


async def start_submit(request: Request) -> Response:
    kind = request.path_params["kind"]
    if kind not in KINDS:
        raise PageProblem(404, N_("Not found"), N_("There is no page here."))
    try:
        values = await guard.read_post(request)
    except guard.Refused as refused:
        raise PageProblem(refused.status, N_("Form refused"),
                          N_("This form was not accepted (it came from another site, or was too "
                             "large or unreadable). Nothing changed.")) from None
    lang = language(request)["lang"]
    w = words(lang)
    reader, fields = KINDS[kind]
    form = reader(values, w)
    if form.ok:
        service = console(request)
        try:
            if kind == "import":
                created = await call(service.import_log, values["log"])
            else:
                created = await call(service.create_game, form.spec)
        except KitError as error:
            absorb(form, error, fields, default=fields[0], w=w)
        else:
            keep = language(request)["keep"]
            query = "?new=1" + (keep.replace("?", "&") if keep else "")
            return see_other(f"/console/{created.id}/gm/{created.gm_token}{query}")
    elif kind != "import":
        precheck(form, fields, w)
    return render(request, "console/start.html", 422,
                  forms=start_forms(w, lang, form, kind), problems=True)
