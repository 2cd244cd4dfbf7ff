"""Plan the lowest-unique-number kit: player pages and separate host-answer pages."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from ...errors import ConfigError
from ...game import KitConfig
from ...i18n import words
from ...layout.slip import SlipGrid
from ...paper import chunks, paper
from ...plan import Form, KitPlan, Page, Prose, kit_plan
from . import rules
from .options import settings, spares
from .sheets import table_sheets
from .sheets.table_sheets import Slip

CHECK_EXAMPLES = ((1, 1, 2, 3, 3, 8), (2, 2, 5, 5, 9, 9))  # from the reference kit
PRACTICE_PER_PAGE = 4


def banner(config: KitConfig) -> str:
    return config.words.ngettext("Choose one whole number from %(range)s · %(num)s round",
                                 "Choose one whole number from %(range)s · %(num)s rounds",
                                 settings(config).rounds, range=config.range_text)


def player_labels(config: KitConfig) -> list[str]:
    """Names when given, else letters for the practice reveals and blank rows elsewhere."""
    return list(config.names) or [chr(ord("A") + i) for i in range(config.players)]


def replay_rows(config: KitConfig) -> int:
    """Spare slips cover this many replayed rounds, so the tally gets as many extra rows."""
    return math.ceil(spares(config) / config.players) if spares(config) else 0


def check_examples(number_range: tuple[int, int]) -> tuple[rules.RoundResult, ...]:
    """The reference's two check examples, moved into a custom range when they fall outside it.

    Moving keeps their shape: distinct values map in order onto the lowest numbers of the range.
    """
    lo, hi = number_range
    examples = []
    for example in CHECK_EXAMPLES:
        picks: tuple[int, ...] = example
        if not all(lo <= n <= hi for n in picks):
            ranks = {n: lo + i for i, n in enumerate(sorted(set(picks)))}
            picks = tuple(ranks[n] for n in picks)
        examples.append(rules.score_round(picks))
    return tuple(examples)


def no_winner_odds(config: KitConfig) -> list[tuple[int, str]]:
    """Percent of random rounds with no winner, for table sizes around this one."""
    return list(_odds(config.players, config.range[1] - config.range[0] + 1, config.lang))


@lru_cache(maxsize=256)  # every table of a split party asks again
def _odds(players: int, size: int, lang: str) -> tuple[tuple[int, str], ...]:
    sizes = sorted({3, 4, 6, 8, 10, 12, players} & set(range(3, 13)))
    return tuple((n, words(lang).percent(float(rules.no_winner_probability(n, size))))
                 for n in sizes)


def _named_spares(config: KitConfig) -> list[list[Slip]]:
    """Each player's named spare slips (the spares shared out, the first players one more)."""
    spare_each, extra = divmod(spares(config), config.players)
    return [[Slip(name, None)] * (spare_each + (1 if i < extra else 0))
            for i, name in enumerate(config.names)]


def stacked(config: KitConfig, per_page: int) -> bool:
    """Whether named slips come a round a page: when the table fits a page and that takes no
    more pages than player by player. Cut together, the stack of slip pages then gives one
    pile per player, in round order."""
    if not config.names or config.players > per_page:
        return False
    rounds = settings(config).rounds
    spare_pages = math.ceil(spares(config) / config.players)
    return rounds + spare_pages <= math.ceil(
        (config.players * rounds + spares(config)) / per_page)


def slips(config: KitConfig, per_page: int) -> list[Slip]:
    """One slip per player per round, then the spares; named slips a round a page
    (``stacked``) or grouped by player. The free places of the last page (of every page, a
    round a page) hold blank spares: the paper is printed anyway."""
    rounds = settings(config).rounds
    if not config.names:
        out = [Slip(None, None)] * (config.players * rounds + spares(config))
    elif stacked(config, per_page):
        out, own = [], _named_spares(config)
        for r in range(1, rounds + 1):
            out += [Slip(name, r) for name in config.names]
            out += [Slip(None, None)] * (per_page - config.players)
        for k in range(max(map(len, own), default=0)):
            out += [kept[k] if k < len(kept) else Slip(None, None) for kept in own]
            out += [Slip(None, None)] * (per_page - config.players)
    else:
        out = []
        for name, kept in zip(config.names, _named_spares(config), strict=True):
            out += [Slip(name, r) for r in range(1, rounds + 1)] + kept
    return out + [Slip(None, None)] * (-len(out) % per_page)


def slip_grid(config: KitConfig) -> SlipGrid:
    """Eight slips a page; six in large print."""
    rows = table_sheets.LARGE_SLIP_ROWS if config.large_print else table_sheets.SLIP_ROWS
    return table_sheets.slip_grid(paper(config.paper).body, rows=rows)


def player_pages(config: KitConfig, common: dict[str, object]) -> list[Page]:
    sheet = paper(config.paper)
    body = sheet.body
    own = settings(config)
    grid = slip_grid(config)
    slip_pages = chunks(slips(config, grid.per_page), grid.per_page)
    _ = config.words.gettext
    tally_rows = ([str(r) for r in range(1, own.rounds + 1)]
                  + [_("Replay")] * replay_rows(config)
                  + ([_("Tie-break")] if own.sudden_death_announced else []))
    pages = [Page(_("Rules"), Prose("lowest_unique/rules.html", {
        **common,
        "min_players": rules.MIN_PLAYERS, "max_players": rules.MAX_PLAYERS,
        "cooperative": own.cooperative, "sudden_death": own.sudden_death_announced,
        "host_plays": own.host_plays,
    }, columns=2))]
    for i, page_slips in enumerate(slip_pages, start=1):
        pages.append(Page(_("Slips %(page)s of %(pages)s", page=i, pages=len(slip_pages)),
                          Form(table_sheets.slips_page(
            body, grid, tuple(page_slips), config.range_text, own.rounds, config.words,
            config.large_print))))
    pages += sheets(config, tuple(tally_rows))
    return pages


def sheets(config: KitConfig, tally_rows: tuple[str, ...]) -> list[Page]:
    """The round tally and the score sheet: on one page when both fit it, else a page each
    (a cooperative table keeps no score: the tally alone)."""
    body = paper(config.paper).body
    own = settings(config)
    _ = config.words.gettext
    tally = table_sheets.Tally(tally_rows, check_examples(config.range), own.rounds,
                               own.cooperative, config.players, config.range)
    names = tuple(config.names) or ("",) * config.players
    if not own.cooperative:
        both = table_sheets.tally_and_scores_page(body, tally, names,
                                                  own.sudden_death_announced, config.words,
                                                  config.large_print)
        if both is not None:
            return [Page(_("Round tally and score sheet"), Form(both))]
    pages = [Page(_("Round tally"), Form(table_sheets.tally_page(
        body, tally, config.words, config.large_print)))]
    if not own.cooperative:
        pages.append(Page(_("Score sheet"), Form(table_sheets.scores_page(
            body, names, own.rounds, own.sudden_death_announced, config.words,
            config.large_print))))
    return pages


def guide(pages: list[Page], slip_pages: int, _: Callable[..., str]) -> list[tuple[str, int]]:
    """The host card's print guide, one copy of each page: the rules, the slip pages in one
    row (a long game has twenty of them), then the sheets."""
    if slip_pages == 1:
        return [(page.label, 1) for page in pages]
    slips_row = _("Slips %(page)s of %(pages)s", page=f"1–{slip_pages}", pages=slip_pages)
    return ([(pages[0].label, 1), (slips_row, 1)]
            + [(page.label, 1) for page in pages[1 + slip_pages:]])


def plan(config: KitConfig) -> KitPlan:
    own = settings(config)
    common = {"range": config.range, "range_text": config.range_text, "rounds": own.rounds,
              "players": config.players, "custom_range": config.custom_range}
    pages = player_pages(config, common)
    practice = rules.practice_rounds(player_labels(config), config.range)
    practice_pages = chunks(list(practice), PRACTICE_PER_PAGE)
    _ = config.words.gettext
    per_page = slip_grid(config).per_page
    all_slips = slips(config, per_page)
    print_guide = guide(pages, len(chunks(all_slips, per_page)), _)
    host_pages = [Page(_("Host card"), Prose("lowest_unique/host_card.html", {
        **common, "host_plays": own.host_plays, "print_guide": print_guide,
        "slip_count": len(all_slips), "spare_slips": sum(s.round is None for s in all_slips),
        "stacked": stacked(config, per_page),
        "odds": no_winner_odds(config), "paper_label": paper(config.paper).label,
        "tables": config.table_count, "named": bool(config.names),
    }, columns=2), audience="host")]
    for i, chunk in enumerate(practice_pages, start=1):
        first = (i - 1) * PRACTICE_PER_PAGE + 1
        host_pages.append(Page(_("Practice reveals %(page)s of %(pages)s", page=i,
                                 pages=len(practice_pages)),
                               Prose("lowest_unique/practice.html",
                                     {**common, "practice": chunk, "first": first}),
                               audience="host"))
    return kit_plan(config.folder_name, _(rules.TITLE), banner(config), pages, host_pages,
                    words=config.words)


MIN_RANGE_SIZE = 4  # fewer numbers would leave almost every round without a single


def check_config(config: KitConfig) -> None:
    own = settings(config)
    if own.cooperative and own.sudden_death_announced:
        raise ConfigError("sudden_death_announced", rules.BOTH_VARIANTS)
    if own.spare_slips is not None and own.spare_slips > 3 * min(config.sizes):
        raise ConfigError("spare_slips", f"must be a whole number from 0 to "
                          f"{3 * min(config.sizes)} (three rounds' worth at the smallest table); "
                          f"got {own.spare_slips}")
    lo, hi = config.range
    if hi - lo + 1 < MIN_RANGE_SIZE:
        raise ConfigError("range", f"{lo}-{hi} holds {hi - lo + 1} numbers; {rules.NAME} needs "
                          f"at least {MIN_RANGE_SIZE}, e.g. 1-10")
