"""The Lowest Unique Number host's page: one form per table for its next round (each player's
number or a pass), each table's last tally to read back, and the provisional standings; a
table's post read into its round.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...console.views.said import each, line
from ...errors import KitError
from ...game import FormRead, GmPage
from ...i18n import Words
from .console_state import play
from .reports import choices_line


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
    t = round_.tally
    winner = (w.gettext("%(name)s wins with %(number)s", name=t.winner, number=t.winning_number)
              if t.winner else w.gettext("No single number: nobody scores"))
    return {"round": round_.number, "choices": choices_line(t.choices, t.passes, w, "—"),
            "cancelled": w.numbers(t.cancelled) or "—",
            "singles": w.numbers(t.singles) or "—", "winner": winner,
            "picks": [(name, w.gettext("pass") if n is None else str(n))
                      for name, n in round_.choices]}


def host_context(seen: Mapping[str, Any], w: Words, posted: RoundForm | None = None,
                 values: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Every table's next round form and last tally, and the standings so far."""
    party = play(seen["log"])
    rounds = int(seen["log"].get("rounds", 5))
    played = {t.number: t for t in party.tables}
    tables = []
    names_of = [list(t["players"]) for t in seen["log"].get("table", [])]
    for number, names in enumerate(names_of, start=1):
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
                 for place, player, table, points in party.standings()]
    return {"tables": tables, "rounds": rounds, "standings": standings}


def gm_page(seen: Mapping[str, Any], w: Words, query: Mapping[str, str],
            posted: FormRead | None = None, answer: Mapping[str, Any] | None = None) -> GmPage:
    """The host's page: every table's next round and last tally, the standings."""
    form = posted.form if posted is not None else None
    values = posted.values if posted is not None else None
    notice = w.gettext("Round saved: check its tally with the table.") if "round" in query \
        else ""
    return GmPage("host.html", {"state": seen, "notice": notice,
                                "show_files": any(seen.get("rounds_entered", {}).values()),
                                **host_context(seen, w, form, values)})


def read_table_round(values: Mapping[str, str], seen: Mapping[str, Any], w: Words) -> FormRead:
    """A table's form -> its next round; a table the party does not have goes to the console
    as it is, which refuses it."""
    number = int(values["table"]) if values.get("table", "").isdigit() else 0
    tables = [list(t["players"]) for t in seen["log"].get("table", [])]
    if not 1 <= number <= len(tables):
        return FormRead("round", {"choices": {}}, params={"table": number})
    names = tables[number - 1]
    form = read_round(values, number, names, w)

    def absorbed(error: KitError, words: Words) -> None:
        absorb(form, error, names, words)

    sent = [w.gettext("%(label)s: %(value)s", label=name,
                      value=w.gettext("pass") if value == "pass" else str(value))
            for name, value in form.choices.items()]
    return FormRead("round", {"choices": form.choices}, params={"table": number}, form=form,
                    values=values, ok=lambda: form.ok,
                    done=f"round={number}#table-{number}", sent=sent, absorb=absorbed)


FORMS = {"round": read_table_round}
