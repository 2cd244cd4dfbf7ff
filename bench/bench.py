"""Benchmark: how long a kit takes, warm in-process and as a cold ``kit build`` process.

Run: ``python bench/bench.py``. Prints wall times with page counts and file sizes.
Timing targets live here, not in the tests.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time

from pypdf import PdfReader

from kit.config import resolve
from kit.registry import GAMES
from kit.render import build_files


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


def cold(game: str) -> float:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "kit", "build", game, "--out", out], check=True,
                       stdout=subprocess.DEVNULL)
        return time.perf_counter() - start


def main() -> None:
    print(f"{'game':18} {'warm s':>7} {'cold s':>7}  files")
    for game in GAMES:
        seconds, files = warm(game)
        cold_seconds = cold(game)
        parts = []
        for name, data in sorted(files.items()):
            if name.endswith(".pdf"):
                pages = len(PdfReader(__import__("io").BytesIO(data)).pages)
                parts.append(f"{name} {pages} pages {len(data) / 1024:.0f} KiB")
        print(f"{game:18} {seconds:7.2f} {cold_seconds:7.2f}  " + "; ".join(parts))


if __name__ == "__main__":
    main()
