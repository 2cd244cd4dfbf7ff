"""The KitError family: every problem a user can cause, with the field it concerns.

Library code raises these; only ``kit.cli`` turns them into ``Error: ...`` lines and exit codes.
User text quoted in a message goes through ``shown``: control characters escaped, long text
shortened, so an error is always one short line that cannot drive the terminal.
"""

from __future__ import annotations

import unicodedata

SHOWN_MAX = 60


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def escaped(text: str) -> str:
    """``text`` with every control, format or separator character written as an escape."""
    return "".join(_escape(ch) if ch != " " and unicodedata.category(ch)[0] in "CZ" else ch
                   for ch in text)


def shown(text: str, limit: int = SHOWN_MAX) -> str:
    """User text for a message: quoted, escaped, and cut with "…" past ``limit`` characters."""
    cut = text if len(text) <= limit else text[:limit] + "…"
    return repr(escaped(cut)).replace("\\\\", "\\")


def shown_path(path: object, limit: int = 200) -> str:
    """A file or folder path for a message: escaped, shortened only when very long."""
    text = escaped(str(path))
    return text if len(text) <= limit else text[:limit] + "…"


class KitError(Exception):
    """A problem with the user's input or request, reported as ``<field>: <message>``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)
        self.field = field
        self.message = message

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"

    def __reduce__(self):  # pickles across process pools with its class and both parts
        return (type(self), (self.field, self.message))


class ConfigError(KitError):
    """A config value (from a file or a flag) is missing, malformed or out of range."""


class GameLogError(KitError):
    """A game log breaks the rules (field names the turn or round and player)."""


class LayoutError(KitError):
    """A page plan cannot be laid out legibly on the chosen paper."""


class OutputError(KitError):
    """The output folder cannot be written."""


class RenderError(KitError):
    """The machine could not render a page (a full disk, say): not the user's input."""


class Problems(KitError):
    """Several problems found in one pass (a game log, a form): each is its own ``KitError``.

    The command line prints one ``Error: ...`` line per problem; the web and the JSON API show
    every one beside its field. ``field``/``message`` are the first problem's, so code that
    shows a single error still says something true.
    """

    def __init__(self, problems: tuple[KitError, ...] | list[KitError]) -> None:
        found = tuple(problems)
        if not found:
            raise ValueError("Problems needs at least one problem")
        super().__init__(found[0].field, found[0].message)
        self.problems = found

    def __str__(self) -> str:
        return "\n".join(str(problem) for problem in self.problems)

    def __reduce__(self):
        return (type(self), (self.problems,))
