"""The Lowest Unique Number host's page: one form per table for its next round (each player's
number or a pass), each table's last tally to read back, and the provisional standings; and an
amended What's My Number? cell in words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import KitError
from ...i18n import Words
from .said import each, line


@dataclass
class RoundForm:
    """A table's posted round: the choices, and every problem (by player position)."""

    table: int
    choices: dict[str, Any] = field(default_factory=dict)
    players: dict[int, list[str]] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)

    def add(self, k: int | None, message: str) -> None:
        if k is None:
            self.general.append(message)
        else:
            self.players.setdefault(k, []).append(message)

    @property
    def ok(self) -> bool:
        return not (self.players or self.general)


def read_round(values: Mapping[str, str], table: int, names: Sequence[str],
               w: Words) -> RoundForm:
    """``c{k}`` each player's number, ``p{k}`` a pass; every problem at once."""
    form = RoundForm(table)
    for k, name in enumerate(names):
        text = values.get(f"c{k}", "").strip()
        passed = bool(values.get(f"p{k}"))
        if passed and text:
            form.add(k, w.gettext("%(name)s: a number and a pass; keep one.", name=name))
        elif passed:
            form.choices[name] = "pass"
        elif not text:
            form.add(k, w.gettext("%(name)s: no number; type it, or tick Pass.", name=name))
        elif not re.fullmatch(r"-?[0-9]{1,6}", text):
            form.add(k, w.gettext("%(name)s: %(value)s is not a whole number.", name=name,
                                  value=text[:12]))
        else:
            form.choices[name] = int(text)
    return form


def absorb(form: RoundForm, error: KitError, names: Sequence[str], w: Words | None = None
           ) -> None:
    """The engine's problems, in the page's language; one that names a player goes beside
    that player's box."""
    for problem in each(error):
        text = problem.message  # English: where the player's name is looked for
        hit = next((k for k, n in enumerate(names) if f"'{n}'" in text or f"{n}:" in text
                    or f"for {n}" in text), None)
        form.add(hit, problem.text(w) if hit is not None else line(problem, w))


def tally_view(round_: Any, w: Words) -> dict[str, Any]:
    """A played round as the table reads it back: sorted choices, cancelled, singles, winner."""
    from ...games.lowest_unique.reports import choices_line

    t = round_.tally
    winner = (w.gettext("%(name)s wins with %(number)s", name=t.winner, number=t.winning_number)
              if t.winner else w.gettext("No single number: nobody scores"))
    return {"round": round_.number, "choices": choices_line(t.choices, t.passes, w, "—"),
            "cancelled": w.numbers(t.cancelled) or "—",
            "singles": w.numbers(t.singles) or "—", "winner": winner,
            "picks": [(name, w.gettext("pass") if n is None else str(n))
                      for name, n in round_.choices]}


def host_context(state: Any, w: Words, posted: RoundForm | None = None,
                 values: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Every table's next round form and last tally, and the standings so far."""
    party = state.result
    rounds = int(state.log.get("rounds", 5))
    played = {t.number: t for t in getattr(party, "tables", ())}
    tables = []
    for number, names in enumerate(state.tables, start=1):
        done = played.get(number)
        count = done.played if done else 0
        mine = posted if posted is not None and posted.table == number else None
        rows = [{"k": k, "name": name,
                 "value": (values or {}).get(f"c{k}", "") if mine else "",
                 "passed": bool((values or {}).get(f"p{k}")) if mine else False,
                 "errors": mine.players.get(k, []) if mine else []}
                for k, name in enumerate(names)]
        tables.append({"number": number, "next": count + 1, "finished": count >= rounds,
                       "rows": rows, "general": mine.general if mine else [],
                       "problems": (sum(len(v) for v in mine.players.values())
                                    + len(mine.general)) if mine else 0,
                       "last": tally_view(done.rounds[-1], w) if done and done.rounds else None,
                       "totals": done.totals if done else {n: 0 for n in names}})
    standings = [{"place": place, "player": player, "table": table, "points": points}
                 for place, player, table, points in party.standings()] if party else []
    return {"tables": tables, "rounds": rounds, "standings": standings}


def _cell(value: object, w: Words) -> str:
    from ...games.whats_my_number.people import answer

    text = str(value or "—")
    return answer(text, w) if text in ("H", "L", "X", "✓") else text


def cell_change(change: Mapping[str, Any], w: Words) -> str:
    """One changed cell of a published report, in words (turn, row, column: old -> new)."""
    if "row" in change:
        from ...games.whats_my_number.snapshot import NEXT_TURN

        row = str(change.get("row", "?"))
        row = w.gettext("Guesses next turn") if row == NEXT_TURN else row
        return w.gettext("Turn %(turn)s, row %(row)s, column %(column)s: %(old)s → %(new)s",
                         turn=change.get("turn", "?"), row=row,
                         column=change.get("column", "?"), old=_cell(change.get("old"), w),
                         new=_cell(change.get("new"), w))
    return w.gettext("Turn %(turn)s: its report changes", turn=change.get("turn", "?"))
