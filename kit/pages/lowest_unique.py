"""Plan the lowest-unique-number kit: player pages and separate host-answer pages."""

from __future__ import annotations

import math

from ..config import KitConfig
from ..errors import ConfigError
from ..games import lowest_unique as rules
from ..paper import Paper, chunks, paper, slip_grid
from ..plan import GameSpec, KitPlan, Page, kit_plan

CHECK_EXAMPLES = ((1, 1, 2, 3, 3, 8), (2, 2, 5, 5, 9, 9))  # from the reference kit
PRACTICE_PER_PAGE = 4


def banner(config: KitConfig) -> str:
    return f"Choose one whole number from {config.range_text} · {config.rounds} rounds"


def player_labels(config: KitConfig) -> list[str]:
    """Names when given, else letters for the practice reveals and blank rows elsewhere."""
    return list(config.names) or [chr(ord("A") + i) for i in range(config.players)]


def replay_rows(config: KitConfig) -> int:
    """Spare slips cover this many replayed rounds, so the tally gets as many extra rows."""
    return math.ceil(config.spares / config.players) if config.spares else 0


def slips(config: KitConfig) -> list[dict[str, object]]:
    """One slip per player per round, then the spares; named slips are grouped by player."""
    spare_each, extra = divmod(config.spares, config.players)
    if not config.names:
        count = config.players * config.rounds + config.spares
        return [{"name": None, "round": None} for _ in range(count)]
    out: list[dict[str, object]] = []
    for i, name in enumerate(config.names):
        out += [{"name": name, "round": r} for r in range(1, config.rounds + 1)]
        out += [{"name": name, "round": None}] * (spare_each + (1 if i < extra else 0))
    return out


def tally_row_mm(sheet: Paper, rows: int) -> float:
    """Tall rows for handwriting, shrunk (never below 8 mm) so every row fits one page."""
    room = sheet.body_height_mm - 100  # title, notes and the check examples take ~100 mm
    return round(max(8.0, min(13.0, room / (rows + 1))), 1)


def check_examples(number_range: tuple[int, int]) -> list[dict[str, object]]:
    """The reference's two check examples, moved into a custom range when they fall outside it.

    Moving keeps their shape: distinct values map in order onto the lowest numbers of the range.
    """
    lo, hi = number_range
    examples = []
    for picks in CHECK_EXAMPLES:
        if not all(lo <= n <= hi for n in picks):
            ranks = {n: lo + i for i, n in enumerate(sorted(set(picks)))}
            picks = tuple(ranks[n] for n in picks)
        result = rules.score_round(picks)
        examples.append({"choices": result.choices, "cancelled": result.cancelled,
                         "singles": result.singles, "winner": result.winner})
    return examples


def no_winner_odds(config: KitConfig) -> list[tuple[int, str]]:
    """Percent of random rounds with no winner, for table sizes around this one."""
    size = config.range[1] - config.range[0] + 1
    sizes = sorted({3, 4, 6, 8, 10, 12, config.players} & set(range(3, 13)))
    return [(n, f"{float(rules.no_winner_probability(n, size)) * 100:.2f}%") for n in sizes]


def plan(config: KitConfig) -> KitPlan:
    grid = slip_grid(paper(config.paper))
    slip_pages = chunks(slips(config), grid.per_page)
    common = {"range": config.range, "range_text": config.range_text, "rounds": config.rounds,
              "players": config.players, "custom_range": config.custom_range}
    names = list(config.names)
    tally_rows = [str(r) for r in range(1, config.rounds + 1)] + ["Replay"] * replay_rows(config)

    player_pages = [Page("lowest_unique/rules.html", "Rules", {
        **common,
        "min_players": rules.MIN_PLAYERS, "max_players": rules.MAX_PLAYERS,
        "cooperative": config.cooperative, "sudden_death": config.sudden_death_announced,
        "host_plays": config.host_plays,
    })]
    for i, page_slips in enumerate(slip_pages, start=1):
        player_pages.append(Page("lowest_unique/slips.html", f"Slips {i} of {len(slip_pages)}", {
            **common, "slips": page_slips, "grid": grid,
        }, headed=False))
    player_pages.append(Page("lowest_unique/tally.html", "Round tally", {
        **common, "rows": tally_rows, "examples": check_examples(config.range),
        "row_mm": tally_row_mm(paper(config.paper), len(tally_rows)),
        "cooperative": config.cooperative,
    }))
    if not config.cooperative:
        player_pages.append(Page("lowest_unique/scores.html", "Score sheet", {
            **common, "names": names or [""] * config.players,
            "sudden_death": config.sudden_death_announced,
        }))

    practice = rules.practice_rounds(player_labels(config), config.range)
    practice_pages = chunks(list(practice), PRACTICE_PER_PAGE)
    print_guide = [(p.label, 1) for p in player_pages]
    host_pages = [Page("lowest_unique/host_card.html", "Host card", {
        **common, "host_plays": config.host_plays, "print_guide": print_guide,
        "slip_count": len(slips(config)), "spare_slips": config.spares,
        "odds": no_winner_odds(config), "paper_label": paper(config.paper).label,
        "tables": config.table_count,
    }, audience="host")]
    for i, chunk in enumerate(practice_pages, start=1):
        first = (i - 1) * PRACTICE_PER_PAGE + 1
        host_pages.append(Page("lowest_unique/practice.html",
                               f"Practice reveals {i} of {len(practice_pages)}",
                               {**common, "practice": chunk, "first": first}, audience="host"))
    return kit_plan(config, rules.TITLE, banner(config), player_pages, host_pages)


MIN_RANGE_SIZE = 4  # fewer numbers would leave almost every round without a single


def check_config(config: KitConfig) -> None:
    if config.cooperative and config.sudden_death_announced:
        raise ConfigError("sudden_death_announced", "the cooperative variant keeps no score, so "
                          "there is no tie to break; choose one or the other")
    lo, hi = config.range
    if hi - lo + 1 < MIN_RANGE_SIZE:
        raise ConfigError("range", f"{lo}-{hi} holds {hi - lo + 1} numbers; {rules.NAME} needs "
                          f"at least {MIN_RANGE_SIZE}, e.g. 1-10")


SPEC = GameSpec(
    name=rules.NAME,
    title=rules.TITLE,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    default_players=8,
    default_range=lambda players: rules.DEFAULT_RANGE,
    plan=plan,
    check_config=check_config,
)
