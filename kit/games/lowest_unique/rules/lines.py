"""Where things are in a Lowest Unique Number log's TOML text, so an error can name its line.

``tomllib`` gives plain data without positions. This scanner reads the same text for the lines
of the array-of-tables headers a log uses (``[[table]]``, ``[[table.round]]``, ``[[round]]``,
``[[tiebreak]]``)
and of the keys inside each block. It is deliberately small: when the text does not match the
data (an inline ``round = [...]`` array, say), callers get no line rather than a wrong one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

_HEADER = re.compile(r"\s*\[\[\s*([^\[\]]+?)\s*\]\]\s*(#.*)?$")
_TABLE = re.compile(r"\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")  # [round.choices]
_KEY = re.compile(r"""\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*=""")
_INLINE_KEY = re.compile(r"""(?:^|[{,])\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))"""
                         r"""\s*=""")


@dataclass
class Block:
    """One ``[[...]]`` block: the line of its header and the first line of each key in it."""

    line: int
    keys: dict[str, int] = field(default_factory=dict)

    def key_line(self, name: str, inside: str | None = None) -> int:
        """The line of key ``name`` (or of the inline table ``inside`` that holds it), else the
        header's line."""
        if inside is not None:  # a player called "table" is not the table key
            return self.keys.get(f"{inside}.{name}", self.keys.get(inside, self.line))
        return self.keys.get(name, self.line)


@dataclass
class LogLines:
    """The blocks of a log, in the shapes ``tomllib`` builds from them."""

    tables: list[Block] = field(default_factory=list)
    table_rounds: list[list[Block]] = field(default_factory=list)  # per [[table]]
    rounds: list[Block] = field(default_factory=list)  # top-level [[round]]
    tiebreaks: list[Block] = field(default_factory=list)  # top-level [[tiebreak]]

    def table(self, index: int, count: int) -> Block | None:
        return self.tables[index] if len(self.tables) == count else None

    def table_round(self, table: int, index: int, count: int) -> Block | None:
        blocks = self.table_rounds[table] if table < len(self.table_rounds) else []
        return blocks[index] if len(blocks) == count else None

    def round(self, index: int, count: int) -> Block | None:
        return self.rounds[index] if len(self.rounds) == count else None

    def tiebreak(self, index: int, count: int) -> Block | None:
        return self.tiebreaks[index] if len(self.tiebreaks) == count else None


def _key(match: re.Match[str]) -> str:
    quoted, literal, bare = match.groups()
    return quoted if quoted is not None else literal if literal is not None else bare


def _code_lines(source: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line outside multi-line strings."""
    inside: str | None = None
    for number, text in enumerate(source.splitlines(), start=1):
        start = inside is None
        for quote in ('"""', "'''"):
            if inside in (None, quote) and text.count(quote) % 2:
                inside = quote if inside is None else None
        if start:
            yield number, text


def locate(source: str) -> LogLines:
    """Scan a log's text for its blocks and keys."""
    found = LogLines()
    block: Block | None = None
    prefix = ""  # "choices." inside a [round.choices] table of the last [[round]] (or tiebreak)
    for number, text in _code_lines(source):
        header = _HEADER.match(text)
        if header:
            name = re.sub(r"""[\s"']""", "", header[1])
            block, prefix = Block(number), ""
            if name == "table":
                found.tables.append(block)
                found.table_rounds.append([])
            elif name == "table.round" and found.table_rounds:
                found.table_rounds[-1].append(block)
            elif name == "round":
                found.rounds.append(block)
            elif name == "tiebreak":
                found.tiebreaks.append(block)
            else:
                block = None
            continue
        table = _TABLE.match(text)
        if table:  # [round.choices] goes on with the last [[round]]; any other ends the block
            name = re.sub(r"""[\s"']""", "", table[1])
            if (name == "round.choices" and found.rounds and block is found.rounds[-1]) or (
                    name == "tiebreak.choices" and found.tiebreaks
                    and block is found.tiebreaks[-1]):
                block.keys.setdefault("choices", number)
                prefix = "choices."
            else:
                block = None
            continue
        key = _KEY.match(text)
        if block is None or key is None:
            continue
        name = prefix + _key(key)
        block.keys.setdefault(name, number)
        rest = text[key.end():]
        if rest.lstrip().startswith("{"):  # an inline table: its keys share this line
            for inner in _INLINE_KEY.finditer(rest.lstrip()[1:]):
                block.keys.setdefault(f"{name}.{_key(inner)}", number)
    return found
