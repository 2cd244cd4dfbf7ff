"""Plan the What's My Number? kit: player pages and separate host (game master) pages.

Prose pages (rules, reading the report, the GM card, worked examples) are templates; the form
pages, whose count grows with players and turns, are layout models built in
``wmn_player_forms`` (slips, order forms, deduction sheets) and ``wmn_host_forms`` (the secret
register and the turn-report grids).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import ConfigError
from ..game import GameSpec, KitConfig
from ..games import whats_my_number as rules
from ..options import IntRange, Option
from ..paper import paper
from ..plan import Form, KitPlan, Page, Prose, kit_plan
from . import wmn_host_forms as host_forms
from . import wmn_player_forms as player_forms
from .wmn_common import people

MAX_PLAYERS = 30  # the kit's cap, not the rules' (they set none)
DEFAULT_PLAYERS = 6
MAX_TURNS = 30


@dataclass(frozen=True)
class Settings:
    """The game's own options, as ``KitConfig.settings``."""

    turns: int = 8


OPTIONS = (Option("turns", IntRange(1, MAX_TURNS), 8, "turns to print order forms and "
                  f"report grids for (1 to {MAX_TURNS})", "N"),)


def turns(config: KitConfig) -> int:
    assert isinstance(config.settings, Settings)
    return config.settings.turns

# The reference example (secrets consistent with the reference report and its explanation).
EXAMPLE_PLAYERS = ("A", "B", "C", "D", "E", "F")
EXAMPLE_SECRETS = {"A": 45, "B": 5, "C": 40, "D": 20, "E": 22, "F": 30}
EXAMPLE_TURN = {
    "A": rules.Guesses((17, 33)),
    "B": rules.Guesses((40, 25)),
    "C": rules.GuessList({"A": 45, "B": 5, "D": 20, "E": 1, "F": 2}),
}


def banner(config: KitConfig) -> str:
    if config.custom_range:
        return f"Announced range: secret numbers from {config.range_text}"
    return f"Secret numbers: whole numbers from {config.range_text}"


def check_players(count: int | None, given: object = None) -> None:
    if count is None or not rules.MIN_PLAYERS <= count <= MAX_PLAYERS:
        shown = count if count is not None else repr(given)
        raise ConfigError(
            "players", f"{rules.TITLE} kits are made for {rules.MIN_PLAYERS} to {MAX_PLAYERS} "
            f"players (the game needs at least {rules.MIN_PLAYERS}; the upper limit is the "
            f"kit's, the rules set none); got {shown}"
        )


def check_config(config: KitConfig) -> None:
    """Game-specific checks: a custom range must hold a number for every player."""
    if config.custom_range:
        lo, hi = config.range
        rules.parse_range(f"{lo}-{hi}", config.players)  # raises "range: ..." when too small


class _Spec(GameSpec):
    """The game's own player-count message (the rules set no cap; the kit's is 30)."""

    def check_players(self, players: int | None, given: object = None) -> None:
        check_players(players, given)


# --- the reference example, computed -------------------------------------------------------------


def _join(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _span(targets: Sequence[str], lo: int, hi: int) -> str:
    verb = "is" if len(targets) == 1 else "are"
    span = f"{lo}" if lo == hi else f"from {lo} to {hi}"
    return f"{_join(targets)} {verb} {span}"


def knowledge(report: rules.TurnReport, players_: Sequence[str], number_range: tuple[int, int]
              ) -> dict[str, dict[str, tuple[int, int]]]:
    """What each guesser can work out from their own rows: target -> (lowest, highest)."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for row in report.rows:
        if not isinstance(row, rules.GuessRow):
            continue
        known = out.setdefault(row.player, {t: number_range for t in players_ if t != row.player})
        for target, cell in zip(players_, row.cells, strict=True):
            if target == row.player or cell == rules.NO_INFO:
                continue
            lo, hi = known[target]
            if cell == rules.HIGHER:
                lo = max(lo, row.number + 1)
            elif cell == rules.LOWER:
                hi = min(hi, row.number - 1)
            else:
                lo = hi = row.number
            known[target] = (lo, hi)
    return out


def example() -> dict[str, object]:
    """The reference turn, replayed by the rules module, with the readings it allows."""
    log = rules.GameLog(players=EXAMPLE_PLAYERS, range=rules.default_range(6),
                        secrets=EXAMPLE_SECRETS, turns=(EXAMPLE_TURN,))
    result = rules.play(log)
    report = result.turns[0]
    rows = []
    for row in report.rows:
        if isinstance(row, rules.GuessRow):
            rows.append({"list": False, "player": row.player, "index": row.index,
                         "number": row.number, "cells": list(row.cells)})
        else:
            rows.append({"list": True, "player": row.player, "correct": row.correct})
    readings = []
    known = knowledge(report, EXAMPLE_PLAYERS, log.range)
    for player, targets in known.items():
        numbers = [r.number for r in report.rows
                   if isinstance(r, rules.GuessRow) and r.player == player]
        groups: dict[tuple[int, int], list[str]] = {}
        for target, span in targets.items():
            groups.setdefault(span, []).append(target)
        parts = [_span(ts, *span) for span, ts in groups.items()]
        hits = report.hits[player]
        readings.append({
            "player": player, "guesses": _join([str(n) for n in numbers]), "parts": parts,
            "hits": hits, "next": result.next_allowance[player],
        })
    lists = [{"player": r.player, "correct": r.correct, "wrong": len(EXAMPLE_PLAYERS) - 1
              - r.correct} for r in report.rows if isinstance(r, rules.ListRow)]
    # For the GM: each guess row explained against the secrets, column by column.
    explained = []
    found: dict[str, set[str]] = {p: set() for p in EXAMPLE_PLAYERS}
    for row in report.rows:
        if not isinstance(row, rules.GuessRow):
            continue
        groups: dict[str, list[str]] = {}
        for target, cell in zip(EXAMPLE_PLAYERS, row.cells, strict=True):
            if target == row.player:
                key = "X own"
            elif cell == rules.NO_INFO:
                key = "X found"
            else:
                key = cell
            groups.setdefault(key, []).append(f"{target} {EXAMPLE_SECRETS[target]}")
        found[row.player] |= {t for t, c in zip(EXAMPLE_PLAYERS, row.cells, strict=True)
                              if c == rules.HIT}
        explained.append({"player": row.player, "index": row.index, "number": row.number,
                          "groups": [(key, _join(items)) for key, items in groups.items()]})
    orders = []
    for player in EXAMPLE_PLAYERS:
        order = EXAMPLE_TURN.get(player)
        if isinstance(order, rules.Guesses):
            orders.append(f"{player} guessed {_join([str(n) for n in order.numbers])}")
        elif isinstance(order, rules.GuessList):
            entries = ", ".join(f"{t} {n}" for t, n in order.entries.items())
            orders.append(f"{player} handed in a list ({entries})")
    idle = [p for p in EXAMPLE_PLAYERS if p not in EXAMPLE_TURN]
    return {"players": list(EXAMPLE_PLAYERS), "secrets": EXAMPLE_SECRETS, "rows": rows,
            "orders": "; ".join(orders), "idle": _join(idle),
            "range": log.range, "readings": readings, "lists": lists, "explained": explained,
            "winners": list(result.winners)}


def tie_examples() -> list[dict[str, object]]:
    """Two short computed end-of-game turns showing the tie rules (four players, 1 to 30)."""
    secrets = {"A": 1, "B": 2, "C": 3, "D": 4}
    first = {"A": rules.Guesses((2, 3)), "B": rules.Guesses((1, 3))}
    cases = [
        ("A finds D with guess 2, B finds D with guess 1",
         {"A": rules.Guesses((10, 4)), "B": rules.Guesses((4,))}),
        ("A finds D with guess 1, C submits a correct list",
         {"A": rules.Guesses((4,)), "C": rules.GuessList({"A": 1, "B": 2, "D": 4})}),
        ("A and B both find D with guess 2",
         {"A": rules.Guesses((10, 4)), "B": rules.Guesses((11, 4))}),
    ]
    out = []
    for text, second in cases:
        log = rules.GameLog(players=("A", "B", "C", "D"), range=(1, 30), secrets=secrets,
                            turns=(first, second))
        result = rules.play(log)
        out.append({"text": text, "winners": _join(list(result.winners)),
                    "reason": result.reason, "turn": result.winning_turn})
    return out


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


SPEC = _Spec(
    name=rules.NAME,
    title=rules.TITLE,
    min_players=rules.MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=DEFAULT_PLAYERS,
    default_range=rules.default_range,
    plan=plan,
    options=OPTIONS,
    settings=Settings,
    check_config=check_config,
    splits_large_parties=False,
)
