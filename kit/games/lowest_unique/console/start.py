"""Lowest Unique Number on the console's start page and public pages: the new party form, and
the public boards (from the public view's data only)."""

from __future__ import annotations

import datetime
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from ....errors import Msg
from ....game import StartForm
from ....game.start_form import Form, check_names, field, split_names, whole
from ....i18n import N_, Words
from ....tables import deal, table_sizes
from ..report.charts import web_charts
from ..rules import DEFAULT_ROUNDS, MAX_PLAYERS, MIN_PLAYERS, NAME, TITLE
from .reveal import finished, podium, reveals

FIELDS = ("names", "tables", "rounds", "variant")  # in page order
# the variant field's values -> the log's flag (announced before round one, on this form)
VARIANTS = {"cooperative": "cooperative", "sudden-death": "sudden_death_announced"}


def fields(values: Mapping[str, str], problems: Mapping[str, list[str]], w: Words,
           lang: str) -> list[dict[str, Any]]:
    """The new party form's own fields (the console adds title, language and paper)."""
    _ = w.gettext
    return [
        field("lun", "names", _("Player names"), _("One name per line. The console "
              "seats them as the kit does: 3 to 12 a table, the fewest tables, in the order "
              "given."), values, problems, "textarea"),
        field("lun", "tables", _("Or your own tables"), _("One table per line, names "
              "separated by commas. Leave empty to seat the names above."), values, problems,
              "textarea", rows=4),
        field("lun", "rounds", _("Rounds"), _("Rounds every table plays (1 to 20; "
              "5 if empty)."), values, problems, "number"),
        field("lun", "variant", _("Variant"), _("Announced now, before round one; a party "
              "started without one plays neither."), values, problems, "select",
              choices=[("", _("Points: the highest total wins, equal totals share")),
                       ("cooperative", _("Cooperative: no points; each table counts the "
                                         "rounds with exactly one single")),
                       ("sudden-death", _("Sudden death: players sharing a table’s top play "
                                          "a tie-break round"))]),
    ]


def seated(form: Form, w: Words) -> list[list[str]]:
    """The tables: given one per line, or the names seated by the kit's rule (3 to 12 a table,
    the fewest tables, sizes differing by at most one, in the order given)."""
    given = [split_names(line) for line in form.values.get("tables", "").splitlines()]
    given = [t for t in given if t]
    names = split_names(form.values.get("names", ""))
    if given and names:
        form.add("tables", w.gettext("Give names or tables, not both."))
        return []
    if given:
        check_names(form, "tables", [n for t in given for n in t], w)
        for number, table in enumerate(given, start=1):
            if not 3 <= len(table) <= 12:
                form.add("tables", w.gettext("Table %(table)s has %(count)s players; a table "
                                             "seats 3 to 12.", table=number, count=len(table)))
        return given
    if not names:
        form.add("names", w.gettext("Give the players’ names (or the tables)."))
        return []
    check_names(form, "names", names, w)
    if form.problems.get("names"):  # seat them even when another field has a problem
        return []
    if len(names) < MIN_PLAYERS:
        form.add("names", Msg(N_("%(game)s needs %(lo)s to %(hi)s players per table; got "
                                 "%(got)s"), game=Msg(TITLE), lo=MIN_PLAYERS, hi=MAX_PLAYERS,
                              got=len(names)).text(w))
        return []
    return deal(names, table_sizes(len(names), MIN_PLAYERS, MAX_PLAYERS), None)


def lun_form(values: Mapping[str, str], w: Words) -> Form:
    """The new Lowest Unique Number party form -> ``{"game", "tables", "rounds", ...}``."""
    form = Form(values, {"game": NAME})
    rounds = whole(form, "rounds", values.get("rounds", ""), w)
    if rounds is not None and not 1 <= rounds <= 20:
        form.add("rounds", w.gettext("From 1 to 20 rounds."))
        rounds = None
    form.spec["tables"] = seated(form, w)
    form.spec["rounds"] = rounds or 5
    chosen = values.get("variant", "")
    if chosen in VARIANTS:
        form.spec[VARIANTS[chosen]] = True
    elif chosen:
        form.add("variant", w.gettext("Choose one of the variants offered."))
    return form


START = StartForm(
    key="lun", title=N_("New Lowest Unique Number party"),
    intro=N_("Any number of players at tables of 3 to 12. Each table’s rounds are entered as "
             "they are played; a big screen shows the standings."),
    legend=N_("The party"), button=N_("Start the party"), fields=FIELDS, show=fields,
    read=lun_form)


def boards(public: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One board per table: its players by points (places shared, the table's leaders
    marked), and rounds played."""
    by_table: dict[int, list[dict[str, Any]]] = {}
    for s in public.get("standings", []):
        by_table.setdefault(int(s["table"]), []).append(s)
    out_boards = []
    for table in public.get("tables", []):
        number = int(table["table"])
        places = table.get("places")  # after a tie-break round: the table's own places
        rows = sorted(by_table.get(number, []), key=lambda s: (
            -int(s["points"]), int(places[s["player"]]) if places else 0))
        out: list[dict[str, Any]] = []
        place = 0
        for i, s in enumerate(rows):
            if not out or s["points"] != out[-1]["points"]:
                place = i + 1
            if places:
                place = int(places[s["player"]])
            # the table's own leader (first at the table, with a point), not the party's
            out.append({"place": place, "player": s["player"], "points": s["points"],
                        "lead": place == 1 and int(s["points"]) > 0})
        out_boards.append({"table": number, "played": len(table.get("rounds", [])),
                           "rows": out, "score": table.get("score"),
                           "due": list(table.get("due") or []),
                           "decider": table.get("decider")})
    return out_boards


def progress_text(tables: Sequence[Mapping[str, Any]], rounds: int, w: Words) -> str:
    """'After round 2 at tables 1 and 2, round 1 at table 3' (provisional until all finish)."""
    by_played: dict[int, list[str]] = {}
    for b in tables:
        by_played.setdefault(int(b["played"]), []).append(str(b["table"]))
    parts = []
    for played, numbers in sorted(by_played.items(), reverse=True):
        where = w.ngettext("table %(tables)s", "tables %(tables)s", len(numbers),
                           tables=w.join(numbers))
        parts.append(w.gettext("after round %(round)s at %(where)s", round=played, where=where)
                     if played else w.gettext("no round yet at %(where)s", where=where))
    text = w.join(parts)
    if tables and all(int(b["played"]) >= rounds for b in tables):
        if any(b.get("due") for b in tables):
            return w.gettext("All %(rounds)s rounds played; a tie-break round is due.",
                             rounds=rounds)
        return w.gettext("Final standings (%(rounds)s rounds).", rounds=rounds)
    return w.gettext("Provisional: %(progress)s.", progress=text)


def timers(public: Mapping[str, Any], w: Words) -> dict[int, dict[str, str]]:
    """Each table's round timer while its round is not entered: when it ends (for the page's
    countdown) and, for a page without a script, when it started and its length."""
    out = {}
    entered = public.get("rounds_entered", {})
    for table, t in public.get("timers", {}).items():
        if int(t["round"]) <= int(entered.get(table, 0)):
            continue  # the round is in: its timer is over
        started = datetime.datetime.fromisoformat(t["started"])
        ends = started + datetime.timedelta(seconds=int(t["seconds"]))
        out[int(table)] = {"ends": ends.isoformat(), "started": t["started"], "text": w.gettext(
            "Timer started at %(time)s UTC: %(seconds)s s", time=started.strftime("%H:%M:%S"),
            seconds=w.number(int(t["seconds"])))}
    return out


def board(public: Mapping[str, Any], w: Words) -> dict[str, Any]:
    """The public page's and the big screen's context, from the public view's data."""
    made = [{**b, "due_text": w.join(b["due"])} for b in boards(public)]
    rounds = int(public.get("rounds") or DEFAULT_ROUNDS)
    return {"game_title": w.gettext("Lowest Unique Number"), "boards": made, "rounds": rounds,
            "cooperative": bool(public.get("cooperative")),
            "progress": progress_text(made, rounds, w), "shown": bool(public.get("standings")),
            "reveals": reveals(public, w), "timers": timers(public, w),
            "charts": functools.partial(web_charts, public, w),  # drawn by the public page only
            "podium": podium(public.get("standings", []), w) if finished(public) else []}
