"""Plan filled What's My Number? turn reports from a game log (the GM assistant).

The rules engine (``kit.games.whats_my_number.play``) answers every order; this module only
arranges its answers on pages: one shareable file of turn reports, and a GM-only register.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..config import KitConfig
from ..games import whats_my_number as rules
from ..paper import Paper, paper
from ..plan import Document, KitPlan, Page

LABEL_COLUMN_MM = 34.0
MIN_CELL_MM = 7.0
ROW_MM = 7.5
HEADING_MM = 34.0  # title, legend and the winner line around the grid
REGISTER_ROWS = 8  # players per register page: each row may list many identifications


def joined(labels: Sequence[str]) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def report_layout(players: int, sheet: Paper) -> tuple[bool, float, int]:
    """(landscape?, cell width mm, rows per page) so every cell is at least 7 mm wide."""
    for landscape in (False, True):
        page = sheet.turned() if landscape else sheet
        cell = (page.content_width_mm - LABEL_COLUMN_MM) / players
        if cell >= MIN_CELL_MM:
            rows = int((page.body_height_mm - HEADING_MM) // ROW_MM)
            return landscape, round(min(cell, 14.0), 2), rows
    raise ValueError(f"{players} columns do not fit {sheet.label} even in landscape")


def win_text(result_winners: Sequence[str], reason: str | None, turn: int) -> str:
    how = "a fully correct list" if reason == "list" else "identifying every other number"
    verb = "wins" if len(result_winners) == 1 else "share the win"
    return f"{joined(result_winners)} {verb} in turn {turn}, by {how}."


def turn_rows(report: rules.TurnReport, players: Sequence[str]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for row in report.rows:
        if isinstance(row, rules.GuessRow):
            rows.append({"label": f"{row.player} {row.index}",
                         "bonus": row.bonus, "cells": list(row.cells), "list": None})
        else:
            rows.append({"label": f"{row.player} List", "bonus": False,
                         "cells": [], "list": f"{row.correct} correct."})
    return rows


def plan_reports(log: rules.GameLog, result: rules.GameResult, config: KitConfig) -> KitPlan:
    sheet = paper(config.paper)
    players = list(log.players)
    landscape, cell_mm, per_page = report_layout(len(players), sheet)
    pages: list[Page] = []
    for report in result.turns:
        rows = turn_rows(report, players)
        count = max(1, math.ceil(len(rows) / per_page))
        for i in range(count):
            label = f"Turn {report.number} report" + (f" ({i + 1} of {count})" if count > 1
                                                       else "")
            pages.append(Page("whats_my_number/filled_report.html", label, {
                "turn": report.number, "players": players, "cell_mm": cell_mm,
                "rows": rows[i * per_page:(i + 1) * per_page],
                "winner": win_text(report.winners, report.reason, report.number)
                if report.winners and i == count - 1 else "",
                "allowance": [(p, report.allowance[p]) for p in players],
            }, landscape=landscape))
    if not pages:
        pages.append(Page("whats_my_number/filled_report.html", "No turns yet", {
            "turn": 0, "players": players, "cell_mm": cell_mm, "rows": [], "winner": "",
            "allowance": [(p, rules.BASE_GUESSES) for p in players]}))

    register = []
    for label in players:
        found = result.identified[label]
        register.append({
            "player": label, "secret": log.secrets[label],
            "identified": [(target, f"{f.turn}.{f.guess}") for target, f in found.items()],
            "missing": missing if len(missing := [p for p in players
                                                   if p != label and p not in found]) <= 6
            else [f"{len(missing)} players"],
            "next": result.next_allowance[label],
        })
    lists = [(report.number, row.player, row.correct) for report in result.turns
             for row in report.rows if isinstance(row, rules.ListRow)]
    played = len(result.turns)
    status = (win_text(result.winners, result.reason, result.winning_turn)
              if result.winning_turn is not None else
              f"No winner yet after {played} turn{'s' if played != 1 else ''}.")
    chunks = [register[i:i + REGISTER_ROWS] for i in range(0, len(register), REGISTER_ROWS)]
    gm_pages = tuple(
        Page("whats_my_number/gm_register.html",
             "Secret register" + (f" ({i} of {len(chunks)})" if len(chunks) > 1 else ""), {
                 "register": chunk, "lists": lists if i == len(chunks) else [],
                 "status": status, "range": log.range, "turns": len(result.turns),
                 "won": result.winning_turn is not None,
             }, audience="host")
        for i, chunk in enumerate(chunks, start=1))
    banner = f"Secret numbers from {log.range[0]} to {log.range[1]}"
    return KitPlan(
        folder=config.folder_name,
        game_title=rules.TITLE,
        banner=banner,
        documents=(
            Document("turn-reports", f"{rules.TITLE} — turn reports", tuple(pages)),
            Document("gm-register", f"{rules.TITLE} — GM register", gm_pages),
        ),
        styles=("whats_my_number/filled.css",),
    )


def markdown(log: rules.GameLog, result: rules.GameResult) -> str:
    """Every turn's report as the reference's Markdown table, then the winner line if won."""
    parts = []
    for report in result.turns:
        parts.append(f"Turn {report.number}\n\n" + rules.format_report_markdown(report,
                                                                                 log.players))
    if result.winning_turn is not None:
        parts.append(win_text(result.winners, result.reason, result.winning_turn) + "\n")
    return "\n".join(parts)
