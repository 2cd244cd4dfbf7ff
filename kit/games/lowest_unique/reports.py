"""``kit report`` for Lowest Unique Number: filled tallies, score sheets and party standings.

Every table gets its round tally (all choices sorted, the cancelled numbers, the surviving
singles, the winner) and its score sheet (a point per round won, total, place); a party of
several tables also gets the standings of every player. The same, as Markdown, for
``--format text``, ending with the line that names the winner or everyone sharing first place.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import shown
from ...game import KitConfig
from ...layout.blocks import note, para, title
from ...layout.model import Item
from ...layout.table import Cell, ruled_table
from ...options import printable_text
from ...paper import Frame, paper
from ...plan import Document, Form, KitPlan, Page
from .log import PartyLog, Round, Table, cell
from .rules import TITLE

ROW_MM = 9.0
HEAD_MM = 8.0
STANDING_ROW_MM = 7.5
HEAD_PT = 9.5


def _join(items: Sequence[object]) -> str:
    return ", ".join(map(str, items))


def choices_text(r: Round) -> str:
    passes = r.result.passes
    more = f" ({passes} pass{'es' if passes != 1 else ''})" if passes else ""
    return (_join(r.result.choices) or "none") + more


def winner_text(r: Round) -> str:
    return f"{r.winner} ({r.result.winner})" if r.winner else "no winner"


def leaders_line(log: PartyLog) -> str:
    names, points = log.leaders()
    pts = f"{points} point{'s' if points != 1 else ''}"
    if len(names) == 1:
        return f"{names[0]} wins with {pts}."
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    return f"{listed} share first place with {pts}."


def _heading(body: Frame, words: str, lead: str) -> tuple[list[Item], float]:
    items, used = title(body.x, body.y, words)
    more, used2 = para(body.x, body.y + used, body.w, lead)
    return items + more, body.y + used + used2 + 1.0


def tally_items(body: Frame, table: Table, label: str) -> list[Item]:
    items, y = _heading(body, label, "Every valid round as revealed: all choices in order, "
                        "the numbers cancelled because two or more players wrote them, the "
                        "singles left, and who wrote the lowest single (one point).")
    w = body.w
    widths = [w * 0.11, w * 0.33, w * 0.16, w * 0.18, w * 0.22]
    head = [Cell(t, "bold", size=HEAD_PT) for t in ("Round", "All choices (sorted)",
                                                    "Cancelled", "Surviving singles",
                                                    "Winner")]
    rows = [head] + [[Cell(str(r.number), align="center"), Cell(choices_text(r)),
                      Cell(_join(r.result.cancelled) or "none"),
                      Cell(_join(r.result.singles) or "none"),
                      Cell(winner_text(r), "bold" if r.winner else "regular")]
                     for r in table.rounds]
    return items + ruled_table(body.x, y, widths, [HEAD_MM] + [ROW_MM] * len(table.rounds),
                               rows)


def score_items(body: Frame, table: Table, label: str, rounds: int, closing: str) -> list[Item]:
    items, y = _heading(body, label, "One point for each round's lowest single; equal totals "
                        "share a place.")
    round_w = 10.0
    widths = [body.w - rounds * round_w - 36.0] + [round_w] * rounds + [18.0, 18.0]
    head = ([Cell("Player", "bold", size=HEAD_PT)]
            + [Cell(f"R{n}", "bold", "center", HEAD_PT) for n in range(1, rounds + 1)]
            + [Cell("Total", "bold", "center", HEAD_PT), Cell("Place", "bold", "center",
                                                              HEAD_PT)])
    places = table.places
    rows = [head] + [[Cell(p)] + [Cell(str(v), align="center") for v in table.points(p)]
                     + [Cell(str(table.totals[p]), "bold", "center"),
                        Cell(str(places[p]), "bold", "center")] for p in table.players]
    items += ruled_table(body.x, y, widths, [HEAD_MM] + [ROW_MM] * len(table.players), rows)
    y += HEAD_MM + ROW_MM * len(table.players) + 5.0
    if closing:
        more, _ = note(body.x, y, body.w, [[(closing, "bold")]], size=13.0)
        items += more
    return items


def standings_pages(body: Frame, log: PartyLog) -> list[list[Item]]:
    standings = log.standings()
    lead = (f"{len(standings)} players at {len(log.tables)} tables, {log.rounds} rounds each. "
            "Equal points share a place.")
    _, top = _heading(body, "Party standings", lead)
    closing = leaders_line(log)
    per_page = int((body.bottom - top - HEAD_MM - 20.0) // STANDING_ROW_MM)
    chunks = [standings[i:i + per_page] for i in range(0, len(standings), per_page)]
    pages = []
    for n, chunk in enumerate(chunks, start=1):
        more = f" ({n} of {len(chunks)})" if len(chunks) > 1 else ""
        items, y = _heading(body, "Party standings" + more, lead)
        widths = [20.0, body.w - 60.0, 20.0, 20.0]
        head = [Cell(t, "bold", "center" if t != "Player" else "left", HEAD_PT)
                for t in ("Place", "Player", "Table", "Points")]
        rows = [head] + [[Cell(str(place), "bold", "center"), Cell(player),
                          Cell(str(table), align="center"), Cell(str(points), align="center")]
                         for place, player, table, points in chunk]
        items += ruled_table(body.x, y, widths, [HEAD_MM] + [STANDING_ROW_MM] * len(chunk),
                             rows)
        if n == len(chunks):
            y += HEAD_MM + STANDING_ROW_MM * len(chunk) + 5.0
            items += note(body.x, y, body.w, [[(closing, "bold")]], size=13.0)[0]
        pages.append(items)
    return pages


def plan_report(log: PartyLog, config: KitConfig) -> KitPlan:
    """The report folder: one file of every table's tally and scores (standings first)."""
    for table in log.tables:  # printed on every page: only what our fonts can draw
        for player in table.players:
            printable_text("players", f"the name {shown(player)}", player, 24)
    body = paper(config.paper).body
    several = len(log.tables) > 1
    pages: list[Page] = []
    if several:
        chunks = standings_pages(body, log)
        pages += [Page("Party standings" + (f" {n} of {len(chunks)}" if len(chunks) > 1 else ""),
                       Form(tuple(items))) for n, items in enumerate(chunks, start=1)]
    for table in log.tables:
        where = f"Table {table.number} · " if several else ""
        pages.append(Page(f"{where}Round tally", Form(tuple(tally_items(
            body, table, f"{where}Round tally")))))
        pages.append(Page(f"{where}Score sheet", Form(tuple(score_items(
            body, table, f"{where}Score sheet", log.rounds,
            "" if several else leaders_line(log))))))
    banner = f"Numbers from {log.range[0]} to {log.range[1]} · {log.rounds} rounds"
    return KitPlan(folder=config.folder_name, game_title=TITLE, banner=banner,
                   documents=(Document("results", f"{TITLE} — results", tuple(pages)),))


def _markdown_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def text_report(log: PartyLog) -> str:
    """Every table's tally and scores, the party standings, and the winner line, in Markdown."""
    parts = []
    for table in log.tables:
        name = f"Table {table.number}" if len(log.tables) > 1 else "Round tally"
        parts.append(f"{name}\n\n" + _markdown_table(
            ("Round", "All choices", "Cancelled", "Surviving singles", "Winner"),
            [(str(r.number), choices_text(r), _join(r.result.cancelled) or "none",
              _join(r.result.singles) or "none", winner_text(r)) for r in table.rounds]))
        places = table.places
        parts.append(_markdown_table(
            ("Player", *[f"R{n}" for n in range(1, log.rounds + 1)], "Total", "Place"),
            [(p, *map(str, table.points(p)), str(table.totals[p]), str(places[p]))
             for p in table.players]))
    if len(log.tables) > 1:
        parts.append("Party standings\n\n" + _markdown_table(
            ("Place", "Player", "Table", "Points"),
            [(str(place), player, str(t), str(points))
             for place, player, t, points in log.standings()]))
    parts.append(leaders_line(log) + "\n")
    return "\n".join(parts)
