"""Hostile input against the command line: one line, exit 2, nothing half-written, bounded work.

Every case runs ``kit`` in-process from an empty working folder with a private temp folder,
and checks the same contract: exit code 0 or 2; on 2, nothing on stdout and exactly one line
on stderr with no raw control character; nothing written outside ``--out`` and, on an error,
nothing inside it either; nothing left in the temp folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import re
import subprocess
import tempfile
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.helpers import REFERENCE_LOG_TURN_1

from kit.cli import MAX_PARTIES, main
from kit.config import CONFIG_MAX_BYTES
from kit.errors import ConfigError, GameLogError, KitError, LayoutError, OutputError
from kit.options import MAX_PLAYERS
from kit.registry import all_options


def files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")} if folder.exists() else set()


class Run:
    """``kit`` in-process in a clean folder, with the contract checked on every call."""

    def __init__(self, root: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.root = root
        self.capsys = capsys
        self.work = root / "work"
        self.work.mkdir()
        self.temp = root / "temp"
        self.temp.mkdir()
        self.codes = (0, 2)  # the contract: ok, or one line and exit 2

    def __call__(self, *argv: str, out: str | None = "out") -> tuple[int, str, str]:
        before = files_under(self.work)
        args = list(argv) + (["--out", out] if out is not None else [])
        previous = tempfile.tempdir
        tempfile.tempdir = str(self.temp)
        cwd = os.getcwd()
        os.chdir(self.work)
        try:
            code = main(args)
        finally:
            os.chdir(cwd)
            tempfile.tempdir = previous
        stdout, stderr = self.capsys.readouterr()
        assert code in self.codes, (args, code, stderr)
        assert list(self.temp.iterdir()) == [], "left in the temp folder"
        if code == 2:
            assert stdout == ""
            assert stderr.startswith("Error: ") and stderr.endswith("\n")
            for line in stderr[:-1].split("\n"):  # one line per problem (Problems)
                assert line.startswith("Error: ") and "\r" not in line, stderr
                assert not any(unicodedata.category(ch)[0] == "C" for ch in line), repr(stderr)
                assert len(line) < 520
            assert files_under(self.work) == before, "an error wrote files"
        return code, stdout, stderr


@pytest.fixture
def run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Run:
    return Run(tmp_path, capsys)


# --- 1. bounded work ------------------------------------------------------------------------------

def test_huge_counts_are_refused_before_any_work(run: Run) -> None:
    code, _, err = run("build", "lowest-unique", "--players", "100000")
    assert code == 2 and err.startswith("Error: players: ")
    names = ",".join(f"P{i}" for i in range(10_000))
    code, _, err = run("build", "lowest-unique", "--names", names)
    assert err == f"Error: names: 10000 names given; at most {MAX_PLAYERS} fit one build\n"
    code, _, err = run("build", "lowest-unique", "--tables", "5000", "--players", "1200")
    assert err.startswith("Error: tables: must be a whole number from 1 to 100; got")


def test_big_files_are_read_with_a_limit(run: Run) -> None:
    for argv in (["build", "--config", "/dev/zero"], ["report", "/dev/zero"]):
        code, _, err = run(*argv)
        assert code == 2
        assert f"is larger than {CONFIG_MAX_BYTES // 1024} KB" in err
    big = run.root / "big.toml"
    big.write_text('game = "lowest-unique"\n' + "# padding\n" * 40_000)
    code, _, err = run("build", "--config", str(big))
    assert code == 2 and "is larger than" in err


def test_too_many_parties_and_too_many_turns(run: Run) -> None:
    batch = run.root / "batch.toml"
    batch.write_text("".join(f'[[party]]\nname = "p{i}"\ngame = "lowest-unique"\n'
                             for i in range(MAX_PARTIES + 1)))
    code, _, err = run("build", "--config", str(batch))
    assert err.startswith(f"Error: party: {MAX_PARTIES + 1} parties in ")
    log = run.root / "log.toml"
    log.write_text(REFERENCE_LOG_TURN_1 + "[[turn]]\n" * 300)
    code, _, err = run("report", str(log))
    assert err == "Error: turn: 301 turns logged; a game log takes at most 200\n"


# --- 2. write failures ----------------------------------------------------------------------------

def test_unwritable_out_is_an_out_error_before_rendering(run: Run, tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    link = tmp_path / "link"
    link.symlink_to(a_file)
    cases = [str(a_file), str(a_file / "under"), "/dev/null", "x" * 300, "/proc/kits",
             str(link), str(tmp_path / "dangling")]
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere" / "deeper")
    for out in cases:
        for argv in (["build", "lowest-unique", "--players", "3"], ["report",
                                                                    str(reference_log(tmp_path))]):
            code, _, err = run(*argv, out=out)
            assert code == 2, (out, argv)
            assert err.startswith("Error: out: "), err


def reference_log(folder: Path) -> Path:
    path = folder / "game.toml"
    if not path.exists():
        path.write_text(REFERENCE_LOG_TURN_1)
    return path


def test_out_with_a_nul_from_toml(run: Run) -> None:
    config = run.root / "nul.toml"
    config.write_text('game = "lowest-unique"\nout = "bu\\u0000ild"\n')
    code, _, err = run("build", "--config", str(config), out=None)
    assert err == "Error: out: 'bu\\x00ild' holds a NUL character; give a plain folder path\n"


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[Path]:
    """A folder this process cannot write: mode 0555, or, for root (who writes through any
    mode), a read-only tmpfs mounted there, so the check is exercised either way."""
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"root cannot mount a read-only tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_read_only_folder(run: Run, tmp_path: Path) -> None:
    with read_only_folder(tmp_path / "locked") as locked:
        code, out, err = run("build", "lowest-unique", "--players", "3", out=str(locked / "b"))
        assert (code, out) == (2, "")
        assert err == f"Error: out: {locked} is not writable\n"
        assert list(locked.iterdir()) == []


def write_batch_failing(run: Run, monkeypatch: pytest.MonkeyPatch, failure: BaseException
                        ) -> tuple[int, str, str]:
    """A batch of two parties built into a new deep/out whose 13th file write raises
    ``failure``."""
    real = Path.write_bytes
    calls = {"n": 0}

    def flaky(self: Path, data: bytes) -> int:
        calls["n"] += 1
        if calls["n"] > 12:
            raise failure
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", flaky)
    batch = run.root / "two.toml"
    batch.write_text('[[party]]\nname = "first"\ngame = "lowest-unique"\nplayers = 3\n'
                     '[[party]]\nname = "second"\ngame = "lowest-unique"\nplayers = 4\n')
    return run("build", "--config", str(batch), out="deep/out")


def test_failing_disk_leaves_nothing(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails half-way (disk full) removes everything the build had made."""
    code, _, err = write_batch_failing(run, monkeypatch, OSError(28, "No space left on device"))
    assert code == 2 and "the disk is full" in err
    assert not (run.work / "deep").exists()


def test_ctrl_c_while_writing_leaves_nothing(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C half-way through writing a batch: one line, exit 130, no folder, no traceback."""
    run.codes = (130,)
    code, out, err = write_batch_failing(run, monkeypatch, KeyboardInterrupt())
    assert (code, out, err) == (130, "", "Interrupted.\n")
    assert not (run.work / "deep").exists()


# --- 3. batches are all or nothing ----------------------------------------------------------------

def test_batch_writes_every_party_or_none(run: Run) -> None:
    (run.work / "out" / "second").mkdir(parents=True)
    (run.work / "out" / "second" / "notes.txt").write_text("mine")
    batch = run.root / "batch.toml"
    batch.write_text('[[party]]\nname = "first"\ngame = "lowest-unique"\nplayers = 3\n'
                     '[[party]]\nname = "second"\ngame = "lowest-unique"\nplayers = 4\n')
    code, _, err = run("build", "--config", str(batch))
    assert code == 2
    assert err.startswith("Error: out: out/second holds files the kit did not write (notes.txt)")
    assert sorted(p.name for p in (run.work / "out").iterdir()) == ["second"]


def test_rebuild_keeps_a_hosts_own_files(run: Run) -> None:
    assert run("build", "lowest-unique", "--players", "3")[0] == 0
    folder = run.work / "out" / "lowest-unique-3p-a4"
    assert run("build", "lowest-unique", "--players", "3")[0] == 0  # our own files: replaced
    (folder / "seating-notes.txt").write_text("Ann by the window")
    code, _, err = run("build", "lowest-unique", "--players", "3")
    assert code == 2 and "seating-notes.txt" in err
    assert (folder / "seating-notes.txt").read_text() == "Ann by the window"


# --- 7. control characters ------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Ann\nBob", "A\x1b[2J", "nul\x00here", "evil\u202eexe",
                                  "x" * 10_000])
def test_user_text_in_errors_is_escaped_and_short(run: Run, name: str) -> None:
    code, _, err = run("build", "lowest-unique", "--names", f"{name},B,C")
    assert code == (0 if name == "Ann\nBob" else 2)  # a line break is white space: "Ann Bob"
    assert "\x1b" not in err and "\x00" not in err and "\u202e" not in err
    log = run.root / "log.toml"
    log.write_text(REFERENCE_LOG_TURN_1.replace('"F"]', json.dumps(name) + "]", 1))
    code, _, err = run("report", str(log))
    assert code == 2


def test_a_file_name_with_a_newline(run: Run) -> None:
    odd = run.root / "odd\nname.toml"
    code, _, err = run("build", "--config", str(odd))
    assert code == 2 and "odd\\x0aname.toml" in err


# --- 8. wrong types -------------------------------------------------------------------------------

WRONG_TYPES = [
    ('title = ["a", "b"]', "Error: title: must be text of at most 60 characters; got a list"),
    ("title = false", "Error: title: must be text of at most 60 characters; got false"),
    ("out = 123", "Error: out: must be a folder path; got 123"),
    ("out = true", "Error: out: must be a folder path; got true"),
    ('out = ["a"]', "Error: out: must be a folder path; got a list"),
    ("out = { a = 1 }", "Error: out: must be a folder path; got a table"),
    ('out = ""', "Error: out: is empty; give a folder, e.g. build"),
    ('players = "many"', "Error: players: Lowest Unique Number needs 3 to 12 players per "
     "table; got “many”"),
    ("rounds = 2.5", "Error: rounds: must be a whole number from 1 to 12; got 2.5"),
    ('paper = ["a4"]', "Error: paper: must be a4 or letter; got a list"),
    ("cooperative = 1", "Error: cooperative: must be true or false; got 1"),
    ('range = ""', "Error: range: is empty; give two whole numbers LO-HI with 1 <= LO < HI <= "
     "999, e.g. 1-20"),
    ('names = ""', "Error: names: is empty; give one or more names separated by commas"),
    ("names = [1, 2, 3]", "Error: names: name 1 must be text; got a whole number"),
]


@pytest.mark.parametrize(("line", "expected"), WRONG_TYPES)
def test_wrong_toml_types_are_errors_not_coerced(run: Run, line: str, expected: str) -> None:
    config = run.root / "c.toml"
    config.write_text(f'game = "lowest-unique"\n{line}\n')
    code, _, err = run("build", "--config", str(config), out=None)
    assert err == expected + "\n"


def test_a_config_file_names_its_game(run: Run) -> None:
    config = run.root / "c.toml"
    config.write_text("players = 5\n")
    code, _, err = run("build", "--config", str(config))
    assert err == ("Error: game: no game given; choose one of: lowest-unique, "
                   "whats-my-number\n")


def test_empty_flags_are_errors(run: Run) -> None:
    assert run("build", "lowest-unique", "--names", "")[2].startswith("Error: names: is empty")
    assert run("build", "lowest-unique", "--range", "")[2].startswith("Error: range: is empty")


# --- 10. smaller ----------------------------------------------------------------------------------

def test_names_equal_after_nfc_are_the_same_name(run: Run) -> None:
    composed, decomposed = "Zoë", "Zoe\u0308"
    code, _, err = run("build", "lowest-unique", "--names", f"{composed},{decomposed},Cy")
    assert err == "Error: names: “Zoë” is given twice (names 1 and 2); every player needs a " \
                  "different name, e.g. add an initial\n"


@pytest.mark.parametrize("digits", ["３", "٣", "1\u0663"])
def test_non_ascii_digits_are_not_numbers(run: Run, digits: str) -> None:
    code, _, err = run("build", "lowest-unique", "--rounds", digits)
    assert code == 2 and err.startswith("Error: rounds: must be a whole number from 1 to 12")


def test_out_with_dot_dot_makes_no_empty_folder(run: Run) -> None:
    assert run("build", "lowest-unique", "--players", "3", out="sub/../o")[0] == 0
    assert sorted(p.name for p in run.work.iterdir()) == ["o"]


def test_no_command_is_a_usage_error_on_stderr(run: Run) -> None:
    code, out, err = run(out=None)
    assert (code, out) == (2, "")
    assert err == "Error: arguments: give a command: build, report, site, serve or mail; see " \
                  "'kit --help'\n"


# --- 11. errors cross process boundaries ----------------------------------------------------------

@pytest.mark.parametrize("kind", [KitError, ConfigError, GameLogError, LayoutError, OutputError])
def test_kit_errors_pickle(kind: type[KitError]) -> None:
    again = pickle.loads(pickle.dumps(kind("field", "message")))
    assert type(again) is kind and (again.field, again.message) == ("field", "message")
    assert str(again) == "field: message"


# --- generated input ------------------------------------------------------------------------------

FLAGS = [option.flag for option, _ in all_options()] + ["--config", "--json", "--bogus"]
WEIRD_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
VALUES = st.one_of(WEIRD_TEXT, st.integers(-5, 40).map(str),
                   st.sampled_from(["a4", "letter", "1-10", "3-9", "true", "Ann,Bob,Cy"]))
GENERATED = settings(max_examples=40, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture,
                                            HealthCheck.too_slow])


@GENERATED
@given(game=st.sampled_from(["lowest-unique", "whats-my-number", "chess", ""]),
       pairs=st.lists(st.tuples(st.sampled_from(FLAGS), VALUES), max_size=4))
def test_generated_flags_keep_the_contract(run: Run, game: str,
                                           pairs: list[tuple[str, str]]) -> None:
    argv = ["build", game] if game else ["build"]
    for flag, value in pairs:
        argv += [flag, value]
    if "--players" not in argv and "--names" not in argv:
        argv += ["--players", "4"]  # keeps the valid builds small
    code, _, _ = run(*argv, out="g")
    if code == 0:
        assert all(not name.startswith(".kit-render") for name in os.listdir(run.work / "g"))


TOML_SCALARS = st.one_of(st.booleans(), st.integers(-3, 30), st.floats(allow_nan=False,
                                                                       width=32), WEIRD_TEXT)
TOML_VALUES = st.recursive(TOML_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b"]), inner,
                                                 max_size=2)), max_leaves=6)
KEYS = st.sampled_from([option.key for option, _ in all_options()] + ["game", "party", "zz"])


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    assert isinstance(value, dict)
    return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"


@GENERATED
@given(game=st.sampled_from(["lowest-unique", "whats-my-number", None]),
       values=st.dictionaries(KEYS, TOML_VALUES, max_size=4))
def test_generated_toml_keeps_the_contract(run: Run, game: str | None,
                                           values: dict[str, object]) -> None:
    values = {k: v for k, v in values.items() if k != "game"}
    lines = [f'game = "{game}"'] if game else []
    lines += [f"{key} = {toml_value(value)}" for key, value in values.items()]
    config = run.root / "generated.toml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run("build", "--config", str(config), out="g" if "out" not in values else None)


LOG_CHOICES = st.one_of(st.integers(-2, 60), st.sampled_from(["pass", "PASS", "x", ""]),
                        st.booleans())


@GENERATED
@given(players=st.lists(st.sampled_from(["Ann", "Bob", "Cy", "Dee", "ann", "E\nF", ""]),
                        min_size=0, max_size=5),
       rounds=st.lists(st.lists(LOG_CHOICES, min_size=3, max_size=5), max_size=3))
def test_generated_lowest_unique_logs(run: Run, players: list[str],
                                      rounds: list[list[object]]) -> None:
    lines = ['game = "lowest-unique"', f"rounds = {max(1, len(rounds))}", "[[table]]",
             f"players = {toml_value(players)}"]
    for choices in rounds:
        lines.append("[[table.round]]")
        lines += [f"{json.dumps(p)} = {toml_value(c)}" for p, c in zip(players, choices,
                                                                       strict=False)]
    log = run.root / "lun.toml"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run("report", str(log), "--format", "text", out=None)
    if code == 0:  # a winner once every round is logged; else provisional standings
        assert re.search(r"(wins|share first place) with \d+ points?\.\n$", out) or (
            len(rounds) == 0 and out.endswith("no round played yet; the game has 1 round.\n"))


@GENERATED
@given(turns=st.lists(st.dictionaries(st.sampled_from(["A", "B", "C", "D", "Z"]),
                                      st.one_of(st.lists(st.integers(-1, 40), max_size=4),
                                                st.just({"list": {"A": 1}}), WEIRD_TEXT),
                                      max_size=3), max_size=3))
def test_generated_whats_my_number_logs(run: Run, turns: list[dict[str, object]]) -> None:
    lines = ['game = "whats-my-number"', 'players = ["A", "B", "C", "D"]',
             "[secrets]", "A = 1", "B = 7", "C = 20", "D = 30"]
    for turn in turns:
        lines.append("[[turn]]")
        lines += [f"{k} = {toml_value(v)}" for k, v in turn.items()]
    log = run.root / "wmn.toml"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run("report", str(log), "--format", "text", out=None)
    if code == 0:  # every answered guess row agrees with an oracle written here
        check_answers(out, turns, {"A": 1, "B": 7, "C": 20, "D": 30})


@GENERATED
@given(turns=st.lists(st.dictionaries(st.sampled_from(["A", "B", "C", "D"]),
                                      st.lists(st.integers(0, 31), min_size=1, max_size=4),
                                      max_size=4), min_size=1, max_size=4))
def test_generated_guesses_are_answered_right(run: Run, turns: list[dict[str, list[int]]]
                                              ) -> None:
    """Logs of guesses only (some outside the range, some beyond the allowance): the report
    always comes out (rulings, not errors), and every answered row agrees with the oracle."""
    lines = ['game = "whats-my-number"', 'players = ["A", "B", "C", "D"]', 'range = "1-30"',
             "[secrets]", "A = 1", "B = 7", "C = 20", "D = 30"]
    for turn in turns:
        lines.append("[[turn]]")
        lines += [f"{k} = {toml_value(v)}" for k, v in turn.items()]
    log = run.root / "guesses.toml"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run("report", str(log), "--format", "text", out=None)
    if code == 2:  # only orders after a winning turn may be refused
        assert "no orders are allowed after that" in err, err
        return
    assert code == 0
    check_answers(out, turns, {"A": 1, "B": 7, "C": 20, "D": 30})


def check_answers(out: str, turns: list[dict[str, object]], secrets: dict[str, int]) -> None:
    """Replay the guesses the text report answers: H, L, ✓, or X for one's own column and a
    number already found (found by an earlier row, in any turn)."""
    found: dict[str, set[str]] = {player: set() for player in secrets}
    sections = re.split(r"^Turn (\d+)$", out, flags=re.M)
    for turn, body in zip(sections[1::2], sections[2::2], strict=True):
        orders = turns[int(turn) - 1]
        for player, index, cells in re.findall(
                r"^\| ([A-D]) (\d+)(?: \(bonus\))? \| (.+) \|$", body, re.M):
            guess = orders[player][int(index) - 1]
            expected, hits = [], []
            for target, secret in secrets.items():
                if target == player or target in found[player]:
                    expected.append("X")
                elif secret == guess:
                    expected.append("✓")
                    hits.append(target)
                else:
                    expected.append("H" if secret > guess else "L")
            assert [cell.strip() for cell in cells.split("|")] == expected, (turn, player, index)
            found[player].update(hits)
