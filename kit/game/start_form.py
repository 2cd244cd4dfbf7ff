"""The start page's forms, as every game's form reads them -> the spec ``create`` takes.

Problems are collected, never raised one at a time: every field's problems come back together
(``Form.problems``: field -> messages, in the page language), each with a suggestion where one
helps ("did you mean Fay?"). The service's own ``Problems`` are folded in by ``absorb``. The
games' own forms (``StartForm``) are made of these parts; nothing here names a game.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as default
from typing import Any

from ..errors import KitError
from ..i18n import LANGUAGES, Words
from ..names import LookAlikes, look_alike_msg
from ..options import split_names
from ..paper import PAPERS
from . import said

MAX_NAMES = 120
MAX_NAME_CHARS = 24
COMMON_FIELDS = ("title", "lang", "paper")
IMPORT_FIELDS = ("log",)  # the fields of a form, in page order


@dataclass
class Form:
    """A posted form: the values as typed, the spec built from them, and every problem."""

    values: Mapping[str, str]
    spec: dict[str, object] = default(default_factory=dict)
    problems: dict[str, list[str]] = default(default_factory=dict)

    def add(self, key: str, message: str) -> None:
        self.problems.setdefault(key, []).append(message)

    @property
    def ok(self) -> bool:
        return not self.problems


def suggest(name: str, names: Iterable[str]) -> str | None:
    """The player ``name`` was probably meant as (case and small typos forgiven), or None."""
    names = list(names)
    folded = {n.casefold(): n for n in names}
    if name.casefold() in folded:
        return folded[name.casefold()]
    close = difflib.get_close_matches(name.casefold(), list(folded), n=1, cutoff=0.6)
    return folded[close[0]] if close else None


def not_a_player(name: str, names: Iterable[str], w: Words) -> str:
    """'Fey is not a player; did you mean Fay?' (or the list of players without a guess)."""
    names = list(names)
    guess = suggest(name, names)
    if guess is not None:
        return w.gettext("%(name)s is not a player; did you mean %(guess)s?", name=name,
                         guess=guess)
    return w.gettext("%(name)s is not a player; the players are %(players)s.", name=name,
                     players=w.join(names))


def check_names(form: Form, key: str, names: list[str], w: Words) -> None:
    seen: dict[str, str] = {}
    alike = LookAlikes()  # the names of ``seen``, in its order
    for name in names:
        if len(name) > MAX_NAME_CHARS:
            form.add(key, w.gettext("%(name)s is longer than %(max)s characters.",
                                    name=name[:MAX_NAME_CHARS] + "…", max=MAX_NAME_CHARS))
        elif name.casefold() in seen:
            form.add(key, w.gettext("%(name)s is there twice; give each player a different "
                                    "name (e.g. %(name)s 2).", name=name))
        elif (earlier := alike.like(name)) is not None:
            form.add(key, look_alike_msg(earlier, name).text(w))
        if name.casefold() not in seen:
            seen[name.casefold()] = name
            alike.add(name)
    if len(names) > MAX_NAMES:
        form.add(key, w.gettext("%(count)s names; the console takes at most %(max)s.",
                                count=len(names), max=MAX_NAMES))


def whole(form: Form, key: str, text: str, w: Words) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not re.fullmatch(r"[0-9]{1,4}", text):
        form.add(key, w.gettext("%(value)s is not a whole number.", value=text[:20]))
        return None
    return int(text)


def common(form: Form, w: Words) -> None:
    lang = form.values.get("lang", "en")
    if lang not in LANGUAGES:
        form.add("lang", w.gettext("Choose one of the languages in the list."))
    paper = form.values.get("paper", "a4")
    if paper not in PAPERS:
        form.add("paper", w.gettext("Choose A4 or US Letter."))
    form.spec.update(lang=lang, paper=paper)
    title = form.values.get("title", "").strip()
    if len(title) > 80:
        form.add("title", w.gettext("%(count)s characters; a title takes at most 80.",
                                    count=len(title)))
    if title:
        form.spec["title"] = title


def import_form(values: Mapping[str, str], w: Words) -> Form:
    form = Form(values)
    if not values.get("log", "").strip():
        form.add("log", w.gettext("Paste the game log (the TOML file kit report reads)."))
    return form


def absorb(form: Form, error: KitError, fields: Iterable[str], default: str = "",
           w: Words | None = None) -> None:
    """The service's problems, each beside its field (``secrets.Ann`` -> ``secrets``), in the
    page's language (``w``; English without); one naming no field of the form goes to
    ``default`` ('' = the summary only). The spec's ``players`` are the names when names were
    typed."""
    known = set(fields)
    named = bool(split_names(form.values.get("names", "")))
    for problem in said.each(error):
        head = re.split(r"[.\[ ,]", problem.field, maxsplit=1)[0]
        if head == "players" and named:
            head = "names"
        key = head if head in known else default
        if key == "" or key != head:  # beside another field: say which part it is about
            form.add(key, said.line(problem, w))
        else:
            form.add(key, problem.text(w))


def field(form: str, name: str, label: str, hint: str, values: Mapping[str, str],
          problems: Mapping[str, list[str]], widget: str = "text", default: str = "",
          **extra: Any) -> dict[str, Any]:
    """One field of a start form, as ``console/_field.html`` shows it."""
    return {"id": f"{form}-{name}", "name": name, "label": label, "hint": hint,
            "value": values.get(name, default), "errors": problems.get(name, []),
            "widget": widget, **extra}
