"""What's My Number? for the game master in the console: the entry grid of the open turn
(orders, then publish) and a published turn's amendment, read from their posts into entries.

Pure functions of the game master's view and the posted values; the console does the rest
(the guard, the journal, the redirect).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....errors import KitError
from ....game import FormRead, GmPage
from ....i18n import N_, Words, words
from .. import rules
from ..report.snapshot import NEXT_TURN
from .gm_players import FORMS as PLAYER_FORMS
from .gm_players import context as players_context
from .grid import Grid, absorb, grid_rows, read_grid, typed_rows
from .state import NO_ORDERS
from .turns import RECENT_TURNS, open_turn, played, published_reports

NOTICES = {"published": N_("Turn %(turn)s is published: its report is below."),
           "closed": N_("Turn %(turn)s is closed: the players’ pages take no more changes."),
           "reopened": N_("Turn %(turn)s is open again to the players."),
           "deadline": N_("The deadline of turn %(turn)s is saved."),
           "amended": N_("Turn %(turn)s was amended; its erratum is in the reports."),
           "secrets": N_("The secret numbers are saved.")}


def _notice(query: Mapping[str, str], w: Words, seen: Mapping[str, Any]) -> str:
    for flag, text in NOTICES.items():
        if query.get(flag, "").isdigit():
            number = int(query[flag])
            said = w.gettext(text, turn=number)
            turns = list(seen["log"].get("turn", []))
            if flag == "published" and 1 <= number <= len(turns):
                missing = [p for p in seen["players"] if turns[number - 1].get(p) is None]
                if missing:
                    said += " " + w.gettext("No orders from %(names)s.", names=w.join(missing))
            return said
    return ""


def print_turn(number: int, w: Words) -> dict[str, Any]:
    """Turn ``number``'s own files, as ``kit report --turn N`` writes them: its report for
    everyone and its private slips for the game master (the whole game's files stay too)."""
    kinds = {"pdf": N_("%(document)s (PDF, to print)"),
             "html": N_("%(document)s (HTML, for a screen)")}
    documents = ((f"turn-{number}", w.gettext("Report of turn %(turn)s", turn=number), False),
                 (f"slips-turn-{number}", w.gettext("Private slips of turn %(turn)s",
                                                    turn=number), True))
    return {"number": number, "files": [
        {"name": f"{stem}.{suffix}", "private": private,
         "text": w.gettext(kind, document=label)}
        for stem, label, private in documents for suffix, kind in kinds.items()]}


def _problems(grid: Grid | None) -> int:
    return sum(len(v) for v in grid.rows.values()) + len(grid.general) if grid else 0


def gm_page(seen: Mapping[str, Any], w: Words, query: Mapping[str, str],
            posted: FormRead | None = None, answer: Mapping[str, Any] | None = None) -> GmPage:
    """The open turn's grid and the published reports; or a published turn to amend."""
    published = int(seen["published"])
    amend = posted.params.get("turn") if posted is not None and posted.kind == "amend" else \
        int(query["amend"]) if query.get("amend", "").isdigit() else 0
    if isinstance(amend, int) and 1 <= amend <= published:
        return GmPage("amend.html", amend_context(seen, amend, w, posted, answer))
    grid = posted.form if posted is not None and posted.kind == "orders" else None
    grid = grid if isinstance(grid, Grid) else None
    log = seen["log"]
    turn = open_turn(log, published, w)
    # the answers in the game's letters, which its players' labels avoid (as its printed reports)
    # the latest turns only: the page's cost does not grow with the game
    reports, _ = published_reports(log, published, w, words(seen.get("lang") or w.lang),
                                   RECENT_TURNS)
    values = posted.values if grid is not None and posted is not None else None
    notice = _notice(query, w, seen)
    if "saved" in query and turn.rulings:  # a typo of 0 or 555 is seen before publishing
        notice = w.gettext("Entries saved.") + " " + w.ngettext(
            "%(num)s ruling to check: its boxes are marked.",
            "%(num)s rulings to check: their boxes are marked.", len(turn.rulings))
    return GmPage("gm.html", {
        "state": seen, "turn": turn, "reports": reports, "notice": notice,
        "older_turns": published - len(reports),
        "rows": grid_rows(turn.players, turn.allowance, entries(turn, seen), w, values, grid,
                          turn.marks),
        "general": grid.general if grid else [], "problems": _problems(grid),
        "secrets": dict(seen.get("secrets", {})), "amend_turns": list(range(1, published + 1)),
        "print_turn": print_turn(published, w) if published else None,
        "just_published": query.get("published", "") == str(published) and published > 0,
        **players_context(seen, w)})


def amend_context(seen: Mapping[str, Any], number: int, w: Words, posted: FormRead | None,
                  answer: Mapping[str, Any] | None) -> dict[str, Any]:
    """A published turn's grid, prefilled with its orders, for an amendment."""
    log = seen["log"]
    result = played(log, int(seen["published"]))
    report = result.turns[number - 1]
    orders = dict(log.get("turn", [])[number - 1])
    grid = posted.form if posted is not None and isinstance(posted.form, Grid) else None
    values = posted.values if posted is not None and posted.form is not None else None
    letters = words(seen.get("lang") or w.lang)
    changes = amend_lines(answer["changes"], w, letters) if answer is not None else None
    return {"state": seen, "number": number, "show_files": False,
            "rows": grid_rows(tuple(seen["players"]), dict(report.allowance), orders, w,
                              values, grid),
            "general": grid.general if grid else [], "changes": changes,
            "problems": sum(len(v) for v in grid.rows.values()) if grid else 0,
            "posted": values or {}}


def _sent(values: Mapping[str, str], players: tuple[str, ...], w: Words) -> list[str]:
    """What a refused grid held, one line a player, so the GM can enter it again."""
    grid = read_grid(values, players, dict.fromkeys(players, len(players)), {}, w)
    lines = []
    for name, order in grid.orders.items():
        if order is None or order == NO_ORDERS:
            continue  # (the no orders lines follow)
        if isinstance(order, Mapping):
            listed = ", ".join(f"{k} {v}" for k, v in order["list"].items())
            lines.append(w.gettext("%(name)s: list %(numbers)s", name=name, numbers=listed))
        else:
            lines.append(w.gettext("%(label)s: %(value)s", label=name,
                                   value=w.numbers(["—" if n == rules.BLANK else n
                                                    for n in order])))
    lines += [w.gettext("%(name)s: no orders", name=name) for i, name in enumerate(players)
              if values.get(f"n{i}")]
    return lines


def entries(turn: Any, seen: Mapping[str, Any]) -> dict[str, Any]:
    """The open turn's entries, "no orders" recorded as such (``NO_ORDERS``) among them."""
    return {**turn.entries, **dict.fromkeys(seen.get("no_orders", ()), NO_ORDERS)}


def _grid_read(kind: str, values: Mapping[str, str], players: tuple[str, ...],
               allowance: Mapping[str, int], current: Mapping[str, Any], w: Words,
               none: str | None = None, **extra: Any) -> FormRead:
    grid = read_grid(values, players, allowance, current, w, none)

    def absorbed(error: KitError, words: Words) -> None:
        absorb(grid, error, players, words)

    body = {"orders": grid.orders, **extra.pop("body", {})}
    sound = {**body, "orders": grid.sound} if not grid.ok and grid.sound else None
    unchanged = extra.pop("unchanged")
    return FormRead(kind, body, form=grid, values=values, ok=lambda: grid.ok,
                    unchanged=unchanged if grid.ok and not grid.orders else "",
                    sent=_sent(values, players, w), absorb=absorbed,
                    again=typed_rows(values), sound=sound, **extra)


def read_orders(values: Mapping[str, str], seen: Mapping[str, Any], w: Words) -> FormRead:
    """The open turn's grid -> the orders that changed."""
    turn = open_turn(seen["log"], int(seen["published"]), w)
    return _grid_read("orders", values, turn.players, turn.allowance, entries(turn, seen), w,
                      done="saved=1", unchanged="same=1", none=NO_ORDERS)


def read_publish(values: Mapping[str, str], seen: Mapping[str, Any], w: Words) -> FormRead:
    """The publish button -> the turn it closes; posted from the grid, the grid's unsaved rows
    are saved first (a typed grid is never published as "no orders")."""
    turn = int(values["turn"]) if values.get("turn", "").isdigit() else 0
    publish = FormRead("publish", params={"turn": turn}, done=f"published={turn}")
    if not any(key[:1] in "gtn" and key[1:2].isdigit() for key in values):  # no grid in it
        return publish
    orders = read_orders(values, seen, w)
    if orders.ok() and not orders.body["orders"]:
        return publish
    orders.unchanged, orders.then, orders.done = "", publish, publish.done
    return orders


def read_amend(values: Mapping[str, str], seen: Mapping[str, Any], w: Words) -> FormRead:
    """A published turn's grid -> its changed orders (recorded once confirmed); a turn not
    published goes to the console as it is, which refuses it."""
    number = int(values["turn"]) if values.get("turn", "").isdigit() else 0
    if not 1 <= number <= int(seen["published"]):
        return FormRead("amend", {"orders": {}}, params={"turn": number})
    log = seen["log"]
    result = played(log, int(seen["published"]))
    orders = dict(log.get("turn", [])[number - 1])
    return _grid_read("amend", values, tuple(seen["players"]),
                      dict(result.turns[number - 1].allowance), orders, w,
                      params={"turn": number}, done=f"amended={number}#reports",
                      unchanged="unchanged=1",
                      body={"confirm": values.get("confirm") == "1"})


def read_secrets(values: Mapping[str, str], seen: Mapping[str, Any], w: Words) -> FormRead:
    """The secret numbers the game master sets for players still choosing (on paper): a
    number typed, or "draw" ticked for the number drawn at the start; a box that is not a
    whole number goes to the console as typed, which names it."""
    chosen: dict[str, Any] = {}
    for index, player in enumerate(seen.get("players", ())):
        typed = values.get(f"s{index}", "").strip()
        if values.get(f"d{index}"):
            chosen[player] = "draw"
        elif typed:
            chosen[player] = int(typed) if typed.isdigit() and len(typed) < 10 else typed
    return FormRead("secrets", {"secrets": chosen}, done="secrets=1#secrets",
                    unchanged="same=1#secrets" if not chosen else "")


FORMS = {"turn": read_orders, "secrets": read_secrets, "publish": read_publish,
         "amend": read_amend, **PLAYER_FORMS}


def _cell(value: object, w: Words) -> str:
    from ..sheets.people import answer

    text = str(value or "—")
    return answer(text, w) if text in ("H", "L", "X", "✓") else text


def amend_lines(changes: list[Mapping[str, Any]], w: Words, letters: Words) -> list[str]:
    """An amendment's changes as its erratum will print them (a row that is gone in one line,
    no "— → —"), in the page's words and the game's letters."""
    from ....published import CellChange
    from ..report.erratum import shown_changes

    fields = ("turn", "row", "column", "old", "new")
    cells = [CellChange(**{k: change[k] for k in fields}) for change in changes if "row" in change]
    by_turn: dict[int, list[CellChange]] = {}
    for cell in cells:
        by_turn.setdefault(cell.turn, []).append(cell)
    lines = [w.gettext("Turn %(turn)s, row %(row)s, column %(column)s: %(old)s → %(new)s",
                       turn=turn, row=row, column=column, old=old, new=new)
             for turn, turned in by_turn.items()
             for row, column, old, new in shown_changes(turned, w, letters)]
    return lines + [cell_change(change, w, letters) for change in changes
                    if "row" not in change]


def cell_change(change: Mapping[str, Any], w: Words, letters: Words | None = None) -> str:
    """One changed cell of a published report, in words (turn, row, column: old -> new); the
    answers in the letters of ``letters``, the game's language (as the printed erratum)."""
    if "row" in change:
        row = str(change.get("row", "?"))
        row = w.gettext("Guesses next turn") if row == NEXT_TURN else row
        shown = letters or w
        return w.gettext("Turn %(turn)s, row %(row)s, column %(column)s: %(old)s → %(new)s",
                         turn=change.get("turn", "?"), row=row,
                         column=change.get("column", "?"), old=_cell(change.get("old"), shown),
                         new=_cell(change.get("new"), shown))
    return w.gettext("Turn %(turn)s: its report changes", turn=change.get("turn", "?"))
