"""Files whose pages are cut apart ask for one-sided printing; the others leave it to the host.

The print dialog reads ``/ViewerPreferences /Duplex /Simplex``; the first page of such a file
says it too, in the kit's language, and no other page does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from support.helpers import LUN_ONE_TABLE_LOG, REFERENCE_LOG_TURN_1, texts

from kit.cli import main

LINE = {"en": "Print this file one-sided: its pages are cut apart.",
        "fr": "Imprimez ce fichier en recto seul : ses pages sont découpées."}


def _duplex(pdf_file: Path) -> str | None:
    preferences = PdfReader(pdf_file).trailer["/Root"].get("/ViewerPreferences", {})
    assert preferences["/PrintScaling"] == "/None"
    return preferences.get("/Duplex")


def _folder(out: Path) -> Path:
    (folder,) = [p for p in out.iterdir() if p.is_dir()]
    return folder


@pytest.mark.parametrize(("game", "lang"), [("lowest-unique", "en"),
                                            ("whats-my-number", "fr")])
def test_the_player_kit_is_one_sided_and_the_host_file_is_not(game: str, lang: str,
                                                              tmp_path: Path) -> None:
    assert main(["build", game, "--players", "4", "--lang", lang, "--out", str(tmp_path)]) == 0
    folder = _folder(tmp_path)
    assert _duplex(folder / "player-kit.pdf") == "/Simplex"
    assert _duplex(folder / "host-answers.pdf") is None
    pages = texts(folder / "player-kit.pdf")
    assert [LINE[lang] in page for page in pages] == [True] + [False] * (len(pages) - 1)
    assert not any(LINE[lang] in page for page in texts(folder / "host-answers.pdf"))
    assert (folder / "player-kit.html").read_text().count(LINE[lang]) == 1


def test_every_table_file_of_a_split_party_is_one_sided(tmp_path: Path) -> None:
    assert main(["build", "lowest-unique", "--players", "16", "--tables", "2",
                 "--out", str(tmp_path)]) == 0
    folder = _folder(tmp_path)
    duplex = {f.name: _duplex(f) for f in folder.glob("*.pdf")}
    assert duplex == {"all-tables.pdf": "/Simplex", "player-kit-table-1.pdf": "/Simplex",
                      "player-kit-table-2.pdf": "/Simplex", "host-answers.pdf": None}
    # each table's file starts with the line, and so does the file of every table, once each
    every = texts(folder / "all-tables.pdf")
    first = len(texts(folder / "player-kit-table-1.pdf"))
    assert [i for i, page in enumerate(every) if LINE["en"] in page] == [0, first]


def test_report_slips_are_one_sided_and_the_other_reports_are_not(tmp_path: Path) -> None:
    wmn = tmp_path / "wmn.toml"
    wmn.write_text(REFERENCE_LOG_TURN_1)
    lun = tmp_path / "lun.toml"
    lun.write_text(LUN_ONE_TABLE_LOG)
    for log in (wmn, lun):
        assert main(["report", str(log), "--out", str(tmp_path / "out")]) == 0
    duplex = {f.name: _duplex(f) for f in (tmp_path / "out").rglob("*.pdf")}
    assert duplex == {"private-slips.pdf": "/Simplex", "turn-reports.pdf": None,
                      "gm-register.pdf": None, "results.pdf": None}
    assert LINE["en"] in texts(tmp_path / "out" / "wmn-reports" / "private-slips.pdf")[0]


def test_build_says_how_many_sheets_each_file_takes(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "lowest-unique", "--players", "7", "--out", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    folder = tmp_path / "lowest-unique-7p-a4"
    # stdout stays the paths, one a line, for scripts
    assert out.splitlines() == [str(folder / f) for f in (
        "host-answers.html", "host-answers.pdf", "player-kit.html", "player-kit.pdf")]
    pages = len(PdfReader(folder / "host-answers.pdf").pages)
    sheets = len(PdfReader(folder / "player-kit.pdf").pages)
    assert err.splitlines() == [
        f"{folder / 'host-answers.pdf'}: {pages} pages, {(pages + 1) // 2} sheets printed on "
        "both sides",
        f"{folder / 'player-kit.pdf'}: {sheets} sheets, one-sided"]


@pytest.mark.slow
def test_build_warns_over_a_hundred_sheets_and_suggests_fewer_turns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "whats-my-number", "--players", "20", "--turns", "30",
                 "--out", str(tmp_path)]) == 0
    kit = tmp_path / "whats-my-number-20p-a4" / "player-kit.pdf"
    sheets = len(PdfReader(kit).pages)
    assert sheets > 100
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"Warning: {kit} takes {sheets} sheets: print fewer turns' forms at a time (--turns, "
        "now 30) and build again if the game runs longer.")
