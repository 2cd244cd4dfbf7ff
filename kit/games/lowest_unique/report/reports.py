"""``kit report`` for Lowest Unique Number: filled tallies, score sheets and party standings.

Every table gets its round tally (all choices sorted, the cancelled numbers, the surviving
singles, the winner) and its score sheet (a point per round won, total, place); a party of
several tables also gets the standings of every player. The same, as Markdown, for
``--format text``, ending with the line that names the winner or everyone sharing first place;
and one CSV row per player and round for ``--format csv``. While tables are still playing (or
at different rounds) the standings are provisional: they say after which round each table is,
and no winner line appears until every table has played every round.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from ....errors import shown
from ....game import GameReport, KitConfig
from ....i18n import N_, Words
from ....layout.blocks import note, para, title
from ....layout.model import Item
from ....layout.table import Cell, ruled_table
from ....options import printable_text
from ....paper import Frame, paper
from ....plan import Document, Form, KitPlan, Page
from ..rules import TITLE
from ..rules.log import PartyLog, Round, Table, cell, parse_party_log
from .charts import chart_page

ROW_MM = 9.0
HEAD_MM = 8.0
STANDING_ROW_MM = 7.5
HEAD_PT = 9.5


SEP = " · "  # between a table's label and a page's name


def _numbers(items: Sequence[object], words: Words) -> str:
    """Numbers in a cell, or "none" ("1; 1; 3" where the comma is the decimal mark)."""
    return words.numbers(items) or words.gettext("none")


def choices_line(choices: Sequence[int], passes: int, words: Words, none: str = "") -> str:
    """A round's sorted numbers and its passes as the table hears them: "1; 4 (1 pass)" (the
    language's list separator, so no "1, 4" reads as a decimal)."""
    text = words.numbers(choices) or none or words.gettext("none")
    if not passes:
        return text
    return f"{text} ({words.ngettext('%(num)s pass', '%(num)s passes', passes)})"


def choices_text(r: Round, words: Words) -> str:
    return choices_line(r.result.choices, r.result.passes, words)


def winner_text(r: Round, words: Words) -> str:
    return f"{r.winner} ({r.result.winner})" if r.winner else words.gettext("no winner")


def leaders_line(log: PartyLog, words: Words) -> str:
    names, points = log.leaders()
    if len(names) == 1:
        return words.ngettext("%(player)s wins with %(num)s point.",
                              "%(player)s wins with %(num)s points.", points, player=names[0])
    return words.ngettext("%(players)s share first place with %(num)s point.",
                          "%(players)s share first place with %(num)s points.", points,
                          players=words.join(names))


def progress_line(log: PartyLog, words: Words, *, start: bool = True) -> str:
    """After which round each table is: "After round 2 at tables 1 and 2, round 1 at table 3;
    the party plays 5 rounds." (one table: "After round 2 of 5."); ``start=False`` for the
    middle of a sentence (a lower-case first letter)."""
    _ = words.gettext
    if len(log.tables) == 1:
        played = log.tables[0].played
        text = (_("after round %(round)s of %(rounds)s.", round=played, rounds=log.rounds)
                if played else _("no round played yet; the game has %(rounds)s.",
                                 rounds=words.ngettext("%(num)s round", "%(num)s rounds",
                                                       log.rounds)))
    else:
        text = _("after %(progress)s; the party plays %(rounds)s.",
                 progress=", ".join(_groups(log, words)),
                 rounds=words.ngettext("%(num)s round", "%(num)s rounds", log.rounds))
    return text[:1].upper() + text[1:] if start else text


def _groups(log: PartyLog, words: Words) -> list[str]:
    """"round 2 at tables 1 and 2", one per number of rounds played, furthest first."""
    _ = words.gettext
    parts = []
    for played, numbers in log.progress():
        tables = words.ngettext("table %(list)s", "tables %(list)s", len(numbers),
                                list=words.join([str(n) for n in numbers]))
        parts.append(_("round %(round)s at %(tables)s", round=played, tables=tables) if played
                     else _("no round yet at %(tables)s", tables=tables))
    return parts


_TITLES = {  # (finished, page of pages) -> the title's words
    (True, ""): N_("Party standings"),
    (True, "(%(page)s of %(pages)s)"): N_("Party standings (%(page)s of %(pages)s)"),
    (True, "%(page)s of %(pages)s"): N_("Party standings %(page)s of %(pages)s"),
    (False, ""): N_("Provisional standings"),
    (False, "(%(page)s of %(pages)s)"): N_("Provisional standings (%(page)s of %(pages)s)"),
    (False, "%(page)s of %(pages)s"): N_("Provisional standings %(page)s of %(pages)s"),
}


def standings_title(log: PartyLog, words: Words, page: int = 1, pages: int = 1,
                    counted: str = "") -> str:
    """"Party standings" once every table has played every round, else "Provisional
    standings"; ``counted`` adds the page of pages when there are several."""
    key = (log.finished, counted if pages > 1 else "")
    return words.gettext(_TITLES[key], page=page, pages=pages)


def closing_line(log: PartyLog, words: Words) -> str:
    """The line that ends a report: the winner once the party is over, else how far it is."""
    if log.finished:
        return leaders_line(log, words)
    return words.gettext("Provisional standings: %(progress)s",
                         progress=progress_line(log, words, start=False))


def table_name(number: int, words: Words) -> str:
    return words.gettext("Table %(table)s", table=number)


def _heading(body: Frame, words: str, lead: str) -> tuple[list[Item], float]:
    items, used = title(body.x, body.y, words)
    more, used2 = para(body.x, body.y + used, body.w, lead)
    return items + more, body.y + used + used2 + 1.0


def tally_items(body: Frame, table: Table, label: str, words: Words) -> list[Item]:
    _ = words.gettext
    items, y = _heading(body, label, _("Every valid round as revealed: all choices in order, "
                                       "the numbers cancelled because two or more players "
                                       "wrote them, the singles left, and who wrote the "
                                       "lowest single (one point)."))
    w = body.w
    widths = [w * 0.11, w * 0.33, w * 0.16, w * 0.18, w * 0.22]
    head = [Cell(t, "bold", size=HEAD_PT) for t in (_("Round"), _("All choices (sorted)"),
                                                    _("Cancelled"), _("Surviving singles"),
                                                    _("Winner"))]
    rows = [head] + [[Cell(str(r.number), align="center"), Cell(choices_text(r, words)),
                      Cell(_numbers(r.result.cancelled, words)),
                      Cell(_numbers(r.result.singles, words)),
                      Cell(winner_text(r, words), "bold" if r.winner else "regular")]
                     for r in table.rounds]
    return items + ruled_table(body.x, y, widths, [HEAD_MM] + [ROW_MM] * len(table.rounds),
                               rows)


def score_items(body: Frame, table: Table, label: str, rounds: int, closing: str,
                words: Words) -> list[Item]:
    _ = words.gettext
    items, y = _heading(body, label, _("One point for each round's lowest single; equal "
                                       "totals share a place."))
    round_w = 10.0
    widths = [body.w - rounds * round_w - 36.0] + [round_w] * rounds + [18.0, 18.0]
    head = ([Cell(_("Player"), "bold", size=HEAD_PT)]
            + [Cell(_("R%(round)s", round=n), "bold", "center", HEAD_PT)
               for n in range(1, rounds + 1)]
            + [Cell(_("Total"), "bold", "center", HEAD_PT), Cell(_("Place"), "bold", "center",
                                                                 HEAD_PT)])
    places = table.places
    rows = [head] + [[Cell(p)] + [Cell(v, align="center") for v in _points(table, p, rounds)]
                     + [Cell(str(table.totals[p]), "bold", "center"),
                        Cell(str(places[p]), "bold", "center")] for p in table.players]
    items += ruled_table(body.x, y, widths, [HEAD_MM] + [ROW_MM] * len(table.players), rows)
    y += HEAD_MM + ROW_MM * len(table.players) + 5.0
    if closing:
        more, _used = note(body.x, y, body.w, [[(closing, "bold")]], size=13.0)
        items += more
    return items


def _points(table: Table, player: str, rounds: int) -> list[str]:
    """A player's point per planned round; empty for the rounds not played yet."""
    played = [str(v) for v in table.points(player)]
    return played + [""] * (rounds - len(played))


def standings_pages(body: Frame, log: PartyLog, words: Words) -> list[list[Item]]:
    _ = words.gettext
    standings = log.standings()
    lead = standings_lead(log, words)
    name = standings_title(log, words)
    _items, top = _heading(body, name, lead)
    closing = leaders_line(log, words) if log.finished else ""
    per_page = int((body.bottom - top - HEAD_MM - 20.0) // STANDING_ROW_MM)
    chunks = [standings[i:i + per_page] for i in range(0, len(standings), per_page)]
    pages = []
    for n, chunk in enumerate(chunks, start=1):
        heading = (standings_title(log, words, n, len(chunks), "(%(page)s of %(pages)s)")
                   if len(chunks) > 1 else name)
        items, y = _heading(body, heading, lead)
        widths = [20.0, body.w - 60.0, 20.0, 20.0]
        head = [Cell(_("Place"), "bold", "center", HEAD_PT), Cell(_("Player"), "bold", "left",
                                                                  HEAD_PT),
                Cell(_("Table"), "bold", "center", HEAD_PT),
                Cell(_("Points"), "bold", "center", HEAD_PT)]
        rows = [head] + [[Cell(str(place), "bold", "center"), Cell(player),
                          Cell(str(table), align="center"), Cell(str(points), align="center")]
                         for place, player, table, points in chunk]
        items += ruled_table(body.x, y, widths, [HEAD_MM] + [STANDING_ROW_MM] * len(chunk),
                             rows)
        if n == len(chunks) and closing:
            y += HEAD_MM + STANDING_ROW_MM * len(chunk) + 5.0
            items += note(body.x, y, body.w, [[(closing, "bold")]], size=13.0)[0]
        pages.append(items)
    return pages


def standings_lead(log: PartyLog, words: Words) -> str:
    """The line under the standings' title: who played how much."""
    _ = words.gettext
    if not log.finished:
        return progress_line(log, words) + " " + _("Equal points share a place.")
    return _("%(players)s at %(tables)s, %(rounds)s each. Equal points share a place.",
             players=words.ngettext("%(num)s player", "%(num)s players",
                                    sum(len(t.players) for t in log.tables)),
             tables=words.ngettext("%(num)s table", "%(num)s tables", len(log.tables)),
             rounds=words.ngettext("%(num)s round", "%(num)s rounds", log.rounds))


def plan_report(log: PartyLog, config: KitConfig) -> KitPlan:
    """The report folder: one file of every table's tally and scores (standings first), in
    ``config.words``' language."""
    for table in log.tables:  # printed on every page: only what our fonts can draw
        for player in table.players:
            printable_text("players", f"the name {shown(player)}", player, 24)
    words = config.words
    _ = words.gettext
    body = paper(config.paper).body
    several = len(log.tables) > 1
    pages: list[Page] = []
    if several:
        chunks = standings_pages(body, log, words)
        # the outline and the HTML open the standings and each table at their first page
        pages += [Page(standings_title(log, words, n, len(chunks), "%(page)s of %(pages)s"),
                       Form(tuple(items)), bookmark=standings_title(log, words) if n == 1
                       else None, anchor="standings" if n == 1 else None)
                  for n, items in enumerate(chunks, start=1)]
    for table in log.tables:
        where = [table_name(table.number, words)] if several else []
        tally = SEP.join([*where, _("Round tally")])
        scores = SEP.join([*where, _("Score sheet")])
        pages.append(Page(tally, Form(tuple(tally_items(body, table, tally, words))),
                          bookmark=where[0] if several else _("Round tally"),
                          anchor=f"table-{table.number}" if several else "tally"))
        pages.append(Page(scores, Form(tuple(score_items(
            body, table, scores, log.rounds, "" if several else closing_line(log, words),
            words))), bookmark=None if several else _("Score sheet"),
            anchor=None if several else "scores"))
    if any(t.rounds for t in log.tables):
        pages.append(Page(_("The night in charts"), Form(tuple(chart_page(body, log, words))),
                          bookmark=_("The night in charts"), anchor="charts"))
    banner = words.ngettext("Numbers from %(range)s · %(num)s round",
                            "Numbers from %(range)s · %(num)s rounds", log.rounds,
                            range=_("%(lo)s to %(hi)s", lo=log.range[0], hi=log.range[1]))
    title = _(TITLE)
    return KitPlan(folder=config.folder_name, game_title=title, banner=banner,
                   documents=(Document("results", _("%(game)s — results", game=title),
                                       tuple(pages)),),
                   lang=words.lang)


def _markdown_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def text_report(log: PartyLog, words: Words) -> str:
    """Every table's tally and scores, the party standings, and the winner line, in Markdown,
    in ``words``' language."""
    _ = words.gettext
    parts = []
    for table in log.tables:
        name = table_name(table.number, words) if len(log.tables) > 1 else _("Round tally")
        parts.append(f"{name}\n\n" + _markdown_table(
            (_("Round"), _("All choices"), _("Cancelled"), _("Surviving singles"), _("Winner")),
            [(str(r.number), choices_text(r, words), _numbers(r.result.cancelled, words),
              _numbers(r.result.singles, words), winner_text(r, words))
             for r in table.rounds]))
        places = table.places
        parts.append(_markdown_table(
            (_("Player"), *[_("R%(round)s", round=n) for n in range(1, log.rounds + 1)],
             _("Total"), _("Place")),
            [(p, *_points(table, p, log.rounds), str(table.totals[p]), str(places[p]))
             for p in table.players]))
    if len(log.tables) > 1:
        lead = "" if log.finished else progress_line(log, words) + "\n\n"
        parts.append(standings_title(log, words) + "\n\n" + lead + _markdown_table(
            (_("Place"), _("Player"), _("Table"), _("Points")),
            [(str(place), player, str(t), str(points))
             for place, player, t, points in log.standings()]))
    parts.append(closing_line(log, words) + "\n")
    return "\n".join(parts)


CSV_HEAD = ("table", "round", "player", "choice", "cancelled", "point")


def csv_report(log: PartyLog) -> str:
    """One row per player and played round, for spreadsheets and score apps: table, round,
    player, choice (a number or "pass"), cancelled ("yes"/"no"; empty for a pass) and point
    (1 for the round's winner, else 0). Column names and values are not translated."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEAD)
    for table in log.tables:
        for r in table.rounds:
            for player, choice in r.choices:
                cancelled = "" if choice is None else (
                    "yes" if choice in r.result.cancelled else "no")
                writer.writerow((table.number, r.number, player,
                                 "pass" if choice is None else choice, cancelled,
                                 1 if r.winner == player else 0))
    return out.getvalue()


# ``kit report``'s part of the game (``GameSpec.report`` names it)
REPORT = GameReport(parse=parse_party_log, plan=plan_report, text=text_report, csv=csv_report)
