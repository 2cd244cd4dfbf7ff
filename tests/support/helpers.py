"""What many test modules share: building kits in-process and reading PDFs back."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from pypdf import PdfReader

from kit.cli import main

if TYPE_CHECKING:  # the console's types, without importing Starlette for every test
    from starlette.testclient import TestClient

    from kit.console.service import Console

ROOT = Path(__file__).resolve().parents[2]


def writes_number(number: int, text: str) -> bool:
    """Whether ``number`` is written in ``text`` as a number of its own.

    Not inside a longer number, and not inside a game id or token: those are letters and digits
    at random, so one holds a given three digits now and then (a letter before and a letter or
    digit after)."""
    return re.search(rf"(?:(?<![\w.#-])|(?<=[A-Za-z])(?!{number}\w)){number}(?!\d|\.\d)",
                     text) is not None
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
MM = 72 / 25.4

# The reference turn report as a game log: A guessed 17 and 33, B hit C with its first guess,
# C's list had three right.
REFERENCE_LOG_TURN_1 = """\
game = "whats-my-number"
players = ["A", "B", "C", "D", "E", "F"]
[secrets]
A = 45
B = 5
C = 40
D = 20
E = 22
F = 30
[[turn]]
A = [17, 33]
B = [40, 25]
C = { list = { A = 45, B = 5, D = 20, E = 1, F = 2 } }
"""

# A Lowest Unique Number game log: one table of four, two rounds; then a second table of three.
LUN_ONE_TABLE_LOG = """\
game = "lowest-unique"
rounds = 2

[[table]]
players = ["Ann", "Bob", "Cy", "Dee"]

[[table.round]]
Ann = 3
Bob = 1
Cy = 1
Dee = "pass"

[[table.round]]
Ann = 2
Bob = 2
Cy = 5
Dee = 4
"""

LUN_TWO_TABLES_LOG = LUN_ONE_TABLE_LOG + """
[[table]]
players = ["Eve", "Fay", "Gus"]

[[table.round]]
Eve = 1
Fay = 2
Gus = 2

[[table.round]]
Eve = 8
Fay = 8
Gus = 8
"""


def plain(text: str) -> str:
    """Text without the invisible direction marks that isolate a name (FSI ... PDI)."""
    return text.replace("\u2068", "").replace("\u2069", "")


def build_kit(out: Path, *argv: str) -> Path:
    """Run ``kit build`` in-process; returns the one kit folder it wrote."""
    code = main(["build", *argv, "--out", str(out)])
    assert code == 0
    (folder,) = [p for p in out.iterdir() if not p.name.startswith(".")]
    return folder


def texts(pdf: Path | bytes) -> list[str]:
    """Each page's text, whitespace collapsed to single spaces (read by pypdf)."""
    if isinstance(pdf, Path):  # many tests read the same session kit: read each file once
        stat = pdf.stat()
        return list(_file_texts(pdf.resolve(), stat.st_mtime_ns, stat.st_size))
    return _texts(pdf)


@functools.lru_cache(maxsize=64)
def _file_texts(path: Path, mtime_ns: int, size: int) -> tuple[str, ...]:
    return tuple(_texts(path.read_bytes()))


def _texts(data: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(data))
    return [" ".join(page.extract_text().split()) for page in reader.pages]


def page_sizes(pdf: Path) -> set[tuple[float, float]]:
    return {(round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2))
            for p in PdfReader(pdf).pages}


def page_fonts(resources: object) -> list[object]:
    """Every font dictionary a page uses, looking inside Form XObjects."""
    found = []
    resources = resources.get_object()  # type: ignore[attr-defined]
    for font in resources.get("/Font", {}).values():
        found.append(font.get_object())
    for xobject in resources.get("/XObject", {}).values():
        xobject = xobject.get_object()
        if "/Resources" in xobject:
            found += page_fonts(xobject["/Resources"])
    return found


def embedded_fonts(pdf: Path) -> dict[str, bool]:
    """Font name (subset tag removed) -> whether its program is embedded, over all pages."""
    fonts: dict[str, bool] = {}
    for page in PdfReader(pdf).pages:
        for font in page_fonts(page["/Resources"]):
            described = font
            if "/DescendantFonts" in font:
                described = font["/DescendantFonts"][0].get_object()
            descriptor = described.get("/FontDescriptor")
            name = str(font["/BaseFont"]).lstrip("/").split("+", 1)[-1]
            embedded = descriptor is not None and any(
                key in descriptor.get_object() for key in ("/FontFile", "/FontFile2",
                                                           "/FontFile3"))
            fonts[name] = fonts.get(name, True) and embedded
    return fonts


@cache
def bundled_font_names() -> frozenset[str]:
    """Every name a PDF may give one of our fonts: PostScript, full and family names."""
    from fontTools.ttLib import TTFont

    names: set[str] = set()
    for path in (ROOT / "fonts").glob("*.ttf"):
        table = TTFont(path, lazy=True)["name"]
        for name_id in (1, 4, 6):
            value = table.getDebugName(name_id)
            if value:
                names |= {value, value.replace(" ", "-"), value.replace(" ", "")}
    # WeasyPrint names a face by family and style: a bold symbol is "Kit-Symbols-Bold" even
    # though the file drawing it is our regular one.
    styled = {f"{name}-{style}" for name in names
              for style in ("Bold", "Italic", "BoldItalic")}
    return frozenset(names | styled)


# --- axe-core in a browser page ------------------------------------------------------------------

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_BLOCKING = ("serious", "critical")


def axe_source() -> str:
    """axe-core's script; skips the test without it, except under CI, where it fails."""
    import pytest

    if not AXE.is_file():
        message = (f"axe-core is missing ({AXE.relative_to(ROOT)}): run `npm ci` at the "
                   "repository root; package.json and package-lock.json pin it")
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return AXE.read_text(encoding="utf-8")


def check_page(page, source: str) -> None:
    """A loaded Playwright ``page``: ``lang`` set, every table with header cells, and no
    serious or critical axe violation."""
    assert page.evaluate("document.documentElement.lang"), page.url
    headless_tables = page.evaluate("""() => [...document.querySelectorAll('table')]
        .filter(t => !t.querySelector('th')).length""")
    assert headless_tables == 0, page.url
    page.add_script_tag(content=source)
    results = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                      nodes: v.nodes.slice(0, 5).map(n => n.target)}));
    }""")
    blocking = [v for v in results if v["impact"] in AXE_BLOCKING]
    assert blocking == [], f"{page.url}:\n{json.dumps(blocking, indent=1)}"


CHROMIUM = Path("/usr/bin/chromium")


def require_browser() -> None:
    """Skip the calling test module (at import) without Debian's Chromium, Playwright or the
    web extra; CI installs all three."""
    import pytest

    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium "
                    "(apt-get install chromium); CI installs it", allow_module_level=True)
    pytest.importorskip("playwright.sync_api",
                        reason="playwright is not installed (pip: playwright)")
    pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")


@contextlib.contextmanager
def served(app: object) -> Iterator[str]:
    """``app`` served by uvicorn on a free loopback port in a thread; yields its base URL."""
    import socket
    import threading
    import time

    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    # an open event stream ends at its next heartbeat (15 s): a second's grace, then ended
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on",
                                        timeout_graceful_shutdown=1))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert srv.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        srv.should_exit = True
        thread.join(20)
        sock.close()


def stop(process: subprocess.Popen) -> None:
    """Stop a server process: SIGTERM and its grace period, then SIGKILL."""
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def kit_serve(tmp_path: Path, port: int, *args: str, env: dict[str, str] | None = None,
              ) -> subprocess.Popen:
    """``kit serve`` as a process of its own on ``port``: one worker, a small Lowest Unique
    Number site, its render cache under ``tmp_path``, never the run's shared database."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "KIT_CACHE_DIR": str(tmp_path / "c"),
                   **(env or {})}
    environment.pop("KIT_DATABASE_URL", None)
    return subprocess.Popen(
        [sys.executable, "-m", "kit", "serve", "--port", str(port), "--workers", "1",
         "--no-prewarm", "--games", "lowest-unique", "--players", "3", "--paper", "a4", *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment)


def decoded(pdf: bytes) -> list[str]:
    """The QR codes on the first page of ``pdf``, read back by zxing-cpp, sorted."""
    import pypdfium2
    import pytest

    zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp is not installed: pip "
                                   "install '.[test]'")
    page = pypdfium2.PdfDocument(pdf)[0]
    image = page.render(scale=600 / 72, grayscale=True).to_pil()
    return sorted(result.text for result in zxingcpp.read_barcodes(
        image, formats=zxingcpp.BarcodeFormat.QRCode))


def check_export_matches_kit_report(client: TestClient, console: Console, game: dict,
                                    tmp_path: Path, folder: str, *flags: str) -> None:
    """``kit report`` of the exported log (with the game's language and paper as ``flags``)
    writes the console's report files, byte for byte, in a folder of the same name."""
    text = client.get(f"/api/games/{game['id']}/log.toml",
                      headers={"Authorization": f"Bearer {game['gm_token']}"}).text
    log = tmp_path / "game.toml"
    log.write_text(text, encoding="utf-8")
    out = tmp_path / "cli"
    done = subprocess.run([sys.executable, "-m", "kit", "report", str(log), "--out", str(out),
                           *flags], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert [p.name for p in out.iterdir()] == [folder]
    written = sorted(p.relative_to(out / folder) for p in (out / folder).rglob("*")
                     if p.is_file())
    assert any(p.suffix == ".pdf" for p in written)
    for name in written:
        mine = console.report_file(game["id"], str(name))
        assert mine.read_bytes() == (out / folder / name).read_bytes(), name
    made = next(parent for parent in mine.parents if parent.name == folder)
    assert sorted(p.relative_to(made) for p in made.rglob("*") if p.is_file()) == written


def catalog_strings(lang: str) -> list[tuple[str, str]]:
    """Every translation of ``lang``'s catalog, each plural form apart, by its (singular)
    msgid: what the sentence checks read."""
    from babel.messages.pofile import read_po

    from kit.i18n import catalog_path

    with open(catalog_path(lang), "rb") as handle:
        catalog = read_po(handle, locale=lang)
    out = []
    for message in catalog:
        if message.id:
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            out += [(msgid, form) for form in forms if form]
    return out


def wait_answering(process: subprocess.Popen, url: str, log: Path) -> None:
    """Wait for a ``kit serve`` process to answer ``/healthz`` (90 s at most: a bound for a
    server that never starts, not a measure); its log in the error if it stops or never does."""
    import time

    import httpx

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"kit serve stopped: {log.read_text()[-2000:]}")
        try:
            if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise AssertionError("kit serve did not answer within 90 s")
