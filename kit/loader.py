"""Importing WeasyPrint without a compiler run per library name it guesses.

WeasyPrint opens its C libraries (GObject, Pango, HarfBuzz, Fontconfig) by trying several names
for each, as they are spelled on Linux, macOS and Windows. Every name the dynamic loader does
not know sends ``ctypes.util.find_library`` through ``ldconfig -p``, then ``gcc``, then ``ld``:
about 20 programs and 0.2 s, a third of the import and so of a cold ``kit build``. On Linux the
loader's own cache, listed once, answers the same question as ``find_library``'s first step;
a name it does not list is one the loader would not open by itself either, and WeasyPrint goes
on to its next spelling. Elsewhere the import is left as it is.
"""

from __future__ import annotations

import os
import re
import struct
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

LDCONFIG = "/sbin/ldconfig"
# the ABI the loader's cache names beside a library this interpreter can open, as ctypes says
_ABI = {"x86_64-64": "libc6,x86-64", "ppc64-64": "libc6,64bit", "sparc64-64": "libc6,64bit",
        "s390x-64": "libc6,64bit", "ia64-64": "libc6,IA-64"}


def loader_cache() -> Callable[[str], str | None] | None:
    """``find_library`` answered from one listing of the loader's cache (None: no listing)."""
    try:
        listing = subprocess.run([LDCONFIG, "-p"], capture_output=True, check=True, timeout=10,
                                 env={"LC_ALL": "C", "LANG": "C"}).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    bits = "-32" if struct.calcsize("l") == 4 else "-64"
    abi = re.escape(_ABI.get(os.uname().machine + bits, "libc6"))

    def find(name: str) -> str | None:
        found = re.search(rb"\s+(lib%s\.[^\s]+)\s+\(%s" % (re.escape(name).encode(),
                                                            abi.encode()), listing)
        return os.fsdecode(found.group(1)) if found else None

    return find


@contextmanager
def _library_lookup(find: Callable[[str], str | None]) -> Iterator[None]:
    import ctypes.util

    original = ctypes.util.find_library
    ctypes.util.find_library = find  # type: ignore[assignment]  # the same signature
    try:
        yield
    finally:
        ctypes.util.find_library = original


def import_weasyprint() -> None:
    """Import WeasyPrint, its library names looked up in the loader's cache on Linux."""
    if "weasyprint" in sys.modules:
        return
    find = loader_cache() if sys.platform == "linux" else None
    if find is None:
        import weasyprint  # noqa: F401
        return
    with _library_lookup(find):
        import weasyprint  # noqa: F401
