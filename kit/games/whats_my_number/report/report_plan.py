"""``kit report`` for What's My Number?: the folder's plan (turn reports for everyone, the GM
register for the game master), the texts the turn reports add (rulings, no orders, next turn's
allowances, why the winner won), the Markdown of ``--format text`` and the CSV of
``--format csv``."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from ....errors import ConfigError, Msg, shown
from ....fonts import isolate
from ....game import GameReport, KitConfig, TurnReports
from ....i18n import N_, Words
from ....options import printable_text
from ....paper import paper
from ....plan import Document, KitPlan
from ....published import Amendment
from .. import rules
from ..sheets.people import answer, range_words
from ..sheets.people import title as game_title
from . import turn_notes as notes
from .erratum import erratum_pages
from .gm_register import register_pages
from .reports import game_layout, legend, report_pages, row_label, turn_pages, win_text
from .slips import slip_lines, slip_pages
from .snapshot import snapshots


def printable(log: rules.GameLog) -> None:
    """Refuse a label or title our fonts cannot draw: they are printed on every page."""
    for label in log.players:
        printable_text("players", f"the label {shown(label)}", label, rules.MAX_LABEL_LENGTH)
    if log.title:  # in every page's header, as a kit's title
        printable_text("title", "the title", log.title, len(log.title))


def plan_reports(log: rules.GameLog, result: rules.GameResult, config: KitConfig, *,
                 turn: int | None = None, amendments: Sequence[Amendment] = (),
                 player: str | None = None) -> KitPlan:
    """The report folder's documents: every turn's report, the register and the private
    slips; or, with ``turn``, only that turn's report (``turn-N``) and slips
    (``slips-turn-N``). ``amendments``: every correction of a published turn recorded so
    far, oldest first (the register lists them; each gets a page of ``erratum``).
    ``player``: that player's own slips alone (``slips-turn-N``, or ``private-slips`` of
    every turn), the folder a player's link may fetch whole."""
    if player is not None:
        return own_slips(log, result, config, player, turn)
    printable(log)
    sheet = paper(config.paper)
    words = config.words
    _ = words.gettext
    name = game_title(words)
    banner = _("Secret numbers from %(range)s", range=range_words(log.range, words))
    if turn is not None:
        report = result.turns[turn - 1]
        layout = game_layout(log, result, sheet, words)
        pages = turn_pages(report, list(log.players), layout,
                           sheet.oriented(layout.landscape).body, words, log.range)
        documents = [
            Document(f"turn-{turn}", _("%(game)s — turn %(turn)s report", game=name, turn=turn),
                     tuple(pages)),
            Document(f"slips-turn-{turn}", _("%(game)s — private slips, turn %(turn)s",
                                             game=name, turn=turn),
                     tuple(slip_pages(log, result, sheet, words, (turn,))), one_sided=True)]
    else:
        documents = [
            Document("turn-reports", _("%(game)s — turn reports", game=name),
                     tuple(report_pages(log, result, sheet, words))),
            Document("gm-register", _("%(game)s — GM register", game=name),
                     tuple(register_pages(log, result, sheet, words, amendments))),
            Document("private-slips", _("%(game)s — private slips", game=name),
                     tuple(slip_pages(log, result, sheet, words)), one_sided=True)]
    if amendments:
        documents.append(Document("erratum", _("%(game)s — erratum", game=name),
                                  tuple(erratum_pages(amendments, sheet, words,
                                                      result.winning_turn))))
    documents = [document for document in documents if document.pages]
    # the game master's pages say so, as the kit's do (not the host's words of the other game)
    notice = words.gettext("GAME MASTER ONLY — keep these pages away from the players.")
    return KitPlan(folder=config.folder_name, game_title=name, banner=banner,
                   documents=tuple(documents), lang=words.lang, host_notice=notice,
                   title=log.title)


def own_slips(log: rules.GameLog, result: rules.GameResult, config: KitConfig, player: str,
              turn: int | None) -> KitPlan:
    """One player's own slips (of ``turn``, or of every turn), and nothing else: no other
    player's slip, no report, no register; each page says whose it is."""
    if player not in log.players:
        raise ConfigError("player", Msg(N_("there is no such player")))
    printable(log)
    sheet = paper(config.paper)
    words = config.words
    _ = words.gettext
    name = game_title(words)
    turns = None if turn is None else (turn,)
    pages = tuple(slip_pages(log, result, sheet, words, turns, (player,)))
    stem, title = ((f"slips-turn-{turn}", _("%(game)s — private slips, turn %(turn)s",
                                             game=name, turn=turn))
                   if turn is not None else
                   ("private-slips", _("%(game)s — private slips", game=name)))
    notice = _("PRIVATE — for %(player)s alone: keep these pages to yourself.",
               player=isolate(player))
    return KitPlan(folder=config.folder_name, game_title=name,
                   banner=_("Secret numbers from %(range)s", range=range_words(log.range, words)),
                   documents=(Document(stem, title, pages),) if pages else (),
                   lang=words.lang, host_notice=notice, title=log.title)


# --- what a turn report adds (the texts are ``turn_notes``', shared with the pages) ---------------


def turn_lines(log: rules.GameLog, report: rules.TurnReport, words: Words) -> list[str]:
    """Every line a turn report adds under its table, in order (empty ones left out): no
    orders, the rulings, next turn's allowances (or the winner and why)."""
    lines = [notes.no_orders_line(report.no_orders, words),
             *notes.ruling_notes(report, log.range, words)]
    if report.winners:
        lines += [win_text(report.winners, report.reason, report.number, words),
                  notes.finish_explanation(report, words)]
    else:
        lines.append(notes.next_turn_line(report.next_allowance, log.players, words))
    return [line for line in lines if line]


# --- --format text -----------------------------------------------------------------------------


def markdown_table(report: rules.TurnReport, players: Sequence[str], words: Words) -> str:
    """One turn report as the reference's Markdown table (``rules.format_report_markdown``),
    in the kit's language: its words, the row labels as printed ("Bob 3 (bonus)"), and the
    answers as the printed reports show them."""
    lines = ["| " + words.gettext("Guess") + " | " + " | ".join(players) + " |",
             "|" + "---|" * (len(players) + 1)]
    for row in report.rows:
        if isinstance(row, rules.GuessRow):
            label = row_label(row, words)
            lines.append(f"| {label} | " + " | ".join(answer(cell, words) for cell in row.cells)
                         + " |")
        else:
            text = words.pgettext("the text report: a list row's label, then what it found",
                                  "%(label)s - %(answer)s", label=row_label(row, words),
                                  answer=notes.list_text(row, words))
            lines.append(f"| {text} |" + " |" * len(players))
    return "\n".join(lines) + "\n"


def legend_text(words: Words) -> str:
    """The legend of the answers, as one line of text."""
    return "".join(text for text, _style in legend(words)).replace("\u00a0", " ")


def markdown(log: rules.GameLog, result: rules.GameResult, words: Words,
             turn: int | None = None) -> str:
    """Every turn's report (or only ``turn``'s) as the reference's Markdown table, each with
    its added lines, then the legend."""
    parts = []
    for report in result.turns:
        if turn is not None and report.number != turn:
            continue
        extra = "".join(line + "\n" for line in turn_lines(log, report, words))
        parts.append(words.gettext("Turn %(turn)s", turn=report.number) + "\n\n"
                     + markdown_table(report, log.players, words)
                     + ("\n" + extra if extra else ""))
    if not parts:
        parts.append(words.gettext("No turns played yet") + "\n")
    parts.append(legend_text(words) + "\n")
    return "\n".join(parts)


# --- --format csv ------------------------------------------------------------------------------

CSV_COLUMNS = ("turn", "player", "guess", "number", "status", "bonus", "column", "answer")


def csv_rows(log: rules.GameLog, result: rules.GameResult) -> list[tuple[object, ...]]:
    """One row per guess and answered column; one per list (answer: how many are right),
    per void or ignored guess (no answer) and per player without orders."""
    rows: list[tuple[object, ...]] = []
    for report in result.turns:
        for row in report.rows:
            if isinstance(row, rules.ListRow):
                rows.append((report.number, row.player, "list", "",
                             "partial" if row.partial else "ok", "", "", row.correct))
            elif row.status != "ok":
                rows.append((report.number, row.player, row.index, row.number, row.status,
                             "", "", ""))
            else:
                bonus = "yes" if row.bonus else "no"
                rows += [(report.number, row.player, row.index, row.number, "ok", bonus,
                          column, cell)
                         for column, cell in zip(log.players, row.cells, strict=True)
                         if column != row.player]
        rows += [(report.number, label, "", "", "no-orders", "", "", "")
                 for label in report.no_orders]
    return rows


def csv_text(log: rules.GameLog) -> str:
    """``kit report --format csv``: the header, then ``csv_rows`` (RFC 4180, CRLF lines)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    writer.writerows(csv_rows(log, rules.play(log)))
    return out.getvalue()


# --- what kit report calls ---------------------------------------------------------------------


def plan_report(log: rules.GameLog, config: KitConfig, *, turn: int | None = None,
                amendments: Sequence[Amendment] = (), player: str | None = None) -> KitPlan:
    """``kit report``'s files for a log, in ``config.words``' language: it is replayed under
    the rules, then laid out (``player``: that player's own slips alone)."""
    return plan_reports(log, rules.play(log), config, turn=turn, amendments=amendments,
                        player=player)


def text_report(log: rules.GameLog, words: Words, turn: int | None = None) -> str:
    """``kit report --format text``: the same reports as Markdown, in ``words``' language."""
    return markdown(log, rules.play(log), words, turn)


def slips_text(log: rules.GameLog, words: Words, turn: int, player: str | None = None) -> str:
    """``slips-turn-N.md``: every player's private slip of a turn as plain text, to paste into
    one email each (GM only: each block holds that player's own numbers); ``player``: that
    player's alone."""
    report = rules.play(log).turns[turn - 1]
    blocks = ["\n".join(text for text, _style in slip_lines(log, report, name, words))
              for name in log.players if player is None or name == player]
    return "\n\n---\n\n".join(blocks) + "\n"


def turn_count(log: rules.GameLog) -> int:
    """How many turns the log reports (turns after the winning one are not)."""
    return len(rules.play(log).turns)


def turn_snapshots(log: rules.GameLog) -> dict[int, dict[str, object]]:
    """Every reported turn's snapshot (``kit.published``)."""
    return snapshots(rules.play(log))


def summary(log: rules.GameLog, turn: int, words: Words) -> str:
    """The ``--turn N`` line after the page count: the winner if any, else next turn's
    allowances; and who sent no orders."""
    report = rules.play(log).turns[turn - 1]
    parts = [notes.no_orders_line(report.no_orders, words)]
    if report.winners:
        parts.append(win_text(report.winners, report.reason, report.number, words))
    else:
        parts.append(notes.next_turn_line(report.next_allowance, log.players, words))
    # a terminal line: without the invisible marks that isolate names (some terminals show them)
    # each part follows a semicolon: lower case where the language writes it so
    line = words.semicolon.join(words.after_semicolon(part) for part in parts if part)
    return line.replace("\u2068", "").replace("\u2069", "")


def _resume(data: Mapping[str, Any], kept: object = None) -> object:
    """The engine's running check of a log (``console.record.resume``), imported when first
    used: importing it here would load the whole console part with every report."""
    from ..console.record import resume

    return resume(data, kept)


# ``kit report``'s part of the game (``GameSpec.report`` names it)
REPORT = GameReport(parse=rules.parse_game_log, plan=plan_report, text=text_report,
                    csv=csv_text, strict=True, resume=_resume,
                    by_turn=TurnReports(plan=plan_report, text=text_report, turns=turn_count,
                                        snapshots=turn_snapshots, summary=summary,
                                        slips=slips_text))
