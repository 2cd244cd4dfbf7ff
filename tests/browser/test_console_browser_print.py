"""Printing one turn from the game master's console in Chromium (Playwright).

After publishing, "Print turn N" links that turn's report and its private slips only, the very
files ``kit report --turn N`` writes (compared byte for byte, fetched with the browser's
cookies); the slips stay the game master's; the whole game's files stay listed. At 1280x800
and 390x844.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.helpers import require_browser
from test_console_browser import api, base_url, browser, fill_grid, gm_login, open_page  # noqa: F401
from test_console_browser_gm import PLAYERS, new_game

pytestmark = pytest.mark.slow

require_browser()


@pytest.fixture(params=[(1280, 800), (390, 844)], ids=["desktop", "phone"])
def page(browser, request):  # noqa: F811
    width, height = request.param
    page = open_page(browser, width, height, has_touch=width < 500)
    yield page
    problems = page.problems  # type: ignore[attr-defined]
    page.context.close()
    assert problems == [], problems


def kit_report_turn(base: str, game_id: str, token: str, turn: int, tmp_path: Path) -> Path:
    """``kit report --turn N`` of the game's exported log: the folder it writes."""
    status, text = api(base, f"/api/games/{game_id}/log.toml", token=token)
    assert status == 200
    log = tmp_path / "game.toml"
    log.write_text(text, encoding="utf-8")
    out = tmp_path / "cli"
    done = subprocess.run([sys.executable, "-m", "kit", "report", str(log), "--turn", str(turn),
                           "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (folder,) = out.iterdir()
    return folder


def pdf_text(data: bytes, tmp_path: Path) -> str:
    pdf = tmp_path / "got.pdf"
    pdf.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


def test_print_this_turn_links_its_report_and_slips_only(page, base_url, tmp_path):  # noqa: F811
    game_id, token = new_game(base_url)
    gm_login(page, base_url, game_id, token)
    fill_grid(page, {"Ann": [10, 25], "Bob": [5, 21], "Cy": [1, 2], "Dee": [3, 4]}, PLAYERS)
    page.click("text=Publish turn 1")
    page.wait_for_url(re.compile("published=1"))
    fill_grid(page, {"Ann": [11, 12], "Bob": [13, 14], "Cy": [15, 16]}, PLAYERS)
    page.click("text=Publish turn 2")
    page.wait_for_url(re.compile("published=2"))
    # right under the notice, before the next turn's grid
    block = page.locator("#grid nav.print-turn")
    assert block.locator("h3").inner_text() == "Print turn 2"
    links = block.locator("a")
    assert links.all_inner_texts() == [
        "Report of turn 2 (PDF, to print)", "Report of turn 2 (HTML, for a screen)",
        "Private slips of turn 2 (PDF, to print)", "Private slips of turn 2 (HTML, for a screen)"]
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert hrefs == [f"/console/{game_id}/files/{name}" for name in
                     ("turn-2.pdf", "turn-2.html", "slips-turn-2.pdf", "slips-turn-2.html")]
    assert block.locator(".meta").count() == 2  # the slips: for the game master only
    cli = kit_report_turn(base_url, game_id, token, 2, tmp_path)
    for href in hrefs:
        got = page.request.get(base_url + href)  # with the browser's GM cookie
        assert got.status == 200, href
        assert got.body() == (cli / href.rsplit("/", 1)[1]).read_bytes(), href
    report = pdf_text(page.request.get(base_url + hrefs[0]).body(), tmp_path)
    assert "turn 2" in report.lower() and "turn 1" not in report.lower()
    slips = pdf_text(page.request.get(base_url + hrefs[2]).body(), tmp_path)
    assert all(name in slips for name in PLAYERS) and "turn 1" not in slips.lower()
    # the whole game's files stay listed (once made: meanwhile the page says they are being
    # made)
    for _ in range(120):
        whole = page.locator("#reports ul.downloads a").all_inner_texts()
        if "Turn reports (PDF, to print)" in whole:
            break
        page.wait_for_timeout(500)
        page.reload()
    assert "Turn reports (PDF, to print)" in whole
    assert "Private slips for each player (PDF, to print)" in whole
    # players get the turn's report, never its slips; no turn beyond the published ones
    assert api(base_url, f"/console/{game_id}/files/turn-2.pdf")[0] == 200
    assert api(base_url, f"/console/{game_id}/files/slips-turn-2.pdf")[0] == 403
    assert page.request.get(f"{base_url}/console/{game_id}/files/turn-3.pdf").status == 404
    # later, the last published turn's block is among the reports
    page.goto(f"{base_url}/console/{game_id}/gm")
    assert page.locator("#grid nav.print-turn").count() == 0
    assert page.locator("#reports nav.print-turn h3").inner_text() == "Print turn 2"
