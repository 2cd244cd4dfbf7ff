"""The public page and the big-screen standings, from ``Console.public_state`` only (published
turns, entered rounds and standings: never a secret number, never an unpublished entry)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...i18n import Words


def _answer(cell: str, w: Words) -> str:
    from ...games.whats_my_number.people import answer

    try:
        return answer(cell, w)
    except (KeyError, ValueError):
        return cell


def wmn_turns(public: Mapping[str, Any], w: Words) -> list[dict[str, Any]]:
    """Published turn reports as the printed report shows them (answers, never the guesses),
    newest first."""
    turns = []
    for report in public.get("turns", []):
        rows = []
        for row in report.get("rows", []):
            if "cells" in row:
                label = f"{row['player']} {row['index']}"
                status = row.get("status", "ok")
                if status in ("void", "ignored"):
                    label += " " + (w.gettext("(void)") if status == "void"
                                    else w.gettext("(ignored)"))
                elif row.get("bonus"):
                    label += " " + w.gettext("(bonus)")
                rows.append({"label": label, "cells": [_answer(c, w) for c in row["cells"]]})
            else:
                text = w.ngettext("List: %(num)s correct", "List: %(num)s correct",
                                  int(row.get("correct", 0)))
                rows.append({"label": row.get("player", ""), "cells": [], "list": text})
        turns.append({"number": report.get("number"), "rows": rows,
                      "no_orders": list(report.get("no_orders", [])), "rulings": [],
                      "winners": list(report.get("winners", []))})
    return list(reversed(turns))


def wmn_standings(public: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Players by numbers found (most first, then player order); winners first."""
    winners = set(public.get("winners", []))
    found = public.get("identified", {})
    allowance = public.get("next_allowance", {})
    players = list(public.get("players", []))
    order = sorted(players, key=lambda p: (p not in winners, -int(found.get(p, 0)),
                                           players.index(p)))
    rows, place = [], 0
    for i, p in enumerate(order):
        key = (p in winners, found.get(p, 0))
        if not rows or key != rows[-1]["key"]:
            place = i + 1
        rows.append({"key": key, "place": place, "player": p, "points": found.get(p, 0),
                     "winner": p in winners, "allowance": allowance.get(p, "")})
    return rows


def lun_boards(public: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One board per table: its players by points (places shared), and rounds played."""
    by_table: dict[int, list[dict[str, Any]]] = {}
    for s in public.get("standings", []):
        by_table.setdefault(int(s["table"]), []).append(s)
    boards = []
    for table in public.get("tables", []):
        number = int(table["table"])
        rows = sorted(by_table.get(number, []), key=lambda s: -int(s["points"]))
        out, place = [], 0
        for i, s in enumerate(rows):
            if not out or s["points"] != out[-1]["points"]:
                place = i + 1
            out.append({"place": place, "player": s["player"], "points": s["points"],
                        "lead": s.get("place") == 1 and int(s["points"]) > 0})
        boards.append({"table": number, "played": len(table.get("rounds", [])), "rows": out})
    return boards


def progress_text(boards: Sequence[Mapping[str, Any]], rounds: int, w: Words) -> str:
    """'After round 2 at tables 1 and 2, round 1 at table 3' (provisional until all finish)."""
    by_played: dict[int, list[str]] = {}
    for b in boards:
        by_played.setdefault(int(b["played"]), []).append(str(b["table"]))
    parts = []
    for played, tables in sorted(by_played.items(), reverse=True):
        where = w.ngettext("table %(tables)s", "tables %(tables)s", len(tables),
                           tables=w.join(tables))
        parts.append(w.gettext("after round %(round)s at %(where)s", round=played, where=where)
                     if played else w.gettext("no round yet at %(where)s", where=where))
    text = w.join(parts)
    if boards and all(int(b["played"]) >= rounds for b in boards):
        return w.gettext("Final standings (%(rounds)s rounds).", rounds=rounds)
    return w.gettext("Provisional: %(progress)s.", progress=text)
