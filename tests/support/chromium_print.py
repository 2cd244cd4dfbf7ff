"""Print HTML files to PDF with one shared headless Chromium (Playwright, sync API).

Debian's ``/usr/bin/chromium`` is launched directly; Playwright's own browser download is never
used. One browser serves a whole test session; each file gets a fresh page (and context), so no
state leaks from one document to the next::

    with ChromiumPrinter() as printer:
        pdf_bytes = printer.print_pdf(Path("kit/player-kit.html"))

The page is printed as the kit asks: ``prefer_css_page_size`` (the HTML's ``@page`` size wins)
and ``print_background``. Before printing we wait for the web fonts, so that the page breaks
are those of the bundled fonts, not of a fallback.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--no-first-run"]
TIMEOUT_MS = 120_000


def available() -> str | None:
    """None when printing can work here, else the reason it cannot (for ``pytest.skip``)."""
    if not CHROMIUM.exists():
        return ("Debian's chromium is not installed at /usr/bin/chromium "
                "(apt-get install chromium); CI installs it")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip: playwright)"
    return None


class ChromiumPrinter:
    """One headless Chromium, started on ``__enter__`` (or ``start``) and closed on exit."""

    def __init__(self, executable: Path = CHROMIUM) -> None:
        self.executable = executable
        self._playwright = None
        self._manager = None
        self._browser = None
        self._context = None
        self._page = None

    def start(self) -> ChromiumPrinter:
        from playwright.sync_api import sync_playwright

        self._manager = sync_playwright()
        self._playwright = self._manager.start()
        try:
            self._browser = self._playwright.chromium.launch(
                executable_path=str(self.executable), headless=True, args=LAUNCH_ARGS)
        except BaseException:
            self._manager.__exit__(None, None, None)
            raise
        return self

    def close(self) -> None:
        if self._context is not None:
            self._context.close()
            self._context = self._page = None
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        if self._manager is not None:
            self._manager.__exit__(None, None, None)
            self._manager = None

    def __enter__(self) -> ChromiumPrinter:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def browser(self):
        """The running browser, for tests that drive pages themselves."""
        if self._browser is None:
            raise RuntimeError("ChromiumPrinter is not started")
        return self._browser

    def print_pdf(self, html: Path) -> bytes:
        """The PDF Chromium prints of the HTML file ``html`` (as a file:// URL).

        One page is kept for every printout (a new context per file costs more than the
        print); the kits are static files, so nothing carries over from one to the next.
        """
        if self._browser is None:
            raise RuntimeError("ChromiumPrinter is not started")
        if self._page is None:
            self._context = self._browser.new_context()
            self._page = self._context.new_page()
            self._page.set_default_timeout(TIMEOUT_MS)
        page = self._page
        page.goto(Path(html).resolve().as_uri(), wait_until="load")
        page.evaluate("() => document.fonts.ready.then(() => true)")
        return page.pdf(prefer_css_page_size=True, print_background=True)


__all__ = ["CHROMIUM", "ChromiumPrinter", "available"]
