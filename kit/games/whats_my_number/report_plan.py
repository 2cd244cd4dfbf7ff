"""``kit report`` for What's My Number?: the folder's plan (turn reports for everyone, the GM
register for the game master) and the Markdown text of ``--format text``."""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import shown
from ...game import KitConfig
from ...i18n import Words
from ...options import printable_text
from ...paper import paper
from ...plan import Document, KitPlan
from . import rules
from .gm_register import register_pages
from .people import answer, range_words
from .people import title as game_title
from .reports import report_pages, win_text


def plan_reports(log: rules.GameLog, result: rules.GameResult, config: KitConfig) -> KitPlan:
    for label in log.players:  # printed on every page: only what our fonts can draw
        printable_text("players", f"the label {shown(label)}", label, rules.MAX_LABEL_LENGTH)
    sheet = paper(config.paper)
    words = config.words
    _ = words.gettext
    name = game_title(words)
    banner = _("Secret numbers from %(range)s", range=range_words(log.range, words))
    return KitPlan(
        folder=config.folder_name,
        game_title=name,
        banner=banner,
        documents=(
            Document("turn-reports", _("%(game)s — turn reports", game=name),
                     tuple(report_pages(log, result, sheet, words))),
            Document("gm-register", _("%(game)s — GM register", game=name),
                     tuple(register_pages(log, result, sheet, words))),
        ),
        lang=words.lang,
    )


def markdown_table(report: rules.TurnReport, players: Sequence[str], words: Words) -> str:
    """One turn report as the reference's Markdown table (``rules.format_report_markdown``),
    in the kit's language: its words, and the answers as the printed reports show them."""
    lines = ["| " + words.gettext("Guess") + " | " + " | ".join(players) + " |",
             "|" + "---|" * (len(players) + 1)]
    for row in report.rows:
        if isinstance(row, rules.GuessRow):
            label = words.gettext("%(player)s %(index)s", player=row.player, index=row.index)
            lines.append(f"| {label} | " + " | ".join(answer(cell, words) for cell in row.cells)
                         + " |")
        else:
            text = words.ngettext("%(player)s List - %(num)s correct.",
                                  "%(player)s List - %(num)s correct.", row.correct,
                                  player=row.player)
            lines.append(f"| {text} |" + " |" * len(players))
    return "\n".join(lines) + "\n"


def markdown(log: rules.GameLog, result: rules.GameResult, words: Words) -> str:
    """Every turn's report as the reference's Markdown table, then the winner line if won."""
    parts = []
    for report in result.turns:
        parts.append(words.gettext("Turn %(turn)s", turn=report.number) + "\n\n"
                     + markdown_table(report, log.players, words))
    if result.winning_turn is not None:
        parts.append(win_text(result.winners, result.reason, result.winning_turn, words) + "\n")
    return "\n".join(parts)


def plan_report(log: rules.GameLog, config: KitConfig) -> KitPlan:
    """``kit report``'s files for a log, in ``config.words``' language: it is replayed under
    the rules, then laid out."""
    return plan_reports(log, rules.play(log), config)


def text_report(log: rules.GameLog, words: Words) -> str:
    """``kit report --format text``: the same reports as Markdown, in ``words``' language."""
    return markdown(log, rules.play(log), words)
