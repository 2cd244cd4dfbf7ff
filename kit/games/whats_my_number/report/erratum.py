"""The erratum of What's My Number? (``kit report --amend``): for each turn corrected after it
was handed out, a page that says which turn's report changed, every changed cell (row,
column: as printed -> now) and every changed allowance for the next turn, so players can
correct the copy they hold. A turn corrected twice has one page: the net change from the
report as first handed out (the register lists each correction).

The cells are the snapshot's (``snapshot``): rows "Ann 1", "Fay List", "Next turn" (the
allowances) and "Result" (no orders, winners); the answers are printed as the reports print
them, in the kit's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from ....fonts import isolate
from ....i18n import Words
from ....layout.blocks import heading, para, title
from ....layout.model import Item
from ....layout.table import Cell, ruled_table
from ....paper import Frame, Paper
from ....plan import Form, Page
from ....published import MISSING, Amendment, CellChange
from .. import rules
from ..sheets.people import answer
from . import turn_notes as notes
from .reports import HEAD_MM, ROW_MM, SLACK_MM
from .snapshot import NEXT_TURN, RESULT

ROW_COLUMN_SHARE = 0.3  # of the body width: the row; the column as much; then old and new
ANSWERS = (rules.HIGHER, rules.LOWER, rules.HIT, rules.NO_INFO)


def value_text(value: str, words: Words) -> str:
    """A cell's value as the reports print it: answers in the language's letters, ruling
    marks translated, "—" for an empty cell or one the report did not have."""
    if value in ANSWERS:
        return answer(value, words)
    if value in ("void", "ignored", "partial"):
        return notes.status_mark(value, words)
    if value in ("", "-", MISSING):
        return "—"
    return value


def row_text(row: str, words: Words) -> str:
    """A snapshot row as the report labels it ("Ann 1", "Fay List", "Next turn")."""
    if row == NEXT_TURN:
        return words.gettext("Next turn")
    if row == RESULT:
        return words.gettext("Result")
    if row.endswith(" List"):
        return words.gettext("%(player)s List", player=row[: -len(" List")])
    return row


def column_text(column: str, words: Words) -> str:
    """A snapshot column: a player's label, or what a list, a ruling or the result holds."""
    named = {"status": words.gettext("ruling"), "correct": words.gettext("correct"),
             "no orders": words.gettext("no orders"), "winners": words.gettext("winners")}
    return named.get(column, column)


def allowance_text(change: CellChange, words: Words) -> str:
    """"Ann: 2 → 3 guesses next turn"."""
    return words.gettext("%(player)s: %(old)s → %(new)s guesses next turn",
                         player=isolate(change.column), old=change.old, new=change.new)


def erratum_title(turn: int, words: Words, page: int = 1, pages: int = 1) -> str:
    if pages > 1:
        return words.gettext("Erratum: turn %(turn)s report (%(page)s of %(pages)s)",
                             turn=turn, page=page, pages=pages)
    return words.gettext("Erratum: turn %(turn)s report", turn=turn)


def widths(body: Frame) -> list[float]:
    row = round(body.w * ROW_COLUMN_SHARE, 1)
    rest = round((body.w - 2 * row) / 2, 1)
    return [row, row, rest, round(body.w - 2 * row - rest, 1)]


def shown_changes(changes: Sequence[CellChange], words: Words, letters: Words | None = None
                  ) -> list[tuple[str, ...]]:
    """(row, column, as printed, now) for each change a reader can see: a row the report no
    longer has is one line ("row removed"), and a cell printed the same before and after
    ("—" and "—": an ignored guess's empty answer) is left out. The values in the letters of
    ``letters`` (the game's language) when the words are another's (a console page)."""
    letters = letters or words
    gone = {c.row for c in changes if c.row not in (NEXT_TURN, RESULT)}
    gone -= {c.row for c in changes if c.new != MISSING}
    shown: list[tuple[str, ...]] = []
    for change in changes:
        if change.row in gone:
            if not shown or shown[-1][0] != row_text(change.row, words):
                marks = [value_text(c.old, letters) for c in changes
                         if c.row == change.row and c.column == "status"]
                shown.append((row_text(change.row, words), words.gettext("whole row"),
                              marks[0] if marks else "—", words.gettext("row removed")))
            continue
        old, new = value_text(change.old, letters), value_text(change.new, letters)
        if old != new:
            shown.append((row_text(change.row, words), column_text(change.column, words), old,
                          new))
    return shown


def net_amendments(amendments: Sequence[Amendment]) -> list[Amendment]:
    """One amendment per turn, by turn number: each cell as first handed out (the old value of
    the first change to it) and as it is now (the new value of the last), the cells a later
    correction put back as printed left out."""
    first: dict[int, dict[tuple[str, str], CellChange]] = {}
    for amendment in amendments:
        cells = first.setdefault(amendment.turn, {})
        for change in amendment.changes:
            was = cells.get((change.row, change.column))
            cells[(change.row, change.column)] = change if was is None else CellChange(
                change.turn, change.row, change.column, was.old, change.new)
    return [Amendment(turn, tuple(c for c in first[turn].values() if c.old != c.new))
            for turn in sorted(first)]


def change_rows(changes: Sequence[CellChange], words: Words) -> list[list[Cell]]:
    return [[Cell(row, lines=2), Cell(column, lines=2), Cell(old, "bold", "center"),
             Cell(new, "bold", "center")]
            for row, column, old, new in shown_changes(changes, words)]


def amendment_pages(amendment: Amendment, body: Frame, words: Words, final: bool = False
                    ) -> list[list[Item]]:
    """One amendment's page bodies below the title: what changed, the cells, the allowances
    (none when ``final``: the turn now ends the game, so there is no next turn)."""
    _ = words.gettext
    cells = [c for c in amendment.changes if c.row != NEXT_TURN]
    allowances = [] if final else [c for c in amendment.changes if c.row == NEXT_TURN]
    top = body.y + title(0.0, 0.0, erratum_title(amendment.turn, words))[1]
    items, used = para(body.x, top, body.w, _(
        "A correction of the game log changed the turn %(turn)s report after it was handed "
        "out. Correct your copy: each changed cell, as printed and as it is now.",
        turn=amendment.turn))
    pages, y = [items], top + used
    if not amendment.changes:  # corrected, then put back: the copy handed out is right again
        more, used = para(body.x, y, body.w, _(
            "After its corrections the turn %(turn)s report is again as it was handed out: "
            "your copy is right.", turn=amendment.turn))
        return [items + more]
    head = [Cell(_("Row"), "bold"), Cell(_("Column"), "bold"),
            Cell(_("As printed"), "bold", "center"), Cell(_("Now"), "bold", "center")]
    rows = change_rows(cells, words)
    while rows:
        take = max(1, int((body.bottom - SLACK_MM - y - HEAD_MM + 1e-6) // ROW_MM))
        chunk, rows = rows[:take], rows[take:]
        pages[-1] += ruled_table(body.x, y, widths(body), [HEAD_MM] + [ROW_MM] * len(chunk),
                                 [head, *chunk], heavy=(1,))
        y += HEAD_MM + ROW_MM * len(chunk) + 2.0
        if rows:
            pages.append([])
            y = top
    if allowances:
        _more, heading_mm = heading(body.x, 0.0, _("Guesses next turn"))
        lines = [allowance_text(c, words) for c in allowances]
        needed = heading_mm + sum(para(0.0, 0.0, body.w, line)[1] for line in lines)
        if y + needed > body.bottom - SLACK_MM:
            pages.append([])
            y = top
        more, used = heading(body.x, y, _("Guesses next turn"))
        pages[-1] += more
        y += used
        for line in lines:
            more, used = para(body.x, y, body.w, line)
            pages[-1] += more
            y += used
    return pages


def erratum_pages(amendments: Sequence[Amendment], sheet: Paper, words: Words,
                  winning_turn: int | None = None) -> list[Page]:
    """A page (or more) per corrected turn, by turn number, with the net change of all its
    ``amendments`` (``net_amendments``), each opening an outline entry "Erratum, turn N" (HTML
    id ``erratum-N``, numbered from 1 in that order). The game's winning turn, as the log
    stands, lists no allowances for a next turn."""
    body = sheet.body
    out: list[Page] = []
    for n, amendment in enumerate(net_amendments(amendments), start=1):
        bodies = amendment_pages(amendment, body, words, amendment.turn == winning_turn)
        for i, items in enumerate(bodies, start=1):
            label = erratum_title(amendment.turn, words, i, len(bodies))
            heading_items, _used = title(body.x, body.y, label)
            out.append(Page(label, Form(tuple(heading_items + items)),
                            bookmark=words.gettext("Erratum, turn %(turn)s",
                                                   turn=amendment.turn) if i == 1 else None,
                            anchor=f"erratum-{n}" if i == 1 else None))
    return out
