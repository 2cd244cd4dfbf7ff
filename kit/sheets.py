"""The paper a built kit takes: sheets per PDF, and a warning for a file over 100 sheets.

Read back from the files written: a file that asks for one-sided printing (``/Duplex
/Simplex``) takes a sheet a page; any other, printed on both sides, a sheet for two pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .game import KitConfig

MANY_SHEETS = 100  # more than a ream's fifth: worth a word before the host presses Print


def pages_and_sides(pdf: Path) -> tuple[int, bool]:
    """The file's page count and whether it asks to be printed one-sided."""
    from pypdf import PdfReader
    from pypdf.generic import DictionaryObject

    reader = PdfReader(pdf)
    found = reader.root_object.get("/ViewerPreferences")
    preferences = found.get_object() if found is not None else None
    return len(reader.pages), (isinstance(preferences, DictionaryObject)
                               and preferences.get("/Duplex") == "/Simplex")


def _count(number: int, word: str) -> str:
    return f"{number} {word}" + ("" if number == 1 else "s")


def _advice(pdf: Path, config: KitConfig) -> str:
    """How to print less at once: fewer turns' forms, or one table's file at a time."""
    turns = getattr(config.settings, "turns", None)
    if isinstance(turns, int) and turns > 1:
        return (f"print fewer turns' forms at a time (--turns, now {turns}) and build again "
                "if the game runs longer")
    if pdf.name.startswith("all-tables"):
        return "print each table's own file (player-kit-table-N.pdf) when that table needs it"
    return ""


def paper_lines(paths: Sequence[Path], configs: Sequence[KitConfig]) -> list[str]:
    """A line per PDF written ("PATH: 12 sheets, one-sided"), then a ``Warning:`` line per
    file over ``MANY_SHEETS`` sheets."""
    folders = {Path(config.out) / config.folder_name: config for config in configs}
    lines: list[str] = []
    warnings: list[str] = []
    for pdf in (p for p in paths if p.suffix == ".pdf"):
        pages, one_sided = pages_and_sides(pdf)
        sheets = pages if one_sided else (pages + 1) // 2
        if one_sided:
            lines.append(f"{pdf}: {_count(sheets, 'sheet')}, one-sided")
        else:
            lines.append(f"{pdf}: {_count(pages, 'page')}, {_count(sheets, 'sheet')} printed "
                         "on both sides")
        config = folders.get(pdf.parent)
        if sheets > MANY_SHEETS and config is not None:
            advice = _advice(pdf, config)
            warnings.append(f"Warning: {pdf} takes {sheets} sheets" + (
                f": {advice}." if advice else "."))
    return lines + warnings
