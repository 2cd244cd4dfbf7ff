"""The Lowest Unique Number host's page: one form per table for its next round (each player's
number or a pass), each table's last tally to read back, and the provisional standings; a
table's post read into its round. A round already entered is corrected on a page of its own
(``?amend=T-R``): its choices typed again, the tally shown back, the standings counted again.
With sudden death announced, a table whose top is shared after its last round gets a form for
its tie-break round instead, for the tied players alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ....errors import KitError
from ....game import FormRead, GmPage
from ....game.said import each, line
from ....i18n import Words
from ..report.reports import choices_line
from ..rules.log import PartyLog, Table
from .start import boards, timers
from .state import AMEND, TIEBREAK, TIMER, Party, entered_choices, play


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


def tally_view(round_: Any, w: Words, cooperative: bool = False) -> dict[str, Any]:
    """A played round as the table reads it back: sorted choices, cancelled, singles, winner
    (cooperative: whether the table scores it)."""
    t = round_.tally
    winner = (w.gettext("%(name)s wins with %(number)s", name=t.winner, number=t.winning_number)
              if t.winner else w.gettext("No single number: nobody scores"))
    if cooperative:
        winner = (w.gettext("Exactly one single: the table scores") if len(t.singles) == 1
                  else w.gettext("Not exactly one single: the table does not score"))
    return {"round": round_.number, "choices": choices_line(t.choices, t.passes, w, "—"),
            "cancelled": w.numbers(t.cancelled) or "—",
            "singles": w.numbers(t.singles) or "—", "winner": winner,
            "picks": [(name, w.gettext("pass") if n is None else str(n))
                      for name, n in round_.choices]}


def form_rows(names: Sequence[str], w: Words, form: RoundForm | None,
              values: Mapping[str, str] | None, choices: Mapping[str, Any] | None = None
              ) -> list[dict[str, Any]]:
    """A round form's rows: as posted (``values``, with ``form``'s problems), else filled from
    the ``choices`` entered (a correction), else empty."""
    rows = []
    for k, name in enumerate(names):
        if values is not None:
            value, passed = values.get(f"c{k}", ""), bool(values.get(f"p{k}"))
        else:
            choice = (choices or {}).get(name)
            passed = isinstance(choice, str)
            value = "" if choice is None or passed else str(choice)
        rows.append({"k": k, "name": name, "value": value, "passed": passed,
                     "errors": form.players.get(k, []) if form else []})
    return rows


def _problems(form: RoundForm | None) -> int:
    return sum(len(v) for v in form.players.values()) + len(form.general) if form else 0


def _corrected(query: Mapping[str, str]) -> tuple[int, int] | None:
    """The table and round of ``?amended=T-R`` (or ``?amend=T-R``), if well formed."""
    for key in ("amended", "amend"):
        table, _, number = query.get(key, "").partition("-")
        if table.isdigit() and number.isdigit():
            return int(table), int(number)
    return None


def tiebreak_card(party: PartyLog, table: Table, w: Words, posted: RoundForm | None,
                  values: Mapping[str, str] | None) -> dict[str, Any]:
    """A table's tie-break: the form of its next tie-break round when one is due, and its
    last tie-break round to read back."""
    due = party.due(table)
    last = table.tiebreaks[-1] if table.tiebreaks else None
    return {"tiebreak": {"number": table.number, "next": len(table.tiebreaks) + 1,
                         "rows": form_rows(due, w, posted, values if posted else None),
                         "general": posted.general if posted else [],
                         "problems": _problems(posted), "players": w.join(list(due))}
            if due else None,
            "tiebreak_last": tally_view(last, w) if last else None,
            "decider": table.decider}


def host_context(seen: Mapping[str, Any], w: Words, posted: RoundForm | None = None,
                 values: Mapping[str, str] | None = None,
                 query: Mapping[str, str] | None = None, kind: str = "round"
                 ) -> dict[str, Any]:
    """Every table's next round form (or tie-break form) and last tally (or the round just
    corrected), and the standings so far (cooperative: the table scores)."""
    party = play(seen["log"])
    coop = party.cooperative
    rounds = int(seen["log"].get("rounds", 5))
    played = {t.number: t for t in party.tables}
    tables = []
    names_of = [list(t["players"]) for t in seen["log"].get("table", [])]
    for number, names in enumerate(names_of, start=1):
        done = played.get(number)
        count = done.played if done else 0
        mine = posted if posted is not None and posted.table == number else None
        broken = mine if kind == TIEBREAK else None
        mine = None if kind == TIEBREAK else mine
        fixed = _corrected(query or {}) if "amended" in (query or {}) else None
        again = next((r for r in (done.rounds if done else ()) if fixed == (number, r.number)),
                     None)
        tables.append({"number": number, "next": count + 1, "finished": count >= rounds,
                       "rows": form_rows(names, w, mine, values if mine else None),
                       "general": mine.general if mine else [], "problems": _problems(mine),
                       "last": tally_view(done.rounds[-1], w, coop) if done and done.rounds
                       else None,
                       "corrected": tally_view(again, w, coop) if again else None,
                       "played": list(range(1, count + 1)),
                       "totals": done.totals if done else {n: 0 for n in names},
                       "score": done.score if done else 0,
                       **(tiebreak_card(party, done, w, broken, values) if done else {})})
    standings = [] if coop else [
        {"place": place, "player": player, "table": table, "points": points}
        for place, player, table, points in party.standings()]
    return {"tables": tables, "rounds": rounds, "standings": standings, "cooperative": coop}


def amend_context(seen: Mapping[str, Any], w: Words, table: int, number: int,
                  posted: FormRead | None) -> dict[str, Any] | None:
    """The page correcting one round already entered: its tally as entered now and its form,
    filled with its choices (or as posted, with every problem); None: no such round."""
    party = play(seen["log"])
    done = next((t for t in party.tables if t.number == table), None)
    entered = next((r for r in (done.rounds if done else ()) if r.number == number), None)
    if done is None or entered is None:
        return None
    form = posted.form if posted is not None and isinstance(posted.form, RoundForm) else None
    values = posted.values if posted is not None else None
    choices = entered_choices(Party(seen["log"]), table, number)
    t = {"number": table, "rows": form_rows(done.players, w, form, values, choices),
         "general": form.general if form else [], "problems": _problems(form)}
    return {"state": seen, "t": t, "number": number,
            "entered": tally_view(entered, w, party.cooperative)}


def gm_page(seen: Mapping[str, Any], w: Words, query: Mapping[str, str],
            posted: FormRead | None = None, answer: Mapping[str, Any] | None = None) -> GmPage:
    """The host's page: every table's next round and last tally, the standings; or the page
    correcting one round (``?amend=T-R``, or its refused post)."""
    fixing = (posted.params.get("table"), posted.params.get("round")) \
        if posted is not None and posted.kind == AMEND else _corrected(query) \
        if "amend" in query else None
    if fixing is not None:
        made = amend_context(seen, w, int(fixing[0] or 0), int(fixing[1] or 0), posted)
        if made is not None:
            return GmPage("amend.html", {**made, "back_text": w.gettext("Back to every "
                                                                        "table")})
    form = posted.form if posted is not None and posted.kind != AMEND else None
    form = form if isinstance(form, RoundForm) else None
    values = posted.values if form is not None and posted is not None else None
    notice = w.gettext("Round saved: check its tally with the table.") if "round" in query \
        else w.gettext("Tie-break round saved: check its tally with the table.") \
        if TIEBREAK in query else ""
    fixed = _corrected(query) if "amended" in query else None
    if fixed is not None:
        notice = w.gettext("Table %(table)s, round %(round)s corrected: the standings are "
                           "counted again. Read its tally back to the table.",
                           table=fixed[0], round=fixed[1])
    return GmPage("host.html", {"state": seen, "notice": notice,
                                "show_files": any(seen.get("rounds_entered", {}).values()),
                                "timers": timers(seen, w),
                                **host_context(seen, w, form, values, query,
                                               posted.kind if posted is not None else "round")})


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

    body: dict[str, Any] = {"choices": form.choices}
    if values.get("round", "").isdigit():  # the round the form is for: refused once entered
        body["round"] = int(values["round"])
    return FormRead("round", body, params={"table": number}, form=form,
                    values=values, ok=lambda: form.ok, done=f"round={number}#table-{number}",
                    sent=_sent(form, w), absorb=absorbed, sound=_sound(form, names))


def _sent(form: RoundForm, w: Words) -> list[str]:
    """What a round's post held, one line a player (the 409 page shows it)."""
    return [w.gettext("%(label)s: %(value)s", label=name,
                      value=w.gettext("pass") if value == "pass" else str(value))
            for name, value in form.choices.items()]


def _sound(form: RoundForm, names: Sequence[str]) -> dict[str, Any] | None:
    """With problems of its own, the round of its sound boxes (the others as passes) for the
    engine to check too, so every problem shows at once; None when nothing is sound."""
    if form.ok or not form.choices:
        return None
    return {"choices": {name: form.choices.get(name, "pass") for name in names}}


def read_table_amend(values: Mapping[str, str], seen: Mapping[str, Any], w: Words) -> FormRead:
    """A correction's form -> the table's round, its choices given again; a table or round
    the party has not played goes to the console as it is, which refuses it."""
    number = int(values["table"]) if values.get("table", "").isdigit() else 0
    at = int(values["round"]) if values.get("round", "").isdigit() else 0
    params = {"table": number, "round": at}
    tables = [list(t["players"]) for t in seen["log"].get("table", [])]
    was = entered_choices(Party(seen["log"]), number, at) if 1 <= number <= len(tables) \
        else None
    if was is None:
        return FormRead(AMEND, {"choices": {}}, params=params)
    names = tables[number - 1]
    form = read_round(values, number, names, w)

    def absorbed(error: KitError, words: Words) -> None:
        absorb(form, error, names, words)

    sound = _sound(form, names)
    if sound is not None and sound["choices"] == was:
        sound = None  # the placeholders alone would say "nothing to correct"
    unchanged = f"same=1#table-{number}" if form.ok and form.choices == was else ""
    return FormRead(AMEND, {"choices": form.choices}, params=params, form=form, values=values,
                    ok=lambda: form.ok, done=f"amended={number}-{at}#table-{number}",
                    unchanged=unchanged, sent=_sent(form, w), absorb=absorbed, sound=sound)


def read_table_tiebreak(values: Mapping[str, str], seen: Mapping[str, Any], w: Words
                        ) -> FormRead:
    """A table's tie-break form -> its next tie-break round, the tied players' choices; a
    table with none due goes to the console as it is, which says why."""
    number = int(values["table"]) if values.get("table", "").isdigit() else 0
    party = play(seen["log"])
    table = next((t for t in party.tables if t.number == number), None)
    names = party.due(table) if table is not None else ()
    if not names:
        return FormRead(TIEBREAK, {"choices": {}}, params={"table": number})
    form = read_round(values, number, names, w)

    def absorbed(error: KitError, words: Words) -> None:
        absorb(form, error, names, words)

    body: dict[str, Any] = {"choices": form.choices}
    if values.get("round", "").isdigit():  # the tie-break the form is for
        body["round"] = int(values["round"])
    return FormRead(TIEBREAK, body, params={"table": number}, form=form, values=values,
                    ok=lambda: form.ok, done=f"{TIEBREAK}={number}#table-{number}",
                    sent=_sent(form, w), absorb=absorbed, sound=_sound(form, names))


def read_table_timer(values: Mapping[str, str], seen: Mapping[str, Any], w: Words) -> FormRead:
    """The "start the timer" button -> the table's round timer, at the host's length."""
    number = int(values["table"]) if values.get("table", "").isdigit() else 0
    return FormRead(TIMER, {}, params={"table": number}, values=values,
                    done=f"timer={number}#table-{number}")


FORMS = {"round": read_table_round, AMEND: read_table_amend, TIMER: read_table_timer,
         TIEBREAK: read_table_tiebreak}


def table_page(seen: Mapping[str, Any], table: str, w: Words, query: Mapping[str, str],
               posted: FormRead | None = None) -> GmPage:
    """A table's scorer's page: the host's page reduced to that table (its last tally, its
    next round, a correction of its last round) and the table's standings."""
    number = int(table)
    fixing = (posted.params.get("round") if posted is not None and posted.kind == AMEND
              else (_corrected(query) or (0, 0))[1] if "amend" in query else None)
    if fixing is not None:
        made = amend_context(seen, w, number, int(fixing or 0), posted)
        if made is not None:
            return GmPage("amend.html", {**made, "back_text": w.gettext("Back to your table")})
    page = gm_page(seen, w, query, posted if posted is not None and posted.kind != AMEND
                   else None)
    card = next(t for t in page.context["tables"] if t["number"] == number)
    board = next(b for b in boards(seen) if b["table"] == number)
    return GmPage("scorer.html", {"state": seen, "notice": page.context["notice"], "t": card,
                                  "board": board, "rounds": page.context["rounds"],
                                  "cooperative": page.context["cooperative"],
                                  "timers": timers(seen, w)})


TABLE_FORMS = FORMS
