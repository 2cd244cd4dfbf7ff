"""The reveal of a table's last round and the podium of a finished party, as the big screen and
the public page show them, from the public view's data alone.

A reveal groups the sorted choices by number; whether a group is cancelled, a single or the
scoring single is what the rules engine's round result says (``RoundResult`` in the public
view), never worked out again here. The podium lists the places the standings give: players
with equal points share a step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ....i18n import Words

CANCELLED, WON, SINGLE = "cancelled", "won", "single"
PODIUM_STEPS = 3


def groups(round_: Mapping[str, Any], w: Words) -> list[dict[str, Any]]:
    """A round's numbers in order, one group per number: its players, how many, and its state
    as the round's result gives it (``cancelled``, ``won`` or ``single``)."""
    result = round_["result"]
    cancelled = set(result["cancelled"])
    picks: dict[int, list[str]] = {}
    for number in result["choices"]:
        picks.setdefault(int(number), [])
    for name, choice in round_["choices"]:
        if choice is not None:
            picks[int(choice)].append(str(name))
    out = []
    for number, names in picks.items():
        state = (WON if number == result["winner"] else CANCELLED if number in cancelled
                 else SINGLE)
        out.append({"number": number, "shown": w.number(number), "count": len(names),
                    "names": names, "state": state,
                    "repeated": " ".join([w.number(number)] * len(names))})
    return out


def reveal(table: Mapping[str, Any], w: Words) -> dict[str, Any] | None:
    """A table's reveal: its last round entered (or tie-break round: its own reveal; either
    stays until the next), or None before its first round."""
    tiebreaks = table.get("tiebreaks") or []
    rounds = tiebreaks or table.get("rounds") or []
    if not rounds:
        return None
    last = rounds[-1]
    result = last["result"]
    winner = last.get("winner")
    return {"table": int(table["table"]), "round": int(last["number"]),
            "tiebreak": bool(tiebreaks), "one_single": len(result["singles"]) == 1,
            "groups": groups(last, w),
            "passes": [str(name) for name, choice in last["choices"] if choice is None],
            "winner": winner,
            "winning": w.number(result["winner"]) if result["winner"] is not None else None}


def reveals(public: Mapping[str, Any], w: Words) -> dict[int, dict[str, Any]]:
    """Every table's reveal, by table number (tables yet to play have none)."""
    out = {}
    for table in public.get("tables", []):
        made = reveal(table, w)
        if made is not None:
            out[made["table"]] = made
    return out


def finished(public: Mapping[str, Any]) -> bool:
    """True once every table has played every round of the party (and every tie-break round
    due)."""
    tables = public.get("tables") or []
    rounds = int(public.get("rounds") or 0)
    return bool(tables) and all(len(t.get("rounds", [])) >= rounds and not t.get("due")
                                for t in tables)


def podium(standings: Sequence[Mapping[str, Any]], w: Words) -> list[dict[str, Any]]:
    """The first places of the final standings, one step per place: its players (equal
    points share it) and their points."""
    steps: dict[int, dict[str, Any]] = {}
    for row in standings:
        place = int(row["place"])
        if place > PODIUM_STEPS:
            break
        step = steps.setdefault(place, {"place": place, "shown": w.number(place), "players": [],
                                        "points": int(row["points"])})
        step["players"].append(str(row["player"]))
    return list(steps.values())
