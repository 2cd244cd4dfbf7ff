"""Shaped names never hide the text drawn after them: every character a page carries is inked.

A shaped run (Hebrew, Arabic, Devanagari, Thai) is drawn as glyph outlines over invisible text
(render mode 3, stretched with Tz). The text drawn after it, such as a page's running head,
"GAME MASTER ONLY" footer and page number, must be visible again. Each page of the kits of both
games and of both games' ``kit report`` files is rendered by PDFium, and every character of its
text layer must have ink in its box: text that only extraction finds fails.
"""

from __future__ import annotations

import ctypes
import json
import unicodedata
from pathlib import Path

import pytest

from kit.cli import main

HEBREW, ARABIC, DEVANAGARI, THAI = "אברהם", "فاطمة", "प्रिया", "สมชาย"
# a shaped name first, in the middle and last, each script at an end in one of the two orders
ORDERS = {
    "hebrew-last": [THAI, "Ann", ARABIC, "Bob", DEVANAGARI, "Cy", HEBREW],
    "thai-last": [HEBREW, "Ann", DEVANAGARI, "Bob", ARABIC, "Cy", THAI],
    "one-shaped-last": ["Ann", "Bob", "Cy", HEBREW],
}
DARK = 128  # a gray level (0 black, 255 white) that only ink reaches at 144 dpi
SCALE = 2  # 144 dpi


def _uninked(pdf_file: Path) -> list[str]:
    """``page: text`` for every character of the text layer with no ink in its box."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    missing = []
    document = pdfium.PdfDocument(pdf_file)
    try:
        for number, page in enumerate(document, start=1):
            image = page.render(scale=SCALE, grayscale=True).to_pil().convert("L")
            height = page.get_height()
            textpage = page.get_textpage()
            bare = []
            for i in range(textpage.count_chars()):
                char = textpage.get_text_range(i, 1)
                # a combining mark's box in the hidden text need not lie under its shaped ink
                if not char.strip() or unicodedata.category(char).startswith("M"):
                    continue
                left, right = ctypes.c_double(), ctypes.c_double()
                bottom, top = ctypes.c_double(), ctypes.c_double()
                raw.FPDFText_GetCharBox(textpage, i, left, right, bottom, top)
                box = (int(left.value * SCALE) - 1, int((height - top.value) * SCALE) - 1,
                       int(right.value * SCALE) + 2, int((height - bottom.value) * SCALE) + 2)
                if box[2] - box[0] > 2 and box[3] - box[1] > 2 \
                        and image.crop(box).getextrema()[0] >= DARK:
                    bare.append(char)
            if bare:
                missing.append(f"page {number}: {''.join(bare)}")
    finally:
        document.close()
    return missing


def _pdfs(folder: Path) -> list[Path]:
    found = sorted(folder.rglob("*.pdf"))
    assert found
    return found


def _wmn_log(names: list[str]) -> str:
    """A legal What's My Number? log: each player guesses the next one's secret, then misses,
    but the second submits a list and the last gives no orders (the register's last line
    names them)."""
    secrets = {name: 5 * i + 3 for i, name in enumerate(names)}
    lines = ['game = "whats-my-number"', f"players = {json.dumps(names)}", "[secrets]"]
    lines += [f"{json.dumps(name)} = {value}" for name, value in secrets.items()]
    lines.append("[[turn]]")
    for i, name in enumerate(names[:-1]):
        if i == 1:
            entries = ", ".join(f"{json.dumps(other)} = 2" for other in names if other != name)
            lines.append(f"{json.dumps(name)} = {{ list = {{ {entries} }} }}")
        else:
            lines.append(f"{json.dumps(name)} = [{secrets[names[i + 1]]}, {i + 1}]")
    return "\n".join(lines) + "\n"


def _lun_log(names: list[str]) -> str:
    """A legal Lowest Unique Number log: one table, two rounds."""
    lines = ['game = "lowest-unique"', "rounds = 2", "[[table]]",
             f"players = {json.dumps(names)}"]
    for offset in (0, 3):
        lines.append("[[table.round]]")
        lines += [f"{json.dumps(name)} = {(i + offset) % 10 + 1}" for i, name in enumerate(names)]
    return "\n".join(lines) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("order", sorted(ORDERS))
@pytest.mark.parametrize("game", ["lowest-unique", "whats-my-number"])
def test_every_kit_page_inks_its_text_after_shaped_names(game: str, order: str,
                                                          tmp_path: Path) -> None:
    names = ",".join(ORDERS[order])
    assert main(["build", game, "--names", names, "--out", str(tmp_path)]) == 0
    for pdf_file in _pdfs(tmp_path):
        assert _uninked(pdf_file) == [], pdf_file.name


@pytest.mark.slow
@pytest.mark.parametrize("order", sorted(ORDERS))
@pytest.mark.parametrize("game", ["lowest-unique", "whats-my-number"])
def test_every_report_page_inks_its_text_after_shaped_names(game: str, order: str,
                                                            tmp_path: Path) -> None:
    log = tmp_path / "game.toml"
    write = _lun_log if game == "lowest-unique" else _wmn_log
    log.write_text(write(ORDERS[order]), encoding="utf-8")
    assert main(["report", str(log), "--out", str(tmp_path / "out")]) == 0
    for pdf_file in _pdfs(tmp_path / "out"):
        assert _uninked(pdf_file) == [], pdf_file.name


def test_the_check_finds_text_that_is_only_extractable(tmp_path: Path) -> None:
    from reportlab.pdfgen.canvas import Canvas

    pdf_file = tmp_path / "hidden.pdf"
    canvas = Canvas(str(pdf_file))
    text = canvas.beginText(72, 700)
    text.setFont("Helvetica", 12)
    text.textOut("Shown")
    text.setTextRenderMode(3)
    text.setTextOrigin(72, 600)
    text.textOut("Hidden")
    canvas.drawText(text)
    canvas.save()
    assert _uninked(pdf_file) == ["page 1: Hidden"]
