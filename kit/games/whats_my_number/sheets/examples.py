"""The worked examples the pages print, computed by the rules engine: the reference turn
report (with what each player can read from it) and the tie rules, in the kit's language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ....i18n import Words
from .. import rules
from .people import range_words

# The reference example (secrets consistent with the reference report and its explanation).
EXAMPLE_PLAYERS = ("A", "B", "C", "D", "E", "F")
EXAMPLE_SECRETS = {"A": 45, "B": 5, "C": 40, "D": 20, "E": 22, "F": 30}
EXAMPLE_TURN: dict[str, rules.Orders] = {
    "A": rules.Guesses((17, 33)),
    "B": rules.Guesses((40, 25)),
    "C": rules.GuessList({"A": 45, "B": 5, "D": 20, "E": 1, "F": 2}),
}


def _span(targets: Sequence[str], lo: int, hi: int, words: Words) -> str:
    """"B is from 1 to 16", "D, E and F are from 18 to 32", "C is 40"."""
    who = words.join(list(targets))
    if lo == hi:
        return words.ngettext("%(players)s is %(number)s", "%(players)s are %(number)s",
                              len(targets), players=who, number=lo)
    return words.ngettext("%(players)s is from %(lo)s to %(hi)s",
                          "%(players)s are from %(lo)s to %(hi)s", len(targets), players=who,
                          lo=lo, hi=hi)


# How the GM card explains a column of a guess row (``example()["explained"]``).
OWN, FOUND, HIGHER, LOWER, HIT = "own", "found", "higher", "lower", "hit"
KINDS = {rules.HIGHER: HIGHER, rules.LOWER: LOWER, rules.HIT: HIT}


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


def example(words: Words) -> dict[str, object]:
    """The reference turn, replayed by the rules module, with the readings it allows (the
    sentences in ``words``' language; the report's cells are the engine's codes)."""
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
        parts = [_span(ts, *span, words) for span, ts in groups.items()]
        hits = report.hits[player]
        readings.append({
            "player": player, "guesses": words.join([str(n) for n in numbers]),
            "parts": parts, "known": words.semicolon.join(parts), "hits": hits,
            "next": result.next_allowance[player],
        })
    lists = [{"player": r.player, "correct": r.correct, "wrong": len(EXAMPLE_PLAYERS) - 1
              - r.correct} for r in report.rows if isinstance(r, rules.ListRow)]
    # For the GM: each guess row explained against the secrets, column by column.
    explained = []
    found: dict[str, set[str]] = {p: set() for p in EXAMPLE_PLAYERS}
    for row in report.rows:
        if not isinstance(row, rules.GuessRow):
            continue
        by_kind: dict[str, list[str]] = {}
        for target, cell in zip(EXAMPLE_PLAYERS, row.cells, strict=True):
            if target == row.player:
                key = OWN
            elif cell == rules.NO_INFO:
                key = FOUND
            else:
                key = KINDS[cell]
            by_kind.setdefault(key, []).append(f"{target} {EXAMPLE_SECRETS[target]}")
        found[row.player] |= {t for t, c in zip(EXAMPLE_PLAYERS, row.cells, strict=True)
                              if c == rules.HIT}
        explained.append({"player": row.player, "index": row.index, "number": row.number,
                          "groups": [(key, words.join(items), len(items))
                                     for key, items in by_kind.items()]})
    orders = []
    for player in EXAMPLE_PLAYERS:
        order = EXAMPLE_TURN.get(player)
        if isinstance(order, rules.Guesses):
            orders.append(words.gettext("%(player)s guessed %(numbers)s", player=player,
                                        numbers=words.join([str(n) for n in order.numbers])))
        elif isinstance(order, rules.GuessList):
            entries = ", ".join(f"{t} {n}" for t, n in order.entries.items())
            orders.append(words.gettext("%(player)s handed in a list (%(entries)s)",
                                        player=player, entries=entries))
    idle = [p for p in EXAMPLE_PLAYERS if p not in EXAMPLE_TURN]
    return {"players": list(EXAMPLE_PLAYERS), "secrets": EXAMPLE_SECRETS, "rows": rows,
            "orders": words.semicolon.join(orders), "idle": words.join(idle),
            "idle_count": len(idle),
            "range": log.range, "range_text": range_words(log.range, words),
            "readings": readings, "lists": lists, "explained": explained,
            "winners": words.join(list(result.winners))}


def tie_examples(words: Words) -> list[dict[str, object]]:
    """Two short computed end-of-game turns showing the tie rules (four players, 1 to 30)."""
    _ = words.gettext
    secrets = {"A": 1, "B": 2, "C": 3, "D": 4}
    first: Mapping[str, rules.Orders] = {"A": rules.Guesses((2, 3)), "B": rules.Guesses((1, 3))}
    cases: list[tuple[str, Mapping[str, rules.Orders]]] = [
        (_("%(first)s finds %(target)s with guess %(guess)s, %(second)s finds %(target)s with "
           "guess %(other)s", first="A", second="B", target="D", guess=2, other=1),
         {"A": rules.Guesses((10, 4)), "B": rules.Guesses((4,))}),
        (_("%(first)s finds %(target)s with guess %(guess)s, %(second)s submits a correct list",
           first="A", second="C", target="D", guess=1),
         {"A": rules.Guesses((4,)), "C": rules.GuessList({"A": 1, "B": 2, "D": 4})}),
        (_("%(players)s both find %(target)s with guess %(guess)s",
           players=words.join(["A", "B"]), target="D", guess=2),
         {"A": rules.Guesses((10, 4)), "B": rules.Guesses((11, 4))}),
    ]
    out: list[dict[str, object]] = []
    for text, second in cases:
        log = rules.GameLog(players=("A", "B", "C", "D"), range=(1, 30), secrets=secrets,
                            turns=(first, second))
        result = rules.play(log)
        out.append({"text": text, "winners": words.join(list(result.winners)),
                    "reason": result.reason, "turn": result.winning_turn,
                    "shared": len(result.winners) > 1})
    return out
