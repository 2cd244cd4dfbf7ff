"""The words a What's My Number? turn report adds under its table, in the kit's language: who
sent no orders, each house ruling applied, the allowances for the next turn, and on a winning
turn why the winner won when several players finished.

The same texts go on the PDF and HTML pages (``reports``), the GM register (``gm_register``)
and the private slips (``slips``); they are plain strings, so the text outputs can use them too.
Names are isolated in their own direction (``fonts.isolate``): a Hebrew name inside an English
sentence keeps its place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ....fonts import isolate
from ....i18n import Words
from ....layout.fit import Part
from .. import rules
from ..sheets.people import range_words

NBSP = "\u00a0"


def _names(players: Sequence[str], words: Words) -> str:
    return words.join([isolate(player) for player in players])


# --- marks on the table's rows -------------------------------------------------------------------


def status_mark(status: str, words: Words) -> str:
    """"(void)", "(ignored)", "(partial)": how a row the house rulings touched is labelled."""
    if status == "void":
        return words.pgettext("turn report: a guess outside the range", "(void)")
    if status == "ignored":
        return words.pgettext("turn report: a guess beyond the allowance", "(ignored)")
    return words.pgettext("turn report: a list that does not name every other player",
                          "(partial)")


def no_answer_text(row: rules.GuessRow, words: Words) -> str:
    """What a void or ignored guess's row says across the player columns."""
    if row.status == "void":
        return words.gettext("no answers: outside the range")
    return words.gettext("no answers: beyond the allowance")


def list_text(row: rules.ListRow, words: Words) -> str:
    """"3 correct."; a partial list: "2 correct of 4 listed; cannot win."."""
    if row.partial:  # each count takes its own plural ("0 bonne réponse sur 1 nombre inscrit")
        correct = words.ngettext("%(num)s correct", "%(num)s correct", row.correct)
        return words.ngettext("%(correct)s of %(num)s listed; cannot win.",
                              "%(correct)s of %(num)s listed; cannot win.", row.listed,
                              correct=correct)
    return words.ngettext("%(num)s correct.", "%(num)s correct.", row.correct)


def marks_used(rows: Sequence[rules.Row]) -> tuple[str, ...]:
    """The marks a turn's rows carry, in legend order ("void", "ignored", "partial")."""
    found: set[str] = {row.status for row in rows if isinstance(row, rules.GuessRow)}
    if any(isinstance(row, rules.ListRow) and row.partial for row in rows):
        found.add("partial")
    return tuple(mark for mark in ("void", "ignored", "partial") if mark in found)


def rulings_legend(marks: Sequence[str], words: Words) -> tuple[Part, ...]:
    """The legend line of the marks a turn uses (empty when it uses none)."""
    _ = words.gettext
    meanings = {"void": _("a guess outside the range: it keeps its place, no answers"),
                "ignored": _("a guess beyond the allowance: no answers"),
                "partial": _("a list that does not name every other player: it cannot win")}
    parts: list[Part] = []
    for i, mark in enumerate(marks):
        more = f"{NBSP}· " if i < len(marks) - 1 else ""
        parts += [(status_mark(mark, words), "bold"), (NBSP + meanings[mark] + more, "regular")]
    return tuple(parts)


# --- lines under the table -----------------------------------------------------------------------


def no_orders_line(players: Sequence[str], words: Words) -> str:
    """"No orders: Cy" (empty when everyone sent orders)."""
    if not players:
        return ""
    return words.gettext("No orders: %(players)s", players=_names(players, words))


def next_turn_line(allowance: Mapping[str, int], players: Sequence[str], words: Words) -> str:
    """"Next turn: Bob 4 guesses, Dee 3, everyone else 2": the players with bonus guesses in
    player order, then the rest; "Next turn: everyone 2 guesses" when nobody has a bonus."""
    base = rules.BASE_GUESSES
    more = [player for player in players if allowance.get(player, base) != base]
    if not more:
        return words.ngettext("Next turn: everyone %(num)s guess",
                              "Next turn: everyone %(num)s guesses", base)
    first, *rest = more
    parts = [words.ngettext("%(player)s %(num)s guess", "%(player)s %(num)s guesses",
                            allowance[first], player=isolate(first))]
    parts += [words.gettext("%(player)s %(count)s", player=isolate(player),
                            count=allowance[player]) for player in rest]
    if len(more) < len(players):
        parts.append(words.gettext("everyone else %(count)s", count=base))
    return words.gettext("Next turn: %(allowances)s", allowances=", ".join(parts))


def ruling_note(ruling: rules.Ruling, number_range: tuple[int, int], words: Words) -> str:
    """One ruling, for everyone: which guess or list it touched and what it means (never the
    numbers guessed). "" for "no-orders" (the "No orders" line says it)."""
    who = isolate(ruling.player)
    places = words.join([str(place) for place in ruling.positions])
    if ruling.kind == "extra-guesses":
        return words.ngettext(
            "Ruling: %(player)s was allowed %(allowed)s guesses; guess %(places)s is "
            "ignored.",
            "Ruling: %(player)s was allowed %(allowed)s guesses; guesses %(places)s are "
            "ignored.",
            len(ruling.positions), player=who, allowed=ruling.allowed, places=places)
    if ruling.kind == "out-of-range":
        return words.ngettext(
            "Ruling: %(player)s’s guess %(places)s is outside the range %(range)s: void, no "
            "answers; later guesses keep their places.",
            "Ruling: %(player)s’s guesses %(places)s are outside the range %(range)s: void, "
            "no answers; later guesses keep their places.",
            len(ruling.positions), player=who, places=places,
            range=range_words(number_range, words))
    if ruling.kind == "partial-list":
        return words.gettext("Ruling: %(player)s’s list does not name %(missing)s: only its "
                             "count is given, and it cannot win.", player=who,
                             missing=_names(ruling.missing, words))
    return ""


def ruling_notes(report: rules.TurnReport, number_range: tuple[int, int], words: Words
                 ) -> list[str]:
    """The note of every ruling applied in a turn, in player order."""
    notes = [ruling_note(ruling, number_range, words) for ruling in report.rulings]
    return [note for note in notes if note]


def finished_how(finisher: rules.Finisher, words: Words) -> str:
    """"Fay by a fully correct list", "Bob with guess 1"."""
    if finisher.by == "list":
        return words.gettext("%(player)s by a fully correct list",
                             player=isolate(finisher.player))
    return words.gettext("%(player)s with guess %(place)s", player=isolate(finisher.player),
                         place=finisher.position)


def tie_rule(report: rules.TurnReport, words: Words) -> str:
    """Why the winners won, of several who finished."""
    if report.reason == "list":
        if any(f.by == "guesses" for f in report.finishers):
            return words.gettext("A fully correct list beats guesses.")
        return words.gettext("Fully correct lists share the win.")
    if len(report.winners) > 1:
        return words.gettext("The earliest guess that found a player’s last number wins; "
                             "equal places share the win.")
    return words.gettext("The earliest guess that found a player’s last number wins.")


def finish_explanation(report: rules.TurnReport, words: Words) -> str:
    """On a winning turn where several players finished: who finished how, and the tie rule
    ("" when one player finished)."""
    if len(report.finishers) < 2:
        return ""
    how = words.join([finished_how(finisher, words) for finisher in report.finishers])
    return words.gettext("Finished this turn: %(finishers)s. %(rule)s", finishers=how,
                         rule=tie_rule(report, words))
