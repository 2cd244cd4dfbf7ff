"""The GM register of ``kit report`` (What's My Number?): every player's secret, who they have
identified and when, who is still to find, guesses allowed next turn, and the lists submitted.

Text wraps only between entries; a row grows with its text, and rows that do not fit continue
on the next page (a row taller than a page is cut between lines and carries on).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .... import fonts
from ....i18n import Words
from ....layout.blocks import heading, para, title
from ....layout.fit import LEADING, ellipsize, fits, wrap
from ....layout.model import Item, place_runs, pt, text_width
from ....layout.table import PAD_MM, Cell, ruled_table
from ....paper import Frame, Paper
from ....plan import Form, Page
from ....published import Amendment
from .. import rules
from ..sheets.people import range_words
from . import erratum
from . import turn_notes as notes
from .reports import GAP_MM, HEAD_MM, ROW_MM, SLACK_MM, bold_box, win_text

REG_PT = 10.0  # register text
REG_HEAD_PT = 9.5
REG_HEAD_MM = 11.0  # two lines of header text
REG_PAD_MM = 1.6  # above the first and below the last line of a register cell
REG_MIN_ROW_MM = 7.5
SECRET_MM = 16.0
NEXT_MM = 21.0
PLAYER_MIN_MM = 16.0
PLAYER_SHARE = 0.24  # of the body width, at most, for the player column
FOUND_SHARE = 0.58  # of what is left, for "Has identified"; "Still to find" takes the rest
MAX_LISTED = 12  # "Still to find" names at most this many players, else counts them
LIST_TURN_MM = 18.0  # "Lists submitted": turn | player (as wide as the register's) | correct
LIST_CORRECT_MM = 24.0


def register_header(words: Words) -> tuple[str, ...]:
    _ = words.gettext
    return (_("Player"), _("Secret"), _("Has identified (turn.guess)"), _("Still to find"),
            _("Guesses next turn"))


def _head_room(caption: str, least: float) -> float:
    """A narrow column's width: ``least``, or more so that its header's longest word fits
    whole (the header wraps between words only: German "Geheimzahl" is one word)."""
    longest = max((text_width(part, REG_HEAD_PT, "bold") for part in caption.split()),
                  default=0.0)
    return round(max(least, longest + 2 * PAD_MM + 0.6), 1)


def register_widths(width: float, players: Sequence[str], words: Words) -> list[float]:
    """Player | Secret | Has identified | Still to find | Guesses next turn, in mm."""
    widest = max((text_width(label, REG_PT) for label in players), default=0.0)
    player = min(width * PLAYER_SHARE, max(PLAYER_MIN_MM, widest + 2 * PAD_MM + 0.6))
    player = round(player, 1)
    header = register_header(words)
    secret, following = _head_room(header[1], SECRET_MM), _head_room(header[4], NEXT_MM)
    rest = width - player - secret - following
    found = round(rest * FOUND_SHARE, 1)
    return [player, secret, found, round(rest - found, 1), following]


def wrap_entries(entries: Sequence[str], sep: str, width: float, size: float = REG_PT
                 ) -> list[str]:
    """``entries`` joined by ``sep`` (";" or ","), in lines no wider than ``width``, broken
    only between entries; an entry wider than a whole line breaks between its words, and a
    word wider than a line is cut with "…"."""
    lines: list[str] = []
    current = ""
    for i, entry in enumerate(entries):
        piece = entry + (sep if i < len(entries) - 1 else "")
        trial = f"{current} {piece}" if current else piece
        if current and not fits(trial, width, size):
            lines.append(current)
            current = piece
        else:
            current = trial
        if not fits(current, width, size):
            parts = [ellipsize(part, width, size) for part in wrap(current, width, size)]
            lines += parts[:-1]
            current = parts[-1]
    if current:
        lines.append(current)
    return lines


def still_to_find(missing: Sequence[str], found_any: bool, words: Words) -> list[str]:
    """The "Still to find" entries: the labels while there are at most 12 of them (the end
    of the game, when they matter), else a count (the "Has identified" column says who)."""
    if not missing:
        return [words.gettext("nobody")]
    if not found_any:
        return [words.ngettext("all %(num)s others", "all %(num)s others", len(missing))]
    if len(missing) <= MAX_LISTED:
        return list(missing)
    return [words.ngettext("%(num)s others", "%(num)s others", len(missing))]


def line_step(size: float = REG_PT) -> float:
    return pt(size) * LEADING


def row_height(lines: int, size: float = REG_PT) -> float:
    return max(REG_MIN_ROW_MM, 2 * REG_PAD_MM + lines * line_step(size))


@dataclass(frozen=True)
class RegisterRow:
    """One register row as lines of text per column (a long row may be cut into several)."""

    cells: tuple[tuple[str, ...], ...]

    @property
    def lines(self) -> int:
        return max((len(cell) for cell in self.cells), default=1) or 1

    @property
    def height(self) -> float:
        return row_height(self.lines)


def register_rows(log: rules.GameLog, result: rules.GameResult, widths: Sequence[float],
                  words: Words) -> list[RegisterRow]:
    players = list(log.players)
    won = result.winning_turn is not None
    inner = [w - 2 * PAD_MM for w in widths]
    rows = []
    for label in players:
        found = result.identified[label]
        identified = [f"{target} ({f.turn}.{f.guess})" for target, f in found.items()]
        missing = [p for p in players if p != label and p not in found]
        missing_lines = wrap_entries(still_to_find(missing, bool(found), words), ",",
                                     inner[3])
        rows.append(RegisterRow((
            tuple(ellipsize(line, inner[0], REG_PT) for line in wrap(label, inner[0], REG_PT)),
            (str(log.secrets[label]),),
            tuple(wrap_entries(identified, words.semicolon.rstrip(), inner[2])
                  or [words.gettext("nobody yet")]),
            tuple(missing_lines),
            ("–" if won else str(result.next_allowance[label]),),
        )))
    return rows


def continued(words: Words) -> str:
    """Under a player's label where their register row goes on from the page before."""
    return words.gettext("(continued)")


def cut_row(row: RegisterRow, lines: int, words: Words) -> tuple[RegisterRow, RegisterRow]:
    """A row too tall for the page: its first ``lines`` lines, then the rest (the first line
    of the player's label repeated, "(continued)" below it)."""
    head = RegisterRow(tuple(cell[:lines] for cell in row.cells))
    rest = RegisterRow((row.cells[0][:1] + (continued(words),),)
                       + tuple(cell[lines:] for cell in row.cells[1:]))
    return head, rest


def lines_fitting(room: float, size: float = REG_PT) -> int:
    return max(1, int((room - 2 * REG_PAD_MM + 1e-6) // line_step(size)))


def register_cells(x: float, top: float, widths: Sequence[float], row: RegisterRow,
                   words: Words, centred: Sequence[int] = (1, 4)) -> list[Item]:
    """The text of one register row, top-aligned, the tallest cell centred in the row;
    the ``centred`` columns (Secret and Guesses) centred across their columns."""
    items: list[Item] = []
    step = line_step()
    first = top + (row.height - row.lines * step) / 2
    left = x
    for c, (width, cell) in enumerate(zip(widths, row.cells, strict=True)):
        align = "center" if c in centred else "left"
        anchor = left + width / 2 if align == "center" else left + PAD_MM
        # a cell's lines are one paragraph (a wrapped name): levels over all, lines reordered
        laid = fonts.lines(tuple(((line, "italic" if line == continued(words) else "regular"),)
                                 for line in cell))
        for i, runs in enumerate(laid):
            base = first + i * step + step / 2 + pt(REG_PT) * fonts.CAP_HEIGHT / 2
            items += place_runs(anchor, base, runs, REG_PT, align)
        left += width
    return items


def status_text(result: rules.GameResult, words: Words) -> str:
    played = len(result.turns)
    if result.winning_turn is not None:
        return win_text(result.winners, result.reason, result.winning_turn, words)
    return words.ngettext("No winner yet after %(num)s turn.",
                          "No winner yet after %(num)s turns.", played)


def register_title(words: Words, page: int = 1, pages: int = 1) -> str:
    if pages > 1:
        return words.gettext("Secret register (%(page)s of %(pages)s)", page=page, pages=pages)
    return words.gettext("Secret register")


class Flow:
    """Register pages filled top to bottom; a new page starts below the title's room."""

    def __init__(self, body: Frame, words: Words) -> None:
        _, self.title_mm = title(body.x, body.y, register_title(words))
        self.top = body.y + self.title_mm
        self.bottom = body.bottom - SLACK_MM
        self.pages: list[list[Item]] = [[]]
        self.y = self.top
        self.marks: dict[int, tuple[str, str]] = {}  # page index: (bookmark, anchor)

    @property
    def items(self) -> list[Item]:
        return self.pages[-1]

    @property
    def fresh(self) -> bool:
        return not self.items

    def room(self) -> float:
        return self.bottom - self.y

    def new_page(self) -> None:
        self.pages.append([])
        self.y = self.top


def register_table(flow: Flow, x: float, widths: Sequence[float], rows: list[RegisterRow],
                   words: Words) -> None:
    """The register table, continued over pages with its header repeated; a row taller than
    a page is cut between lines."""
    head = [Cell(caption, "bold", "center" if c in (1, 4) else "left", REG_HEAD_PT, lines=2)
            for c, caption in enumerate(register_header(words))]
    pending = list(rows)
    while pending:
        if not flow.fresh and flow.room() < REG_HEAD_MM + row_height(2):
            flow.new_page()
        fresh = flow.fresh
        room = flow.room() - REG_HEAD_MM
        placed: list[RegisterRow] = []
        while pending:
            row = pending[0]
            if row.height <= room:
                placed.append(pending.pop(0))
                room -= row.height
                continue
            if REG_HEAD_MM + row.height <= flow.bottom - flow.top and (placed or not fresh):
                break  # the next page takes it whole
            if room >= row_height(2) or not placed:  # taller than a page: cut it at a line
                first, rest = cut_row(row, lines_fitting(room), words)
                pending[0] = rest
                placed.append(first)
            break
        if placed:
            heights = [REG_HEAD_MM] + [row.height for row in placed]
            flow.items.extend(ruled_table(x, flow.y, widths, heights,
                                          [head] + [[] for _ in placed], heavy=(1,)))
            y = flow.y + REG_HEAD_MM
            for row in placed:
                flow.items.extend(register_cells(x, y, widths, row, words))
                y += row.height
            flow.y = y
        if pending:
            flow.new_page()


def lists_table(flow: Flow, x: float, player_mm: float,
                lists: Sequence[tuple[int, str, str]], words: Words) -> None:
    """"Lists submitted": turn, player, how many correct; continued over pages."""
    _ = words.gettext
    widths = [LIST_TURN_MM, player_mm, LIST_CORRECT_MM]
    head = [Cell(_("Turn"), "bold", "center", REG_HEAD_PT),
            Cell(_("Player"), "bold", size=REG_HEAD_PT),
            Cell(_("Correct"), "bold", "center", REG_HEAD_PT)]
    _items, heading_mm = heading(x, 0.0, _("Lists submitted"))
    done = 0
    while done < len(lists):
        if flow.room() < heading_mm + HEAD_MM + ROW_MM:
            flow.new_page()
        more, used = heading(x, flow.y, _("Lists submitted (continued)") if done
                             else _("Lists submitted"))
        flow.items.extend(more)
        flow.y += used
        take = max(1, min(len(lists) - done, int((flow.room() - HEAD_MM + 1e-6) // ROW_MM)))
        chunk = lists[done:done + take]
        table = [head] + [[Cell(str(turn), align="center"), Cell(player, lines=2),
                           Cell(correct, align="center")]
                          for turn, player, correct in chunk]
        flow.items.extend(ruled_table(x, flow.y, widths, [HEAD_MM] + [ROW_MM] * len(chunk),
                                      table, heavy=(1,)))
        flow.y += HEAD_MM + ROW_MM * len(chunk)
        done += take
        if done < len(lists):
            flow.new_page()


def register_pages(log: rules.GameLog, result: rules.GameResult, sheet: Paper, words: Words,
                   amendments: Sequence[Amendment] = ()) -> list[Page]:
    """The GM register: status (and why, when several finished), range, then the register
    table, the lists submitted, the rulings applied and the amendments of published turns,
    continued over as many pages as they need (table headers repeated)."""
    body = sheet.body
    x, w = body.x, body.w
    flow = Flow(body, words)
    flow.marks[0] = (words.gettext("Secret register"), "register")
    played = len(result.turns)
    more, used = bold_box(x, flow.y, w, status_text(result, words), 12.0)
    flow.items.extend(more)
    flow.y += used + GAP_MM
    if result.winning_turn is not None:
        explained = notes.finish_explanation(result.turns[-1], words)
        if explained:
            more, used = para(x, flow.y, w, explained)
            flow.items.extend(more)
            flow.y += used
    more, used = para(x, flow.y, w, words.ngettext(
        "For the game master only. Range %(range)s · %(num)s turn reported.",
        "For the game master only. Range %(range)s · %(num)s turns reported.", played,
        range=range_words(log.range, words)))
    flow.items.extend(more)
    flow.y += used + 1.0
    widths = register_widths(w, log.players, words)
    register_table(flow, x, widths, register_rows(log, result, widths, words), words)
    lists = [(report.number, row.player, f"{row.correct} {notes.status_mark('partial', words)}"
              if row.partial else str(row.correct))
             for report in result.turns for row in report.rows if isinstance(row, rules.ListRow)]
    if lists:
        lists_table(flow, x, widths[0], lists, words)
    _ = words.gettext
    record_table(flow, x, w, (_("Rulings applied"), _("What was decided")),
                 ruling_entries(log, result, words), words, "rulings")
    record_table(flow, x, w, (_("Amendments of published turns"),
                              _("Row, column: as printed → now")),
                 amendment_entries(amendments, words), words, "amendments")
    total = len(flow.pages)
    out = []
    for i, page_items in enumerate(flow.pages, start=1):
        label = register_title(words, i, total)
        heading_items, _ = title(x, body.y, label)
        bookmark, anchor = flow.marks.get(i - 1, (None, None))
        out.append(Page(label, Form(tuple(heading_items + page_items)), audience="host",
                        bookmark=bookmark, anchor=anchor))
    return out




# --- the record: rulings applied and amendments ---------------------------------------------------

RECORD_TURN_MM = 18.0


def ruling_entries(log: rules.GameLog, result: rules.GameResult, words: Words
                   ) -> list[tuple[int, str]]:
    """(turn, note) for every ruling of the game, "no orders" included."""
    entries = []
    for report in result.turns:
        for ruling in report.rulings:
            text = notes.ruling_note(ruling, log.range, words) or notes.no_orders_line(
                (ruling.player,), words)
            entries.append((report.number, text))
    return entries


def amendment_entries(amendments: Sequence[Amendment], words: Words
                      ) -> list[tuple[int, str]]:
    """(turn, change) for every cell an amendment changed, as the erratum shows it: "Ann 1,
    Cy: L → X"."""
    return [(amendment.turn, words.gettext("%(row)s, %(column)s: %(old)s → %(new)s", row=row,
                                           column=column, old=old, new=new))
            for amendment in amendments
            for row, column, old, new in erratum.shown_changes(amendment.changes, words)]


def record_table(flow: Flow, x: float, width: float, captions: tuple[str, str],
                 entries: Sequence[tuple[int, str]], words: Words, anchor: str) -> None:
    """A heading and a Turn | text table (``captions``: the heading and the text column's),
    the text wrapped in its column, continued over pages (heading "(continued)"); nothing
    when there are no entries. Its first page opens a bookmark named by its heading (a page
    keeps the first bookmark that opens on it)."""
    caption, column = captions
    widths = [RECORD_TURN_MM, width - RECORD_TURN_MM]
    head = [Cell(words.gettext("Turn"), "bold", "center", REG_HEAD_PT),
            Cell(column, "bold", size=REG_HEAD_PT)]
    rows = [RegisterRow(((str(turn),), tuple(wrap(text, widths[1] - 2 * PAD_MM, REG_PT))))
            for turn, text in entries]
    done = 0
    while done < len(rows):
        _items, heading_mm = heading(x, 0.0, caption)
        if flow.room() < heading_mm + HEAD_MM + rows[done].height:
            flow.new_page()
        if not done:
            flow.marks.setdefault(len(flow.pages) - 1, (caption, anchor))
        more, used = heading(x, flow.y, caption if not done else words.gettext(
            "%(heading)s (continued)", heading=caption))
        flow.items.extend(more)
        flow.y += used
        room = flow.room() - HEAD_MM
        placed: list[RegisterRow] = []
        while done < len(rows) and (rows[done].height <= room or not placed):
            placed.append(rows[done])
            room -= rows[done].height
            done += 1
        heights = [HEAD_MM] + [row.height for row in placed]
        flow.items.extend(ruled_table(x, flow.y, widths, heights,
                                      [head] + [[] for _ in placed], heavy=(1,)))
        y = flow.y + HEAD_MM
        for row in placed:
            flow.items.extend(register_cells(x, y, widths, row, words, centred=(0,)))
            y += row.height
        flow.y = y
        if done < len(rows):
            flow.new_page()
