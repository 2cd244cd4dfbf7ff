"""The commit-msg check (pre-commit's ``commit-msg`` stage): a subject of at most 72
characters, and a blank line between it and the body, so that ``git log --oneline``, ``git
shortlog`` and blame show the whole subject. Usage: ``python .ci/commit_msg.py FILE``."""

from __future__ import annotations

import sys
from pathlib import Path

MAX_SUBJECT = 72


def problems(message: str) -> list[str]:
    """What is wrong with a commit message (git's comment lines left out)."""
    lines = [line for line in message.splitlines() if not line.startswith("#")]
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        return ["the message is empty"]
    found = []
    subject = lines[0]
    if len(subject) > MAX_SUBJECT:
        found.append(f"the subject has {len(subject)} characters; at most {MAX_SUBJECT}: "
                     "put the why in the body, after a blank line")
    if subject.rstrip().endswith("."):
        found.append("the subject ends with a full stop")
    if len(lines) > 1 and lines[1].strip():
        found.append("the second line is not blank: a blank line separates subject and body")
    return found


def main(argv: list[str]) -> int:
    found = problems(Path(argv[1]).read_text(encoding="utf-8"))
    for problem in found:
        print(f"Error: commit message: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
