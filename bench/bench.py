"""Benchmark: kit build against Chromium printing the same HTML, big kits, refusals.

Run: ``python bench/bench.py`` (``--quick`` skips the largest runs). Every figure is wall time
of whole ``kit build`` processes (the median of ``--repeat`` runs, default 3), so imports and
start-up count as a host would feel them. The targets (rendering and hardening issues):

- default lowest-unique kit, new process, empty cache: <= 0.50 x Chromium; warm cache: <= 0.25 x
- whats-my-number, 20 players, empty cache: <= 0.30 x Chromium
- whats-my-number, 30 players x 30 turns: <= 6 s
- kit report --turn 30 of a 30-player, 30-turn game log, warm (a second run): <= 0.5 s
- 100 tables of 12 players: <= 3 s; each extra form page <= 15 ms
- every capped request (huge counts, huge files) refused in well under 15 s

Chromium prints each HTML file of the kit with ``--print-to-pdf`` in a new process, as a host
printing from the browser would; the ratio is ours / Chromium's.

Our modules are byte-compiled first, as ``pip install .`` does (pip compiles what it installs):
a host's ``kit build`` never compiles our sources, whatever ``PYTHONDONTWRITEBYTECODE`` says.
The translation catalogs are compiled too, as the wheel's build does (``hatch_build.py``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from pypdf import PdfReader

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def timed(argv: Sequence[str], env: dict[str, str] | None = None, check: bool = True
          ) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = subprocess.run(list(argv), env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if check and done.returncode != 0:
        sys.exit(f"failed: {' '.join(argv)}\n{done.stderr}")
    return seconds, done


def byte_compile() -> None:
    """Compile the ``kit`` that ``python -m kit`` runs, as pip and the wheel's build do."""
    import compileall

    import kit
    from kit.i18n import compile_catalogs

    for folder in kit.__path__:
        compileall.compile_dir(folder, quiet=1)
    compile_catalogs()


def kit_build(args: Sequence[str], out: Path, cache: Path | None) -> float:
    env = dict(os.environ)
    argv = [sys.executable, "-m", "kit", "build", *args, "--out", str(out)]
    if cache is None:
        argv.append("--no-cache")
    else:
        env["KIT_CACHE_DIR"] = str(cache)
    return timed(argv, env)[0]


def median_build(args: Sequence[str], repeat: int, warm: bool) -> tuple[float, Path]:
    """Median wall time; each run has a fresh output folder and (unless warm) a fresh cache."""
    keep = Path(tempfile.mkdtemp(prefix="bench-"))
    cache = keep / "cache"
    if warm:
        kit_build(args, keep / "warmup", cache)
    times = []
    for n in range(repeat):
        run_cache = cache if warm else keep / f"cache-{n}"
        times.append(kit_build(args, keep / f"out-{n}", run_cache))
    (folder,) = [p for p in (keep / "out-0").iterdir() if not p.name.startswith(".")]
    return statistics.median(times), folder


def chromium_print(folder: Path, repeat: int) -> float | None:
    """Median seconds for Chromium to print every HTML file of a kit folder, one process each."""
    if CHROMIUM is None:
        return None
    times = []
    for _ in range(repeat):
        work = Path(tempfile.mkdtemp(prefix="bench-chromium-"))
        start = time.perf_counter()
        for html in sorted(folder.glob("*.html")):
            subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                            "--disable-background-networking", "--no-first-run",
                            f"--user-data-dir={work / 'profile'}", "--no-pdf-header-footer",
                            f"--print-to-pdf={work / (html.stem + '.pdf')}", html.as_uri()],
                           check=True, capture_output=True)
        times.append(time.perf_counter() - start)
        shutil.rmtree(work, ignore_errors=True)
    return statistics.median(times)


def pages(folder: Path) -> int:
    return sum(len(PdfReader(p).pages) for p in folder.glob("*.pdf")
               if p.name != "all-tables.pdf")


def versus_chromium(label: str, args: Sequence[str], repeat: int, target_cold: float,
                    target_warm: float | None) -> None:
    cold, folder = median_build(args, repeat, warm=False)
    warm, _ = median_build(args, repeat, warm=True)
    chromium = chromium_print(folder, repeat)
    line = f"{label:34} {pages(folder):5} {cold:7.2f} {warm:7.2f}"
    if chromium is None:
        print(line + "   (chromium not installed)")
        return
    ratio_cold, ratio_warm = cold / chromium, warm / chromium
    verdict = "ok" if ratio_cold <= target_cold and (
        target_warm is None or ratio_warm <= target_warm) else "MISSED"
    warm_target = f" (<= {target_warm:.2f})" if target_warm is not None else ""
    print(f"{line} {chromium:9.2f} {ratio_cold:6.2f} (<= {target_cold:.2f}) "
          f"{ratio_warm:6.2f}{warm_target}  {verdict}")


def big(label: str, args: Sequence[str], repeat: int, target: float) -> tuple[float, int]:
    seconds, folder = median_build(args, repeat, warm=False)
    count = pages(folder)
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20
    verdict = "ok" if seconds <= target else "MISSED"
    print(f"{label:34} {count:5} {seconds:7.2f} s  (<= {target:.0f} s)  {size:6.1f} MiB  {verdict}")
    return seconds, count


def game_log(players: int, turns: int) -> str:
    """A What's My Number? log nobody wins in time: two guesses a player a turn, drawn with a
    fixed seed (so every run times the same log)."""
    import random

    draw = random.Random(7)
    labels = [f"P{n:02}" for n in range(1, players + 1)]
    hi = 10 * (players - 1)
    lines = ['game = "whats-my-number"', "players = [" + ", ".join(f'"{p}"' for p in labels)
             + "]", "", "[secrets]"] + [f"{p} = {draw.randint(1, hi)}" for p in labels]
    for _ in range(turns):
        lines += ["", "[[turn]]"] + [f"{p} = [{draw.randint(1, hi)}, {draw.randint(1, hi)}]"
                                     for p in labels]
    return "\n".join(lines) + "\n"


def report_turn(repeat: int, target: float = 0.5) -> None:
    """``kit report --turn 30`` of a 30 x 30 log: the GM's step after every turn."""
    work = Path(tempfile.mkdtemp(prefix="bench-report-"))
    log = work / "big.toml"
    log.write_text(game_log(30, 30))
    argv = [sys.executable, "-m", "kit", "report", str(log), "--turn", "30", "--out",
            str(work / "out")]
    env = {**os.environ, "KIT_CACHE_DIR": str(work / "cache")}
    timed(argv, env)  # warm: the cache and the folder exist, as after the previous turn
    times = [timed(argv, env)[0] for _ in range(repeat)]
    seconds = statistics.median(times)
    verdict = "ok" if seconds <= target else "MISSED"
    print(f"{'report --turn 30, 30 players x 30':34} {seconds:7.2f} s  (<= {target:.1f} s, "
          f"warm)  {verdict}")
    shutil.rmtree(work, ignore_errors=True)


def refusals() -> None:
    """Requests past the caps must end fast with one line, exit 2, and nothing written."""
    work = Path(tempfile.mkdtemp(prefix="bench-refuse-"))
    names = work / "names.txt"
    names.write_text(",".join(f"P{i}" for i in range(10_000)))
    parties = work / "parties.toml"
    parties.write_text("".join(f'[[party]]\nname = "p{i}"\ngame = "lowest-unique"\n'
                               for i in range(10_000)))
    log = work / "log.toml"
    log.write_text('game = "whats-my-number"\nplayers = ["A", "B", "C", "D"]\n'
                   "[secrets]\nA = 1\nB = 2\nC = 3\nD = 4\n" + "[[turn]]\n" * 100_000)
    cases = [
        ("--players 100000", ["build", "lowest-unique", "--players", "100000"]),
        ("10,000 names", ["build", "lowest-unique", "--names", names.read_text()]),
        ("batch of 10,000 parties", ["build", "--config", str(parties)]),
        ("--config /dev/zero", ["build", "--config", "/dev/zero"]),
        ("report /dev/zero", ["report", "/dev/zero"]),
        ("log with 100,000 turns", ["report", str(log)]),
    ]
    print(f"\n{'refused request':34} {'s':>7}  exit  first line of stderr")
    for label, argv in cases:
        seconds, done = timed([sys.executable, "-m", "kit", *argv, "--out",
                               str(work / "out")], check=False)
        first = (done.stderr.splitlines() or [""])[0][:70]
        print(f"{label:34} {seconds:7.2f}  {done.returncode:4}  {first}")
    written = list((work / "out").rglob("*")) if (work / "out").exists() else []
    print(f"files written by the refused requests: {len(written)}")
    shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the largest runs")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    args = parser.parse_args()
    repeat = args.repeat
    byte_compile()
    print(f"{'kit vs Chromium printing its HTML':34} {'pages':>5} {'cold s':>7} {'warm s':>7} "
          f"{'chromium':>9} {'cold x':>6}{'':11} {'warm x':>6}")
    versus_chromium("lowest-unique, 8 players (default)", ["lowest-unique"], repeat, 0.50, 0.25)
    versus_chromium("whats-my-number, 20 players", ["whats-my-number", "--players", "20"],
                    repeat, 0.30, None)
    print(f"\n{'big kits (new process, empty cache)':34} {'pages':>5} {'wall':>9}")
    big("whats-my-number, 30 players x 30 turns",
        ["whats-my-number", "--players", "30", "--turns", "30"], 1 if args.quick else repeat,
        6.0)
    report_turn(repeat)
    if not args.quick:
        t10, p10 = big("lowest-unique, 10 tables of 12", ["lowest-unique", "--players", "120"],
                       repeat, 3.0)
        t100, p100 = big("lowest-unique, 100 tables of 12",
                         ["lowest-unique", "--players", "1200"], repeat, 3.0)
        extra = (t100 - t10) / (p100 - p10) * 1000
        print(f"each extra form page: {extra:.1f} ms (<= 15 ms)  "
              f"{'ok' if extra <= 15 else 'MISSED'}")
    refusals()


if __name__ == "__main__":
    main()
