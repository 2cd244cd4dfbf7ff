"""Benchmark: kit build times, large parties, and Chromium printing the same pages.

Run: ``python bench/bench.py`` (add ``--quick`` to skip the 100-table party). Prints wall
times with page counts, bytes and peak memory. Timing targets live here, not in the tests:
- a 100-table party (1,200 players) in under 20 s on a 2-core machine;
- cost per table does not grow with the tables: t(100) / t(10) <= 10.5;
- peak memory under 1 GiB;
- a cold ``kit build`` of the default kit beats Chromium printing the same HTML.
"""

from __future__ import annotations

import io
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pypdf import PdfReader

from kit.config import resolve
from kit.registry import GAMES
from kit.render import build_files


def pdf_pages(data: bytes) -> int:
    return len(PdfReader(io.BytesIO(data)).pages)


def warm(game: str, repeats: int = 3) -> tuple[float, dict[str, bytes]]:
    config = resolve({"game": game})
    build_files(config)  # warm-up: imports, fonts, templates
    times = []
    files: dict[str, bytes] = {}
    for _ in range(repeats):
        start = time.perf_counter()
        files = build_files(config).files
        times.append(time.perf_counter() - start)
    return statistics.median(times), files


def cold(argv: list[str], out: str) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one ``kit build`` process and its workers."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "kit", "build", *argv, "--out", out], check=True,
                   stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def folder_stats(folder: Path) -> tuple[int, int]:
    pages = sum(pdf_pages(p.read_bytes()) for p in folder.glob("*.pdf")
                if p.name != "all-tables.pdf")
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    return pages, size


def chromium_print(html_files: list[Path], work: Path) -> float | None:
    chromium = shutil.which("chromium")
    if chromium is None:
        return None
    start = time.perf_counter()
    for html in html_files:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-background-networking", "--no-first-run",
                        f"--user-data-dir={work / 'profile'}",
                        f"--print-to-pdf={work / (html.stem + '.pdf')}", html.as_uri()],
                       check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    quick = "--quick" in sys.argv
    print("Default kits, one game each (median of 3 warm in-process builds; one cold process)")
    print(f"{'game':18} {'warm s':>7} {'cold s':>7}  files")
    for game in GAMES:
        seconds, files = warm(game)
        with tempfile.TemporaryDirectory() as out:
            cold_seconds, _ = cold([game], out)
        parts = [f"{name} {pdf_pages(data)} pages {len(data) / 1024:.0f} KiB"
                 for name, data in sorted(files.items()) if name.endswith(".pdf")]
        print(f"{game:18} {seconds:7.2f} {cold_seconds:7.2f}  " + "; ".join(parts))

    print("\nLarge parties: lowest-unique, tables of 12 players, cold `kit build` processes")
    print(f"{'tables':>6} {'players':>7} {'wall s':>7} {'pages':>6} {'MiB out':>8} "
          f"{'peak MiB':>8}  (peak: the largest process so far, kit or a render worker)")
    times: dict[int, float] = {}
    for tables in (1, 10) if quick else (1, 10, 100):
        with tempfile.TemporaryDirectory() as out:
            seconds, peak = cold(["lowest-unique", "--players", str(12 * tables)], out)
            (folder,) = Path(out).iterdir()
            pages, size = folder_stats(folder)
        times[tables] = seconds
        print(f"{tables:6} {12 * tables:7} {seconds:7.2f} {pages:6} {size / 2**20:8.1f} "
              f"{peak:8.0f}")
    if 100 in times:
        print(f"t(100)/t(10) = {times[100] / times[10]:.2f}")

    print("\nThe default lowest-unique kit (8 players, A4): our cold build vs Chromium printing "
          "our HTML")
    with tempfile.TemporaryDirectory() as out:
        ours, _ = cold(["lowest-unique"], out)
        folder = Path(out) / "lowest-unique-8p-a4"
        chromium = chromium_print(sorted(folder.glob("*.html")), Path(out))
    if chromium is None:
        print(f"kit build {ours:.2f} s; chromium not installed")
    else:
        print(f"kit build {ours:.2f} s; chromium --print-to-pdf {chromium:.2f} s; "
              f"ratio chromium/ours = {chromium / ours:.2f}")


if __name__ == "__main__":
    main()
