"""The console's refusals that the API and the pages answer in their own way: an unknown game
or file (404), a stale version (409) and an entry its turn or round no longer takes (409)."""

from __future__ import annotations

from typing import Any

from ..errors import KitError, Msg
from ..i18n import N_


class NotFound(KitError):
    """No game with that id (404)."""


class Conflict(KitError):
    """A stale version (409): ``version`` is the current one, ``changes`` what came since."""

    def __init__(self, version: int, changes: list[dict[str, Any]],
                 said: list[Msg] | None = None) -> None:
        super().__init__("version", Msg(N_("the game changed since you loaded it (now version "
                                           "%(version)s); reload and enter again"),
                                        version=str(version)))
        self.version = version
        self.changes = changes
        # the changes, each a Msg a page says in its language (``said`` is the error's own)
        self.changes_said = said or []

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.version, self.changes, self.changes_said))


class Closed(KitError):
    """An entry the game no longer takes there (409): the turn it is for is closed or over.
    Raised by a game's entry with its own message; nothing changes."""
