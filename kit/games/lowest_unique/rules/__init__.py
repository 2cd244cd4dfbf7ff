"""Lowest unique number: the scoring rule and the facts a kit prints, as pure data.

Every player secretly picks a whole number; equal numbers cancel; the lowest number picked by
exactly one player scores one point. A pass is not a number, so it never cancels or scores.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import factorial

from ....i18n import N_

NAME = "lowest-unique"
TITLE = N_("Lowest Unique Number")
MIN_PLAYERS = 3
MAX_PLAYERS = 12  # per table; bigger parties sit at separate tables
DEFAULT_RANGE = (1, 10)
DEFAULT_ROUNDS = 5
PRACTICE_SEED = 20001  # fixed so practice reveals are the same in every build
# The kit's config and the party log refuse the two variants together in the same words.
BOTH_VARIANTS = N_("the cooperative variant keeps no score, so there is no tie to break; "
                   "choose one or the other")


@dataclass(frozen=True)
class RoundResult:
    """What a reveal shows once equal numbers are grouped."""

    choices: tuple[int, ...]  # every number handed in, sorted; passes left out
    passes: int
    cancelled: tuple[int, ...]  # numbers picked by two or more players, ascending
    singles: tuple[int, ...]  # numbers picked by exactly one player, ascending
    winner: int | None  # the lowest single, or None when every number cancelled


def score_round(choices: Iterable[int | None]) -> RoundResult:
    """Score one reveal; ``None`` stands for a pass."""
    handed_in = list(choices)
    picked = [c for c in handed_in if c is not None]
    counts = Counter(picked)
    singles = tuple(sorted(n for n, k in counts.items() if k == 1))
    return RoundResult(
        choices=tuple(sorted(picked)),
        passes=len(handed_in) - len(picked),
        cancelled=tuple(sorted(n for n, k in counts.items() if k > 1)),
        singles=singles,
        winner=singles[0] if singles else None,
    )


def round_winner(choices: Mapping[str, int | None]) -> tuple[RoundResult, str | None]:
    """Score a reveal whose slips carry names; returns the result and the scoring player."""
    result = score_round(list(choices.values()))
    if result.winner is None:
        return result, None
    owner = next(name for name, c in choices.items() if c == result.winner)
    return result, owner


@dataclass(frozen=True)
class Tally:
    """A round's tally as a reveal shows it, with the name of the player who scored."""

    choices: tuple[int, ...]  # every number handed in, sorted; passes left out
    passes: int
    cancelled: tuple[int, ...]  # numbers written by two or more players, ascending
    singles: tuple[int, ...]  # numbers written by exactly one player, ascending
    winning_number: int | None  # the lowest single, or None when every number cancelled
    winner: str | None  # who wrote it


PASS = "pass"


def tally(choices: Mapping[str, int | None | str]) -> Tally:
    """Tally one round from each player's choice: a whole number, or ``None``/``"pass"``.

    Pure and public (the console shows it as a round is entered). Values are expected to be
    checked already (``log.parse_party_log`` reports every bad one); anything else is a
    ``ValueError``.
    """
    numbers: dict[str, int | None] = {}
    for name, value in choices.items():
        if value is None or (isinstance(value, str) and value.strip().lower() == PASS):
            numbers[name] = None
        elif isinstance(value, int) and not isinstance(value, bool):
            numbers[name] = value
        else:
            raise ValueError(f"{name}: a choice is a whole number or {PASS!r}, not {value!r}")
    result, owner = round_winner(numbers)
    return Tally(result.choices, result.passes, result.cancelled, result.singles,
                 result.winner, owner)


def final_ranking(totals: Mapping[str, int]) -> list[tuple[int, list[str]]]:
    """Places after the last round: equal totals share a place (1, 1, 3 ...)."""
    ordered = sorted(set(totals.values()), reverse=True)
    places: list[tuple[int, list[str]]] = []
    place = 1
    for total in ordered:
        names = [n for n, t in totals.items() if t == total]
        places.append((place, names))
        place += len(names)
    return places


@cache
def no_winner_probability(players: int, numbers: int = 10) -> Fraction:
    """Chance that a round has no single when everyone picks uniformly at random.

    Counts the ways ``players`` labelled picks fall on ``numbers`` values with no value picked
    exactly once: ``players! * [x^players] (e^x - x)^numbers``, over ``numbers^players``.
    """
    # Coefficients of e^x - x truncated at x^players, raised to the power ``numbers``.
    base = [Fraction(1, factorial(k)) for k in range(players + 1)]
    if players >= 1:
        base[1] = Fraction(0)
    poly = [Fraction(1)] + [Fraction(0)] * players
    for _ in range(numbers):
        poly = [sum((poly[i] * base[k - i] for i in range(k + 1)), Fraction(0))
                for k in range(players + 1)]
    return poly[players] * factorial(players) / Fraction(numbers) ** players


@dataclass(frozen=True)
class PracticeRound:
    """A practice reveal: who picked what, what it teaches, and the computed answer."""

    lesson: str
    picks: tuple[tuple[str, int | None], ...]
    result: RoundResult
    winner_name: str | None


# Each lesson is a predicate on the result; the generator draws seeded rounds until one fits.
_LESSONS: tuple[tuple[str, Callable[[RoundResult, int], bool]], ...] = (
    (N_("The smallest number is picked once"), lambda r, p: r.winner is not None
     and r.choices[0] == r.winner and len(r.singles) == 1),
    (N_("Every number is picked twice or more"), lambda r, p: r.winner is None and not r.passes),
    (N_("Only one single is left"), lambda r, p: len(r.singles) == 1 and r.winner != r.choices[0]),
    (N_("The smallest number cancels"), lambda r, p: len(r.singles) >= 2 and bool(r.cancelled)
     and r.winner is not None and r.cancelled[0] < r.winner),
    (N_("Several singles: it looks like a tie"), lambda r, p: len(r.singles) >= 3),
    (N_("A player passes"), lambda r, p: r.passes == 1 and r.winner is not None),
    (N_("A high number wins"), lambda r, p: r.winner is not None and r.winner >= p),
    (N_("Pairs everywhere but one"), lambda r, p: len(r.singles) == 1 and len(r.cancelled) >= 2),
)


def practice_rounds(
    names: Sequence[str], number_range: tuple[int, int], count: int = 8,
    seed: int = PRACTICE_SEED,
) -> tuple[PracticeRound, ...]:
    """Deterministic practice reveals, one per lesson that this table size allows."""
    rounds = []
    for lesson, picks in _practice_picks(len(names), number_range, count, seed):
        named = tuple(zip(names, picks, strict=True))
        _, who = round_winner(dict(named))
        rounds.append(PracticeRound(lesson, named, score_round(picks), who))
    return tuple(rounds)


@cache
def _practice_picks(players: int, number_range: tuple[int, int], count: int, seed: int
                    ) -> tuple[tuple[str, tuple[int | None, ...]], ...]:
    """The lessons and picks of the practice reveals: they depend on the table size only."""
    rng = random.Random(seed)
    lo, hi = number_range
    high = lo + (hi - lo) * 7 // 10
    # Small ranges make near-misses likelier; players pick from a narrowed band most of the time.
    band = min(hi, lo + max(players, 4))
    found: list[tuple[str, tuple[int | None, ...]]] = []
    seen: set[tuple[int | None, ...]] = set()
    for lesson, fits in _LESSONS:
        for _ in range(4000):
            top = hi if rng.random() < 0.3 else band
            picks: list[int | None] = [rng.randint(lo, top) for _ in range(players)]
            if "passes" in lesson:
                picks[rng.randrange(len(picks))] = None
            if tuple(picks) not in seen and fits(score_round(picks), high):
                seen.add(tuple(picks))
                found.append((lesson, tuple(picks)))
                break
        if len(found) == count:
            break
    # Small tables cannot show every lesson; plain reveals make up the number.
    while len(found) < count:
        picks = [rng.randint(lo, band) for _ in range(players)]
        if tuple(picks) in seen:
            continue
        seen.add(tuple(picks))
        found.append((N_("Another reveal"), tuple(picks)))
    return tuple(found)
