"""The command line, in-process: exact error lines, exit codes, nothing left behind."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from kit.cli import main

ROOT = Path(__file__).resolve().parents[2]


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
    (["build", "lowest-unique", "--names", "Ann,Bob,\u0410nn"],  # a Cyrillic capital A
     "Error: names: “Ann” and “\u0410nn” look alike; give every player a name that differs "
     "at a glance, e.g. add an initial\n"),
    (["build", "lowest-unique", "--names", "Ann,Bob,Cy,\uff21nn"],  # a full-width capital A
     "Error: names: “Ann” and “\uff21nn” look alike; give every player a name that differs "
     "at a glance, e.g. add an initial\n"),
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


def test_a_config_file_s_look_alike_names_are_refused(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    config = tmp_path / "party.toml"
    config.write_text('game = "lowest-unique"\nnames = ["Ann", "Bob", "Cy", "B\u043eb"]\n',
                      encoding="utf-8")
    code, out, err = run(capsys, "build", "--config", str(config), "--out",
                         str(tmp_path / "build"))
    assert (code, out) == (2, "")
    assert err == ("Error: names: “Bob” and “B\u043eb” look alike; give every player a name "
                   "that differs at a glance, e.g. add an initial\n")
    assert not (tmp_path / "build").exists()


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
    # Rules, 3 x 5 + 3 spare = 18 slips on 3 pages, tally and scores on one; host card + 2
    # practice pages.
    assert pdfs == {"player-kit.pdf": 5, "host-answers.pdf": 3}


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


# --- help, mistyped commands ---------------------------------------------------------------------


def test_a_mistyped_command_names_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "buidl") == (
        2, "", "Error: arguments: unknown command “buidl”; did you mean build? commands are "
        "build, report, site, serve, mail; see 'kit --help'\n")
    assert run(capsys, "serv", "--port", "8000")[2].startswith(
        "Error: arguments: unknown command “serv”; did you mean serve? ")
    assert run(capsys, "chess") == (
        2, "", "Error: arguments: unknown command “chess”; commands are build, report, site, "
        "serve, mail; see 'kit --help'\n")


def help_of(capsys: pytest.CaptureFixture[str], *command: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", [(), ("build",), ("report",), ("site",), ("serve",)],
                         ids=["kit", "build", "report", "site", "serve"])
def test_every_help_has_two_examples_and_says_where_the_docs_are(
        capsys: pytest.CaptureFixture[str], command: tuple[str, ...]) -> None:
    text = help_of(capsys, *command)
    examples = text[text.index("\nexamples:\n") + 11:].split("\n\n")[0].splitlines()
    assert len(examples) == 2 and all(line.startswith("  kit ") for line in examples)
    pages = re.findall(r"docs/[a-z/-]+\.md", text)
    assert pages and all((ROOT / page).is_file() for page in pages), pages
    for example in examples:  # each example is a command line the parser accepts
        from kit.cli import parser

        parser().parse_args(shlex.split(example)[1:])


def test_serve_help_names_the_console_and_what_0000_is_for(
        capsys: pytest.CaptureFixture[str]) -> None:
    top = " ".join(help_of(capsys).split())
    assert ("serve the download page, a custom-kit form and the game-night console at "
            "/console") in top
    serve = " ".join(help_of(capsys, "serve").split())
    assert "the game-night console at /console" in serve
    assert "--host ADDRESS address to listen on: 0.0.0.0 (or ::) lets phones and other machines " \
           "on the same network reach it" in serve
    assert "--prewarm, --no-prewarm" in serve and "default: off" in serve


def test_choices_read_alike_in_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    report = help_of(capsys, "report")
    assert "--format files|text|csv" in report and "{" not in report
    from kit.cli import commands, parser

    no_cache = {action.help for name in ("build", "report")
                for action in commands(parser())[name]._actions if action.dest == "cache"}
    assert no_cache == {"render every prose page afresh: do not read or write the render cache "
                        "(KIT_CACHE_DIR, else the user cache folder)"}


# --- folders -------------------------------------------------------------------------------------


def test_a_named_kit_never_replaces_the_count_only_kit(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    named = ("build", "lowest-unique", "--names", "Ann,Bob,Cy,Dee", "--title", "Club night",
             "--out", str(tmp_path))
    assert run(capsys, *named)[0] == 0
    assert run(capsys, "build", "lowest-unique", "--players", "4", "--out", str(tmp_path))[0] == 0
    assert run(capsys, *named)[0] == 0  # again: the same folder, replaced
    folders = sorted(p.name for p in tmp_path.iterdir())
    assert len(folders) == 2 and folders[0] == "lowest-unique-4p-a4"
    assert re.fullmatch(r"lowest-unique-4p-a4-club-night-[0-9a-f]{6}", folders[1])
    from support.helpers import texts

    named_text = " ".join(texts(tmp_path / folders[1] / "player-kit.pdf"))
    plain_text = " ".join(texts(tmp_path / folders[0] / "player-kit.pdf"))
    assert "Club night" in named_text and "Dee" in named_text
    assert "Club night" not in plain_text


def test_folder_names_tell_personal_kits_apart() -> None:
    from kit.config import resolve

    def folder(**raw: object) -> str:
        return resolve({"game": "lowest-unique", **raw}).folder_name

    assert folder(players=4) == "lowest-unique-4p-a4"
    names = folder(names=["Ann", "Bob", "Cy", "Dee"])
    assert re.fullmatch(r"lowest-unique-4p-a4-[0-9a-f]{6}", names)
    assert names == folder(names=["Ann", "Bob", "Cy", "Dee"])  # deterministic
    others = {names, folder(names=["Ann", "Bob", "Cy", "Eve"]), folder(players=4, date="5 Dec"),
              folder(players=4, title="Club night"), folder(players=4, title="Club night",
                                                             date="6 Dec"),
              folder(names=["Ann", "Bob", "Cy", "Dee"], shuffle=3)}
    assert len(others) == 6
    assert folder(players=4, title="Soirée à Zoë!").startswith("lowest-unique-4p-a4-soiree-a-zoe-")
    assert re.fullmatch(r"lowest-unique-4p-a4-[0-9a-f]{6}", folder(players=4, title="Вечер"))


# --- kit serve's start lines ---------------------------------------------------------------------


def test_start_lines_give_the_console_and_the_addresses_phones_can_open() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
    from kit.server.addresses import network_addresses, start_lines

    routes = {"10.255.255.254": "10.0.0.7", "172.31.255.254": None,
              "192.168.255.254": "192.168.1.5", "198.51.100.1": "192.168.1.5"}
    found = network_addresses(routes.get)
    assert found == ["10.0.0.7", "192.168.1.5"]  # each once, in address order
    assert network_addresses({"10.255.255.254": "127.0.0.1", "198.51.100.1": "169.254.3.4",
                              "192.168.255.254": "0.0.0.0"}.get) == []
    assert start_lines("0.0.0.0", 8000, lambda: found) == [
        "kit: game-night console: http://127.0.0.1:8000/console",
        "kit: phones on this network: http://10.0.0.7:8000/console, "
        "http://192.168.1.5:8000/console"]
    assert start_lines("::", 8080, list)[1] == (
        "kit: no network address of this machine found: phones cannot reach it until it joins "
        "a network")
    assert start_lines("127.0.0.1", 8000, lambda: found) == [
        "kit: game-night console: http://127.0.0.1:8000/console"]
    assert start_lines("::1", 8000) == ["kit: game-night console: http://[::1]:8000/console"]


@pytest.mark.slow
def test_serve_on_every_address_prints_an_address_that_serves_the_console(
        tmp_path: Path) -> None:
    """A real ``kit serve --host 0.0.0.0``: the phone address it prints answers /console,
    and the server renders nothing at start unless asked to (no prewarm)."""
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
    import os
    import socket
    import subprocess
    import sys
    import time

    import httpx

    from kit.server.addresses import network_addresses

    if not network_addresses():
        pytest.skip("this machine has no network address besides loopback")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "kit", "serve", "--host", "0.0.0.0", "--port", str(port),
             "--workers", "1", "--database", str(tmp_path / "party.sqlite3")],
            stdout=out, stderr=out, env={**os.environ, "PYTHONPATH": str(ROOT),
                                         "KIT_CACHE_DIR": str(tmp_path / "cache")})
    try:
        deadline = time.monotonic() + 90
        while "phones on this network: " not in log.read_text():
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        text = log.read_text()
        assert f"kit: game-night console: http://127.0.0.1:{port}/console\n" in text
        line = text[text.index("phones on this network: "):].splitlines()[0]
        urls = line.split(": ", 1)[1].split(", ")
        assert urls == [f"http://{a}:{port}/console" for a in network_addresses()]
        for url in urls:
            for _ in range(100):
                try:
                    answer = httpx.get(url, timeout=10)
                    break
                except httpx.TransportError:
                    time.sleep(0.2)
            assert answer.status_code == 200 and "<form" in answer.text, url
        health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).json()
        assert health["pool"]["started"] == 0  # nothing rendered at start
    finally:
        server.terminate()
        server.wait(30)


def test_site_counts_one_kit_in_the_singular(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    pytest.importorskip("pypdfium2", reason="the web extra is not installed: pip install '.[web]'")
    monkeypatch.setenv("KIT_CACHE_DIR", str(tmp_path / "cache"))  # the session's counts kits
    code, out, err = run(capsys, "site", "--players", "3", "--paper", "a4", "--out",
                         str(tmp_path / "site"), "--games", "lowest-unique")
    assert code == 0 and out.splitlines()[-1] == str(tmp_path / "site" / "index.html")
    assert re.fullmatch(r"1 kit in [0-9]+\.[0-9] s\n", err)


def test_serve_without_the_web_extra_names_what_is_missing(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """Missing web modules are named in one Error line before anything starts."""
    from kit.serve import commands

    monkeypatch.setattr(commands, "WEB_EXTRA_MODULES", ("json", "no_such_module_for_kit"))
    code, out, err = run(capsys, "serve", "--database", str(tmp_path / "games.sqlite"))
    assert code == 2
    assert err.splitlines() == [
        "Error: serve: needs the web extra (no_such_module_for_kit missing): pip install "
        "'number-party-kit[web]' (from the source folder: pip install '.[web]'; with pipx: "
        "pipx install --force '.[web]')"]
    assert not (tmp_path / "games.sqlite").exists()
