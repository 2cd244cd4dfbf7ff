"""A player's private link on their What's My Number? secret-number slip: a QR code (segno's
matrix, drawn as squares in mm) and the address, on the flap, read back from the PDF.

The code decodes (the PDF page rendered by PDFium, read by ZXing) to each player's own link;
the drawn squares cover exactly segno's dark modules with a 4-module quiet zone free of ink;
the address reads back from the text layer; the page passes the print lint, on both papers and
in every language; a link too long to print is refused.
"""

from __future__ import annotations

import pytest
import segno
from support.helpers import decoded

from kit.errors import LayoutError
from kit.games.whats_my_number.sheets import number_slips
from kit.games.whats_my_number.sheets.people import Person
from kit.i18n import LANGUAGES, words
from kit.layout import qr
from kit.layout.model import Box, Text
from kit.layout.pdf import PdfPage, draw
from kit.layout.qr import QUIET_MODULES, QrCode
from kit.paper import paper

# as the console makes them: a LAN address, a 12-character game id, a 43-character token
LINKS = {name: f"http://192.168.178.120:8000/console/Qx7Kp2mZt9aB/p/{token}" for name, token in [
    ("Ann", "Zb3wQ9rT1yUe7sLk0pXcVaWMWMn4hG8jF2dS6aP0oIu"), ("Bob", "Mn4hG8jF2dS6aP0oIu9yTrWM"
     "WMZb3wQ9rT1yUe7sLk0"), ("Zoë", "Lk9jH7gF5dS3aQ1wE8rT6yWMWMZb3wQ9rT1yUe7sLk0p")]}


def dark_cells(items: list[Box], x: float, y: float, size_mm: float, modules: int
               ) -> tuple[tuple[bool, ...], ...]:
    """Which module centres the drawn squares cover: the drawing read back as a matrix."""
    module = size_mm / (modules + 2 * QUIET_MODULES)
    spans = [(b.x - b.width / 2, b.y - b.width / 2, b.x + b.w + b.width / 2,
              b.y + b.h + b.width / 2) for b in items]
    return tuple(tuple(any(a <= x + (QUIET_MODULES + c + 0.5) * module <= b
                           and t <= y + (QUIET_MODULES + r + 0.5) * module <= d
                           for a, t, b, d in spans) for c in range(modules))
                 for r in range(modules))


def test_the_drawn_squares_are_segnos_matrix_with_an_empty_quiet_zone() -> None:
    link = LINKS["Ann"]
    code = QrCode.of(link)
    expected = segno.make(link, error="m", micro=False, boost_error=False).matrix
    boxes = code.items(10.0, 20.0, 20.0)
    assert dark_cells(boxes, 10.0, 20.0, 20.0, code.modules) == tuple(
        tuple(bool(m) for m in row) for row in expected)
    module = code.module_mm(20.0)
    quiet = QUIET_MODULES * module
    for b in boxes:  # every square's ink (stroke included) inside the symbol, none in the zone
        assert b.x - b.width / 2 >= 10.0 + quiet - 1e-3
        assert b.x + b.w + b.width / 2 <= 30.0 - quiet + 1e-3
        assert b.y - b.width / 2 >= 20.0 + quiet - 1e-3
        assert b.y + b.h + b.width / 2 <= 40.0 - quiet + 1e-3
        assert abs(b.h + b.width - module) < 2e-3  # one module tall, fully inked
    assert module >= qr.MIN_MODULE_MM


def slip_pdf(paper_name: str = "a4", lang: str = "en") -> tuple[bytes, list]:
    sheet = paper(paper_name)
    people = [Person(i, chr(65 + i), name) for i, name in enumerate([*LINKS, "Cy"])]
    pages = number_slips.slip_pages(sheet, people, (1, 60), words(lang), LINKS)
    [(_label, items)] = pages
    return draw([PdfPage(sheet.width_mm, sheet.height_mm, (), tuple(items))], "slips",
                lang), items


def test_each_linked_player_s_slip_carries_a_code_that_reads_back_as_their_link() -> None:
    pdf, items = slip_pdf()
    assert decoded(pdf) == sorted(LINKS.values())  # three codes, Cy (no link) none
    from support.helpers import texts

    text = "".join(texts(pdf)).replace("\n", " ")
    for link in LINKS.values():  # its lines, one after the other
        assert link in text.replace(" ", "")
        assert link.startswith(text[text.index(link[:26]):].split(" ")[0])
    assert sum(isinstance(i, Box) and i.width < 0.3 for i in items) > 100


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_slips_with_links_pass_the_print_lint(paper_name: str, lang: str) -> None:
    from support.print_lint import lint_pdf

    pdf, items = slip_pdf(paper_name, lang)
    assert lint_pdf(pdf, f"slips {paper_name} {lang}") == []
    assert any(isinstance(i, Text) and i.text.startswith("http://") for i in items)


def test_a_link_too_long_for_the_slip_is_refused() -> None:
    with pytest.raises(LayoutError) as caught:
        QrCode.of("http://example.org/" + "x" * 300)
    assert str(caught.value) == "links: a link must be 1 to 200 characters"
    sheet = paper("a4")
    with pytest.raises(LayoutError) as caught:
        number_slips.slip_pages(sheet, [Person(0, "A", "Ann")], (1, 60), words("en"),
                                {"Ann": "http://example.org/" + "y" * 170})
    assert str(caught.value).startswith("links: ")


@pytest.mark.slow
def test_the_html_kit_s_svg_draws_codes_that_read_back(chromium_printer) -> None:  # noqa: ANN001
    """The same items as inline SVG (the HTML kit's drawing, with print.css's line style),
    shown by Chromium: each code reads back as its player's link."""
    import io

    from PIL import Image
    from support.helpers import ROOT

    from kit.layout import svg

    zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp is not installed: pip "
                                   "install '.[test]'")
    sheet = paper("a4")
    _pdf, items = slip_pdf()
    css = (ROOT / "templates" / "print.css").read_text()
    markup = svg.render(sheet.width_mm, sheet.height_mm, items, ())
    context = chromium_printer.browser.new_context(device_scale_factor=4,
                                                   viewport={"width": 800, "height": 1130})
    try:
        page = context.new_page()
        page.set_content(f"<!doctype html><style>{css}</style>{markup}")
        shot = page.locator("svg.sheet").screenshot()
    finally:
        context.close()
    image = Image.open(io.BytesIO(shot)).convert("L")
    found = sorted(r.text for r in zxingcpp.read_barcodes(
        image, formats=zxingcpp.BarcodeFormat.QRCode))
    assert found == sorted(LINKS.values())
