"""What's My Number? on the big screen and the public page, from the public view's data only:
the latest turn's answers as a big grid (the marks, never a guessed number), the race of
numbers found turn by turn (an SVG chart and its text equivalent), each player's bonus guesses
and lists, and at the end how the game was won, every secret number and the podium.

Nothing here plays a turn: the counts are the engine's (each published turn's ``hits``, its
rows' list counts) as the public view hands them out, so the screen can show no more than it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ....i18n import Words
from ....layout.chart import Series, step_chart
from ....layout.svg import figure

RACE_W, RACE_H = 170.0, 70.0  # mm: the chart's box, scaled to the page's width


def race(public: Mapping[str, Any]) -> list[tuple[str, tuple[int, ...]]]:
    """Each player's numbers found after each published turn (the engine's hits, summed)."""
    players = list(public.get("players", []))
    found = dict.fromkeys(players, 0)
    after: dict[str, list[int]] = {p: [] for p in players}
    for turn in public.get("turns", []):
        for player in players:
            found[player] += int(turn.get("hits", {}).get(player, 0))
            after[player].append(found[player])
    return [(p, tuple(after[p])) for p in players]


def race_chart(public: Mapping[str, Any], w: Words) -> dict[str, Any]:
    """The race as inline SVG, and its text equivalent: a row a player, with the turns in
    which they found numbers; {} before the first turn is published."""
    lines = race(public)
    turns = len(public.get("turns", []))
    if not turns:
        return {}
    top = max(len(lines) - 1, 1)  # every other player's number
    caption = w.gettext("The race: numbers found after each turn")
    items = step_chart(0.0, 0.0, RACE_W, RACE_H, [Series(p, v) for p, v in lines], top,
                       [w.number(n) for n in range(1, turns + 1)])
    rows = []
    for player, values in lines:
        gains = [(n + 1, v - (values[n - 1] if n else 0)) for n, v in enumerate(values)]
        when = [w.gettext("turn %(turn)s: +%(num)s", turn=w.number(turn), num=w.number(gain))
                for turn, gain in gains if gain]
        rows.append({"player": player, "found": w.number(values[-1] if values else 0),
                     "when": w.join(when) if when else "—"})
    return {"svg": figure(RACE_W, RACE_H, items, caption), "caption": caption, "rows": rows}


def tallies(public: Mapping[str, Any], w: Words) -> list[dict[str, Any]]:
    """Per player: numbers found, bonus guesses earned (one per number found by a guess, for
    the next turn), lists sent and how many of them were fully right."""
    players = list(public.get("players", []))
    hits = dict.fromkeys(players, 0)
    sent = dict.fromkeys(players, 0)
    right = dict.fromkeys(players, 0)
    others = len(players) - 1
    for turn in public.get("turns", []):
        for player in players:
            hits[player] += int(turn.get("hits", {}).get(player, 0))
        for row in turn.get("rows", []):
            if "cells" not in row and row.get("player") in sent:
                sent[row["player"]] += 1
                whole = not row.get("partial") and int(row.get("correct", 0)) == others
                right[row["player"]] += int(whole)
    found = public.get("identified", {})
    return [{"player": p, "found": w.number(int(found.get(p, 0))), "bonus": w.number(hits[p]),
             "lists": w.number(sent[p]), "right": w.number(right[p])} for p in players]


def secrets(public: Mapping[str, Any], w: Words) -> list[dict[str, str]]:
    """Every secret number, once the view says the game is over (and only then)."""
    if not public.get("over"):
        return []
    shown = public.get("secrets", {})
    return [{"player": p, "number": w.number(int(shown[p]))}
            for p in public.get("players", []) if p in shown]


def podium(standings: Sequence[Mapping[str, Any]], over: bool) -> list[dict[str, Any]]:
    """At the end: the winners on the first step (a shared win shares it), then the next two
    places of the standings; [] while the game goes on."""
    if not over:
        return []
    steps: list[dict[str, Any]] = []
    for row in standings:
        key = (row["winner"], row["points"]) if not row["winner"] else (True, None)
        if steps and steps[-1]["key"] == key:
            steps[-1]["players"].append(row["player"])
        elif len(steps) < 3:
            steps.append({"key": key, "place": len(steps) + 1, "players": [row["player"]],
                          "points": row["points"]})
    return steps
