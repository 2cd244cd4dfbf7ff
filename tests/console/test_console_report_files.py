"""A game's report folders as the servers sharing them make them (``kit.console.report_files``):
one of them makes a folder, the others wait and find it made."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from kit.console import report_files
from kit.console.store import GameRow


def test_servers_sharing_the_files_make_a_folder_once(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    started, release = threading.Event(), threading.Event()

    def write(data: object, *, out: Path, folder: str, **_: object) -> None:
        made.append(folder)
        started.set()
        assert release.wait(60), "never released"
        (Path(out) / folder).mkdir()
        (Path(out) / folder / "report.txt").write_text("turn 1", encoding="utf-8")

    monkeypatch.setattr(report_files.engine, "write", write)
    game = tmp_path / "files" / "g1"
    target = game / "public-0123456789abcdef" / "g1-reports"
    row = GameRow("g1", "whats-my-number", {"paper": "a4", "lang": "en"}, "", 3)
    # two servers' workers (threads here: each opens the lock file on its own, as a process)
    workers = [threading.Thread(target=report_files.make_folder,
                                args=(target, game, {}, row, None)) for _ in range(2)]
    workers[0].start()
    assert started.wait(60)
    workers[1].start()  # while the first is making it
    release.set()
    for worker in workers:
        worker.join(60)
        assert not worker.is_alive()
    assert made == ["g1-reports"]  # made once: the second found it made
    assert (target / "report.txt").read_text(encoding="utf-8") == "turn 1"
    assert not list(game.glob(".making-*"))  # no lock file left behind
    report_files.make_folder(target, game, {}, row, None)  # asked again: nothing to make
    assert made == ["g1-reports"]
