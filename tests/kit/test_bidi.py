"""Right-to-left names: our runs against python-bidi and against Chromium.

``kit.fonts`` takes the embedding levels from python-bidi (the Rust unicode-bidi crate) and does
the line's own part itself: rule L1, rule L2 line by line, the isolate marks left undrawn, the
runs cut by face. Random mixed strings must come out exactly as python-bidi lays them out, and
wrapped lines exactly as Chromium (ICU) lays them out; names with brackets in a kit PDF must sit
in the order Chromium gives them as plain HTML text.
"""

from __future__ import annotations

import html
import io
import random
import unicodedata
from pathlib import Path

import pytest
from bidi import get_display
from pypdf import PdfReader

from kit import fonts
from kit.cli import main

LATIN = ["Ann", "Bob", "Cohen", "Jr.", "Mr.", "Dé", "x"]
HEBREW = ["דוד", "כהן", "אבי", "שרה", "חנה"]
ARABIC = ["محمد", "علي", "سارة", "فاطمة"]
DIGITS = ["2", "17", "٣", "٢٠", "۴"]  # European, Arabic-Indic (AN), extended (EN in Persian)
PUNCT = [".", ",", ":", "!", "?", "%", "/", "+", "#", "·", "«", "»", "\u201c", "\u201d"]
MARKS = ["\u05b4", "\u064e", "\u0301"]  # a Hebrew point, an Arabic fatha, a Latin acute
BRACKETS = [("(", ")"), ("[", "]"), ("{", "}")]
BRACKET_NAMES = ["דוד (David) Cohen", "Mo (محمد) علي", "علي (Ali) 2", "Mr. כהן (Jr.)",
                 "שרה [Sara] 3", "אבי 2"]


def _token(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.3:
        word = rng.choice(HEBREW + ARABIC)
    elif kind < 0.55:
        word = rng.choice(LATIN)
    elif kind < 0.7:
        word = rng.choice(DIGITS)
    elif kind < 0.85:
        word = rng.choice(PUNCT) + rng.choice(HEBREW + LATIN + DIGITS)
    else:
        left, right = rng.choice(BRACKETS)
        word = left + rng.choice(HEBREW + ARABIC + LATIN + DIGITS) + right
    if rng.random() < 0.15:
        at = rng.randrange(1, len(word) + 1)
        word = word[:at] + rng.choice(MARKS) + word[at:]
    return word


def _mixed(rng: random.Random) -> str:
    """A name-like string: words of three scripts, digits, brackets, punctuation, marks and,
    now and then, an isolated part (as ``fonts.isolate`` marks a name in a longer line)."""
    words = [_token(rng) for _ in range(rng.randint(1, 7))]
    if len(words) > 2 and rng.random() < 0.3:
        a = rng.randrange(len(words) - 1)
        b = rng.randrange(a + 1, len(words) + 1)
        words[a:b] = [fonts.isolate(" ".join(words[a:b]))]
    return " ".join(words)


def _shown(runs: tuple[fonts.Run, ...]) -> str:
    """What a line shows, left to right, characters unmirrored (as python-bidi writes them)."""
    return "".join(run.text[::-1] if run.rtl else run.text for run in runs)


def _visible(text: str) -> str:
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def test_the_named_departures_are_gone() -> None:
    # bracket pairs (N0): the Latin in brackets stays with its brackets
    assert _shown(fonts.line((("דוד (David) Cohen", "regular"),))) == "Cohen )David( דוד"
    assert _shown(fonts.line((("Mo (محمد) علي", "regular"),))) == "Mo (دمحم) يلع"
    # levels from the whole paragraph: the second line of a wrapped name stays left to right
    first, second = fonts.lines(((("Mr.", "regular"),), (("כהן (Jr.)", "regular"),)))
    assert _shown(first) == "Mr." and _shown(second) == "ןהכ (Jr.)"
    # an isolated name keeps to itself: its neighbour does not swap places with it
    assert _shown(fonts.line((("שרה " + fonts.isolate("Ann 2") + " 3", "regular"),))) == \
        "3 Ann 2 הרש"


def test_random_lines_match_python_bidi() -> None:
    rng = random.Random(19)
    differences = []
    for _ in range(3000):
        text = _mixed(rng)
        ours = _visible(_shown(fonts.line(((text, "regular"),))))
        theirs = _visible(get_display(text))
        if ours != theirs:
            differences.append((text, ours, theirs))
    assert not differences, differences[:5]


def test_styled_parts_do_not_change_the_order() -> None:
    rng = random.Random(7)
    for _ in range(300):
        text = _mixed(rng)
        cut = rng.randrange(len(text) + 1)
        parts = tuple(p for p in ((text[:cut], "bold"), (text[cut:], "regular")) if p[0])
        if parts:
            assert _visible(_shown(fonts.line(parts))) == _visible(get_display(text)), text


# --- Chromium ----------------------------------------------------------------------------------

_LAYOUT_JS = """(width) => Array.from(document.querySelectorAll('p')).map(p => {
  const node = p.firstChild, out = [];
  for (let i = 0; i < node.length; i++) {
    const range = document.createRange();
    range.setStart(node, i); range.setEnd(node, i + 1);
    const r = range.getBoundingClientRect();
    out.push([i, r.left + r.width / 2, Math.round(r.top + r.height / 2)]);
  }
  return out;
})"""


def _chromium_layout(printer, texts: list[str], width: str) -> list[list[tuple[int, float, int]]]:
    """Each character's (logical index, x centre, line y) as Chromium lays the texts out."""
    body = "".join(f'<p dir="auto">{html.escape(t)}</p>' for t in texts)  # first strong
    page = printer.browser.new_page()
    try:
        page.set_content("<!doctype html><meta charset=utf-8><style>p{width:" + width
                         + ";font:16px sans-serif;margin:0 0 1em}</style>" + body)
        return page.evaluate(_LAYOUT_JS, width)
    finally:
        page.close()


def _chromium_lines(text: str, layout: list[tuple[int, float, int]]) -> list[tuple[str, str]]:
    """The logical text of each line, and what it shows left to right (no spaces, no marks)."""
    rows: dict[int, list[tuple[int, float]]] = {}
    for index, x, y in layout:
        if not text[index].isspace() and unicodedata.category(text[index])[0] not in "CM":
            rows.setdefault(y, []).append((index, x))
    out = []
    for y in sorted(rows):
        chars = rows[y]
        low, high = min(i for i, _ in chars), max(i for i, _ in chars)
        shown = "".join(text[i] for i, _ in sorted(chars, key=lambda c: c[1]))
        out.append((text[low:high + 1], shown))
    return out


def _plain(text: str) -> str:
    return "".join(ch for ch in text if not ch.isspace()
                   and unicodedata.category(ch)[0] not in "CM")


@pytest.mark.slow
def test_wrapped_lines_match_chromium(chromium_printer) -> None:
    rng = random.Random(2026)
    texts = []
    while len(texts) < 300:
        text = " ".join(_token(rng) for _ in range(rng.randint(3, 8)))
        if not any(m in text for m in MARKS) and "/" not in text:  # marks share a box
            texts.append(text)
    compared = 0
    differences = []
    for text, layout in zip(texts, _chromium_layout(chromium_printer, texts, "5em"), strict=True):
        lines = _chromium_lines(text, layout)
        logical = [line for line, _ in lines]
        if " ".join(logical) != text:  # a break Chromium took somewhere other than a space
            continue
        compared += 1
        ours = fonts.lines(tuple(((line, "regular"),) for line in logical))
        mine = [_plain(_shown(runs)) for runs in ours]
        if mine != [shown for _, shown in lines]:
            differences.append((text, mine, [shown for _, shown in lines]))
    assert compared >= 200, compared  # most breaks fall at spaces
    assert not differences, differences[:5]


def _kit_lines(pdf_file: Path) -> list[str]:
    """Every piece of text a PDF shows, left to right as it lies on the page (no spaces).

    The text layer is read character by character, each at its origin: a right-to-left run's
    hidden text is written as it lies on the page, under its shaped glyphs. Text on one
    baseline more than 30 pt apart (two slips side by side) is two pieces.
    """
    import ctypes

    import pypdfium2
    import pypdfium2.raw as raw

    out = []
    document = pypdfium2.PdfDocument(pdf_file)
    try:
        for page in document:
            textpage = page.get_textpage()
            rows: dict[float, list[tuple[float, str]]] = {}
            for i in range(textpage.count_chars()):
                ch = textpage.get_text_range(i, 1)
                x, y = ctypes.c_double(), ctypes.c_double()
                if _plain(ch) and raw.FPDFText_GetCharOrigin(textpage, i, x, y):
                    rows.setdefault(round(y.value, 1), []).append((x.value, ch))
            for chars in rows.values():
                chars.sort()
                piece = chars[0][1]
                for (x0, _), (x1, ch) in zip(chars, chars[1:], strict=False):
                    if x1 - x0 > 30:
                        out.append(piece)
                        piece = ""
                    piece += ch
                out.append(piece)
    finally:
        document.close()
    return out


def _bracket(text: str) -> str:
    """Brackets as one sign: PDFium mirrors them in extracted text by a guess of its own, so
    the comparison is of where they stand, not of which way they face."""
    return "".join("|" if ch in "()[]{}" else ch for ch in text)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["lowest-unique", "whats-my-number"])
def test_names_with_brackets_in_a_kit_read_as_in_chromium(game: str, tmp_path: Path,
                                                          chromium_printer) -> None:
    assert main(["build", game, "--names", ",".join(BRACKET_NAMES), "--out", str(tmp_path)]) == 0
    (folder,) = [p for p in tmp_path.iterdir() if not p.name.startswith(".")]
    lines = _kit_lines(folder / "player-kit.pdf") + _kit_lines(folder / "host-answers.pdf")
    layouts = _chromium_layout(chromium_printer, BRACKET_NAMES, "auto")
    for name, layout in zip(BRACKET_NAMES, layouts, strict=True):
        ((_, chromium),) = _chromium_lines(name, layout)
        printed = {_bracket(piece) for piece in lines
                   if sorted(_bracket(piece)) == sorted(_bracket(_plain(name)))}
        assert printed == {_bracket(chromium)}, (name, printed, chromium)


def test_the_text_layer_keeps_the_space_between_a_name_and_its_number() -> None:
    from kit.layout import model, pdf

    data = pdf.draw([pdf.PdfPage(210, 297, tuple(model.text(20, 30, "אבי 2", 14)))], "t")
    assert "אבי 2" in PdfReader(io.BytesIO(data)).pages[0].extract_text()
