"""Shared fixtures: one render cache for the run, kits built once, one headless Chromium.

Helpers every test module may import live in ``support/helpers.py``; this file holds fixtures only.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.helpers import build_kit

# the console fixtures (console_url on SQLite and PostgreSQL, console, client) for every module
# how pytest-xdist spreads the tests over the workers (a module on one worker)
pytest_plugins = ("support.console_db", "support.xdist_scopes")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow ones first."""
    # the slow ones (browser, servers, big kits) first: the quick ones then fill the gaps, and
    # no worker is left alone with a long one at the end
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def _skip_reason(longrepr: object) -> str:
    return longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    """Under CI every test runs: a skip (a missing browser, axe-core, PostgreSQL, a tool) is a
    failure there, never a quiet pass; on a developer's machine it stays a skip with its reason."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped under CI, which must run every test: " \
                          f"{_skip_reason(report.longrepr)}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> object:
    """The same for a module that skips itself at import (``allow_module_level``)."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped:
        report.outcome = "failed"
        report.longrepr = f"skipped under CI, which must run every test: " \
                          f"{_skip_reason(report.longrepr)}"


@pytest.fixture(scope="session", autouse=True)
def render_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every build of the run shares one render cache, outside the user's own.

    Under pytest-xdist the workers' temp folders share a parent, so they share the cache too
    (it is safe for several processes).
    """
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    folder = root / "render-cache"
    os.environ["KIT_CACHE_DIR"] = str(folder)
    # every app a test makes opens the console's database: one for the run, never the user's
    os.environ["KIT_DATABASE_URL"] = str(root / "console.sqlite3")
    # and a data folder of its own: a server on PostgreSQL keeps its mail key there
    os.environ["XDG_DATA_HOME"] = str(root / "data")
    os.environ.pop("KIT_MAIL_KEY", None)  # the key file, unless a test sets the variable
    return folder


@pytest.fixture(scope="session")
def lun_a4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kit(tmp_path_factory.mktemp("lun-a4"), "lowest-unique", "--players", "8")


@pytest.fixture(scope="session")
def lun_letter_named(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kit(
        tmp_path_factory.mktemp("lun-letter"), "lowest-unique", "--paper", "letter",
        "--names", "<b>Ann</b>,{{x}},Cy,Dee", "--range", "1-20", "--title", "Club night",
        "--date", "5 Dec 2026", "--sudden-death-announced",
    )


@pytest.fixture(scope="session")
def chromium_printer():
    """One headless Chromium for the whole session, printing HTML files to PDF bytes."""
    from support.chromium_print import ChromiumPrinter, available

    reason = available()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    with ChromiumPrinter() as printer:
        yield printer
