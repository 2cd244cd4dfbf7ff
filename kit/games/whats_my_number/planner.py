"""Plan the What's My Number? kit: player pages and separate host (game master) pages.

Prose pages (rules, reading the report, the GM card, worked examples) are templates; the form
pages, whose count grows with players and turns, are layout models built in ``sheets.player_sheets``
(slips, order forms, deduction sheets) and ``sheets.host_sheets`` (the secret register and the
turn-report grids). Every word comes from the kit's language (``config.words``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...game import KitConfig
from ...layout.fit import fit
from ...paper import paper
from ...plan import Form, KitPlan, Page, Prose, kit_plan, printed_pages
from . import rules
from .options import MAX_PLAYERS, turns
from .report import players_sheet
from .sheets import deduction_pairs, host_sheets, number_slips, player_sheets, register
from .sheets.examples import example, tie_examples
from .sheets.people import answers, credit, people, range_words, title


def banner(config: KitConfig) -> str:
    _ = config.words.gettext
    if config.custom_range:
        return _("Announced range: secret numbers from %(range)s", range=config.range_text)
    return _("Secret numbers: whole numbers from %(range)s", range=config.range_text)


BANNER_PT = (16.0, 10.0)  # the prose pages' banner (style.css: .wmn-banner), shrunk to fit
BANNER_ROOM_MM = 3.2  # its borders and a little air


def banner_size(config: KitConfig) -> float | None:
    """The prose banner's size when the banner (a translation, say) is too long for one line
    at 16 pt across the body; None when it fits as the stylesheet sets it."""
    room = paper(config.paper).body.w - BANNER_ROOM_MM
    size = fit(banner(config), room, 100.0, *BANNER_PT, "bold", max_lines=1).size
    return None if size >= BANNER_PT[0] else size


def check_config(config: KitConfig) -> None:
    """Game-specific checks: a custom range must hold a number for every player."""
    if config.custom_range:
        rules.check_range(config.range, config.players)  # raises "range: ..." when too small


# --- the plan ------------------------------------------------------------------------------------


def player_pages(config: KitConfig, common: dict[str, object], ex: dict[str, object]
                 ) -> list[Page]:
    words = config.words
    _ = words.gettext
    sheet = paper(config.paper)
    everyone = people(config)
    pages = [
        Page(_("Rules"), Prose("whats_my_number/rules.html", {
            **common, "min_players": rules.MIN_PLAYERS, "max_players": MAX_PLAYERS,
            "base": rules.BASE_GUESSES,
        }, columns=2)),
        Page(_("Reading the turn report"), Prose("whats_my_number/report_legend.html", {
            **common, "example": ex,
        }, columns=2)),
    ]
    large = config.large_print  # the forms a player writes on grow with it
    for label, items in number_slips.slip_pages(sheet, everyone, config.range, words, large):
        pages.append(Page(label, Form(tuple(items))))
    for label, items in player_sheets.order_form_pages(sheet, everyone, turns(config),
                                                      config.range, words, large):
        pages.append(Page(label, Form(tuple(items))))
    for label, items in deduction_pairs.deduction_sheets(sheet, everyone, turns(config),
                                                         config.range, words, large):
        pages.append(Page(label, Form(tuple(items))))
    for label, landscape, items in players_sheet.report_sheet_pages(sheet, everyone,
                                                                   turns(config), words,
                                                                   large):
        pages.append(Page(label, Form(tuple(items)), landscape=landscape))
    return pages


def host_pages(config: KitConfig, common: dict[str, object], ex: dict[str, object],
               player_labels: Sequence[str]) -> list[Page]:
    words = config.words
    _ = words.gettext
    sheet = paper(config.paper)
    everyone = people(config)
    grids = host_sheets.grid_pages(sheet, everyone, turns(config), config.range, words)
    summary = host_sheets.grid_summary(sheet, len(everyone), turns(config))
    # the players' blank reports close the player kit: the GM card gives their pages
    report_count = players_sheet.report_page_count(everyone, sheet, words, turns(config),
                                                   config.large_print)
    first_report = len(player_labels) - report_count + 1
    pages = [Page(_("Game master card"), Prose("whats_my_number/gm_card.html", {
        **common, "grid": summary, "paper_label": sheet.label,
        "player_pages": list(player_labels),
        "report_page": _("Turn %(turn)s report", turn="N"),
        "report_pages": (first_report, len(player_labels)),
    }, columns=2), audience="host"), Page(_("Worked examples"), Prose(
        "whats_my_number/gm_example.html", {**common, "example": ex,
                                            "ties": tie_examples(words)},
        columns=2), audience="host")]
    for label, items in register.register_pages(sheet, everyone, config.range, words):
        pages.append(Page(label, Form(tuple(items)), audience="host"))
    for label, landscape, items in grids:
        pages.append(Page(label, Form(tuple(items)), audience="host", landscape=landscape))
    return pages


def plan(config: KitConfig) -> KitPlan:
    words = config.words
    name = title(words)
    common = {"range": config.range, "range_text": config.range_text,
              "players": config.players, "custom_range": config.custom_range,
              "turns": turns(config), "lo": config.range[0], "hi": config.range[1],
              "default_range_text": range_words(rules.default_range(config.players), words),
              # the rules sheet's heading sets the title with a typographic apostrophe
              "title": name.replace("'", "’"), "credit": credit(words),
              "answers": answers(words), "banner_pt": banner_size(config)}
    ex = example(words)
    players = player_pages(config, common, ex)
    printed = printed_pages(players, config.large_print, words)
    hosts = host_pages(config, common, ex, [p.label for p in printed])
    return kit_plan(config.folder_name, name, banner(config), players, hosts,
                    styles=("whats_my_number/style.css",), words=words, game_master=True)
