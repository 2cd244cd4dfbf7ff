"""WeasyPrint's library lookups answered from the loader's cache, as ``find_library`` would."""

from __future__ import annotations

import ctypes.util
import sys

import pytest

from kit.loader import loader_cache


@pytest.mark.skipif(sys.platform != "linux", reason="the loader's cache is glibc's")
@pytest.mark.parametrize("name", ["gobject-2.0", "pango-1.0", "harfbuzz", "fontconfig",
                                  "pangoft2-1.0", "c", "m", "libgobject-2.0-0",
                                  "no-such-library-at-all"])
def test_the_loaders_cache_answers_as_find_library(name: str) -> None:
    """The same answer as ``ctypes.util.find_library`` for a library the loader knows (and
    for the spellings of other systems WeasyPrint tries, none)."""
    find = loader_cache()
    assert find is not None
    assert find(name) == ctypes.util.find_library(name)
