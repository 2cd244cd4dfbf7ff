"""Fixtures of the console's tests: ``make_site``, ``kit serve``'s whole app around a console."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # Starlette and the console only once a test asks for a site
    from starlette.applications import Starlette

    from kit.console.service import Console

Site = tuple["Console", "Starlette"]


@pytest.fixture
def make_site(tmp_path: Path) -> Iterator[Callable[..., Site]]:
    """A factory of ``kit serve`` apps, each with a console on a SQLite file of the test.

    The site around it is the smallest: renders in threads, one worker, a queue of one, no
    prewarming, Lowest Unique Number for 4 players on A4. A keyword overrides ``create_app``'s
    own. Gives ``(console, app)``; every console is closed after the test.
    """
    from kit.console.service import open_console
    from kit.serve.app import create_app

    opened: list[Console] = []

    def make(**overrides: Any) -> Site:
        console = open_console(str(tmp_path / "c.db"), tmp_path / "files")
        opened.append(console)
        small = {"executor": "thread", "workers": 1, "queue": 1, "prewarm": False,
                 "games": ["lowest-unique"], "players": [4], "papers": ["a4"]}
        return console, create_app(**{**small, "console": console, **overrides})

    yield make
    for console in opened:
        console.close()


@pytest.fixture
def held_renders(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[list[str], Any]]:
    """Every report render counted (by folder), and held until ``release`` is set; released
    after the test whatever it did."""
    import threading

    from kit.console import engine

    calls: list[str] = []
    release = threading.Event()
    write = engine.write

    def counted(data: Any, **kwargs: Any) -> Any:
        calls.append(kwargs["folder"])
        release.wait(60)
        return write(data, **kwargs)

    monkeypatch.setattr(engine, "write", counted)
    yield calls, release
    release.set()
