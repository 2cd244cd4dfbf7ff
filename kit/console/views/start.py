"""The start page's three forms -> what ``Console.create_game`` / ``import_log`` take.

Problems are collected, never raised one at a time: every field's problems come back together
(``Form.problems``: field -> messages, in the page language), each with a suggestion where one
helps ("did you mean Fay?"). The service's own ``Problems`` are folded in by ``absorb``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ...errors import KitError, ngettext
from ...i18n import LANGUAGES, N_, Words
from . import said

WMN = "whats-my-number"
LUN = "lowest-unique"
MAX_NAMES = 120
MAX_NAME_CHARS = 24
# the fields of each form, in page order: a service problem about anything else is shown at the top
WMN_FIELDS = ("names", "players", "range", "secrets", "title", "lang", "paper")
LUN_FIELDS = ("names", "tables", "rounds", "title", "lang", "paper")
IMPORT_FIELDS = ("log",)
_SECRET_LINE = re.compile(r"\s*(.+?)\s*(?:=|:|\s)\s*(-?[0-9]+)\s*")


@dataclass
class Form:
    """A posted form: the values as typed, the spec built from them, and every problem."""

    values: Mapping[str, str]
    spec: dict[str, object] = field(default_factory=dict)
    problems: dict[str, list[str]] = field(default_factory=dict)

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


def split_names(text: str) -> list[str]:
    """Names one per line (commas also separate), blanks dropped."""
    return [n.strip() for line in text.splitlines() for n in line.split(",") if n.strip()]


def _check_names(form: Form, key: str, names: list[str], w: Words) -> None:
    seen: dict[str, str] = {}
    for name in names:
        if len(name) > MAX_NAME_CHARS:
            form.add(key, w.gettext("%(name)s is longer than %(max)s characters.",
                                    name=name[:MAX_NAME_CHARS] + "…", max=MAX_NAME_CHARS))
        elif name.casefold() in seen:
            form.add(key, w.gettext("%(name)s is there twice; give each player a different "
                                    "name (e.g. %(name)s 2).", name=name))
        seen.setdefault(name.casefold(), name)
    if len(names) > MAX_NAMES:
        form.add(key, w.gettext("%(count)s names; the console takes at most %(max)s.",
                                count=len(names), max=MAX_NAMES))


def _whole(form: Form, key: str, text: str, w: Words) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not re.fullmatch(r"[0-9]{1,4}", text):
        form.add(key, w.gettext("%(value)s is not a whole number.", value=text[:20]))
        return None
    return int(text)


def _common(form: Form, w: Words) -> None:
    lang = form.values.get("lang", "en")
    if lang not in LANGUAGES:
        form.add("lang", w.gettext("Choose one of the languages in the list."))
    paper = form.values.get("paper", "a4")
    if paper not in ("a4", "letter"):
        form.add("paper", w.gettext("Choose A4 or US Letter."))
    form.spec.update(lang=lang, paper=paper)
    title = form.values.get("title", "").strip()
    if len(title) > 80:
        form.add("title", w.gettext("%(count)s characters; a title takes at most 80.",
                                    count=len(title)))
    if title:
        form.spec["title"] = title


def _secrets(form: Form, names: list[str], w: Words) -> dict[str, int]:
    secrets: dict[str, int] = {}
    for line in form.values.get("secrets", "").splitlines():
        if not line.strip():
            continue
        found = _SECRET_LINE.fullmatch(line)
        if found is None:
            form.add("secrets", w.gettext("%(line)s: write a name and a number, e.g. Ann = 17.",
                                          line=line.strip()[:40]))
            continue
        name, number = found[1], int(found[2])
        real = next((n for n in names if n.casefold() == name.casefold()), None)
        if real is None:
            form.add("secrets", not_a_player(name, names, w))
        elif real in secrets:
            form.add("secrets", w.gettext("%(name)s has two secret numbers.", name=real))
        else:
            secrets[real] = number
    missing = [n for n in names if n not in secrets]
    if missing and not form.problems.get("secrets"):
        form.add("secrets", w.gettext("No secret number for %(names)s (or choose “draw at "
                                      "random”).", names=w.join(missing)))
    return secrets


def _check_range(form: Form, text: str, players: int, w: Words) -> None:
    """The range by the kit's one grammar, and the game's check that it holds a number for
    every player (the engine's words)."""
    from ...games.whats_my_number.model import check_range
    from ...options import parse_range

    try:
        bounds = parse_range("range", text)
        if players:
            check_range(bounds, players)
    except KitError as error:
        form.add("range", error.text(w))


def wmn_form(values: Mapping[str, str], w: Words) -> Form:
    """The new What's My Number? game form -> ``{"game", "players", "range", "secrets"?, ...}``."""
    from ...games.whats_my_number.model import MIN_PLAYERS, needs_players
    from ...games.whats_my_number.people import labels

    form = Form(values, {"game": WMN})
    names = split_names(values.get("names", ""))
    count = _whole(form, "players", values.get("players", ""), w)
    _check_names(form, "names", names, w)
    if names and count is not None and count != len(names):
        form.add("players", w.gettext("%(count)s players, but %(names)s names; give a count or "
                                      "names, or make them agree.", count=count, names=len(names)))
    if not names and count is None and "players" not in form.problems:
        form.add("names", w.gettext("Give the players’ names, or their number."))
    if names and len(names) < MIN_PLAYERS:  # said with the names' other problems, at once
        form.add("names", needs_players(ngettext("%(num)s player listed",
                                                 "%(num)s players listed", len(names))).text(w))
    if not names and count is not None:
        names = labels(count, w) if MIN_PLAYERS <= count <= MAX_NAMES else []
        if not names:
            form.add("players", w.gettext("From 4 to %(max)s players.", max=MAX_NAMES))
    form.spec["players"] = names
    if values.get("range", "").strip():
        form.spec["range"] = values["range"].strip()
        _check_range(form, form.spec["range"], len(names), w)
    if values.get("draw", "random") == "typed" and names:
        form.spec["secrets"] = _secrets(form, names, w)
    _common(form, w)
    return form


def lun_tables(form: Form, w: Words, rounds: int | None) -> list[list[str]]:
    """The tables: given one per line, or the names seated by the kit's rule (3 to 12 a table,
    the fewest tables, sizes differing by at most one, in the order given)."""
    from ...config import resolve, seat

    given = [split_names(line) for line in form.values.get("tables", "").splitlines()]
    given = [t for t in given if t]
    names = split_names(form.values.get("names", ""))
    if given and names:
        form.add("tables", w.gettext("Give names or tables, not both."))
        return []
    if given:
        _check_names(form, "tables", [n for t in given for n in t], w)
        for number, table in enumerate(given, start=1):
            if not 3 <= len(table) <= 12:
                form.add("tables", w.gettext("Table %(table)s has %(count)s players; a table "
                                             "seats 3 to 12.", table=number, count=len(table)))
        return given
    if not names:
        form.add("names", w.gettext("Give the players’ names (or the tables)."))
        return []
    _check_names(form, "names", names, w)
    if form.problems.get("names"):  # seat them even when another field has a problem
        return []
    try:
        config = resolve({"game": LUN, "names": names, **({"rounds": rounds} if rounds else {})},
                         "the form")
    except KitError as exc:
        absorb(form, exc, ("names",), "names", w)
        return []
    return [list(c.names) for c in seat(config)]


def lun_form(values: Mapping[str, str], w: Words) -> Form:
    """The new Lowest Unique Number party form -> ``{"game", "tables", "rounds", ...}``."""
    form = Form(values, {"game": LUN})
    rounds = _whole(form, "rounds", values.get("rounds", ""), w)
    if rounds is not None and not 1 <= rounds <= 20:
        form.add("rounds", w.gettext("From 1 to 20 rounds."))
        rounds = None
    form.spec["tables"] = lun_tables(form, w, rounds)
    form.spec["rounds"] = rounds or 5
    _common(form, w)
    return form


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


def precheck(form: Form, fields: tuple[str, ...], w: Words) -> None:
    """The service's own check of the spec, run when the form already has problems: what only
    it finds (a secret outside the range, ...) shows in the same pass, beside fields the form
    has not flagged (the form's own words stay where it has)."""
    import random

    from ..games import check_new_game

    try:
        check_new_game(form.spec, random.Random(0))
    except KitError as error:
        extra = Form(form.values)
        absorb(extra, error, fields, default=fields[0], w=w)
        for key, messages in extra.problems.items():
            form.problems.setdefault(key, messages)


__all__ = ["Form", "IMPORT_FIELDS", "LUN_FIELDS", "N_", "WMN_FIELDS", "absorb", "import_form",
           "lun_form", "not_a_player", "precheck", "suggest", "wmn_form"]
