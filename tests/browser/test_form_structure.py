"""The HTML kit's forms in Chromium's accessibility tree: a tally, a score sheet or a turn
report reads as one table (its column headers, a row per drawn row), a page of slips or order
forms as one list of them, and the drawing's words are not read twice."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.helpers import build_kit, require_browser

pytestmark = pytest.mark.slow
require_browser()


@pytest.fixture(scope="module")
def wmn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kit(tmp_path_factory.mktemp("wmn"), "whats-my-number", "--players", "5")


@pytest.fixture(scope="module")
def page(chromium_printer):
    context = chromium_printer.browser.new_context()
    yield context.new_page()
    context.close()


def tree(page, html: Path, label: str) -> list[str]:
    """The accessibility tree of the page ``label`` of ``html``, a line per node."""
    page.goto(html.as_uri())
    snapshot = page.locator(f'section[aria-label="{label}"]').aria_snapshot()
    return [line.strip() for line in snapshot.splitlines()]


def test_the_round_tally_reads_as_one_table(page, lun_a4: Path) -> None:
    lines = tree(page, lun_a4 / "player-kit.html", "Round tally and score sheet")
    # the page's tables, each named by its heading
    assert [line for line in lines if line.startswith("- table")] == [
        '- table "Round tally":', '- table "Check examples":', '- table "Score sheet":']
    first = lines.index('- table "Round tally":')
    headers = [line for line in lines[first:] if line.startswith("- columnheader")][:4]
    assert headers == ['- columnheader "Round"', '- columnheader "All choices (sorted)"',
                       '- columnheader "Surviving singles"', '- columnheader "Winner"']
    rows = [line for line in lines[first:lines.index('- table "Check examples":')]
            if line.startswith("- row ")]
    assert rows[1:] == ['- row "1":', '- row "2":', '- row "3":', '- row "4":', '- row "5":',
                        '- row "Replay":']
    drawing = next(line for line in lines if line.startswith("- img"))
    assert "Round tally" in drawing and "All choices (sorted)" not in drawing


def test_a_page_of_slips_reads_as_one_list_of_slips(page, lun_a4: Path) -> None:
    lines = tree(page, lun_a4 / "player-kit.html", "Slips 1 of 6")
    assert lines.count('- list "Slips 1 of 6":') == 1
    slips = [line for line in lines if line.startswith("- listitem")]
    assert len(slips) == 8 and all("My number (1 to 10)" in slip for slip in slips)
    drawing = next(line for line in lines if line.startswith("- img"))
    assert "My number" not in drawing


def test_order_forms_and_turn_reports_read_whole(page, wmn: Path) -> None:
    forms = tree(page, wmn / "player-kit.html", "Order forms 1 of 4")
    assert forms.count('- list "Order forms 1 of 4":') == 1
    assert [line for line in forms if line.startswith("- listitem")][0].startswith(
        '- listitem: "A order form · turn 1 Guess 1 Guess 2')
    report = tree(page, wmn / "player-kit.html", "Turn 1 and 2 reports")
    assert [line for line in report if line.startswith("- table")] == [
        '- table "Turn 1 report":', '- table "Turn 2 report":']
    assert '- columnheader "Guess"' in report and '- row "A 1 X":' in report
