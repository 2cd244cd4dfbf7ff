"""What's My Number? for the game master, on the players' side: the status board of the open
turn (per player "sent by the player at 20:14", "entered by you" or missing), and the forms
that close or reopen the turn to the players and set its deadline.

Pure functions of the game master's view and the posted values, like ``pages``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....game import FormRead
from ....i18n import Words
from .player import stamp
from .player_page import deadline_text, local_time


def board(seen: Mapping[str, Any], w: Words) -> list[dict[str, str]]:
    """One row per player: who entered their orders of the open turn and when, or missing."""
    entered = seen.get("entered", {})
    rows = []
    for name in seen["players"]:
        mark = entered.get(name)
        if name in seen.get("missing", ()):
            status, text = "missing", w.gettext("missing")
        elif mark and mark.get("by") == "player":
            status = "player"
            text = w.gettext("sent by the player at %(time)s",
                             time=local_time(stamp(mark.get("at"))))
        else:
            status, text = "gm", w.gettext("entered by you")
        rows.append({"name": name, "status": status, "text": text})
    return rows


def context(seen: Mapping[str, Any], w: Words) -> dict[str, Any]:
    """The GM page's part for the players: the board, closed, the deadline."""
    deadline = seen.get("deadline") or ""
    return {"board": board(seen, w), "closed": bool(seen.get("closed")),
            "deadline_value": deadline[:16], "deadline_text": deadline_text(deadline)}


def _turn(values: Mapping[str, str], seen: Mapping[str, Any]) -> int:
    text = values.get("turn", "")
    return int(text) if text.isdigit() else int(seen["open_turn"])


def read_close(values: Mapping[str, str], seen: Mapping[str, Any], w: Words) -> FormRead:
    """Close turn: the players' pages take no more changes (the GM still can)."""
    turn = _turn(values, seen)
    return FormRead("close", params={"turn": turn}, done=f"closed={turn}#grid")


def read_reopen(values: Mapping[str, str], seen: Mapping[str, Any], w: Words) -> FormRead:
    """Reopen the turn to the players."""
    turn = _turn(values, seen)
    return FormRead("reopen", params={"turn": turn}, done=f"reopened={turn}#grid")


def read_deadline(values: Mapping[str, str], seen: Mapping[str, Any], w: Words) -> FormRead:
    """The open turn's deadline (a date and time, or empty to remove it)."""
    given, turn = values.get("deadline", "").strip(), _turn(values, seen)
    return FormRead("deadline", body={"deadline": given or None}, params={"turn": turn},
                    done=f"deadline={turn}#grid")


FORMS = {"close": read_close, "reopen": read_reopen, "deadline": read_deadline}
