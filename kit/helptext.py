"""How every command's ``--help`` reads: wrapped paragraphs, examples kept as written, and
where the full documentation is. Shared by ``kit.cli`` and ``kit.site.commands``."""

from __future__ import annotations

import argparse
import re
import textwrap
from collections.abc import Sequence

DOCS = "docs/ in the project's source"  # where --help sends the reader for more
# The one-line help of the server-side commands, as ``kit --help`` lists them: here, so that
# listing them imports none of their modules (each of those adds its own flags).
COMMAND_HELP = {
    "site": "write the static download site of ready-made kits",
    "serve": "serve the download page, a custom-kit form and the game-night console at /console",
    "mail": "check the e-mail set-up of the console",
}


class HelpFormatter(argparse.HelpFormatter):
    """Wraps each paragraph of a description or epilog, but keeps a paragraph whose lines
    after the first are indented (the examples) as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = []
        for paragraph in text.split("\n\n"):
            lines = paragraph.splitlines()
            if len(lines) > 1 and all(line.startswith("  ") for line in lines[1:]):
                paragraphs.append("\n".join(indent + line for line in lines))
            else:  # as argparse fills, but never at a hyphen (paths, flags)
                paragraphs.append(textwrap.fill(
                    re.sub(r"\s+", " ", paragraph).strip(), width, initial_indent=indent,
                    subsequent_indent=indent, break_on_hyphens=False, break_long_words=False))
        return "\n\n".join(paragraphs)


def epilog(examples: Sequence[str], *more: str) -> str:
    """A command's epilog: its examples, one a line, then paragraphs (the docs to read)."""
    return "\n\n".join(("\n".join(["examples:", *(f"  {line}" for line in examples)]), *more))
