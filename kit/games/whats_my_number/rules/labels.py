"""Player labels that can never be read as an answer in the same grid.

A turn report prints one column per player, headed by the player's label, and answers in its
cells: H, L and X in English (S, I in French and Spanish; H, N in German; Б, М in Russian). A
player labelled H or L (8 and 12 players in English), or I in French, would read like an answer,
so the labels skip every letter that equals or looks like an answer mark of the kit's language:
A ... G, I, J, K, M, ... in English. The letters themselves come from the answers, so a change in
a catalog moves the labels with it.
"""

from __future__ import annotations

import string
from collections.abc import Iterable

from ....errors import ConfigError
from .model import is_int, show

# capital letters of other alphabets that print like a Latin capital (a Russian М is an M)
LOOKALIKE = {"А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
             "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ι": "I", "Ο": "O", "Ѕ": "S", "І": "I"}


def reserved(marks: Iterable[str]) -> frozenset[str]:
    """The Latin capitals a label must not use: each answer mark, and what it looks like."""
    out = set()
    for mark in marks:
        upper = mark.strip().upper()
        out.add(LOOKALIKE.get(upper, upper))
    return frozenset(out)


def player_labels(count: int, marks: Iterable[str]) -> list[str]:
    """Spreadsheet-style labels from the letters that are no answer mark: with H, L and X
    taken, A ... G, I, J, K, M, ... W, Y, Z, then AA, AB, ... (bijective base 23)."""
    if not is_int(count) or count < 0:
        raise ConfigError("players", f"{show(count)} is not a player count (0 or more)")
    taken = reserved(marks)
    letters = [ch for ch in string.ascii_uppercase if ch not in taken]
    labels = []
    for index in range(1, count + 1):
        label = ""
        while index:
            index, rest = divmod(index - 1, len(letters))
            label = letters[rest] + label
        labels.append(label)
    return labels
