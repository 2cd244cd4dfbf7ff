"""The lowest-unique-number rules on data: the reference examples and properties."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kit.games.lowest_unique import rules


def test_reference_example_with_a_winner() -> None:
    result = rules.score_round([1, 1, 2, 3, 3, 8])
    assert result.cancelled == (1, 3)
    assert result.singles == (2, 8)
    assert result.winner == 2


def test_reference_example_without_a_winner() -> None:
    result = rules.score_round([2, 2, 5, 5, 9, 9])
    assert result.singles == ()
    assert result.winner is None


def test_a_pass_is_not_zero_and_never_cancels() -> None:
    result = rules.score_round([None, 4, None, 6])
    assert result.passes == 2
    assert result.choices == (4, 6)
    assert result.winner == 4


def test_the_winning_slip_goes_back_to_its_owner() -> None:
    result, owner = rules.round_winner({"Ann": 3, "Bob": 1, "Cy": 1, "Dee": 5})
    assert (result.winner, owner) == (3, "Ann")
    assert rules.round_winner({"Ann": 2, "Bob": 2, "Cy": None})[1] is None


def test_equal_totals_share_a_place() -> None:
    assert rules.final_ranking({"Ann": 2, "Bob": 2, "Cy": 1}) == [(1, ["Ann", "Bob"]), (3, ["Cy"])]


@pytest.mark.parametrize(
    ("players", "percent"),
    [(3, "1.00"), (4, "2.80"), (5, "0.91"), (6, "1.31"), (8, "0.89"), (10, "0.81"), (12, "0.89")],
)
def test_no_winner_probability_matches_the_reference_figures(players: int, percent: str) -> None:
    assert f"{float(rules.no_winner_probability(players)) * 100:.2f}" == percent


def test_no_winner_probability_by_brute_force_for_small_tables() -> None:
    from itertools import product

    for players in (3, 4):
        rounds = list(product(range(1, 6), repeat=players))
        none = sum(1 for r in rounds if rules.score_round(r).winner is None)
        assert rules.no_winner_probability(players, 5) == Fraction(none, len(rounds))


@given(st.lists(st.one_of(st.none(), st.integers(1, 10)), min_size=3, max_size=12))
def test_winner_is_the_lowest_number_chosen_exactly_once(choices: list[int | None]) -> None:
    result = rules.score_round(choices)
    counts = Counter(c for c in choices if c is not None)
    if result.winner is None:
        assert all(k != 1 for k in counts.values())
    else:
        assert counts[result.winner] == 1
        assert not any(counts[n] == 1 for n in range(1, result.winner))
    assert set(result.cancelled) == {n for n, k in counts.items() if k > 1}


@pytest.mark.parametrize("players", [3, 4, 8, 12])
def test_practice_rounds_are_deterministic_and_scored_by_the_rule(players: int) -> None:
    names = [f"P{i}" for i in range(players)]
    first = rules.practice_rounds(names, (1, 10))
    assert first == rules.practice_rounds(names, (1, 10))
    assert len(first) == 8
    assert len({r.picks for r in first}) == 8
    for practice in first:
        assert practice.result == rules.score_round([c for _, c in practice.picks])


def test_practice_rounds_cover_the_lessons_at_eight_players() -> None:
    rounds = rules.practice_rounds([f"P{i}" for i in range(8)], (1, 10))
    results = [r.result for r in rounds]
    assert any(r.winner is not None and r.winner == r.choices[0] for r in results)  # clear win
    assert any(r.winner is None for r in results)  # all cancelled
    assert any(len(r.singles) == 1 for r in results)  # one single
    assert any(r.winner is not None and r.choices[0] < r.winner for r in results)  # not smallest
    assert any(len(r.singles) >= 3 for r in results)  # looks like a tie


def test_check_examples_move_into_a_custom_range_keeping_their_result() -> None:
    from kit.games.lowest_unique.planner import check_examples

    assert [e.winner for e in check_examples((1, 10))] == [2, None]
    moved = check_examples((11, 30))
    assert moved[0].choices == (11, 11, 12, 13, 13, 14)
    assert [e.winner for e in moved] == [12, None]
