"""Plan the What's My Number? kit: player pages and separate host (game master) pages.

Prose pages (rules, reading the report, the GM card, worked examples) are templates; the form
pages, whose count grows with players and turns, are layout models built in ``player_forms``
(slips, order forms, deduction sheets) and ``host_forms`` (the secret register and the
turn-report grids). Every word comes from the kit's language (``config.words``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from markupsafe import Markup

from ...game import KitConfig
from ...i18n import Words
from ...layout.fit import fit
from ...layout.model import text_width
from ...paper import paper
from ...plan import Form, KitPlan, Page, Prose, kit_plan
from . import host_forms, player_forms, rules
from .examples import example, tie_examples
from .options import MAX_PLAYERS, turns
from .people import answers, credit, people, range_words, title


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


# --- prose pages in a longer language ----------------------------------------------------------

TEMPLATES = Path(__file__).parent / "templates"
PROSE = ("rules.html", "report_legend.html", "gm_card.html", "gm_example.html")
LEAST_SCALE = 8.0 / 9.0  # the 9 pt small print stays at 8 pt or more
MARKUP = re.compile(r"<[^>]*>|%\(\w+\)s|%%")


@cache
def prose_messages() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The messages of the prose pages' templates: (function, strings), as pybabel finds them."""
    from jinja2.ext import babel_extract

    out = []
    for name in PROSE:
        with open(TEMPLATES / name, "rb") as handle:
            for _line, function, message, _comments in babel_extract(
                    handle, ("_", "gettext", "ngettext", "pgettext"), [],
                    {"extensions": "jinja2.ext.i18n", "trimmed": "true"}):
                strings = message if isinstance(message, tuple) else (message,)
                out.append((function, tuple(m for m in strings if m is not None)))
    return tuple(out)


def _width(message: str) -> float:
    return text_width(" ".join(MARKUP.sub("", message).split()), 10.5)


@cache
def length_factor(words: Words) -> float:
    """How much longer the prose pages' words print in ``words``' language than in English
    (1.0 for English), measured over every message of their templates."""
    english = translated = 0.0
    for function, strings in prose_messages():
        if function == "pgettext":
            context, message = strings[:2]
            english += _width(message)
            translated += _width(words.pgettext(context, message))
        elif function == "ngettext":
            english += _width(strings[1])
            translated += _width(words.translations.ngettext(strings[0], strings[1], 2))
        else:
            english += _width(strings[0])
            translated += _width(words.gettext(strings[0]))
    return translated / english if english else 1.0


def prose_scale(words: Words) -> float:
    """The prose pages' type, scaled down so that a longer language fills about the room
    English does (text area goes with the square of the size); never below 8 pt."""
    factor = length_factor(words)
    if factor <= 1.0:
        return 1.0
    return max(LEAST_SCALE, math.floor(100 / math.sqrt(factor)) / 100)


def prose_css(words: Words) -> Markup | None:
    """The stylesheet's sizes (print.css, style.css) times ``prose_scale`` for the prose pages
    of a language that runs longer than English; None for English."""
    s = prose_scale(words)
    if s >= 1.0:
        return None

    def size(pt: float) -> str:
        return f"{round(pt * s, 2)}pt"

    def mm(value: float) -> str:
        return f"{round(value * s, 2)}mm"

    return Markup(
        f"<style>.wmn {{ font-size: {size(10.5)}; }} .wmn h1 {{ font-size: {size(20)}; }} "
        f".wmn h2 {{ font-size: {size(12.5)}; margin: {mm(3.5)} 0 {mm(1)}; }} "
        f".wmn p, .wmn ul, .wmn ol {{ margin-bottom: {mm(1.6)}; }} "
        f".wmn li {{ margin-bottom: {mm(0.8)}; }} .wmn .small {{ font-size: {size(9)}; }} "
        f".wmn table.grid th {{ font-size: {size(9.5)}; }} "
        f"table.wmn-report th, table.wmn-report td {{ font-size: {size(11)}; "
        f"height: {mm(7.5)}; }} table.wmn-legend td.mark {{ font-size: {size(14)}; }}"
        "</style>")


def check_config(config: KitConfig) -> None:
    """Game-specific checks: a custom range must hold a number for every player."""
    if config.custom_range:
        lo, hi = config.range
        rules.parse_range(f"{lo}-{hi}", config.players)  # raises "range: ..." when too small


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
        })),
        Page(_("Reading the turn report"), Prose("whats_my_number/report_legend.html", {
            **common, "example": ex,
        })),
    ]
    for label, items in player_forms.slip_pages(sheet, everyone, config.range, words):
        pages.append(Page(label, Form(tuple(items))))
    for label, items in player_forms.order_form_pages(sheet, everyone, turns(config),
                                                      config.range, words):
        pages.append(Page(label, Form(tuple(items))))
    for person in everyone:
        for label, items in player_forms.deduction_pages(sheet, person, everyone,
                                                         turns(config), config.range, words):
            pages.append(Page(label, Form(tuple(items))))
    return pages


def host_pages(config: KitConfig, common: dict[str, object], ex: dict[str, object],
               player_labels: Sequence[str]) -> list[Page]:
    words = config.words
    _ = words.gettext
    sheet = paper(config.paper)
    everyone = people(config)
    grids = host_forms.grid_pages(sheet, everyone, turns(config), config.range, words)
    summary = host_forms.grid_summary(sheet, len(everyone), turns(config))
    pages = [Page(_("Game master card"), Prose("whats_my_number/gm_card.html", {
        **common, "grid": summary, "paper_label": sheet.label,
        "player_pages": list(player_labels),
    }), audience="host"), Page(_("Worked examples"), Prose("whats_my_number/gm_example.html", {
        **common, "example": ex, "ties": tie_examples(words),
    }), audience="host")]
    for label, items in host_forms.register_pages(sheet, everyone, config.range, words):
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
              "answers": answers(words), "banner_pt": banner_size(config),
              "prose_css": prose_css(words)}
    ex = example(words)
    players = player_pages(config, common, ex)
    hosts = host_pages(config, common, ex, [p.label for p in players])
    return kit_plan(config.folder_name, name, banner(config), players, hosts,
                    styles=("whats_my_number/style.css",), words=words)
