"""The words of the two announced variants in ``kit report`` and the console: a cooperative
table's score, and a sudden-death tie-break (who shared the top, who scored, what is due)."""

from __future__ import annotations

from ....i18n import Words
from ..rules.log import PartyLog, Round, Table


def one_single(r: Round, words: Words) -> str:
    """A cooperative round's verdict: "yes" when it left exactly one single."""
    return words.gettext("yes") if len(r.result.singles) == 1 else words.gettext("no")


def table_score(table: Table, words: Words) -> str:
    """"3 of 5 rounds left exactly one single" (a cooperative table's score)."""
    return words.ngettext("%(score)s of %(num)s round left exactly one single",
                          "%(score)s of %(num)s rounds left exactly one single", table.played,
                          score=table.score)


def coop_closing(log: PartyLog, words: Words) -> str:
    """The line that ends a cooperative party's report: every table's score."""
    if len(log.tables) == 1:
        return words.gettext("The table’s score: %(score)s.",
                             score=table_score(log.tables[0], words))
    scores = [words.gettext("table %(table)s, %(score)s", table=t.number,
                            score=table_score(t, words)) for t in log.tables]
    return words.gettext("Table scores: %(scores)s.", scores="; ".join(scores))


def tiebreak_line(log: PartyLog, table: Table, words: Words) -> str:
    """What sudden death did at ``table``: who won the tie-break, or that one is due; empty
    when the table plays none."""
    tied = table.tied
    due = log.due(table)
    if due:
        points = table.totals[due[0]]
        if table.tiebreaks:
            return words.ngettext(
                "Tie-break %(round)s left no single: %(players)s stay tied with %(num)s point, "
                "and play another tie-break round.",
                "Tie-break %(round)s left no single: %(players)s stay tied with %(num)s "
                "points, and play another tie-break round.", points,
                round=table.tiebreaks[-1].number, players=words.join(list(due)))
        return words.ngettext(
            "%(players)s share the top of table %(table)s with %(num)s point: sudden death "
            "was announced, so they play a tie-break round.",
            "%(players)s share the top of table %(table)s with %(num)s points: sudden death "
            "was announced, so they play a tie-break round.", points,
            players=words.join(list(due)), table=table.number)
    decider = table.decider
    if decider is None:
        return ""
    won = next(r for r in table.tiebreaks if r.winner)
    return words.gettext("Sudden death: %(players)s shared the top; %(player)s scored in "
                         "tie-break %(round)s with %(number)s and comes first at table "
                         "%(table)s.", players=words.join(list(tied)), player=decider,
                         round=won.number, number=won.result.winner, table=table.number)


def tiebreak_lead(table: Table, words: Words) -> str:
    """The line under a table's tie-break tally."""
    return words.gettext("Sudden death (announced before round one): only %(players)s play, by "
                         "the same rules, until one of them scores.",
                         players=words.join(list(table.tied)))


def due_lines(log: PartyLog, words: Words) -> list[str]:
    """The tie-break rounds due once every table has played its rounds."""
    if any(t.played < log.rounds for t in log.tables):
        return []
    return [tiebreak_line(log, t, words) for t in log.tables if log.due(t)]
