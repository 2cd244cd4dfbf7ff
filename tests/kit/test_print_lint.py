"""The print lint (tests/support/print_lint.py): self-tests that prove each check can fail, then
every top-level PDF of a matrix of real kits (both games, both papers, every language, the
smallest and largest tables, long names, 12 rounds, split parties, reports), linted and compared
page by page with Chromium's printout of its HTML twin; some kits' HTML files also go through
axe-core.

A kit's tests share one xdist group, so one worker builds it, once; one Chromium per worker
prints every HTML file.
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas
from support.helpers import (
    LUN_TWO_TABLES_LOG,
    REFERENCE_LOG_TURN_1,
    axe_source,
    build_kit,
    check_page,
)
from support.pdf_compare import differences
from support.print_lint import (
    GUIDE_WORDS,
    MIN_GUIDE_PT,
    Defect,
    bundled_font_names,
    compare_page_counts,
    lint_pdf,
)

from kit.cli import main

FONTS = Path(__file__).resolve().parents[2] / "fonts"
FONT = "LintAtkinson"


# --- synthetic pages ----------------------------------------------------------------------------

def _font() -> str:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, str(FONTS / "AtkinsonHyperlegible-Regular.ttf")))
    return FONT


def one_page(draw, version: tuple[int, int] = (1, 6), initial_font: str | None = None) -> bytes:
    """A one-page A4 PDF drawn by ``draw(canvas)`` with ReportLab, the bundled font current.

    ``initial_font`` is the font ReportLab puts on every page before any drawing; it defaults to
    the bundled one (ReportLab's default, Helvetica, would add an unembedded font to the page).
    """
    font = _font()
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=A4, pdfVersion=version, initialFontName=initial_font or font,
                      invariant=1)
    c.setFont(font, 12)
    draw(c)
    c.showPage()
    c.save()
    return out.getvalue()


def ruled_box(c: canvas.Canvas) -> None:
    """Text in a ruled box, with a cell border, an underline and a text line close by."""
    c.setLineWidth(0.75)
    c.rect(30 * mm, 200 * mm, 90 * mm, 10 * mm)  # box: 2.5 mm padding below the baseline
    c.drawString(33 * mm, 202.5 * mm, "Players in a ruled box")
    c.line(33 * mm, 202.5 * mm - 1.5, 80 * mm, 202.5 * mm - 1.5)  # underline, below the baseline
    c.line(30 * mm, 202.5 * mm + 9.5, 120 * mm, 202.5 * mm + 9.5)  # touches the em box top
    c.drawString(33 * mm, 200 * mm - 12, "A line under the box, its ascenders 2 pt from it")
    c.setFont(FONT, MIN_GUIDE_PT)
    c.drawString(33 * mm, 180 * mm, "- - - fold here - - -")
    c.setFont(FONT, 8)
    c.drawString(33 * mm, 170 * mm, "Eight point text is allowed")
    c.setDash(3, 2)
    c.line(10 * mm, 160 * mm, 200 * mm, 160 * mm)  # 10 mm from the left and right edges


def kinds(defects: list[Defect]) -> list[str]:
    return sorted(d.kind for d in defects)


def test_clean_page_with_text_in_a_ruled_box_has_no_defects():
    assert lint_pdf(one_page(ruled_box)) == []


def test_tight_kerning_is_not_an_overlap():
    def draw(c):
        text = c.beginText(30 * mm, 150 * mm)
        text.setFont(FONT, 12)
        text.setCharSpace(-0.8)  # about a sixth of a letter: tight, still readable
        text.textOut("AVATAR WAVY")
        c.drawText(text)
    assert lint_pdf(one_page(draw)) == []


def test_rule_through_a_word():
    def draw(c):
        c.drawString(30 * mm, 150 * mm, "Players")
        c.setLineWidth(0.5)
        c.line(25 * mm, 150 * mm + 4, 60 * mm, 150 * mm + 4)  # through the x-height
    defects = lint_pdf(one_page(draw))
    assert kinds(defects) == ["glyph-crossed"]
    assert "'Players'" in defects[0].detail
    assert "stroked line" in defects[0].detail
    assert "(25.0, 145.6) mm" in defects[0].detail  # left end, mm from the top-left corner


def test_box_edge_through_text():
    def draw(c):
        c.drawString(30 * mm, 150 * mm, "Round 10 score")
        zero = 30 * mm + c.stringWidth("Round 1") + c.stringWidth("0") / 2
        c.rect(zero, 145 * mm, 30 * mm, 12 * mm)  # the left edge runs through the "0"
    defects = lint_pdf(one_page(draw))
    assert kinds(defects) == ["glyph-crossed"]
    assert "'10'" in defects[0].detail


def test_filled_thin_rect_is_a_rule_and_a_thick_box_is_judged_by_its_edges():
    def thin(c):
        c.drawString(30 * mm, 150 * mm, "Players")
        c.rect(25 * mm, 150 * mm + 3, 40 * mm, 0.3 * mm, stroke=0, fill=1)
    def thick_around(c):  # a grey panel with the text inside: no edge crosses it
        c.setFillGray(0.85)
        c.rect(25 * mm, 145 * mm, 60 * mm, 15 * mm, stroke=0, fill=1)
        c.setFillGray(0)
        c.drawString(30 * mm, 150 * mm, "Players")
    assert kinds(lint_pdf(one_page(thin))) == ["glyph-crossed"]
    assert "filled rule" in lint_pdf(one_page(thin))[0].detail
    assert lint_pdf(one_page(thick_around)) == []


@pytest.mark.parametrize("label", ["rect", "round", "none"])
def test_white_label_over_a_rule_hides_it(label):
    def draw(c):
        c.setDash(4, 2)
        c.line(20 * mm, 150 * mm + 3, 120 * mm, 150 * mm + 3)  # a fold line
        c.setFillGray(1)
        if label == "rect":  # the label's background, drawn after the line
            c.rect(45 * mm, 148 * mm, 40 * mm, 6 * mm, stroke=0, fill=1)
        elif label == "round":
            c.roundRect(45 * mm, 148 * mm, 40 * mm, 6 * mm, 2 * mm, stroke=0, fill=1)
        c.setFillGray(0)
        c.drawString(48 * mm, 150 * mm, "fold back")
    assert kinds(lint_pdf(one_page(draw))) == ([] if label != "none" else ["glyph-crossed"])


def test_two_texts_overlapping():
    def draw(c):
        c.drawString(30 * mm, 150 * mm, "Table 1 of 3")
        c.drawString(40 * mm, 150 * mm + 2, "actual size")  # another run, 2 pt higher
    defects = lint_pdf(one_page(draw))
    assert kinds(defects) == ["text-overlap"]
    assert "'actual'" in defects[0].detail


def test_same_baseline_overprint():
    def draw(c):
        c.drawString(30 * mm, 150 * mm, "Ann")
        c.drawString(30 * mm + 3, 150 * mm, "Bob")  # same baseline, most of a letter over
    assert kinds(lint_pdf(one_page(draw))) == ["text-overlap"]


@pytest.mark.parametrize(("size", "text", "ok"), [
    (6.5, "fold back - number inside", False),
    (7.0, "fold here", True),
    (7.0, "CUT along the line", True),
    (7.0, "You may pass until the host says locked", False),
    (7.5, "You may pass until the host says locked", False),
    (8.0, "You may pass until the host says locked", True),
])
def test_minimum_text_size(size, text, ok):
    def draw(c):
        c.setFont(FONT, size)
        c.drawString(30 * mm, 150 * mm, text)
    defects = lint_pdf(one_page(draw))
    assert kinds(defects) == ([] if ok else ["text-too-small"])
    if not ok:
        assert f"{size:g} pt" in defects[0].detail


def test_effective_size_includes_the_matrix():
    def draw(c):
        c.saveState()
        c.scale(0.5, 0.5)  # 14 pt text drawn at half size: 7 pt
        c.setFont(FONT, 14)
        c.drawString(60 * mm, 300 * mm, "Score")
        c.restoreState()
    defects = lint_pdf(one_page(draw))
    assert kinds(defects) == ["text-too-small"]
    assert "7 pt" in defects[0].detail


def test_guide_words_are_words():
    assert GUIDE_WORDS.search("Fold here")
    assert GUIDE_WORDS.search("✂ cut along the dashed line")
    assert not GUIDE_WORDS.search("shortcut to the scores")
    assert not GUIDE_WORDS.search("manifold")


@pytest.mark.parametrize("what", ["rect", "text"])
def test_object_3_mm_from_the_edge(what):
    def draw(c):
        if what == "rect":
            c.rect(3 * mm, 100 * mm, 20 * mm, 10 * mm)
        else:
            c.drawString(30 * mm, 3 * mm, "Page 1 of 2")
    defects = lint_pdf(one_page(draw))
    assert kinds(defects) == ["near-edge"]
    edge = "left" if what == "rect" else "bottom"
    assert f"from the {edge} edge" in defects[0].detail


def test_white_fill_at_the_edge_is_ignored():
    def draw(c):
        c.setFillGray(1)
        c.rect(0, 0, A4[0], A4[1], stroke=0, fill=1)  # a page background
        c.setFillGray(0)
        c.drawString(30 * mm, 150 * mm, "Players")
    assert lint_pdf(one_page(draw)) == []


def test_standard_font_not_embedded():
    def draw(c):
        c.setFont("Helvetica", 12)
        c.drawString(30 * mm, 150 * mm, "Players")
    defects = lint_pdf(one_page(draw, initial_font="Helvetica"))
    assert kinds(defects) == ["font-not-embedded", "font-not-ours"]
    assert all("'Helvetica'" in d.detail for d in defects)


def test_allowed_fonts_come_from_the_fonts_folder():
    assert {"AtkinsonHyperlegible-Regular", "KitSymbols-Regular"} <= bundled_font_names()
    defects = lint_pdf(one_page(ruled_box), allowed_fonts={"SomethingElse"})
    assert kinds(defects) == ["font-not-ours"]
    assert "AtkinsonHyperlegible-Regular" in defects[0].detail


def test_old_pdf_header():
    data = one_page(lambda c: c.drawString(30 * mm, 150 * mm, "Players"))
    assert data.startswith(b"%PDF-1.6")
    old = b"%PDF-1.3" + data[len(b"%PDF-1.6"):]  # same length: the xref offsets still hold
    defects = lint_pdf(old, "old.pdf")
    assert kinds(defects) == ["pdf-version"]
    assert defects[0].page == 0 and "1.3" in defects[0].detail
    assert str(defects[0]).startswith("old.pdf document [pdf-version]")


def test_weasyprint_table_border_through_a_word():
    """WeasyPrint fills borders (outer and inner rectangle, even-odd): a border side is a thin
    filled rectangle, found as a rule; sides of zero width are not."""
    weasyprint = pytest.importorskip("weasyprint")
    font = (FONTS / "AtkinsonHyperlegible-Regular.ttf").as_uri()
    html = f"""<style>
      @font-face {{ font-family: Atk; src: url({font}) }}
      @page {{ size: A4; margin: 20mm }}
      body {{ font: 12pt Atk }}
      table {{ border-collapse: separate; border-spacing: 0; table-layout: fixed; width: 60mm }}
      td {{ height: 10mm; white-space: nowrap }}
      td + td {{ border-left: 1px solid black }}
    </style>
    <table><tr><td>{{word}}</td><td></td></tr></table>
    <p>Text under a table with only one inner border.</p>"""
    clean = weasyprint.HTML(string=html.replace("{word}", "Players")).write_pdf()
    assert lint_pdf(clean) == []
    crossed = weasyprint.HTML(string=html.replace("{word}", "Overflowingwordhere")).write_pdf()
    defects = lint_pdf(crossed)
    assert kinds(defects) == ["glyph-crossed"]
    assert "filled rule" in defects[0].detail and "Overflowingwordhere" in defects[0].detail


def test_compare_page_counts():
    def pages(*sizes: tuple[float, float]) -> bytes:
        out = io.BytesIO()
        c = canvas.Canvas(out, initialFontName=_font())
        for size in sizes:
            c.setPageSize(size)
            c.showPage()
        c.save()
        return out.getvalue()

    a4 = A4
    chromium_a4 = (594.96, 841.92)  # Chromium rounds the page box to CSS pixels
    assert compare_page_counts(pages(a4, a4), pages(chromium_a4, chromium_a4)) == []
    assert kinds(compare_page_counts(pages(a4, a4), pages(a4))) == ["page-count"]
    landscape = (A4[1], A4[0])
    assert kinds(compare_page_counts(pages(a4, landscape), pages(a4, a4))) == ["page-size"]


# --- real kits ----------------------------------------------------------------------------------

LONG_NAMES = ",".join([
    "Ångström-Øre sund Müller", "Bartholomew Fitzgerald", "Christabel Montgomery",
    "Dorothea van der Berg", "Evangeline Whitmore", "Fitzwilliam Darcy-Smith",
    "Guinevere Pendragon", "Hieronymus Bosch-Weber", "Isadora Featherstone",
    "Jean-Baptiste Lefèvre", "Kunigunde Schwarzenegg", "Leopoldina Castellanos",
])


def log_with_players(count: int) -> str:
    labels = [f"P{i:02d}" for i in range(1, count + 1)]
    top = 10 * (count - 1)
    secrets = "\n".join(f"{label} = {(7 * i + 3) % top + 1}" for i, label in enumerate(labels))
    return (f'game = "whats-my-number"\nplayers = {labels!r}\n[secrets]\n{secrets}\n'
            f"[[turn]]\nP01 = [17, 33]\nP02 = [40, 25]\nP03 = [5, 250]\n"
            .replace("'", '"'))


def long_names_log() -> str:
    """Twelve long names, one turn: an ignored guess, a void one, a partial list, no orders."""
    names = LONG_NAMES.split(",")
    quoted = [f'"{name}"' for name in names]
    secrets = "\n".join(f"{q} = {20 + 7 * i}" for i, q in enumerate(quoted))
    return (f'game = "whats-my-number"\nplayers = [{", ".join(quoted)}]\n[secrets]\n{secrets}\n'
            f"[[turn]]\n{quoted[0]} = [27, 34, 41]\n{quoted[1]} = [500, 20]\n"
            f"{quoted[2]} = {{ list = {{ {quoted[0]} = 20, {quoted[1]} = 27 }} }}\n")


@dataclass(frozen=True)
class KitSpec:
    name: str
    argv: tuple[str, ...] = ()  # kit build arguments (kit report arguments with a log)
    documents: tuple[str, ...] = ("player-kit", "host-answers")
    log: str | None = None  # a game log: kit report instead of kit build
    # the log corrected after publishing, once or more: kit report --amend after each
    amended: tuple[str, ...] = ()
    axe: bool = False  # also run axe-core over its HTML files


def _tables(count: int) -> tuple[str, ...]:
    return (*(f"player-kit-table-{n}" for n in range(1, count + 1)), "all-tables",
            "host-answers")


LU, WMN = "lowest-unique", "whats-my-number"
WMN_REPORTS = ("turn-reports", "gm-register", "private-slips")
# The shared 7-player, 4-turn log (every ruling, three finishers in the last turn), every turn
# published; then a second-turn guess corrected: the erratum of three turns.
WMN7_LOG = (Path(__file__).parents[1] / "data" / "wmn-7p-4t.toml").read_text("utf-8").replace(
    "published = 0", "published = 4")
WMN7_AMENDED = WMN7_LOG.replace("Ann = [10, 45]", "Ann = [8, 45]")
# the same turn corrected again (its second guess now finds Bob): one erratum page per turn,
# the net change from the reports as first handed out
WMN7_AMENDED_AGAIN = WMN7_AMENDED.replace("Ann = [8, 45]", "Ann = [8, 42]")
WMN7_PAPERS = {"en": "a4", "fr": "letter", "de": "a4", "es": "letter", "ru": "a4"}
# Every variant once, and each language on both games and a report: German and French run
# longer than English, Russian sets taller lines.
KITS = [
    KitSpec("lu-3p-letter-fr", (LU, "--players", "3", "--paper", "letter", "--lang", "fr"),
            axe=True),
    KitSpec("lu-12p-a4-de", (LU, "--players", "12", "--lang", "de")),
    KitSpec("lu-12p-letter-es", (LU, "--players", "12", "--paper", "letter", "--lang", "es")),
    # the longest rules sheet: the cooperative variant, host plays, a custom range, Letter
    KitSpec("lu-every-variant-letter-ru", (
        LU, "--players", "9", "--paper", "letter", "--lang", "ru", "--cooperative",
        "--host-plays", "--range", "1-20")),
    KitSpec("lu-12-rounds-fr", (LU, "--players", "4", "--rounds", "12", "--lang", "fr")),
    # a turn or two: every page type, without 30 turns of the same pages
    KitSpec("wmn-4p-a4", (WMN, "--players", "4", "--turns", "2")),
    KitSpec("wmn-4p-letter-ru", (WMN, "--players", "4", "--paper", "letter", "--turns", "2",
                                 "--lang", "ru"), axe=True),
    KitSpec("wmn-30p-a4-de", (WMN, "--players", "30", "--turns", "1", "--lang", "de")),
    KitSpec("wmn-16p-letter-es", (WMN, "--players", "16", "--paper", "letter", "--turns", "1",
                                  "--lang", "es")),
    KitSpec("wmn-13p-letter-fr", (WMN, "--players", "13", "--paper", "letter", "--turns", "2",
                                  "--range", "1-200", "--lang", "fr")),
    KitSpec("lu-long-names", (LU, "--names", LONG_NAMES)),
    KitSpec("wmn-long-names", (WMN, "--names", LONG_NAMES, "--turns", "2")),
    KitSpec("lu-30p-split-a4", (LU, "--players", "30"), _tables(3)),
    KitSpec("lu-120p-split-letter", (LU, "--players", "120", "--paper", "letter"), _tables(10)),
    KitSpec("report-reference", documents=WMN_REPORTS, log=REFERENCE_LOG_TURN_1, axe=True),
    KitSpec("report-reference-ru", ("--lang", "ru"), WMN_REPORTS, REFERENCE_LOG_TURN_1),
    KitSpec("report-30p-de", ("--lang", "de"), WMN_REPORTS, log_with_players(30)),
    KitSpec("report-lowest-unique", documents=("results",), log=LUN_TWO_TABLES_LOG),
    KitSpec("report-lowest-unique-fr", ("--lang", "fr", "--paper", "letter"), ("results",),
            LUN_TWO_TABLES_LOG, axe=True),
    KitSpec("report-lowest-unique-es", ("--lang", "es"), ("results",), LUN_TWO_TABLES_LOG),
    # tables at different rounds: provisional standings, score sheets with unplayed rounds
    KitSpec("report-lowest-unique-provisional-de", ("--lang", "de"), ("results",),
            (Path(__file__).parents[1] / "data" / "lun-three-tables.toml").read_text("utf-8"),
            axe=True),
    # What's My Number? in a live game, in every language: marked rows, closing lines, the
    # register's record, private slips and the erratum
    *(KitSpec(f"report-wmn7-{lang}", ("--lang", lang, "--paper", paper),
              (*WMN_REPORTS, "erratum"), WMN7_LOG, axe=True,
              amended=(WMN7_AMENDED, WMN7_AMENDED_AGAIN) if lang == "en" else (WMN7_AMENDED,))
      for lang, paper in WMN7_PAPERS.items()),
    # twelve 24-character names: long ruling notes, long "No orders" and answer lines on slips
    KitSpec("report-long-names", ("--paper", "letter"), WMN_REPORTS, long_names_log()),
    # large print, both games in every language on both papers: every prose page unshrunk
    # at 12 pt (split in two where a language runs long), six slips a page, taller rows
    KitSpec("lu-large-long-names", (LU, "--names", LONG_NAMES, "--large-print")),
    KitSpec("lu-large-12-rounds-letter-de", (
        LU, "--players", "12", "--rounds", "12", "--sudden-death-announced", "--paper",
        "letter", "--lang", "de", "--large-print"), axe=True),
    KitSpec("lu-large-fr", (LU, "--players", "7", "--lang", "fr", "--large-print")),
    KitSpec("lu-large-every-variant-letter-es", (
        LU, "--players", "9", "--paper", "letter", "--lang", "es", "--cooperative",
        "--host-plays", "--range", "1-20", "--large-print")),
    KitSpec("lu-large-letter-ru", (LU, "--players", "5", "--paper", "letter", "--lang", "ru",
                                   "--large-print")),
    *(KitSpec(f"wmn-large-{paper}-{lang}", (WMN, "--players", "4", "--turns", "1", "--paper",
                                            paper, "--lang", lang, "--large-print"))
      for lang, paper in (("en", "letter"), ("fr", "a4"), ("de", "letter"), ("es", "a4"),
                          ("ru", "letter"))),
]
SPECS = {spec.name: spec for spec in KITS}
def _sampled(spec: KitSpec, document: str) -> bool:
    """Of a split party's table files, alike but for names and stamp, the last (whose "Table N
    of N" stamp is widest). all-tables.pdf is every table file's pages in one: checked for a
    party of three tables, not again for ten."""
    tables = [d for d in spec.documents if d.startswith("player-kit-table-")]
    if document == "all-tables":
        return len(tables) <= 3
    return not document.startswith("player-kit-table-") or document == tables[-1]


# the id's first part is the kit: a kit's tests run on one worker, which builds it once
# (tests/support/xdist_scopes.py)
DOCUMENTS = [pytest.param(spec.name, doc, id=f"{spec.name}/{doc}")
             for spec in KITS for doc in spec.documents if _sampled(spec, doc)]
WORKERS = 1  # pytest-xdist already keeps both cores busy


@pytest.fixture(scope="session")
def lint_seconds(request: pytest.FixtureRequest):
    """Lint time per kit document; the total is shown at the end of the session."""
    seconds: dict[str, float] = {}
    yield seconds
    if seconds:
        plugins = request.config.pluginmanager
        reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin(
            "capturemanager")
        if reporter is not None and capture is not None:
            slowest = max(seconds, key=seconds.__getitem__)
            with capture.global_and_fixture_disabled():
                reporter.write_line(
                    f"\nprint lint: {len(seconds)} kit documents in "
                    f"{sum(seconds.values()):.1f} s (slowest {slowest}: "
                    f"{seconds[slowest]:.1f} s)")


@pytest.fixture(scope="session")
def kit_folder(tmp_path_factory: pytest.TempPathFactory):
    """Builds each kit of ``KITS`` on first use, once per session; returns its folder."""
    built: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in built:
            spec = SPECS[name]
            out = tmp_path_factory.mktemp(name)
            if spec.log is None:
                built[name] = build_kit(out, *spec.argv)
            else:
                log = out / "game.toml"
                log.write_text(spec.log, encoding="utf-8")
                assert main(["report", str(log), *spec.argv, "--out", str(out / "reports")]) == 0
                for amended in spec.amended:
                    log.write_text(amended, encoding="utf-8")
                    assert main(["report", str(log), *spec.argv, "--amend", "--out",
                                 str(out / "reports")]) == 0
                (built[name],) = [p for p in (out / "reports").iterdir()
                                  if not p.name.startswith(".")]
        return built[name]

    return get


def _report(defects: list[Defect]) -> str:
    by_kind: dict[str, int] = {}
    for d in defects:
        by_kind[d.kind] = by_kind.get(d.kind, 0) + 1
    head = ", ".join(f"{n} {kind}" for kind, n in sorted(by_kind.items()))
    return f"{len(defects)} print defects ({head}):\n" + "\n".join(map(str, defects))


@pytest.mark.slow
@pytest.mark.parametrize("name", [pytest.param(spec.name, id=f"{spec.name}/documents")
                                  for spec in KITS])
def test_kit_holds_the_expected_documents(kit_folder, name):
    folder = kit_folder(name)
    pdfs = sorted(p.stem for p in folder.glob("*.pdf"))
    assert pdfs == sorted(SPECS[name].documents)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "document"), DOCUMENTS)
def test_kit_document_lints_clean(kit_folder, lint_seconds, record_property, name, document):
    path = kit_folder(name) / f"{document}.pdf"
    data = path.read_bytes()
    start = time.perf_counter()
    defects = lint_pdf(data, f"{name}/{document}.pdf", workers=WORKERS)
    lint_seconds[f"{name}/{document}"] = elapsed = time.perf_counter() - start
    record_property("lint_seconds", round(elapsed, 3))
    if defects:
        pytest.fail(_report(defects), pytrace=False)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "document"),
                         [p for p in DOCUMENTS if p.values[1] != "all-tables"])
def test_kit_document_matches_chromiums_printout(kit_folder, chromium_printer, name, document):
    """Our PDF and Chromium's printout of the HTML: the same page count and sizes; on every
    form page the same words and every rule within 0.5 mm; on prose pages the same chrome."""
    folder = kit_folder(name)
    ours = (folder / f"{document}.pdf").read_bytes()
    printed = chromium_printer.print_pdf(folder / f"{document}.html")
    defects = compare_page_counts(ours, printed, f"{name}/{document}.pdf")
    if defects:
        pytest.fail(_report(defects), pytrace=False)
    problems = differences(ours, printed, f"{name}/{document}")
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def axe_page(chromium_printer):
    context = chromium_printer.browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


@pytest.mark.slow
@pytest.mark.parametrize("name", [pytest.param(spec.name, id=f"{spec.name}/axe")
                                  for spec in KITS if spec.axe])
def test_kit_html_passes_axe(kit_folder, axe_page, name):
    """Every HTML file of the kit (of a split party's tables, the last) sets
    ``lang``, gives its tables header cells and has no serious or critical axe violation."""
    spec, folder = SPECS[name], kit_folder(name)
    files = [folder / f"{doc}.html" for doc in spec.documents
             if _sampled(spec, doc) and (folder / f"{doc}.html").is_file()]
    assert files
    source = axe_source()
    for file in files:
        axe_page.goto(file.as_uri())
        check_page(axe_page, source)
