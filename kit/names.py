"""Player names that look alike: two names a player could mistake for each other on a page
or a slip (``Ann``, Cyrillic ``Аnn``, full-width ``Ａnn``, ``ANN``).

Compatibility forms are folded first (NFKC: full-width, ligatures, ...), then case; what is
left is compared character by character against the Unicode consortium's confusables list
(UTS #39), as the maintained ``confusable-homoglyphs`` package ships it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from .errors import Msg
from .i18n import N_


def folded(name: str) -> str:
    """``name`` as two look-alike names may share it: NFKC, case folded."""
    return unicodedata.normalize("NFKC", name).casefold()


@lru_cache(maxsize=4096)
def _glyphs(char: str) -> frozenset[str]:
    """The characters the confusables list says ``char`` may be mistaken for."""
    # loaded on first use: the list takes a tenth of a second, and most kits name no one
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(char, greedy=True, preferred_aliases=[])
    if not found:
        return frozenset()
    return frozenset(glyph["c"].strip("\u200e") for glyph in found[0]["homoglyphs"])


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


def resembled(name: str, earlier: Iterable[str]) -> str | None:
    """The first of ``earlier`` that ``name`` looks like but is not (case aside), if any."""
    return next((other for other in earlier if other.casefold() != name.casefold()
                 and look_alike(name, other)), None)


def look_alike_msg(first: str, second: str) -> Msg:
    """The refusal of two names side by side that look alike."""
    return Msg(N_("“%(first)s” and “%(second)s” look alike; give every player a name that "
                  "differs at a glance, e.g. add an initial"), first=first, second=second)
