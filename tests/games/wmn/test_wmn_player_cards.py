"""A player's private link on the console's printout of a What's My Number? game: a card the
player keeps, with the link as a QR code (segno's matrix, drawn as squares in mm) and its
address, never on the secret-number slip they hand to the game master.

Every page is rendered at 100 dpi by poppler (``pdftoppm``) and read by ``zbarimg``: each card,
cut out of the picture at its frame in the layout model, reads back as its own player's link,
and each slip beside it as none. The drawn squares cover exactly segno's dark modules with a
4-module quiet zone free of ink; the address reads back whole from the text layer; a game whose
secrets the console holds prints no number box nor the words asking for one, which the paper
kit and a game whose players choose their own keep; the pages pass the print lint, on both
papers and in every language; a link too long to print is refused.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import segno
from PIL import Image
from support.helpers import texts

from kit.cli import main
from kit.errors import LayoutError
from kit.games.whats_my_number.console.slips import link_sheet, secrets_known
from kit.games.whats_my_number.sheets import number_slips, player_cards
from kit.games.whats_my_number.sheets.people import Person, range_words
from kit.i18n import LANGUAGES, words
from kit.layout import qr
from kit.layout.model import Box, Text
from kit.layout.qr import QUIET_MODULES, QrCode
from kit.paper import Frame, paper

NAMES = ["Ann", "Bob", "Zoë", "Dmitri Alexandrovich", "Eve", "Fay", "Gus", "Hal", "Ivy"]
TOKEN = "Zb3wQ9rT1yUe7sLk0pXcVaWMWMn4hG8jF2dS6aP0oIu"
# as the console makes them: a LAN address, a 12-character game id, a 43-character token
LINKS = {name: f"http://192.168.178.120:8000/console/Qx7Kp2mZt9aB/p/{TOKEN[i:]}{TOKEN[:i]}"
         for i, name in enumerate(NAMES)}
RANGE = (1, 80)
DPI = 100


def facts(lang: str, paper_name: str, chosen: bool) -> dict:
    """A console game's facts as ``create`` keeps them: drawn secrets, or chosen by players."""
    made = {"lang": lang, "paper": paper_name, "players": NAMES, "range": list(RANGE)}
    return {**made, "secrets_by": "players"} if chosen else made


def players() -> list[tuple[Person, str]]:
    return [(Person(i, letter, name), LINKS[name])
            for i, (letter, name) in enumerate(zip("ABCDEFGIJ", NAMES, strict=True))]


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
    size = player_cards.CARD_QR_MM
    boxes = code.items(10.0, 20.0, size)
    assert dark_cells(boxes, 10.0, 20.0, size, code.modules) == tuple(
        tuple(bool(m) for m in row) for row in expected)
    module = code.module_mm(size)
    quiet = QUIET_MODULES * module
    for b in boxes:  # every square's ink (stroke included) inside the symbol, none in the zone
        assert b.x - b.width / 2 >= 10.0 + quiet - 1e-3
        assert b.x + b.w + b.width / 2 <= 10.0 + size - quiet + 1e-3
        assert b.y - b.width / 2 >= 20.0 + quiet - 1e-3
        assert b.y + b.h + b.width / 2 <= 20.0 + size - quiet + 1e-3
        assert abs(b.h + b.width - module) < 2e-3  # one module tall, fully inked
    assert module >= qr.MIN_MODULE_MM
    assert size - 2 * quiet >= 25.0  # the symbol alone, without its quiet zone


def test_a_code_smaller_than_a_100_dpi_scan_reads_is_refused() -> None:
    with pytest.raises(LayoutError) as caught:
        QrCode.of(LINKS["Ann"]).items(0.0, 0.0, 20.0)
    assert str(caught.value) == ("links: a QR code needs at least 25 mm and modules of 0.4 mm; "
                                 "this link needs a shorter address")


def scanned(png: Path, frame: Frame | None = None) -> list[str]:
    """The QR codes zbarimg reads in ``png`` (a page at DPI), or in ``frame`` (mm) of it."""
    if frame is not None:
        scale = DPI / 25.4
        with Image.open(png) as page:
            part = page.crop((round(frame.x * scale), round(frame.y * scale),
                              round(frame.right * scale), round(frame.bottom * scale)))
            png = png.with_name(f"{png.stem}-{frame.x:.0f}-{frame.y:.0f}.png")
            part.save(png)
    done = subprocess.run(["zbarimg", "-q", "--raw", "-Sdisable", "-Sqrcode.enable",
                           str(png)], capture_output=True, text=True, check=False)
    assert done.returncode in (0, 4), done.stderr  # 4: no code found
    return sorted(done.stdout.splitlines())


def pages_at(pdf: bytes, tmp_path: Path) -> list[Path]:
    (tmp_path / "sheet.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-png", str(tmp_path / "sheet.pdf"),
                    str(tmp_path / "page")], check=True)
    return sorted(tmp_path.glob("page-*.png"))


@pytest.fixture(scope="module", autouse=True)
def _tools() -> None:
    for tool, package in (("zbarimg", "zbar-tools"), ("pdftoppm", "poppler-utils")):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (apt-get install {package}); CI installs it")


@pytest.mark.parametrize("chosen", [False, True], ids=["drawn", "chosen"])
@pytest.mark.parametrize("paper_name", ["a4", "letter"])
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_each_card_the_player_keeps_scans_at_100_dpi_as_their_own_link(
        lang: str, paper_name: str, chosen: bool, tmp_path: Path) -> None:
    from support.print_lint import lint_pdf

    pdf = link_sheet(facts(lang, paper_name, chosen), LINKS)
    seats = player_cards.seats(paper(paper_name), players(), known=not chosen)
    pngs = pages_at(pdf, tmp_path)
    assert len(pngs) == seats[-1].page + 1 == (2 if not chosen else 3)
    for seat in seats:
        assert scanned(pngs[seat.page], seat.card) == [seat.link]
        if chosen:  # the slip the player hands over carries no code
            assert seat.slip is not None and scanned(pngs[seat.page], seat.slip) == []
        else:
            assert seat.slip is None
    for n, png in enumerate(pngs):  # and no code anywhere else on the page
        assert scanned(png) == sorted(s.link for s in seats if s.page == n)
    assert lint_pdf(pdf, f"player cards {paper_name} {lang}") == []


def test_the_codes_and_addresses_lie_inside_the_kept_cards() -> None:
    sheet = paper("letter")
    for known in (True, False):
        seats = player_cards.seats(sheet, players(), known)
        for seat in seats:
            items = player_cards.card_items(seat, known, words("en"))
            card = seat.card
            squares = [i for i in items if isinstance(i, Box)]
            assert len(squares) > 100
            for b in squares:
                assert card.x + 1.0 <= b.x and b.x + b.w <= card.right - 1.0
                assert card.y + 1.0 <= b.y and b.y + b.h <= card.bottom - 1.0
            lines = [i.text for i in items if isinstance(i, Text)
                     and i.size == player_cards.URL_PT and i.text in seat.link]
            assert "".join(lines) == seat.link and len(lines) >= 2  # wrapped whole, never cut
            if seat.slip is not None:  # side by side, the slip right of the card
                assert seat.slip.x == card.right and seat.slip.y == card.y


def test_the_address_reads_back_whole_from_the_text_layer() -> None:
    text = " ".join(texts(link_sheet(facts("en", "a4", False), LINKS)))
    for link in LINKS.values():  # its lines, one after the other
        assert link[:36] in text
        assert link in text.replace(" ", "")


def number_words(lang: str) -> tuple[str, str]:
    """What asks a player to write their number, in ``lang``: the slip's first three words and
    its box's label."""
    w = words(lang)
    return (" ".join(number_slips.slip_words(RANGE, w).split()[:3]),
            w.gettext("Secret number, %(range)s", range=range_words(RANGE, w)))


def pdftotext(pdf: bytes | Path, tmp_path: Path) -> str:
    if isinstance(pdf, bytes):
        (tmp_path / "in.pdf").write_bytes(pdf)
        pdf = tmp_path / "in.pdf"
    done = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True)
    return " ".join(done.stdout.split())


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_no_number_to_write_when_the_console_holds_the_secrets(lang: str, tmp_path: Path
                                                               ) -> None:
    first, label = number_words(lang)
    drawn = pdftotext(link_sheet(facts(lang, "a4", False), LINKS), tmp_path)
    chosen = pdftotext(link_sheet(facts(lang, "a4", True), LINKS), tmp_path)
    assert first not in drawn and label not in drawn
    assert chosen.count(first) == chosen.count(label) == len(NAMES)
    assert words(lang).gettext(player_cards.KNOWN_WORDS).split()[0] in drawn
    sheet = paper("a4")
    for known, boxes in ((True, 0), (False, len(NAMES))):  # the slip's number box, 24 mm wide
        items = [i for page in player_cards.card_pages(sheet, players(), RANGE, known,
                                                       words(lang)) for i in page]
        assert sum(isinstance(i, Box) and i.w == number_slips.slip_box_mm(RANGE)
                   for i in items) == boxes


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_paper_kit_still_asks_for_the_number(lang: str, tmp_path: Path) -> None:
    assert main(["build", "whats-my-number", "--players", "6", "--range", "1-80", "--lang",
                 lang, "--out", str(tmp_path / "out")]) == 0
    [kit] = (tmp_path / "out").glob("*/player-kit.pdf")
    first, label = number_words(lang)
    text = pdftotext(kit, tmp_path)
    assert text.count(first) == text.count(label) == 6
    assert "http" not in text


def test_a_player_without_a_link_gets_no_card(tmp_path: Path) -> None:
    """A card without a link would tell nothing: such a player gets their slip alone when
    they choose their own number, and nothing when the console holds it."""
    links = {name: link for name, link in LINKS.items() if name != "Bob"}
    first, label = number_words("en")
    chosen = link_sheet(facts("en", "a4", True), links)
    text = pdftotext(chosen, tmp_path)
    assert text.count("Keep this card ·") == len(NAMES) - 1
    assert text.count(first) == text.count(label) == len(NAMES)
    [png, *_] = pages_at(chosen, tmp_path)
    listed = [(person, None if person.name == "Bob" else link) for person, link in players()]
    bob = player_cards.seats(paper("a4"), listed, known=False)[1]
    assert bob.person.name == "Bob" and bob.slip is not None
    assert scanned(png, bob.card) == [] and "B · Bob" in text
    drawn = pdftotext(link_sheet(facts("en", "a4", False), links), tmp_path)
    assert drawn.count("Keep this card ·") == len(NAMES) - 1 and "Bob" not in drawn


def test_who_chose_the_secrets_decides_the_printout() -> None:
    assert secrets_known({"players": NAMES})  # drawn, or typed by the game master
    assert not secrets_known({"players": NAMES, "secrets_by": "players"})


def test_a_link_too_long_for_the_card_is_refused() -> None:
    with pytest.raises(LayoutError) as caught:
        QrCode.of("http://example.org/" + "x" * 300)
    assert str(caught.value) == "links: a link must be 1 to 200 characters"
    with pytest.raises(LayoutError) as caught:
        player_cards.card_pages(paper("a4"), [(Person(0, "A", "Ann"),
                                               "http://example.org/" + "y" * 180)],
                                RANGE, True, words("en"))
    assert str(caught.value) == "links: a link must fit 4 lines on the slip; give a shorter address"


@pytest.mark.slow
def test_the_html_kit_s_svg_draws_codes_that_read_back(chromium_printer) -> None:  # noqa: ANN001
    """The same items as inline SVG (the HTML drawing, with print.css's line style), shown by
    Chromium: each code reads back as its player's link."""
    import io

    from support.helpers import ROOT

    from kit.layout import svg

    zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp is not installed: pip "
                                   "install '.[test]'")
    sheet = paper("a4")
    [items, _second] = player_cards.card_pages(sheet, players(), RANGE, True, words("en"))
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
    assert found == sorted(LINKS[name] for name in NAMES[:8])
