"""Large print (``--large-print``): one option through config, flags and the web form; the
prose at 12 pt or more, never shrunk, split where a language runs long; six slips a page.

The sizes are read back from the built PDFs: every character inside a page's body frame (the
running head, the footer and the 50 mm ruler are outside it) on the pages large print covers.
"""

from __future__ import annotations

import math
from pathlib import Path

import pdfplumber
import pytest
from support.helpers import build_kit

from kit.build import planned
from kit.config import resolve
from kit.games.lowest_unique.planner import slips
from kit.paper import paper
from kit.plan import Prose
from kit.registry import game_spec
from kit.site.form import config_values, form_options

MM = 72 / 25.4
LARGE_PT = 12.0


def _config(**raw: object):
    return resolve({"game": "lowest-unique", **raw})


def test_large_print_is_a_config_key_a_flag_and_a_form_field() -> None:
    assert _config(large_print=True).large_print is True
    assert _config(large_print="yes").large_print is True
    assert _config().large_print is False
    assert [o.flag for o, _ in form_options() if o.key == "large_print"] == ["--large-print"]
    # a kit's settings refill the form with it, and its folder never replaces the small one
    config = _config(players=7, large_print=True)
    assert config_values(config)["large_print"] == "true"
    assert config.folder_name == "lowest-unique-7p-a4-large"
    assert _config(players=7).folder_name == "lowest-unique-7p-a4"


def test_a_wrong_value_names_the_field() -> None:
    from kit.errors import ConfigError

    with pytest.raises(ConfigError) as caught:
        _config(large_print=3)
    assert caught.value.field == "large_print"
    assert "true or false" in str(caught.value)


def _pages(config, stem: str):
    plan = planned(game_spec(config.game), config)
    (document,) = [d for d in plan.documents if d.stem == stem]
    return document.pages


def test_six_slips_a_page_in_large_print() -> None:
    # 7 players x 5 rounds + 7 spares = 42 slips: 6 pages of 8, or 7 pages of 6 (the last
    # page's free places filled with blank spares: 48 and 42)
    small, large = _config(players=7), _config(players=7, large_print=True)
    assert [len(slips(small, 8)), len(slips(large, 6))] == [48, 42]
    count = [len([p for p in _pages(c, "player-kit") if p.label.startswith("Slips ")])
             for c in (small, large)]
    assert count == [math.ceil(42 / 8), math.ceil(42 / 6)] == [6, 7]


def test_two_column_prose_prints_each_column_on_a_page_of_its_own() -> None:
    labels = [p.label for p in _pages(_config(large_print=True), "player-kit")]
    assert labels[:2] == ["Rules, part 1 of 2", "Rules, part 2 of 2"]
    parts = [p.body.part for p in _pages(_config(large_print=True), "player-kit")[:2]
             if isinstance(p.body, Prose)]
    assert parts == [1, 2]
    assert _pages(_config(), "player-kit")[0].label == "Rules"


def _small_text(pdf: Path, paper_name: str, pages: list[int]) -> list[str]:
    """The characters under 12 pt inside the body frame of ``pages`` (1-based)."""
    body = paper(paper_name).body
    top, bottom = body.y * MM, body.bottom * MM
    found = []
    with pdfplumber.open(pdf) as document:
        for number in pages:
            page = document.pages[number - 1]
            small = "".join(c["text"] for c in page.chars
                            if top <= c["top"] and c["bottom"] <= bottom
                            and c["size"] < LARGE_PT - 0.01)
            if small:
                found.append(f"page {number}: {small[:60]!r}")
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "paper_name"), [("de", "letter"), ("fr", "a4")])
def test_lowest_unique_prints_every_word_at_12_pt(tmp_path: Path, lang: str,
                                                   paper_name: str) -> None:
    folder = build_kit(tmp_path, "lowest-unique", "--players", "12", "--rounds", "12",
                       "--sudden-death-announced", "--lang", lang, "--paper", paper_name,
                       "--large-print")
    with pdfplumber.open(folder / "player-kit.pdf") as document:
        count = len(document.pages)
    # rules in two parts, 12 x 12 + 12 spares = 156 slips at 6 a page, the tally and scores
    assert count == 2 + 156 // 6 + 2
    assert _small_text(folder / "player-kit.pdf", paper_name, list(range(1, count + 1))) == []
    # the host card's two parts and the practice reveals: prose, at 12 pt too
    assert _small_text(folder / "host-answers.pdf", paper_name, [1, 2, 3]) == []


@pytest.mark.slow
def test_whats_my_number_prose_is_12_pt_in_russian(tmp_path: Path) -> None:
    folder = build_kit(tmp_path, "whats-my-number", "--players", "4", "--turns", "1",
                       "--lang", "ru", "--large-print")
    config = resolve({"game": "whats-my-number", "players": 4, "turns": 1, "lang": "ru",
                      "large_print": True})
    for stem in ("player-kit", "host-answers"):
        prose = [i for i, page in enumerate(_pages(config, stem), start=1)
                 if isinstance(page.body, Prose)]
        assert len(prose) >= 4  # rules and reading the report, or the card and examples, x2
        assert _small_text(folder / f"{stem}.pdf", "a4", prose) == []
