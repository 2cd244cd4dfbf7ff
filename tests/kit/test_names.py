"""Names that look alike (``kit.names``): the skeleton first pass never separates two names
that look alike, so ``LookAlikes`` answers what comparing every pair answers; ``kit build``
takes 1,200 distinct names and refuses look-alikes."""

from __future__ import annotations

import sys
from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from kit.names import CASED_END, LookAlikes, _listed, look_alike, skeleton
from kit.options import MAX_PLAYERS, Names


def every_pair(name: str, earlier: Iterable[str]) -> str | None:
    """What the console answered by comparing ``name`` with every earlier name."""
    return next((other for other in earlier if other.casefold() != name.casefold()
                 and look_alike(name, other)), None)


def test_every_listed_pair_and_every_case_pair_shares_a_skeleton() -> None:
    pairs = [(char, glyph["c"].strip("\u200e")) for char, glyphs in _listed().items()
             if len(char) == 1 for glyph in glyphs]
    pairs += [(char, other) for char in map(chr, range(CASED_END))
              for other in (char.upper(), char.lower(), char.casefold()) if other != char]
    assert len(pairs) > 10_000
    apart = [(a, b) for a, b in pairs if look_alike(a, b) and skeleton(a) != skeleton(b)]
    assert apart == []


def test_no_character_past_the_first_two_planes_has_a_case_mapping() -> None:
    cased = [hex(i) for i in range(CASED_END, sys.maxunicode + 1)
             if (c := chr(i)).upper() != c or c.lower() != c or c.casefold() != c]
    assert cased == []


def test_look_alikes_share_a_skeleton_and_others_mostly_do_not() -> None:
    assert skeleton("Ann") == skeleton("Аnn") == skeleton("Ａnn") == skeleton("ANN")
    assert skeleton("Ann") != skeleton("Bob") and skeleton("Ann") != skeleton("Anne")


# Latin, Cyrillic and Greek look-alikes, full-width forms and capitals: many collide
POOL = ["Ann", "Аnn", "Ａnn", "ANN", "Anna", "Bob", "Вob", "ВОВ", "Rob", "Cy", "Су", "Ϲy",
        "Il", "lI", "Il1", "Eve", "Еvе", "Zoë", "Zoe\u0308", "Dee", "Oli", "0li", "Ari"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(POOL) | st.text(alphabet="AaIl1OoеЕ0 ", min_size=1,
                                                 max_size=4), max_size=12))
def test_look_alikes_answer_what_comparing_every_pair_answers(names: list[str]) -> None:
    alike = LookAlikes()
    for index, name in enumerate(names):
        assert alike.like(name) == every_pair(name, names[:index])
        alike.add(name)


def distinct_names(count: int) -> list[str]:
    firsts = ["Ada", "Ben", "Cleo", "Dan", "Emma", "Finn", "Gus", "Hana", "Ivo", "Jade",
              "Kurt", "Lena", "Mia", "Ned", "Omar", "Pia", "Quin", "Rosa", "Sven", "Tara",
              "Ugo", "Vera", "Walt", "Xena", "Yuki", "Zack", "Bea", "Cal", "Dora", "Eli"]
    lasts = ["Abbott", "Baker", "Castro", "Dietz", "Engel", "Fisher", "Garcia", "Hoffman",
             "Ito", "Jensen", "Kowalski", "Lindqvist", "Moreau", "Novak", "Ortega", "Petrov",
             "Quist", "Rossi", "Schmidt", "Tanaka", "Ueda", "Vargas", "Weber", "Xu", "Yilmaz",
             "Zhang", "Bauer", "Costa", "Dubois", "Eriksen", "Ferrari", "Gomez", "Horvat",
             "Ivanov", "Jovanovic", "Keller", "Larsen", "Meyer", "Nakamura", "Olsen"]
    return [f"{first} {last}" for last in lasts for first in firsts][:count]


def test_twelve_hundred_distinct_names_are_accepted() -> None:
    names = distinct_names(MAX_PLAYERS)
    assert len(set(names)) == MAX_PLAYERS == 1200
    assert Names().convert("names", names) == tuple(names)
    assert Names().convert("names", ",".join(names)) == tuple(names)
