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


def help_text(command: str | None = None) -> str:
    """``kit --help`` (or ``kit COMMAND --help``) at the reference's width."""
    top = parser()
    chosen = top if command is None else commands(top)[command]
    chosen.help_width = WIDTH  # type: ignore[attr-defined]
    return chosen.format_help()


def cli_reference() -> str:
    """The Markdown of ``docs/reference/cli.md``: the intro, then each command's help."""
    parts = [INTRO, "## `kit`\n", block(help_text())]
    for name in commands(parser()):
        parts += [f"## `kit {name}`\n", block(help_text(name))]
    return "\n".join(parts)


def block(text: str) -> str:
    """Help text as a fenced block (trailing spaces dropped: argparse leaves some)."""
    lines = "\n".join(line.rstrip() for line in text.rstrip().splitlines())
    return f"```text\n{lines}\n```\n"


if __name__ == "__main__":
    sys.stdout.write(cli_reference())
