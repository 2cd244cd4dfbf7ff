"""What the What's My Number? pages share: the players as printed, and small layout maths."""

from __future__ import annotations

from dataclasses import dataclass

from ...game import KitConfig
from . import rules

MIN_CELL_MM = 7.0  # smallest cell a pen can write a letter in
MIN_TEXT_PT = 8.0  # smallest text anyone reads


@dataclass(frozen=True)
class Person:
    """A player as the pages print them: a letter (A ... Z, AA ...) and maybe a name."""

    index: int
    letter: str
    name: str = ""

    @property
    def text(self) -> str:
        """"A · Ann" with a name, else "A"."""
        return f"{self.letter} · {self.name}" if self.name else self.letter


def people(config: KitConfig) -> list[Person]:
    letters = rules.player_labels(config.players)
    names = list(config.names) or [""] * config.players
    return [Person(i, letter, name)
            for i, (letter, name) in enumerate(zip(letters, names, strict=True))]


def split(count: int, parts: int) -> list[tuple[int, int]]:
    """``range(count)`` cut into ``parts`` runs as equal as possible, larger runs first."""
    size, extra = divmod(count, parts)
    out, start = [], 0
    for i in range(parts):
        stop = start + size + (1 if i < extra else 0)
        out.append((start, stop))
        start = stop
    return out
