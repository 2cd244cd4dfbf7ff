"""Benchmark of the look-alike check of player names (``kit.names``), on 1,200 distinct names
(``kit build``'s most): the skeleton index against comparing every pair.

  families  building the characters' families once (the confusables list and the case
            mappings), what the first check of a process pays
  index     ``kit.options.Names`` on the 1,200 names: the skeleton index of ``LookAlikes``
  pairs     the same names checked by comparing each with every earlier one (``look_alike``),
            the check the index saves: about 720,000 comparisons

    python bench/names.py              # target: index p95 <= 100 ms, families <= 0.5 s
    python bench/names.py --runs 3 --no-pairs
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kit.names import _families, look_alike  # noqa: E402
from kit.options import MAX_PLAYERS, Names  # noqa: E402

FIRSTS = ["Ada", "Ben", "Cleo", "Dan", "Emma", "Finn", "Gus", "Hana", "Ivo", "Jade", "Kurt",
          "Lena", "Mia", "Ned", "Omar", "Pia", "Quin", "Rosa", "Sven", "Tara", "Ugo", "Vera",
          "Walt", "Xena", "Yuki", "Zack", "Bea", "Cal", "Dora", "Eli"]
LASTS = ["Abbott", "Baker", "Castro", "Dietz", "Engel", "Fisher", "Garcia", "Hoffman", "Ito",
         "Jensen", "Kowalski", "Lindqvist", "Moreau", "Novak", "Ortega", "Petrov", "Quist",
         "Rossi", "Schmidt", "Tanaka", "Ueda", "Vargas", "Weber", "Xu", "Yilmaz", "Zhang",
         "Bauer", "Costa", "Dubois", "Eriksen", "Ferrari", "Gomez", "Horvat", "Ivanov",
         "Jovanovic", "Keller", "Larsen", "Meyer", "Nakamura", "Olsen"]
NAMES = [f"{first} {last}" for last in LASTS for first in FIRSTS][:MAX_PLAYERS]


def every_pair(names: list[str]) -> None:
    """The check without the index: each name against every earlier one."""
    for index, name in enumerate(names):
        for other in names[:index]:
            if other.casefold() != name.casefold() and look_alike(name, other):
                raise SystemExit(f"{name!r} and {other!r} look alike")


def seconds(run: Callable[[], object], times: int) -> list[float]:
    took = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        took.append(time.perf_counter() - start)
    return took


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"median_ms": round(statistics.median(values) * 1000, 1),
            "p95_ms": round(p95 * 1000, 1), "runs": len(values)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--no-pairs", action="store_true", help="skip the every-pair check")
    args = parser.parse_args()
    start = time.perf_counter()
    _families()
    figures: dict[str, object] = {"names": len(NAMES),
                                  "families_s": round(time.perf_counter() - start, 3)}
    figures["index"] = summary(seconds(lambda: Names().convert("names", NAMES), args.runs))
    if not args.no_pairs:
        figures["pairs"] = summary(seconds(lambda: every_pair(NAMES), 1))
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
