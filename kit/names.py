"""Player names that look alike: two names a player could mistake for each other on a page
or a slip (``Ann``, Cyrillic ``Аnn``, full-width ``Ａnn``, ``ANN``).

Compatibility forms are folded first (NFKC: full-width, ligatures, ...), then case; what is
left is compared character by character against the Unicode consortium's confusables list
(UTS #39), as the maintained ``confusable-homoglyphs`` package ships it.

Comparing every pair of 1,200 names is 720,000 comparisons, so a first pass gives each name a
``skeleton``: each character replaced by one member of its family, the characters the list or
a case mapping links to it, directly or through others. Two names that look alike have the
same skeleton, so only names that share one are compared (``LookAlikes``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from .errors import Msg
from .i18n import N_


def folded(name: str) -> str:
    """``name`` as two look-alike names may share it: NFKC, case folded."""
    return unicodedata.normalize("NFKC", name).casefold()


CASED_END = 0x20000  # every character with a case mapping is in Unicode's first two planes


@lru_cache(maxsize=1)
def _listed() -> dict[str, Any]:
    """The confusables list: a character -> the glyphs it may be mistaken for."""
    # loaded on first use: the list takes a tenth of a second, and most kits name no one
    from confusable_homoglyphs import confusables

    data: dict[str, Any] = confusables.confusables_data
    return data


def _glyphs_of(entries: Iterable[dict[str, str]]) -> frozenset[str]:
    """The glyphs of a character's entries in the list, without their direction marks."""
    return frozenset(glyph["c"].strip("\u200e") for glyph in entries)


@lru_cache(maxsize=4096)
def _glyphs(char: str) -> frozenset[str]:
    """The characters the confusables list says ``char`` may be mistaken for."""
    return _glyphs_of(_listed().get(char) or ())


def _cased() -> Iterable[str]:
    """Every character a case mapping changes, found a block at a time (most blocks have
    none, and the string methods test a whole block at C speed)."""
    block = 128
    for start in range(0, CASED_END, block):
        chars = "".join(map(chr, range(start, start + block)))
        if chars.upper() != chars or chars.lower() != chars or chars.casefold() != chars:
            yield from (c for c in chars
                        if c.upper() != c or c.lower() != c or c.casefold() != c)


@lru_cache(maxsize=1)
def _families() -> dict[str, str]:
    """Each character ``_same_look`` may pair with another, mapped to one representative of
    its family: the listed pairs and the case mappings (upper, lower, folded), joined
    transitively, so that characters that read the same share a representative."""
    parent: dict[str, str] = {}

    def root(node: str) -> str:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]  # path halving
            node = parent[node]
        return node

    def join(one: str, two: str) -> None:
        parent[root(one)] = root(two)

    for char, entries in _listed().items():
        if len(char) == 1:  # the list's sequences are never a character of a name
            for glyph in _glyphs_of(entries):
                if len(glyph) == 1:
                    join(char, glyph)
    for char in _cased():
        join(char, char.casefold())  # a folded form of several characters is a node too
        for other in (char.upper(), char.lower()):
            if len(other) == 1:
                join(char, other)
    return {node: root(node) for node in parent}


def skeleton(name: str) -> tuple[str, ...]:
    """``name`` with each character replaced by its family's representative: two names that
    look alike (``look_alike``) have the same skeleton."""
    families = _families()
    return tuple(families.get(c, c) for c in unicodedata.normalize("NFKC", name))


def _same_look(a: str, b: str) -> bool:
    """Whether two characters read the same, in either case: the list pairs ``A`` with
    Cyrillic ``А`` and ``a`` with ``а``, but a capital I and a small L only as they are."""
    if a.casefold() == b.casefold():
        return True
    return any(y in _glyphs(x) or x in _glyphs(y)
               for x, y in ((a, b), (a.upper(), b.upper()), (a.lower(), b.lower()))
               if len(x) == len(y) == 1)


def look_alike(name: str, other: str) -> bool:
    """Whether ``name`` and ``other`` read the same at a glance (the same name included)."""
    one, two = (unicodedata.normalize("NFKC", n) for n in (name, other))
    return len(one) == len(two) and all(_same_look(a, b) for a, b in zip(one, two, strict=True))


class LookAlikes:
    """Names given one by one, grouped by skeleton: ``like`` answers what comparing
    ``name`` with every name added (``look_alike``), in the order added, would answer,
    comparing only the names of its group."""

    def __init__(self) -> None:
        self._groups: dict[tuple[str, ...], list[str]] = {}

    def like(self, name: str) -> str | None:
        """The first name added that ``name`` looks like but is not (case aside), if any."""
        return next((other for other in self._groups.get(skeleton(name), ())
                     if other.casefold() != name.casefold() and look_alike(name, other)),
                    None)

    def add(self, name: str) -> None:
        """Count ``name`` among the names given, after those added before it."""
        self._groups.setdefault(skeleton(name), []).append(name)


def look_alike_msg(first: str, second: str) -> Msg:
    """The refusal of two names side by side that look alike."""
    return Msg(N_("“%(first)s” and “%(second)s” look alike; give every player a name that "
                  "differs at a glance, e.g. add an initial"), first=first, second=second)
