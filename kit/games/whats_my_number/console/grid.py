"""The entry grid of a What's My Number? turn: one row per player, and its post -> orders.

A row has the player's allowance filled in and a box per guess, plus one dashed box for a guess
written beyond the allowance (the engine's ruling ignores it, but the GM records what the slip
says); a "list" toggle with a box per other player; and "no orders". Input names carry the
player's position, never the name: ``g{i}_{k}`` guess k, ``t{i}`` list toggle, ``l{i}_{j}``
the list's number for player j, ``n{i}`` no orders.

``read_grid`` returns only the rows that differ from what is already entered, as the orders
the ``orders`` entry takes (``[17, 33]``, ``{"list": {...}}``, or ``None``: no orders), and
every problem of the form at once, keyed by row and by box.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape

from ....errors import KitError
from ....game.said import each, line, player_of
from ....i18n import Words
from .. import rules
from .state import NO_ORDERS

EXTRA_BOXES = 1
MAX_BOXES = 20  # guess boxes read per row: what a slip can hold, beyond any allowance
_ROW_KEY = re.compile(r"[gl]([0-9]+)_[0-9]+|[tn]([0-9]+)")  # a grid box's name -> its row
_PLAYER = re.compile(r"player (.+?)(?:, guess [0-9]+)?$")


@dataclass
class Grid:
    """What the grid post says: changed orders by player, problems by row and by input."""

    orders: dict[str, Any] = field(default_factory=dict)
    sound: dict[str, Any] = field(default_factory=dict)  # the changed rows with no problem
    rows: dict[int, list[str]] = field(default_factory=dict)  # row index -> messages
    boxes: set[str] = field(default_factory=set)  # input names marked aria-invalid
    general: list[str] = field(default_factory=list)
    targets: dict[int, list[str | None]] = field(default_factory=dict)  # each message's box

    def add(self, row: int, message: str, box: str | None = None) -> None:
        self.rows.setdefault(row, []).append(message)
        self.targets.setdefault(row, []).append(box)
        if box:
            self.boxes.add(box)

    @property
    def ok(self) -> bool:
        return not (self.rows or self.general)


def box_count(allowance: int) -> int:
    return allowance + EXTRA_BOXES


def _number(text: str) -> int | None:
    text = text.strip()
    return int(text) if re.fullmatch(r"-?[0-9]{1,6}", text) else None


def _read_list(grid: Grid, values: Mapping[str, str], i: int, players: Sequence[str],
               w: Words) -> dict[str, int] | None:
    entries: dict[str, int] = {}
    for j, other in enumerate(players):
        if j == i:
            continue
        text = values.get(f"l{i}_{j}", "").strip()
        if not text:
            continue
        number = _number(text)
        if number is None:
            grid.add(i, w.gettext("%(value)s for %(name)s is not a whole number.",
                                  value=w.quote(text[:12]), name=other), f"l{i}_{j}")
        else:
            entries[other] = number
    if not entries and i not in grid.rows:
        grid.add(i, w.gettext("List ticked, but no numbers in it: fill the list, or untick "
                              "it."), f"t{i}")
        return None
    return entries if i not in grid.rows else None


def guesses_in_place(texts: Sequence[str], w: Words) -> tuple[list[int | str], dict[int, str]]:
    """The guesses typed in boxes 1, 2, ... (``texts``) in their boxes' places, and each bad
    box's problem by its number: an empty box before a filled one is a line left blank
    (``rules.BLANK``), so the guesses after it keep their places (the tie rule counts
    places); empty boxes after the last filled one say nothing. The GM's grid and a player's
    own form read their boxes with this one rule."""
    guesses: list[int | str] = []
    bad: dict[int, str] = {}
    for k, raw in enumerate(texts, start=1):
        text = raw.strip()
        if not text:
            guesses.append(rules.BLANK)
            continue
        number = _number(text)
        if number is None:
            bad[k] = w.gettext("Guess %(k)s: %(value)s is not a whole number.", k=k,
                               value=w.quote(text[:12]))
        guesses.append(rules.BLANK if number is None else number)
    while guesses and guesses[-1] == rules.BLANK:
        guesses.pop()
    return guesses, bad


def boxes_posted(values: Mapping[str, str], pattern: str, boxes: int = 0) -> int:
    """How many guess boxes a post holds: at least ``boxes``, up to the highest box number
    ``pattern`` (its group: the number) matches, at most ``MAX_BOXES``."""
    posted = [int(m[1]) for key in values if (m := re.fullmatch(pattern, key))]
    return min(max([boxes, *posted]), MAX_BOXES)


def _read_guesses(grid: Grid, values: Mapping[str, str], i: int, boxes: int,
                  w: Words) -> list[int | str]:
    """A row's guesses in their boxes' places (``guesses_in_place``); extra boxes are added
    as the slip says."""
    count = boxes_posted(values, rf"g{i}_([0-9]+)", boxes)
    guesses, bad = guesses_in_place([values.get(f"g{i}_{k}", "") for k in range(1, count + 1)],
                                    w)
    for k, message in bad.items():
        grid.add(i, message, f"g{i}_{k}")
    return guesses


def read_grid(values: Mapping[str, str], players: Sequence[str], allowance: Mapping[str, int],
              current: Mapping[str, Any], w: Words, none: str | None = None) -> Grid:
    """The grid's post -> the orders that changed, and every problem (nothing raised).
    ``none``: what a ticked None records (the open turn's ``NO_ORDERS``: entered, not
    missing); None: the entry is taken out (a published turn's player made no orders)."""
    grid = Grid()
    for i, name in enumerate(players):
        had = current.get(name)
        if not any(_ROW_KEY.fullmatch(key) and _row_of(key) == i for key in values):
            continue  # a row not in the post (dropped from an entry applied again) stays
        typed = _typed(values, i)
        if values.get(f"n{i}"):
            if typed or values.get(f"t{i}"):  # never dropped without a word
                grid.add(i, w.gettext("Guesses or a list, and “None”: keep one (untick "
                                      "“None”, or empty the row)."), f"n{i}")
            elif had != none and (none is not None or had is not None):
                grid.orders[name] = none
            continue
        if had == NO_ORDERS and none is not None and not typed and not values.get(f"t{i}"):
            grid.orders[name] = None  # None unticked on an empty row: not entered again
            continue
        if values.get(f"t{i}"):
            order: Any = _read_list(grid, values, i, players, w)
            if order is not None:
                order = {"list": order}
        else:
            guesses = _read_guesses(grid, values, i, box_count(allowance.get(name, 2)), w)
            order = guesses or None
            if not guesses and had is not None and i not in grid.rows:
                grid.add(i, w.gettext("The row was emptied: to take orders back use “Undo "
                                      "last entry”, or tick “No orders”."), f"g{i}_1")
        if order is not None and order != had:
            grid.orders[name] = order
            if i not in grid.rows:
                grid.sound[name] = order
    return grid


def _typed(values: Mapping[str, str], row: int) -> bool:
    """Whether a row's guess or list boxes hold anything."""
    return any(value.strip() and key[:1] in "gl" and _row_of(key) == row
               for key, value in values.items())


def _row_of(key: str) -> int:
    found = _ROW_KEY.fullmatch(key)
    return int(found[1] or found[2]) if found else -1


def typed_rows(values: Mapping[str, str]) -> dict[str, str]:
    """The post without its blank rows: what to apply again on a newer version, so a row
    another window filled meanwhile is not read as emptied."""
    typed = {_row_of(k) for k, v in values.items() if _ROW_KEY.fullmatch(k) and v.strip()}
    return {k: v for k, v in values.items() if _row_of(k) in typed or not _ROW_KEY.fullmatch(k)}


def absorb(grid: Grid, error: KitError, players: Sequence[str], w: Words | None = None
           ) -> None:
    """The engine's problems (``turn 3, player Cy: ...``), each on its player's row, in the
    page's language."""
    index = {name: i for i, name in enumerate(players)}
    for problem in each(error):
        found = _PLAYER.search(problem.field)
        row = index.get(player_of(problem) or (found[1] if found else ""))
        if row is None:
            grid.general.append(line(problem, w))
        else:
            grid.add(row, problem.text(w), _box_of(problem, row, index))


def _box_of(problem: KitError, row: int, index: Mapping[str, int]) -> str | None:
    """The input a problem is about: the list box of the player it names ("the list gives Bob
    99"), the guess it counts ("guess 2 is ..."); None: the row's first box."""
    values = problem.said.values if problem.said is not None else {}
    named = index.get(str(values.get("name", "")))
    if named is not None and named != row:
        return f"l{row}_{named}"
    guess = values.get("index")
    return f"g{row}_{guess}" if isinstance(guess, int) else None


def _problems(grid: Grid | None, i: int, is_list: bool) -> list[dict[str, str]]:
    """Row ``i``'s messages for the error summary, each linking to the box at fault (else
    the list toggle of a list, the first guess box of guesses)."""
    if grid is None:
        return []
    default = f"t{i}" if is_list else f"g{i}_1"
    targets = grid.targets.get(i, [])
    return [{"text": text, "box": (targets[n] if n < len(targets) else None) or default}
            for n, text in enumerate(grid.rows.get(i, []))]


def _posted_or(values: Mapping[str, str] | None, key: str, fallback: str) -> str:
    return values.get(key, "") if values is not None else fallback


def _shown_boxes(allowed: int, guesses: Sequence[int], posted: Mapping[str, str] | None,
                 i: int) -> int:
    """The row's guess boxes: the allowance and one dashed box, or one more than written."""
    typed = [int(m[1]) for key in posted or {} if (m := re.fullmatch(rf"g{i}_([0-9]+)", key))]
    return min(max([box_count(allowed), len(guesses) + 1, *typed]), MAX_BOXES)


_LIST_BOX = ('          <span class="box"><label for="{name}">{player}'
             '<span class="visually-hidden"> ({label})</span></label>'
             '<input type="text" inputmode="numeric" autocomplete="off"'
             ' id="{name}" name="{name}" value="{value}" size="3" data-enter="{enter}"{invalid}>'
             '</span>')


def list_boxes(i: int, name: str, players: Sequence[str], listed: Mapping[str, Any],
               posted: Mapping[str, str] | None, invalid: set[str], w: Words) -> Markup:
    """Row ``i``'s list boxes, one per other player, as HTML: written here rather than by the
    template, whose per-box work made most of a 100-player grid's 10,000 boxes' cost."""
    boxes = []
    others = [(j, other) for j, other in enumerate(players) if j != i]
    for n, (j, other) in enumerate(others, start=1):
        key = f"l{i}_{j}"
        value = _posted_or(posted, key, str(listed.get(other, "")))
        boxes.append(_LIST_BOX.format(
            name=key, player=escape(other), value=escape(value),
            label=escape(w.gettext("%(name)s’s list: %(other)s", name=name, other=other)),
            enter="row" if n == len(others) else "next",
            invalid=' aria-invalid="true"' if key in invalid else ""))
    return Markup("\n".join(boxes))


def grid_rows(players: Sequence[str], allowance: Mapping[str, int], current: Mapping[str, Any],
              w: Words, posted: Mapping[str, str] | None = None,
              grid: Grid | None = None, marks: Mapping[str, Mapping[int, str]] | None = None
              ) -> list[dict[str, object]]:
    """What the template shows per row: from the entries, or from a refused post; ``marks``:
    the guesses a ruling set aside ("void", "ignored"), by player and position."""
    rows = []
    invalid = set(grid.boxes) if grid else set()
    for i, name in enumerate(players):
        order = current.get(name)
        allowed = allowance.get(name, 2)
        is_list = isinstance(order, Mapping)
        guesses = list(order) if isinstance(order, list) else []
        listed = dict(order["list"]) if isinstance(order, Mapping) else {}
        ruled = (marks or {}).get(name, {}) if posted is None else {}
        boxes = []
        for k in range(1, _shown_boxes(allowed, guesses, posted, i) + 1):
            value = _posted_or(posted, f"g{i}_{k}", str(guesses[k - 1]) if k <= len(guesses)
                               else "")
            boxes.append({"name": f"g{i}_{k}", "k": k, "value": value, "extra": k > allowed,
                          "mark": ruled.get(k, ""),
                          "mark_text": w.gettext("(void)") if ruled.get(k) == "void" else
                          w.gettext("(ignored)") if ruled.get(k) else "",
                          "label": w.gettext("%(name)s, extra guess (beyond %(allowed)s)",
                                             name=name, allowed=allowed) if k > allowed else
                          w.gettext("%(name)s, guess %(k)s", name=name, k=k)})
        others = list_boxes(i, name, players, listed, posted, invalid, w)
        rows.append({
            "i": i, "name": name, "allowance": allowed, "guesses": boxes, "list": others,
            "is_list": bool(posted.get(f"t{i}")) if posted is not None else is_list,
            "none": bool(posted.get(f"n{i}")) if posted is not None else order == NO_ORDERS,
            "entered": name in current, "errors": (grid.rows.get(i, []) if grid else []),
            "problems": _problems(grid, i, is_list if posted is None else bool(
                posted.get(f"t{i}"))),
            "invalid": sorted(grid.boxes) if grid else [],
        })
    return rows
