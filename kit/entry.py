"""The ``kit`` command's entry point (and ``python -m kit``'s).

A build or a report renders its prose pages with WeasyPrint in a second process, whose import
of WeasyPrint is the longest step of a first build. That process is forked here, before the
command line's own modules load (the registry, both games, the option declarations), so the
two imports run side by side; it is stopped as soon as the command knows it has nothing to
render (every page cached, bad input, a text report).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

RENDERING = ("build", "report")  # the commands that may render prose pages
HELP = ("-h", "--help", "--version")


def _renders(args: Sequence[str]) -> bool:
    """Whether the command line names a command that may render (its first word)."""
    command = next((a for a in args if not a.startswith("-")), None)
    return command in RENDERING and not any(a in HELP for a in args)


def main() -> int:
    """Run ``kit`` with the process's arguments; the exit code."""
    args = sys.argv[1:]
    if not _renders(args):
        from .cli import main as run

        return run(args)
    from .prose import Renderer, prose_workers

    with Renderer(prose_workers()) as renderer:
        from .cli import main as run

        return run(args, renderer)
