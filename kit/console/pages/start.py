"""The console's start page: a new game of each game the registry gives a console part (its
``StartForm``), or a game continued from its TOML log. Every problem of a form is shown at once,
beside its field; a made game goes straight to its game master link (which sets the GM
cookie)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ...errors import KitError
from ...game import StartForm
from ...game.start_form import (
    COMMON_FIELDS,
    IMPORT_FIELDS,
    Form,
    absorb,
    common,
    field,
    import_form,
)
from ...i18n import LANGUAGES, N_, Words, words
from ...paper import PAPERS, paper_label
from ..addressing import base_url
from ..mail.invitations import invite_new
from ..specs import check_new_game, console_games
from . import auth
from .base import PageProblem, call, console, language, read_post_or_refuse, render, see_other

IMPORT = StartForm(
    key="import", title=N_("Continue a game from its log"),
    intro=N_("A game kept as a TOML log (by kit report, or exported from this console) "
             "continues here with its turns and rounds."),
    legend=N_("The log"), button=N_("Continue this game"), fields=IMPORT_FIELDS,
    show=lambda values, problems, w, lang: [field(
        "import", "log", w.gettext("Game log (TOML)"), w.gettext(
            "Paste the whole log: the file kit report reads, or one the console exported."),
        values, problems, "textarea", rows=10)],
    read=import_form)


def _forms() -> dict[str, StartForm]:
    """Every game's start form, then the import form."""
    forms = {game.start.key: game.start for game in console_games().values()}
    return {**forms, IMPORT.key: IMPORT}


def _fields(form: StartForm) -> tuple[str, ...]:
    return form.fields if form is IMPORT else (*form.fields, *COMMON_FIELDS)


def common_fields(key: str, values: Mapping[str, str], problems: Mapping[str, list[str]],
                  w: Words, lang: str) -> list[dict[str, Any]]:
    """The title, language and paper fields every new game's form ends with."""
    _ = w.gettext
    return [
        field(key, "title", _("Title (optional)"), _("Printed on the reports and shown "
              "on the public page, up to 80 characters."), values, problems),
        field(key, "lang", _("Report language"), _("The language of the reports and "
              "slips you print."), values, problems, "select", lang,
              choices=list(LANGUAGES.items())),
        field(key, "paper", _("Paper"), _("Paper size of the printed reports."), values,
              problems, "select", "a4", choices=[(p, paper_label(p, w)) for p in PAPERS]),
    ]


def _summary(form: Form | None, fields: list[dict[str, Any]]) -> list[dict[str, str]]:
    if form is None:
        return []
    ids = {f["name"]: f["id"] for f in fields if f["widget"] != "radios"}
    return [{"text": message, "anchor": ids.get(name, "")}
            for name, messages in form.problems.items() for message in messages]


def start_forms(w: Words, lang: str, posted: Form | None = None, kind: str = ""
                ) -> list[dict[str, Any]]:
    """Every form; the posted one keeps its values and shows its problems."""
    out = []
    for key, start in _forms().items():
        mine = posted if kind == key else None
        values = mine.values if mine else {}
        problems = mine.problems if mine else {}
        fields = start.show(values, problems, w, lang)
        if start is not IMPORT:
            fields += common_fields(key, values, problems, w, lang)
        out.append({"key": key, "title": w.gettext(start.title),
                    "intro": w.gettext(start.intro), "legend": w.gettext(start.legend),
                    "button": w.gettext(start.button), "fields": fields,
                    "problems": _summary(mine, fields)})
    return out


def precheck(form: Form, fields: tuple[str, ...], w: Words) -> None:
    """The service's own check of the spec, run when the form already has problems: what only
    it finds (a secret outside the range, ...) shows in the same pass, beside fields the form
    has not flagged (the form's own words stay where it has)."""
    try:
        check_new_game(form.spec, random.Random(0))
    except KitError as error:
        extra = Form(form.values)
        absorb(extra, error, fields, default=fields[0], w=w)
        for key, messages in extra.problems.items():
            form.problems.setdefault(key, messages)


async def start_page(request: Request) -> Response:
    lang = language(request)["lang"]
    service = console(request)
    held = [g for g in auth.games_held(request.cookies) if await call(service.exists, g)]
    return render(request, "console/start.html", forms=start_forms(words(lang), lang),
                  problems=False, held=held)


async def start_submit(request: Request) -> Response:
    kind = request.path_params["kind"]
    start = _forms().get(kind)
    if start is None:
        raise PageProblem(404, N_("Not found"), N_("There is no page here."))
    values = await read_post_or_refuse(request)
    lang = language(request)["lang"]
    w = words(lang)
    fields = _fields(start)
    form = start.read(values, w)
    if start is not IMPORT:
        common(form, w)
    if form.ok:
        service = console(request)
        try:
            client = request.client.host if request.client else ""
            if start is IMPORT:
                created = await call(service.import_log, values["log"], client=client)
            else:
                created = await call(service.create_game, form.spec, client)
        except KitError as error:
            absorb(form, error, fields, default=fields[0], w=w)
        else:
            keep = language(request)["keep"]
            invited = await call(invite_new, service, created, base_url(request))
            query = "?new=1" + (f"&invited={len(invited.queued)}" if invited and invited.queued
                                else "") \
                + (keep.replace("?", "&") if keep else "")
            return see_other(f"/console/{created.id}/gm/{created.gm_token}{query}")
    elif start is not IMPORT:
        precheck(form, fields, w)
    return render(request, "console/start.html", 422,
                  forms=start_forms(w, lang, form, kind), problems=True)
