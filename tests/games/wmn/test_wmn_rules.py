"""Rules tests for What's My Number? (kit.games.whats_my_number.rules): reports, wins and errors."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.helpers import REFERENCE_LOG_TURN_1

from kit.errors import ConfigError, GameLogError, KitError
from kit.games.whats_my_number.rules import (
    CREDIT,
    MIN_PLAYERS,
    NAME,
    TITLE,
    GameLog,
    Guesses,
    GuessList,
    GuessRow,
    Identification,
    ListRow,
    allowed_guesses,
    default_range,
    format_report_markdown,
    parse_game_log,
    play,
    player_labels,
)

SIX = ("A", "B", "C", "D", "E", "F")
FOUR = ("A", "B", "C", "D")
# Four players with easy secrets: every number below is someone's secret, 10 and up are misses.
FOUR_SECRETS = {"A": 1, "B": 2, "C": 3, "D": 4}

# Secrets consistent with the reference turn report and its explanation: A guessed 17 and 33
# (B below 17, C above 33, D/E/F between), B's first guess (40) hit C exactly, B's second (25)
# lies above D and E and below F, and A is above both of B's guesses.
REFERENCE_SECRETS = {"A": 45, "B": 5, "C": 40, "D": 20, "E": 22, "F": 30}
REFERENCE_TURN = {
    "A": Guesses((17, 33)),
    "B": Guesses((40, 25)),
    # A, B and D right; E and F wrong: three correct.
    "C": GuessList({"A": 45, "B": 5, "D": 20, "E": 1, "F": 2}),
}
REFERENCE_MARKDOWN = (
    "| Guess | A | B | C | D | E | F |\n"
    "|---|---|---|---|---|---|---|\n"
    "| A 1 | X | L | H | H | H | H |\n"
    "| A 2 | X | L | H | L | L | L |\n"
    "| B 1 | H | X | ✓ | L | L | L |\n"
    "| B 2 | H | X | X | L | L | H |\n"
    "| C List - 3 correct. | | | | | | |\n"
)


def four_player_game(*turns: dict, secrets: dict | None = None, range_=(1, 30)) -> GameLog:
    return GameLog(players=FOUR, range=range_, secrets=secrets or FOUR_SECRETS, turns=tuple(turns))


def cells_of(report, player: str) -> list[tuple[str, ...]]:
    return [row.cells for row in report.rows if isinstance(row, GuessRow) and row.player == player]


def error_of(log_or_data, *, parse: bool = False, strict: bool = False) -> str:
    """The error a log raises; with ``strict`` (house rulings become errors) the first one
    that is not about a player without orders."""
    with pytest.raises(KitError) as caught:
        parse_game_log(log_or_data, strict=strict) if parse else play(log_or_data, strict=strict)
    problems = [p for p in getattr(caught.value, "problems", (caught.value,))
                if not p.message.startswith("no orders;")]
    assert all(isinstance(p, GameLogError | ConfigError) for p in problems)
    return str(problems[0])


def strict_error(log: GameLog) -> GameLogError:
    """The first strict-mode error of ``log`` that is not about a player without orders."""
    with pytest.raises(KitError) as caught:
        play(log, strict=True)
    return next(p for p in getattr(caught.value, "problems", (caught.value,))
                if not p.message.startswith("no orders;"))


# --- metadata and setup --------------------------------------------------------------------------


def test_metadata() -> None:
    assert NAME == "whats-my-number"
    assert TITLE == "What's My Number?"
    credit = CREDIT % {"game": TITLE, "author": "Allan Stagg", "year": 2000}
    assert credit == "What's My Number? — a game by Allan Stagg (2000)"
    assert MIN_PLAYERS == 4


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (4, (1, 30)),
        (5, (1, 40)),
        (6, (1, 50)),
        (7, (1, 60)),
        (8, (1, 70)),
        (9, (1, 80)),
        (10, (1, 90)),
        (11, (1, 100)),
        (12, (1, 110)),
    ],
)
def test_default_range(players: int, expected: tuple[int, int]) -> None:
    assert default_range(players) == expected


def test_default_range_rejects_too_few_players() -> None:
    with pytest.raises(ConfigError) as caught:
        default_range(3)
    assert caught.value.field == "players"
    assert "at least 4" in caught.value.message


@pytest.mark.parametrize(
    ("count", "last"),
    [
        (1, "A"),
        (4, "D"),
        (26, "Z"),
        (27, "AA"),
        (28, "AB"),
        (52, "AZ"),
        (53, "BA"),
        (702, "ZZ"),
        (703, "AAA"),
    ],
)
def test_player_labels_are_spreadsheet_style(count: int, last: str) -> None:
    labels = player_labels(count)
    assert len(labels) == count
    assert labels[-1] == last
    assert len(set(labels)) == count


def test_player_labels_start_alphabetically() -> None:
    assert player_labels(6) == ["A", "B", "C", "D", "E", "F"]
    assert player_labels(0) == []


def test_allowed_guesses() -> None:
    assert allowed_guesses(0) == 2
    assert allowed_guesses(1) == 3
    assert allowed_guesses(3) == 5


# --- the reference example -----------------------------------------------------------------------


def reference_log() -> GameLog:
    return GameLog(players=SIX, range=(1, 50), secrets=REFERENCE_SECRETS, turns=(REFERENCE_TURN,))


def test_reference_example_rows() -> None:
    result = play(reference_log())
    (report,) = result.turns
    assert report.number == 1
    assert report.rows == (
        GuessRow("A", 1, 17, ("X", "L", "H", "H", "H", "H"), bonus=False),
        GuessRow("A", 2, 33, ("X", "L", "H", "L", "L", "L"), bonus=False),
        GuessRow("B", 1, 40, ("H", "X", "✓", "L", "L", "L"), bonus=False),
        GuessRow("B", 2, 25, ("H", "X", "X", "L", "L", "H"), bonus=False),
        ListRow("C", 3),
    )
    assert dict(report.hits) == {"A": 0, "B": 1, "C": 0, "D": 0, "E": 0, "F": 0}
    assert dict(report.allowance) == dict.fromkeys(SIX, 2)
    assert report.winners == ()
    assert report.reason is None
    # B's hit earns a bonus guess next turn; C's list identified nobody.
    assert dict(result.next_allowance) == {"A": 2, "B": 3, "C": 2, "D": 2, "E": 2, "F": 2}
    assert dict(result.identified["B"]) == {"C": Identification(turn=1, guess=1)}
    assert dict(result.identified["C"]) == {}
    assert result.winners == ()
    assert result.winning_turn is None


def test_reference_example_markdown() -> None:
    report = play(reference_log()).turns[0]
    assert format_report_markdown(report, SIX) == REFERENCE_MARKDOWN


def test_reference_example_from_toml() -> None:
    text = REFERENCE_LOG_TURN_1
    log = parse_game_log(tomllib.loads(text))
    assert log.players == SIX
    assert log.range == (1, 50)  # the default for six players
    assert dict(log.secrets) == REFERENCE_SECRETS
    assert log == reference_log()
    assert format_report_markdown(play(log).turns[0], log.players) == REFERENCE_MARKDOWN


def test_markdown_list_row_has_one_empty_cell_per_player() -> None:
    log = four_player_game({"D": GuessList({"A": 1, "B": 9, "C": 9})})
    assert format_report_markdown(play(log).turns[0], FOUR) == (
        "| Guess | A | B | C | D |\n|---|---|---|---|---|\n| D List - 1 correct. | | | | |\n"
    )


def test_markdown_with_names_and_a_bonus_row() -> None:
    names = ("Ann", "Bob", "Cy", "Di")
    log = GameLog(
        players=names,
        range=(1, 30),
        secrets={"Ann": 1, "Bob": 2, "Cy": 3, "Di": 4},
        turns=({"Ann": Guesses((2,))}, {"Ann": Guesses((10, 11, 3))}),
    )
    assert format_report_markdown(play(log).turns[1], names) == (
        "| Guess | Ann | Bob | Cy | Di |\n"
        "|---|---|---|---|---|\n"
        "| Ann 1 | X | X | L | L |\n"
        "| Ann 2 | X | X | L | L |\n"
        "| Ann 3 | X | X | ✓ | H |\n"
    )


def test_empty_turn_reports_header_only() -> None:
    result = play(four_player_game({}))
    assert result.turns[0].rows == ()
    assert format_report_markdown(result.turns[0], FOUR) == (
        "| Guess | A | B | C | D |\n|---|---|---|---|---|\n"
    )


# --- allowance and bonus guesses -----------------------------------------------------------------


def test_a_hit_gives_one_bonus_guess_next_turn() -> None:
    log = four_player_game({"A": Guesses((2, 10))}, {"A": Guesses((11, 12, 13))})
    result = play(log)
    first, second = result.turns
    assert first.hits["A"] == 1
    assert second.allowance["A"] == 3
    assert [row.bonus for row in second.rows] == [False, False, True]
    assert [row.index for row in second.rows] == [1, 2, 3]


def test_exceeding_the_bonus_allowance_is_an_error_when_strict() -> None:
    log = four_player_game({"A": Guesses((2, 10))}, {"A": Guesses((11, 12, 13, 14))})
    # House ruling: the last guess is ignored (kept, marked, unanswered); --strict refuses it.
    rows = play(log).turns[1].rows
    assert [row.status for row in rows] == ["ok", "ok", "ok", "ignored"]
    assert rows[3].cells == ("", "", "", "")
    assert error_of(log, strict=True) == (
        "turn 2, player A: 4 guesses, but 3 are allowed this turn ") + (
        "(2 + 1 hit last turn)"
    )


def test_three_guesses_in_the_first_turn_is_an_error_when_strict() -> None:
    log = four_player_game({"A": Guesses((10, 11)), "B": Guesses((10, 11, 12))})
    caught = strict_error(log)
    assert caught.field == "turn 1, player B"
    assert str(caught) == (
        "turn 1, player B: 3 guesses, but 2 are allowed this turn (2 + 0 hits last turn)"
    )


def test_two_hits_give_two_bonus_guesses() -> None:
    log = four_player_game({"A": Guesses((2, 3))}, {"A": Guesses((10, 11, 12, 13))})
    result = play(log)
    assert result.turns[0].hits["A"] == 2
    assert result.turns[1].allowance["A"] == 4
    assert [row.bonus for row in result.turns[1].rows] == [False, False, True, True]


def test_allowance_returns_to_two_after_a_turn_without_hits() -> None:
    turns = [{"A": Guesses((2,))}, {"A": Guesses((10, 11, 12))}, {"A": Guesses((13, 14))}]
    result = play(four_player_game(*turns))
    assert [report.allowance["A"] for report in result.turns] == [2, 3, 2]
    assert dict(result.next_allowance)["A"] == 2
    caught = strict_error(four_player_game(*turns[:2], {"A": Guesses((13, 14, 15))}))
    assert caught.field == "turn 3, player A"
    assert "2 are allowed" in caught.message


def test_no_orders_or_a_list_last_turn_means_allowance_two() -> None:
    log = four_player_game(
        {"A": Guesses((2,)), "B": Guesses((1,))},
        {"B": GuessList({"A": 1, "C": 9, "D": 9})},  # A sits out; B lists
        {"A": Guesses((10, 11)), "B": Guesses((10, 11))},
    )
    result = play(log)
    assert result.turns[1].allowance["A"] == 3
    assert result.turns[2].allowance == {"A": 2, "B": 2, "C": 2, "D": 2}
    caught = strict_error(four_player_game(*log.turns[:2], {"A": Guesses((10, 11, 12))}))
    assert caught.field == "turn 3, player A"


def test_fewer_guesses_than_allowed_is_fine() -> None:
    result = play(four_player_game({"A": Guesses((2, 3))}, {"A": Guesses((10,))}))
    assert result.turns[1].allowance["A"] == 4
    assert len(result.turns[1].rows) == 1


def test_guessing_an_identified_number_again_number_is_not_a_hit() -> None:
    result = play(four_player_game({"A": Guesses((2,))}, {"A": Guesses((2,))}))
    assert cells_of(result.turns[1], "A") == [("X", "X", "H", "H")]
    assert result.turns[1].hits["A"] == 0
    assert result.next_allowance["A"] == 2


# --- X cells -------------------------------------------------------------------------------------


def test_x_for_a_player_identified_in_an_earlier_turn() -> None:
    result = play(four_player_game({"A": Guesses((3, 10))}, {"A": Guesses((2, 1))}))
    assert cells_of(result.turns[0], "A") == [("X", "L", "✓", "H"), ("X", "L", "X", "L")]
    assert cells_of(result.turns[1], "A") == [("X", "✓", "X", "H"), ("X", "X", "X", "H")]


def test_x_for_a_player_identified_earlier_in_the_same_turn() -> None:
    result = play(four_player_game({"B": Guesses((4, 3))}))
    assert cells_of(result.turns[0], "B") == [("L", "X", "L", "✓"), ("L", "X", "✓", "X")]
    assert result.turns[0].hits["B"] == 2
    assert dict(result.identified["B"]) == {
        "C": Identification(turn=1, guess=2),
        "D": Identification(turn=1, guess=1),
    }


def test_another_players_hit_does_not_blank_my_column() -> None:
    result = play(four_player_game({"A": Guesses((3,)), "B": Guesses((3,))}))
    assert cells_of(result.turns[0], "A") == [("X", "L", "✓", "H")]
    assert cells_of(result.turns[0], "B") == [("L", "X", "✓", "H")]


def test_own_number_guess_shows_x_and_is_no_hit() -> None:
    result = play(four_player_game({"A": Guesses((1,))}))
    assert cells_of(result.turns[0], "A") == [("X", "H", "H", "H")]
    assert result.turns[0].hits["A"] == 0


# --- lists ---------------------------------------------------------------------------------------


def test_list_reports_only_the_count() -> None:
    result = play(four_player_game({"A": GuessList({"B": 2, "C": 9, "D": 4})}))
    assert result.turns[0].rows == (ListRow("A", 2),)
    assert result.turns[0].hits["A"] == 0
    assert result.winners == ()


def test_a_wrong_list_identifies_nobody() -> None:
    result = play(
        four_player_game({"A": GuessList({"B": 2, "C": 3, "D": 9})}, {"A": Guesses((2, 3))})
    )
    # The list had B and C right, but A still gets answers (and hits) for them afterwards.
    assert cells_of(result.turns[1], "A") == [("X", "✓", "H", "H"), ("X", "X", "✓", "H")]
    assert result.turns[1].hits["A"] == 2
    assert set(result.identified["A"]) == {"B", "C"}


def test_list_entries_in_any_order() -> None:
    result = play(four_player_game({"A": GuessList({"D": 4, "B": 2, "C": 3})}))
    assert result.winners == ("A",)


# --- winning -------------------------------------------------------------------------------------


def test_win_by_correct_list() -> None:
    result = play(
        four_player_game({"A": Guesses((10, 11))}, {"C": GuessList({"A": 1, "B": 2, "D": 4})})
    )
    assert result.winners == ("C",)
    assert result.winning_turn == 2
    assert result.reason == "list"
    assert result.turns[0].winners == ()
    assert result.turns[1].winners == ("C",)
    assert result.turns[1].reason == "list"


def test_win_by_guesses_over_several_turns() -> None:
    result = play(four_player_game({"A": Guesses((2, 3))}, {"A": Guesses((10, 4))}))
    assert result.turns[0].winners == ()
    assert result.winners == ("A",)
    assert result.winning_turn == 2
    assert result.reason == "guesses"
    assert dict(result.identified["A"]) == {
        "B": Identification(1, 1),
        "C": Identification(1, 2),
        "D": Identification(2, 2),
    }


def test_list_beats_guesses_in_the_same_turn() -> None:
    result = play(
        four_player_game(
            {"A": Guesses((2, 3))},
            {"A": Guesses((4,)), "C": GuessList({"A": 1, "B": 2, "D": 4})},
        )
    )
    assert result.winners == ("C",)
    assert result.reason == "list"


def test_two_correct_lists_share_the_win() -> None:
    result = play(
        four_player_game(
            {"B": GuessList({"A": 1, "C": 3, "D": 4}), "D": GuessList({"A": 1, "B": 2, "C": 3})}
        )
    )
    assert result.winners == ("B", "D")
    assert result.reason == "list"


def test_a_wrong_list_does_not_beat_a_guesser() -> None:
    result = play(
        four_player_game(
            {"A": Guesses((2, 3))},
            {"A": Guesses((4,)), "C": GuessList({"A": 1, "B": 2, "D": 9})},
        )
    )
    assert result.winners == ("A",)
    assert result.reason == "guesses"


def test_earliest_guess_position_wins() -> None:
    result = play(
        four_player_game(
            {"A": Guesses((2, 3)), "B": Guesses((1, 3))},
            # A finds D with guess 2, B with guess 1: B wins though A is listed first.
            {"A": Guesses((10, 4)), "B": Guesses((4,))},
        )
    )
    assert result.winners == ("B",)
    assert result.reason == "guesses"


def test_bonus_positions_count_in_order() -> None:
    result = play(
        four_player_game(
            {"A": Guesses((2, 3)), "B": Guesses((1, 3))},
            {"A": Guesses((10, 11, 4)), "B": Guesses((10, 11, 12, 4))},
        )
    )
    assert result.turns[1].allowance["A"] == 4
    assert result.winners == ("A",)


def test_equal_positions_share_the_win() -> None:
    result = play(
        four_player_game(
            {"A": Guesses((2, 3)), "B": Guesses((1, 3))},
            {"A": Guesses((10, 4)), "B": Guesses((11, 4))},
        )
    )
    assert result.winners == ("A", "B")
    assert result.turns[1].winners == ("A", "B")


def test_orders_after_the_win_are_an_error() -> None:
    won = [{"A": Guesses((2, 3))}, {"A": Guesses((4,))}]
    with pytest.raises(GameLogError) as caught:
        play(four_player_game(*won, {"B": Guesses((1,))}))
    assert caught.value.field == "turn 3"
    assert str(caught.value) == (
        "turn 3: the game was won in turn 2 by A; no orders are allowed after that"
    )


def test_empty_turns_after_the_win_are_skipped() -> None:
    result = play(four_player_game({"A": Guesses((2, 3))}, {"A": Guesses((4,))}, {}))
    assert len(result.turns) == 2
    assert result.winning_turn == 2


def test_no_winner_without_all_numbers() -> None:
    result = play(four_player_game({"A": Guesses((2, 3))}, {"A": Guesses((10, 11, 12, 13))}))
    assert result.winners == ()
    assert result.winning_turn is None
    assert result.reason is None


# --- duplicate secrets ---------------------------------------------------------------------------


def test_one_guess_hitting_two_players_counts_two_hits() -> None:
    secrets = {"A": 1, "B": 5, "C": 5, "D": 9}
    result = play(
        four_player_game({"D": Guesses((5,))}, {"D": Guesses((10, 11, 12, 13))}, secrets=secrets)
    )
    assert cells_of(result.turns[0], "D") == [("L", "✓", "✓", "X")]
    assert result.turns[0].hits["D"] == 2
    assert result.turns[1].allowance["D"] == 4


def test_duplicate_secret_hit_can_complete_a_win() -> None:
    secrets = {"A": 1, "B": 5, "C": 5, "D": 9}
    result = play(four_player_game({"A": Guesses((9, 5))}, secrets=secrets))
    assert result.winners == ("A",)
    assert dict(result.identified["A"]) == {
        "B": Identification(1, 2),
        "C": Identification(1, 2),
        "D": Identification(1, 1),
    }


# --- errors in turns -----------------------------------------------------------------------------


def test_zero_guesses() -> None:
    assert error_of(four_player_game({"C": Guesses(())})) == (
        "turn 1, player C: no guesses; make 1 to 2 guesses "
        "(2 are allowed this turn (2 + 0 hits last turn)), or submit a list"
    )


def test_guess_outside_range() -> None:
    log = GameLog(
        players=SIX, range=(1, 50), secrets=REFERENCE_SECRETS, turns=({"A": Guesses((61, 17))},)
    )
    # House ruling: void, no answers, but guess 17 keeps position 2 (the tie rule counts it).
    rows = play(log).turns[0].rows
    assert [(row.index, row.status) for row in rows] == [(1, "void"), (2, "ok")]
    assert play(log).turns[0].rulings[0].positions == (1,)
    assert error_of(log, strict=True) == (
        "turn 1, player A: guess 61 is outside the range 1 to 50")


@pytest.mark.parametrize("bad", [0, 31, -5])
def test_guesses_at_the_range_edges(bad: int) -> None:
    assert play(four_player_game({"A": Guesses((1, 30))})).turns[0].rows
    caught = strict_error(four_player_game({"A": Guesses((bad,))}))
    assert caught.field == "turn 1, player A"
    assert "outside the range 1 to 30" in caught.message


@pytest.mark.parametrize("bad", [True, 12.5, 12.0, "12", None])
def test_non_integer_guess(bad: object) -> None:
    with pytest.raises(GameLogError) as caught:
        play(four_player_game({"B": Guesses((10, bad))}))
    assert caught.value.field == "turn 1, player B"
    assert caught.value.message.startswith("guess 2 is ")
    assert "not a whole number" in caught.value.message


def test_list_missing_a_player() -> None:
    # House ruling: answered with the listed numbers that are right; it cannot win.
    (row,) = play(four_player_game({"A": GuessList({"B": 2, "D": 4})})).turns[0].rows
    assert (row.correct, row.partial, row.listed) == (2, True, 2)
    assert error_of(four_player_game({"A": GuessList({"B": 2, "D": 4})}), strict=True) == (
        "turn 1, player A: the list is missing C; "
        "a list names every other player exactly once (B, C, D)"
    )


def test_list_naming_the_players_own_label() -> None:
    with pytest.raises(GameLogError) as caught:
        play(four_player_game({"A": GuessList({"A": 1, "B": 2, "C": 3, "D": 4})}))
    assert caught.value.field == "turn 1, player A"
    assert "own label" in caught.value.message


def test_list_naming_an_unknown_player() -> None:
    with pytest.raises(GameLogError) as caught:
        play(four_player_game({"A": GuessList({"B": 2, "C": 3, "D": 4, "Z": 5})}))
    assert caught.value.field == "turn 1, player A"
    assert "Z, who is not a player" in caught.value.message


def test_list_value_outside_range() -> None:
    assert error_of(four_player_game({"A": GuessList({"B": 2, "C": 31, "D": 4})})) == (
        "turn 1, player A: the list gives C 31, outside the range 1 to 30"
    )


def test_list_value_not_an_integer() -> None:
    with pytest.raises(GameLogError) as caught:
        play(four_player_game({"A": GuessList({"B": 2, "C": False, "D": 4})}))
    assert caught.value.field == "turn 1, player A"
    assert "not a whole number" in caught.value.message


def test_orders_from_an_unknown_player() -> None:
    with pytest.raises(GameLogError) as caught:
        play(four_player_game({"A": Guesses((10,)), "Z": Guesses((10,))}))
    assert caught.value.field == "turn 1, player Z"
    assert caught.value.message == "Z is not a player; players are A, B, C, D"


def test_errors_are_reported_for_the_first_turn_that_has_one() -> None:
    log = four_player_game({"B": Guesses((10, 11, 12))}, {"A": Guesses(())})
    assert error_of(log, strict=True).startswith("turn 1, player B: ")
    # every error at once: the strict one of turn 1 and the empty orders of turn 2
    with pytest.raises(KitError) as caught:
        play(log, strict=True)
    fields = [p.field for p in caught.value.problems if "no orders" not in p.message]
    assert fields == ["turn 1, player B", "turn 2, player A"]


# --- errors in setup -----------------------------------------------------------------------------


def test_secret_outside_range() -> None:
    with pytest.raises(GameLogError) as caught:
        four_player_game(secrets={"A": 1, "B": 2, "C": 31, "D": 4})
    assert str(caught.value) == (
        "secrets.C: 31 is outside the range 1 to 30; secrets are whole numbers from 1 to 30"
    )


def test_missing_secret() -> None:
    with pytest.raises(GameLogError) as caught:
        four_player_game(secrets={"A": 1, "B": 2, "D": 4})
    assert caught.value.field == "secrets.C"


def test_secret_for_unknown_player() -> None:
    with pytest.raises(GameLogError) as caught:
        four_player_game(secrets={**FOUR_SECRETS, "Q": 7})
    assert caught.value.field == "secrets.Q"
    assert "Q is not a player" in caught.value.message


def test_secret_must_be_an_integer() -> None:
    with pytest.raises(GameLogError) as caught:
        four_player_game(secrets={**FOUR_SECRETS, "B": True})
    assert caught.value.field == "secrets.B"


def test_duplicate_secrets_are_allowed() -> None:
    log = four_player_game(secrets={"A": 7, "B": 7, "C": 7, "D": 7})
    assert set(log.secrets.values()) == {7}


def test_fewer_than_four_players() -> None:
    with pytest.raises(ConfigError) as caught:
        GameLog(players=("A", "B", "C"), range=(1, 30), secrets={"A": 1, "B": 2, "C": 3})
    assert caught.value.field == "players"
    assert "at least 4" in caught.value.message


def test_duplicate_player_labels() -> None:
    with pytest.raises(ConfigError) as caught:
        GameLog(players=("A", "B", "A", "D"), range=(1, 30), secrets={"A": 1, "B": 2, "D": 4})
    assert str(caught.value) == 'players: "A" is listed twice; player labels must be unique'


@pytest.mark.parametrize("bad", ["", "   ", "x" * 25, 7, None, "A|B", "A\nB", " A"])
def test_bad_player_labels(bad: object) -> None:
    players = ("P", "Q", "R", bad)
    with pytest.raises(ConfigError) as caught:
        GameLog(players=players, range=(1, 30), secrets={})
    assert caught.value.field == "players"


def test_long_names_up_to_24_characters() -> None:
    name = "Bartholomew Fitzgerald-X"
    assert len(name) == 24
    log = GameLog(
        players=("A", "B", "C", name), range=(1, 30), secrets={"A": 1, "B": 2, "C": 3, name: 4}
    )
    assert log.players[-1] == name


@pytest.mark.parametrize(
    ("bounds", "expected"),
    [
        (
            (0, 30),
            "range: 0-30 cannot be used: give the lowest and the highest number, e.g."
            " 1-20, the lowest at least 1 and the highest above it, at most 999",
        ),
        (
            (20, 10),
            "range: 20-10 cannot be used: give the lowest and the highest number, e.g."
            " 1-20, the lowest at least 1 and the highest above it, at most 999",
        ),
        (
            (5, 7),
            "range: 5-7 holds 3 numbers, but 4 players need at least 4, so the highest "
            "number must be at least 8 (the default for 4 players is 1-30)",
        ),
    ],
)
def test_bad_ranges(bounds: tuple[int, int], expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        four_player_game(range_=bounds, secrets={"A": 5, "B": 5, "C": 5, "D": 5})
    assert str(caught.value) == expected


def test_smallest_allowed_range() -> None:
    log = GameLog(players=FOUR, range=(1, 4), secrets=FOUR_SECRETS, turns=({"A": Guesses((4,))},))
    assert log.range == (1, 4)
    assert cells_of(play(log).turns[0], "A") == [("X", "L", "L", "✓")]


def test_log_is_a_snapshot_of_its_inputs() -> None:
    secrets = dict(FOUR_SECRETS)
    entries = {"B": 2, "C": 3, "D": 4}
    turn = {"A": GuessList(entries)}
    log = four_player_game(turn, secrets=secrets)
    secrets["A"] = 30
    entries["D"] = 30
    turn["B"] = Guesses((1, 2, 3))
    assert log.secrets["A"] == 1
    assert play(log).winners == ("A",)
    with pytest.raises(TypeError):
        log.secrets["A"] = 2  # type: ignore[index]


def test_play_is_deterministic() -> None:
    assert play(reference_log()) == play(reference_log())


# --- parsing -------------------------------------------------------------------------------------


def minimal_data(**changes: object) -> dict:
    data: dict = {"game": NAME, "players": list(FOUR), "secrets": dict(FOUR_SECRETS)}
    data.update(changes)
    return data


def test_parse_without_turns() -> None:
    log = parse_game_log(minimal_data())
    assert log.turns == ()
    assert log.range == (1, 30)
    assert play(log).turns == ()


@pytest.mark.parametrize(
    ("text", "expected"), [("1-30", (1, 30)), ("1-9", (1, 9)), (" 1 - 40 ", (1, 40))]
)
def test_parse_range(text: str, expected: tuple[int, int]) -> None:
    assert parse_game_log(minimal_data(range=text)).range == expected


@pytest.mark.parametrize(
    "text", ["1..50", "a-b", "1-50-3", "1-", "50", "1-５0", "+1-9", "1.0-9"]
)
def test_parse_range_is_strict(text: str) -> None:
    # the log reads a range with the grammar of the --range option (kit.options.parse_range)
    with pytest.raises(ConfigError) as caught:
        parse_game_log(minimal_data(range=text))
    assert str(caught.value) == (
        f"range: “{text}” is not a range: give the lowest and the highest number, e.g. 1-20"
    )


def test_parse_range_must_be_a_string() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_game_log(minimal_data(range=50))
    assert caught.value.field == "range"
    assert caught.value.message == (
        "a whole number is not a range: give the lowest and the highest number, e.g. 1-20")


def test_parse_range_too_small_for_players() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_game_log(minimal_data(range="1-3"))
    assert caught.value.field == "range"
    assert "at least 4" in caught.value.message


def test_parse_unknown_top_level_key() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_game_log(minimal_data(colour="red"))
    assert str(caught.value) == (
        "colour: unknown key; allowed keys are game, title, players, range, secrets, "
        "published, turn"
    )


@pytest.mark.parametrize("game", ["snap", None, 3])
def test_parse_wrong_or_missing_game(game: object) -> None:
    data = minimal_data(game=game)
    if game is None:
        del data["game"]
    with pytest.raises(ConfigError) as caught:
        parse_game_log(data)
    assert caught.value.field == "game"
    assert '"whats-my-number"' in caught.value.message


def test_parse_missing_players() -> None:
    data = minimal_data()
    del data["players"]
    with pytest.raises(ConfigError) as caught:
        parse_game_log(data)
    assert caught.value.field == "players"


def test_parse_players_must_be_a_list() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_game_log(minimal_data(players="ABCD"))
    assert caught.value.field == "players"


def test_parse_missing_secrets_table_names_the_first_player() -> None:
    data = minimal_data()
    del data["secrets"]
    with pytest.raises(KitError) as caught:
        parse_game_log(data)
    # every missing secret at once, the first player first
    assert [p.field for p in caught.value.problems][:2] == ["secrets.A", "secrets.B"]


def test_parse_secrets_must_be_a_table() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_game_log(minimal_data(secrets=[1, 2, 3, 4]))
    assert caught.value.field == "secrets"


@pytest.mark.parametrize(
    "orders", ["17", 17, {"guesses": [1, 2]}, {"list": [1, 2, 3]}, {"list": {}, "x": 1}]
)
def test_parse_bad_orders(orders: object) -> None:
    with pytest.raises(GameLogError) as caught:
        parse_game_log(minimal_data(turn=[{"A": [10]}, {"B": orders}]))
    assert caught.value.field == "turn 2, player B"


def test_parse_turn_must_be_tables() -> None:
    with pytest.raises(GameLogError) as caught:
        parse_game_log(minimal_data(turn=[{"A": [10]}, [1, 2]]))
    assert caught.value.field == "turn 2"
    with pytest.raises(ConfigError) as config_caught:
        parse_game_log(minimal_data(turn="A"))
    assert config_caught.value.field == "turn"


def test_parse_replays_the_whole_log() -> None:
    data = minimal_data(turn=[{"A": [10, 11]}, {"A": [12, 13, 14]}])
    assert error_of(data, parse=True, strict=True) == (
        "turn 2, player A: 3 guesses, but 2 are allowed this turn (2 + 0 hits last turn)"
    )


def test_parse_builds_guesses_and_lists() -> None:
    log = parse_game_log(
        minimal_data(turn=[{"A": [2, 3], "D": {"list": {"A": 1, "B": 2, "C": 9}}}])
    )
    assert log.turns[0]["A"] == Guesses((2, 3))
    assert log.turns[0]["D"] == GuessList({"A": 1, "B": 2, "C": 9})


# --- properties ----------------------------------------------------------------------------------


@st.composite
def valid_games(draw: st.DrawFn) -> tuple[GameLog, list[dict], list[dict], dict, bool]:
    """A random legal game, with the allowance and hits an independent tally expects."""
    count = draw(st.integers(MIN_PLAYERS, 8))
    players = tuple(player_labels(count))
    if draw(st.booleans()):
        lo, hi = default_range(count)
    else:
        # Small ranges make hits (and duplicate secrets) common.
        lo = draw(st.integers(1, 5))
        hi = lo + count - 1 + draw(st.integers(0, 4))
    secrets = {label: draw(st.integers(lo, hi)) for label in players}
    known: dict[str, set[str]] = {label: set() for label in players}
    hits_last = dict.fromkeys(players, 0)
    turns: list[dict] = []
    allowances: list[dict] = []
    hits_per_turn: list[dict] = []
    won = False
    for _ in range(draw(st.integers(0, 6))):
        allowance = {label: 2 + hits_last[label] for label in players}
        hits = dict.fromkeys(players, 0)
        orders: dict = {}
        for label in players:
            kind = draw(st.sampled_from(["none", "guesses", "guesses", "list"]))
            if kind == "guesses":
                size = draw(st.integers(1, allowance[label]))
                numbers = draw(st.lists(st.integers(lo, hi), min_size=size, max_size=size))
                for number in numbers:
                    new = {
                        other
                        for other in players
                        if other != label and other not in known[label] and secrets[other] == number
                    }
                    known[label] |= new
                    hits[label] += len(new)
                won = won or len(known[label]) == count - 1
                orders[label] = Guesses(tuple(numbers))
            elif kind == "list":
                entries = {other: draw(st.integers(lo, hi)) for other in players if other != label}
                won = won or all(secrets[other] == value for other, value in entries.items())
                orders[label] = GuessList(entries)
        turns.append(orders)
        allowances.append(allowance)
        hits_per_turn.append(hits)
        hits_last = hits
        if won:
            break
    log = GameLog(players=players, range=(lo, hi), secrets=secrets, turns=tuple(turns))
    next_allowance = {label: 2 + hits_last[label] for label in players}
    return log, allowances, hits_per_turn, next_allowance, won


PROPERTY_SETTINGS = settings(max_examples=60, deadline=None)


@PROPERTY_SETTINGS
@given(valid_games())
def test_property_cells_match_the_secrets(game) -> None:
    log, _, _, _, _ = game
    result = play(log)
    assert len(result.turns) == len(log.turns)
    seen_hits: dict[str, set[str]] = {label: set() for label in log.players}
    for report in result.turns:
        for row in report.rows:
            if not isinstance(row, GuessRow):
                continue
            assert len(row.cells) == len(log.players)
            for target, cell in zip(log.players, row.cells, strict=True):
                if target == row.player:
                    assert cell == "X"  # never any information on one's own number
                elif target in seen_hits[row.player]:
                    assert cell == "X"  # already identified by this player's own hit
                else:
                    secret = log.secrets[target]
                    expected = "H" if secret > row.number else "L" if secret < row.number else "✓"
                    assert cell == expected
            for target, cell in zip(log.players, row.cells, strict=True):
                if cell == "✓":
                    seen_hits[row.player].add(target)
    assert {label: set(found) for label, found in result.identified.items()} == seen_hits


@PROPERTY_SETTINGS
@given(valid_games())
def test_property_allowance_follows_hits(game) -> None:
    log, allowances, hits_per_turn, next_allowance, won = game
    result = play(log)
    previous_hits = dict.fromkeys(log.players, 0)
    for report, allowance, hits in zip(result.turns, allowances, hits_per_turn, strict=True):
        assert dict(report.allowance) == allowance
        assert dict(report.hits) == hits
        for label in log.players:
            assert report.allowance[label] == 2 + previous_hits[label]
            guess_rows = [
                row for row in report.rows if isinstance(row, GuessRow) and row.player == label
            ]
            assert len(guess_rows) <= report.allowance[label]
            assert [row.bonus for row in guess_rows] == [row.index > 2 for row in guess_rows]
            # Every hit shows as a ✓ in one of the player's rows this turn.
            assert sum(row.cells.count("✓") for row in guess_rows) == report.hits[label]
        previous_hits = dict(report.hits)
    assert dict(result.next_allowance) == next_allowance
    assert (result.winning_turn == len(log.turns)) is won
    assert bool(result.winners) is won


@PROPERTY_SETTINGS
@given(valid_games(), st.data())
def test_property_one_guess_too_many_is_ignored_or_rejected(game, data) -> None:
    log, _, _, next_allowance, won = game
    label = data.draw(st.sampled_from(log.players))
    lo, hi = log.range
    size = next_allowance[label] + 1
    numbers = data.draw(st.lists(st.integers(lo, hi), min_size=size, max_size=size))
    longer = GameLog(
        players=log.players,
        range=log.range,
        secrets=log.secrets,
        turns=(*log.turns, {label: Guesses(tuple(numbers))}),
    )
    turn = len(longer.turns)
    if won:
        with pytest.raises(GameLogError) as caught:
            play(longer)
        assert caught.value.field == f"turn {turn}"
    else:
        caught = strict_error(longer)
        assert caught.field == f"turn {turn}, player {label}"
        assert f"{size} guesses, but {size - 1} are allowed" in caught.message
        ruled = play(longer).turns[-1]
        assert [r.kind for r in ruled.rulings if r.player == label] == ["extra-guesses"]
        assert [row.status for row in ruled.rows if row.player == label][-1] == "ignored"


@PROPERTY_SETTINGS
@given(valid_games())
def test_property_markdown_has_one_line_per_row(game) -> None:
    log, _, _, _, _ = game
    for report in play(log).turns:
        lines = format_report_markdown(report, log.players).splitlines()
        assert len(lines) == len(report.rows) + 2  # the header and its delimiter row
        assert lines[1] == "|" + "---|" * (len(log.players) + 1)
        assert all(line.count("|") == len(log.players) + 2 for line in lines)
