"""TOML syntax errors said for people who do not write TOML every day.

``tomllib`` says "Invalid initial character for a key part (at line 45, column 45)"; a game
master typing a log at a party needs "line 45, column 45: a { ... } must be on one line".
``explain`` keeps the line and column, names the usual trap in plain words, and keeps the
parser's own words at the end for anyone who knows TOML.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from .errors import Msg, escaped
from .i18n import N_

MAX_NESTING = 32  # a game log nests three or four levels; Python's recursion limit is ~1,000
TOO_DEEP = N_("lists or tables are nested more than 32 levels deep")
TOO_LONG = N_("a number has more than 4300 digits")  # Python's own limit (int_max_str_digits)

WHERE = re.compile(r"^(?P<what>.*?) \(at line (?P<line>\d+), column (?P<column>\d+)\)$", re.S)
AT_END = re.compile(r"^(?P<what>.*?) \(at end of document\)$", re.S)
INLINE = N_("the { ... } of a list or table must be on one line; join this line with the next "
            "(a [ ... ] list may be split over lines, a { ... } may not)")
TRAPS = (
    ("Cannot overwrite a value", N_("a name is given twice in one table; in a game log that is "
     "usually the same player twice in one turn: keep one entry (orders that arrive late "
     "belong to the next turn)")),
    ("Cannot declare", N_("this table is declared twice; give each [table] once")),
    ("Unclosed array", N_("a [ ... ] list is not closed, or two of its values have no comma "
     "between them; write lists like [17, 33]")),
    ("Unclosed inline table", INLINE),
    ("Invalid value", N_("a value must be a number, \"text in quotes\", a [list] or a "
     "{ table }; names go in quotes, like players = [\"Ann\", \"Bob\"]")),
    ("Illegal character '\\n'", N_("a \"text\" is not closed on its line; add the closing "
     "quote")),
    ("Unterminated string", N_("a \"text\" is not closed; add the closing quote")),
    ("Expected '=' after a key", N_("write name = value, like Ann = [17, 33]")),
    ("Invalid initial character for a key part", N_("a name must start with a letter, a digit, "
     "_ or -, or be written in quotes")),
)


def _open_brace(text: str, line: int, column: int) -> bool:
    """Whether a { ... } is still open where the parser stopped (so it was split over
    lines)."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return False
    before = "\n".join(lines[: line - 1])
    return before.count("{") > before.count("}") or (
        lines[line - 1][: column - 1].count("{") > lines[line - 1][: column - 1].count("}")
        and column > len(lines[line - 1].rstrip()))


def nesting(value: object) -> int:
    """How deeply lists and tables (dicts) nest in ``value``: 0 for a plain value, 1 for a
    list of plain values. Walked without recursion, so any depth is measured."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item \
            if isinstance(item, list | tuple) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads`` with two more refusals, as ``TOMLDecodeError``s that ``explained``
    says in plain words: lists or tables nested past ``MAX_NESTING`` (deeper, ``tomllib``
    would raise ``RecursionError``) and a number past Python's digit limit (``int`` would
    raise a bare ``ValueError``)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except RecursionError:
        raise tomllib.TOMLDecodeError(TOO_DEEP) from None
    except ValueError as exc:
        if "digits" not in str(exc):
            raise tomllib.TOMLDecodeError(str(exc)) from None
        raise tomllib.TOMLDecodeError(TOO_LONG) from None
    if nesting(data) > MAX_NESTING:
        raise tomllib.TOMLDecodeError(TOO_DEEP)
    return data


def explain(text: str, message: str) -> str:
    """``message`` (a ``TOMLDecodeError``'s text for ``text``) as "line L, column C: what is
    wrong, in plain words (TOML: the parser's words)", in English."""
    return str(explained(text, message))


def explained(text: str, message: str) -> str | Msg:
    """What ``explain`` says, as a ``Msg`` a page says in its language (the parser's own words
    stay English)."""
    if message in (TOO_DEEP, TOO_LONG):  # ours (``loads``): no line to point at
        return Msg(message)
    found = WHERE.match(message)
    end = AT_END.match(message)
    if end:  # the parser ran out of text: the place is just after the last character
        lines = text.splitlines() or [""]
        what, line, column = end["what"], len(lines), len(lines[-1]) + 1
    elif not found:
        return escaped(message)
    else:
        what, line, column = found["what"], int(found["line"]), int(found["column"])
    plain = next((words for start, words in TRAPS if what.startswith(start)), "")
    if what.startswith(("Invalid initial character for a key part", "Invalid value",
                        "Expected '=' after a key")) and _open_brace(text, line, column):
        plain = INLINE
    if plain:
        return Msg(N_("line %(line)s, column %(column)s: %(plain)s (TOML: %(what)s)"),
                   line=str(line), column=str(column), plain=Msg(plain), what=escaped(what))
    return Msg(N_("line %(line)s, column %(column)s: %(what)s"), line=str(line),
               column=str(column), what=escaped(what))
