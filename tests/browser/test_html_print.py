"""Our HTML printed by a real browser (headless Chromium, default settings) stays clean."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

pytestmark = pytest.mark.slow


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def print_with_chromium(html: Path, pdf: Path, profile: Path) -> None:
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run must install it")
        pytest.skip("chromium is not installed")
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--no-first-run", f"--user-data-dir={profile}",
         f"--print-to-pdf={pdf}", html.as_uri()],
        check=True, capture_output=True, timeout=120,
    )


def test_control_page_without_our_css_gets_browser_headers(tmp_path: Path) -> None:
    """Proves the check below can fail: a plain page gets a date, its URL and a counter."""
    plain = tmp_path / "plain.html"
    plain.write_text("<html><head><title>T</title></head><body><p>hello</p></body></html>")
    print_with_chromium(plain, tmp_path / "plain.pdf", tmp_path / "profile")
    text = PdfReader(tmp_path / "plain.pdf").pages[0].extract_text()
    assert "plain.html" in text and re.search(r"\b1/1\b", text)


# Both files share print.css and its @page rule; the lint matrix compares every kit file's
# pages with Chromium's printout.
@pytest.mark.parametrize("stem", ["host-answers"])
def test_browser_print_has_no_header_footer_and_same_pages(
    tmp_path: Path, lun_a4: Path, stem: str
) -> None:
    out = tmp_path / f"{stem}.pdf"
    print_with_chromium(lun_a4 / f"{stem}.html", out, tmp_path / "profile")
    ours = PdfReader(lun_a4 / f"{stem}.pdf")
    printed = PdfReader(out)
    assert len(printed.pages) == len(ours.pages)
    for page in printed.pages:
        # Chromium measures in whole CSS pixels, so A4 comes out within half a point.
        assert float(page.mediabox.width) == pytest.approx(595.28, abs=0.5)
        assert float(page.mediabox.height) == pytest.approx(841.89, abs=0.5)
        text = page.extract_text()
        assert "file:" not in text and "ﬁle:" not in text and ".html" not in text
        assert not re.search(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b", text)  # a date
        assert not re.search(r"(?<![\d.])\d+/\d+(?![\d/])", text)  # a page counter like 3/9
        assert "page " in text  # our own folio is still there
