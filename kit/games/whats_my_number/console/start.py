"""What's My Number? on the console's start page and public pages: the new-game form, and
the public standings and turn reports (from the public view's data only)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache, partial
from typing import Any

from ....errors import KitError, ngettext
from ....game import StartForm
from ....game.start_form import Form, check_names, field, not_a_player, split_names, whole
from ....i18n import N_, Words, words
from ....options import parse_range
from .. import rules
from ..report import turn_notes as notes
from ..report.reports import row_label, win_text
from ..rules.model import MIN_PLAYERS, NAME, check_range, needs_players
from ..sheets.people import answer, labels
from . import screen
from .turns import latest_count, why_won

MAX_NAMES = 120
FIELDS = ("names", "players", "range", "secrets", "emails")  # in page order
_SECRET_LINE = re.compile(r"\s*(.+?)\s*(?:=|:|\s)\s*(-?[0-9]+)\s*")
_EMAIL_LINE = re.compile(r"\s*(.+?)\s*(?:=|:)\s*(\S+@\S+)\s*")


def fields(values: Mapping[str, str], problems: Mapping[str, list[str]], w: Words,
           lang: str) -> list[dict[str, Any]]:
    """The new game form's own fields (the console adds title, language and paper)."""
    _ = w.gettext
    return [
        field("wmn", "names", _("Player names"), _("One name per line (or separated by "
              "commas), up to 24 characters each. Leave empty to use letters A, B, C…"),
              values, problems, "textarea"),
        field("wmn", "players", _("Number of players"), _("Only without names: the "
              "players are then called A, B, C… (4 or more)."), values, problems, "number"),
        field("wmn", "range", _("Number range"), _("Two whole numbers LO-HI, e.g. "
              "1-60. Leave empty for the game’s own range: 1 to 10 × (players − 1), "
              "e.g. 1-60 for 7 players."), values,
              problems),
        {"widget": "radios", "id": "wmn-draw", "name": "draw", "label": _("Secret numbers"),
         "hint": _("The console can draw each player’s secret number, you type the numbers "
                   "the players chose, or each player chooses on their own page before "
                   "turn 1."), "value": values.get("draw", "random"),
         "choices": [("random", _("Draw them at random")), ("typed", _("I type them below")),
                     ("players", _("Each player chooses their own on their page"))]},
        field("wmn", "secrets", _("Secret numbers, if you type them"), _("One line per "
              "player: name = number, e.g. Ann = 17."), values, problems, "textarea", rows=4),
        field("wmn", "emails", _("E-mail addresses (optional)"), _("One line per player who "
              "gets each turn’s report by e-mail: name = address, e.g. Ann = ann@example.org. "
              "You can add or remove addresses later."), values, problems, "textarea", rows=4),
    ]


def _emails(form: Form, names: list[str], w: Words) -> dict[str, str]:
    """``name = address`` lines; the console checks each address."""
    emails: dict[str, str] = {}
    for line in form.values.get("emails", "").splitlines():
        if not line.strip():
            continue
        found = _EMAIL_LINE.fullmatch(line)
        if found is None:
            form.add("emails", w.gettext("%(line)s: write a name and an address, e.g. Ann = "
                                         "ann@example.org.", line=line.strip()[:60]))
            continue
        real = next((n for n in names if n.casefold() == found[1].casefold()), None)
        if real is None:
            form.add("emails", not_a_player(found[1], names, w))
        elif real in emails:  # the last line would win: Ann's letters to someone else
            form.add("emails", w.gettext("%(name)s has two addresses.", name=real))
        else:
            emails[real] = found[2]
    return emails


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


def _range(form: Form, text: str, players: int, w: Words) -> None:
    """The range by the kit's one grammar, and the game's check that it holds a number for
    every player (the engine's words)."""
    try:
        bounds = parse_range("range", text)
        if players:
            check_range(bounds, players)
    except KitError as error:
        form.add("range", error.text(w))


def wmn_form(values: Mapping[str, str], w: Words) -> Form:
    """The new What's My Number? game form -> ``{"game", "players", "range", "secrets"?, ...}``."""
    form = Form(values, {"game": NAME})
    names = split_names(values.get("names", ""))
    count = whole(form, "players", values.get("players", ""), w)
    check_names(form, "names", names, w)
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
    if given_range := values.get("range", "").strip():
        form.spec["range"] = given_range
        _range(form, given_range, len(names), w)
    if values.get("draw", "random") == "typed" and names:
        form.spec["secrets"] = _secrets(form, names, w)
    elif values.get("draw") == "players":
        form.spec["secrets"] = "players"
    if values.get("emails", "").strip() and names:
        form.spec["emails"] = _emails(form, names, w)
    return form


START = StartForm(
    key="wmn", title=N_("New What’s My Number? game"),
    intro=N_("Four or more players, one game master. Each turn you type the orders into one "
             "grid and publish the turn report."),
    legend=N_("The game"), button=N_("Start the game"), fields=FIELDS, show=fields,
    read=wmn_form)


def _answer(cell: str, w: Words) -> str:
    try:
        return answer(cell, w)
    except (KeyError, ValueError):
        return cell


def _status(value: object) -> rules.GuessStatus:
    return "void" if value == "void" else "ignored" if value == "ignored" else "ok"


def public_turns(public: Mapping[str, Any], w: Words) -> list[dict[str, Any]]:
    """The latest published turn reports (``turns.latest_count``: the older ones are
    in the report files) as the printed report shows them (answers, never the guesses),
    newest first; the answers in the game's letters, which its players' labels avoid (the
    page's language may have others: a label "H" beside H/N)."""
    letters = words(public.get("lang") or w.lang)
    symbol = cache(partial(_answer, w=letters))  # a few codes, 20,000 cells a turn
    reports = list(public.get("turns", []))
    count = latest_count([sum(len(row.get("cells", ())) or 1 for row in report.get("rows", ()))
                          for report in reports])
    turns = []
    for report in reports[len(reports) - count:]:
        rows = []
        for row in report.get("rows", []):  # in the printed report's words ("Anne 3 (void)")
            if "cells" in row:
                shown = rules.GuessRow(row["player"], int(row.get("index", 0)), 0,
                                       tuple(row["cells"]), bool(row.get("bonus")),
                                       _status(row.get("status")))
                rows.append({"label": row_label(shown, w),
                             "cells": [symbol(c) for c in row["cells"]]})
            else:
                listed = rules.ListRow(row.get("player", ""), int(row.get("correct", 0)),
                                       bool(row.get("partial")), int(row.get("listed", 0)))
                rows.append({"label": row_label(listed, w), "cells": [],
                             "list": notes.list_text(listed, w)})
        turns.append({"number": report.get("number"), "rows": rows,
                      "no_orders": list(report.get("no_orders", [])), "rulings": [],
                      "winners": list(report.get("winners", [])), "why": why_won(report, w)})
    return list(reversed(turns))


def standings(public: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Players by numbers found (most first, then player order); winners first, each having
    found every other number (a list finds them without a hit). Once the game is over no
    row says the next turn's guesses (``allowance`` None)."""
    winners = set(public.get("winners", []))
    players = list(public.get("players", []))
    found = {**public.get("identified", {}), **dict.fromkeys(winners, len(players) - 1)}
    over = bool(public.get("over"))
    allowance = {} if over else public.get("next_allowance", {})
    order = sorted(players, key=lambda p: (p not in winners, -int(found.get(p, 0)),
                                           players.index(p)))
    rows: list[dict[str, Any]] = []
    place = 0
    for i, p in enumerate(order):
        key = (p in winners, found.get(p, 0))
        if not rows or key != rows[-1]["key"]:
            place = i + 1
        rows.append({"key": key, "place": place, "player": p, "points": found.get(p, 0),
                     "winner": p in winners, "allowance": None if over else allowance.get(p, "")})
    return rows


def board(public: Mapping[str, Any], w: Words) -> dict[str, Any]:
    """The public page's and the big screen's context, from the public view's data."""
    turns = public_turns(public, w)
    ranked = standings(public)
    over = bool(public.get("over"))
    return {"game_title": w.gettext("What’s My Number?"), "turns": turns,
            "older_turns": len(public.get("turns", [])) - len(turns),
            "standings": ranked, "players": public.get("players", []),
            "latest": turns[0] if turns else None, "race": screen.race_chart(public, w),
            "tallies": screen.tallies(public, w), "secrets": screen.secrets(public, w),
            "podium": screen.podium(ranked, over), "over": over,
            "published": public.get("published", 0), "winners": public.get("winners", []),
            "shown": bool(public.get("published")), **end_board(public, w)}


def end_board(public: Mapping[str, Any], w: Words) -> dict[str, Any]:
    """The end as the boards say it: how the winners won ("Bob wins in turn 4, by a fully
    correct list."); nothing before the end (the secret numbers: ``screen.secrets``)."""
    if not public.get("over"):
        return {"over": False, "how": ""}
    winners = list(public.get("winners", []))
    how = win_text(winners, public.get("won_by"), int(public.get("winning_turn") or 0), w)
    return {"over": True, "how": how}
