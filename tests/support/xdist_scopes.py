"""How pytest-xdist spreads the tests: a module's tests run on one worker (they share module
fixtures, a database and a render cache), except the print lint's kits, each a unit of its own.

The unit is worked out from the test's node id by our own scheduler
(``pytest_xdist_make_scheduler``), not from ``xdist_group`` markers: those reach the scheduler
only as a suffix xdist writes into the node id, and pytest 9.2 no longer lets it (the markers
were then ignored and one module ran on both workers against one database).
"""

from __future__ import annotations

import re

import pytest

# modules whose parametrized tests are spread by the first part of their id ("KIT/document")
SPREAD_BY_PARAM = frozenset({"tests/kit/test_print_lint.py"})
_PARAM = re.compile(r"\[([^/\]]+)/")


def unit_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its module, or its module and kit for the print lint.

    >>> unit_of("tests/site/test_server.py::test_health")
    'tests/site/test_server.py'
    >>> unit_of("tests/kit/test_print_lint.py::test_pdf[lun-a4/player-kit]")
    'tests/kit/test_print_lint.py::lun-a4'
    """
    module = nodeid.split("::", 1)[0]
    if module in SPREAD_BY_PARAM and (found := _PARAM.search(nodeid)):
        return f"{module}::{found.group(1)}"
    return module


def _scheduler_class() -> type:
    from xdist.scheduler import LoadScopeScheduling

    class ModuleScheduling(LoadScopeScheduling):
        """``--dist loadscope`` with our units instead of xdist's class-or-module split."""

        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

    return ModuleScheduling


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """Our units for the default ``-n`` distribution; an explicit other ``--dist`` is kept."""
    if config.getvalue("dist") not in ("load", "loadscope", "loadgroup"):
        return None
    return _scheduler_class()(config, log)
