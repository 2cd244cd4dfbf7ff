"""Large parties: table maths on numbers, then split kits and batch builds read back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader
from support.helpers import embedded_fonts

from kit.cli import main
from kit.errors import ConfigError
from kit.layout.fit import fits
from kit.layout.table import PAD_MM
from kit.seating import NAMES_PT
from kit.seating import _rows as seating_rows
from kit.tables import deal, seating_pages, table_sizes


@pytest.mark.parametrize(("players", "sizes"), [
    (12, [12]), (13, [7, 6]), (25, [9, 8, 8]), (30, [10, 10, 10]), (1200, [12] * 100),
])
def test_fewest_balanced_tables(players: int, sizes: list[int]) -> None:
    assert table_sizes(players, 3, 12) == sizes


@given(st.integers(3, 3000))
def test_tables_are_the_fewest_that_fit_and_differ_by_at_most_one(players: int) -> None:
    sizes = table_sizes(players, 3, 12)
    assert sum(sizes) == players
    assert max(sizes) - min(sizes) <= 1
    assert all(3 <= s <= 12 for s in sizes)
    assert len(sizes) == -(-players // 12)


def test_explicit_table_count() -> None:
    assert table_sizes(30, 3, 12, tables=5) == [6] * 5
    assert table_sizes(12, 4, None, tables=2) == [6, 6]  # no cap: splits only when asked
    assert table_sizes(40, 4, None) == [40]
    with pytest.raises(ConfigError) as error:
        table_sizes(30, 3, 12, tables=20)
    assert str(error.value) == ("tables: 30 players need 3 to 10 tables of 3 to 12 players; "
                                "got 20 (or leave it empty)")


def test_names_are_dealt_in_order_or_by_a_seeded_shuffle() -> None:
    names = [f"N{i}" for i in range(13)]
    assert deal(names, [7, 6]) == [names[:7], names[7:]]
    shuffled = deal(names, [7, 6], seed=4)
    assert shuffled == deal(names, [7, 6], seed=4)
    assert shuffled != deal(names, [7, 6])
    assert sorted(shuffled[0] + shuffled[1]) == sorted(names)


def test_seating_pages_keep_every_table_once() -> None:
    tables = [(f"Table {i}", [f"Guest {i}-{j}" for j in range(12)]) for i in range(100)]
    pages = seating_pages(tables)
    assert [t for page in pages for t in page] == [(label, names) for label, names in tables]
    assert len(pages) > 1


BAD = [
    (["--players", "2"],
     "Error: players: Lowest Unique Number needs 3 to 12 players per table; got 2"),
    (["--players", "30", "--tables", "0"],
     "Error: tables: must be a whole number from 1 to 100; got “0”"),
    (["--players", "30", "--tables", "20"],
     "Error: tables: 30 players need 3 to 10 tables of 3 to 12 players; got 20 (or leave it "
     "empty)"),
    (["--players", "30", "--shuffle", "3"],
     "Error: shuffle: only seats named players; give names, or leave it out"),
]


@pytest.mark.parametrize(("argv", "expected"), BAD)
def test_bad_party_input(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str],
                         expected: str) -> None:
    assert main(["build", "lowest-unique", *argv, "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == expected + "\n"
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def party(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("party")
    names = ",".join(f"Guest {i:02d}" for i in range(25))
    assert main(["build", "lowest-unique", "--names", names, "--out", str(out)]) == 0
    (folder,) = out.iterdir()  # a named party: a digest of the names after the count
    assert re.fullmatch(r"lowest-unique-25p-a4-[0-9a-f]{6}", folder.name)
    return folder


def pdf_texts(path: Path) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(path).pages]


def test_party_folder_has_per_table_kits_and_one_print_file(party: Path) -> None:
    names = sorted(p.name for p in party.iterdir() if p.is_file() and p.name != ".kit-files")
    assert names == sorted(["all-tables.pdf", "host-answers.html", "host-answers.pdf"] + [
        f"player-kit-table-{t}.{ext}" for t in (1, 2, 3) for ext in ("html", "pdf")])
    per_table = [len(PdfReader(party / f"player-kit-table-{t}.pdf").pages) for t in (1, 2, 3)]
    everything = pdf_texts(party / "all-tables.pdf")
    assert len(everything) == sum(per_table)
    # Print order: every page of table 1, then table 2, then table 3.
    labels = [next(f"Table {t} of 3" for t in (1, 2, 3) if f"Table {t} of 3" in text)
              for text in everything]
    assert labels == sorted(labels)


def test_every_table_page_is_labelled_with_its_own_players(party: Path) -> None:
    seated = {1: range(0, 9), 2: range(9, 17), 3: range(17, 25)}  # 25 -> 9, 8, 8, in order
    for table, members in seated.items():
        pages = pdf_texts(party / f"player-kit-table-{table}.pdf")
        assert all(f"Table {table} of 3" in text for text in pages)
        text = " ".join(pages)
        for i in range(25):
            assert (f"Guest {i:02d}" in text) == (i in members), (table, i)
        html = (party / f"player-kit-table-{table}.html").read_text()
        assert f"Table {table} of 3" in html


def test_one_host_file_with_the_seating_list(party: Path) -> None:
    host = pdf_texts(party / "host-answers.pdf")
    assert "25 players at 3 tables" in host[0]
    assert "Table 1 of 3 Guest 00 · Guest 01" in host[0]
    assert "Table 3 of 3 Guest 17" in host[0]
    assert all("HOST ONLY" in text for text in host)


def test_print_file_is_exact_size_embedded_and_asks_for_actual_size(party: Path) -> None:
    reader = PdfReader(party / "all-tables.pdf")
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert reader.metadata.author == "number-party-kit"
    assert {(round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2))
            for p in reader.pages} == {(595.28, 841.89)}
    fonts = embedded_fonts(party / "all-tables.pdf")
    assert fonts and all(fonts.values())


def test_party_build_is_deterministic(party: Path, tmp_path: Path) -> None:
    names = ",".join(f"Guest {i:02d}" for i in range(25))
    assert main(["build", "lowest-unique", "--names", names, "--out", str(tmp_path)]) == 0
    again = tmp_path / party.name
    for path in party.iterdir():
        if path.is_file():
            assert (again / path.name).read_bytes() == path.read_bytes(), path.name


def test_batch_config_builds_every_party(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    batch = tmp_path / "classes.toml"
    batch.write_text('paper = "letter"\n'
                     '[[party]]\nname = "class-4a"\ngame = "lowest-unique"\nplayers = 5\n'
                     '[[party]]\nname = "class-4b"\ngame = "lowest-unique"\nplayers = 14\n')
    assert main(["build", "--config", str(batch), "--out", str(tmp_path / "out")]) == 0
    written = capsys.readouterr().out.splitlines()
    assert str(tmp_path / "out" / "class-4a" / "player-kit.pdf") in written
    assert str(tmp_path / "out" / "class-4b" / "all-tables.pdf") in written
    letter = PdfReader(tmp_path / "out" / "class-4b" / "all-tables.pdf").pages[0].mediabox
    assert (float(letter.width), float(letter.height)) == (612, 792)


def test_batch_with_a_duplicate_party_name(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    batch = tmp_path / "dup.toml"
    batch.write_text('[[party]]\nname = "x"\ngame = "lowest-unique"\n'
                     '[[party]]\nname = "X"\ngame = "lowest-unique"\n')
    assert main(["build", "--config", str(batch), "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == (
        "Error: party: the name 'X' is used by parties 1 and 2; every party needs its own name "
        "(it names the party's folder)\n")
    assert not (tmp_path / "out").exists()


def test_seating_rows_break_between_names_never_inside_one() -> None:
    names = [f"Guest {n:02d} Smith" for n in range(15)] + ["Maximiliana " * 12 + "Long"]
    lines = seating_rows(names, 120.0)
    assert len(lines) > 2
    short = [line for line in lines if "Guest" in line]
    said = [part.strip(" ·\u2068\u2069") for line in short for part in line.split(" · ")]
    assert said == names[:-1]  # every line holds whole names only
    assert " ".join(lines[len(short):]).strip("\u2068\u2069").split() == names[-1].split()
    assert all(fits(line, 120.0 - 2 * PAD_MM, NAMES_PT) for line in lines)
