"""The command line, in-process: exact error lines, exit codes, nothing left behind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


BAD_INPUT = [
    (["build", "chess"], "Error: game: unknown game “chess”; choose one of: "),
    (["build", "lowest-unique", "--players", "2"],
     "Error: players: Lowest Unique Number needs 3 to 12 players per table; got 2"),
    (["build", "lowest-unique", "--players", "0"],
     "Error: players: Lowest Unique Number needs 3 to 12 players per table; got “0”"),
    (["build", "lowest-unique", "--players", "-1"],
     "Error: players: Lowest Unique Number needs 3 to 12 players per table; got “-1”"),
    (["build", "lowest-unique", "--paper", "a5"],
     "Error: paper: unknown paper size “a5”; choose a4 or letter"),
    (["build", "lowest-unique", "--names", "Ann,,Bob"],
     "Error: names: name 2 is empty; each name needs 1 to 24 characters"),
    (["build", "lowest-unique", "--names", "Ann,Bob,Abcdefghijklmnopqrstuvwxyz"],
     "Error: names: name 3, “Abcdefghijklmnopqrstuvwxyz”, has 26 characters; at most 24 fit: "
     "shorten it"),
    (["build", "lowest-unique", "--names", "Ann,Bob,ann"],
     "Error: names: “ann” is given twice (names 1 and 3); every player needs a different name, "
     "e.g. add an initial"),
    (["build", "lowest-unique", "--range", "0-10"],
     "Error: range: 0-10 cannot be used: give the lowest and the highest number, e.g."
     " 1-20, the lowest at least 1 and the highest above it, at most 999"),
    (["build", "lowest-unique", "--range", "10-1"],
     "Error: range: 10-1 cannot be used: give the lowest and the highest number, e.g."
     " 1-20, the lowest at least 1 and the highest above it, at most 999"),
    (["build", "lowest-unique", "--range", "1-3"],
     "Error: range: 1-3 holds 3 numbers; lowest-unique needs at least 4, e.g. 1-10"),
    (["build", "lowest-unique", "--cooperative", "--sudden-death-announced"],
     "Error: sudden_death_announced: the cooperative variant keeps no score, so there is no tie "
     "to break; choose one or the other"),
    (["build", "lowest-unique", "--rounds", "0"],
     "Error: rounds: must be a whole number from 1 to 12; got “0”"),
    (["build", "lowest-unique", "--names", "Ann,Bob,Cy", "--players", "4"],
     "Error: players: 4 does not match the 3 names given; give a count or names, or make them "
     "agree"),
    (["build", "lowest-unique", "--frobnicate"],
     "Error: arguments: unrecognized arguments: --frobnicate; see 'kit --help'"),
]


@pytest.mark.parametrize(("argv", "expected"), BAD_INPUT)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], expected: str
) -> None:
    code, out, err = run(capsys, *argv, "--out", str(tmp_path / "build"))
    assert code == 2
    assert out == ""
    assert err.startswith(expected)
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "build").exists() or not any((tmp_path / "build").iterdir())


def test_malformed_toml_and_unknown_key(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "lowest-unique"\nplayers = \n')
    code, _, err = run(capsys, "build", "--config", str(bad), "--out", str(tmp_path / "b"))
    assert code == 2
    assert err.startswith(f"Error: config: {bad} is not valid TOML: ")
    unknown = tmp_path / "unknown.toml"
    unknown.write_text('game = "lowest-unique"\ncolour = "red"\n')
    code, _, err = run(capsys, "build", "--config", str(unknown), "--out", str(tmp_path / "b"))
    assert code == 2
    assert err.startswith(f"Error: config: unknown key 'colour' in {unknown}; allowed keys: game,")
    assert not (tmp_path / "b").exists()


def test_config_file_with_flags_overriding(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    config = tmp_path / "party.toml"
    config.write_text('game = "lowest-unique"\nnames = ["Ann", "Bob", "Cy"]\npaper = "letter"\n'
                      'rounds = 3\n')
    code, out, _ = run(capsys, "build", "--config", str(config), "--players", "5",
                       "--out", str(tmp_path))
    assert code == 0
    folder = tmp_path / "lowest-unique-5p-letter"
    assert out.splitlines() == [str(folder / f) for f in (
        "host-answers.html", "host-answers.pdf", "player-kit.html", "player-kit.pdf")]


def test_option_for_another_game_is_refused(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    code, _, err = run(capsys, "build", "lowest-unique", "--turns", "3", "--out", str(tmp_path))
    assert code == 2
    assert err.startswith("Error: turns: is not a setting of Lowest Unique Number kits")


def test_json_manifest(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "build", "lowest-unique", "--players", "3", "--json",
                       "--out", str(tmp_path))
    assert code == 0
    (kit,) = json.loads(out)
    assert kit["folder"] == str(tmp_path / "lowest-unique-3p-a4")
    assert kit["range"] == [1, 10]
    pdfs = {Path(f["path"]).name: f["pages"] for f in kit["files"] if "pages" in f}
    # Rules, 3 x 5 + 3 spare = 18 slips on 3 pages, tally, scores; host card + 2 practice pages.
    assert pdfs == {"player-kit.pdf": 6, "host-answers.pdf": 3}


def test_help_documents_every_option_with_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["build", "--help"])
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    from kit.cli import all_options

    for option, _ in all_options():
        assert option.flag in out
    assert "(default: a4)" in out and "(default: build)" in out and "(default: 5)" in out


def test_build_replaces_an_old_kit_atomically(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    for _ in range(2):
        code = run(capsys, "build", "lowest-unique", "--players", "3", "--out", str(tmp_path))[0]
        assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lowest-unique-3p-a4"]


def test_progress_bar_only_on_a_terminal_and_after_one_second(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    from kit.cli import Progress

    with Progress() as progress:
        progress.start -= 5  # a long build...
        progress.update(1, 4)  # ...but stderr is not a terminal: quiet
        assert progress.bar is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with Progress() as progress:
        progress.update(1, 4)  # a terminal, but under a second so far: quiet
        assert progress.bar is None
        progress.start -= 5
        progress.update(2, 4)
        assert progress.bar is not None
    assert capsys.readouterr().out == ""
