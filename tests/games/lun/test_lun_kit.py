"""The lowest-unique kit read back from its files: sizes, fonts, texts, margins, determinism."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader
from support.helpers import (
    A4,
    LETTER,
    build_kit,
    bundled_font_names,
    embedded_fonts,
    page_sizes,
    texts,
)

from kit.games.lowest_unique import rules
from kit.games.lowest_unique.sheets.table_sheets import shared_rows
from kit.resources import font_path

MIN_EDGE_PT = 6 / 25.4 * 72  # printers cannot print within ~6 mm of the edge
sizes = page_sizes


def test_page_boxes_are_exact(lun_a4: Path, lun_letter_named: Path) -> None:
    for stem in ("player-kit", "host-answers"):
        assert sizes(lun_a4 / f"{stem}.pdf") == {A4}
        assert sizes(lun_letter_named / f"{stem}.pdf") == {LETTER}


def test_pdfs_ask_for_actual_size_and_carry_metadata(lun_a4: Path) -> None:
    for stem, title in (("player-kit", "player kit"), ("host-answers", "host answers")):
        reader = PdfReader(lun_a4 / f"{stem}.pdf")
        prefs = reader.trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/PrintScaling"] == "/None"
        assert reader.metadata.title == f"Lowest Unique Number — {title}"
        assert reader.metadata.author == "number-party-kit"


def test_every_font_is_bundled_and_embedded(lun_a4: Path) -> None:
    for stem in ("player-kit", "host-answers"):
        fonts = embedded_fonts(lun_a4 / f"{stem}.pdf")
        assert fonts and set(fonts) <= bundled_font_names(), set(fonts)
        assert all(fonts.values())
    assert "KitSymbols-Regular" in embedded_fonts(lun_a4 / "player-kit.pdf")  # the tally's →


def test_pdf_header_is_version_1_7(lun_a4: Path) -> None:
    for stem in ("player-kit", "host-answers"):
        assert (lun_a4 / f"{stem}.pdf").read_bytes()[:8] == b"%PDF-1.7"


def test_rules_sheet_states_every_rule(lun_a4: Path) -> None:
    rules_page = texts(lun_a4 / "player-kit.pdf")[0]
    for phrase in (
        "Choose one whole number from 1 to 10 · 5 rounds",
        "3 to 12 players; larger parties play at separate tables",
        "20 seconds", "A pass is not a zero", "“locked”", "at the same time",
        "two or more players is cancelled", "the lowest wins its writer one point",
        "nobody scores", "no half points", "do not carry over", "reads the choices aloud",
        "copying mistake", "swap slips", "thrown out and played again with fresh slips",
        "highest total wins", "share the result", "No extra sudden-death round",
        "Together:", "The host may play", "Whisper your number to the host",
    ):
        assert phrase in rules_page, phrase


def test_sudden_death_rule_only_when_announced(lun_a4: Path, lun_letter_named: Path) -> None:
    assert "Sudden death (announced before round one)" not in texts(lun_a4 / "player-kit.pdf")[0]
    assert "Sudden death (announced before round one)" in texts(
        lun_letter_named / "player-kit.pdf")[0]


def test_every_player_page_has_the_ruler_and_host_pages_say_host_only(lun_a4: Path) -> None:
    for text in texts(lun_a4 / "player-kit.pdf"):
        assert "This bar should measure 50 mm" in text
        assert "HOST ONLY" not in text
    for text in texts(lun_a4 / "host-answers.pdf"):
        assert "HOST ONLY" in text
        assert "This bar should measure" not in text


def test_ruler_bar_is_fifty_millimetres(lun_a4: Path) -> None:
    with pdfplumber.open(lun_a4 / "player-kit.pdf") as pdf:
        page = pdf.pages[0]
        label = page.search("This bar should measure 50 mm")[0]
        # The bar is the widest rule just above its label, with a tick at each end.
        bars = [r for r in page.lines if label["top"] - 8 < r["top"] <= label["top"]
                and r["height"] < 0.5]
        bar = max(bars, key=lambda r: r["width"])
        ticks = [r for r in page.lines if r["width"] < 0.5 and abs(r["bottom"] - bar["top"]) < 1]
    assert bar["width"] * 25.4 / 72 == pytest.approx(50, abs=0.1)
    assert len(ticks) == 6
    assert {round((t["x0"] - bar["x0"]) * 25.4 / 72) for t in ticks} == {0, 10, 20, 30, 40, 50}


def test_slips_one_per_player_per_round_plus_spares(lun_a4: Path) -> None:
    pages = texts(lun_a4 / "player-kit.pdf")
    slip_pages = [t for t in pages if "Slips " in t and "Name or symbol" in t]
    assert len(slip_pages) == 6  # 8 x 5 + 8 spares = 48 slips, 8 a page
    assert sum(t.count("My number (1 to 10)") for t in slip_pages) == 48
    assert all("Fold the bottom strip up along the dashed line" in t and "You may pass until"
               in t for t in slip_pages)


def test_named_slips_are_printed_per_player_and_round(lun_letter_named: Path) -> None:
    pages = texts(lun_letter_named / "player-kit.pdf")
    slips = " ".join(t for t in pages if "My number" in t)
    assert slips.count("<b>Ann</b>") == 6  # 5 rounds and 1 spare
    assert slips.count("{{x}}") == 6
    assert slips.count("Round 5 of 5") == 4
    assert slips.count("Replay of round") == 4


def test_names_are_data_not_markup(lun_letter_named: Path) -> None:
    html = (lun_letter_named / "player-kit.html").read_text()
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "<b>Ann</b>" not in html
    assert "{{x}}" in html


def test_custom_range_is_printed_on_every_player_page(lun_letter_named: Path) -> None:
    pages = texts(lun_letter_named / "player-kit.pdf")
    assert "Announced range for this game: 1 to 20" in pages[0]
    assert all("1 to 20" in t for t in pages)


def test_tally_score_grid_and_check_examples(lun_a4: Path) -> None:
    pages = texts(lun_a4 / "player-kit.pdf")
    tally = next(t for t in pages if "Round tally" in t)
    assert "Round All choices (sorted) Surviving singles Winner" in tally
    assert "1,1,2,3,3,8 → 2 wins" in tally
    assert "2,2,5,5,9,9 → no winner" in tally
    assert tally.count("Replay") >= 2  # the instruction and one replay row
    scores = next(t for t in pages if "Score sheet" in t)
    assert "Player R1 R2 R3 R4 R5 Total Place" in scores


def test_practice_answers_only_in_the_host_file_and_computed(lun_a4: Path) -> None:
    assert not any("Answer:" in t for t in texts(lun_a4 / "player-kit.pdf"))
    host = " ".join(texts(lun_a4 / "host-answers.pdf"))
    names = [chr(ord("A") + i) for i in range(8)]
    practice = rules.practice_rounds(names, (1, 10))
    assert host.count("Answer:") == len(practice) == 8
    for i, round_ in enumerate(practice, start=1):
        picks = " · ".join(f"{n} {'passes' if c is None else c}" for n, c in round_.picks)
        assert f"Practice {i}: {round_.lesson} {picks}" in host
        answer = (f"{round_.winner_name} scores with {round_.result.winner}."
                  if round_.winner_name else "No winner: every number cancelled")
        assert answer in host
    assert "Print at 100% / actual size" in host
    assert "Rules 1" in host and "Slips 1–6 of 6 1" in host and "Slips 2 of" not in host


def test_only_black_and_white(lun_a4: Path) -> None:
    with pdfplumber.open(lun_a4 / "player-kit.pdf") as pdf:
        for page in pdf.pages:
            for obj in page.chars + page.rects + page.lines:
                for key in ("non_stroking_color", "stroking_color"):
                    colour = obj.get(key)
                    if isinstance(colour, int | float):
                        colour = (colour,)
                    if colour:  # black or white, in any colour space
                        assert set(colour) <= {0, 1}, colour


def test_same_config_gives_identical_bytes(tmp_path: Path, lun_a4: Path) -> None:
    again = build_kit(tmp_path, "lowest-unique", "--players", "8")
    for name in ("player-kit.pdf", "player-kit.html", "host-answers.pdf", "host-answers.html"):
        assert (again / name).read_bytes() == (lun_a4 / name).read_bytes(), name


def test_html_is_self_contained(lun_a4: Path) -> None:
    html = (lun_a4 / "player-kit.html").read_text()
    assert "@page { size: 210mm 297mm; margin: 0; }" in html
    urls = set(re.findall(r"url\(\"?([^\")]+)", html)) | set(re.findall(r'(?:src|href)="([^"]+)"',
                                                                        html))
    assert urls and all(u.startswith("fonts/") for u in urls)
    for url in urls:  # the bundled files themselves, byte for byte
        assert (lun_a4 / url).read_bytes() == font_path(url.split("/", 1)[1]).read_bytes()
    licence = "AtkinsonHyperlegible-OFL.txt"
    assert (lun_a4 / "fonts" / licence).read_bytes() == font_path(licence).read_bytes()


def test_a_tie_break_has_its_row_and_column_only_when_announced(tmp_path: Path,
                                                                lun_a4: Path) -> None:
    folder = build_kit(tmp_path, "lowest-unique", "--players", "6",
                       "--sudden-death-announced")
    pages = texts(folder / "player-kit.pdf")
    tally = next(t for t in pages if "Round tally" in t)
    scores = next(t for t in pages if "Score sheet" in t)
    assert "Tie-break" in tally and "Player R1 R2 R3 R4 R5 Total Place" in scores
    assert "Tie-break won by:" in scores
    plain = texts(lun_a4 / "player-kit.pdf")
    assert not any("Tie-break" in t for t in plain)
    assert "in that round’s column" in scores  # a replay takes the discarded round's place


def tally_columns(pdf: Path) -> list[float]:
    """The widths (mm) of the round tally's columns, read from its ruled lines."""
    with pdfplumber.open(pdf) as document:
        page = next(p for p in document.pages if "Round tally" in (p.extract_text() or ""))
        upright = [line for line in page.lines if abs(line["x0"] - line["x1"]) < 0.1]
        top = min(line["top"] for line in upright)  # the tally's head row: its first table
        xs = sorted({round(line["x0"], 1) for line in upright if line["top"] <= top + 0.5})
    return [round((b - a) * 25.4 / 72, 1) for a, b in zip(xs, xs[1:], strict=False)]


def test_the_tally_gives_the_choices_the_room_a_round_needs(tmp_path: Path) -> None:
    """Twelve three-digit choices and their commas take about 58 handwritten characters: the
    choices column widens for them (it was 72 mm whatever the game), the round column keeps
    only what its labels need."""
    small = tally_columns(build_kit(tmp_path / "small", "lowest-unique", "--players", "3")
                          / "player-kit.pdf")
    big = tally_columns(build_kit(tmp_path / "big", "lowest-unique", "--players", "12",
                                  "--range", "1-999") / "player-kit.pdf")
    assert len(small) == len(big) == 4
    assert big[1] >= 110 and big[1] > small[1] + 30
    assert small[0] < 25 and big[0] < 25  # "Round", "Replay": not 28.5 mm for one digit
    assert min(big[2:]) >= 27.5  # the singles and the winner keep room


def test_cooperative_kit_keeps_no_score(tmp_path: Path) -> None:
    folder = build_kit(tmp_path, "lowest-unique", "--players", "4", "--cooperative")
    pages = texts(folder / "player-kit.pdf")
    assert "This table plays together (cooperative variant)" in pages[0]
    assert not any("Score sheet" in t for t in pages)
    tally = next(t for t in pages if "Round tally" in t)
    assert "Exactly one single?" in tally


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_longest_game_fits_its_host_card(tmp_path: Path, paper: str) -> None:
    """12 players, 12 rounds: twenty slip pages share one row of the print guide, so the host
    card still fits its page (it ran 53 mm past it on Letter when each had a row)."""
    folder = build_kit(tmp_path, "lowest-unique", "--players", "12", "--rounds", "12",
                       "--paper", paper)
    slip_pages = sum(" · Slips " in text for text in texts(folder / "player-kit.pdf"))
    host_card = texts(folder / "host-answers.pdf")[0]
    assert slip_pages == 20
    assert f"Slips 1–{slip_pages} of {slip_pages} 1" in host_card
    assert "Slips 2 of" not in host_card


def pdftotext(pdf: Path, page: int) -> str:
    """One page's text as Poppler's pdftotext reads it, in reading order."""
    done = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-"],
                          capture_output=True, text=True, check=True)
    return " ".join(done.stdout.split())


def test_the_tally_and_the_score_sheet_share_a_page(lun_a4: Path,
                                                    lun_letter_named: Path) -> None:
    """Eight players, five rounds: rules, six slip pages, then one page with both tables,
    the tally first; the host card's print guide names that page."""
    kit = lun_a4 / "player-kit.pdf"
    assert len(texts(kit)) == 8
    last = pdftotext(kit, 8)
    assert "Lowest Unique Number · Round tally and score sheet" in last
    tally, scores = last.index("Round tally Write every round"), last.index("Score sheet One")
    assert tally < last.index("1,1,2,3,3,8 → 2 wins") < scores
    assert "Round All choices (sorted) Surviving singles Winner" in last
    assert "Player R1 R2 R3 R4 R5 Total Place" in last
    assert "page 8 of 8" in last
    assert "Round tally and score sheet 1" in texts(lun_a4 / "host-answers.pdf")[0]
    named = texts(lun_letter_named / "player-kit.pdf")  # Letter, a tie-break row and line
    assert ("Round tally" in named[-1] and "Tie-break won by:" in named[-1]
            and "Dee" in named[-1])


@pytest.mark.parametrize(("argv", "pages"), [
    (("--players", "12"), ("Round tally", "Score sheet")),
    (("--players", "8", "--rounds", "12"), ("Round tally", "Score sheet")),
    (("--players", "8", "--large-print"), ("Round tally", "Score sheet")),
    (("--players", "4", "--large-print"), ("Round tally and score sheet",)),
    (("--players", "6", "--paper", "letter", "--lang", "ru"),
     ("Сводка раундов и таблица очков",)),
])
def test_the_tables_share_a_page_only_when_both_fit(tmp_path: Path, argv: tuple[str, ...],
                                                    pages: tuple[str, ...]) -> None:
    kit = texts(build_kit(tmp_path, "lowest-unique", *argv) / "player-kit.pdf")
    labels = [page.split(" · ", 1)[1] for page in kit[-len(pages):]]
    assert [label[:len(want)] for label, want in zip(labels, pages, strict=True)] == list(pages)
    if len(pages) == 2:  # each on a page of its own: neither page holds the other table
        assert "Player R1" not in kit[-2] and "All choices (sorted)" not in kit[-1]


def test_shared_rows_give_way_to_their_least_then_stop() -> None:
    assert shared_rows(200.0, 6, 8) == (13.0, 10.0)  # room to spare: the tables' own rows
    assert shared_rows(140.0, 6, 8) == (10.0, 10.0)  # the tally's rows give way first
    assert shared_rows(130.0, 6, 8) == (9.0, 9.5)  # then the score rows
    assert shared_rows(118.0, 6, 8) == (9.0, 8.0)
    assert shared_rows(117.9, 6, 8) is None
    assert shared_rows(154.0, 6, 8, large=True) == (11.0, 11.0)
    assert shared_rows(153.9, 6, 8, large=True) is None
