"""Plan the What's My Number? kit: player pages and separate host (game master) pages.

Prose pages (rules, reading the report, the GM card, worked examples) are templates; the form
pages, whose count grows with players and turns, are layout models built in ``player_forms``
(slips, order forms, deduction sheets) and ``host_forms`` (the secret register and the
turn-report grids).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...game import KitConfig
from ...paper import paper
from ...plan import Form, KitPlan, Page, Prose, kit_plan
from . import host_forms, player_forms, rules
from .examples import example, tie_examples
from .options import MAX_PLAYERS, turns
from .people import people


def banner(config: KitConfig) -> str:
    if config.custom_range:
        return f"Announced range: secret numbers from {config.range_text}"
    return f"Secret numbers: whole numbers from {config.range_text}"


def check_config(config: KitConfig) -> None:
    """Game-specific checks: a custom range must hold a number for every player."""
    if config.custom_range:
        lo, hi = config.range
        rules.parse_range(f"{lo}-{hi}", config.players)  # raises "range: ..." when too small


# --- the plan ------------------------------------------------------------------------------------


def player_pages(config: KitConfig, common: dict[str, object], ex: dict[str, object]
                 ) -> list[Page]:
    sheet = paper(config.paper)
    everyone = people(config)
    pages = [
        Page("Rules", Prose("whats_my_number/rules.html", {
            **common, "credit": rules.CREDIT, "min_players": rules.MIN_PLAYERS,
            "max_players": MAX_PLAYERS, "base": rules.BASE_GUESSES,
        })),
        Page("Reading the turn report", Prose("whats_my_number/report_legend.html", {
            **common, "example": ex,
        })),
    ]
    for label, items in player_forms.slip_pages(sheet, everyone, config.range):
        pages.append(Page(label, Form(tuple(items))))
    for label, items in player_forms.order_form_pages(sheet, everyone, turns(config),
                                                      config.range):
        pages.append(Page(label, Form(tuple(items))))
    for person in everyone:
        for label, items in player_forms.deduction_pages(sheet, person, everyone,
                                                         turns(config), config.range):
            pages.append(Page(label, Form(tuple(items))))
    return pages


def host_pages(config: KitConfig, common: dict[str, object], ex: dict[str, object],
               player_labels: Sequence[str]) -> list[Page]:
    sheet = paper(config.paper)
    everyone = people(config)
    grids = host_forms.grid_pages(sheet, everyone, turns(config), config.range)
    summary = host_forms.grid_summary(sheet, len(everyone), turns(config))
    pages = [Page("Game master card", Prose("whats_my_number/gm_card.html", {
        **common, "grid": summary, "paper_label": sheet.label,
        "player_pages": list(player_labels), "credit": rules.CREDIT,
    }), audience="host"), Page("Worked examples", Prose("whats_my_number/gm_example.html", {
        **common, "example": ex, "ties": tie_examples(),
    }), audience="host")]
    for label, items in host_forms.register_pages(sheet, everyone, config.range):
        pages.append(Page(label, Form(tuple(items)), audience="host"))
    for label, landscape, items in grids:
        pages.append(Page(label, Form(tuple(items)), audience="host", landscape=landscape))
    return pages


def plan(config: KitConfig) -> KitPlan:
    common = {"range": config.range, "range_text": config.range_text,
              "players": config.players, "custom_range": config.custom_range,
              "turns": turns(config), "lo": config.range[0], "hi": config.range[1],
              "default_range_text": "{} to {}".format(*rules.default_range(config.players))}
    ex = example()
    players = player_pages(config, common, ex)
    hosts = host_pages(config, common, ex, [p.label for p in players])
    return kit_plan(config.folder_name, rules.TITLE, banner(config), players, hosts,
                    styles=("whats_my_number/style.css",))
