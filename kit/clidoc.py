"""The command-line reference, ``docs/reference/cli.md``, generated from the parsers themselves
(``kit --help`` and every command's), so it cannot drift from them; a test keeps the file in
step. Regenerate it with ``python -m kit.clidoc > docs/reference/cli.md``.
"""

from __future__ import annotations

import sys

from .cli import commands, parser

WIDTH = 100  # the help's width in the reference, whatever the terminal
INTRO = """\
# Command line

Generated from the program's own help (`python -m kit.clidoc > docs/reference/cli.md`; a test
fails when they differ). Every command prints bad input as one `Error: ...` line per problem on
standard error, exits with code 2 and writes nothing; Ctrl-C stops it with `Interrupted.` and
code 130. A mistyped command names the nearest one (`kit buidl`: did you mean build?). What each
command writes: [files each command writes](kit-files.md); every limit: [limits](limits.md).
`python -m kit` is the same program as `kit`.
"""


def help_text(*command: str) -> str:
    """``kit --help`` (or ``kit COMMAND [ACTION] --help``) at the reference's width."""
    chosen = parser()
    for name in command:
        chosen = commands(chosen)[name]
    chosen.help_width = WIDTH  # type: ignore[attr-defined]
    return chosen.format_help()


def command_paths(*path: str) -> list[tuple[str, ...]]:
    """Every command under ``path``, depth first: ``(), ("build",), ..., ("mail", "test")``."""
    chosen = parser()
    for name in path:
        chosen = commands(chosen)[name]
    paths = [path]
    for name in commands(chosen):
        paths += command_paths(*path, name)
    return paths


def cli_reference() -> str:
    """The Markdown of ``docs/reference/cli.md``: the intro, then each command's help."""
    parts = [INTRO]
    for path in command_paths():
        parts += [f"## `{' '.join(('kit', *path))}`\n", block(help_text(*path))]
    return "\n".join(parts)


def block(text: str) -> str:
    """Help text as a fenced block (trailing spaces dropped: argparse leaves some)."""
    lines = "\n".join(line.rstrip() for line in text.rstrip().splitlines())
    return f"```text\n{lines}\n```\n"


if __name__ == "__main__":
    sys.stdout.write(cli_reference())
