"""The KitError family: every problem a user can cause, with the field it concerns.

Library code raises these; only ``kit.cli`` turns them into ``Error: ...`` lines and exit codes.
"""

from __future__ import annotations


class KitError(Exception):
    """A problem with the user's input or request, reported as ``<field>: <message>``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class ConfigError(KitError):
    """A config value (from a file or a flag) is missing, malformed or out of range."""


class GameLogError(KitError):
    """A What's My Number game log breaks the rules (field names the turn and player)."""


class LayoutError(KitError):
    """A page plan cannot be laid out legibly on the chosen paper."""
