"""``kit report`` for Lowest Unique Number: filled tallies, score sheets and party standings.

Every table gets its round tally (all choices sorted, the cancelled numbers, the surviving
singles, the winner) and its score sheet (a point per round won, total, place); a party of
several tables also gets the standings of every player. The same, as Markdown, for
``--format text``, ending with the line that names the winner or everyone sharing first place;
and one CSV row per player and round for ``--format csv``. While tables are still playing (or
at different rounds) the standings are provisional: they say after which round each table is,
and no winner line appears until every table has played every round.

A cooperative party keeps no points: each table's tally says whether a round left exactly one
single, and its score counts those rounds. With sudden death announced, a table whose top is
shared after its last round gets its tie-break rounds' tally, and its places follow them.
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
from .charts import chart_pages
from .variants import coop_closing, due_lines, one_single, table_score, tiebreak_lead, tiebreak_line

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
    if len(names) == 1 and any(t.decider == names[0] for t in log.tables):
        return words.ngettext("%(player)s wins with %(num)s point, after a tie-break.",
                              "%(player)s wins with %(num)s points, after a tie-break.", points,
                              player=names[0])
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


_COOP_TITLES = {  # page of pages -> the title's words
    "": N_("Table scores"),
    "(%(page)s of %(pages)s)": N_("Table scores (%(page)s of %(pages)s)"),
    "%(page)s of %(pages)s": N_("Table scores %(page)s of %(pages)s"),
}


def standings_title(log: PartyLog, words: Words, page: int = 1, pages: int = 1,
                    counted: str = "") -> str:
    """"Party standings" once every table has played every round, else "Provisional
    standings" (a cooperative party: "Table scores"); ``counted`` adds the page of pages
    when there are several."""
    if log.cooperative:
        return words.gettext(_COOP_TITLES[counted if pages > 1 else ""], page=page,
                             pages=pages)
    key = (log.finished, counted if pages > 1 else "")
    return words.gettext(_TITLES[key], page=page, pages=pages)


def closing_line(log: PartyLog, words: Words) -> str:
    """The line that ends a report: the winner (a cooperative party: the table scores) once
    the party is over, the tie-break rounds due, else how far it is."""
    if log.finished:
        return coop_closing(log, words) if log.cooperative else leaders_line(log, words)
    due = due_lines(log, words)
    if due:
        return " ".join(due)
    return words.gettext("Provisional standings: %(progress)s",
                         progress=progress_line(log, words, start=False))


def table_name(number: int, words: Words) -> str:
    return words.gettext("Table %(table)s", table=number)


def _heading(body: Frame, words: str, lead: str) -> tuple[list[Item], float]:
    items, used = title(body.x, body.y, words)
    more, used2 = para(body.x, body.y + used, body.w, lead)
    return items + more, body.y + used + used2 + 1.0


def tally_lead(cooperative: bool, words: Words) -> str:
    """The line under a table's round tally."""
    if cooperative:
        return words.gettext("Every valid round as revealed: all choices in order, the numbers "
                             "cancelled because two or more players wrote them, the singles "
                             "left, and whether exactly one single survived (the table "
                             "scores that round).")
    return words.gettext("Every valid round as revealed: all choices in order, the numbers "
                         "cancelled because two or more players wrote them, the singles left, "
                         "and who wrote the lowest single (one point).")


def outcome(r: Round, cooperative: bool, words: Words) -> str:
    """A tally's last cell: the winner, or (cooperative) whether one single survived."""
    return one_single(r, words) if cooperative else winner_text(r, words)


def tally_items(body: Frame, played: Sequence[Round], label: str, lead: str, words: Words,
                cooperative: bool = False) -> list[Item]:
    """A table's rounds (or tie-break rounds) as revealed, under ``label`` and ``lead``."""
    _ = words.gettext
    items, y = _heading(body, label, lead)
    w = body.w
    widths = [w * 0.11, w * 0.33, w * 0.16, w * 0.18, w * 0.22]
    last = _("Exactly one single?") if cooperative else _("Winner")
    head = [Cell(t, "bold", size=HEAD_PT) for t in (_("Round"), _("All choices (sorted)"),
                                                    _("Cancelled"), _("Surviving singles"),
                                                    last)]
    rows = [head] + [[Cell(str(r.number), align="center"), Cell(choices_text(r, words)),
                      Cell(_numbers(r.result.cancelled, words)),
                      Cell(_numbers(r.result.singles, words)),
                      Cell(outcome(r, cooperative, words), "bold" if r.winner else "regular")]
                     for r in played]
    return items + ruled_table(body.x, y, widths, [HEAD_MM] + [ROW_MM] * len(played), rows)


def coop_items(body: Frame, table: Table, label: str, closing: str, words: Words
               ) -> list[Item]:
    """A cooperative table's score: its rounds with exactly one single."""
    items, y = _heading(body, label, words.gettext(
        "The table plays together and keeps no points: it scores each round that leaves "
        "exactly one single."))
    lines = [[(words.gettext("Table score:"), "bold"), (" ", "regular"),
              (table_score(table, words), "regular")]]
    more, used = note(body.x, y, body.w, lines, size=13.0)
    items += more
    if closing:
        items += note(body.x, y + used + 5.0, body.w, [[(closing, "bold")]], size=13.0)[0]
    return items


def score_items(body: Frame, table: Table, label: str, rounds: int, closing: str,
                words: Words, sudden: str = "") -> list[Item]:
    """A table's score sheet; ``sudden``: what sudden death did there, under the sheet."""
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
    if sudden:
        more, used = note(body.x, y, body.w, [[(sudden, "regular")]])
        items += more
        y += used + 3.0
    if closing and closing != sudden:
        more, _used = note(body.x, y, body.w, [[(closing, "bold")]], size=13.0)
        items += more
    return items


def _points(table: Table, player: str, rounds: int) -> list[str]:
    """A player's point per planned round; empty for the rounds not played yet."""
    played = [str(v) for v in table.points(player)]
    return played + [""] * (rounds - len(played))


def _standing_rows(log: PartyLog, words: Words) -> tuple[list[float], list[Cell],
                                                         list[list[Cell]]]:
    """The standings' column widths (of the 60 mm beside the names), head and rows: every
    player, or (cooperative) every table and its score."""
    _ = words.gettext
    if log.cooperative:
        return ([20.0, 40.0], [Cell(_("Table"), "bold", "center", HEAD_PT),
                               Cell(_("Rounds played"), "bold", "center", HEAD_PT),
                               Cell(_("Table score"), "bold", "center", HEAD_PT)],
                [[Cell(str(t.number), "bold", "center"), Cell(str(t.played), align="center"),
                  Cell(str(t.score), align="center")] for t in log.tables])
    return ([20.0, 20.0, 20.0],
            [Cell(_("Place"), "bold", "center", HEAD_PT), Cell(_("Player"), "bold", "left",
                                                               HEAD_PT),
             Cell(_("Table"), "bold", "center", HEAD_PT),
             Cell(_("Points"), "bold", "center", HEAD_PT)],
            [[Cell(str(place), "bold", "center"), Cell(player), Cell(str(table), align="center"),
              Cell(str(points), align="center")]
             for place, player, table, points in log.standings()])


def standings_pages(body: Frame, log: PartyLog, words: Words) -> list[list[Item]]:
    """The standings (a cooperative party: the table scores), as many pages as they take."""
    fixed, head, all_rows = _standing_rows(log, words)
    lead = standings_lead(log, words)
    name = standings_title(log, words)
    _items, top = _heading(body, name, lead)
    closing = closing_line(log, words) if log.finished else ""
    per_page = int((body.bottom - top - HEAD_MM - 20.0) // STANDING_ROW_MM)
    chunks = [all_rows[i:i + per_page] for i in range(0, len(all_rows), per_page)]
    pages = []
    for n, chunk in enumerate(chunks, start=1):
        heading = (standings_title(log, words, n, len(chunks), "(%(page)s of %(pages)s)")
                   if len(chunks) > 1 else name)
        items, y = _heading(body, heading, lead)
        widths = [fixed[0], body.w - 60.0, *fixed[1:]]
        rows = [head] + chunk
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
    if log.cooperative:
        scored = _("Each table scores the rounds that left exactly one single.")
        return (progress_line(log, words) + " " + scored if not log.finished else _(
            "%(tables)s, %(rounds)s each.", tables=words.ngettext(
                "%(num)s table", "%(num)s tables", len(log.tables)),
            rounds=words.ngettext("%(num)s round", "%(num)s rounds", log.rounds)) + " " + scored)
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
        pages += table_pages(body, log, table, words)
    if any(t.rounds for t in log.tables):
        pages += [Page(_("The night in charts"), Form(tuple(items)),
                       bookmark=None if n else _("The night in charts"),
                       anchor=None if n else "charts")
                  for n, items in enumerate(chart_pages(body, log, words))]
    banner = words.ngettext("Numbers from %(range)s · %(num)s round",
                            "Numbers from %(range)s · %(num)s rounds", log.rounds,
                            range=_("%(lo)s to %(hi)s", lo=log.range[0], hi=log.range[1]))
    title = _(TITLE)
    return KitPlan(folder=config.folder_name, game_title=title, banner=banner,
                   documents=(Document("results", _("%(game)s — results", game=title),
                                       tuple(pages)),),
                   lang=words.lang)


def table_pages(body: Frame, log: PartyLog, table: Table, words: Words) -> list[Page]:
    """A table's round tally, its tie-break rounds (if it played any) and its score sheet (a
    cooperative table: its score)."""
    _ = words.gettext
    several = len(log.tables) > 1
    where = [table_name(table.number, words)] if several else []
    tally = SEP.join([*where, _("Round tally")])
    scores = SEP.join([*where, _("Table score") if log.cooperative else _("Score sheet")])
    closing = "" if several else closing_line(log, words)
    pages = [Page(tally, Form(tuple(tally_items(body, table.rounds, tally,
                                                tally_lead(log.cooperative, words), words,
                                                log.cooperative))),
                  bookmark=where[0] if several else _("Round tally"),
                  anchor=f"table-{table.number}" if several else "tally")]
    if table.tiebreaks:
        label = SEP.join([*where, _("Tie-break")])
        pages.append(Page(label, Form(tuple(tally_items(
            body, table.tiebreaks, label, tiebreak_lead(table, words), words))),
            bookmark=None if several else _("Tie-break"), anchor=None if several
            else "tiebreak"))
    sheet = (coop_items(body, table, scores, closing, words) if log.cooperative else
             score_items(body, table, scores, log.rounds, closing, words,
                         tiebreak_line(log, table, words)))
    pages.append(Page(scores, Form(tuple(sheet)),
                      bookmark=None if several else scores, anchor=None if several
                      else "scores"))
    return pages


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
        parts += _text_table(log, table, words)
    if len(log.tables) > 1:
        lead = "" if log.finished else progress_line(log, words) + "\n\n"
        if log.cooperative:
            standings = _markdown_table((_("Table"), _("Rounds played"), _("Table score")),
                                        [(str(t.number), str(t.played), str(t.score))
                                         for t in log.tables])
        else:
            standings = _markdown_table((_("Place"), _("Player"), _("Table"), _("Points")),
                                        [(str(place), player, str(t), str(points))
                                         for place, player, t, points in log.standings()])
        parts.append(standings_title(log, words) + "\n\n" + lead + standings)
    parts.append(closing_line(log, words) + "\n")
    return "\n".join(parts)


def _tally_rows(played: Sequence[Round], cooperative: bool, words: Words) -> list[tuple[str, ...]]:
    """A tally's Markdown rows: number, choices, cancelled, singles, and its outcome."""
    return [(str(r.number), choices_text(r, words), _numbers(r.result.cancelled, words),
             _numbers(r.result.singles, words), outcome(r, cooperative, words)) for r in played]


def _text_table(log: PartyLog, table: Table, words: Words) -> list[str]:
    """A table's Markdown: its tally, its tie-break rounds, its score sheet (a cooperative
    table: its score)."""
    _ = words.gettext
    name = table_name(table.number, words) if len(log.tables) > 1 else _("Round tally")
    head = (_("Round"), _("All choices"), _("Cancelled"), _("Surviving singles"))
    parts = [f"{name}\n\n" + _markdown_table(
        (*head, _("Exactly one single?") if log.cooperative else _("Winner")),
        _tally_rows(table.rounds, log.cooperative, words))]
    if table.tiebreaks:
        parts.append(_("Tie-break") + "\n\n" + tiebreak_lead(table, words) + "\n\n"
                     + _markdown_table((*head, _("Winner")),
                                       _tally_rows(table.tiebreaks, False, words)))
    if log.cooperative:
        if len(log.tables) > 1:  # one table: the closing line says it
            parts.append(_("Table score:") + " " + table_score(table, words) + "\n")
        return parts
    places = table.places
    parts.append(_markdown_table(
        (_("Player"), *[_("R%(round)s", round=n) for n in range(1, log.rounds + 1)],
         _("Total"), _("Place")),
        [(p, *_points(table, p, log.rounds), str(table.totals[p]), str(places[p]))
         for p in table.players]))
    sudden = tiebreak_line(log, table, words)
    if sudden and len(log.tables) > 1:  # one table: the closing line says it
        parts.append(sudden + "\n")
    return parts


CSV_HEAD = ("table", "round", "player", "choice", "cancelled", "point")
COOP_HEAD = ("table", "round", "player", "choice", "cancelled", "one_single")
SUDDEN_HEAD = (*CSV_HEAD, "tiebreak")


def csv_report(log: PartyLog) -> str:
    """One row per player and played round, for spreadsheets and score apps: table, round,
    player, choice (a number or "pass"), cancelled ("yes"/"no"; empty for a pass) and point
    (1 for the round's winner, else 0). A cooperative party's last column is ``one_single``
    instead ("yes" when the round left exactly one single); with sudden death announced a
    ``tiebreak`` column follows, "yes" on the tie-break rounds' rows (their round is the
    tie-break's number, their point the tie-break's). Column names and values are not
    translated."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COOP_HEAD if log.cooperative else SUDDEN_HEAD if log.sudden_death
                    else CSV_HEAD)
    for table in log.tables:
        played = [(r, "no") for r in table.rounds] + [(r, "yes") for r in table.tiebreaks]
        for r, tiebreak in played:
            for player, choice in r.choices:
                cancelled = "" if choice is None else (
                    "yes" if choice in r.result.cancelled else "no")
                last = (one_single_csv(r) if log.cooperative else
                        1 if r.winner == player else 0)
                row = (table.number, r.number, player, "pass" if choice is None else choice,
                       cancelled, last)
                writer.writerow((*row, tiebreak) if log.sudden_death else row)
    return out.getvalue()


def one_single_csv(r: Round) -> str:
    """A cooperative round's CSV verdict, untranslated."""
    return "yes" if len(r.result.singles) == 1 else "no"


# ``kit report``'s part of the game (``GameSpec.report`` names it)
REPORT = GameReport(parse=parse_party_log, plan=plan_report, text=text_report, csv=csv_report)
