"""Player names in any script the bundled fonts cover, in the PDF and in the HTML.

Kits are built in-process with a name in each script; the PDFs must give the names back through
their text layer in reading order, embed only our fonts, and the HTML must carry the names and
print with our fonts only. The pieces under it (faces, bidirectional runs, shaping, the two
backends) are checked on their own below.
"""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from support.helpers import ROOT, bundled_font_names, embedded_fonts

from kit import fonts
from kit.cli import main
from kit.layout import fit, model, pdf, svg
from kit.resources import font_path

NAMES = {
    "latin": "Ångström-Øre Müller",
    "vietnamese": "Nguyễn Văn Bảo",
    "greek": "Δημήτρης",
    "cyrillic": "Анна Каренина",
    "hebrew": "דוד כהן",
    "arabic": "فاطمة الزهراء",
    "devanagari": "प्रिया शर्मा",
    "thai": "สมชาย ใจดี",
    "chinese": "王小明",
    "japanese": "さくら・やまだ",
    "korean": "김민준",
}
# the face that must draw each script somewhere in a kit (regular or bold)
SCRIPT_FACE = {"greek": "KitSans", "cyrillic": "KitSans", "vietnamese": "KitSans",
               "hebrew": "KitHebrew", "arabic": "KitArabic", "devanagari": "KitDevanagari",
               "thai": "KitThai", "chinese": "KitCJK", "japanese": "KitCJK", "korean": "KitCJK"}


def _build(out: Path, game: str) -> Path:
    code = main(["build", game, "--names", ",".join(NAMES.values()), "--out", str(out)])
    assert code == 0
    (folder,) = [p for p in out.iterdir() if not p.name.startswith(".")]
    return folder


@pytest.fixture(scope="module")
def lun(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory.mktemp("scripts-lun"), "lowest-unique")


@pytest.fixture(scope="module")
def wmn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(tmp_path_factory.mktemp("scripts-wmn"), "whats-my-number")


def _text(pdf_file: Path | bytes) -> str:
    """The PDF's text layer, read by PDFium (pypdf reads the same, ten times slower)."""
    import pypdfium2

    data = pdf_file.read_bytes() if isinstance(pdf_file, Path) else pdf_file
    document = pypdfium2.PdfDocument(data)
    try:
        return "\n".join(document[i].get_textpage().get_text_range()
                         for i in range(len(document)))
    finally:
        document.close()


# --- kits --------------------------------------------------------------------------------------

@pytest.mark.parametrize("kit", ["lun", "wmn"])
def test_every_name_reads_back_from_the_pdf_in_reading_order(kit: str,
                                                             request: pytest.FixtureRequest
                                                             ) -> None:
    folder: Path = request.getfixturevalue(kit)
    text = _text(folder / "player-kit.pdf")
    for script, name in NAMES.items():
        assert name in text, (script, name)
    if kit == "wmn":  # the host's secret register lists every player
        host = _text(folder / "host-answers.pdf")
        assert all(name in host for name in NAMES.values())


@pytest.mark.parametrize("kit", ["lun", "wmn"])
def test_only_bundled_fonts_are_embedded(kit: str, request: pytest.FixtureRequest) -> None:
    folder: Path = request.getfixturevalue(kit)
    used: set[str] = set()
    for pdf_file in folder.glob("*.pdf"):
        found = embedded_fonts(pdf_file)
        assert found and set(found) <= bundled_font_names(), (pdf_file.name, set(found))
        assert all(found.values()), pdf_file.name
        used |= set(found)
    for script, family in SCRIPT_FACE.items():
        assert any(name.startswith(family) for name in used), (script, used)


@pytest.mark.parametrize("kit", ["lun", "wmn"])
def test_the_html_carries_the_names_and_the_fonts(kit: str,
                                                  request: pytest.FixtureRequest) -> None:
    folder: Path = request.getfixturevalue(kit)
    page = (folder / "player-kit.html").read_text(encoding="utf-8")
    # a name is one <text> per run (face and direction), in reading order
    runs = " ".join(html.unescape(t).strip() for t in re.findall(r"<text[^>]*>([^<]*)</text>",
                                                                   page))
    for script, name in NAMES.items():
        assert name in runs, (script, name)
    # right-to-left runs are written right to left; shaped runs keep the browser's shaping
    assert re.search(r'<text class="f-hebrew[^"]*" [^>]*direction="rtl"[^>]*>דוד כהן</text>',
                     page)
    assert re.search(r'<text class="f-devanagari(-bold)? s"[^>]*>प्रिया शर्मा</text>', page)
    for name in fonts.FONT_FILES + fonts.LICENCE_FILES:  # the bundled files, byte for byte
        assert (folder / "fonts" / name).read_bytes() == font_path(name).read_bytes(), name


@pytest.mark.slow
def test_the_html_prints_with_the_bundled_fonts_only(wmn: Path, chromium_printer) -> None:
    printed = chromium_printer.print_pdf(wmn / "player-kit.html")
    reader = PdfReader(io.BytesIO(printed))
    labels = {str(font.get_object()["/BaseFont"]).lstrip("/").split("+", 1)[-1]
              for page in reader.pages
              for font in page["/Resources"].get_object().get("/Font", {}).values()}
    assert labels and labels <= bundled_font_names(), labels
    for family in set(SCRIPT_FACE.values()):
        assert any(label.startswith(family) for label in labels), family
    assert len(reader.pages) == len(PdfReader(wmn / "player-kit.pdf").pages)
    text = _text(printed)
    for script in ("greek", "cyrillic", "hebrew", "chinese", "japanese", "korean"):
        assert NAMES[script] in text, script


@pytest.mark.slow
def test_the_form_pages_pass_the_print_lint(lun: Path, wmn: Path) -> None:
    from support.print_lint import lint_pdf

    for folder in (lun, wmn):
        defects = lint_pdf((folder / "player-kit.pdf").read_bytes(), folder.name)
        assert not defects, "\n".join(map(str, defects[:10]))


@pytest.mark.parametrize("name", ["Ann😀", "𐀀𐀁", "a\u200db"])
def test_an_unprintable_name_is_a_one_line_error_naming_its_characters(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["build", "lowest-unique", "--names", f"{name},Bo,Cy", "--out", str(tmp_path),
                 "--no-cache"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "no bundled font can print" in err
    bad = fonts.printable(name)
    assert bad and (repr(bad)[1:-1] in err or bad in err), err
    assert not any(tmp_path.iterdir())


def test_a_name_in_each_script_is_printable_in_every_style() -> None:
    for style in fonts.STYLES:
        for script, name in NAMES.items():
            assert fonts.printable(name, style) == "", (style, script)
    assert fonts.printable("محمد\u200cحسین") == ""  # a Persian joiner inside Arabic script


# --- fonts, runs and direction -----------------------------------------------------------------

def test_font_lists_match_the_fonts_folder_and_the_stylesheet() -> None:
    from kit.paper import paper
    from kit.plan import KitPlan
    from kit.render import stylesheet

    folder = {p.name for p in (ROOT / "fonts").iterdir()}
    assert folder == set(fonts.FONT_FILES) | set(fonts.LICENCE_FILES)
    everything = fonts.kit_faces(frozenset(fonts.FACES))
    css = stylesheet(KitPlan("x", "Game", (), "banner"), paper("a4"), everything)
    for name in fonts.FONT_FILES:
        assert f'url("fonts/{name}")' in css, name
    for face in fonts.FACES.values():
        assert f".f-{face.key} {{" in css, face.key
        assert f'"{face.family}"' in css, face.family


def test_a_kit_carries_only_the_fonts_it_uses(lun: Path, tmp_path: Path) -> None:
    assert main(["build", "lowest-unique", "--players", "3", "--out", str(tmp_path)]) == 0
    latin = {p.name for p in (tmp_path / "lowest-unique-3p-a4" / "fonts").iterdir()}
    assert latin == {"AtkinsonHyperlegible-Regular.ttf", "AtkinsonHyperlegible-Bold.ttf",
                     "AtkinsonHyperlegible-Italic.ttf", "KitSymbols-Regular.ttf",
                     "AtkinsonHyperlegible-OFL.txt", "KitSymbols-LICENSE.txt"}
    every = {p.name for p in (lun / "fonts").iterdir()}
    assert {"KitArabic-Regular.ttf", "KitCJK-Regular.ttf", "KitCJK-LICENSE.txt",
            "KitNoto-OFL.txt"} <= every
    html = (lun / "player-kit.html").read_text()
    assert all(f'url("fonts/{name}")' in html for name in every if name.endswith(".ttf"))


def _runs(text: str, style: str = "regular") -> list[tuple[str, str, bool]]:
    return [(r.text, r.face, r.rtl) for r in fonts.line(((text, style),))]


def test_runs_by_face_and_direction_in_visual_order() -> None:
    assert _runs("Ann Bob") == [("Ann Bob", "regular", False)]
    # a name Atkinson cannot set alone is set wholly in Kit Sans, not two designs in one name
    assert _runs("Nguyễn Thị Minh Khai Bảo") == [("Nguyễn Thị Minh Khai Bảo", "sans", False)]
    assert _runs("B · Nguyễn Bảo") == [("B · ", "regular", False), ("Nguyễn Bảo", "sans", False)]
    assert _runs("Slips · " + fonts.isolate("Ann Bảo")) == [("Slips · ", "regular", False),
                                                          ("Ann Bảo", "sans", False)]
    assert _runs("דוד כהן") == [("דוד כהן", "hebrew", True)]
    assert _runs("فاطمة الزهراء", "bold") == [("فاطمة الزهراء", "arabic-bold", True)]
    assert _runs("王小明", "bold") == [("王小明", "cjk", False)]  # no bold CJK file
    # a right-to-left name: its runs laid out right to left, the number left of the letters
    assert _runs("חנה 2") == [("2", "regular", False), (" ", "regular", True),
                              ("חנה", "hebrew", True)]
    # brackets inside right-to-left text: from the text face, mirrored by the shaping
    assert _runs("דוד (כהן)") == [(")", "regular", True), ("כהן", "hebrew", True),
                                  ("(", "regular", True), ("דוד ", "hebrew", True)]
    # a left-to-right line keeps its order; an isolated name inside it reads right to left
    assert _runs("A · " + fonts.isolate("דוד Smith")) == [
        ("A · ", "regular", False), ("Smith", "regular", False), (" ", "regular", True),
        ("דוד", "hebrew", True)]
    assert _runs("Smith דוד") == [("Smith ", "regular", False), ("דוד", "hebrew", True)]


def test_widths_are_the_shaped_advances() -> None:
    # measured with HarfBuzz once and pinned: joined Arabic letters and Devanagari conjuncts
    # are narrower than their characters' own advances, Thai marks take no room
    shaped = {NAMES["arabic"]: (51.87, 58.79), NAMES["devanagari"]: (34.63, 42.81),
              NAMES["thai"]: (44.04, 44.33)}
    for name, (width, unshaped) in shaped.items():
        (run,) = fonts.line(((name, "regular"),))
        assert fonts.width_pt(name, 10) == pytest.approx(width, abs=0.01)
        assert fonts.metric_width_pt(run.text, run.face, 10) == pytest.approx(unshaped, abs=0.01)
    # Latin stays one glyph per character, unkerned, as before
    assert fonts.width_pt("AVA", 10) == pytest.approx(fonts.metric_width_pt("AVA", "regular", 10))


def test_rich_places_right_to_left_runs_and_keeps_reading_order() -> None:
    items = model.text(10, 20, "חנה 2", 12)
    # reading order for the text layer, the space kept so the words stay apart
    assert [i.text for i in items] == ["חנה", " ", "2"]
    hebrew, _, digit = items
    assert hebrew.rtl and not digit.rtl and digit.x < hebrew.x
    # "2" from 10 mm, the space after it, then the Hebrew word (positions measured, in mm)
    assert (digit.x, items[1].x, hebrew.x) == pytest.approx((10, 12.324, 13.509), abs=0.002)
    right = model.text(100, 20, NAMES["arabic"], 12, align="right")
    assert right[0].x + model.text_width(NAMES["arabic"], 12) == pytest.approx(100, abs=0.002)


def test_a_long_name_shrinks_then_wraps_between_words_in_reading_order() -> None:
    name = "عبد الرحمن بن عوف"
    fitted = fit.fit(name, model.text_width(name, 10) / 2, 12, 10, 8)
    assert len(fitted.lines) > 1 and " ".join(fitted.lines) == name
    assert all(model.text_width(line, fitted.size) <= model.text_width(name, 10) / 2 + 1e-6
               for line in fitted.lines)


# --- the two backends --------------------------------------------------------------------------

def test_pdf_draws_shaped_glyphs_over_invisible_logical_text() -> None:
    items = tuple(model.text(20, 30, NAMES["arabic"], 14) + model.text(20, 50, NAMES["latin"], 14))
    data = pdf.draw([pdf.PdfPage(210, 297, items)], "scripts")
    reader = PdfReader(io.BytesIO(data))
    page = reader.pages[0]
    content = page.get_contents().get_data()
    assert b"3 Tr" in content and b"0 Tr" in content  # the Arabic hidden, the Latin shown
    assert re.search(rb"/FormXob\.R\d+ Do", content)
    text = page.extract_text()
    assert NAMES["arabic"] in text and NAMES["latin"] in text
    # the glyphs are drawn: ink where the name is
    import pypdfium2 as pdfium

    image = pdfium.PdfDocument(data)[0].render(scale=2).to_pil().convert("L")
    px = 2 * 72 / 25.4
    width = model.text_width(NAMES["arabic"], 14)
    box = image.crop((int(20 * px), int(25 * px), int((20 + width) * px), int(32 * px)))
    assert box.getextrema()[0] < 64


def test_svg_writes_right_to_left_and_shaped_runs() -> None:
    (hebrew,) = model.text(10, 20, NAMES["hebrew"], 12)
    markup = svg._items([hebrew])
    assert 'direction="rtl"' in markup and 'class="f-hebrew s"' in markup
    assert 'x="23.233"' in markup  # the run's right end: 10 mm + its 13.233 mm width
    (latin,) = model.text(10, 20, "Ann", 12)
    assert svg._items([latin]) == ('<text class="f-regular" x="10" y="20" font-size="4.233">'
                                   "Ann</text>")


def test_bdi_isolates_a_name_in_html() -> None:
    assert str(fonts.bdi("<b>דוד</b>")) == "<bdi>\u2068&lt;b&gt;דוד&lt;/b&gt;\u2069</bdi>"
